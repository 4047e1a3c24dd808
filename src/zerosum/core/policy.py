"""Tabular policies: one behavioral strategy per player, stored per sequence, with readable labels.

Saved as JSON (never pickle)::

    {"format": "zerosum.policy", "version": 1, "game": "leduc",
     "players": [{"K:": {"c": 0.25, "r": 0.75}, ...}, {...}]}

``players[p]`` maps each of player p's information-set labels to its action probabilities.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import ZerosumError
from .compile import CompiledGame, compiled
from .game import Game

FORMAT = "zerosum.policy"
VERSION = 1


def as_compiled(game) -> CompiledGame:
    """Accept a Game or an already compiled game."""
    if isinstance(game, CompiledGame):
        return game
    if isinstance(game, Game):
        return compiled(game)
    raise ZerosumError(f"expected a zerosum game, got {type(game).__name__}")


class TabularPolicy:
    """Both players' behavioral strategies on one compiled game.

    ``probs[p][s]`` is the probability of sequence s's action at its information set.
    """

    def __init__(self, game, probs):
        self.game = as_compiled(game)
        probs = tuple(np.asarray(p, dtype=float) for p in probs)
        for p, (tree, pi) in enumerate(zip(self.game.treeplexes, probs)):
            if pi.shape != (tree.n_sequences,):
                raise ZerosumError(f"player {p}'s strategy has {pi.shape} entries, "
                                   f"the game has {tree.n_sequences} sequences")
            _check_behavioral(tree, pi, p)
        self.probs = probs

    @classmethod
    def uniform(cls, game) -> TabularPolicy:
        g = as_compiled(game)
        return cls(g, (g.treeplexes[0].uniform(), g.treeplexes[1].uniform()))

    @property
    def game_id(self) -> str:
        return self.game.game_id

    def _locate(self, label: str, player: int | None):
        players = (0, 1) if player is None else (player,)
        for p in players:
            i = self.game.treeplexes[p].index.get(label)
            if i is not None:
                return p, i
        raise ZerosumError(f"no information set {label!r} in {self.game_id}")

    def action_probabilities(self, label: str, player: int | None = None) -> dict[str, float]:
        """Probabilities of each action at the information set ``label``."""
        p, i = self._locate(label, player)
        tree = self.game.treeplexes[p]
        f = tree.infoset_first[i]
        return {a: float(self.probs[p][f + k]) for k, a in enumerate(tree.action_labels[i])}

    def rows(self):
        """(player, label, {action: probability}) for every information set, in treeplex order."""
        for p, tree in enumerate(self.game.treeplexes):
            for i, label in enumerate(tree.infoset_labels):
                yield p, label, self.action_probabilities(label, p)

    def to_dict(self) -> dict:
        players = [{}, {}]
        for p, label, probs in self.rows():
            players[p][label] = probs
        return {"format": FORMAT, "version": VERSION, "game": self.game_id, "players": players}

    def save(self, path) -> None:
        """Write JSON atomically: either the whole file appears or nothing does."""
        write_text_atomic(path, json.dumps(self.to_dict(), indent=1))

    @classmethod
    def from_dict(cls, game, data: dict, source: str = "policy") -> TabularPolicy:
        g = as_compiled(game)
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ZerosumError(f"{source} is not a zerosum policy file")
        if data.get("version") != VERSION:
            raise ZerosumError(f"{source} has policy format version {data.get('version')!r}; "
                               f"this zerosum reads version {VERSION}")
        players = data.get("players")
        if data.get("game") != g.game_id and not _same_structure(g, players):
            raise ZerosumError(f"{source} was made for game {data.get('game')!r}, not {g.game_id!r}")
        if not isinstance(players, list) or len(players) != 2:
            raise ZerosumError(f"{source}: 'players' must be a list of two tables")
        probs = []
        for p, tree in enumerate(g.treeplexes):
            table = players[p]
            if not isinstance(table, dict) or set(table) != set(tree.infoset_labels):
                raise ZerosumError(f"{source}: player {p}'s information sets do not match {g.game_id}")
            pi = np.ones(tree.n_sequences)
            for i, label in enumerate(tree.infoset_labels):
                entry = table[label]
                actions = tree.action_labels[i]
                if not isinstance(entry, dict) or set(entry) != set(actions):
                    raise ZerosumError(f"{source}: actions at {label!r} should be {list(actions)}")
                try:
                    values = np.array([float(entry[a]) for a in actions])
                except (TypeError, ValueError):
                    raise ZerosumError(f"{source}: non-numeric probability at {label!r}") from None
                if not np.all(np.isfinite(values)) or np.any(values < 0) or abs(values.sum() - 1) > 1e-6:
                    raise ZerosumError(f"{source}: probabilities at {label!r} must be >= 0 and sum to 1")
                f = tree.infoset_first[i]
                pi[f:f + len(actions)] = values / values.sum()
            probs.append(pi)
        return cls(g, probs)

    @classmethod
    def load(cls, game, path) -> TabularPolicy:
        path = Path(path)
        try:
            data = json.loads(path.read_text())
        except OSError as e:
            raise ZerosumError(f"cannot read policy file {str(path)!r}: {e.strerror}") from None
        except (UnicodeDecodeError, json.JSONDecodeError):
            raise ZerosumError(f"{str(path)!r} is not a JSON policy file") from None
        return cls.from_dict(game, data, source=repr(str(path)))


def _check_behavioral(tree, pi: np.ndarray, player: int) -> None:
    """Probabilities >= 0 summing to 1 at every information set (to 1e-6: solvers' averages are
    normalised in floating point): a negative or unnormalised table gives a NashConv that is a
    number, and wrong.  Two vectorised passes over the sequences (one ``reduceat``), once per
    policy made, not per evaluation."""
    body = pi[1:]  # sequence 0 is the empty sequence, not a choice
    if not body.size:
        return
    bad = ~np.isfinite(body) | (body < -1e-9)
    sums = np.add.reduceat(np.where(bad, 0.0, body), tree.segment_starts)
    wrong = np.flatnonzero(np.abs(sums - 1) > 1e-6)
    if bad.any() or wrong.size:
        i = int(tree.seq_infoset[1 + np.flatnonzero(bad)[0]]) if bad.any() else int(wrong[0])
        raise ZerosumError(f"player {player}'s probabilities at {tree.infoset_labels[i]!r} must be >= 0 and "
                           f"sum to 1 (TabularPolicy.uniform(game) is a valid start)")


def policy_for(game, policy) -> CompiledGame:
    """The compiled ``game``, once ``policy`` is known to be a TabularPolicy of it; otherwise one
    ZerosumError (a Kuhn policy against Leduc used to end in NumPy's ``matmul: dimension
    mismatch``, or worse, in a number, where two games' sequence counts happened to agree).

    Cheap on purpose, for the evaluators' hot paths: compiled games are cached, so a policy made
    on the same game passes on one identity test; only a policy compiled separately pays one
    comparison of the two games' information-set labels (a tuple compare, no tree walk)."""
    g = as_compiled(game)
    if not isinstance(policy, TabularPolicy):
        raise ZerosumError(f"expected a TabularPolicy, got {type(policy).__name__}; make one with "
                           f"TabularPolicy.load(game, 'policy.json') or a solver's average_policy()")
    other = policy.game
    if other is g:
        return g
    same = (len(other.treeplexes) == len(g.treeplexes)
            and all(a.n_sequences == b.n_sequences and list(a.infoset_labels) == list(b.infoset_labels)
                    for a, b in zip(other.treeplexes, g.treeplexes)))
    if not same:
        raise ZerosumError(f"the policy is for game {other.game_id!r}, not {g.game_id!r}; evaluate it "
                           f"on its own game, or solve this one (zerosum solve {g.game_id} --save p.json)")
    return g


def _same_structure(game, players) -> bool:
    """Whether a policy file's tables name exactly the information sets and actions of ``game``
    (e.g. Leduc and the poker family's default member, two names for one game): then the policy
    applies although the file names another game id."""
    if not isinstance(players, list) or len(players) != 2:
        return False
    for tree, table in zip(game.treeplexes, players):
        if not isinstance(table, dict) or set(table) != set(tree.infoset_labels):
            return False
        for label, actions in zip(tree.infoset_labels, tree.action_labels):
            if not isinstance(table[label], dict) or set(table[label]) != set(actions):
                return False
    return True


def write_text_atomic(path, text: str) -> None:
    """Write a file through a temporary sibling and a rename, with the mode the umask gives a new
    file; raise ZerosumError naming ``path`` if impossible."""
    from ..files import write_text

    write_text(path, text)
