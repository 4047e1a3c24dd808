"""Re-solving on the public tree: parts of a game solved again, apart from the whole.

* :mod:`.depth_limited`: the tree cut after some rounds, solved against a blueprint's
  continuations below the cut (Brown, Sandholm and Amos 2018);
* :mod:`.resolve`: subgame re-solving at a public node: unsafe, CFR-D's gadget, max-margin, reach;
* :mod:`.value_net`: DeepStack's leaf values: the subgames solved for the reaching ranges, or a
  value network trained on such solves, and continual re-solving.

Built on the public tree's form, passes and policies (:mod:`zerosum.public_tree`), which never
import this package.

May import: numpy, numba, :mod:`zerosum.public_tree`, :mod:`zerosum.solutions` (values and reach at a
node of the blueprint, the boards' terminal matrices), :mod:`zerosum.solvers` (the variants' regret
rules and capabilities), :mod:`zerosum.core` (memory limits), :mod:`zerosum.deep` and
:mod:`zerosum.learning` (JAX, in :mod:`.value_net`'s training only), :mod:`zerosum.files`,
:mod:`zerosum.errors`.  Never the command line.
"""
