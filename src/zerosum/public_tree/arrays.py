"""The argument groups of the public-tree kernels, as named tuples of arrays.

Numba takes a named tuple as one argument of a compiled function (its fields keep their names
inside, ``tree.kind[n]``), so a pass takes a few groups instead of thirty to fifty arrays: the
per-node tree (:class:`TreeArrays`), the terminal evaluator's data (:class:`TerminalArrays`, what
``terminals.*.kernel_args()`` returns), the variant's regret rule (:class:`Rule`), a pass's step
and sums (:class:`Step`, :class:`Sums`) and its scratch (:class:`DepthScratch`).  A named tuple
costs one unboxing per field as the separate arguments did: a microsecond a call, nothing
against an iteration.

May import: numpy.
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np


class TreeArrays(NamedTuple):
    """The public tree's node arrays (parents first, children consecutive): see
    :class:`zerosum.public_tree.form.PublicTree`; a split piece has its own (local) ones.  The
    last four are suit isomorphism's mirrors (:attr:`~zerosum.public_tree.form.PublicTree.iso`),
    empty where there are none (:func:`tree_arrays`)."""

    kind: np.ndarray
    player: np.ndarray
    first_child: np.ndarray
    n_children: np.ndarray
    board: np.ndarray
    stake: np.ndarray
    offset: np.ndarray
    iso_first: np.ndarray
    iso_count: np.ndarray
    iso_perm: np.ndarray
    iso_swap: np.ndarray
    #: int32 [nodes, 2]: at an all-in runout node, the matrix of the terminals' ``signed`` (and
    #: ``weight``) each player's values are a product with (-1 elsewhere); no rows: none
    #: (:mod:`zerosum.public_tree.evaluators.runouts`)
    runout: np.ndarray


#: the mirrors' arrays: first int32 (row numbers), count int8 (at most 3), the permutations int16 (hand
#: indices, < 1,326), one per suit swap (at most six), and per mirror row the swap it reads (int8):
#: the narrowest types that hold them, since a flop has thousands of mirrors (TexasSolver's flop
#: spot: 6 rows, 16 KiB); empty ones of the same types, so a tree without mirrors runs the same
#: compiled passes
_NO_ISO = (np.zeros(0, dtype=np.int32), np.zeros(0, dtype=np.int8), np.zeros((0, 0), dtype=np.int16),
           np.zeros(0, dtype=np.int8))


def tree_arrays(kind, player, first_child, n_children, board, stake, offset, iso=None) -> TreeArrays:
    """A :class:`TreeArrays` in the form's types (:data:`~zerosum.public_tree.form.NODE_TYPES`: no
    copy of a tree's own arrays; a split piece's are cast), so every tree runs the same compiled
    passes; ``iso`` the tree's mirrors (first, count, perm, swap) or None; no runout nodes (the
    workspace sets :attr:`TreeArrays.runout` where it has them)."""
    kind, player = np.asarray(kind, dtype=np.int8), np.asarray(player, dtype=np.int8)
    first_child, n_children = np.asarray(first_child, dtype=np.int32), np.asarray(n_children, dtype=np.int32)
    board, stake, offset = np.asarray(board, dtype=np.int32), np.asarray(stake, dtype=np.float64), np.asarray(
        offset, dtype=np.int64)
    iso = _NO_ISO if iso is None else tuple(np.asarray(a, dtype=t.dtype) for a, t in zip(iso, _NO_ISO))  # (no copy)
    return TreeArrays(kind, player, first_child, n_children, board, stake, offset, *iso, _NO_RUNOUT)


_NO_RUNOUT = np.zeros((0, 2), dtype=np.int32)


class TerminalArrays(NamedTuple):
    """A terminal evaluator's data (:mod:`zerosum.public_tree.terminals`): ``evaluator`` DENSE,
    SWEEP or RANKS; the arrays the others do not use are empty.  ``window`` (int64 [2, 2]): the
    sweep's per-player (start, length) in its shared hand list (zeros for the others).  ``rake``
    (float64 [2]): the rate and the cap of the house's share of a pot (zeros: no rake; see
    :func:`zerosum.public_tree.evaluators.dense.rake_at`)."""

    evaluator: int
    weight: np.ndarray
    signed: np.ndarray
    cards: np.ndarray
    const: np.ndarray
    order: np.ndarray
    start: np.ndarray
    strength: np.ndarray
    qorder: np.ndarray
    qstart: np.ndarray
    pidx: np.ndarray
    cbase: np.ndarray
    chand: np.ndarray
    window: np.ndarray
    rake: np.ndarray


class Site(NamedTuple):
    """One terminal to evaluate (:func:`zerosum.public_tree.evaluators.dispatch.terminal`): its
    values go to row ``row`` of the value array, the opponent's reach is row ``orow`` of the reach
    array, for player ``p``; who folded (``folder``, a fold), whether it is a fold, its stake and its
    board (all int64, bool and float64: :func:`~zerosum.public_tree.evaluators.dispatch.site`)."""

    row: int
    orow: int
    p: int
    folder: int
    is_fold: bool
    stake: float
    board: int


def card_scratch(width: int) -> np.ndarray:
    """The sweep evaluator's scratch for hand lists up to ``width`` long (float64): 52 card sums,
    then a prefix over the hands in strength order (width + 1) and one per card over the hands
    holding it (2 width + 52)."""
    return np.zeros(card_scratch_len(width))


def card_scratch_len(width: int) -> int:
    return 52 + (width + 1) + (2 * width + 52)


class TerminalBatches(NamedTuple):
    """Where the depth-first pass evaluates a subtree's terminals together (hold'em's sweep
    evaluator; :func:`zerosum.public_tree.evaluators.batches.batch_plan` makes it, from the tree, once): the
    subtrees with no chance node below a deal (each river's betting, or the whole tree of a river
    spot), up to a size.  ``root[n]``: n's batch (-1: n is not the top of one; empty: no batches);
    batch r's nodes are ``node[start[r]:start[r + 1]]``, breadth first (a node's children are
    consecutive there, from ``first[i]`` on, local to the batch; -1 at a terminal);
    ``local[n]``: n's index in its batch (-1 outside one)."""

    root: np.ndarray
    start: np.ndarray
    node: np.ndarray
    first: np.ndarray
    local: np.ndarray


