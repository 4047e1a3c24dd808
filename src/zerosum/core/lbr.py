"""Local best response (Lisy and Bowling 2017): a lower bound on what a best response gains.

At each of its decisions the LBR player knows its own information set and keeps the opponent's
*range*: the histories of that information set weighted by chance and the opponent's reach under the
policy (Bayes along the history).  It values each action against that range under a *fixed
continuation* and plays the best one:

* after the action, the opponent plays its policy (so a bet is worth its fold equity: the
  opponent's fold probability at its response, from the policy, as in the paper);
* the LBR player itself only checks or calls from then on (``c``; Kuhn's ``p``, or ``b`` facing a
  bet), to the end of the game, as in the paper.

The paper also lets the opponent check/call after its response, because it ran on no-limit hold'em;
here the opponent's later actions come from its policy exactly (the tree is at hand), which only makes
the valuation closer to the truth.  Either way LBR is a strategy actually played, so its value against
the policy can never exceed the best response's: its gain is a lower bound on NashConv.

LBR plays ``hands`` hands in each seat against the policy (seeded: the same seed gives the same
numbers); the report is the mean payoff per seat with a 95 % confidence interval (1.96 standard
errors), the gains over the policy's own value in that seat, and their sum, the estimate of NashConv
(with its interval, the two seats independent).  Since the rule is a function of the information set
only, it is computed once per information set on the compiled tree (every information set's action
values in one upward and one downward pass over the history arrays, level by level) and the hands
are played all at once, one tree level per step: 20,000 hands of Leduc in each seat, the rule
included, take 40 ms here.  The
exact value of the LBR strategy (sequence form) comes with it, to check the sampling.

This runs on the compiled history tree, so it reaches the games whose exact best response does too;
it is the check of LBR against the exact gain, and the reference for an LBR on games too large for
one.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ..errors import ZerosumError
from .game import TERMINAL
from .policy import TabularPolicy, policy_for
from .sequence_form import realization_plan

Z95 = 1.959963984540054


def _levels(tree) -> list[np.ndarray]:
    """History ids by depth (the root alone first)."""
    out = [np.array([0])]
    while True:
        h = out[-1]
        n = tree.n_children[h]
        h = h[n > 0]
        if not h.size:
            return out
        n = tree.n_children[h]
        out.append(np.sort(np.repeat(tree.first_child[h], n) + _ranges(n)))


def _ranges(n: np.ndarray) -> np.ndarray:
    """0..n[0]-1, 0..n[1]-1, ... concatenated."""
    starts = np.cumsum(n) - n
    return np.arange(int(n.sum())) - np.repeat(starts, n)


def passive_actions(cg, player: int) -> np.ndarray:
    """Per information set of ``player``, the position of its check/call action."""
    tree = cg.treeplexes[player]
    out = np.empty(tree.n_infosets, dtype=np.int64)
    for i, (label, acts) in enumerate(zip(tree.infoset_labels, tree.action_labels)):
        if "c" in acts:
            out[i] = acts.index("c")
        elif tuple(acts) == ("p", "b"):  # Kuhn: pass, or call (b) facing a bet
            out[i] = 1 if label.endswith("b") else 0
        else:
            raise ZerosumError(f"local best response checks or calls after its decision, and {cg.game_id} has no "
                               f"check/call action at {label!r} (actions {list(acts)}); it runs on the poker games "
                               f"(kuhn, leduc, poker)")
    return out


def lbr_strategy(game, policy: TabularPolicy, player: int) -> np.ndarray:
    """LBR's pure behavioral strategy (per sequence) for ``player`` against ``policy``."""
    cg = policy_for(game, policy)
    t = cg.tree
    o = 1 - player
    sign = 1.0 if player == 0 else -1.0
    n_hist = len(t)
    child_prob = np.ones(n_hist)  # chance edge, or the opponent's policy, on the edge into each node
    child_prob[:] = t.edge_prob
    seq_of_child = np.full(n_hist, -1, dtype=np.int64)
    dec = np.flatnonzero((t.player == 0) | (t.player == 1))
    n = t.n_children[dec]
    kids = np.repeat(t.first_child[dec], n) + _ranges(n)
    owner = np.repeat(dec, n)
    pl = t.player[owner]
    seqs = np.empty(kids.size, dtype=np.int64)
    for p in (0, 1):
        m = pl == p
        seqs[m] = cg.treeplexes[p].infoset_first[t.infoset[owner[m]]] + _ranges(n)[m]
    seq_of_child[kids] = seqs
    opp = pl == o
    child_prob[kids[opp]] = policy.probs[o][seqs[opp]]
    mine = pl == player
    child_prob[kids[mine]] = 1.0
    levels = _levels(t)
    # opponent-and-chance reach of every history, top-down
    reach = np.ones(n_hist)
    parent_of = np.zeros(n_hist, dtype=np.int64)
    has = np.flatnonzero(t.n_children > 0)
    parent_of[np.repeat(t.first_child[has], t.n_children[has]) + _ranges(t.n_children[has])] = \
        np.repeat(has, t.n_children[has])
    for lv in levels[1:]:
        reach[lv] = reach[parent_of[lv]] * child_prob[lv]
    # continuation values for the LBR player: it checks/calls, the opponent follows its policy
    tree_p = cg.treeplexes[player]
    passive = passive_actions(cg, player)
    value = np.where(t.player == TERMINAL, sign * t.payoff, 0.0)
    for lv in reversed(levels):
        inner = lv[t.n_children[lv] > 0]
        if not inner.size:
            continue
        nn = t.n_children[inner]
        kid = np.repeat(t.first_child[inner], nn) + _ranges(nn)
        own = np.repeat(inner, nn)
        w = child_prob[kid].copy()
        is_me = t.player[own] == player
        if is_me.any():
            pos = passive[t.infoset[own[is_me]]]
            w[is_me] = (_ranges(nn)[is_me] == pos).astype(float)
        value[inner] = np.bincount(np.searchsorted(inner, own), weights=w * value[kid], minlength=inner.size)
    # action values of each information set against the range: sum over its histories
    me = np.flatnonzero(t.player == player)
    nn = t.n_children[me]
    kid = np.repeat(t.first_child[me], nn) + _ranges(nn)
    seq = seq_of_child[kid]
    q = np.bincount(seq, weights=np.repeat(reach[me], nn) * value[kid], minlength=tree_p.n_sequences)
    pi = np.zeros(tree_p.n_sequences)
    pi[0] = 1.0
    for i in range(tree_p.n_infosets):
        f, k = int(tree_p.infoset_first[i]), int(tree_p.infoset_size[i])
        pi[f + int(np.argmax(q[f:f + k]))] = 1.0
    return pi


