"""The CLI's public-tree defaults: float32 for large hold'em trees only, the root's report read
without the whole policy, a resumed state's dtype and isomorphism adopted."""

from __future__ import annotations

import numpy as np

from zerosum.cli.public_tree import RootPolicy, first_actions_public, saved_tree_options
from zerosum.games import load_game
from zerosum.public_tree import solver as solver_module
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import PublicTreeSolver, default_dtype
from zerosum.solvers.rules import DCFR


def test_float32_only_for_holdem_trees_past_the_threshold(monkeypatch):
    holdem = public_tree(load_game("holdem", board="Ks7d2c9h", raises=1, range0="AA,KQ", range1="QQ,AK"))
    family = public_tree(load_game("poker", ranks=6))
    assert default_dtype(holdem) == "float64" and default_dtype(family) == "float64"
    monkeypatch.setattr(solver_module, "FLOAT32_FROM", sum(holdem.infoset_actions()) - 1)
    assert default_dtype(holdem) == "float32"
    monkeypatch.setattr(solver_module, "FLOAT32_FROM", 0)
    assert default_dtype(family) == "float64"  # the poker family stays float64


def test_the_root_report_equals_the_whole_policys():
    for board in ("Ks7d2c9h", "KsQs7h2h"):
        tree = public_tree(load_game("holdem", board=board, raises=2, range0="AA,KQ,T9s", range1="QQ,AK,J9s"),
                           isomorphism=True)
        s = PublicTreeSolver(tree, DCFR())
        s.iterate(20)
        root = RootPolicy(s)
        assert np.allclose(root.table(0).sum(axis=0), 1.0)
        assert first_actions_public(root) == first_actions_public(s.average_policy())


def test_a_resumed_state_brings_its_dtype_and_isomorphism(tmp_path):
    path = tmp_path / "s.npz"
    np.savez(path, dtype=np.array("float32"), isomorphism=np.array(True))
    assert saved_tree_options(str(path), ("threads=2",)) == ("threads=2", "dtype=float32", "isomorphism=true")
    assert saved_tree_options(str(path), ("dtype=float64",)) == ("dtype=float64", "isomorphism=true")
    assert saved_tree_options(None, ("a=1",)) == ("a=1",)
    assert saved_tree_options(str(tmp_path / "missing.npz"), ()) == ()  # refused later, when loaded


def test_lighter_checks_compute_the_average_only(tmp_path):
    """--option checks=average: the same average NashConv at every checkpoint, the current strategy's
    NashConv and the value left out except in the last row, which equals the full run's."""
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    args = ["solve", "poker", "--form", "public-tree", "-a", "dcfr", "-n", "30", "--checkpoints", "10,20", "--json"]
    full = json.loads(CliRunner().invoke(cli, args).output)["checkpoints"]
    light = json.loads(CliRunner().invoke(cli, [*args, "--option", "checks=average"]).output)["checkpoints"]
    assert [r["nash_conv_average"] for r in light] == [r["nash_conv_average"] for r in full]
    assert [r["nash_conv_current"] is None for r in light] == [True, True, False]
    assert light[-1] == full[-1]
    bad = CliRunner().invoke(cli, [*args[:-1], "--option", "checks=some"])
    assert bad.exit_code != 0 and "checks takes full or average" in bad.output
