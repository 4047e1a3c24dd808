"""All-in runouts: a chance node whose children are all showdowns at one stake (the river dealt
after an all-in call on the turn; on a flop, each turn card's river after an all-in) evaluated as
one matrix product, where the pass would evaluate its showdowns one at a time.

Below such a node every card's showdown reads the same opponent reach (the node's), so p's values
at the node are ``stake * M @ reach`` with, for player 0, ``M[i, j] = sum_c W(i, j, c) * sign(i, j,
c)`` over the river cards c (:mod:`.dense`'s matrices, summed), each mirror card of suit
isomorphism added as the pass adds it (the representative card's rows read through the mirror's
hand permutation; player 1's columns).  One ``O(n0 n1)`` product for ``48 O(n)`` sweeps with
their overheads: postflop-solver's example turn has eight such nodes (384 of its 2,688 showdowns,
18 % of a pass's time); TexasSolver's flop 45,728 of 238,643 showdowns.

The matrices are the dense evaluator's ``signed`` (and, raked, ``weight``) arrays, [matrix, n0,
n1], in the sweep's :class:`~zerosum.public_tree.arrays.TerminalArrays` (empty there otherwise),
and the pass calls :func:`~.dense.dense_values` on them; :func:`runout_plan` makes them, one per
set of river boards (and mirrors), shared by every node that deals them.

May import: numpy, numba, :mod:`zerosum.public_tree.form`.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np
from numba import njit

from ..form import CHANCE_NODE, SHOWDOWN

#: no runout nodes: the per-node index (:attr:`~zerosum.public_tree.arrays.TreeArrays.runout`)
NO_RUNOUTS = np.zeros((0, 2), dtype=np.int32)
#: no matrices (the sweep's ``weight`` and ``signed`` where nothing is a runout)
NO_MATRICES = np.zeros((0, 0, 0))


def runout_nodes(tree) -> np.ndarray:
    """The chance nodes whose children are all showdowns at one stake (int64 node ids)."""
    chance = np.flatnonzero(tree.kind == CHANCE_NODE)
    if not len(chance):
        return chance
    first, count = tree.first_child[chance].astype(np.int64), tree.n_children[chance].astype(np.int64)
    kids = np.repeat(first - np.cumsum(count) + count, count) + np.arange(count.sum())
    owner = np.repeat(np.arange(len(chance)), count)
    bad = (tree.kind[kids] != SHOWDOWN) | (tree.stake[kids] != tree.stake[np.repeat(first, count)])
    spoiled = np.zeros(len(chance), dtype=bool)
    spoiled[owner[bad]] = True
    return chance[~spoiled & (count > 0)]


def runout_plan(tree, terminals) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(index, signed, weight): per node of ``tree`` the matrix each player reads at a runout node
    (int32 [nodes, 2], -1 elsewhere; the same one for both where no mirror is dealt), the
    matrices (float64 [m, n0, n1], chance probability times player 0's showdown sign, then the
    chance probability alone where the game is raked, else none); ``terminals``: the sweep's
    :class:`~zerosum.public_tree.evaluators.sweep.SweepTerminals`.  Empty where no node is one."""
    nodes = runout_nodes(tree)
    if not len(nodes):
        return NO_RUNOUTS, NO_MATRICES, NO_MATRICES
    (a0, m0), (a1, m1) = (int(x) for x in terminals.windows()[0]), (int(x) for x in terminals.windows()[1])
    cards = np.asarray(terminals.cards, dtype=np.int64)
    bits = (np.int64(1) << cards[:, 0]) | (np.int64(1) << cards[:, 1])
    disjoint = (bits[a0:a0 + m0, None] & bits[None, a1:a1 + m1]) == 0
    raked = terminals.rake is not None and bool(terminals.rake[0])
    iso = tree.iso
    index = np.full((tree.n_nodes, 2), -1, dtype=np.int32)
    signed, weight, made = [], [], {}
    plan = _Plan(terminals, tree, (a0, m0, a1, m1), disjoint, raked)
    for n in nodes:
        kids = np.arange(tree.first_child[n], tree.first_child[n] + tree.n_children[n])
        mirrors = tuple(tuple(iso[3][iso[0][c]:iso[0][c] + iso[1][c]].tolist()) for c in kids) if iso is not None \
            else ()
        key = (tuple(tree.board[kids].tolist()), mirrors)
        if key not in made:
            boards = tree.board[kids].astype(np.int64)
            s, w = _summed(plan, boards)
            if any(mirrors):
                made[key] = (len(signed), len(signed) + 1)
                for ms, mw in (_mirrored(plan, s, w, kids, boards, p) for p in (0, 1)):
                    signed.append(ms)
                    weight.append(mw)
            else:
                made[key] = (len(signed), len(signed))
                signed.append(s)
                weight.append(w)
        index[n] = made[key]
    return index, np.stack(signed), (np.stack(weight) if raked else NO_MATRICES)


