"""Learners that only play: a batched simulator over the compiled game, feature vectors of
information sets, and best-response oracles learned from hands (tabular Q-learning, tabular
policy gradient, and a DQN over the feature vectors, which needs the ``deep`` extra).

Nothing here imports a network library unless the DQN oracle is used.

May import: numpy, numba, JAX / Optax (inside functions), :mod:`zerosum.core` (the compiled game,
policies, the random draws of :mod:`zerosum.core.sampling`), :mod:`zerosum.games` and
:mod:`zerosum.poker` (features of known games), :mod:`zerosum.errors`.  Not the solvers: PSRO
(:mod:`zerosum.solvers.psro`) uses the oracles here, not the other way round.
"""


from .features import infoset_features
from .simulator import Environment, Mixture, Simulator, TimeStep

__all__ = ["Environment", "Mixture", "Simulator", "TimeStep", "infoset_features"]
