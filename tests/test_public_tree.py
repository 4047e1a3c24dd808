"""The public-tree form on the poker family: same CFR+/DCFR run as the history tree, same NashConv
of the same policy, Kuhn's value, save/resume, and the policy file."""

from __future__ import annotations

import dataclasses
import json

import numpy as np
import pytest

from zerosum import load_game
from zerosum.core.compile import compile_game
from zerosum.core.evaluation import evaluate
from zerosum.errors import ZerosumError
from zerosum.public_tree.arrays import pass_step
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import public_solver
from zerosum.solvers import SOLVERS

KUHN = {"ranks": 3, "copies": 1, "rounds": 1, "raises": 1, "bets": [1]}
MEMBERS = [KUHN, {}, {"ranks": 6}, {"ranks": 13, "copies": 4, "raises": 3}]


@pytest.fixture(scope="module", params=range(len(MEMBERS)), ids=["kuhn", "leduc", "ranks6", "ranks13x4"])
def member(request):
    g = load_game("poker", **MEMBERS[request.param])
    return compile_game(g), public_tree(g)


def _perturbed(cg):
    """The same game with every payoff one ulp larger: how far rounding alone moves a run."""
    a = cg.payoff.copy()
    a.data = a.data * (1 + 2.0 ** -52)
    return dataclasses.replace(cg, payoff=a, payoff_t=a.T.tocsr())


@pytest.mark.parametrize("name", ["cfr+", "dcfr"])
def test_same_run_as_history_tree(member, name):
    cg, tree = member
    hist, pub = SOLVERS[name](cg), public_solver(name, tree)
    for it in (10, 100):
        a, b = hist.run(it)[-1], pub.run(it)[-1]
        keys = ("nash_conv_average", "nash_conv_current", "value_average") if it == 10 else \
            ("nash_conv_average", "value_average")  # the current strategy is the chaotic part
        for key in keys:
            # after 10 iterations to 1e-9.  After 100, CFR+'s and DCFR's dynamics amplify rounding
            # differences (two summation orders): the history tree against itself with every payoff
            # one ulp larger drifts by up to 2.5e-6 (DCFR, Leduc; see test_rounding_alone_drifts),
            # and on 13x4 the regret gap grows smoothly, x10 per ~8 iterations, from 1e-15 at
            # iteration 5: there the bound is 1e-9 or 1% of the figure, which a wrong pass would miss
            bound = 1e-9 if it == 10 else max(1e-9, 1e-2 * abs(a[key]))
            assert abs(a[key] - b[key]) <= bound, (it, key, a[key], b[key])
        # exact NashConv of one policy, computed on both forms
        policy = pub.average_policy()
        on_history = evaluate(cg, policy.to_tabular(cg))
        mine = policy.evaluate()
        assert abs(on_history.nash_conv - mine["nash_conv"]) < 1e-9
        assert abs(on_history.value - mine["value"]) < 1e-9


def test_rounding_alone_drifts():
    """Why 100 iterations are compared more loosely: the history tree against itself moved by one ulp."""
    cg = compile_game(load_game("poker"))
    a, c = SOLVERS["dcfr"](cg).run(100)[-1], SOLVERS["dcfr"](_perturbed(cg)).run(100)[-1]
    assert abs(a["nash_conv_average"] - c["nash_conv_average"]) > 1e-9


def test_kuhn_value_and_sizes():
    tree = public_tree(load_game("poker", **KUHN))
    assert tree.n_nodes == 9 and tree.infoset_actions() == (12, 12)  # 2 nodes x 2 actions x 3 hands per player
    solver = public_solver("cfr+", tree)
    last = solver.run(2000)[-1]
    assert abs(last["value_average"] + 1 / 18) < 1e-3
    assert last["nash_conv_average"] < 2e-3


def test_uniform_nash_conv_of_leduc():
    tree = public_tree(load_game("poker"))
    solver = public_solver("cfr", tree)
    assert abs(solver.checkpoint()["nash_conv_average"] - 4.747222222222222) < 1e-12  # Lab 15's figure


def test_save_resume_and_dtype(tmp_path):
    tree = public_tree(load_game("poker", ranks=4))
    full = public_solver("dcfr", tree)
    full.run(30)
    half = public_solver("dcfr", tree)
    half.run(15)
    np.savez(tmp_path / "s.npz", **half.state_dict())
    resumed = public_solver("dcfr", tree)
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    resumed.run(30)
    for p in (0, 1):
        assert np.array_equal(resumed.regrets[p], full.regrets[p])
        assert np.array_equal(resumed.average[p], full.average[p])
    with pytest.raises(ZerosumError, match="cfr\\+"):
        public_solver("cfr+", tree).load_state_dict(half.state_dict())
    with pytest.raises(ZerosumError, match="float64"):
        public_solver("dcfr", tree, dtype="float32").load_state_dict(half.state_dict())
    single = public_solver("dcfr", tree, dtype="float32")
    single.run(30)
    assert single.regrets[0].dtype == np.float32
    # regrets, average and the pass's vectors halve, and they are all a solver holds
    held = [sum(a.nbytes for a in s.regrets + s.average) + s.workspace.nbytes() for s in (single, full)]
    assert held[0] * 2 == held[1]
    assert single.nbytes() == held[0] and full.nbytes() == held[1]
    assert abs(single.checkpoint()["nash_conv_average"] - full.checkpoint()["nash_conv_average"]) < 1e-4