#: (int32, as :func:`~zerosum.public_tree.evaluators.batches.batch_plan` makes them: node numbers and
#: positions, which int32 holds at half int64's memory)
NO_BATCHES = TerminalBatches(*(np.zeros(0, dtype=np.int32) for _ in range(5)))


class DepthScratch(NamedTuple):
    """The depth-first pass's vectors per depth (:func:`zerosum.public_tree.kernels.dfs_from`), made
    once by its caller: reach down (``opp``, ``own``), values up (``val``), regret-matching totals
    (``tot``), per-action values (``cfv``), sampling weights (``iw``, float64), the predictive
    variants' values (``pval``, ``pcfv``: one depth where there is no prediction) and the path
    (``node``, ``nxt``, int64).  Then the terminal batches (``batches``, shared by the threads) and
    their scratch: the opponent's reach per batch node (``b_reach``, a row per node, 8 more for
    the showdowns' padding lanes), the terminals' values (``b_val``, a row per node, 8 more), the
    showdowns' prefix sums eight lanes wide (``b_sums``, float64), a node's reach row
    (``b_row``), the showdowns and folds of a batch (``b_lanes``, three rows and 8 long: see
    :func:`~zerosum.public_tree.evaluators.batches.batch_terminals`) and one row of totals (``b_tot``); all
    empty where there are no batches."""

    opp: np.ndarray
    own: np.ndarray
    val: np.ndarray
    tot: np.ndarray
    cfv: np.ndarray
    iw: np.ndarray
    pval: np.ndarray
    pcfv: np.ndarray
    node: np.ndarray
    nxt: np.ndarray
    batches: TerminalBatches
    b_reach: np.ndarray
    b_val: np.ndarray
    b_sums: np.ndarray
    b_row: np.ndarray
    b_lanes: np.ndarray
    b_tot: np.ndarray


def batch_rows(batches: TerminalBatches) -> int:
    """The rows of a batch's scratch: its largest batch's nodes and 8 padding lanes (0: none)."""
    if len(batches.root) == 0:
        return 0
    return int(np.diff(batches.start).max()) + 8


def batch_scratch(batches: TerminalBatches, width: int, dtype, threads: int = 0) -> tuple:
    """The six batch scratch arrays of a :class:`DepthScratch` (a leading axis of ``threads``
    where it is > 0: one set per thread)."""
    rows = batch_rows(batches)
    lead = (threads,) if threads > 0 else ()
    sums = card_scratch_len(width) if rows else 0
    return (np.zeros(lead + (rows, width), dtype=dtype), np.zeros(lead + (rows, width), dtype=dtype),
            np.zeros(lead + (sums, 8)), np.zeros(lead + (rows,), dtype=np.int64),
            np.zeros(lead + (3 * rows + 8,), dtype=np.int64), np.zeros(lead + (width if rows else 0,), dtype=dtype))


