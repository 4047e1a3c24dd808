"""Subgame re-solving on the history tree (zerosum.solvers.resolve) and ``zerosum solve -a resolve``."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.core.compile import compile_game, compiled
from zerosum.core.evaluation import evaluate, expected_value
from zerosum.core.policy import TabularPolicy
from zerosum.core.sequence_form import (
    best_response,
    collected_values,
    counterfactual_values,
    realization_plan,
)
from zerosum.games import load_game
from zerosum.solvers import SOLVERS
from zerosum.solvers.resolve import build_subgame, resolve, strategy_on


@pytest.fixture(scope="module")
def leduc_blueprint():
    g = load_game("leduc")
    s = SOLVERS["cfr+"](compiled(g))
    s.run(20)
    return g, s.average_policy()


def _kuhn_equilibrium():
    g = load_game("kuhn")
    s = SOLVERS["lp"](compiled(g))
    s.run(1, [1])
    return g, s.average_policy()


def _with(game, policy, player, label, probs):
    d = policy.to_dict()
    d["players"][player][label] = probs
    return TabularPolicy.from_dict(compiled(game), d)


@pytest.mark.parametrize("method", ["resolve", "maxmargin", "reach"])
def test_safe_methods_never_worse_than_the_blueprint(leduc_blueprint, method):
    g, bp = leduc_blueprint
    r = resolve(g, bp, "Q:cc/", method, "cfr+", 300)
    tol = sum(s.nash_conv for s in r.subgames)  # how far each subgame solve is from exact
    assert abs(r.blueprint_nash_conv - evaluate(g, bp).nash_conv) < 1e-12
    assert r.nash_conv <= r.blueprint_nash_conv + tol
    assert [s.players for s in r.subgames] == [(0,), (1,)]  # each player re-solved with its own gadget
    # the combined profile is the blueprint outside the subgame
    for p, label, probs in bp.rows():
        if label[1:3] != "Q:" or not label[3:].startswith("cc/"):
            assert r.policy.action_probabilities(label, p) == probs


def test_unsafe_can_be_worse_but_the_gadgets_are_not():
    """Kuhn's equilibrium, but player 0 always bets its jack: player 1's unsafe re-solve after the
    bet folds every queen to a range of kings and jacks it takes as fixed, and player 0 exploits it."""
    g, eq = _kuhn_equilibrium()
    bp = _with(g, eq, 0, "J", {"p": 0.0, "b": 1.0})
    base = evaluate(g, bp).nash_conv
    unsafe = resolve(g, bp, "b", "unsafe", "lp")
    assert unsafe.nash_conv > base + 0.1
    for method in ("resolve", "maxmargin", "reach"):
        assert resolve(g, bp, "b", method, "lp").nash_conv <= base + 1e-9


@pytest.mark.parametrize("node", ["p", "b", "pb"])
@pytest.mark.parametrize("method", ["resolve", "maxmargin", "reach"])
def test_re_solving_an_equilibrium_keeps_it(node, method):
    g, eq = _kuhn_equilibrium()
    r = resolve(g, eq, node, method, "lp")
    assert r.blueprint_nash_conv < 1e-9
    assert r.nash_conv < 1e-7
    assert abs(expected_value(g, r.policy) + 1 / 18) < 1e-7


def test_unsafe_subgame_is_the_fixed_range_subgame():
    """Kuhn after player 0's bet, player 0 betting K always, Q never, J half the time: the unsafe
    subgame's value is player 1's best reply to that range, worked out by hand."""
    g, eq = _kuhn_equilibrium()
    bp = eq
    for card, b in (("K", 1.0), ("Q", 0.0), ("J", 0.5)):
        bp = _with(g, bp, 0, card, {"p": 1 - b, "b": b})
    sub, _ = build_subgame(g, bp, "b", "unsafe")
    cg = compile_game(sub)
    s = SOLVERS["lp"](cg)
    s.run(1, [1])
    value = expected_value(cg, s.average_policy())
    bet = {"K": 1.0, "Q": 0.0, "J": 0.5}
    order = "JQK"
    weight = {(c0, c1): bet[c0] / 6 for c0 in order for c1 in order if c0 != c1}
    z = sum(weight.values())
    p1 = 0.0  # player 1's value: per card, fold (-1) or call (+-2), whichever is better
    for c1 in order:
        fold = sum(-1 * w for (c0, d), w in weight.items() if d == c1)
        call = sum((2 if order.index(d) > order.index(c0) else -2) * w for (c0, d), w in weight.items() if d == c1)
        p1 += max(fold, call)
    assert abs(value - (-p1 / z)) < 1e-9
    r = resolve(g, bp, "b", "unsafe", "lp")
    # the reply to that range: call with Q (-1/6 calling against -1.5/6 folding), fold J, call K
    assert r.policy.action_probabilities("Qb", 1) == {"p": 0.0, "b": 1.0}
    assert r.policy.action_probabilities("Jb", 1) == {"p": 1.0, "b": 0.0}
    assert r.policy.action_probabilities("Kb", 1) == {"p": 0.0, "b": 1.0}


@pytest.mark.parametrize("resolver", [0, 1])
def test_gadget_values_equal_the_blueprint_cbvs(leduc_blueprint, resolver):
    """With the resolver playing its blueprint in the subgame, the opponent is indifferent at every
    CFR-D gadget (entering is worth exactly the alternative) and every max-margin margin is 0."""
    g, bp = leduc_blueprint
    full = compiled(g)
    o = 1 - resolver
    for method in ("resolve", "maxmargin"):
        sub, info = build_subgame(g, bp, "K:rrc/r", method, resolver)
        cg = compile_game(sub)
        x = realization_plan(cg.treeplexes[resolver], strategy_on(cg.treeplexes[resolver], full.treeplexes[resolver],
                                                                  bp.probs[resolver]))
        tree = cg.treeplexes[o]
        gv = collected_values(cg, o, x)
        _, choice = best_response(tree, gv, with_policy=True)
        cfv, _ = counterfactual_values(tree, gv, choice)
        gates = [i for i, label in enumerate(tree.infoset_labels) if label.startswith("#")]
        assert len(gates) == (len(info["cbv"]) if method == "resolve" else 1)
        for i in gates:
            f = int(tree.infoset_first[i])
            if method == "resolve":
                assert abs(cfv[f] - cfv[f + 1]) < 1e-12  # T and F worth the same
            else:
                assert np.allclose(cfv[f:f + int(tree.infoset_size[i])], 0.0, atol=1e-12)


def _bp_file(tmp_path, game="leduc", n=20):
    path = tmp_path / f"{game}-{n}.json"
    r = CliRunner().invoke(cli, ["solve", game, "-n", str(n), "--form", "history-tree", "--save", str(path), "--json"])
    assert r.exit_code == 0, r.output
    return path


def test_cli_resolve_prints_both_nashconvs_and_saves(tmp_path):
    bp = _bp_file(tmp_path)
    out = tmp_path / "combined.json"
    r = CliRunner().invoke(cli, ["solve", "leduc", "-a", "resolve", "--option", f"blueprint={bp}", "--option",
                                 "node=Q:cc/", "--option", "method=maxmargin", "-n", "100", "--save", str(out),
                                 "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    g = compiled(load_game("leduc"))
    assert abs(d["blueprint_nash_conv"] - evaluate(g, TabularPolicy.load(g, bp)).nash_conv) < 1e-12
    assert abs(d["nash_conv"] - evaluate(g, TabularPolicy.load(g, out)).nash_conv) < 1e-12
    assert d["method"] == "maxmargin" and d["node"] == "Q:cc/" and len(d["subgames"]) == 2


@pytest.mark.parametrize("args, message", [
    (["--option", "node=Q:c/"], "no public state 'Q:c/' in leduc"),
    (["--option", "node=Q:cc/", "--option", "method=greedy"], "unknown re-solving method 'greedy'"),
    (["--option", "node=Q:cc/", "--option", "depth=1"], "runs on the public tree, and leduc has none"),
    (["--option", "depth=1"], "depth-limited solving runs on the public tree"),
    (["--option", "node=Q:cc/", "--checkpoints", "10"],
     "-a resolve takes -n, --option, --save, --save-state and --resume, not --checkpoints"),
])
def test_cli_resolve_refusals(tmp_path, args, message):
    bp = _bp_file(tmp_path)
    r = CliRunner().invoke(cli, ["solve", "leduc", "-a", "resolve", "--option", f"blueprint={bp}", *args])
    assert r.exit_code == 1
    assert r.output.startswith("Error: ") and message in r.output and r.output.count("\n") == 1


def test_cli_resolve_refuses_a_blueprint_of_another_game(tmp_path):
    bp = _bp_file(tmp_path, "kuhn", 10)
    r = CliRunner().invoke(cli, ["solve", "leduc", "-a", "resolve", "--option", f"blueprint={bp}",
                                 "--option", "node=Q:cc/"])
    assert r.exit_code == 1 and "was made for game 'kuhn', not 'leduc'" in r.output
    assert "zerosum solve leduc --form history-tree" in r.output and r.output.count("\n") == 1
    r = CliRunner().invoke(cli, ["solve", "leduc", "-a", "resolve", "--option", "node=Q:cc/"])
    assert r.exit_code == 1 and "needs --option blueprint=" in r.output


@pytest.mark.parametrize("method", ["unsafe", "reach"])
def test_cli_resolve_resumes_to_the_same_figures(tmp_path, method):
    """20 iterations saved, resumed to 50: the combined profile and both subgames' NashConv are
    those of one 50-iteration run, to the last bit; other nodes, blueprints and -n below the saved
    iterations are refused in one line."""
    bp, bp2 = _bp_file(tmp_path), _bp_file(tmp_path, n=30)

    def run(n, *extra, blueprint=bp, node="Q:cc/", how=method):
        return CliRunner().invoke(cli, ["solve", "leduc", "-a", "resolve", "--option", f"blueprint={blueprint}",
                                        "--option", f"node={node}", "--option", f"method={how}", "-n", str(n),
                                        "--json", *extra])

    state = tmp_path / "rs.npz"
    whole = json.loads(run(50).output)
    first = run(20, "--save-state", str(state))
    assert first.exit_code == 0, first.output
    assert json.loads(first.output)["state"] == str(state)
    resumed = json.loads(run(50, "--resume", str(state)).output)
    assert resumed["nash_conv"] == whole["nash_conv"] != json.loads(first.output)["nash_conv"]
    assert [s["subgame_nash_conv"] for s in resumed["subgames"]] == [s["subgame_nash_conv"] for s in whole["subgames"]]
    other = "resolve" if method != "resolve" else "unsafe"
    for r, message in ((run(50, "--resume", str(state), blueprint=bp2), "made for another blueprint"),
                       (run(50, "--resume", str(state), node="K:cc/"), "made for node 'Q:cc/', not 'K:cc/'"),
                       (run(50, "--resume", str(state), how=other), f"made for method '{method}', not '{other}'"),
                       (run(10, "--resume", str(state)), "ran 20 iterations, more than -n 10")):
        assert r.exit_code == 1 and message in r.output and r.output.count("\n") == 1, r.output


def test_experiment_subgames_quick():
    r = CliRunner().invoke(cli, ["experiment", "subgames", "--quick", "--json"])
    assert r.exit_code == 0, r.output
    tables = json.loads(r.output)["tables"]
    assert len(tables) == 4  # the fourth: continual re-solving, checked in tests/test_continual.py
    resolved, constructed, lbr = tables[:3]
    cols = resolved["columns"]
    for row in resolved["rows"][:2]:  # re-solving one state at a time: the gadgets are never worse
        base = row[cols.index("blueprint")]
        for m in ("resolve", "maxmargin", "reach"):
            assert row[cols.index(m)] <= base + 1e-3
    kuhn = constructed["rows"][0]
    c = constructed["columns"]
    assert kuhn[c.index("unsafe")] > kuhn[c.index("blueprint")] + 0.1  # the constructed case
    assert kuhn[c.index("resolve")] <= kuhn[c.index("blueprint")] + 1e-6
    for row in lbr["rows"]:  # LBR below the exact best response, within its interval
        assert row[2] <= row[1] + row[3]
    cont = tables[3]  # continual re-solving on Kuhn (N = 5, 20): worse than CFR+ at the same compute, better with N
    c = cont["columns"]
    rows = [r for r in cont["rows"] if r[0] == "continual re-solving"]
    assert [r[c.index("N")] for r in rows] == [5, 20]
    assert all(r[c.index("NashConv")] > r[c.index("CFR+ NashConv")] for r in rows)
    assert rows[1][c.index("NashConv")] < rows[0][c.index("NashConv")] < cont["rows"][0][c.index("NashConv")]
