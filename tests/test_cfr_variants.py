"""LCFR, DCFR, PCFR+ and PDCFR+ on the one CFR driver: agreement with OpenSpiel, convergence to the
LP's value, and their own update rules checked against a plain per-information-set re-implementation."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum import load_game
from zerosum.core.compile import compile_game, compiled
from zerosum.errors import ZerosumError
from zerosum.solvers import SOLVERS
from zerosum.solvers.dcfr import DCFRSolver
from zerosum.solvers.lcfr import LCFRSolver
from zerosum.solvers.lp import LPSolver
from zerosum.solvers.pcfr import PCFRPlusSolver
from zerosum.solvers.pdcfr_plus import PDCFRPlusSolver
from zerosum.solvers.rules import CFR, DCFR, LCFR, CFRPlus, PCFRPlus, PDCFRPlus, RegretRule

VARIANTS = ["cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+"]


def _openspiel_average(os_solver, game):
    """OpenSpiel's average policy as {infoset label: array of probabilities in action order}."""
    pol = os_solver.average_policy()
    out = {}
    for label, row in pol.state_lookup.items():
        out[label] = np.array([pol.action_probability_array[row, a] for a in game.action_ids[label]])
    return out


@pytest.mark.parametrize("name", ["lcfr", "dcfr"])
def test_lcfr_dcfr_agree_with_openspiel_on_kuhn(name):
    pytest.importorskip("pyspiel")
    from open_spiel.python.algorithms import discounted_cfr

    game = load_game("openspiel:kuhn_poker")
    cg = compile_game(game)  # not the cached one: this walk fills game.action_ids
    ours = SOLVERS[name](cg)
    theirs = (discounted_cfr.LCFRSolver if name == "lcfr" else discounted_cfr.DCFRSolver)(game.game)
    ours.run(100)
    for _ in range(100):
        theirs.evaluate_and_update_policy()
    reference = _openspiel_average(theirs, game)
    avg = ours.average_policy()
    assert len(reference) == sum(t.n_infosets for t in cg.treeplexes)
    worst = max(np.abs(np.array(list(avg.action_probabilities(label).values())) - probs).max()
                for label, probs in reference.items())
    assert worst < 1e-9


def _normalized(target):
    target = np.maximum(target, 0.0)
    return target / target.sum() if target.sum() > 0 else np.full(len(target), 1.0 / len(target))


def _reference_run(cg, iterations, regret_rule, weight_rule, prediction_scale=None):
    """Alternating CFR written per information set with explicit loops (slow, independent).

    ``prediction_scale(t)`` set: predictive regret matching+ on ``scale * R``, the prediction
    built bottom-up from the last values with the children's new strategies."""
    from zerosum.core.sequence_form import collected_values, realization_plan

    trees = cg.treeplexes
    R = [np.zeros(t.n_sequences) for t in trees]
    pi = [t.uniform() for t in trees]
    avg = [np.zeros(t.n_sequences) for t in trees]
    for t in range(1, iterations + 1):
        for p in (0, 1):
            tree = trees[p]
            g = collected_values(cg, p, realization_plan(trees[1 - p], pi[1 - p]))
            bottom_up = sorted(range(tree.n_infosets), key=lambda i: -tree.infoset_depth[i])
            blocks = {i: slice(tree.infoset_first[i], tree.infoset_first[i] + tree.infoset_size[i])
                      for i in range(tree.n_infosets)}
            cfv = g.copy()
            for i in bottom_up:
                cfv[tree.infoset_parent[i]] += float(pi[p][blocks[i]] @ cfv[blocks[i]])
            avg[p] += weight_rule(t) * realization_plan(tree, pi[p])
            old = pi[p].copy()
            for i, sl in blocks.items():
                R[p][sl] = regret_rule(R[p][sl], cfv[sl] - old[sl] @ cfv[sl], t)
            if prediction_scale is None:
                for sl in blocks.values():
                    pi[p][sl] = _normalized(R[p][sl])
            else:
                m = g.copy()
                for i in bottom_up:
                    sl = blocks[i]
                    pi[p][sl] = _normalized(prediction_scale(t) * R[p][sl] + m[sl] - old[sl] @ m[sl])
                    m[tree.infoset_parent[i]] += float(pi[p][sl] @ m[sl])
    return [a / a[0] for a in avg]


def _dpos(s, alpha):
    return s ** alpha / (s ** alpha + 1.0) if s > 0 else 0.0


