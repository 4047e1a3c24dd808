"""Issue 52 item 6: defaults that give a useful answer in seconds.

* ``solve leduc -a os-mccfr`` with no -n stopped at NashConv 4.17 (uniform play: 4.75): its default
  is now 1,000,000 iterations (one sampled trajectory each), about 0.3 s, NashConv 0.57;
* ``solve kuhn -a psro`` ran 1,000 iterations (22 s) with NashConv 5.55e-17 from iteration 7: it
  now stops once converged and says so (``--option tol=0`` runs them all)."""

import json

import click.testing
import pytest

import zerosum.cli
from zerosum.errors import ZerosumError

UNIFORM_LEDUC_NASH_CONV = 4.75


def _invoke(*args):
    return click.testing.CliRunner().invoke(zerosum.cli.cli, list(args))


def test_os_mccfr_default_is_well_below_uniform_on_leduc():
    r = _invoke("solve", "leduc", "-a", "os-mccfr", "--seed", "0", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["iterations"] == 1_000_000
    assert res["nash_conv"] < UNIFORM_LEDUC_NASH_CONV / 4  # 0.57 measured; 1,000 iterations gave 4.17
    assert res["seconds"]["solve"] < 30
    # no misleading duration estimate: the kernel's load is not timed as iterations (it said 55.6 h)
    assert "expected duration" not in r.stderr


def test_psro_stops_when_converged_and_says_so():
    r = _invoke("solve", "kuhn", "-a", "psro", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["stopped"] == "converged" and res["iterations"] < 20  # 7 measured, of -n 1,000
    assert res["checkpoints"][-1]["iteration"] == res["iterations"]
    assert res["nash_conv"] < 1e-9
    assert any("converged at iteration" in n and "tol=0" in n for n in res["notes"])
    text = _invoke("solve", "kuhn", "-a", "psro")
    assert text.exit_code == 0 and "note: psro converged at iteration 7 of 1,000" in text.stderr


def test_psro_tol_zero_runs_every_iteration():
    r = _invoke("solve", "kuhn", "-a", "psro", "-n", "12", "--option", "tol=0", "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["iterations"] == 12 and res["stopped"] is None


def test_psro_python_api_runs_every_iteration_asked():
    """The labs' tables call run(n) directly: no early stop unless tol is given."""
    from zerosum.games import load_game
    from zerosum.solvers.psro import PSROSolver

    rows = PSROSolver(load_game("kuhn"), "nash").run(12, [5, 12])
    assert [r["iteration"] for r in rows] == [5, 12]
    with pytest.raises(ZerosumError, match="tol must be"):
        PSROSolver(load_game("kuhn"), "nash", tol=-1)


def test_bad_tol_is_one_line():
    r = _invoke("solve", "kuhn", "-a", "psro", "--option", "tol=\"x\"")
    assert r.exit_code == 1 and r.output.strip().startswith("Error: tol must be") and "Traceback" not in r.output


def test_help_lists_psro_tol_default():
    r = _invoke("solve", "kuhn", "-a", "help", "--json")
    rows = {row["algorithm"]: row for row in json.loads(r.stdout)["algorithms"]}
    assert "tol=1e-09" in rows["psro"]["options"]


def test_holdem_defaults_to_dcfr_and_other_games_to_cfr_plus():
    """hold'em's default is the variant measured fastest over the hold'em spots (DCFR with its
    average restarted at the powers of 4: docs/lp-and-variants.md); the other games keep CFR+."""
    spot = ["--param", "board=Ks7d2c9h", "--param", "range0=AA,KK", "--param", "range1=QQ,AK", "--param", "raises=1"]
    r = _invoke("solve", "holdem", *spot, "-n", "3", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["algorithm"] == "dcfr"
    r = _invoke("solve", "kuhn", "-n", "3", "--json")
    assert r.exit_code == 0 and json.loads(r.stdout)["algorithm"] == "cfr+"
    assert "for holdem dcfr with --option restart=4" in " ".join(_invoke("solve", "--help").output.split())
