"""Stopping rules and what ``zerosum solve`` does with the iterations asked for (issue 27)."""

import json
import time

import click.testing

import zerosum.cli


def _invoke(*args):
    return click.testing.CliRunner().invoke(zerosum.cli.cli, list(args))


def test_checkpoints_past_iterations_are_refused_with_one_line():
    r = _invoke("solve", "kuhn", "-n", "100", "--checkpoints", "10,2000")
    assert r.exit_code == 1
    assert r.output.strip() == "Error: --checkpoints 2000 past --iterations 100: ask for -n 2000 (or drop those " \
                               "checkpoints)"



def test_last_iterate_method_saves_its_current_strategy(tmp_path):
    """proximal-magnet's point is its current strategy: --save writes it (saved_strategy "current"),
    checked by evaluating the file independently; --save-current writes it for any solver."""
    pm, cur = tmp_path / "pm.json", tmp_path / "cfr_current.json"
    r = _invoke("solve", "kuhn", "-a", "proximal-magnet", "-n", "300", "--save", str(pm), "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["result_strategy"] == "current" and res["saved_strategy"] == "current"
    # the headline (nash_conv) is the result strategy's, the saved one; the average's is apart (issue 52)
    assert res["nash_conv"] == res["nash_conv_current"] == res["checkpoints"][-1]["nash_conv_current"] \
        != res["nash_conv_average"]
    ev = json.loads(_invoke("evaluate", "kuhn", str(pm), "--json").stdout)
    assert abs(ev["nash_conv"] - res["nash_conv_current"]) < 1e-12
    r = _invoke("solve", "kuhn", "-a", "cfr", "-n", "20", "--save-current", str(cur), "--json")
    res = json.loads(r.stdout)
    assert res["result_strategy"] == "average" and res["saved_current"] == str(cur)
    ev = json.loads(_invoke("evaluate", "kuhn", str(cur), "--json").stdout)
    assert abs(ev["nash_conv"] - res["nash_conv_current"]) < 1e-12


def test_network_solvers_default_to_100_iterations():
    """deep-cfr's default -n is 100 (1,000 ran 18 minutes on Kuhn): a checkpoint past it is refused
    before any work, which shows the default without running it."""
    r = _invoke("solve", "kuhn", "-a", "deep-cfr", "--checkpoints", "150")
    assert r.exit_code == 1
    assert "past --iterations 100" in r.output


def test_a_long_run_says_its_expected_duration_on_stderr_only(monkeypatch):
    from zerosum.cli import runs

    monkeypatch.setattr(runs, "LONG_RUN_SECONDS", 0)  # every run is "long": the line must appear
    monkeypatch.setattr(runs, "ESTIMATE_AFTER_SECONDS", 0)
    r = _invoke("solve", "kuhn", "-n", "500", "--json")
    assert r.exit_code == 0
    assert "expected duration: about" in r.stderr and "500 iterations" in r.stderr
    assert json.loads(r.stdout)["iterations"] == 500  # stdout: still one JSON object


def test_target_nashconv_stops_at_the_first_checkpoint_reaching_it():
    r = _invoke("solve", "kuhn", "-n", "100000", "--target-nashconv", "0.001", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    rows = res["checkpoints"]
    assert res["stopped"] == "target" and res["iterations"] == rows[-1]["iteration"] < 100000
    assert rows[-1]["nash_conv_average"] <= 0.001 < rows[-2]["nash_conv_average"]
    assert res["nash_conv"] == rows[-1]["nash_conv_average"]


def test_time_stops_early_with_the_results_so_far(tmp_path):
    state = tmp_path / "t.npz"
    t0 = time.perf_counter()
    r = _invoke("solve", "kuhn", "-n", "100000000", "--time", "0.3", "--save-state", str(state), "--json")
    assert r.exit_code == 0, r.output
    assert time.perf_counter() - t0 < 10
    res = json.loads(r.stdout)
    assert res["stopped"] == "time" and 0 < res["iterations"] < 100000000
    assert res["checkpoints"][-1]["iteration"] == res["iterations"] and state.is_file()


def test_save_every_needs_save_state():
    r = _invoke("solve", "kuhn", "-n", "10", "--save-every", "5")
    assert r.exit_code == 1 and r.output.startswith("Error: --save-every N writes the --save-state file")
