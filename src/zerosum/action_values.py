"""Exact action values at every information set against a profile (Lab 15 Part 3).

The action value of a in I is the expected payoff after playing a, given that play has reached I,
with I's histories weighted by chance's and the opponent's probability of reaching them:

    q(I, a) = cfv(I, a) / r(I),     r(I) = sum over histories h in I of chance(h) * opp_reach(h).

The counterfactual value ``cfv`` comes from the shared upward pass
(:func:`~zerosum.sequence_form.counterfactual_values`) and ``r`` from one sparse product with the
compiled game's ``infoset_reach`` matrix, so a whole player's action values cost two sparse
products, one pass over the treeplex depths and one division: no Python per history or per
information set.

**Zero reach.**  Where the opponent never lets play reach I (r(I) = 0) the conditional value is
undefined; we return q = 0 for every action there, so that a dynamics driven by q leaves such an
information set alone (apart from a magnet's pull) and a best response built from q breaks the
tie toward the first action, as :func:`~zerosum.sequence_form.best_response` does.
"""

from __future__ import annotations

import numpy as np

from .compiled import CompiledGame
from .sequence_form import collected_values, counterfactual_values, realization_plan


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
    ok = r > 0
    inv = np.where(ok, 1.0 / np.where(ok, r, 1.0), 0.0)
    q = cfv
    q[1:] *= inv[tree.seq_infoset[1:]]
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
