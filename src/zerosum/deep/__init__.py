"""Networks that imitate or replace a tabular strategy, always evaluated exactly.

* :mod:`.network_policy` -- tabulate any network over all information sets of a compiled game
  (an exact :class:`~zerosum.core.policy.TabularPolicy`), save networks as ``.npz`` of arrays;
* :mod:`.distill` -- a network imitating a tabular average (Lab 15, "Approximate averages");
* :mod:`.training` -- the jit-compiled fitting loop the deep methods share.

The deep solvers themselves (Deep CFR, Single Deep CFR, NFSP) are algorithms like the others and
live in :mod:`zerosum.solvers` (:mod:`zerosum.solvers.deep_cfr`, :mod:`zerosum.solvers.nfsp`).
Everything that trains a network needs the ``deep`` extra (JAX and Optax); importing this
package does not import JAX.

May import: numpy, JAX / Optax (inside functions), :mod:`zerosum.core`, :mod:`zerosum.learning`
(networks and features), :mod:`zerosum.errors`, :mod:`zerosum.files`.
"""
