"""Output files and reports a new user meets (issue 10): paths checked before any work, files
written with the umask's mode, results printed even when a late write fails, plain reports."""

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

ZEROSUM = Path(sys.executable).parent / "zerosum"


def run(*args):
    return CliRunner().invoke(cli, list(args))


def mode(path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


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


def test_lp_report_does_not_claim_iterations_or_a_curve(tmp_path):
    plot = tmp_path / "lp.png"
    r = run("solve", "kuhn", "-a", "lp", "-n", "1000", "--plot", str(plot), "--json")
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["iterations"] is None and out["updates"] is None
    assert [c["iteration"] for c in out["checkpoints"]] == [1] and out["checkpoints"][0]["nodes"] is None
    assert out["value"] == pytest.approx(-1 / 18, abs=1e-12)
    assert len(out["lp"]["sizes"]) == 1 and out["lp"]["sizes"][0]["simplex_iterations"] > 0
    assert not plot.exists() and "plot" not in out and "one shot" in out["notes"][0]
    text = run("solve", "kuhn", "-a", "lp", "-n", "1000").output
    assert "1000" not in text and "1,000" not in text and "LP 1" not in text
    assert "sequence-form LP:" in text and "from its duals" in text


def test_solve_header_shows_compile_time_and_grammar():
    r = run("solve", "kuhn", "-n", "1", "--checkpoints", "1")
    first = r.output.splitlines()[0]
    assert "compiled in" in first and "1 iteration in" in first and "1 iterations" not in first
    r = run("solve", "rps", "-n", "10")
    assert "-0.0000" not in r.output and "value of the game to player 0 (average strategy): 0.0000" in r.output


def test_algorithm_help_lists_every_solver_with_its_options():
    r = run("solve", "kuhn", "-a", "help", "--json")
    assert r.exit_code == 0, r.output
    rows = {row["algorithm"]: row for row in json.loads(r.stdout)["algorithms"]}
    from zerosum.public_tree.solver import VARIANTS

    # pcs-mccfr too (public tree only), resolve (re-solves a saved blueprint: zerosum.cli.resolve) and
    # continual (the tabulated re-solving agent: zerosum.cli.continual)
    assert set(rows) == set(zerosum.SOLVERS) | set(VARIANTS) | {"resolve", "continual"}
    assert "alpha=1.5" in rows["dcfr"]["options"] and "--seed" in rows["os-mccfr"]["options"]
    assert run("solve", "kuhn", "-a", "help").exit_code == 0


def test_option_without_equals_names_the_option():
    r = run("solve", "kuhn", "-a", "dcfr", "--option", "alpha")
    assert r.exit_code == 1 and r.output.strip() == "Error: --option expects KEY=VALUE, got 'alpha'"
    r = run("solve", "kuhn", "-a", "cfr", "--option", "alpha=1")
    assert r.exit_code == 1 and "cfr does not take --option alpha; it takes --simultaneous" in r.output


def test_zerosum_alone_prints_help_and_succeeds():
    r = subprocess.run([str(ZEROSUM)], capture_output=True, text=True, check=False)
    assert r.returncode == 0 and "Commands:" in r.stdout and "solve" in r.stdout


def test_openspiel_first_actions_are_readable():
    r = run("solve", "openspiel:leduc_poker", "-n", "10")
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("player 0's first action"))
    rows = lines[start + 1:start + 7]
    assert [row.split()[0] for row in rows] == ["[Private:"] * 6
    assert all(len(line) <= 100 for line in lines[start:start + 7])


def test_leduc_policy_evaluates_on_the_poker_default(tmp_path):
    p = tmp_path / "leduc.json"
    assert run("solve", "leduc", "-n", "30", "--save", str(p)).exit_code == 0
    a = json.loads(run("evaluate", "leduc", str(p), "--json").stdout)
    b = run("evaluate", "poker", str(p), "--json")
    assert b.exit_code == 0, b.output
    assert json.loads(b.stdout)["nash_conv"] == pytest.approx(a["nash_conv"], abs=1e-12)
    r = run("evaluate", "kuhn", str(p))
    assert r.exit_code == 1 and "made for game 'leduc', not 'kuhn'" in r.output
