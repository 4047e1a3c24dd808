"""Work on a Ray cluster: starting or joining Ray with one-line errors (:mod:`.ray_runtime`) and
independent runs as Ray tasks (:mod:`.parallel`).  Nothing here imports Ray until asked.

The public-tree solver split at public chance over Ray actors lives with the public tree
(:mod:`zerosum.public_tree.split`); PSRO's parallel oracle calls in :mod:`zerosum.solvers.psro`.

May import: the standard library, Ray (inside functions), :mod:`zerosum.errors`.  Nothing else:
solvers, the public tree and experiments build on this package.
"""