def test_policy_file_round_trip(tmp_path):
    tree = public_tree(load_game("poker"))
    solver = public_solver("cfr+", tree)
    solver.run(50)
    policy = solver.average_policy()
    policy.save(tmp_path / "p.json")
    data = json.loads((tmp_path / "p.json").read_text())
    assert data["format"] == "zerosum.public-policy" and data["hands"][0] == ["J", "Q", "K"]
    back = PublicPolicy.from_dict(tree, data)
    assert abs(back.evaluate()["nash_conv"] - policy.evaluate()["nash_conv"]) < 1e-7
    data["nodes"].pop()
    with pytest.raises(ZerosumError, match="missing"):
        PublicPolicy.from_dict(tree, data)


@pytest.mark.parametrize("params", [{"ranks": 13, "copies": 4, "raises": 3}, {"ranks": 6, "raises": 2}])
def test_normalized_is_the_per_node_rule(params):
    """The vectorized normalization equals the rule written per node here, bit for bit, with nodes
    of 2 and 3 actions, negative, zero and positive sums (all-zero hands: uniform)."""
    from zerosum.public_tree.policy import normalized

    tree = public_tree(load_game("poker", **params))
    rng = np.random.default_rng(3)
    for p in (0, 1):
        n, size = tree.n_hands[p], tree.infoset_actions()[p]
        sums = rng.normal(size=size) * (rng.random(size) < 0.5)
        expect = np.empty(size)
        counts = set()
        for node in tree.decision_nodes(p):
            o, na = tree.offset[node], tree.n_children[node]
            counts.add(int(na))
            for i in range(n):
                x = [max(float(sums[o + a * n + i]), 0.0) for a in range(na)]
                t = sum(x)
                for a in range(na):
                    expect[o + a * n + i] = x[a] / t if t > 0 else 1.0 / na
        assert counts == {2, 3}
        got = normalized(tree, p, sums)
        assert np.array_equal(got, expect)
        assert np.any(got == 0.5) and np.any(got == 1.0 / 3)  # some hands had no positive sum


def test_variants_outside_the_public_tree_are_refused():
    tree = public_tree(load_game("poker", **KUHN))
    with pytest.raises(ZerosumError, match="public tree"):
        public_solver("es-mccfr", tree)
    with pytest.raises(ZerosumError, match="alternating"):
        public_solver("cfr", tree, alternating=False)


@pytest.mark.parametrize("params", MEMBERS + [{"ranks": 5, "copies": 3}, {"ranks": 4, "copies": 1, "rounds": 2}],
                         ids=["kuhn", "leduc", "ranks6", "ranks13x4", "ranks5x3", "ranks4x1"])
def test_rank_evaluator_equals_dense_matrices(params):
    from zerosum.public_tree.build import poker_public_tree

    game = load_game("poker", **params)
    fast, dense = poker_public_tree(game), poker_public_tree(game, rank_form=False)
    rng = np.random.default_rng(7)
    sums = [rng.random(n) * (rng.random(n) < 0.8) for n in fast.infoset_actions()]
    for mode in (0, 1, 2):  # UPDATE also compares every regret written
        a, b = [s.copy() for s in sums], [s.copy() for s in sums]
        from zerosum.public_tree.passes import Workspace

        wa, wb = Workspace(fast, np.float64), Workspace(dense, np.float64)
        for p in (0, 1):
            avg_a, avg_b = np.zeros(len(a[p])), np.zeros(len(b[p]))
            step = pass_step(p, mode, 1.0, (1.0, 1.0, 1.0, False))
            va = wa.walk(step, a[p], a[1 - p], avg_a)
            vb = wb.walk(step, b[p], b[1 - p], avg_b)
            assert abs(va - vb) < 1e-12
            assert np.allclose(a[p], b[p], rtol=1e-12, atol=1e-14)  # every node's values, through its regrets
            assert np.allclose(avg_a, avg_b, rtol=1e-12, atol=1e-14)


def test_public_chance_sampling_is_unbiased():
    """Over every joint draw of Leduc's public card (5 chance nodes x 3 cards), PCS's regret and
    average increments average to the full-width ones."""
    import itertools

    from zerosum.public_tree import kernels
    from zerosum.public_tree.passes import Workspace

    tree = public_tree(load_game("poker"))
    chance = np.flatnonzero(tree.kind == 1)
    rng = np.random.default_rng(5)
    src = [rng.random(n) - 0.3 for n in tree.infoset_actions()]
    ws = Workspace(tree, np.float64)
    rule = (1.0, 1.0, 1.0, False)

    def increments(sample):
        r, avg = src[0].copy(), np.zeros(len(src[0]))
        ws.walk(pass_step(0, kernels.UPDATE, 1.0, rule), r, src[1], avg, sample=sample)
        return r - src[0], avg

    full_r, full_avg = increments(None)
    total_r, total_avg = np.zeros_like(full_r), np.zeros_like(full_avg)
    draws = list(itertools.product(range(3), repeat=len(chance)))
    sample = np.zeros(tree.n_nodes, dtype=np.int64)
    for draw in draws:
        sample[chance] = draw
        r, avg = increments(sample)
        total_r += r
        total_avg += avg
    assert np.allclose(total_r / len(draws), full_r, atol=1e-12)
    assert np.allclose(total_avg / len(draws), full_avg, atol=1e-12)
    assert not np.allclose(r, full_r)  # one draw alone is not the full-width pass
    solver = public_solver("pcs-mccfr", tree)
    assert solver.run(3000)[-1]["nash_conv_average"] < 0.5  # uniform: 4.75


