"""The terminal evaluators under their old names: see :mod:`zerosum.public_tree.evaluators`
(each evaluator's data and kernel in its module)."""

from __future__ import annotations

from .evaluators.dense import DENSE, DenseTerminals
from .evaluators.rank import RANKS, RankTerminals
from .evaluators.sweep import SWEEP, SweepTerminals, showdown_prefix_arrays

__all__ = ["DENSE", "RANKS", "SWEEP", "DenseTerminals", "RankTerminals", "SweepTerminals", "showdown_prefix_arrays"]
