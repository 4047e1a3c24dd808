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
    m = np.maximum.reduceat(z[1:], tree.segment_starts)[tree.seq_infoset[1:]]
    e = np.exp(z[1:] - m)
    pi = np.empty_like(z)
    pi[0] = 1.0
    pi[1:] = e / np.add.reduceat(e, tree.segment_starts)[tree.seq_infoset[1:]]
    return pi


def log_softmax(tree, z: np.ndarray) -> np.ndarray:
    """ln pi(a | I) for pi = softmax(z) (0 on the empty sequence), computed without exp overflow."""
    m = np.maximum.reduceat(z[1:], tree.segment_starts)
    lse = m + np.log(np.add.reduceat(np.exp(z[1:] - m[tree.seq_infoset[1:]]), tree.segment_starts))
    out = np.zeros_like(z)
    out[1:] = z[1:] - lse[tree.seq_infoset[1:]]
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