@pytest.mark.parametrize("solver, rules", [
    (LCFRSolver, (lambda R, r, t: (R + r) * t / (t + 1), lambda t: t)),
    (DCFRSolver, (lambda R, r, t: np.where(R + r >= 0, _dpos(t, 1.5), 0.5) * (R + r), lambda t: t ** 2.0)),
    (PCFRPlusSolver, (lambda R, r, t: np.maximum(R + r, 0), lambda t: t ** 2.0, lambda t: 1.0)),
    (PDCFRPlusSolver, (lambda R, r, t: np.maximum(R * _dpos(t - 1, 2.3) + r, 0), lambda t: t ** 5.0,
                       lambda t: _dpos(t, 2.3))),
])
@pytest.mark.parametrize("game", ["kuhn", "leduc"])
def test_variant_rules_match_a_plain_reimplementation(solver, rules, game):
    cg = compiled(load_game(game))
    iterations = 40 if game == "kuhn" else 6
    s = solver(cg)
    s.run(iterations)
    ref = _reference_run(cg, iterations, *rules)
    for p in (0, 1):
        np.testing.assert_allclose(s.average_plans()[p], ref[p], atol=1e-10)


def test_local_prediction_is_last_instantaneous_regret():
    cg = compiled(load_game("kuhn"))
    s = PCFRPlusSolver(cg, prediction="local")
    s.run(30)
    ref = _reference_run(cg, 30, lambda R, r, t: np.maximum(R + r, 0), lambda t: t ** 2.0)
    # with prediction="local" the next strategy is RM on R + r: differs from plain RM+ on R
    assert max(np.abs(s.average_plans()[p] - ref[p]).max() for p in (0, 1)) > 1e-6
    with pytest.raises(ZerosumError):
        PCFRPlusSolver(cg, prediction="psychic")


@pytest.fixture(scope="module")
def lp_values():
    return {name: LPSolver(compiled(load_game(name))).value for name in ("kuhn", "leduc")}


@pytest.mark.parametrize("name", VARIANTS)
def test_every_variant_converges_to_the_lp_value_on_kuhn(name, lp_values):
    rows = SOLVERS[name](compiled(load_game("kuhn"))).run(2000)
    assert abs(rows[-1]["value_average"] - lp_values["kuhn"]) < 1e-4
    assert rows[-1]["nash_conv_average"] < 2e-3


@pytest.mark.parametrize("name", VARIANTS[1:])
def test_every_variant_converges_to_the_lp_value_on_leduc(name, lp_values):
    iterations = 5000 if name == "lcfr" else 1000  # LCFR's average is the slowest here
    rows = SOLVERS[name](compiled(load_game("leduc"))).run(iterations)
    assert abs(rows[-1]["value_average"] - lp_values["leduc"]) < 1e-4


def test_vanilla_cfr_value_is_within_its_nash_conv_of_the_lp_value(lp_values):
    # vanilla CFR needs ~30,000 iterations for 1e-4 on Leduc (1/T); here the bound
    # |value - game value| <= NashConv, which holds for any profile, at a few checkpoints
    rows = SOLVERS["cfr"](compiled(load_game("leduc"))).run(1000, [100, 300])
    for r in rows:
        assert abs(r["value_average"] - lp_values["leduc"]) <= r["nash_conv_average"]
    assert abs(rows[-1]["value_average"] - lp_values["leduc"]) < 3e-3


def test_predictive_variants_beat_cfr_plus_on_kuhn():
    cg = compiled(load_game("kuhn"))
    plus = SOLVERS["cfr+"](cg).run(300)[-1]["nash_conv_average"]
    for name in ("pcfr+", "pdcfr+"):
        assert SOLVERS[name](cg).run(300)[-1]["nash_conv_average"] < plus / 100


@pytest.mark.parametrize("name", ["lcfr", "dcfr", "pcfr+", "pdcfr+"])
def test_simultaneous_updates_also_converge(name):
    cg = compiled(load_game("kuhn"))
    s = SOLVERS[name](cg, alternating=False)
    rows = s.run(2000, [300])
    assert rows[-1]["nash_conv_average"] < min(2e-2, rows[0]["nash_conv_average"] / 2)


def test_dcfr_with_cfr_plus_like_parameters_is_not_cfr_plus_but_close():
    # alpha = inf is not allowed (finite numbers only); a huge alpha keeps positive regrets,
    # beta = -inf would zero the negative ones: check the refusal and a valid extreme
    with pytest.raises(ZerosumError):
        DCFRSolver(compiled(load_game("kuhn")), alpha=float("inf"))
    with pytest.raises(ZerosumError):
        DCFRSolver(compiled(load_game("kuhn")), gamma=-1)
    with pytest.raises(ZerosumError):
        PDCFRPlusSolver(compiled(load_game("kuhn")), alpha="x")


