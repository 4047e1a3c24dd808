"""Terminal batches of the depth-first pass: a river's terminals evaluated together (the showdowns
eight at a time) give the figures of the terminals evaluated one by one, bit for bit."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree import kernels
from zerosum.public_tree.arrays import NO_BATCHES, pass_step
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import CHANCE_NODE, DECISION, FOLD
from zerosum.public_tree.passes import Workspace, terminal_batches
from zerosum.solvers.rules import DCFR

TURN = {"board": "Ks7d2c9h", "range0": "AA,KK,T9s,76s", "range1": "QQ,AK,98s", "raises": 3}
#: a no-limit river: the whole tree is one batch, with more than eight showdowns (a padded chunk)
RIVER = {"board": "Td9d6hQc3s", "pot": 200, "stack": 900, "range0": "AA,KQs,87s,T9s", "range1": "QQ,JTs,A5s,99",
         "betting": "river bet=33%,75%,a raise=2.5x,a"}


def _walks(tree, threads, dtype, predict, batched):
    """Three DCFR iterations (both players), a best response and a value: every return value and
    the sums."""
    ws = Workspace(tree, dtype, threads=threads)
    if not batched:
        ws.batches = NO_BATCHES
    ia = tree.infoset_actions()
    regrets = [np.zeros(n, dtype=dtype) for n in ia]
    average = [np.zeros(n, dtype=dtype) for n in ia]
    strategy = [np.full(n, 0.5, dtype=dtype) for n in ia] if predict else regrets
    v, out = DCFR(), []
    for t in range(1, 4):
        for p in (0, 1):
            out.append(ws.walk(pass_step(p, kernels.UPDATE, v.average_weight(t), v.regret_rule(t), predict, 1.0),
                               strategy[p], strategy[1 - p], average[p], regrets_p=regrets[p]))
    for p in (0, 1):
        out += [ws.walk(pass_step(p, kernels.BEST_RESPONSE), average[p], average[1 - p]),
                ws.walk(pass_step(p, kernels.EXPECT), average[p], average[1 - p])]
    return out, regrets + average + ([] if not predict else strategy)


def _subtree(tree, n):
    nodes, i = [n], 0
    while i < len(nodes):
        q = nodes[i]
        if tree.kind[q] < FOLD:
            nodes += list(range(tree.first_child[q], tree.first_child[q] + tree.n_children[q]))
        i += 1
    return nodes


@pytest.mark.parametrize("spot", [TURN, RIVER])
def test_the_batches_are_the_deals_subtrees(spot):
    tree = public_tree(HoldemGame(**spot))
    b = terminal_batches(tree)
    tops = np.flatnonzero(b.root >= 0)
    assert len(tops) == len(b.start) - 1 > 0 and (b.root[tops] == np.arange(len(tops))).all()
    for r, n in enumerate(tops):
        nodes = b.node[b.start[r]:b.start[r + 1]]
        assert sorted(nodes) == sorted(_subtree(tree, n))  # the whole subtree, breadth first
        assert tree.kind[n] == DECISION and (n == 0 or tree.kind[tree.parent[n]] == CHANCE_NODE)
        assert not (tree.kind[nodes] == CHANCE_NODE).any() and (b.local[nodes] == np.arange(len(nodes))).all()
    # every terminal below a deal is in a batch (the turn's folds are not: a chance node is below their parent)
    last_deal = tree.kind == CHANCE_NODE
    in_batch = b.local >= 0
    assert in_batch.sum() == len(b.node)
    if last_deal.any():
        rivers = [c for n in np.flatnonzero(last_deal) for c in range(tree.first_child[n],
                                                                      tree.first_child[n] + tree.n_children[n])
                  if tree.kind[c] == DECISION]
        assert len(tops) == len(rivers) == 7 * 48  # 7 betting lines reach the river, 48 river cards each
    else:
        assert list(tops) == [0] and in_batch.all()
        shows = (tree.kind == FOLD + 1).sum()
        assert shows > 8 and shows % 8  # more than a chunk, and a padded one


@pytest.mark.parametrize("spot", [TURN, RIVER])
@pytest.mark.parametrize("dtype,predict,threads", [(np.float64, 0, 1), (np.float32, 0, 1), (np.float64, 1, 1),
                                                   (np.float32, 0, 2)])
def test_batched_terminals_give_the_one_by_one_figures_bit_for_bit(spot, dtype, predict, threads):
    tree = public_tree(HoldemGame(**spot))
    one, sums1 = _walks(tree, threads, dtype, predict, batched=False)
    batch, sums2 = _walks(tree, threads, dtype, predict, batched=True)
    assert one == batch
    assert all(np.array_equal(a, b) for a, b in zip(sums1, sums2)) and any(a.any() for a in sums1)


def test_no_batches_without_the_prefix_sweep():
    """The poker family's rank rows (and the dense evaluator) have no hand lists: no batches."""
    from zerosum.poker.family import PokerGame

    tree = public_tree(PokerGame(ranks=6))
    assert terminal_batches(tree) is NO_BATCHES
