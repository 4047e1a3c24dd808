"""Adapter to OpenSpiel: any two-player zero-sum turn-based pyspiel game as a zerosum game.

Information-set labels are OpenSpiel's information-state strings and action labels its action
strings, so a policy found here can be exported back (:func:`to_openspiel_policy`) and checked
with OpenSpiel's own tools.  Needs the optional extra ``open_spiel``.
"""

from __future__ import annotations

import contextlib
import functools
import os
import sys

from ..core.game import CHANCE, TERMINAL, Game
from ..errors import ZerosumError


@contextlib.contextmanager
def _quiet_stderr():
    sys.stderr.flush()
    saved = os.dup(2)
    try:
        with open(os.devnull, "w") as null:
            os.dup2(null.fileno(), 2)
            yield
    finally:
        os.dup2(saved, 2)
        os.close(saved)


def _pyspiel():
    try:
        import pyspiel
    except ImportError:  # pragma: no cover - depends on the environment
        raise ZerosumError("OpenSpiel games need the optional extra 'openspiel': pip install -e '.[openspiel]' in a clone of zerosum") from None
    return pyspiel


#: games worth suggesting when a name is misspelt (two-player zero-sum, turn-based, small)
_SUGGESTED = ("kuhn_poker", "leduc_poker", "liars_dice", "tic_tac_toe")


class OpenSpielGame(Game):
    """A pyspiel game walked through its State objects (only once, by the compiler)."""

    def __init__(self, name: str):
        pyspiel = _pyspiel()
        try:
            with _quiet_stderr():  # pyspiel also prints its error to the C stderr
                self.game = pyspiel.load_game(name)
        except RuntimeError as e:  # pyspiel.SpielError
            first = str(e).strip().splitlines()[0]
            if first.startswith("Unknown game") and first.rstrip().endswith("Available games are:"):
                # the list pyspiel prints next is long; offer the two-player zero-sum ones it knows
                import difflib

                base = name.split("(")[0]
                close = difflib.get_close_matches(base, pyspiel.registered_names(), n=3, cutoff=0.8)
                known = close or [n for n in pyspiel.registered_names() if n in _SUGGESTED]
                first = (f"OpenSpiel has no game {base!r}; " + ("did you mean " if close else "e.g. ")
                         + ", ".join(known) + " (all names: pyspiel.registered_names())")
                raise ZerosumError(first) from None
            raise ZerosumError(f"OpenSpiel cannot load {name!r}: {first}") from None
        gt = self.game.get_type()
        if self.game.num_players() != 2:
            raise ZerosumError(f"openspiel:{name} has {self.game.num_players()} players; zerosum needs 2")
        if gt.utility not in (pyspiel.GameType.Utility.ZERO_SUM, pyspiel.GameType.Utility.CONSTANT_SUM):
            raise ZerosumError(f"openspiel:{name} is not zero-sum")
        if gt.dynamics == pyspiel.GameType.Dynamics.SIMULTANEOUS:
            # OpenSpiel's own transform: the players move in turn, each unaware of the other's move
            # in the same round, the same game as extensive form (e.g. goofspiel)
            with _quiet_stderr():
                self.game = pyspiel.load_game(f"turn_based_simultaneous_game(game={self.game!s})")
            gt = self.game.get_type()
        if gt.dynamics != pyspiel.GameType.Dynamics.SEQUENTIAL:
            raise ZerosumError(f"openspiel:{name} is not turn-based")
        canonical = str(self.game)
        self.name = "openspiel:" + (canonical.removesuffix("()"))
        self._chance_player = pyspiel.PlayerId.CHANCE
        #: OpenSpiel action ids of each information set, in the order of its action labels
        self.action_ids: dict[str, tuple[int, ...]] = {}
        #: one-line information-set label -> OpenSpiel's own string (goofspiel's has newlines)
        self.openspiel_labels: dict[str, str] = {}
        self._constant = None

    def root(self):
        return self.game.new_initial_state()

    def player(self, s):
        if s.is_terminal():
            return TERMINAL
        if s.is_chance_node():
            return CHANCE
        return s.current_player()

    def actions(self, s):
        ids = tuple(s.legal_actions())
        self.action_ids.setdefault(self.infoset(s), ids)
        p = s.current_player()
        return tuple(s.action_to_string(p, a) for a in ids)

    def chance_outcomes(self, s):
        return [(s.action_to_string(self._chance_player, a), q) for a, q in s.chance_outcomes()]

    def child(self, s, action):
        p = s.current_player()
        ids = [a for a, _ in s.chance_outcomes()] if s.is_chance_node() else s.legal_actions()
        for a in ids:
            if s.action_to_string(p, a) == action:
                return s.child(a)
        raise ZerosumError(f"no action {action!r} in OpenSpiel state {s}")

    def payoff(self, s):
        r = s.returns()
        # constant-sum games are shifted to zero-sum: player 0's gain over the even split
        return 0.5 * (r[0] - r[1])

    def infoset(self, s):
        """OpenSpiel's information-state string on one line (tables and policy files show labels
        as lines); the original is kept for exporting policies back to OpenSpiel."""
        raw = s.information_state_string()
        if "\n" not in raw:
            return raw
        label = " | ".join(part.strip() for part in raw.strip().split("\n"))
        self.openspiel_labels.setdefault(label, raw)
        return label


@functools.cache
def openspiel_game(name: str) -> OpenSpielGame:
    """One adapter object per OpenSpiel game name, so that the compiled form (cached by game id)
    and the adapter's action-id table always belong together."""
    return OpenSpielGame(name)


def to_openspiel_policy(policy, game: OpenSpielGame):
    """A zerosum TabularPolicy on an OpenSpiel game as an ``open_spiel.python.policy.TabularPolicy``."""
    from open_spiel.python import policy as os_policy

    if policy.game_id != game.id:
        raise ZerosumError(f"the policy is for {policy.game_id!r}, not {game.id!r}")
    out = os_policy.TabularPolicy(game.game)
    for _, label, probs in policy.rows():
        row = out.state_lookup[game.openspiel_labels.get(label, label)]
        out.action_probability_array[row, :] = 0.0
        for a, q in zip(game.action_ids[label], probs.values()):
            out.action_probability_array[row, a] = q
    return out


def to_pyspiel_policy(policy, game: OpenSpielGame):
    """The same as a C++ ``pyspiel.TabularPolicy`` (for ``pyspiel.nash_conv`` and friends)."""
    pyspiel = _pyspiel()
    table = {}
    for _, label, probs in policy.rows():
        table[game.openspiel_labels.get(label, label)] = list(zip(game.action_ids[label], probs.values()))
    return pyspiel.TabularPolicy(table)
