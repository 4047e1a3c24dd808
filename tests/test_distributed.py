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
