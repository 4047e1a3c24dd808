"""One terminal's values by the form's evaluator: the dispatch on
:attr:`~zerosum.public_tree.arrays.TerminalArrays.evaluator`, the one place the passes read it.

May import: numba, :mod:`zerosum.public_tree.form`, the evaluators' modules.
"""

from __future__ import annotations

from numba import njit

from ..form import FOLD
from .dense import DENSE, dense_values, rake_at
from .rank import RANKS, rank_values
from .sweep import sweep_values


@njit(cache=True, error_model="numpy")
def terminal(n, orow, p, folder, is_fold, st, b, opp, val, term, cs):
    """Values at one terminal by the form's evaluator (``term``, the
    :class:`~zerosum.public_tree.arrays.TerminalArrays`).  Called, not inlined: inlined at every
    call site it made most of the passes' compile time, and a call costs nothing beside its
    O(hands) work."""
    if term.evaluator == DENSE:
        dense_values(n, orow, p, folder, is_fold, st, b, opp, val, term.weight, term.signed, rake_at(term.rake, st))
    elif term.evaluator == RANKS:
        rank_values(n, orow, p, folder, is_fold, st, b, opp, val, term.cards[0, 0], term.const, term.order,
                    term.start)
    else:
        sweep_values(n, orow, p, folder, is_fold, st, b, opp, val, term, cs)


@njit(cache=True, inline="always", error_model="numpy")
def leaf_values(tree, term, n, p, opp, orow, val, vn, row, copy, cs):
    """p's values at terminal node n into ``val[vn]`` from the opponent's reach ``opp[orow]``: the
    poker family's :func:`~.rank.rank_values` inlined (it reads each hand's reach before writing its
    value, so opp may be val), the others' :func:`terminal` called on ``row``: a scratch row the
    reach is copied to first where ``copy`` (opp and val one buffer), else opp itself (each caller
    passes one array type, so :func:`terminal` compiles once for it)."""
    k = tree.kind[n]
    if term.evaluator == RANKS:
        rank_values(vn, orow, p, tree.player[n], k == FOLD, tree.stake[n], tree.board[n], opp, val,
                      term.cards[0, 0], term.const, term.order, term.start)
    else:
        r = orow
        if copy:
            for j in range(opp.shape[1]):
                row[0, j] = opp[orow, j]
            r = 0
        terminal(vn, r, p, tree.player[n], k == FOLD, tree.stake[n], tree.board[n], row, val, term, cs)
