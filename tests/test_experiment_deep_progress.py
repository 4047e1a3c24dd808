"""Issue 52, item 6: ``experiment deep``'s progress advances by expected work, not iterations.

An nfsp iteration costs about 1/200 of a deep-cfr one, so counted in iterations the progress read
``19 / 60,600 (0.0 %)`` with 2 % of the work done, and any time left drawn from it was off by
as much.  The runs are faked here (each advances its progress as the real one does, and sleeps
in proportion to the measured cost model): the test is about the progress, not the deep methods."""

import re
import time
from contextlib import contextmanager

import click.testing
import pytest

import zerosum.cli
import zerosum.cli.experiment as cli_experiment
import zerosum.experiments.deep as deep_mod
from zerosum.progress import reporting


class Recorder:
    """A reporter that keeps what the counted task was told."""

    def __init__(self):
        self.total, self.steps = None, []

    @contextmanager
    def counted(self, total, description, enabled, unit):
        self.total = total
        yield self.steps.append

    @contextmanager
    def status(self, description, enabled):
        yield lambda text: None


@pytest.fixture
def fake_runs(monkeypatch):
    """Each (method, seed) run advances by its iterations in steps, sleeping ``scale`` seconds per
    millisecond of the cost model, and records where the progress stood after it."""
    ended = []

    def fake_run(game, method, seed, iterations, options, advance=None):
        ended.append(("start", time.perf_counter()))
        step = max(1, iterations // 4)
        done = 0
        while done < iterations:
            n = min(step, iterations - done)
            time.sleep(fake_run.scale * n * deep_mod.ITERATION_COST_MS[method])
            advance(n)
            done += n
        ended.append((method, time.perf_counter()))
        return [{"nash_conv_average": 0.1, "nodes": 10, "samples": 1, "cpu_seconds": 0.1}], 0.1

    fake_run.scale = 0.0
    monkeypatch.setattr(deep_mod, "_method_run", fake_run)
    monkeypatch.setattr(deep_mod, "warm_up", lambda *a, **k: 0.0)
    return fake_run, ended


def test_deep_progress_is_weighted_by_each_methods_cost(fake_runs):
    rec = Recorder()
    with reporting(rec):
        deep_mod.deep(seeds=2, cfr_iterations=5)  # default iterations: deep-cfr/sd-cfr 100, nfsp 20,000
    cost = deep_mod.ITERATION_COST_MS
    assert rec.total == 2 * (100 * cost["deep-cfr"] + 100 * cost["sd-cfr"] + 20000 * cost["nfsp"])
    assert sum(rec.steps) == rec.total
    # after deep-cfr's two runs about a third of the work is done (counted in iterations: 0.5 %)
    deep_cfr_done = sum(rec.steps[:8])  # 4 steps a run
    assert 0.25 < deep_cfr_done / rec.total < 0.42
    # the measured costs: the three methods' default runs each take about the same time
    runs = [100 * cost["deep-cfr"], 100 * cost["sd-cfr"], 20000 * cost["nfsp"]]
    assert max(runs) / min(runs) < 1.2


def test_deep_says_its_expected_duration_within_2x(fake_runs, monkeypatch):
    fake_run, ended = fake_runs
    fake_run.scale = 1e-4  # --quick's runs: deep-cfr 0.25 s, sd-cfr 0.26 s, nfsp 0.01 s
    monkeypatch.setattr(cli_experiment, "ESTIMATE_AFTER_S", 0.1)
    monkeypatch.setenv("ZEROSUM_ESTIMATE_SECONDS", "0")
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["experiment", "deep", "--quick", "--no-plot"])
    assert r.exit_code == 0, r.output
    real = ended[-1][1] - ended[0][1]  # the counted work: from the first run's start to the last's end
    said = re.search(r"expected duration: about ([\d.]+) s for the 3 \(method, seed\) runs", r.stderr)
    assert said, r.stderr
    assert real / 2 <= float(said.group(1)) <= real * 2, (said.group(0), real)


def test_deep_interrupt_still_keeps_finished_runs_with_the_estimate(fake_runs, monkeypatch):
    fake_run, _ = fake_runs
    calls = []

    def stop_third(*args, **kwargs):
        calls.append(args[1])
        if len(calls) == 3:
            raise KeyboardInterrupt
        return fake_run(*args, **kwargs)

    monkeypatch.setattr(deep_mod, "_method_run", stop_third)
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["experiment", "deep", "--quick", "--no-plot"])
    assert r.exit_code == 130, r.output
    assert "interrupted (Ctrl-C): the 2 rows finished before it shown" in r.stderr
