"""Exact action values at every information set against a profile (Lab 15 Part 3).

The action value of a in I is the expected payoff after playing a, given that play has reached I,
with I's histories weighted by chance's and the opponent's probability of reaching them:

    q(I, a) = cfv(I, a) / r(I),     r(I) = sum over histories h in I of chance(h) * opp_reach(h).

The counterfactual value ``cfv`` comes from the shared upward pass
(:func:`~zerosum.core.sequence_form.counterfactual_values`) and ``r`` from one sparse product with the
compiled game's ``infoset_reach`` matrix, so a whole player's action values cost two sparse
products, one pass over the treeplex depths and one division: no Python per history or per
information set.

**Zero reach.**  Where the opponent never lets play reach I (r(I) = 0) the conditional value is
undefined; we return q = 0 for every action there, so that a dynamics driven by q leaves such an
information set alone (apart from a magnet's pull) and a best response built from q breaks the
tie toward the first action, as :func:`~zerosum.core.sequence_form.best_response` does.

**Fused kernels.**  The dynamics do not call the functions above step by step: one Numba kernel
per player and step (:func:`logit_step`, :func:`best_response_step`, :func:`dilated_mmd_step`)
does the CSR products, the upward pass, the division, the update, the per-information-set
softmax, the realization plan and its running sum, the same operations in the same order (the
results agree with the NumPy path to rounding: NumPy's and LLVM's exp may differ in the last
bit).  On Lab 15's Leduc a step then costs about 0.6 of a CFR+ iteration
(``benchmarks/bench_dynamics.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .compile import CompiledGame
from .sequence_form import _level_bounds, _upward, collected_values, counterfactual_values, realization_plan


def reach_weights(game: CompiledGame, player: int, x_opponent: np.ndarray) -> np.ndarray:
    """r(I) for every information set of ``player``: chance's times the opponent's reach."""
    return game.infoset_reach[player] @ x_opponent


def action_values(game: CompiledGame, player: int, pi: np.ndarray, x_opponent: np.ndarray,
                  return_reach: bool = False):
    """q per sequence of ``player`` (q[0] is the player's expected value; 0 where r(I) = 0).

    ``pi`` is the player's behavioral strategy per sequence (it matters below each action),
    ``x_opponent`` the opponent's realization plan.  With ``return_reach`` also returns r(I).
    """
    tree = game.treeplexes[player]
    g = collected_values(game, player, x_opponent)
    cfv, _ = counterfactual_values(tree, g, pi)
    r = reach_weights(game, player, x_opponent)
    rs = r[tree.seq_infoset[1:]]
    q = cfv
    # divide, not multiply by 1/r: r may be subnormal after long runs, where 1/r overflows
    np.divide(cfv[1:], rs, out=q[1:], where=rs > 0)
    q[1:][rs <= 0] = 0.0
    if return_reach:
        return q, r
    return q


def profile_action_values(game: CompiledGame, probs) -> list[np.ndarray]:
    """Both players' action values against the same profile (simultaneous updates)."""
    plans = [realization_plan(t, pi) for t, pi in zip(game.treeplexes, probs)]
    return [action_values(game, p, probs[p], plans[1 - p]) for p in (0, 1)]


def conditional_values(tree, q: np.ndarray, pi: np.ndarray) -> np.ndarray:
    """v(I) = sum_a pi(a | I) q(I, a): the value of I given that play reaches it."""
    return np.add.reduceat(pi[1:] * q[1:], tree.segment_starts)


def softmax(tree, z: np.ndarray) -> np.ndarray:
    """Behavioral strategy pi(a | I) proportional to exp z(I, a), every information set at once."""
    pi = np.empty(len(z))
    _softmax_into(tree.infoset_first, tree.infoset_size, np.ascontiguousarray(z, dtype=np.float64), pi)
    return pi


def log_softmax(tree, z: np.ndarray) -> np.ndarray:
    """ln pi(a | I) for pi = softmax(z) (0 on the empty sequence), computed without exp overflow."""
    out = np.empty(len(z))
    _log_softmax_into(tree.infoset_first, tree.infoset_size, np.ascontiguousarray(z, dtype=np.float64), out)
    return out


def best_response_strategy(game: CompiledGame, player: int, x_opponent: np.ndarray) -> np.ndarray:
    """A pure best response to ``x_opponent``, per sequence, as Lab 15 Part 3 builds it.

    Deepest information sets first, each takes the action of highest value given the choices
    already made below it (the first such action on ties); an information set the opponent never
    lets play reach gets the uniform strategy (its action values are undefined, see above).
    """
    tree = game.treeplexes[player]
    cfv = collected_values(game, player, x_opponent)
    choice = np.zeros(tree.n_sequences)
    choice[0] = 1.0
    parent = tree.infoset_parent
    for lv in reversed(tree.levels):
        block = cfv[lv.s0:lv.s1]
        vi = np.maximum.reduceat(block, lv.offsets)
        pos = np.arange(lv.s1 - lv.s0)
        first = np.minimum.reduceat(np.where(block >= vi[lv.local_infoset], pos, lv.s1), lv.offsets)
        choice[lv.s0 + first] = 1.0
        cfv[:lv.s0] += np.bincount(parent[lv.i0:lv.i1], vi, minlength=lv.s0)
    unreached = reach_weights(game, player, x_opponent) <= 0
    seqs = unreached[tree.seq_infoset[1:]]
    choice[1:][seqs] = tree.seq_uniform[1:][seqs]
    return choice


# --- fused kernels: one call per player per step (the dynamics' hot path) ----------------------
#
# Each kernel does, for one player, what the NumPy functions above do in a dozen calls: the
# collected values (a CSR product), the upward pass, the reach weights (a second CSR product),
# the division, the update of the logits, the per-information-set softmax, the realization plan
# and its running sum.  The operations are the same, in the same order, so the results agree with
# the NumPy path to the last bit except where NumPy's and LLVM's exp/log round differently.


class PlayerArrays(tuple):
    """The flat arrays a fused kernel needs for one player, in the kernels' argument order."""

    __slots__ = ()

    def __new__(cls, game: CompiledGame, player: int):
        tree = game.treeplexes[player]
        a = game.payoff if player == 0 else game.payoff_t
        r = game.infoset_reach[player].tocsr()
        i64 = np.int64
        return super().__new__(cls, (
            _level_bounds(tree), tree.infoset_parent.astype(i64), tree.infoset_first.astype(i64),
            tree.infoset_size.astype(i64), tree.seq_parent.astype(i64), tree.seq_uniform,
            a.indptr.astype(i64), a.indices.astype(i64), a.data.astype(np.float64), player == 1,
            r.indptr.astype(i64), r.indices.astype(i64), r.data.astype(np.float64),
        ))


@njit(cache=True)
def _matvec(indptr, indices, data, x, negate, out):
    """out = M @ x (or -(M @ x)) for M in CSR form, summed in SciPy's order."""
    for i in range(len(indptr) - 1):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            s += data[k] * x[indices[k]]
        out[i] = -s if negate else s


@njit(cache=True)
def _softmax_into(ifirst, isize, z, pi):
    pi[0] = 1.0
    for i in range(len(ifirst)):
        f, k = ifirst[i], isize[i]
        m = z[f]
        for s in range(f + 1, f + k):
            m = max(m, z[s])
        total = 0.0
        for s in range(f, f + k):
            pi[s] = np.exp(z[s] - m)
            total += pi[s]
        for s in range(f, f + k):
            pi[s] = pi[s] / total


@njit(cache=True)
def _log_softmax_into(ifirst, isize, z, out):
    out[0] = 0.0
    for i in range(len(ifirst)):
        f, k = ifirst[i], isize[i]
        m = z[f]
        for s in range(f + 1, f + k):
            m = max(m, z[s])
        total = 0.0
        for s in range(f, f + k):
            total += np.exp(z[s] - m)
        lse = m + np.log(total)
        for s in range(f, f + k):
            out[s] = z[s] - lse


@njit(cache=True)
def _plan_and_sum(seq_parent, pi, avg):
    x = np.empty(len(pi))
    x[0] = 1.0
    for s in range(1, len(pi)):
        x[s] = x[seq_parent[s]] * pi[s]
    for s in range(len(pi)):
        avg[s] += x[s]
    return x


@njit(cache=True)
def logit_step(level_i0, iparent, ifirst, isize, seq_parent, seq_uniform, a_ptr, a_idx, a_val,
               negate, r_ptr, r_idx, r_val, x_opp, pi, z, log_magnet, eta, ea, avg):
    """z <- (z + ea ln rho + eta q) / (1 + ea) in place (ea = 0: mirror descent); returns the new
    behavioral strategy softmax(z) and its realization plan (added to ``avg``)."""
    n, ni = len(z), len(ifirst)
    cfv = np.empty(n)
    _matvec(a_ptr, a_idx, a_val, x_opp, negate, cfv)
    v = np.empty(ni)
    _upward(level_i0, iparent, ifirst, isize, cfv, pi, v, False, cfv)
    r = v  # reuse: the information-set values are not needed
    _matvec(r_ptr, r_idx, r_val, x_opp, False, r)
    d = 1.0 + ea
    new = np.empty(n)
    x = np.empty(n)
    new[0] = 1.0
    x[0] = 1.0
    avg[0] += 1.0
    z[0] = (z[0] + ea * log_magnet[0] + eta * cfv[0]) / d
    # one pass over the information sets (shallow to deep, so parents' plans come first):
    # q, the logit update, the softmax, the plan and its running sum
    for i in range(ni):
        f, k, ri = ifirst[i], isize[i], r[i]
        m = -np.inf
        for s in range(f, f + k):
            q = cfv[s] / ri if ri > 0 else 0.0
            z[s] = (z[s] + ea * log_magnet[s] + eta * q) / d
            m = max(m, z[s])
        total = 0.0
        for s in range(f, f + k):
            new[s] = np.exp(z[s] - m)
            total += new[s]
        for s in range(f, f + k):
            new[s] = new[s] / total
            x[s] = x[seq_parent[s]] * new[s]
            avg[s] += x[s]
    return new, x


@njit(cache=True)
def best_response_step(level_i0, iparent, ifirst, isize, seq_parent, seq_uniform, a_ptr, a_idx,
                       a_val, negate, r_ptr, r_idx, r_val, x_opp, avg):
    """The lab's pure best response to ``x_opp`` (see :func:`best_response_strategy`) and its plan."""
    n, ni = len(seq_parent), len(ifirst)
    cfv = np.empty(n)
    _matvec(a_ptr, a_idx, a_val, x_opp, negate, cfv)
    choice = np.zeros(n)
    v = np.empty(ni)
    _upward(level_i0, iparent, ifirst, isize, cfv, cfv, v, True, choice)
    choice[0] = 1.0
    r = np.empty(ni)
    _matvec(r_ptr, r_idx, r_val, x_opp, False, r)
    for i in range(ni):
        if not r[i] > 0:
            for s in range(ifirst[i], ifirst[i] + isize[i]):
                choice[s] = seq_uniform[s]
    return choice, _plan_and_sum(seq_parent, choice, avg)


@njit(cache=True)
def _extrapolated_matvec(indptr, indices, data, x, x_prev, extrapolate, negate, out):
    """out = M @ x, or M @ (2 x - x_prev) when ``extrapolate`` (an optimistic step)."""
    if not extrapolate:
        _matvec(indptr, indices, data, x, negate, out)
        return
    for i in range(len(indptr) - 1):
        s = 0.0
        for k in range(indptr[i], indptr[i + 1]):
            j = indices[k]
            s += data[k] * (2.0 * x[j] - x_prev[j])
        out[i] = -s if negate else s


@njit(cache=True)
def dilated_mmd_step(level_i0, iparent, ifirst, isize, seq_parent, seq_uniform, a_ptr, a_idx,
                     a_val, negate, r_ptr, r_idx, r_val, x_opp, x_opp_prev, extrapolate,
                     log_policy, pi_old, log_magnet, eta, ea, weight, avg):
    """One dilated-entropy MMD step (see :mod:`zerosum.solvers.mmd`) against ``x_opp`` (or, with
    ``extrapolate``, against 2 x_opp - x_opp_prev).  ``weight[s]`` is the dilated entropy's weight
    of the information set of sequence s (all ones: the plain dilated entropy).  Returns the new
    behavioral logs, probabilities, realization plan (added to ``avg``) and the largest change of
    a probability from ``pi_old``."""
    n = len(seq_parent)
    c = np.empty(n)
    _extrapolated_matvec(a_ptr, a_idx, a_val, x_opp, x_opp_prev, extrapolate, negate, c)
    d = 1.0 + ea
    for s in range(n):
        c[s] = (eta * c[s] + ea * weight[s] * log_magnet[s] + weight[s] * log_policy[s]) / d
    logp = np.zeros(n)
    pi = np.empty(n)
    pi[0] = 1.0
    acc = np.zeros(n)
    for lv in range(len(level_i0) - 2, -1, -1):
        i0, i1 = level_i0[lv], level_i0[lv + 1]
        for i in range(i0, i1):
            f, k = ifirst[i], isize[i]
            w = weight[f]
            m = c[f] / w
            for s in range(f + 1, f + k):
                m = max(m, c[s] / w)
            total = 0.0
            for s in range(f, f + k):
                pi[s] = np.exp(c[s] / w - m)
                total += pi[s]
            lse = m + np.log(total)
            for s in range(f, f + k):
                logp[s] = c[s] / w - lse
                pi[s] = pi[s] / total
            acc[iparent[i]] += w * lse
        for s in range(ifirst[i0]):
            if acc[s] != 0.0:
                c[s] += acc[s]
                acc[s] = 0.0
    change = 0.0
    for s in range(n):
        change = max(change, abs(pi[s] - pi_old[s]))
    return logp, pi, _plan_and_sum(seq_parent, pi, avg), change
