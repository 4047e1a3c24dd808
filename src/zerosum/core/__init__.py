"""The imperfect-information core: the rules interface, the history-tree form every solver of
:mod:`zerosum.solvers` runs on, and what works on that form.

* :mod:`.game` -- :class:`~zerosum.core.game.Game`, the rules API (root, player, actions,
  chance outcomes, child, payoff, information set) that every game of :mod:`zerosum.games` and
  :mod:`zerosum.poker` implements;
* :mod:`.compile` -- the compile-once boundary: a game's rules walked once into flat NumPy arrays
  (:func:`~zerosum.core.compile.compiled`, :class:`~zerosum.core.compile.CompiledGame`: the
  sequence form, one treeplex per player, and a flat history tree);
* :mod:`.sequence_form` -- realization plans, counterfactual values, regret matching and best
  responses on a treeplex, each one pass over flat arrays;
* :mod:`.policy` -- :class:`~zerosum.core.policy.TabularPolicy` (behavioural strategies of both
  players, saved and loaded as JSON);
* :mod:`.evaluation` -- exact value, best responses, NashConv and exploitability;
* :mod:`.action_values` -- per-history action values (the learned oracles' and deep methods' targets);
* :mod:`.sampling` -- the random draws of the Monte Carlo methods (chance, actions, seeds per
  iteration), shared by MCCFR, the deep methods and the learners;
* :mod:`.memory` -- the one memory limit every size guard uses.

May import: numpy, scipy, numba, :mod:`zerosum.errors`, :mod:`zerosum.files`, :mod:`zerosum.params`.
Nothing here knows a specific game, a solver, the public tree or the command line.
"""