@pytest.mark.parametrize("bad", [["--option", "alpha=abc"], ["--option", "gamma=-2"], ["--option", "delta=1"]])
def test_cli_rejects_bad_variant_parameters(bad):
    from click.testing import CliRunner

    from zerosum.cli import cli

    r = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "dcfr", "-n", "10", *bad])
    assert r.exit_code == 1
    assert r.output.startswith("Error: ") and "Traceback" not in r.output
    assert len(r.output.strip().splitlines()) == 1


def test_discounting_experiment_json(tmp_path):
    from click.testing import CliRunner

    from zerosum.cli import cli

    plot = tmp_path / "d.png"
    r = CliRunner().invoke(cli, ["experiment", "discounting", "--iterations", "100", "--games", "kuhn", "--json",
                                 "--plot", str(plot)])
    assert r.exit_code == 0, r.output
    import json

    out = json.loads(r.stdout)
    (table,) = out["tables"]
    assert [row[0] for row in table["rows"]] == VARIANTS
    assert table["columns"][:5] == ["variant", "10", "30", "100", "current at end"]
    by_name = {row[0]: row for row in table["rows"]}
    # NashConv of the average at 100 iterations: CFR+ beats CFR, PDCFR+ beats CFR+ on Kuhn
    assert by_name["cfr+"][3] < by_name["cfr"][3] and by_name["pdcfr+"][3] < by_name["cfr+"][3] / 100
    assert plot.exists() and out["figures"] == [str(plot)]
    bad = CliRunner().invoke(cli, ["experiment", "discounting", "--variants", "cfr,nope", "--no-plot"])
    assert bad.exit_code == 1 and "nope" in bad.output and "Traceback" not in bad.output


# --- the variant objects of zerosum.solvers.rules -------------------------------------------------------

def _d(s, alpha):
    """PDCFR+'s discount d(s) = s^alpha / (s^alpha + 1), d(0) = 0, in the paper's float operations."""
    s = float(s)
    return s ** alpha / (s ** alpha + 1.0) if s > 0 else 0.0


@pytest.mark.parametrize("t", [1, 2, 3, 10, 977])
def test_each_variant_is_the_formula_of_its_paper(t):
    ft = float(t)
    assert CFR().regret_rule(t) == RegretRule(1.0, 1.0, 1.0, False) and CFR().average_weight(t) == 1.0
    assert CFRPlus().regret_rule(t) == RegretRule(floor=True) and CFRPlus().average_weight(t) == ft
    assert LCFR().regret_rule(t) == RegretRule(pos=t / (t + 1.0), neg=t / (t + 1.0)) and LCFR().average_weight(t) == ft
    for a, b, g in ((1.5, 0.0, 2.0), (2.0, -0.5, 3.0)):  # Brown and Sandholm's (1.5, 0, 2), and another
        dcfr = DCFR(alpha=a, beta=b, gamma=g)
        assert dcfr.regret_rule(t) == RegretRule(pos=ft ** a / (ft ** a + 1.0), neg=ft ** b / (ft ** b + 1.0))
        assert dcfr.average_weight(t) == ft ** g
    pcfr = PCFRPlus()
    assert pcfr.regret_rule(t) == RegretRule(floor=True) and pcfr.average_weight(t) == ft ** 2.0
    assert pcfr.prediction_scale(t) == 1.0 and pcfr.prediction == "tree" and pcfr.predictive
    pd = PDCFRPlus(prediction="local")
    assert pd.regret_rule(t) == RegretRule(pre=_d(t - 1, 2.3), floor=True) and pd.average_weight(t) == ft ** 5.0
    assert pd.prediction_scale(t) == _d(t, 2.3) and pd.prediction == "local"
    assert PDCFRPlus().regret_rule(1).pre == 0.0  # d(0) = 0: the first update starts from nothing
    assert not any(v.predictive for v in (CFR(), CFRPlus(), LCFR(), DCFR()))


def test_variant_objects_refuse_bad_parameters_in_one_line():
    for make, message in ((lambda: DCFR(alpha=float("nan")), "alpha must be a finite number, got nan"),
                          (lambda: DCFR(gamma=-1), "dcfr: gamma must be >= 0 (older iterations may not weigh more)"),
                          (lambda: PCFRPlus(gamma=True), "gamma must be a finite number, got True"),
                          (lambda: PCFRPlus(gamma=-2), "pcfr+: gamma must be >= 0, got -2"),
                          (lambda: PDCFRPlus(alpha=-1), "pdcfr+: alpha and gamma must be >= 0, got alpha=-1, gamma=5.0"),
                          (lambda: PDCFRPlus(prediction="psychic"), "pdcfr+: prediction must be one of tree, local")):
        with pytest.raises(ZerosumError) as err:
            make()
        assert str(err.value).startswith(message) and "\n" not in str(err.value)
    with pytest.raises(ZerosumError, match="variant object"):
        SOLVERS["cfr"](compiled(load_game("kuhn")), variant="dcfr")


