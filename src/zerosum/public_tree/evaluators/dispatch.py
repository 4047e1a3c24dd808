"""One terminal's values by the form's evaluator: the dispatch on
:attr:`~zerosum.public_tree.arrays.TerminalArrays.evaluator`, the one place the passes read it.

May import: numba, :mod:`zerosum.public_tree.arrays`, the evaluators' modules.
"""

from __future__ import annotations

from numba import njit

from ..arrays import Site
from .dense import DENSE, dense_values
from .rank import RANKS, rank_values
from .sweep import sweep_values


@njit(cache=True, inline="always", error_model="numpy")
def site(row, orow, p, folder, is_fold, stake, board):
    """A :class:`~zerosum.public_tree.arrays.Site` in its one type (int64, bool, float64), so each
    evaluator compiles once whatever the callers' array types."""
    return Site(int(row), int(orow), int(p), int(folder), bool(is_fold), float(stake), int(board))


@njit(cache=True, error_model="numpy")
def terminal(s, opp, val, term, cs):
    """Values at one terminal (``s``, a :class:`~zerosum.public_tree.arrays.Site`) by the form's
    evaluator (``term``, the :class:`~zerosum.public_tree.arrays.TerminalArrays`; ``cs`` the
    sweep's scratch).  Called, not inlined: inlined at every call site it made most of the passes'
    compile time, and a call costs nothing beside its O(hands) work."""
    if term.evaluator == DENSE:
        dense_values(s, opp, val, term)
    elif term.evaluator == RANKS:
        rank_values(s, opp, val, term)
    else:
        sweep_values(s, opp, val, term, cs)


@njit(cache=True, inline="always", error_model="numpy")
def leaf_values(term, s, opp, val, row, copy, cs):
    """p's values at the terminal ``s`` from the opponent's reach ``opp[s.orow]``: the poker
    family's :func:`~.rank.rank_values` inlined (it reads each hand's reach before writing its
    value, so opp may be val), the others' :func:`terminal` called on ``row``: a scratch row the
    reach is copied to first where ``copy`` (opp and val one buffer), else opp itself (each caller
    passes one array type, so :func:`terminal` compiles once for it)."""
    if term.evaluator == RANKS:
        rank_values(s, opp, val, term)
    elif copy:
        for j in range(opp.shape[1]):
            row[0, j] = opp[s.orow, j]
        terminal(Site(s.row, 0, s.p, s.folder, s.is_fold, s.stake, s.board), row, val, term, cs)
    else:
        terminal(s, row, val, term, cs)
