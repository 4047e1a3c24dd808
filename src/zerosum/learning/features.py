"""Feature vectors of information sets, for learners that generalize across them (networks).

A table with one row per information set of a player, built once; the simulator's observation
of an information set is then one row lookup.

* **Card games written as rules** (Kuhn, Leduc, the poker family): labels are the private card,
  the public cards, then the betting (``KQ:cr/r``, or Kuhn's ``Kpb``).  The vector is one-hot
  private card, one-hot public card(s) by position, and one-hot of each betting action by round
  and position in the round (Leduc: 18 numbers for player 0, 20 for player 1).
* **OpenSpiel games**: OpenSpiel's own ``information_state_tensor``, read once per information
  set by walking the game (labels are OpenSpiel's information-state strings).
* **Anything else**: one-hot of the information set (a network then is a table).
"""

from __future__ import annotations

import numpy as np

from ..core.policy import as_compiled
from ..poker.family import ALPHABET


def infoset_features(game, player: int, kind: str = "auto") -> np.ndarray:
    """(n_infosets, size) float32 table for ``player``: ``kind`` is auto, cards, openspiel or onehot."""
    from ..errors import ZerosumError

    g = as_compiled(game)
    labels = g.treeplexes[player].infoset_labels
    if kind not in ("auto", "cards", "openspiel", "onehot"):
        raise ZerosumError(f"unknown feature kind {kind!r}; choose auto, cards, openspiel or onehot")
    if kind in ("auto", "openspiel") and g.game_id.startswith("openspiel:"):
        table = _openspiel_tensors(g, player)
        if table is not None:
            return table
        if kind == "openspiel":
            raise ZerosumError(f"{g.game_id} has no information_state_tensor")
    if kind in ("auto", "cards"):
        table = _card_features(labels)
        if table is not None:
            return table
        if kind == "cards":
            raise ZerosumError(f"the information sets of {g.game_id} are not card-game labels")
    return np.eye(len(labels), dtype=np.float32)


def _split(label: str):
    """(cards, rounds of betting) of a card-game label, or None."""
    if ":" in label:
        cards, betting = label.split(":", 1)
    else:  # Kuhn: the cards run until the first non-rank character
        k = 0
        while k < len(label) and label[k] in ALPHABET:
            k += 1
        cards, betting = label[:k], label[k:]
    if not cards or any(c not in ALPHABET for c in cards):
        return None
    return cards, betting.split("/")


def _card_features(labels) -> np.ndarray | None:
    parsed = [_split(label) for label in labels]
    if not parsed or any(p is None for p in parsed):
        return None
    ranks = sorted({c for cards, _ in parsed for c in cards}, key=ALPHABET.index)
    n_cards = max(len(cards) for cards, _ in parsed)
    n_rounds = max(len(rounds) for _, rounds in parsed)
    actions = sorted({a for _, rounds in parsed for r in rounds for a in r})
    places = [max((len(rounds[i]) if i < len(rounds) else 0) for _, rounds in parsed) for i in range(n_rounds)]
    rank_of = {c: i for i, c in enumerate(ranks)}
    act_of = {a: i for i, a in enumerate(actions)}
    betting_at = np.concatenate(([0], np.cumsum([p * len(actions) for p in places])))
    size = n_cards * len(ranks) + int(betting_at[-1])
    out = np.zeros((len(labels), size), dtype=np.float32)
    for row, (cards, rounds) in enumerate(parsed):
        for pos, c in enumerate(cards):
            out[row, pos * len(ranks) + rank_of[c]] = 1.0
        base = n_cards * len(ranks)
        for i, betting in enumerate(rounds):
            for k, a in enumerate(betting):
                out[row, base + betting_at[i] + k * len(actions) + act_of[a]] = 1.0
    if len({r.tobytes() for r in out}) != len(labels):
        return None  # two information sets would look alike
    return out


def _openspiel_tensors(g, player: int) -> np.ndarray | None:
    from ..games import load_game

    game = load_game(g.game_id).game
    if not game.get_type().provides_information_state_tensor:
        return None
    index = g.treeplexes[player].index
    out = np.zeros((len(index), game.information_state_tensor_size()), dtype=np.float32)
    seen = np.zeros(len(index), dtype=bool)
    stack = [game.new_initial_state()]
    while stack:
        s = stack.pop()
        if s.is_terminal():
            continue
        if s.is_chance_node():
            stack.extend(s.child(a) for a, _ in s.chance_outcomes())
            continue
        if s.current_player() == player:
            i = index.get(s.information_state_string())
            if i is not None and not seen[i]:
                out[i] = s.information_state_tensor()
                seen[i] = True
        stack.extend(s.child(a) for a in s.legal_actions())
    return out if seen.all() else None
