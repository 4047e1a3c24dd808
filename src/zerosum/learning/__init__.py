"""Learners that only play: a batched simulator over the compiled game, feature vectors of
information sets, and best-response oracles learned from hands (tabular Q-learning, tabular
policy gradient, and a DQN over the feature vectors, which needs the ``deep`` extra).

Nothing here imports a network library unless the DQN oracle is used.
"""

from .features import infoset_features
from .simulator import Environment, Mixture, Simulator, TimeStep

__all__ = ["Environment", "Mixture", "Simulator", "TimeStep", "infoset_features"]
