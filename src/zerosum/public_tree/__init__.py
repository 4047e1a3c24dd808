"""The public-tree form: a public tree walked once per iteration with vectors over each player's
private hands (the poker family and hold'em subgames), its builders and its passes.

* the form: :mod:`.form` (:class:`~zerosum.public_tree.form.PublicTree`, flat node arrays),
  :mod:`.terminals` (fold and showdown evaluators);
* the builders: :mod:`.build` (the poker family), :mod:`.holdem_build` (hold'em subgames),
  :mod:`.compile` (which games have the form, and the cache of built trees);
* the pass: :mod:`.kernels` (the one depth-first pass), :mod:`.passes` (its buffers and the
  Python side of each call), :mod:`.simd`
  (the terminals' hand-written vector loops, their plain twins and the ``ZEROSUM_SIMD=0`` switch);
* the solvers and policies: :mod:`.solver` (every CFR variant of :mod:`zerosum.solvers.rules` on
  this form, and PCS-MCCFR), :mod:`.policy` (per-node [action x hand] tables, saved as JSON),
  :mod:`.split` (the solver split at public chance over Ray workers), :mod:`.locking` (node
  locking: one player's strategy fixed at some nodes), :mod:`.abstraction` (card abstraction by
  tying the arrays);
* built on this package, apart: re-solving (depth-limited, subgames, leaf values) in
  :mod:`zerosum.resolving`; what a solved tree says (node reports, grids, values, local best
  response, the ``.zsp`` solution file) in :mod:`zerosum.solutions`.

May import: numpy, numba (and its llvmlite, for the intrinsics of :mod:`.simd` and :mod:`.kernels`), :mod:`zerosum.core`,
:mod:`zerosum.poker` (the rules it builds from), :mod:`zerosum.solvers` (the variants' regret rules), :mod:`zerosum.distributed` (Ray, in
:mod:`.split` only), :mod:`zerosum.files`, :mod:`zerosum.errors`, :mod:`zerosum.progress`.  Never the
command line, nor :mod:`zerosum.resolving` or :mod:`zerosum.solutions` (built on this package).
"""

import os as _os

if _os.environ.get("ZEROSUM_SIMD", "1").strip() in ("0", "false", "no", "off"):
    # the plain twins of :mod:`.simd`: Numba's cache in a folder of its own, set before any kernel
    # of this package is compiled (a cached kernel keeps the code of what it called)
    import numba as _numba

    from .simd import plain_cache_dir as _plain_cache_dir

    _numba.config.CACHE_DIR = _plain_cache_dir()
