"""Limit Texas hold'em subgames: a board of 3, 4 or 5 cards, a pot, and the streets still to come.

Parameters: ``board`` ("Ks7d2c9h"; the streets after it are dealt by chance, one card each),
``pot`` (chips already in the middle, half from each player), ``stack`` (chips each player can
still put in; a raise that would pass it is not offered), ``bets`` (bet and raise size of each
street still to play, flop / turn / river), ``raises`` (cap per street, a bet counts as one) and
each player's range (``range0``, ``range1``: uniform over the hole pairs that miss the board by
default, or the usual notation ``AA,KQs,T9o+,AhKh:0.5``).  Player 0 acts first on every street.

The chance deal of the hands is proportional to range0(i) * range1(j) over pairs that share no
card.  Two compiled forms: the public tree (:meth:`public_tree`, hands as vectors, showdowns by a
sorted sweep) for any range; the per-history tree of the generic compiler for narrow ranges only
(it grows with the number of hand pairs: the full turn subgame would have 7.6e9 histories).
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from ..core.game import CHANCE, TERMINAL, Game
from ..core.memory import COMPILE_BYTES_PER_HISTORY, memory_limit
from ..errors import ZerosumError

#: default bet size per street (flop, turn, river): a 2/4 limit game
DEFAULT_BETS = {3: (2.0, 4.0, 4.0), 4: (4.0, 4.0), 5: (4.0,)}
#: public-tree bytes per information-set action (regrets and average, float64) and per node and hand
PUBLIC_BYTES_PER_IA, PUBLIC_BYTES_PER_NODE_HAND = 16, 24
#: and per public node whatever the ranges: its arrays, label and action labels (measured: 206 bytes
#: of peak growth per node while building the 2.4 M-node flop subgame), with a margin
PUBLIC_BYTES_PER_NODE = 300


class HoldemHistory(NamedTuple):
    hands: tuple  # () before the deal, then (pair index of player 0, of player 1)
    dealt: tuple  # cards dealt after the starting board
    rounds: tuple  # betting of each street so far


def _legal(betting: str, cap: int, can_raise: bool) -> tuple[str, ...]:
    legal = ("f", "c") if betting.endswith("r") else ("c",)
    return legal + ("r",) if betting.count("r") < cap and can_raise else legal


class HoldemGame(Game):
    """One limit hold'em subgame; see the module docstring."""

    name = "holdem"

    def __init__(self, board: str, pot=10, stack=1000, bets=None, raises=3, range0: str = "",
                 range1: str = "", max_bytes: int | None = None):
        from .cards import cards_str, hole_pairs, live_pairs, pair_str, parse_board
        from .ranges import parse_range

        if not str(board).strip():
            raise ZerosumError("holdem needs a board of 3, 4 or 5 cards, e.g. --param board=Ks7d2c9h")
        self.board = parse_board(board, (3, 4, 5))
        self.board_text = cards_str(self.board)
        self.streets = 6 - len(self.board)
        try:
            self.pot, self.stack = float(pot), float(stack)
        except (TypeError, ValueError):
            raise ZerosumError(f"holdem: pot and stack must be numbers, got {pot!r}, {stack!r}") from None
        if not self.pot > 0 or not self.stack >= 0:
            raise ZerosumError(f"holdem: pot must be positive and stack non-negative, got {pot}, {stack}")
        if bets is None:
            bets = DEFAULT_BETS[len(self.board)]
        bets = list(bets) if isinstance(bets, (list, tuple)) else [bets] * self.streets
        if len(bets) != self.streets:
            raise ZerosumError(f"holdem: bets needs one size per street still to play ({self.streets}), got {bets}")
        try:
            self.bets = tuple(float(b) for b in bets)
        except (TypeError, ValueError):
            raise ZerosumError(f"holdem: bets must be numbers, got {bets!r}") from None
        if any(not b > 0 for b in self.bets):
            raise ZerosumError(f"holdem: bet sizes must be positive, got {list(self.bets)}")
        if isinstance(raises, bool) or not isinstance(raises, int) or not 0 <= raises <= 16:
            raise ZerosumError(f"holdem: raises must be an integer from 0 to 16, got {raises!r}")
        self.raises = raises
        self.range_text = (str(range0), str(range1))
        weights = [parse_range(r, dead=self.board) for r in self.range_text]
        # both players share one hand list: the pairs either range holds
        live = live_pairs(self.board)
        self.hands = live[(weights[0][live] > 0) | (weights[1][live] > 0)]
        self.hand_cards = hole_pairs()[self.hands]
        self.hand_labels = tuple(pair_str(i) for i in self.hands)
        self.ranges = (weights[0][self.hands], weights[1][self.hands])
        self._pairs = self._compatible_pairs()
        if not self._pairs[2].sum() > 0:
            raise ZerosumError("holdem: the two ranges cannot be dealt together (every pair shares a card)")
        self.max_bytes = max_bytes
        est = self.estimated_sizes()
        limit = memory_limit(max_bytes)
        if est["public_bytes"] > limit:
            raise ZerosumError(
                f"{self.id} is too large even for the public tree: {est['public_nodes']:,} public nodes x "
                f"{len(self.hands):,} hands would need about {est['public_bytes'] / 1e9:.1f} GB, more than the "
                f"{limit / 1e9:.1f} GB available; use a later street, narrower ranges or fewer raises")

    def params(self) -> dict:
        def num(x):
            return int(x) if float(x).is_integer() else x

        out = {"board": self.board_text, "pot": num(self.pot), "stack": num(self.stack),
               "bets": "[" + ",".join(str(num(b)) for b in self.bets) + "]", "raises": self.raises}
        for p in (0, 1):
            if self.range_text[p].strip().lower() not in ("", "random", "all"):
                out[f"range{p}"] = self.range_text[p]
        return out

    def _compatible_pairs(self):
        """(i, j, weight) over the ordered hand pairs that share no card."""
        c = self.hand_cards
        share = ((c[:, None, 0] == c[None, :, 0]) | (c[:, None, 0] == c[None, :, 1]) |
                 (c[:, None, 1] == c[None, :, 0]) | (c[:, None, 1] == c[None, :, 1])) if len(c) <= 4000 else None
        if share is None:  # never: at most 1,176 hands
            raise AssertionError
        w = self.ranges[0][:, None] * self.ranges[1][None, :] * ~share
        i, j = np.nonzero(w)
        return i, j, w[i, j]

    # --- sizes, counted without building anything ----------------------------------------------
    def _betting_counts(self):
        from .family import betting_tree

        d, f, e = (len(x) for x in betting_tree(self.raises))
        return d, f, e

    def estimated_sizes(self) -> dict:
        d, f, e = self._betting_counts()
        deals = len(self._pairs[0])
        left_hist = 52 - len(self.board) - 4
        left_pub = 52 - len(self.board)
        hist_street = pub_street = None
        for s in reversed(range(self.streets)):
            if hist_street is None:
                hist_street = pub_street = d + f + e
            else:
                hist_street = d + f + e * (1 + (left_hist - s) * hist_street)
                pub_street = d + f + e * (1 + (left_pub - s) * pub_street)
        histories = 1 + deals * hist_street
        n = len(self.hands)
        decisions = pub_street * d / (d + f + e)
        ia = int(decisions * 2.5 * n)  # about 2.5 actions per decision node
        return {"histories": histories, "public_nodes": pub_street, "infoset_actions": ia,
                "compile_bytes": histories * COMPILE_BYTES_PER_HISTORY,
                "public_bytes": ia * PUBLIC_BYTES_PER_IA
                + pub_street * (PUBLIC_BYTES_PER_NODE + n * PUBLIC_BYTES_PER_NODE_HAND)}

    # --- the rules (per history: for the generic compiler, narrow ranges only) -----------------
    def contributions(self, h) -> list[float]:
        put = [self.pot / 2, self.pot / 2]
        for street, betting in enumerate(h.rounds):
            for k, a in enumerate(betting):
                me = k % 2
                if a == "c":
                    put[me] = put[1 - me]
                elif a == "r":
                    put[me] = put[1 - me] + self.bets[street]
        return put

    def _actions_of(self, rounds) -> tuple[str, ...]:
        betting = rounds[-1]
        put = self.contributions(HoldemHistory((), (), rounds))
        can_raise = max(put) + self.bets[len(rounds) - 1] <= self.pot / 2 + self.stack
        return _legal(betting, self.raises, can_raise)

    def root(self):
        return HoldemHistory((), (), ("",))

    def player(self, h):
        if not h.hands:
            return CHANCE
        betting = h.rounds[-1]
        if betting.endswith("f"):
            return TERMINAL
        if len(betting) >= 2 and betting[-1] == "c":
            return CHANCE if len(h.rounds) < self.streets else TERMINAL
        return len(betting) % 2

    def actions(self, h):
        return self._actions_of(h.rounds)

    def chance_outcomes(self, h):
        from .cards import card_str

        if not h.hands:
            i, j, w = self._pairs
            total = w.sum()
            return [(f"{a}:{b}", float(x / total)) for a, b, x in zip(i.tolist(), j.tolist(), w)]
        used = set(self.board) | set(h.dealt) | set(self.hand_cards[h.hands[0]]) | set(self.hand_cards[h.hands[1]])
        left = [c for c in range(52) if c not in used]
        return [(card_str(c), 1.0 / len(left)) for c in left]

    def child(self, h, action):
        from .cards import parse_card

        if not h.hands:
            a, b = action.split(":")
            return HoldemHistory((int(a), int(b)), (), h.rounds)
        if self.player(h) == CHANCE:
            return HoldemHistory(h.hands, h.dealt + (parse_card(action),), h.rounds + ("",))
        return HoldemHistory(h.hands, h.dealt, h.rounds[:-1] + (h.rounds[-1] + action,))

    def payoff(self, h):
        from .strength import hand_strengths

        put = self.contributions(h)
        betting = h.rounds[-1]
        if betting.endswith("f"):
            return -put[0] if (len(betting) - 1) % 2 == 0 else put[1]
        board = np.array(self.board + h.dealt)
        s = hand_strengths(board, self.hand_cards[list(h.hands)])
        return put[1] if s[0] > s[1] else (-put[0] if s[0] < s[1] else 0.0)

    def public_label(self, dealt, rounds) -> str:
        from .cards import cards_str

        return ":" + cards_str(dealt) + ":" + "/".join(rounds)

    def infoset(self, h):
        me = self.player(h)
        return self.hand_labels[h.hands[me]] + self.public_label(h.dealt, h.rounds)

    def check_history_tree(self, max_bytes: int | None = None) -> None:
        """Refuse, before any work and with the exact count, a subgame whose history tree would not
        fit (the public tree, :func:`zerosum.public_tree.compile.public_tree`, has no such limit)."""
        est = self.estimated_sizes()
        limit = memory_limit(self.max_bytes if max_bytes is None else max_bytes)
        if est["compile_bytes"] > limit:
            raise ZerosumError(
                f"{self.id} has {est['histories']:,} histories: about {est['compile_bytes'] / 1e9:.1f} GB as a "
                f"history tree, more than the {limit / 1e9:.1f} GB available; use --form public-tree")
        # Time, not only memory: a full river subgame (22,473,991 histories) fits in 11 GB but took
        # 8 min 40 s to compile and solve through the Python API, where its public tree builds in
        # about a second; the compiler walks ~18,000 hold'em histories/s here (49,141 in 2.8 s).
        if est["histories"] > HISTORY_TREE_MAX_HISTORIES:
            minutes = est["histories"] / HISTORY_RATE / 60
            raise ZerosumError(
                f"{self.id} has {est['histories']:,} histories: about {minutes:,.0f} min to compile as a history "
                f"tree (~{HISTORY_RATE:,} histories/s), past the {HISTORY_TREE_MAX_HISTORIES:,}-history limit; "
                f"use --form public-tree (about a second; in Python: "
                f"zerosum.public_tree.solver.public_solver(\"cfr+\", game))")


#: the history tree of a hold'em subgame is refused past this many histories (about 2 minutes of
#: compiling at HISTORY_RATE); the public tree has no such limit
HISTORY_TREE_MAX_HISTORIES = 2_000_000
#: hold'em histories compiled per second, measured here (49,141 in 2.8 s on a loaded 2-core machine)
HISTORY_RATE = 18_000


def holdem(**params) -> HoldemGame:
    return HoldemGame(**params)

