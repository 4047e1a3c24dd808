"""Playing hands of a compiled game, many at a time: the simulator every learner trains on.

Learners that "only play" see a hand the way a player does: an observation at each of their
decisions (the information set, as an id and as a feature vector), the legal actions, and a
reward at the end.  Everything else (dealing, the opponent's moves) happens inside Numba loops
over the compiled history tree (:class:`zerosum.core.compile.HistoryTree`), so a hand costs a few
array reads rather than a Python call per history.

The opponent plays a fixed *mixture*: members (behavioral strategies, one row per member) and
meta-probabilities.  As in real play, a member is drawn once per hand and plays the whole hand;
the realization plan of that is exactly ``weights @ plans``, the meta-strategy PSRO measures.

Random numbers are the splitmix64 stream of :mod:`zerosum.solvers.mccfr`, seeded inside the
compiled code from ``(seed, stream)``: the same seed and stream give the same hands bit for bit.

Two interfaces:

* :class:`Environment`, a batched environment in the conventions of RL toolkits (``reset()`` and
  ``step(actions)`` returning a :class:`TimeStep`, finished hands restarted automatically), for
  learners that live in Python (networks);
* the ``@njit`` helpers :func:`deal_to_learner`, :func:`advance` and :func:`sample_action`, for
  learners compiled with Numba (the tabular oracles), and :func:`play_profile` for estimating
  payoffs by simulation.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core.game import CHANCE, TERMINAL
from ..core.policy import as_compiled
from ..core.sampling import sample as sample_action  # an action index in [0, n) drawn from probs[g:g+n]
from ..core.sampling import sample_chance, seed_iteration, uniform
from ..errors import ZerosumError

NOBODY = -3  # "learner" when both players follow fixed policies


@njit(cache=True, inline="always")
def pick_member(cum, state):
    """A member index drawn from cumulative meta-probabilities ``cum`` (last entry 1)."""
    u = uniform(state) * cum[len(cum) - 1]
    k = 0
    last = len(cum) - 1
    while k < last and u >= cum[k]:
        k += 1
    return k


@njit(cache=True)
def advance(h, learner, opponent, member, opp_probs, player, seq0, first_child, n_children, edge_prob,
            state):
    """From history h, play chance and the fixed players until ``learner`` must act or the hand
    ends; return that history.  ``opp_probs[member]`` is the opponent's behavioral strategy; with
    ``learner == NOBODY`` the two players' strategies are ``opp_probs[member]`` (player 0) and
    ``opp_probs[opponent]`` (player 1), rows of one stacked array."""
    while True:
        p = player[h]
        if p == CHANCE:
            h = sample_chance(first_child[h], n_children[h], edge_prob, state)
            continue
        if p == TERMINAL or p == learner:
            return h
        row = member if (learner != NOBODY or p == 0) else opponent
        h = first_child[h] + sample_action(opp_probs[row], seq0[h], n_children[h], state)


@njit(cache=True)
def deal_to_learner(learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob, payoff,
                    state, counts):
    """Deal hands until one reaches a decision of the learner; return (history, member).

    ``counts`` accumulates [hands dealt, hands that ended before the learner acted, the learner's
    payoff in those]."""
    sign = 1.0 if learner == 0 else -1.0
    while True:
        member = pick_member(opp_cum, state)
        h = advance(0, learner, -1, member, opp_probs, player, seq0, first_child, n_children, edge_prob, state)
        counts[0] += 1
        if player[h] != TERMINAL:
            return h, member
        counts[1] += 1
        counts[2] += sign * payoff[h]


@njit(cache=True)
def _play_profile(probs, cum0, cum1, n0, player, seq0, first_child, n_children, edge_prob, payoff, seed,
                  stream, hands, out):
    """Play ``hands`` hands, each player drawing a member per hand; out[k] = player 0's payoff."""
    state = np.zeros(1, dtype=np.uint64)
    seed_iteration(state, seed, stream)
    for k in range(hands):
        m0 = pick_member(cum0, state)
        m1 = n0 + pick_member(cum1, state)
        h = advance(0, NOBODY, m1, m0, probs, player, seq0, first_child, n_children, edge_prob, state)
        out[k] = payoff[h]


@njit(cache=True)
def _env_reset(slots, learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob, payoff,
               hist, member, reward, done, counts, state):
    """Deal new hands into the given slots, advanced to the learner's first decision."""
    for b in slots:
        hist[b], member[b] = deal_to_learner(learner, opp_probs, opp_cum, player, seq0, first_child, n_children,
                                             edge_prob, payoff, state, counts)


