"""The few array kernels every full-width solver is built from.

A behavioral strategy is stored per sequence: ``pi[s]`` is the probability of the sequence's
action at its information set (``pi[0] = 1``).  Its realization plan ``x`` multiplies those
probabilities down the treeplex.  Given ``g``, the value collected directly under each sequence
(``A @ y`` for player 0, ``-(A.T @ x)`` for player 1), one upward pass gives every counterfactual
value; the same pass with a max instead of an expectation gives a best response.  Every loop here
runs over treeplex depths (a handful), never over histories or information sets.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from .compile import CompiledGame, Treeplex


@njit(cache=True)
def _plan(seq_parent, pi, x):
    x[0] = 1.0
    for s in range(1, len(pi)):
        x[s] = x[seq_parent[s]] * pi[s]


def realization_plan(tree: Treeplex, pi: np.ndarray) -> np.ndarray:
    """x[(I, a)] = x[parent(I)] * pi(a | I), top-down (parents precede children)."""
    x = np.empty(len(pi))
    _plan(tree.seq_parent, np.ascontiguousarray(pi, dtype=np.float64), x)
    return x


def behavioral_from_realization(tree: Treeplex, x: np.ndarray) -> np.ndarray:
    """pi(a | I) = x[(I, a)] / x[parent(I)], uniform where the parent has zero weight."""
    pi = np.empty_like(x)
    pi[0] = 1.0
    if tree.n_infosets == 0:
        return pi
    totals = np.add.reduceat(x[1:], tree.segment_starts)[tree.seq_infoset[1:]]
    ok = totals > 0
    pi[1:] = np.where(ok, x[1:] / np.where(ok, totals, 1.0), tree.seq_uniform[1:])
    return pi


def collected_values(game: CompiledGame, player: int, x_opponent: np.ndarray) -> np.ndarray:
    """g: the player's payoff collected directly under each of its sequences, chance and the
    opponent's realization plan already multiplied in."""
    if player == 0:
        return game.payoff @ x_opponent
    return -(game.payoff_t @ x_opponent)


@njit(cache=True)
def _upward(level_i0, infoset_parent, infoset_first, infoset_size, cfv, pi, v, use_max, choice):
    """One upward pass in place on cfv: expectation under pi, or max (recording the argmax)."""
    acc = np.zeros(len(cfv))
    for lv in range(len(level_i0) - 2, -1, -1):
        i0, i1 = level_i0[lv], level_i0[lv + 1]
        for i in range(i0, i1):
            f, n = infoset_first[i], infoset_size[i]
            if use_max:
                best, arg = cfv[f], f
                for s in range(f + 1, f + n):
                    if cfv[s] > best:
                        best, arg = cfv[s], s
                total = best
                choice[arg] = 1.0
            else:
                total = 0.0
                for s in range(f, f + n):
                    total += pi[s] * cfv[s]
            v[i] = total
            acc[infoset_parent[i]] += total
        # add the level's sums to the parents (all in shallower levels) in one go, as a
        # bincount-then-add would
        s0 = infoset_first[i0]
        for s in range(s0):
            if acc[s] != 0.0:
                cfv[s] += acc[s]
                acc[s] = 0.0


def _level_bounds(tree: Treeplex) -> np.ndarray:
    bounds = getattr(tree, "_level_i0", None)
    if bounds is None:
        bounds = np.array([lv.i0 for lv in tree.levels] + [tree.n_infosets], dtype=np.int64)
        object.__setattr__(tree, "_level_i0", bounds)
    return bounds


def counterfactual_values(tree: Treeplex, g: np.ndarray, pi: np.ndarray):
    """Counterfactual value of every sequence and of every information set under ``pi``.

    Returns (cfv per sequence, value per information set); cfv[0] is the player's expected value.
    """
    cfv = np.array(g, dtype=np.float64)
    v = np.empty(tree.n_infosets)
    _upward(_level_bounds(tree), tree.infoset_parent, tree.infoset_first, tree.infoset_size, cfv,
            np.ascontiguousarray(pi, dtype=np.float64), v, False, cfv)
    return cfv, v


def best_response(tree: Treeplex, g: np.ndarray, with_policy: bool = False):
    """Value of a best response to the opponent behind ``g`` and, if asked, the pure strategy.

    Ties go to the first action, so the result is deterministic.
    """
    cfv = np.array(g, dtype=np.float64)
    v = np.empty(tree.n_infosets)
    choice = np.zeros(tree.n_sequences)
    _upward(_level_bounds(tree), tree.infoset_parent, tree.infoset_first, tree.infoset_size, cfv, cfv, v,
            True, choice)
    if with_policy:
        choice[0] = 1.0
        return cfv[0], choice
    return cfv[0]


@njit(cache=True)
def _regret_matching(infoset_first, infoset_size, regrets, pi):
    pi[0] = 1.0
    for i in range(len(infoset_first)):
        f, n = infoset_first[i], infoset_size[i]
        total = 0.0
        for s in range(f, f + n):
            if regrets[s] > 0.0:
                total += regrets[s]
        for s in range(f, f + n):
            if total > 0.0:
                pi[s] = regrets[s] / total if regrets[s] > 0.0 else 0.0
            else:
                pi[s] = 1.0 / n


def regret_matching(tree: Treeplex, regrets: np.ndarray) -> np.ndarray:
    """pi proportional to the positive regrets in each information set, uniform where none is."""
    pi = np.empty(tree.n_sequences)
    _regret_matching(tree.infoset_first, tree.infoset_size, np.ascontiguousarray(regrets, dtype=np.float64), pi)
    return pi
