"""The public-tree solver split at public chance: the trunk on the driver, subtrees in Ray actors.

Modules: :mod:`.cut` (where the tree is cut, the pieces, the deal of subtrees to workers),
:mod:`.worker` (a Ray actor holding subtrees),
:mod:`.driver` (the solver: :class:`SplitDriver`, which takes a variant object of
:mod:`zerosum.solvers.rules`, and :func:`split_solver`, which takes its name).  May import the
public tree's form, kernels and solver, :mod:`zerosum.solvers` (the variants' rules) and
:mod:`zerosum.distributed` (Ray).

The public tree is cut at its first layer of chance nodes (a hold'em turn subgame: the river
card; a flop subgame: the turn card; the poker family: the board card).  Every child of a cut
chance node roots a *subtree*; subtrees are dealt to the workers (Ray actors) by size, and each
actor holds its subtrees' regrets and average sums, never sent anywhere.  One pass for player p:

It is the threads' split of the one depth-first pass (:func:`zerosum.public_tree.kernels.dfs_from`
with a cut, see :class:`zerosum.public_tree.passes.Workspace`), with processes for threads:

1. the driver runs the pass over the trunk down to the cut chance nodes (``cut=1``: their reach
   vectors; the average at p's trunk nodes),
2. sends each actor p's and the opponent's reach vectors at the cut chance nodes above its
   subtrees (a chance node hands the same vectors to every card below it),
3. each actor runs the pass from each subtree's root with those vectors as its reach, as a
   thread runs a task, and returns each subtree root's counterfactual values,
4. the driver adds them at each cut chance node in card order, as a chance node adds its
   children (the sums are not grouped per worker: CFR+'s floor makes a regret that is exactly
   zero in one grouping and 1e-17 in another pick another strategy), and runs the pass over the
   trunk up from there (``cut=2``: regret updates at p's trunk nodes).

Every node's arithmetic is the single-process pass's, in the same order, so alternating updates,
discounting (the variant's rule, computed on the driver each pass and sent along) and averaging
are the single-process run's.  Exact best response, expected value and NashConv are the same
passes in the other modes.

Each pass is one call of a Ray *compiled graph* (``ray.dag``, built once: the driver's message goes to
every actor through shared-memory channels, without a task submission per actor and pass; measured
here 4.0 ms per round trip of the turn subgame's vectors against 8.2 ms for two actor-method calls);
where Ray cannot compile the graph the passes fall back to plain actor calls, with the same results.

Faults: every ``checkpoint_every`` iterations each actor writes its subtrees' arrays to
``checkpoint_dir`` (a path every machine sees) and the driver keeps a copy of the trunk's.  An
actor that dies is restarted by Ray (``max_restarts``); the driver sends it its subtrees again,
every actor reloads the last checkpoint, the trunk goes back to the same iteration and the
iterations since are redone, so the run ends with the result of an uninterrupted one.
"""

from .driver import SplitDriver, split_solver

__all__ = ["SplitDriver", "split_solver"]
