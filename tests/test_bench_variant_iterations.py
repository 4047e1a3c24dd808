"""benchmarks/bench_variant_iterations.py's pure parts: reading the first checked iteration at a
target from the checkpoint rows, the ``horizon=auto`` horizon and the ``NAME:K=V`` variants."""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

import bench_variant_iterations as bench


def test_first_reached_is_the_first_checkpoint_at_or_below_the_target():
    rows = [{"iteration": 10, "exploitability_pot_fraction": 0.02},
            {"iteration": 20, "exploitability_pot_fraction": 0.005},
            {"iteration": 30, "exploitability_pot_fraction": 0.006},  # not monotone: the first counts
            {"iteration": 40, "exploitability_pot_fraction": 0.0009}]
    assert bench.first_reached(rows, 0.005) == 20
    assert bench.first_reached(rows, 0.001) == 40
    assert bench.first_reached(rows, 0.0001) is None
    assert bench.first_reached([{"iteration": 5, "exploitability_pot_fraction": None}], 0.5) is None


def test_horizon_auto_is_dcfrs_count():
    assert bench.resolve_horizon("auto", 110) == 110
    assert bench.resolve_horizon("auto*2", 110) == 220
    assert bench.resolve_horizon("auto", None) is None
    assert bench.resolve_horizon(1000, None) == 1000


def test_variants_by_label_or_name_and_options():
    assert bench.parse_variant("dcfr-r4") == ("dcfr-r4", "dcfr", {"restart": 4})
    assert bench.parse_variant("dcfr:alpha=1.5:gamma=3") == ("dcfr:alpha=1.5:gamma=3", "dcfr",
                                                              {"alpha": 1.5, "gamma": 3})
    assert bench.parse_variant("hs-dcfr:horizon=auto") == ("hs-dcfr:horizon=auto", "hs-dcfr", {"horizon": "auto"})
