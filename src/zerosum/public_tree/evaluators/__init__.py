"""The terminal evaluators: the value of each of a player's hands at a public terminal, chance
inside.  At a terminal on board b with stake s, player 0's hand i is worth
``s * sum_j W(i, j, b) * sign(i, j, b) * reach1(j)`` (sign = +-1 at a fold by who folded, the
showdown result otherwise), where W(i, j, b) is the chance probability of that deal.

Each evaluator is one module that owns its data (a frozen dataclass the form holds:
``tree.terminals``) and its kernel:

* :mod:`.dense`: per board the matrices W and W * sign (any payoff; the tests' reference);
* :mod:`.rank`: the poker family in O(ranks);
* :mod:`.sweep`: hold'em, O(n + 52) per terminal by sweeps or prefix sums over strength order;
* :mod:`.batches`: a river's terminals together, eight showdowns or four folds at once.

The interface every evaluator's dataclass has: ``kind`` (its number in
:class:`~zerosum.public_tree.arrays.TerminalArrays`), ``nbytes()``, ``kernel_args()`` (its
arrays as the kernels take them, in one type for all, so every pass compiles once).  The kernels
reach an evaluator only through :func:`.dispatch.terminal` and :func:`.dispatch.leaf_values`.

May import: numpy, numba, :mod:`zerosum.public_tree.arrays`, :mod:`zerosum.public_tree.form`,
:mod:`zerosum.public_tree.rows`, :mod:`zerosum.public_tree.simd`.
"""
