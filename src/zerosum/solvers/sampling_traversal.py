"""The external-sampling traversal, written once: shared by ES-MCCFR (:mod:`.mccfr`) and Deep CFR
(:mod:`.deep_cfr`, its SD-CFR subclass too).

Both walk the compiled history tree (:class:`zerosum.core.compile.HistoryTree`) the same way
(Lanctot et al. 2009): chance and the opponent sample one action (the opponent from its current
strategy ``sigma``), the traverser explores every action, and each of the traverser's decisions
returns ``ev = sum_a sigma(a) v(a)`` up to its parent.  They differ at three points only, chosen
by ``mode``:

============================  =====================================  =========================================
point                         ``REGRETS`` (ES-MCCFR)                 ``RESERVOIRS`` (Deep CFR)
============================  =====================================  =========================================
sigma at a decision           regret matching of ``regrets``         given (the advantage networks' table)
an opponent's decision        ``sigma`` added to ``avg``             ``sigma`` offered to the strategy reservoir
                                                                     (if ``record_strategy``)
a traverser's decision done   ``v(a) - ev`` added to ``regrets``     ``v(a) - ev`` offered to the advantage
                                                                     reservoir
============================  =====================================  =========================================

The outer loops stay with the callers (MCCFR: both players per iteration, the stream seeded per
iteration; Deep CFR: many traversals of one player from one stream).  The kernel is
``inline="always"`` and each caller passes ``mode`` as a constant, so every caller compiles only
its own branches: the shared code costs neither speed nor compile time, and a run's random
stream is consumed in the same order as by the two copies this replaces (a reservoir draws its
``uniform`` between the samples), so results are bit for bit those of before.

May import: numpy, numba, :mod:`zerosum.core`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.game import CHANCE, TERMINAL
from ..core.sampling import sample, sample_chance, seed_iteration, uniform

REGRETS = 0  # ES-MCCFR: sigma from regrets, average and regret sums updated in place
RESERVOIRS = 1  # Deep CFR: sigma given, samples offered to reservoirs


@njit(cache=True, inline="always")
def regret_matching_into(regrets, g, n, out):
    """out[g:g+n] = positive regrets normalized, uniform if none is positive."""
    total = 0.0
    for k in range(n):
        r = regrets[g + k]
        if r > 0.0:
            total += r
    if total > 0.0:
        for k in range(n):
            r = regrets[g + k]
            out[g + k] = r / total if r > 0.0 else 0.0
    else:
        for k in range(n):
            out[g + k] = 1.0 / n


@njit(cache=True, inline="always")
def reservoir_slot(seen, cap, state):
    """Slot for the ``seen``-th item (1-based) of a reservoir of ``cap``, or -1 to drop it."""
    if seen <= cap:
        return seen - 1
    j = np.int64(uniform(state) * seen)
    return j if j < cap else -1


@njit(cache=True, inline="always")
def no_reservoir():
    """An empty reservoir's arrays ``(ids, iterations, targets, seen)``, for ``mode=REGRETS``."""
    return (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.float32), np.zeros((0, 1), dtype=np.float32),
            np.zeros(1, dtype=np.int64))


