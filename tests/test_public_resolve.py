"""Subgame re-solving on the public tree (zerosum.resolving.resolve): the same iterates as the
history tree's re-solving on Leduc (every method, NashConv and root margins to 1e-9), the margins
of the safe methods on a hold'em turn spot, depth-limited re-solving, and one-line refusals."""

import json

import pytest
from click.testing import CliRunner

from zerosum import load_game
from zerosum.cli import cli
from zerosum.core.compile import compiled
from zerosum.core.evaluation import evaluate
from zerosum.errors import ZerosumError
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.passes import nash_conv_public
from zerosum.public_tree.solver import public_solver
from zerosum.resolving.resolve import METHODS, resolve_public
from zerosum.solvers.resolve import resolve
from zerosum.solvers.rules import DCFR, CFRPlus

HOLDEM = {"board": "Ks7d2c9h", "raises": 2, "range0": "AA,KQs,77,T9s,A5s", "range1": "QQ,AK,98s,KJo"}


@pytest.fixture(scope="module")
def leduc():
    g = load_game("poker")
    tree = public_tree(g)
    s = public_solver("cfr+", tree)
    s.iterate(20)
    bp = s.average_policy()
    return g, compiled(g), tree, bp


@pytest.mark.parametrize("node", ["Q:cc/", "K:rrc/"])
@pytest.mark.parametrize("method", METHODS)
def test_same_as_the_history_tree(leduc, node, method):
    g, cg, tree, bp = leduc
    theirs = resolve(g, bp.to_tabular(cg), node, method, "cfr+", 50)
    ours = resolve_public(tree, bp, node, method, 50, CFRPlus())
    assert nash_conv_public(tree, ours.policy.probs)["nash_conv"] == pytest.approx(
        evaluate(cg, theirs.policy).nash_conv, abs=1e-9)
    margins = [s.to_dict()["min_margin"] for s in theirs.subgames]
    assert [s["min_margin"] for s in ours.solves] == pytest.approx(margins, abs=1e-9) if method != "unsafe" \
        else margins == [None]


@pytest.fixture(scope="module")
def turn():
    tree = public_tree(load_game("holdem", **HOLDEM))
    s = public_solver("dcfr", tree)
    s.iterate(5)
    return tree, s.average_policy()


@pytest.mark.parametrize("method", ["resolve", "maxmargin", "reach"])
def test_safe_methods_keep_the_margins_on_a_river(turn, method):
    """The blueprint itself has margin 0 in every gadget (its alternatives are the opponent's best
    responses against it), so a good solve of the gadget has min margin >= about 0 (>= the gifts'
    slack for reach), and the combined profile is no worse than the blueprint."""
    tree, bp = turn
    base = nash_conv_public(tree, bp.probs)["nash_conv"]
    r = resolve_public(tree, bp, ":5s:cc/", method, 500, DCFR())
    assert all(s["min_margin"] > -1e-3 for s in r.solves)
    assert nash_conv_public(tree, r.policy.probs)["nash_conv"] <= base + 1e-9


def test_depth_limited_resolve_and_unsafe_at_the_root(turn):
    tree, bp = turn
    r = resolve_public(tree, bp, "::c", "resolve", 50, DCFR(), depth=1, continuations=4)
    assert [s["leaves"] for s in r.solves] == [3, 3] and r.depth == 1
    # unsafe at the root without a cut is the whole game solved from its ranges
    whole = resolve_public(tree, bp, "::", "unsafe", 3, DCFR())
    s = public_solver("dcfr", tree)
    s.iterate(3)
    assert nash_conv_public(tree, whole.policy.probs)["nash_conv"] == pytest.approx(
        s.checkpoint()["nash_conv_average"], abs=1e-9)


def test_bad_input(turn):
    tree, bp = turn
    for args, words in [(("nope", "resolve"), "no public node"), (("::c", "greedy"), "unknown re-solving method"),
                        (("::", "resolve"), "below the root")]:
        with pytest.raises(ZerosumError, match=words):
            resolve_public(tree, bp, *args, iterations=5)
    with pytest.raises(ZerosumError, match="gadget"):
        resolve_public(tree, bp, "::c", "unsafe", 5, depth=1, continuations=2)


def test_cli(tmp_path):
    bp = str(tmp_path / "bp.json")
    params = [x for k, v in HOLDEM.items() for x in ("--param", f"{k}={v}")]
    assert CliRunner().invoke(cli, ["solve", "holdem", *params, "-a", "dcfr", "-n", "5", "--save", bp]).exit_code == 0
    out = tmp_path / "r.json"
    r = CliRunner().invoke(cli, ["solve", "holdem", *params, "-a", "resolve", "--option", f"blueprint={bp}",
                                 "--option", "node=:5s:cc/", "--option", "method=maxmargin", "-n", "50",
                                 "--save", str(out), "--json"])
    assert r.exit_code == 0, r.output
    d = json.loads(r.output)
    assert d["form"] == "public-tree" and d["method"] == "maxmargin" and len(d["subgames"]) == 2
    ev = json.loads(CliRunner().invoke(cli, ["evaluate", "holdem", *params, str(out), "--json"]).output)
    assert ev["nash_conv"] == pytest.approx(d["nash_conv"], abs=1e-6)
    for extra, words in [(["--option", "node=nope"], "no public node"), ([], "needs --option node=LABEL"),
                         (["--option", "method=reach", "--option", "depth=1"], "add --option node=LABEL")]:
        r = CliRunner().invoke(cli, ["solve", "holdem", *params, "-a", "resolve", "--option", f"blueprint={bp}", *extra])
        assert r.exit_code != 0 and words in r.output and len(r.output.strip().splitlines()) == 1


@pytest.mark.parametrize("extra", [["--option", "depth=1", "--option", "continuations=2"],
                                   ["--form", "public-tree", "--option", "node=Q:cc/", "--option", "method=reach"]])
def test_cli_resumes_to_the_same_figures(tmp_path, extra):
    """Depth-limited solving from the root and a public-tree re-solve: 15 iterations saved, resumed
    to 40, the NashConv of one 40-iteration run to the last bit; other options refused in one line."""
    bp = tmp_path / "bp.json"
    assert CliRunner().invoke(cli, ["solve", "poker", "--form", "public-tree", "-n", "10", "--save", str(bp)]).exit_code == 0
    state = tmp_path / "s.npz"

    def run(n, *more, options=extra):
        return CliRunner().invoke(cli, ["solve", "poker", "-a", "resolve", "--option", f"blueprint={bp}", *options,
                                        "-n", str(n), "--json", *more])

    whole = json.loads(run(40).output)
    first = run(15, "--save-state", str(state))
    assert first.exit_code == 0, first.output
    resumed = json.loads(run(40, "--resume", str(state)).output)
    assert resumed["nash_conv"] == whole["nash_conv"] != json.loads(first.output)["nash_conv"]
    assert resumed["resumed"] == str(state)
    other = run(40, "--resume", str(state), options=[*extra, "--option", "bias=2"])
    assert other.exit_code == 1 and "made for bias" in other.output and other.output.count("\n") == 1
    short = run(10, "--resume", str(state))
    assert short.exit_code == 1 and "ran 15 iterations, more than -n 10" in short.output
