"""The files the ``zerosum`` command writes: paths checked before any work (unwritable, too long for
the file system, ``--save k.efg``), files written with the umask's mode and nothing half-written,
results printed even when a late write fails, the state file's round trip and ``--resume``'s seed,
and ``experiment --json`` writing no figure."""

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli

LONG = "a" * 300


def run(*args):
    return CliRunner().invoke(cli, list(args))


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def _one_line_error(r, *words):
    assert r.exit_code == 1, r.output
    assert r.exception is None or isinstance(r.exception, SystemExit), repr(r.exception)
    out = r.output.strip()
    assert out.startswith("Error: ") and "\n" not in out, out
    assert "Traceback" not in r.output
    for w in words:
        assert w in out, out


@pytest.mark.parametrize("flag", ["--save", "--plot", "--save-state"])
def test_unwritable_output_refused_before_any_work(flag, monkeypatch):
    from zerosum.cli import imperfect

    def no_work(*a, **k):
        raise AssertionError("the game was loaded before the output path was checked")

    monkeypatch.setattr(imperfect, "load_from_cli", no_work)
    r = run("solve", "leduc", "-n", "10", flag, "/proc/zerosum-test/x.json")
    assert r.exit_code == 1 and r.output.startswith("Error: cannot write '/proc/zerosum-test/x.json'")
    # /proc itself exists and looks writable to root: only trying tells
    r = run("solve", "leduc", "-n", "10", flag, "/proc/x.out")
    assert r.exit_code == 1 and "cannot write '/proc/x.out'" in r.output and "tmp" not in r.output


def test_late_write_failure_prints_results_and_names_the_users_path(tmp_path, monkeypatch):
    from zerosum import plots
    from zerosum.cli import imperfect

    monkeypatch.setattr(imperfect, "check_writable", lambda path: None)  # as if /proc had passed
    monkeypatch.setattr(plots, "check_plot_path", lambda path: None)
    ok = tmp_path / "ok.json"
    r = run("solve", "kuhn", "-n", "20", "--save", str(ok), "--plot", "/proc/x.png")
    assert r.exit_code == 1
    assert "NashConv" in r.output and "average policy saved to" in r.output   # the results came first
    last = r.output.strip().splitlines()[-1]
    assert last.startswith("Error: cannot write plot '/proc/x.png'") and "tmp" not in last
    assert json.loads(ok.read_text())["game"] == "kuhn"
    assert not list(Path("/proc").glob(".x.png*"))


def test_files_get_the_mode_the_umask_gives(tmp_path):
    """--save, --plot, --save-state, experiment figures and TabularPolicy.save: 0644 under 022,
    0640 under 027, as `touch` would make them (they were 0600).  One fresh process runs the real
    command under each umask in turn."""
    script = """
import os, sys
from zerosum.cli import cli
for umask, d in (("022", sys.argv[1]), ("027", sys.argv[2])):
    os.umask(int(umask, 8))
    cli.main(["solve", "kuhn", "-n", "10", "--save", d + "/p.json", "--plot", d + "/c.png",
              "--save-state", d + "/s.npz"], standalone_mode=False)
    cli.main(["experiment", "cfr", "--game", "kuhn", "-n", "10", "--plot", d + "/k.png"], standalone_mode=False)
"""
    dirs = [tmp_path / "022", tmp_path / "027"]
    for d in dirs:
        d.mkdir()
    r = subprocess.run([sys.executable, "-c", script, *map(str, dirs)], capture_output=True, text=True, check=False)
    assert r.returncode == 0, r.stderr
    for d, want in zip(dirs, (0o644, 0o640)):
        for name in ("p.json", "c.png", "s.npz", "k.png"):
            assert mode(d / name) == want, (d.name, name, oct(mode(d / name)))
        assert sorted(p.name for p in d.iterdir()) == ["c.png", "k.png", "p.json", "s.npz"]  # no temporaries
    old = os.umask(0o077)
    try:
        zerosum.CFRSolver(zerosum.compiled(zerosum.load_game("kuhn"))).average_policy().save(tmp_path / "u.json")
    finally:
        os.umask(old)
    assert mode(tmp_path / "u.json") == 0o600


def test_state_file_round_trip_after_atomic_write(tmp_path):
    s = tmp_path / "run.npz"
    r = run("solve", "kuhn", "-n", "20", "--save-state", str(s), "--json")
    assert r.exit_code == 0, r.output
    with np.load(s) as data:
        assert int(data["iteration"]) == 20
    r2 = run("solve", "kuhn", "-n", "40", "--resume", str(s), "--json")
    r3 = run("solve", "kuhn", "-n", "40", "--json")
    assert json.loads(r2.stdout)["nash_conv"] == pytest.approx(json.loads(r3.stdout)["nash_conv"], abs=1e-12)


def test_resume_with_another_seed_is_refused(tmp_path):
    s = tmp_path / "run.npz"
    assert run("solve", "kuhn", "-a", "es-mccfr", "-n", "100", "--seed", "3", "--save-state", str(s)).exit_code == 0
    r = run("solve", "kuhn", "-a", "es-mccfr", "-n", "200", "--seed", "4", "--resume", str(s))
    assert r.exit_code == 1 and "the saved run used --seed 3, not 4" in r.output
    assert run("solve", "kuhn", "-a", "es-mccfr", "-n", "200", "--seed", "3", "--resume", str(s)).exit_code == 0
    assert run("solve", "kuhn", "-a", "es-mccfr", "-n", "200", "--resume", str(s)).exit_code == 0


@pytest.mark.parametrize("args", [
    ["solve", "kuhn", "-n", "2", "--save", LONG + ".json"],
    ["solve", "kuhn", "-n", "2", "--plot", LONG + ".png"],
    ["solve", "kuhn", "-n", "2", "--save-state", LONG + ".npz"],
    ["solve", "kuhn", "-n", "2", "--resume", LONG + ".npz"],
    ["solve", LONG + ".efg", "-n", "2"],
    ["experiment", "kuhn", "--plot", LONG + ".png"],
])
def test_too_long_name_is_one_line(tmp_path, monkeypatch, args):
    monkeypatch.chdir(tmp_path)
    r = CliRunner().invoke(cli, args)
    _one_line_error(r, "file name too long", "\u2026")  # the 300 a's are elided in the message
    assert list(tmp_path.iterdir()) == []  # nothing half-written, no temporary left


def test_save_efg_is_refused_before_work(tmp_path):
    f = tmp_path / "k.efg"
    r = CliRunner().invoke(cli, ["solve", "kuhn", "-n", "2", "--save", str(f)])
    _one_line_error(r, ".efg is a game format", "k.json")
    assert not f.exists()


def test_experiment_json_writes_no_png_into_cwd(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = run("experiment", "dynamics", "--steps", "1000", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["figures"] == []
    assert list(tmp_path.iterdir()) == []
