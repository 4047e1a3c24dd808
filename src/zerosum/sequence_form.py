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

from .compiled import CompiledGame, Treeplex


def realization_plan(tree: Treeplex, pi: np.ndarray) -> np.ndarray:
    """x[(I, a)] = x[parent(I)] * pi(a | I), top-down by depth."""
    x = np.empty_like(pi)
    x[0] = 1.0
    parent = tree.seq_parent
    for lv in tree.levels:
        x[lv.s0:lv.s1] = x[parent[lv.s0:lv.s1]] * pi[lv.s0:lv.s1]
    return x


def behavioral_from_realization(tree: Treeplex, x: np.ndarray) -> np.ndarray:
    """pi(a | I) = x[(I, a)] / x[parent(I)], uniform where the parent has zero weight."""
    pi = np.empty_like(x)
    pi[0] = 1.0
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


def counterfactual_values(tree: Treeplex, g: np.ndarray, pi: np.ndarray):
    """Counterfactual value of every sequence and of every information set under ``pi``.

    Returns (cfv per sequence, value per information set); cfv[0] is the player's expected value.
    """
    cfv = g.copy()
    v = np.empty(tree.n_infosets)
    parent = tree.infoset_parent
    for lv in reversed(tree.levels):
        vi = np.add.reduceat(pi[lv.s0:lv.s1] * cfv[lv.s0:lv.s1], lv.offsets)
        v[lv.i0:lv.i1] = vi
        cfv[:lv.s0] += np.bincount(parent[lv.i0:lv.i1], vi, minlength=lv.s0)
    return cfv, v


def best_response(tree: Treeplex, g: np.ndarray, with_policy: bool = False):
    """Value of a best response to the opponent behind ``g`` and, if asked, the pure strategy.

    Ties go to the first action, so the result is deterministic.
    """
    cfv = g.copy()
    parent = tree.infoset_parent
    choice = np.zeros(tree.n_sequences) if with_policy else None
    for lv in reversed(tree.levels):
        block = cfv[lv.s0:lv.s1]
        vi = np.maximum.reduceat(block, lv.offsets)
        if with_policy:
            best = np.flatnonzero(block >= vi[lv.local_infoset])
            _, first = np.unique(lv.local_infoset[best], return_index=True)
            choice[lv.s0 + best[first]] = 1.0
        cfv[:lv.s0] += np.bincount(parent[lv.i0:lv.i1], vi, minlength=lv.s0)
    if with_policy:
        choice[0] = 1.0
        return cfv[0], choice
    return cfv[0]


def regret_matching(tree: Treeplex, regrets: np.ndarray) -> np.ndarray:
    """pi proportional to the positive regrets in each information set, uniform where none is."""
    pos = np.maximum(regrets[1:], 0.0)
    totals = np.add.reduceat(pos, tree.segment_starts)[tree.seq_infoset[1:]]
    pi = np.empty_like(regrets)
    pi[0] = 1.0
    ok = totals > 0
    pi[1:] = np.where(ok, pos / np.where(ok, totals, 1.0), tree.seq_uniform[1:])
    return pi