class _Plan(NamedTuple):
    """What every matrix of one tree is made from."""

    terminals: object  # the sweep's SweepTerminals
    tree: object
    window: tuple  # (a0, m0, a1, m1): each player's window of the shared hand list
    disjoint: np.ndarray  # [m0, m1]: the two hands share no card
    raked: bool


def _board_strengths(terminals, boards, window) -> tuple[np.ndarray, np.ndarray]:
    """Per board, each player's hands' showdown strengths ([boards, n], -1 for a hand not live on
    the board), read from the sweep's strength order."""
    a0, m0, a1, m1 = window
    full = np.full((len(boards), len(terminals.cards)), -1, dtype=np.int64)
    for k, b in enumerate(boards):
        s0, s1 = terminals.start[b], terminals.start[b + 1]
        full[k, terminals.order[s0:s1]] = terminals.strength[s0:s1]
    return np.ascontiguousarray(full[:, a0:a0 + m0]), np.ascontiguousarray(full[:, a1:a1 + m1])


def _summed(plan: _Plan, boards) -> tuple[np.ndarray, np.ndarray | None]:
    """The boards' dense matrices summed: (signed, weight or None)."""
    m0, m1 = plan.window[1], plan.window[3]
    st0, st1 = _board_strengths(plan.terminals, boards, plan.window)
    const = np.asarray(plan.terminals.const, dtype=np.float64)[boards]
    signed = np.zeros((m0, m1))
    weight = np.zeros((m0, m1)) if plan.raked else np.zeros((0, 0))
    _add_boards(st0, st1, const, plan.disjoint, signed, weight)
    return signed, (weight if plan.raked else None)


def _mirrored(plan: _Plan, signed, weight, kids, boards, p):
    """Player p's matrices with each child's mirror deals added as the pass adds them: the
    child's own values read through the mirror's hand permutation of p's window (player 0's rows,
    player 1's columns)."""
    a0, m0, a1, m1 = plan.window
    raked = plan.raked
    first, count, perm, swap = plan.tree.iso
    out_s, out_w = signed.copy(), (weight.copy() if raked else None)
    for k, c in enumerate(kids):
        if not count[c]:
            continue
        s, w = _summed(plan, boards[k:k + 1])
        for m in range(first[c], first[c] + count[c]):
            row = np.asarray(perm[swap[m]], dtype=np.int64)
            if p == 0:
                take = row[a0:a0 + m0] - a0
                out_s += s[take, :]
                if raked:
                    out_w += w[take, :]
            else:
                take = row[a1:a1 + m1] - a1
                out_s += s[:, take]
                if raked:
                    out_w += w[:, take]
    return out_s, (out_w if raked else np.zeros((m0, m1)))


@njit(cache=True, error_model="numpy", _nrt=False)
def _add_boards(st0, st1, const, disjoint, signed, weight):
    """``signed[i, j] += const[b] * sign(st0[b, i] - st1[b, j])`` over the boards b where both hands
    are live and share no card (``weight`` the same unsigned, where it has rows)."""
    raked = weight.shape[0] > 0
    for b in range(st0.shape[0]):
        c = const[b]
        for i in range(st0.shape[1]):
            x = st0[b, i]
            if x < 0:
                continue
            for j in range(st1.shape[1]):
                y = st1[b, j]
                if y < 0 or not disjoint[i, j]:
                    continue
                signed[i, j] += c if x > y else (-c if x < y else 0.0)
                if raked:
                    weight[i, j] += c