@pytest.mark.parametrize("name, v", [
    ("cfr+", CFRPlus()), ("lcfr", LCFR()), ("dcfr", DCFR(alpha=2.0, beta=-0.5, gamma=3.0)),
    ("pcfr+", PCFRPlus(prediction="local")), ("pdcfr+", PDCFRPlus(alpha=1.0, gamma=4.0)),
])
def test_a_variant_object_on_the_history_tree_is_the_named_class(name, v, tmp_path):
    from zerosum.solvers.cfr import CFRSolver

    cg = compiled(load_game("leduc"))
    options = dict(vars(v))  # the variant's parameters: the named class's options
    for alternating in (True, False):
        mine, named = CFRSolver(cg, alternating, variant=v), SOLVERS[name](cg, alternating=alternating, **options)
        assert mine.name == named.name == name
        assert mine.run(30, [10]) == named.run(30, [10])
        a, b = mine.state_dict(), named.state_dict()
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    np.savez(tmp_path / "s.npz", **a)  # a run of the object resumes as the named class, and back
    resumed = SOLVERS[name](cg, alternating=False, **options)
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    assert resumed.run(40) == mine.run(40)


@pytest.mark.parametrize("name, v", [
    ("cfr", CFR()), ("dcfr", DCFR(alpha=2.0, beta=-0.5, gamma=3.0)), ("pdcfr+", PDCFRPlus(prediction="local")),
])
def test_a_variant_object_on_the_public_tree_is_the_named_solver(name, v):
    import inspect

    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.solver import PublicTreeSolver, public_solver, public_solver_class

    game = load_game("poker")
    tree = public_tree(game)
    options = dict(vars(v))
    for dtype in ("float64", "float32"):
        mine, named = PublicTreeSolver(tree, v, dtype), public_solver(name, tree, dtype=dtype, **options)
        assert (mine.name, mine.form, mine.dtype) == (named.name, named.form, named.dtype) == (name, "public-tree", dtype)
        assert mine.run(30, [10]) == named.run(30, [10])
        a, b = mine.state_dict(), named.state_dict()
        assert a.keys() == b.keys() and all(np.array_equal(a[k], b[k]) for k in a)
    cls = public_solver_class(name, "float32")  # the options the CLI checks: the variant's parameters
    assert list(inspect.signature(cls.__init__).parameters) == ["self", "game", "alternating", *options]
    assert (cls.name, cls.form, cls.dtype) == (name, "public-tree", "float32")
    # the same variant on the history tree: the same run up to each form's summation order
    hist = SOLVERS[name](compiled(game), **options).run(10)[-1]
    pub = PublicTreeSolver(tree, v).run(10)[-1]
    assert abs(hist["nash_conv_average"] - pub["nash_conv_average"]) < 1e-9


def test_split_refuses_predictive_variants_before_starting_ray():
    from zerosum.public_tree.split import split_solver

    for name in ("pcfr+", "pdcfr+", "pcs-mccfr", "es-mccfr"):
        with pytest.raises(ZerosumError, match=r"does not run with the public tree split over Ray \(--ray\); these do: cfr, cfr\+, lcfr, dcfr, hs-dcfr;"):
            split_solver(name, None, 2)


def test_discounting_experiment_runs_holdem_on_the_public_tree():
    """A hold'em subgame goes to the public tree (no history tree, no LP): its row is the public
    solver's own exact NashConv at the same iterations, and the uniform NashConv is the tree's."""
    from zerosum.experiments.discounting import discounting, parse_game
    from zerosum.public_tree.solver import public_solver

    spec = "holdem(board=Ks7d2c9h5s,range0=QQ+,range1=JJ+)"
    (table,) = discounting(iterations=10, games=spec, variants="dcfr").tables
    assert "public tree" in table.title
    (row,) = table.rows
    solver = public_solver("dcfr", parse_game(spec))
    uniform = solver.checkpoint()["nash_conv_average"]
    solver.iterate(10)
    assert row[1] == float(f"{solver.checkpoint()['nash_conv_average']:.3e}")
    assert row[3] is None  # no LP value to compare with
    assert f"{uniform:.4g}" in table.title
