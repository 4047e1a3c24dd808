"""The public tree split at public chance over Ray actors: the single-process run's numbers, exactly.

A real local Ray instance (conftest's ray_local, 2 CPUs).  Each split run is checked against the
single-process public-tree solver: NashConv and value after 100 iterations, and every entry of
the average policy, to 1e-12; the killed-actor test checks that a restart from the last
checkpoint ends where an uninterrupted run ends.
"""

import json
import os
import signal

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.errors import ZerosumError
from zerosum.games import load_game
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import public_solver

TURN = {"board": "Ks7d2c9h", "range0": "AA,AK,QJs", "range1": "KK,T9s,AQ", "raises": 1}


@pytest.fixture(scope="module")
def trees():
    return {"turn": public_tree(HoldemGame(**TURN)), "13x4": public_tree(load_game("poker", ranks=13, copies=4,
                                                                                    raises=3))}


@pytest.mark.parametrize("game", ["turn", "13x4"])
@pytest.mark.parametrize("algorithm", ["cfr+", "dcfr"])
def test_split_equals_single_process(ray_local, trees, game, algorithm):
    from zerosum.public_tree.split import split_solver

    tree = trees[game]
    single = public_solver(algorithm, tree)
    expect = single.run(100, [10, 100])
    split = split_solver(algorithm, tree, 2, checkpoint_every=50)
    try:
        got = split.run(100, [10, 100])
        assert split.cut.size >= 1 and all(s > 0 for s in split.stats()["subtrees"])
        regrets, average = split.gather()
    finally:
        split.close()
    for a, b in zip(expect, got):
        assert a["iteration"] == b["iteration"]
        for key in ("nash_conv_average", "nash_conv_current", "value_average"):
            assert b[key] == pytest.approx(a[key], abs=1e-12)
    assert expect[-1]["nash_conv_average"] < expect[0]["nash_conv_average"]  # it did solve something
    state = single.state_dict()  # the sums in the form's layout, whatever the solver's own
    for q in (0, 1):
        avg = state[f"average{q}"]
        assert np.allclose(average[q], avg, rtol=0, atol=1e-12 * max(1, abs(avg).max()))
        assert np.allclose(regrets[q], state[f"regrets{q}"], rtol=0, atol=1e-9)


def test_compiled_graph_equals_plain_actor_calls(ray_local, trees):
    """Each pass goes through one Ray compiled graph (its fallback: plain actor calls): the two
    paths give the same sums bit for bit, and the graph is really used where Ray has it."""
    from zerosum.public_tree.split import split_solver

    sums = []
    for compiled in (True, False):
        split = split_solver("dcfr", trees["turn"], 2, compiled_graph=compiled)
        try:
            assert (split._dag is not None) == compiled
            split.iterate(30)
            nash_conv = split.checkpoint()["nash_conv_average"]
            sums.append((nash_conv, split.gather()))
        finally:
            split.close()
    (nc_a, (reg_a, avg_a)), (nc_b, (reg_b, avg_b)) = sums
    assert nc_a == nc_b
    for q in (0, 1):
        assert np.array_equal(reg_a[q], reg_b[q]) and np.array_equal(avg_a[q], avg_b[q])
    assert np.abs(avg_a[0]).max() > 0


@pytest.mark.parametrize("game", ["turn", "13x4"])
def test_split_float32_equals_single_process_float32(ray_local, trees, game):
    """float32 sums (the flop's memory): the same passes in float32 as one process's float32 run,
    evaluated in float64 as there; float32 rounding differs from float64 by ~1e-6, so a wrong
    dtype anywhere (a float64 buffer on the update path) would show at 1e-9."""
    from zerosum.public_tree.split import split_solver

    tree = trees[game]
    # the depth-first pass's float32 arithmetic (its regret matching divides in float32), split in
    # two threads as the workers split it in processes
    single = public_solver("dcfr", tree, dtype="float32", threads=2)
    assert single.workspace.threads == 2
    expect = single.run(40, [10, 40])  # (40 iterations: 100 took 161 s of a CI run on two cores)
    wide = public_solver("dcfr", tree).run(40, [40])[-1]
    split = split_solver("dcfr", tree, 2, checkpoint_every=20, dtype="float32")
    try:
        got = split.run(40, [10, 40])
        regrets, average = split.gather()
    finally:
        split.close()
    for a, b in zip(expect, got):
        for key in ("nash_conv_average", "nash_conv_current", "value_average"):
            assert b[key] == pytest.approx(a[key], abs=1e-9)
    assert got[-1]["nash_conv_average"] != wide["nash_conv_average"]  # float32 arithmetic, not float64
    assert got[-1]["nash_conv_average"] < got[0]["nash_conv_average"]  # it did solve something
    state = single.state_dict()
    for q in (0, 1):
        assert average[q].dtype == np.float32 and regrets[q].dtype == np.float32
        assert np.allclose(average[q], state[f"average{q}"], rtol=1e-6, atol=0)
        reg = state[f"regrets{q}"]
        assert np.allclose(regrets[q], reg, rtol=1e-5, atol=1e-6 * abs(reg).max())