@pytest.mark.parametrize("params", [KUHN, {}, {"ranks": 6, "copies": 3, "raises": 3}, "holdem"],
                         ids=["kuhn", "leduc", "6x3", "holdem"])
def test_depth_first_pass_equals_the_oracle(params):
    """The one depth-first pass against the plain per-node traversal of tests/pass_oracle.py (dense
    terminal matrices, NumPy): every mode, a variant's regret rule, the average, sampling too."""
    from pass_oracle import dense_terminals, oracle_pass

    from zerosum.poker.holdem import HoldemGame
    from zerosum.public_tree.passes import Workspace

    game = HoldemGame(board="Ks7d2c9h", range0="JJ+,AQs+,KQo,T9s", range1="99+,AJs+,KQo,T9s,76s") \
        if params == "holdem" else load_game("poker", **params)
    tree = public_tree(game)
    dense = dense_terminals(tree, game)
    dfs = Workspace(tree, np.float64)
    rng = np.random.default_rng(1)
    sums = [rng.random(n) * (rng.random(n) < 0.8) for n in tree.infoset_actions()]
    chance = np.flatnonzero(tree.kind == 1)
    sample = np.zeros(tree.n_nodes, dtype=np.int64)
    sample[chance] = rng.integers(0, tree.n_children[chance])
    rule = (1.0, 0.7, 0.3, True)
    for mode, draw in [(0, None), (1, None), (2, None), (0, sample if len(chance) else None)]:
        for p in (0, 1):
            a, b = [s.copy() for s in sums], [s.copy() for s in sums]
            avg_a, avg_b = np.zeros(len(a[p])), np.zeros(len(a[p]))
            va = dfs.walk(pass_step(p, mode, 2.0, rule), a[p], a[1 - p], avg_a, sample=draw)
            vb, _, visited = oracle_pass(tree, dense, p, b[p], b[1 - p], mode, avg_b, 2.0, rule, sample=draw)
            assert abs(va - vb) <= 1e-12 * max(1.0, abs(vb))
            assert np.allclose(a[p], b[p], rtol=1e-10, atol=1e-13)
            assert np.allclose(avg_a, avg_b, rtol=1e-12, atol=1e-15)
            assert dfs.visited == visited
            if mode == 0:
                assert not np.array_equal(a[p], sums[p])  # the regrets did move


@pytest.mark.parametrize("name", ["pcfr+", "pdcfr+"])
@pytest.mark.parametrize("prediction", ["tree", "local"])
def test_predictive_variants_same_run_as_history_tree(name, prediction, tmp_path):
    game = load_game("poker")
    cg, tree = compile_game(game), public_tree(game)
    hist, pub = SOLVERS[name](cg, prediction=prediction), public_solver(name, tree, prediction=prediction)
    for it in (10, 100):
        a, b = hist.run(it)[-1], pub.run(it)[-1]
        bound = 1e-9 if it == 10 else max(1e-9, 1e-2 * a["nash_conv_average"])
        assert abs(a["nash_conv_average"] - b["nash_conv_average"]) <= bound
        assert abs(a["value_average"] - b["value_average"]) <= bound
    half = public_solver(name, tree, prediction=prediction)
    half.run(50)
    np.savez(tmp_path / "s.npz", **half.state_dict())
    resumed = public_solver(name, tree, prediction=prediction)
    resumed.load_state_dict(dict(np.load(tmp_path / "s.npz")))
    resumed.run(100)
    assert np.array_equal(resumed.strategy[0], pub.strategy[0]) and np.array_equal(resumed.regrets[1], pub.regrets[1])


def test_sampling_pays_has_a_public_tree_table():
    from zerosum.experiments.sampling_pays import crossover

    members = [{"ranks": 4, "copies": 2, "rounds": 1, "raises": 2, "bets": [1]}]
    report = crossover(None, False, fraction=0.2, time_limit=2.0, members=members,
                       subgames=(("Ks7d2c9h3s", "AA,KK,AK", "QQ+,T9s"),))
    history, public = report.tables
    assert len(history.rows) == 1 and len(public.rows) == 2
    for row in public.rows:
        cells = dict(zip(public.columns, row))
        assert cells["public CFR+ s"] is not None and cells["CFR+ iterations"] >= 1
    assert dict(zip(public.columns, public.rows[1]))["game"].startswith("holdem(")
