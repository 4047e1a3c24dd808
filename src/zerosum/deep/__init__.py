"""Approximate averages: networks that imitate or replace CFR's average strategy, evaluated exactly.

* :mod:`.network_policy` -- tabulate any network over all information sets of a compiled game
  (an exact :class:`~zerosum.core.policy.TabularPolicy`), save networks as ``.npz`` of arrays;
* :mod:`.distill` -- a network imitating a tabular average (Lab 15, "Approximate averages");
* :mod:`.deep_cfr` -- Deep CFR and Single Deep CFR; :mod:`.nfsp` -- Neural Fictitious Self-Play;
* :mod:`.training` -- the jit-compiled fitting loop they share.

Everything that trains a network needs the ``deep`` extra (JAX and Optax); importing this
package does not import JAX.
"""

# zerosum.solvers registers the solvers defined here: load it first, so that importing a module of
# this package directly does not meet a half-initialized zerosum.solvers
from .. import solvers as _solvers  # noqa: F401
