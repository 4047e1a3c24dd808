"""Ray runtime and embarrassingly parallel experiments: a real local Ray instance (conftest's ray_local)."""

import json
import socket

import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.errors import ZerosumError


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_unreachable_address_is_one_line_error():
    from zerosum.distributed.ray_runtime import start

    port = _free_port()  # nothing listens there
    with pytest.raises(ZerosumError, match=f"cannot reach a Ray cluster at 127.0.0.1:{port}"):
        start(f"127.0.0.1:{port}")
    with pytest.raises(ZerosumError, match="HOST:PORT"):
        start("nowhere")


def test_workers_zero_is_refused_before_ray():
    r = CliRunner().invoke(cli, ["experiment", "mccfr", "--ray", "auto", "--workers", "0", "--no-plot", "--json"])
    assert r.exit_code == 1
    assert "--workers must be at least 1" in r.output and "Traceback" not in r.output


def test_mccfr_seeds_on_ray_equal_serial(ray_local):
    from zerosum.experiments.mccfr import lab_part2

    serial = lab_part2(None, False, seeds=3, iterations=300, game="kuhn").to_dict()
    spread = lab_part2(None, False, seeds=3, iterations=300, game="kuhn", ray="auto", workers=2).to_dict()
    assert json.dumps(serial, sort_keys=True) == json.dumps(spread, sort_keys=True)
    # the seeds differ from each other (the runs are not all the same run)
    from zerosum.experiments.mccfr import _seed_run
    assert _seed_run("es-mccfr", "kuhn", 0, 300, [300]) != _seed_run("es-mccfr", "kuhn", 1, 300, [300])


def test_run_all_keeps_order(ray_local):
    from zerosum.distributed.parallel import run_all

    assert run_all(pow, [(k, 2) for k in range(7)], "auto", 2) == [k * k for k in range(7)]


def test_nothing_imports_ray_without_the_option():
    import subprocess
    import sys

    code = ("import sys; from click.testing import CliRunner; from zerosum.cli import cli; "
            "r = CliRunner().invoke(cli, ['solve', 'kuhn', '-n', '3', '--json']); "
            "assert r.exit_code == 0, r.output; print('ray' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def _without(report: dict, dropped) -> dict:
    """The report with the columns named in ``dropped`` (timings, and what timings decide) blanked."""
    for t in report["tables"]:
        keep = [j for j, c in enumerate(t["columns"]) if c not in dropped]
        t["columns"] = [t["columns"][j] for j in keep]
        t["rows"] = [[r[j] for j in keep] for r in t["rows"]]
    return report


def _same_on_ray(args, dropped=()):
    """``zerosum experiment ARGS --json`` serially and with --ray auto --workers 2: the same JSON
    (but for the columns in ``dropped``)."""
    runner = CliRunner()
    serial = runner.invoke(cli, ["experiment", *args, "--json", "--no-plot"])
    assert serial.exit_code == 0, serial.output
    spread = runner.invoke(cli, ["experiment", *args, "--json", "--no-plot", "--ray", "auto", "--workers", "2"])
    assert spread.exit_code == 0, spread.output
    a, b = (_without(json.loads(r.stdout), dropped) for r in (serial, spread))
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    return a


def test_psro_runs_on_ray_equal_serial(ray_local):
    out = _same_on_ray(["psro", "-n", "6", "--band", "--game", "kuhn"])
    assert len(out["tables"]) == 2 and len(out["tables"][1]["rows"]) == 1 + 4 + 2  # default, 4 rules, band


def test_learned_oracles_runs_on_ray_equal_serial(ray_local):
    out = _same_on_ray(["learned-oracles", "-n", "4", "--budgets", "200", "--seeds", "2", "--oracles",
                        "q-learning,policy-gradient", "--sanity-budgets", "", "--game", "kuhn"],
                       dropped={"CPU s per run"})
    rows = out["tables"][0]["rows"]
    assert [r[:3] for r in rows] == [["exact", "-", 1], ["q-learning", 200, 2], ["policy-gradient", 200, 2]]


def test_deep_runs_on_ray_equal_serial(ray_local):
    pytest.importorskip("jax")
    from zerosum.experiments.deep import deep

    small = {"sd-cfr": {"traversals": 20, "advantage_steps": 20, "batch": 32, "memory": 2000}}
    kwargs = {"seeds": 2, "methods": ("sd-cfr",), "iterations": {"sd-cfr": 3}, "options": small, "cfr_iterations": 20}
    serial = _without(deep(None, False, **kwargs).to_dict(), {"CPU s per run"})
    spread = _without(deep(None, False, **kwargs, ray="auto", workers=2).to_dict(), {"CPU s per run"})
    assert json.dumps(serial, sort_keys=True) == json.dumps(spread, sort_keys=True)
    assert [r[0] for r in serial["tables"][0]["rows"]] == ["sd-cfr", "cfr+ (tabular)"]


def test_sampling_pays_members_on_ray_equal_serial(ray_local):
    from zerosum.experiments.sampling_pays import crossover

    members = [{"ranks": 3, "copies": 1, "rounds": 1, "raises": 1, "bets": [1]}]
    subgames = (("Ks7d2c9h3s", "AA,KK,AK", "QQ+,T9s"),)
    timed = {"compile s", "CFR+ s", "ES-MCCFR s", "OS-MCCFR s", "fastest", "public CFR+ s", "PCS-MCCFR s",
             "history CFR+ s / public CFR+ s"}
    serial = crossover(None, False, 0.2, 1.0, members, subgames).to_dict()
    spread = crossover(None, False, 0.2, 1.0, members, subgames, ray="auto", workers=2).to_dict()
    a, b = _without(serial, timed), _without(spread, timed)
    assert json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)
    # the targets were reached (the iteration counts are then a function of the seeds alone)
    assert all(r[-1] is not None and r[-3] is not None for r in a["tables"][0]["rows"])
    assert len(a["tables"][1]["rows"]) == 2


def test_psro_oracle_calls_on_ray_equal_serial(ray_local):
    """`solve -a psro --ray`: each iteration's two learned oracle calls run in two Ray actors at
    once; same members, same NashConv and oracle errors as the serial run."""
    args = ["solve", "kuhn", "-a", "psro", "-n", "4", "--checkpoints", "2,3,4", "--option", "oracle=q-learning",
            "--option", "hands=3000", "--seed", "3", "--json"]
    serial = json.loads(CliRunner().invoke(cli, args, catch_exceptions=False).stdout)
    r = CliRunner().invoke(cli, args + ["--ray", "auto", "--workers", "2"], catch_exceptions=False)
    spread = json.loads(r.stdout)
    assert spread["workers"] == 2 and "workers" not in serial
    for a, b in zip(serial["checkpoints"], spread["checkpoints"], strict=True):
        assert (a["nash_conv"], a["oracle_error"], a["hands"]) == (b["nash_conv"], b["oracle_error"], b["hands"])
    assert serial["first_actions"] == spread["first_actions"]
    assert serial["checkpoints"][-1]["mean_oracle_error"] > 0  # learned: not the exact oracle's zeros


def test_psro_ray_with_the_exact_oracle_is_one_line_error():
    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "psro", "-n", "3", "--ray", "auto", "--json"])
    assert r.exit_code == 1 and "Traceback" not in r.output
    assert "exact oracle takes milliseconds" in r.output and len(r.output.strip().splitlines()) == 1