def depth_scratch(max_depth: int, max_actions: int, width: int, dtype, predict: bool,
                  batches: TerminalBatches = NO_BATCHES) -> DepthScratch:
    """A :class:`DepthScratch` for a tree of that depth and fan-out (predict: the prediction's too)."""
    d = max_depth + 1
    pd = d if predict else 1
    return DepthScratch(*(np.zeros((d, width), dtype=dtype) for _ in range(4)),
                        np.zeros((d, max_actions, width), dtype=dtype), np.ones(d), np.zeros((pd, width), dtype=dtype),
                        np.zeros((pd, max_actions, width), dtype=dtype), np.zeros(d, dtype=np.int64),
                        np.zeros(d, dtype=np.int64), batches, *batch_scratch(batches, width, dtype))


class Rule(NamedTuple):
    """The variant's regret rule (:func:`zerosum.solvers.rules.regret_update`)."""

    pre: float
    pos: float
    neg: float
    floor: bool


def as_rule(values=None) -> Rule:
    """A :class:`Rule` of floats from (pre, pos, neg, floor); None: plain sums, no floor."""
    pre, pos, neg, floor = (1.0, 1.0, 1.0, False) if values is None else values
    return Rule(float(pre), float(pos), float(neg), bool(floor))


class Step(NamedTuple):
    """What one depth-first pass does (:func:`zerosum.public_tree.kernels.dfs_from`): for player
    ``p``, in ``mode`` (UPDATE, BEST_RESPONSE, EXPECT), iteration's strategy weighing
    ``avg_weight`` in the average, the regret ``rule``, and a predictive variant's ``predict``
    (0 none, 1 "tree", 2 "local") and ``pscale`` (the factor on the regrets the prediction is added
    to); ``prune`` 1: in UPDATE mode, skip the work below an all-zero opponent reach (exact: see
    :func:`zerosum.public_tree.kernels.dfs_from`)."""

    p: int
    mode: int
    avg_weight: float
    rule: Rule
    predict: int
    pscale: float
    prune: int


def pass_step(p, mode, avg_weight=0.0, rule=None, predict=0, pscale=1.0, prune=False) -> Step:
    """A :class:`Step` of the kernels' types (ints, floats, a float :class:`Rule`), so every caller
    runs the same compiled pass."""
    return Step(int(p), int(mode), float(avg_weight), as_rule(rule), int(predict), float(pscale), int(bool(prune)))


class Sums(NamedTuple):
    """The vectors one pass reads and writes: the ranges of p and of the opponent (the root's
    reach), what each player's strategy is read from (``src_p``, ``src_o``: regrets or average
    sums, a predictive variant's stored strategies), p's average sums (``avg_p``, grown in UPDATE
    mode; empty otherwise), p's regrets (``regrets_p``: ``src_p`` but for a predictive variant),
    the 16-bit storage's node scales of p (float32 [2, nodes]; no rows: float sums) and the public
    chance draws (``sample``: per chance node the child walked; empty: every child)."""

    range_p: np.ndarray
    range_o: np.ndarray
    src_p: np.ndarray
    src_o: np.ndarray
    avg_p: np.ndarray
    regrets_p: np.ndarray
    scales: np.ndarray
    sample: np.ndarray


class Cut(NamedTuple):
    """Where one pass starts and stops: ``n0`` the node it starts at (0, the root: reach from the
    ranges; another: the caller has put its reach in row 0 of the scratch), ``cut`` 0 (the whole
    subtree), 1 (the trunk down to the cut chance nodes, those with a ``slot`` >= 0: their reach
    into ``cut_reach[slot]``) or 2 (the trunk up: their values from ``cut_val[slot]``)."""

    n0: int
    cut: int
    slot: np.ndarray
    cut_reach: np.ndarray
    cut_val: np.ndarray


class CutTasks(NamedTuple):
    """The threads' share of a cut pass (:func:`zerosum.public_tree.kernels.cut_thread`): each cut
    chance node's ``slot``, the tasks (``task_node[k]`` a child of cut node ``task_slot[k]``), the
    cut nodes' reach and values, each task's root values (``child_val``), the queue the threads
    take tasks from (``queue[0]`` the tasks taken, then their order) and each task's nodes
    (``work``); per cut node its first task (``slot_task``, [cut nodes + 1]: a node's tasks are
    consecutive) and its tasks not done yet in this pass (``pending``)."""

    slot: np.ndarray
    task_node: np.ndarray
    task_slot: np.ndarray
    cut_reach: np.ndarray
    child_val: np.ndarray
    cut_val: np.ndarray
    queue: np.ndarray
    work: np.ndarray
    slot_task: np.ndarray
    pending: np.ndarray
