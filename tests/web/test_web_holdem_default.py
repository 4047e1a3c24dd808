"""The web app's hold'em default is the command line's: a run that names no algorithm runs DCFR with
its average restarted at the powers of 4 and its negative regrets damped (``zerosum solve holdem``
without ``-a``), one that names
``dcfr`` runs plain DCFR, as ``-a dcfr`` does; the curve the page shows is the library's own
solver's with those parameters, check for check."""

from __future__ import annotations

import math

import pytest
from test_holdem_runs import TINY, finished

from zerosum.cli.imperfect import DEFAULT_ALGORITHMS, DEFAULT_OPTIONS
from zerosum.public_tree.holdem_build import holdem_public_tree
from zerosum.public_tree.solver import default_dtype, public_solver
from zerosum.web.runs import DEFAULT_ALGORITHM, DEFAULT_PARAMS, holdem_game


def test_the_web_default_is_the_command_line_default():
    assert DEFAULT_ALGORITHM["holdem"] == DEFAULT_ALGORITHMS["holdem"]
    cli = {k: float(v) for k, v in (o.split("=", 1) for o in DEFAULT_OPTIONS["holdem"])}
    assert DEFAULT_PARAMS["holdem"] == cli


def library_curve(params: dict, checks: list[int]) -> list[float]:
    """The average's NashConv at ``checks`` from the library's DCFR with ``params`` on TINY's tree."""
    game, _ = holdem_game("holdem", TINY, {})  # (the game the page's request makes)
    tree = holdem_public_tree(game, isomorphism=True)
    solver = public_solver("dcfr", tree, dtype=default_dtype(tree), **params)
    solver.light_checks = True
    out = []
    for t in checks:
        solver.iterate(t - solver.iteration)
        out.append(float(solver.checkpoint()["nash_conv_average"]))
    return out


@pytest.mark.parametrize("named", [False, True])
def test_a_run_without_an_algorithm_restarts_the_average(client, named):
    body = {"game": "holdem", "spot": TINY, "iterations": 40}
    if named:
        body["algorithm"] = "dcfr"
    view = finished(client, client.post("/api/runs", json=body).json()["id"])
    assert view["status"] == "finished", view["error"]
    assert view["algorithm"] == "dcfr"
    expected = {} if named else DEFAULT_PARAMS["holdem"]
    assert view["variant_params"] == expected
    checks = [row["iteration"] for row in view["curve"]]
    assert checks[-1] == 40 and 20 in checks  # (the restarts at 4 and 16 fall inside the curve)
    web = [row["nash_conv_average"] for row in view["curve"]]
    mine, other = library_curve(expected, checks), library_curve({} if not named else DEFAULT_PARAMS["holdem"], checks)
    assert all(math.isclose(a, b, rel_tol=1e-9, abs_tol=1e-12) for a, b in zip(web, mine)), (web, mine)
    assert any(not math.isclose(a, b, rel_tol=1e-6) for a, b in zip(web, other))  # the two runs differ
    client.delete(f"/api/runs/{view['id']}")