@njit(cache=True)
def _env_step(actions, learner, opp_probs, opp_cum, player, seq0, first_child, n_children, edge_prob, payoff,
              hist, member, reward, done, counts, state):
    """Apply one learner action per slot; finished hands get their reward and are dealt again."""
    for b in range(len(hist)):
        if actions[b] < 0 or actions[b] >= n_children[hist[b]]:
            return b  # an illegal action: nothing is played, the slot is reported
    sign = 1.0 if learner == 0 else -1.0
    for b in range(len(hist)):
        h = hist[b]
        a = actions[b]
        h = advance(first_child[h] + a, learner, -1, member[b], opp_probs, player, seq0, first_child,
                    n_children, edge_prob, state)
        if player[h] == TERMINAL:
            reward[b] = sign * payoff[h]
            done[b] = True
            h, member[b] = deal_to_learner(learner, opp_probs, opp_cum, player, seq0, first_child, n_children,
                                           edge_prob, payoff, state, counts)
        else:
            reward[b] = 0.0
            done[b] = False
        hist[b] = h
    return -1


class Simulator:
    """The arrays a hand is played on, taken once from a compiled game.

    ``seq0[h]`` is the first sequence (in the acting player's own treeplex) of the information set
    at decision h, so the action probabilities at h are ``probs[seq0[h]:seq0[h] + n_children[h]]``.
    """

    def __init__(self, game):
        self.game = g = as_compiled(game)
        tree = g.tree
        seq0 = np.full(len(tree), -1, dtype=np.int64)
        for p in (0, 1):
            mine = tree.player == p
            seq0[mine] = g.treeplexes[p].infoset_first[tree.infoset[mine]]
        self.seq0 = seq0
        self.player = tree.player
        self.infoset = tree.infoset
        self.first_child = tree.first_child
        self.n_children = tree.n_children
        self.edge_prob = tree.edge_prob
        self.payoff = tree.payoff
        self.max_actions = int(max((t.infoset_size.max() if t.n_infosets else 1) for t in g.treeplexes))
        # the longest run of one player's decisions in a hand bounds a learner's trajectory
        self.max_decisions = int(max((t.infoset_depth.max() + 1 if t.n_infosets else 0) for t in g.treeplexes))
        self.payoff_scale = float(np.abs(tree.payoff).max()) or 1.0

    @property
    def arrays(self):
        """(player, seq0, first_child, n_children, edge_prob): what :func:`advance` needs."""
        return self.player, self.seq0, self.first_child, self.n_children, self.edge_prob

    def play_profile(self, policies, seed: int = 0, stream: int = 0, hands: int = 1000) -> np.ndarray:
        """Player 0's payoff in each of ``hands`` hands between two mixtures (see :class:`Mixture`),
        or two behavioral strategies per sequence."""
        hands = check_hands(hands)
        mixes = [m if isinstance(m, Mixture) else Mixture(self.game, 1 - p, [m])
                 for p, m in enumerate(policies)]
        if any(m.player != 1 - p for p, m in enumerate(mixes)):
            raise ZerosumError("play_profile takes player 0's policy first, then player 1's")
        n0 = len(mixes[0].probs)
        width = max(mixes[0].probs.shape[1], mixes[1].probs.shape[1])
        stacked = np.zeros((n0 + len(mixes[1].probs), width))
        stacked[:n0, :mixes[0].probs.shape[1]] = mixes[0].probs
        stacked[n0:, :mixes[1].probs.shape[1]] = mixes[1].probs
        out = np.empty(hands)
        _play_profile(stacked, mixes[0].cum, mixes[1].cum, n0, *self.arrays, self.payoff, check_seed(seed),
                      int(stream), hands, out)
        return out


class Mixture:
    """A fixed player's strategy in the simulator: behavioral members and meta-probabilities.

    ``player`` is the *learner* the mixture plays against (the mixture belongs to ``1 - player``).
    """

    def __init__(self, game, player: int, members, weights=None):
        g = as_compiled(game)
        if player not in (0, 1):
            raise ZerosumError(f"player must be 0 or 1, got {player!r}")
        tree = g.treeplexes[1 - player]
        probs = np.array(members, dtype=np.float64, ndmin=2)
        if probs.ndim != 2 or probs.shape[1] != tree.n_sequences or len(probs) == 0:
            raise ZerosumError(f"a mixture for player {1 - player} needs rows of {tree.n_sequences} "
                               f"action probabilities")
        w = np.ones(len(probs)) if weights is None else np.asarray(weights, dtype=np.float64)
        if w.shape != (len(probs),) or np.any(w < 0) or not np.isfinite(w).all() or w.sum() <= 0:
            raise ZerosumError("meta-probabilities must be non-negative, finite, one per member, not all 0")
        self.player = player
        self.probs = np.ascontiguousarray(probs)
        self.weights = w / w.sum()
        self.cum = np.cumsum(self.weights)
        self.cum[-1] = 1.0

    @classmethod
    def uniform(cls, game, player: int) -> Mixture:
        g = as_compiled(game)
        return cls(g, player, [g.treeplexes[1 - player].uniform()])


