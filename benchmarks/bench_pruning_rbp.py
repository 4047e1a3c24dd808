"""How often pruning could fire on a DCFR run, measured in NumPy outside the pass (run by
``bench_pruning.py --traverser``): per pass of player p, before it runs,

* ``dead``: the nodes whose opponent reach is zero for every hand (what ``--option prune=1``
  prunes, counted here inside the terminal batches too, where the pass does not test);
* ``candidates``: the nodes below an action of p whose regret is negative for every hand of p
  that reaches its node (what regret-based pruning of the traverser's own actions could skip,
  Brown and Sandholm 2015);
* ``prunable``: the candidates that pass RBP's test for even one iteration under DCFR's rule: the
  regret, its negative part halved by the next update (beta = 0), stays negative whatever that
  iteration brings, ``R / 2 + S * m < 0`` for every hand, where S is the largest stake of the
  tree and m the opponent's reach summed at the node (a bound below the true one, 2 S m: generous
  to pruning).

The whole tree (no suit isomorphism), DCFR ``restart=4`` in float32, as the CLI runs the turns;
a Python loop over the nodes each pass (minutes for 200 iterations of a turn).
"""

from __future__ import annotations

import time

import numpy as np


def _probs(tree, src, n, nq):
    """Regret matching at node n: (probabilities, regrets), [actions x hands]."""
    na, o = tree.n_children[n], tree.offset[n]
    blk = np.asarray(src[o:o + na * nq], dtype=np.float64).reshape(na, nq)
    pos = np.maximum(blk, 0)
    tot = pos.sum(0)
    return np.where(tot > 0, pos / np.where(tot > 0, tot, 1), 1.0 / na), blk


def _below(tree, flag):
    """The flagged nodes and every node below them (parents precede children)."""
    out = flag.copy()
    for n in np.flatnonzero(tree.kind < 2):
        if out[n]:
            out[tree.first_child[n]:tree.first_child[n] + tree.n_children[n]] = True
    return out


def measure(tree, regrets, p, stake):
    """Per node, for player p's pass with these regrets: (dead, candidate, prunable) flags."""
    q, nn = 1 - p, tree.n_nodes
    nq, npp = tree.n_hands[q], tree.n_hands[p]
    reach = np.zeros((nn, nq))
    reach[0] = tree.ranges[q]
    own = np.zeros((nn, npp), dtype=bool)
    own[0] = np.asarray(tree.ranges[p]) > 0
    cand, prunable = np.zeros(nn, dtype=bool), np.zeros(nn, dtype=bool)
    for n in np.flatnonzero(tree.kind < 2):
        kids = slice(tree.first_child[n], tree.first_child[n] + tree.n_children[n])
        reach[kids], own[kids] = reach[n], own[n]
        if tree.kind[n] != 0:
            continue
        if tree.player[n] == q:
            reach[kids] = reach[n] * _probs(tree, regrets[q], n, nq)[0]
            continue
        pr, blk = _probs(tree, regrets[p], n, npp)
        own[kids] = own[n] & (pr > 0)
        live, m = own[n], reach[n].sum()
        for a in range(tree.n_children[n]) if live.any() else ():
            if (blk[a][live] < 0).all():
                cand[tree.first_child[n] + a] = True
                prunable[tree.first_child[n] + a] = bool((blk[a][live] / 2 + stake * m < 0).all())
    return ~(reach > 0).any(1), _below(tree, cand), _below(tree, prunable)


def run(tree, iters: int) -> dict:
    """Shares of node visits over ``iters`` iterations (both passes): dead, candidates, prunable."""
    from zerosum.public_tree.solver import public_solver

    s = public_solver("dcfr", tree, dtype="float32", restart=4)
    stake = float(np.abs(tree.stake).max())
    total = np.zeros(3)
    for _ in range(iters):
        flags = [measure(tree, s.regrets, 0, stake)]  # player 0's pass reads the regrets as they are
        s.iterate(1)
        flags.append(measure(tree, s.regrets, 1, stake))  # player 1's: player 0's after its update
        total += [sum(f[k].sum() for f in flags) for k in range(3)]
    visits = 2 * iters * tree.n_nodes
    return dict(zip(("dead", "candidates", "prunable"), (float(x / visits) for x in total)))


def main(spots, iters: int, spot_tree) -> None:
    from bench_pruning import spot_path

    for name in spots:
        t0 = time.perf_counter()
        tree = spot_tree(spot_path(name), isomorphism=False)
        shares = run(tree, iters)
        print(f"{name} ({tree.n_nodes} nodes, {iters} iterations, {time.perf_counter() - t0:.0f} s): node visits "
              f"under an all-zero opponent reach {shares['dead']:.2%}; below a traverser's action negative for "
              f"every hand {shares['candidates']:.2%}; of those prunable for one DCFR iteration "
              f"{shares['prunable']:.3%}", flush=True)