@dataclass(frozen=True)
class LBRResult:
    """LBR's measurements against one policy (see the module docstring)."""

    hands: int
    seed: int
    values: tuple[float, float]  # LBR's mean payoff in seat 0, seat 1
    half_widths: tuple[float, float]  # 95 % confidence half-widths
    policy_values: tuple[float, float]  # the policy's own value in each seat (exact)
    exact_values: tuple[float, float]  # LBR's exact value in each seat (sequence form)

    @property
    def gains(self) -> tuple[float, float]:
        """LBR's gain over the policy's own value, per seat."""
        return tuple(v - pv for v, pv in zip(self.values, self.policy_values))

    @property
    def nash_conv(self) -> float:
        """Sum of both seats' gains: LBR's estimate of (a lower bound on) NashConv."""
        return float(sum(self.gains))

    @property
    def half_width(self) -> float:
        """95 % half-width of :attr:`nash_conv` (the seats' hands are independent)."""
        return float(np.hypot(*self.half_widths))

    def to_dict(self) -> dict:
        """The fields of ``zerosum evaluate --lbr --json``'s ``lbr``."""
        return {"hands": self.hands, "seed": self.seed, "values": list(self.values),
                "half_widths": list(self.half_widths), "gains": list(self.gains),
                "nash_conv": self.nash_conv, "nash_conv_half_width": self.half_width,
                "exploitability": self.nash_conv / 2, "policy_values": list(self.policy_values),
                "exact_values": list(self.exact_values), "exact_nash_conv": float(sum(self.exact_values))}


def _play(cg, probs, hands: int, rng) -> np.ndarray:
    """Player 0's payoff in each of ``hands`` hands with both players' behavioral ``probs``."""
    t = cg.tree
    node = np.zeros(hands, dtype=np.int64)
    out = np.zeros(hands)
    live = np.ones(hands, dtype=bool)
    edge = t.edge_prob.copy()
    for p in (0, 1):
        dec = np.flatnonzero(t.player == p)
        n = t.n_children[dec]
        kids = np.repeat(t.first_child[dec], n) + _ranges(n)
        edge[kids] = probs[p][cg.treeplexes[p].infoset_first[t.infoset[np.repeat(dec, n)]] + _ranges(n)]
    while live.any():
        idx = np.flatnonzero(live)
        h = node[idx]
        term = t.player[h] == TERMINAL
        out[idx[term]] = t.payoff[h[term]]
        live[idx[term]] = False
        idx, h = idx[~term], h[~term]
        if not idx.size:
            break
        u = rng.random(idx.size)
        first, n = t.first_child[h], t.n_children[h]
        k = np.zeros(idx.size, dtype=np.int64)
        acc = np.zeros(idx.size)
        for j in range(int(n.max())):
            ok = j < n
            acc = acc + np.where(ok, edge[np.minimum(first + j, len(t) - 1)], 0.0)
            k += (ok & (acc <= u) & (j < n - 1)).astype(np.int64)
        node[idx] = first + k
    return out


def local_best_response(game, policy: TabularPolicy, hands: int = 10000, seed: int = 0) -> LBRResult:
    """LBR in both seats against ``policy``, ``hands`` hands each (see the module docstring)."""
    from .evaluation import expected_value

    if isinstance(hands, bool) or int(hands) != hands or hands < 2:
        raise ZerosumError(f"--hands must be an integer of at least 2, got {hands}")
    cg = policy_for(game, policy)
    rng = np.random.default_rng(seed)
    value = expected_value(cg, policy)
    values, halves, exact = [], [], []
    for p in (0, 1):
        probs = list(policy.probs)
        probs[p] = lbr_strategy(cg, policy, p)
        sign = 1.0 if p == 0 else -1.0
        pay = sign * _play(cg, probs, int(hands), rng)
        values.append(float(pay.mean()))
        halves.append(float(Z95 * pay.std(ddof=1) / np.sqrt(hands)))
        x = [realization_plan(tr, pi) for tr, pi in zip(cg.treeplexes, probs)]
        exact.append(float(sign * (x[0] @ (cg.payoff @ x[1]))))
    return LBRResult(int(hands), int(seed), tuple(values), tuple(halves), (value, -value), tuple(exact))


__all__ = ["LBRResult", "lbr_strategy", "local_best_response"]
