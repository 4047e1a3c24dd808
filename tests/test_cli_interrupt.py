"""Ctrl-C during ``zerosum solve`` (issue 27, item 13): a real SIGINT to the real command finishes
the step in flight, writes the state and the results so far, exits 130; resuming from that state
reaches exactly (bit for bit) what an uninterrupted run reaches."""

import json
import signal
import subprocess
import sys
import time
from pathlib import Path

import click.testing
import pytest

import zerosum.cli

ZEROSUM = str(Path(sys.executable).with_name("zerosum"))


def _solve(*args):  # in process: no second start-up
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["solve", *args, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


def _interrupt(args, wait_for: Path):
    """Start ``zerosum solve ARGS --json``, send one SIGINT once it is iterating: once the first
    periodic state (--save-every) has appeared, whatever the machine's load."""
    proc = subprocess.Popen([ZEROSUM, "solve", *args, "--json"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not wait_for.exists() and proc.poll() is None and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.2)  # a few steps past the autosave
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_sigint_writes_state_and_results_and_resume_is_exact(tmp_path):
    state = tmp_path / "int.npz"
    rc, out, err = _interrupt(["leduc", "--form", "history-tree", "-n", "100000000", "--save-state", str(state),
                               "--save-every", "100"], wait_for=state)
    assert rc == 130, err
    assert "Aborted" not in err and "Traceback" not in err
    assert "--resume" in err  # says how to go on
    r = json.loads(out)  # the results so far, one JSON object
    assert r["stopped"] == "interrupt"
    reached = r["iterations"]
    assert 0 < reached < 100000000
    assert r["checkpoints"][-1]["iteration"] == reached
    assert r["nash_conv"] == r["checkpoints"][-1]["nash_conv_average"]
    assert r["state_saved"] == str(state) and state.is_file()
    # resume to a total a little past the interrupt; equal to an uninterrupted run to that total
    total = reached + 7
    resumed = _solve("leduc", "--form", "history-tree", "-n", str(total), "--resume", str(state))
    straight = _solve("leduc", "--form", "history-tree", "-n", str(total))
    assert resumed["stopped"] is None and resumed["iterations"] == total
    assert resumed["nash_conv"] == straight["nash_conv"]  # bit for bit
    assert resumed["value"] == straight["value"]


def test_keyboard_interrupt_elsewhere_exits_130_with_one_line(monkeypatch):
    """Commands without a run loop (here: building the game) exit 130 with one line, not "Aborted!"."""
    from zerosum.cli import imperfect

    def interrupted(*a, **k):
        raise KeyboardInterrupt

    monkeypatch.setattr(imperfect, "load_from_cli", interrupted)
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["solve", "kuhn", "-n", "10"])
    assert r.exit_code == 130
    assert "Aborted" not in r.output and "interrupted" in r.output


def test_save_state_refused_before_the_run_where_the_solver_has_none(tmp_path):
    """mmd has no state: one line before the work, not a traceback after it (found with item 13)."""
    state = tmp_path / "m.npz"
    r = click.testing.CliRunner().invoke(zerosum.cli.cli, ["solve", "kuhn", "-a", "mmd", "-n", "10",
                                                           "--save-state", str(state)])
    assert r.exit_code == 1
    assert r.output.startswith("Error: mmd cannot save or resume its state") and "cfr+" in r.output
    assert not state.exists()