def check_hands(hands, name: str = "hands") -> int:
    if isinstance(hands, bool) or not isinstance(hands, (int, np.integer)) or hands <= 0:
        raise ZerosumError(f"{name} must be a positive integer, got {hands!r}")
    return int(hands)


def check_seed(seed) -> int:
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2 ** 63:
        raise ZerosumError(f"seed must be a non-negative integer, got {seed!r}")
    return int(seed)


@dataclass
class TimeStep:
    """What a batch of learners sees after ``reset`` or ``step``.

    ``reward[b]`` and ``done[b]`` describe the hand that slot b just finished (``done`` False: the
    hand goes on, reward 0); the observation is always of a live decision: the hand still going or
    the next one dealt in its place (toolkits' "auto-reset").  ``sequence[b]`` is the first
    sequence of the information set, so a tabular learner's values are ``table[sequence + a]``.
    """

    infoset: np.ndarray  # (B,) information-set ids of the learner
    sequence: np.ndarray  # (B,) first sequence of each information set
    legal: np.ndarray  # (B, max_actions) bool
    reward: np.ndarray  # (B,)
    done: np.ndarray  # (B,) bool
    features: np.ndarray | None = None  # (B, feature size) when the environment has features


class Environment:
    """A batch of hands of ``game`` seen by ``player``, the other player following ``opponent``.

    ``opponent`` is a :class:`Mixture` (or one behavioral strategy per sequence); ``features`` a
    table with one row per information set of ``player`` (see :mod:`zerosum.learning.features`),
    or None.  ``hands_played`` counts every hand dealt, including hands that ended before the
    learner acted (``hands_skipped``; their payoff is in ``skipped_payoff``).
    """

    def __init__(self, game, player: int, opponent=None, batch: int = 1, seed: int = 0, stream: int = 0,
                 features: np.ndarray | None = None):
        self.sim = game if isinstance(game, Simulator) else Simulator(game)
        g = self.sim.game
        if player not in (0, 1):
            raise ZerosumError(f"player must be 0 or 1, got {player!r}")
        self.player = player
        if opponent is None:
            opponent = Mixture.uniform(g, player)
        elif not isinstance(opponent, Mixture):
            opponent = Mixture(g, player, [opponent])
        if opponent.player != player:
            raise ZerosumError("the opponent's mixture was made for the other learner")
        self.opponent = opponent
        self.batch = check_hands(batch, "batch")
        tree = g.treeplexes[player]
        self.tree = tree
        if features is not None and (features.ndim != 2 or len(features) != tree.n_infosets):
            raise ZerosumError(f"features need one row per information set ({tree.n_infosets})")
        self.feature_table = features
        #: legal-action mask of each information set of the player (n_infosets x max_actions)
        self.legal_table = np.arange(self.sim.max_actions)[None, :] < tree.infoset_size[:, None]
        self._state = np.zeros(1, dtype=np.uint64)
        seed_iteration(self._state, check_seed(seed), int(stream))
        self._hist = np.zeros(self.batch, dtype=np.int64)
        self._member = np.zeros(self.batch, dtype=np.int64)
        self._reward = np.zeros(self.batch)
        self._done = np.zeros(self.batch, dtype=np.bool_)
        self._counts = np.zeros(3)  # hands dealt, hands without a learner decision, their payoff
        self._started = False

    def _args(self):
        s = self.sim
        return (self.player, self.opponent.probs, self.opponent.cum, *s.arrays, s.payoff, self._hist,
                self._member, self._reward, self._done, self._counts, self._state)

    def _observe(self) -> TimeStep:
        infoset = self.sim.infoset[self._hist]
        feats = self.feature_table[infoset] if self.feature_table is not None else None
        return TimeStep(infoset, self.tree.infoset_first[infoset], self.legal_table[infoset],
                        self._reward.copy(), self._done.copy(), feats)

    def reset(self) -> TimeStep:
        """Deal a fresh hand into every slot."""
        self._reward[:] = 0.0
        self._done[:] = False
        _env_reset(np.arange(self.batch), *self._args())
        self._started = True
        return self._observe()

    def step(self, actions) -> TimeStep:
        """One action per slot (indices into the legal actions, in the information set's order)."""
        if not self._started:
            raise ZerosumError("call reset() before step()")
        a = np.asarray(actions, dtype=np.int64)
        if a.shape != (self.batch,):
            raise ZerosumError(f"step needs {self.batch} actions, got shape {a.shape}")
        bad = _env_step(a, *self._args())
        if bad >= 0:
            raise ZerosumError(f"action {int(a[bad])} is not legal in slot {bad}")
        return self._observe()

    @property
    def hands_played(self) -> int:
        return int(self._counts[0])

    @property
    def hands_skipped(self) -> int:
        return int(self._counts[1])

    @property
    def skipped_payoff(self) -> float:
        return float(self._counts[2])
