"""The random draws of the Monte Carlo methods, inside compiled code: a splitmix64 stream seeded
from ``(seed, iteration)`` (or another stream number), so that a run is reproducible bit for bit
and a resumed run continues exactly as the uninterrupted one; a chance outcome or an action drawn
from its probabilities; the depth of a history tree (the size of a traversal's explicit stack).

Shared by MCCFR (:mod:`zerosum.solvers.mccfr`), the deep methods (:mod:`zerosum.deep`,
:mod:`zerosum.solvers.deep_cfr`, :mod:`zerosum.solvers.nfsp`) and the learners
(:mod:`zerosum.learning`); every function is a Numba kernel (``inline="always"`` where called
once per draw).

May import: numpy, numba.
"""

from __future__ import annotations

import numpy as np
from numba import njit

_GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_ITER = np.uint64(0xD1B54A32D192ED03)


@njit(cache=True, inline="always")
def uniform(state):
    """Next number in [0, 1) from a splitmix64 stream (state: a one-element uint64 array)."""
    state[0] += _GOLDEN
    z = state[0]
    z = (z ^ (z >> np.uint64(30))) * _MIX1
    z = (z ^ (z >> np.uint64(27))) * _MIX2
    z = z ^ (z >> np.uint64(31))
    return np.float64(z >> np.uint64(11)) * (1.0 / 9007199254740992.0)


@njit(cache=True, inline="always")
def seed_iteration(state, seed, iteration):
    """Start the stream of ``state`` for iteration (or stream) ``iteration`` of run ``seed``."""
    state[0] = np.uint64(seed) * _GOLDEN + np.uint64(iteration) * _ITER
    uniform(state)


@njit(cache=True, inline="always")
def sample_chance(first_child, n, edge_prob, state):
    """A child of a chance node (children ``first_child .. first_child + n - 1``) drawn by ``edge_prob``."""
    u = uniform(state)
    c = first_child
    last = first_child + n - 1
    while c < last:
        u -= edge_prob[c]
        if u < 0.0:
            break
        c += 1
    return c


@njit(cache=True, inline="always")
def sample(probs, g, n, state):
    """An action index in [0, n) drawn from the probabilities ``probs[g:g+n]``."""
    u = uniform(state)
    for k in range(n - 1):
        u -= probs[g + k]
        if u < 0.0:
            return k
    return n - 1


@njit(cache=True)
def max_depth(first_child, n_children):
    """The number of edges on the longest root-to-leaf path of a history tree (children after parents)."""
    n = len(first_child)
    depth = np.zeros(n, dtype=np.int64)
    best = 0
    for h in range(n):
        for c in range(first_child[h], first_child[h] + n_children[h]):
            depth[c] = depth[h] + 1
            best = max(best, depth[c])
    return best
