"""Issue 52, item 6: an experiment stopped by Ctrl-C shows (and under --json emits) the rows it
finished, marked as interrupted, and exits 130; a history-tree compile says its size first.

Ctrl-C is simulated: the deep experiment's per-run function raises KeyboardInterrupt on its third
call (the runs are faked: the test is about what is kept, not about the deep methods)."""

import json

import click.testing
import pytest

import zerosum.cli
import zerosum.experiments.deep as deep_mod
from zerosum.cli.experiment import experiment_command
from zerosum.experiments.report import Table


@pytest.fixture
def stop_on_third_run(monkeypatch):
    calls = []

    def fake_run(game, method, seed, iterations, options, advance=None):
        calls.append((method, seed))
        if len(calls) == 3:
            raise KeyboardInterrupt
        nash = 0.25 * len(calls)
        return [{"nash_conv_average": nash, "nodes": 100 * len(calls), "samples": 10, "cpu_seconds": 0.5}], 0.5

    monkeypatch.setattr(deep_mod, "_method_run", fake_run)
    monkeypatch.setattr(deep_mod, "warm_up", lambda *a, **k: 0.0)
    return calls


def _invoke(*args):
    return click.testing.CliRunner().invoke(zerosum.cli.cli, ["experiment", "deep", "--quick", "--no-plot", *args])


def test_deep_interrupted_prints_finished_rows(stop_on_third_run):
    r = _invoke()
    assert r.exit_code == 130, r.output
    assert stop_on_third_run == [("deep-cfr", 1), ("sd-cfr", 1), ("nfsp", 1)]
    out = r.stdout
    assert out.startswith("INTERRUPTED (Ctrl-C)")
    lines = out.splitlines()
    deep_cfr = next(ln.split() for ln in lines if ln.startswith("deep-cfr"))
    sd_cfr = next(ln.split() for ln in lines if ln.startswith("sd-cfr"))
    # method, iterations, NashConv, worst seed, nodes, samples, CPU s, seeds
    assert deep_cfr == ["deep-cfr", "3", "0.2500", "0.2500", "100", "10", "0.50", "1"]
    assert sd_cfr == ["sd-cfr", "3", "0.5000", "0.5000", "200", "10", "0.50", "1"]
    assert not any(ln.startswith(("nfsp", "cfr+")) for ln in lines)
    assert "interrupted (Ctrl-C): the 2 rows finished before it shown" in r.stderr


def test_deep_interrupted_json_emits_finished_rows(stop_on_third_run):
    r = _invoke("--json")
    assert r.exit_code == 130, r.output
    doc = json.loads(r.stdout)
    assert doc["interrupted"] is True
    (table,) = doc["tables"]
    assert table["columns"][-1] == "seeds"
    assert table["rows"] == [["deep-cfr", 3, 0.25, 0.25, 100, 10, 0.5, 1],
                             ["sd-cfr", 3, 0.5, 0.5, 200, 10, 0.5, 1]]
    assert "interrupted (Ctrl-C): the 2 rows finished before it emitted" in r.stderr


def test_any_experiment_keeps_the_rows_of_its_started_tables():
    """An experiment that builds its tables as it goes needs nothing of its own: the tables it had
    made are shown with their rows so far."""
    def fake(plot, progress):
        t = Table("squares", ["n", "n^2"])
        for n in range(1, 10):
            if n == 3:
                raise KeyboardInterrupt
            t.add(n, n * n)

    cmd = experiment_command("test-interrupt-fake")(fake)
    r = click.testing.CliRunner().invoke(cmd, ["--json"])
    assert r.exit_code == 130, r.output
    doc = json.loads(r.stdout)
    assert doc["interrupted"] is True
    assert doc["tables"] == [{"title": "squares", "columns": ["n", "n^2"], "rows": [[1, 1], [2, 4]]}]


def test_history_tree_compile_says_its_size_first(monkeypatch):
    import zerosum.cli.imperfect

    monkeypatch.setattr(zerosum.cli.imperfect, "SIZE_LINE_FROM", 1000)  # (a large game's line, on a small game)
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["solve", "poker", "--param", "ranks=3", "--form",
                                                           "history-tree", "-n", "1"])
    assert r.exit_code == 0, r.output
    game = "poker(ante=1,bets=[2,4],copies=2,raises=[2,2],ranks=3,rounds=2)"
    size = f"history tree of {game}: 1,939 histories, about "
    assert size in r.stderr
    assert r.output.index(size) < r.output.index("compiled in")
    assert f"{game}: 1,939 histories," in r.stdout  # the estimate is the count the compile found


def test_a_small_history_tree_compiles_without_a_size_line():
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["solve", "poker", "--param", "ranks=3", "--form",
                                                           "history-tree", "-n", "1"])
    assert r.exit_code == 0, r.output
    assert "history tree of poker" not in r.stderr