@njit(cache=True, inline="always")
def external_sampling_traversal(mode, traverser, rounds, seed, stream, player, infoset, seq0, first_child, n_children,
                                edge_prob, payoff, sigma, values, stack_node, stack_k, regrets, avg, iteration,
                                adv_ids, adv_iter, adv_targets, adv_seen, strat_ids, strat_iter, strat_targets,
                                strat_seen, record_strategy):
    """External-sampling traversals from the root of the history tree; returns the nodes touched.

    The two callers' loops: with ``REGRETS``, ``rounds`` ES-MCCFR iterations, round ``r`` seeding
    the splitmix64 stream from ``(seed, stream + r)`` and traversing for player 0 then player 1
    (``traverser`` unused); with ``RESERVOIRS``, ``rounds`` traversals for ``traverser`` from the
    one stream ``(seed, stream)``.  (The loops are here rather than in the callers so that the
    inlined traversal takes its arrays once per call, not once per traversal: measured faster.)

    An explicit stack (``stack_node``, ``stack_k``: the history and the action being explored, one
    frame per traverser decision on the path) replaces recursion; ``values`` (per global
    sequence) holds the explored actions' values until their decision is done.  ``seq0[h]`` is
    the first global sequence of the information set acting at ``h``.  ``mode`` picks the three
    differences (module docstring): with ``REGRETS``, ``regrets`` and ``avg`` are updated and
    ``sigma`` is scratch; with ``RESERVOIRS``, ``sigma`` is read and the advantage and strategy
    reservoirs (``ids``, ``iter``, ``targets``, ``seen`` each; the strategy one only if
    ``record_strategy``) get rows for ``infoset[h]`` at ``iteration``, replacing a random earlier
    row once full (:func:`reservoir_slot`).  The arguments of the other mode are unused.
    """
    adv_cap = len(adv_ids)
    strat_cap = len(strat_ids)
    state = np.zeros(1, dtype=np.uint64)
    if mode == RESERVOIRS:
        seed_iteration(state, seed, stream)
    nodes = 0
    for r in range(rounds):
        if mode == REGRETS:
            seed_iteration(state, seed, stream + r)
        for i in range(2 if mode == REGRETS else 1):
            if mode == REGRETS:
                traverser = i
            sign = 1.0 if traverser == 0 else -1.0
            top = 0
            stack_node[0] = 0
            stack_k[0] = -1
            while True:
                h = stack_node[top]
                p = player[h]
                if p == CHANCE:
                    stack_node[top] = sample_chance(first_child[h], n_children[h], edge_prob, state)
                    continue
                nodes += 1
                if p != TERMINAL:
                    g = seq0[h]
                    n = n_children[h]
                    if mode == REGRETS:  # difference 1: sigma from the regrets
                        regret_matching_into(regrets, g, n, sigma)
                    if p != traverser:  # opponent: difference 2, then sample from sigma
                        if mode == REGRETS:
                            for k in range(n):
                                avg[g + k] += sigma[g + k]
                        elif record_strategy:
                            strat_seen[0] += 1
                            slot = reservoir_slot(strat_seen[0], strat_cap, state)
                            if slot >= 0:
                                strat_ids[slot] = infoset[h]
                                strat_iter[slot] = iteration
                                for k in range(strat_targets.shape[1]):
                                    strat_targets[slot, k] = sigma[g + k] if k < n else 0.0
                        stack_node[top] = first_child[h] + sample(sigma, g, n, state)
                        continue
                    stack_k[top] = 0  # traverser: explore every action
                    top += 1
                    stack_node[top] = first_child[h]
                    stack_k[top] = -1
                    continue
                # terminal: return its value up the traverser's frames
                ret = sign * payoff[h]
                top -= 1
                while top >= 0:
                    h = stack_node[top]
                    g = seq0[h]
                    n = n_children[h]
                    k = stack_k[top]
                    values[g + k] = ret
                    k += 1
                    if k < n:
                        stack_k[top] = k
                        top += 1
                        stack_node[top] = first_child[h] + k
                        stack_k[top] = -1
                        break
                    ev = 0.0
                    for a in range(n):
                        ev += sigma[g + a] * values[g + a]
                    # difference 3: the sampled regrets v(a) - ev
                    if mode == REGRETS:
                        for a in range(n):
                            regrets[g + a] += values[g + a] - ev
                    else:
                        adv_seen[0] += 1
                        slot = reservoir_slot(adv_seen[0], adv_cap, state)
                        if slot >= 0:
                            adv_ids[slot] = infoset[h]
                            adv_iter[slot] = iteration
                            for a in range(adv_targets.shape[1]):
                                adv_targets[slot, a] = values[g + a] - ev if a < n else 0.0
                    ret = ev
                    top -= 1
                if top < 0:
                    break
    return nodes
