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


def _counting(solver):
    """Makes the solver's evaluation workspace count its passes: the list it appends to."""
    solver.checkpoint()  # (the evaluation workspace made)
    ws = solver._eval_workspace
    walks, walk = [], ws.walk
    ws.walk = lambda *a, **k: walks.append(a[0].mode) or walk(*a, **k)
    return walks


def test_a_full_check_after_a_light_one_walks_only_the_value_and_the_current_strategy():
    """The CLI's last row (full) right after a light check at the same iteration takes the light
    check's two best responses: one value pass and the current strategy's two, the same row as a
    full check from scratch; after more iterations, or a state loaded, the light result is not used."""
    from zerosum.games import load_game
    from zerosum.public_tree.solver import public_solver

    for params in ({}, {"rake": 0.05}):
        game = load_game("holdem", board="Ks7d2c9h5s", pot=10, stack=1000, bets=[4], raises=2, **params)
        light = public_solver("dcfr", game, dtype="float32")
        fresh = public_solver("dcfr", game, dtype="float32")
        light.light_checks = True
        walks = _counting(light)
        for solver in (light, fresh):
            solver.iterate(7)
        light.checkpoint()
        walks.clear()
        last = light.checkpoint(full=True)
        assert last == fresh.checkpoint(full=True)
        assert len(walks) == (4 if params else 3), params  # raked: the light check walked the values too, the
        # current strategy's NashConv takes four
        state = fresh.state_dict()
        light.iterate(1)
        fresh.iterate(1)
        walks.clear()
        assert light.checkpoint(full=True) == fresh.checkpoint(full=True)
        assert len(walks) == (8 if params else 5)  # nothing taken from the check at iteration 7
        light.checkpoint()
        light.load_state_dict(state)
        walks.clear()
        light.checkpoint(full=True)
        assert len(walks) == (8 if params else 5)