def test_killed_actor_restarts_from_checkpoint(ray_local, trees):
    from zerosum.public_tree.split import split_solver

    tree = trees["13x4"]
    single = public_solver("dcfr", tree)
    expect = single.run(30)
    split = split_solver("dcfr", tree, 2, checkpoint_every=5)
    try:
        split.run(12)
        os.kill(ray_local.get(split.actors[1].pid.remote()), signal.SIGKILL)
        got = split.run(30)
        assert split.restarts >= 1
        average = split.gather()[1]
    finally:
        split.close()
    assert got[-1]["nash_conv_average"] == pytest.approx(expect[-1]["nash_conv_average"], abs=1e-12)
    for q in (0, 1):
        assert np.allclose(average[q], single.state_dict()[f"average{q}"], rtol=0, atol=1e-9)


def _solve(*args):
    r = CliRunner().invoke(cli, ["solve", "poker", "--param", "ranks=13", "--param", "copies=4", "--param",
                                 "raises=3", "-a", "cfr+", "--json", *args])
    return r


def test_cli_ray_json_save_state_and_resume(ray_local, tmp_path):
    single = public_solver("cfr+", public_tree(load_game("poker", ranks=13, copies=4, raises=3)))
    plain = {"nash_conv": single.run(20)[-1]["nash_conv_average"], "value": single.checkpoint()["value_average"]}
    single.average_policy().save(str(tmp_path / "p.json"))
    half = _solve("-n", "10", "--ray", "auto", "--workers", "2", "--save-state", str(tmp_path / "s.npz"))
    assert half.exit_code == 0, half.output
    r = _solve("-n", "20", "--ray", "auto", "--workers", "2", "--resume", str(tmp_path / "s.npz"), "--save",
               str(tmp_path / "q.json"))
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["workers"] == 2 and len(out["compute_s"]) == 2 and all(s > 0 for s in out["compute_s"])
    # per pass: reach vectors (2 x 13 floats) to each worker for each cut chance node it holds subtrees of
    # (a chance node's reach is the same for all of its cards), values (13) back from each of the 91 subtrees
    assert sum(out["subtrees"]) == 91 and 1 <= max(out["cut_nodes"]) <= 91 // 13
    assert out["bytes_per_iteration"] == 2 * (sum(out["cut_nodes"]) * 2 * 13 + 91 * 13) * 8
    assert out["nash_conv"] == pytest.approx(plain["nash_conv"], abs=1e-12)
    assert out["value"] == pytest.approx(plain["value"], abs=1e-12)
    a, b = json.loads((tmp_path / "p.json").read_text()), json.loads((tmp_path / "q.json").read_text())
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def test_cli_ray_float32(ray_local):
    single = public_solver("cfr+", public_tree(load_game("poker", ranks=13, copies=4, raises=3)), dtype="float32",
                           threads=2)  # the depth-first pass split in threads, as the workers split it
    expect = single.run(10)[-1]["nash_conv_average"]
    r = _solve("-n", "10", "--ray", "auto", "--workers", "2", "--option", "dtype=float32")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["dtype"] == "float32" and out["nash_conv"] == pytest.approx(expect, abs=1e-9)
    assert out["bytes_per_iteration"] == 2 * (sum(out["cut_nodes"]) * 2 * 13 + 91 * 13) * 4  # float32 vectors


def test_ray_errors_are_one_line(ray_local):
    r = CliRunner().invoke(cli, ["solve", "kuhn", "--form", "history-tree", "--ray", "auto", "-n", "1"])
    assert r.exit_code == 1 and "without --ray" in r.output
    r = CliRunner().invoke(cli, ["solve", "rps", "--ray", "auto", "-n", "1"])
    assert r.exit_code == 1 and "no public tree" in r.output and "Traceback" not in r.output
    r = _solve("-n", "1", "--ray", "auto", "--workers", "0")
    assert r.exit_code == 1 and "--workers must be at least 1" in r.output
    r = _solve("-n", "1", "--ray", "auto", "--workers", "3")  # the test's instance has 2 CPUs: no hang
    assert r.exit_code == 1 and "has 2 CPUs, fewer than --workers 3" in r.output
    with pytest.raises(ZerosumError, match="no public chance"):
        from zerosum.public_tree.split import split_solver

        split_solver("cfr+", public_tree(HoldemGame("Ks7d2c9h3s", range0="AA", range1="KK")), 2)
