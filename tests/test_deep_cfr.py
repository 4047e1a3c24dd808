"""Deep CFR and Single Deep CFR on Kuhn with tiny budgets (needs the ``deep`` extra)."""

import numpy as np
import pytest

from zerosum import ZerosumError, compiled, evaluate, load_game
from zerosum.core.game import CHANCE, TERMINAL
from zerosum.core.sequence_form import realization_plan

pytest.importorskip("jax", reason="Deep CFR needs the 'deep' extra (JAX, Optax)")
pytest.importorskip("optax", reason="Deep CFR needs the 'deep' extra (JAX, Optax)")

from zerosum.solvers.deep_cfr import DeepCFRSolver, SingleDeepCFRSolver

TINY = {"traversals": 40, "advantage_steps": 30, "policy_steps": 60, "batch": 64, "memory": 4000}
TINY_SD = {k: v for k, v in TINY.items() if k != "policy_steps"}


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


def _counterfactual_regrets(game, traverser, sigma, seq0):
    """Exact counterfactual regrets of ``sigma`` at the traverser's information sets, by plain
    recursion over the history tree (chance and opponent reach times v(a) - v)."""
    tree = game.tree
    out = np.zeros((game.treeplexes[traverser].n_infosets, 2))
    sign = 1.0 if traverser == 0 else -1.0

    def value(h, reach):
        p = tree.player[h]
        kids = range(tree.first_child[h], tree.first_child[h] + tree.n_children[h])
        if p == TERMINAL:
            return sign * tree.payoff[h]
        if p == CHANCE:
            return sum(tree.edge_prob[c] * value(c, reach * tree.edge_prob[c]) for c in kids)
        probs = [sigma[seq0[h] + k] for k in range(len(kids))]
        if p != traverser:
            return sum(q * value(c, reach * q) for q, c in zip(probs, kids))
        vals = [value(c, reach) for c in kids]
        v = sum(q * x for q, x in zip(probs, vals))
        out[tree.infoset[h], :len(vals)] += reach * (np.array(vals) - v)
        return v

    value(0, 1.0)
    return out


@pytest.mark.parametrize("player", [0, 1])
def test_sampled_regrets_estimate_the_counterfactual_regrets(kuhn, player):
    """External sampling is unbiased: the regret samples per traversal, summed by information set,
    average to the exact counterfactual regrets (here of a random profile)."""
    s = DeepCFRSolver(kuhn, seed=5, traversals=40000, memory=400000)
    rng = np.random.default_rng(0)
    for p in (0, 1):
        tree = kuhn.treeplexes[p]
        for i in range(tree.n_infosets):
            q = rng.dirichlet([1, 1])
            s.sigma[s.offsets[p] + tree.infoset_first[i]:s.offsets[p] + tree.infoset_first[i] + 2] = q
    s.traverse(player, 1)
    buf = s.advantage[player]
    assert buf.seen[0] == buf.size  # nothing dropped: every sample is in the buffer
    est = np.zeros((kuhn.treeplexes[player].n_infosets, 2))
    np.add.at(est, buf.ids[:buf.size], buf.targets[:buf.size, :2])
    est /= 40000
    exact = _counterfactual_regrets(kuhn, player, s.sigma, s.seq0)
    assert np.abs(est - exact).max() < 0.02
    assert np.abs(exact).max() > 0.1  # the check is not vacuous
    # the opponent's strategy samples are its current strategy, word for word
    strat = s.strategy[1 - player]
    o = s.offsets[1 - player]
    first = kuhn.treeplexes[1 - player].infoset_first[strat.ids[:50]]
    assert np.allclose(strat.targets[:50, 0], s.sigma[o + first])


def test_same_seed_same_numbers_and_resume_equals_the_uninterrupted_run(kuhn):
    a = DeepCFRSolver(kuhn, seed=3, **TINY).run(4, [2, 4])
    b = DeepCFRSolver(kuhn, seed=3, **TINY).run(4, [2, 4])
    c = DeepCFRSolver(kuhn, seed=4, **TINY).run(4, [4])
    drop = [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in a]
    assert drop == [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in b]
    assert drop[-1]["nash_conv_average"] != c[-1]["nash_conv_average"]
    first = DeepCFRSolver(kuhn, seed=3, **TINY)
    first.run(2)
    state = first.state_dict()
    resumed = DeepCFRSolver(kuhn, seed=0, **TINY)
    resumed.load_state_dict(state)
    row = resumed.run(4)[-1]
    assert {k: v for k, v in row.items() if k != "cpu_seconds"} == drop[-1]
    with pytest.raises(ZerosumError, match="traversals=40"):
        DeepCFRSolver(kuhn, **{**TINY, "traversals": 41}).load_state_dict(state)
    with pytest.raises(ZerosumError, match="from solver 'deep-cfr', not 'sd-cfr'"):
        SingleDeepCFRSolver(kuhn, **TINY_SD).load_state_dict(state)


def test_single_deep_cfr_average_is_recovered_from_the_value_networks(kuhn):
    s = SingleDeepCFRSolver(kuhn, seed=2, **TINY_SD)
    rows = s.run(5, [1, 5])
    assert len(s.value_networks[0]) == len(s.value_networks[1]) == 5
    avg, again = s.average_policy(), s.average_from_networks()
    for p in (0, 1):
        assert np.allclose(avg.probs[p], again.probs[p], atol=1e-12)
    assert rows[-1]["nash_conv_average"] == pytest.approx(evaluate(kuhn, avg).nash_conv)
    # after one iteration the average is the first trained networks' strategy itself
    one = SingleDeepCFRSolver(kuhn, seed=2, **TINY_SD)
    one.run(1)
    for p in (0, 1):  # equal as realization plans (behaviour off the path is uniform in the average)
        t = kuhn.treeplexes[p]
        assert np.allclose(realization_plan(t, one.average_policy().probs[p]),
                           realization_plan(t, one.current_policy().probs[p]))
    # save and resume reproduce the networks and the average
    half = SingleDeepCFRSolver(kuhn, seed=2, **TINY_SD)
    half.run(3)
    back = SingleDeepCFRSolver(kuhn, seed=2, **TINY_SD)
    back.load_state_dict(half.state_dict())
    back.run(5)
    assert np.array_equal(back.average_policy().probs[1], avg.probs[1])


def test_deep_cfr_learns_on_kuhn(kuhn):
    """A short run already beats uniform play by far (uniform: NashConv 0.917)."""
    s = SingleDeepCFRSolver(kuhn, seed=1, traversals=200, advantage_steps=200, batch=128, memory=20000)
    row = s.run(20)[-1]
    assert row["nash_conv_average"] < 0.2
    assert row["nodes"] > 0 and row["samples"] > 0


def test_bad_options_are_one_line_errors(kuhn):
    with pytest.raises(ZerosumError, match="traversals must be a positive integer, got 0"):
        DeepCFRSolver(kuhn, traversals=0)
    with pytest.raises(ZerosumError, match="hidden must be a positive integer or a list"):
        DeepCFRSolver(kuhn, hidden=[64, 0])
    with pytest.raises(ZerosumError, match="learning_rate"):
        SingleDeepCFRSolver(kuhn, learning_rate=-1)


def test_warm_start_continues_from_the_previous_network(kuhn):
    """With ``warm_start`` each fit starts from the player's last network: with a negligible step
    size the network stays what it was; from scratch it is a fresh initialization.  Resuming a
    warm-started run reproduces it (the networks are in the state)."""
    still = {**TINY_SD, "learning_rate": 1e-9}
    warm = SingleDeepCFRSolver(kuhn, seed=2, warm_start=True, **still)
    cold = SingleDeepCFRSolver(kuhn, seed=2, **still)
    warm.run(1)
    cold.run(1)
    first = [w.copy() for w, _ in warm.advantage_params[0]]
    assert all(np.array_equal(a, w) for a, (w, _) in zip(first, cold.advantage_params[0]))  # same first fit
    warm.run(2)
    cold.run(2)
    assert max(np.abs(a - w).max() for a, (w, _) in zip(first, warm.advantage_params[0])) < 1e-6
    assert max(np.abs(a - w).max() for a, (w, _) in zip(first, cold.advantage_params[0])) > 0.1
    a = SingleDeepCFRSolver(kuhn, seed=2, warm_start=True, **TINY_SD)
    rows = a.run(4)
    half = SingleDeepCFRSolver(kuhn, seed=2, warm_start=True, **TINY_SD)
    half.run(2)
    back = SingleDeepCFRSolver(kuhn, seed=2, warm_start=True, **TINY_SD)
    back.load_state_dict(half.state_dict())
    assert back.run(4)[-1]["nash_conv_average"] == rows[-1]["nash_conv_average"]
    with pytest.raises(ZerosumError, match="warm_start=False"):
        a.load_state_dict(SingleDeepCFRSolver(kuhn, seed=2, **TINY_SD).state_dict())
    with pytest.raises(ZerosumError, match="warm_start must be true or false"):
        DeepCFRSolver(kuhn, warm_start=1)


def test_aggregated_rows_give_the_samples_objective(kuhn):
    """``aggregate`` replaces a reservoir's samples by one row per information set (weighted mean
    target, total weight).  The weighted squared error over the samples and over the rows differ
    by a constant, and the cross-entropy is the same, for any network: same minimizer, no noise."""
    from zerosum.deep.network_policy import Network
    from zerosum.deep.training import aggregate
    from zerosum.learning.features import infoset_features

    rng = np.random.default_rng(4)
    feats = infoset_features(kuhn, 0)
    n, size = kuhn.treeplexes[0].n_infosets, 500
    ids = rng.integers(0, n - 1, size + 50)  # the last information set gets no sample
    targets = rng.normal(size=(size + 50, 2)).astype(np.float32)
    weights = rng.integers(1, 9, size + 50).astype(np.float32)
    rows, mean, total = aggregate(ids, targets, weights, size, n)
    assert np.array_equal(rows, np.arange(n)) and total[n - 1] == 0 and total.sum() == pytest.approx(weights[:size].sum())
    probs = rng.dirichlet([1, 1], size + 50)

    def losses(net):
        out = net.outputs(feats).astype(np.float64)
        logp = out - np.log(np.exp(out).sum(axis=1, keepdims=True))
        mse_s = np.sum(weights[:size] * ((out[ids[:size]] - targets[:size]) ** 2).sum(1))
        mse_r = np.sum(total * ((out - mean) ** 2).sum(1))
        xent_s = -np.sum(weights[:size] * (probs[:size] * logp[ids[:size]]).sum(1))
        _, pmean, _ = aggregate(ids, probs, weights, size, n)
        xent_r = -np.sum(total * (pmean * logp).sum(1))
        return mse_s - mse_r, xent_s, xent_r

    gaps = []
    for k in range(3):
        params = [(rng.normal(size=(feats.shape[1], 8)), rng.normal(size=8)),
                  (rng.normal(size=(8, 2)), rng.normal(size=2))]
        gap, xs, xr = losses(Network(kuhn.game_id, 0, "softmax", params))
        assert xs == pytest.approx(xr, rel=1e-6)  # float32 rows
        gaps.append(gap)
    assert np.allclose(gaps, gaps[0], rtol=1e-6)
    assert abs(gaps[0]) > 1  # the constant is not zero: the check compares different sums


def test_aggregated_fits_learn_on_kuhn(kuhn):
    """Deep CFR and SD-CFR with ``aggregate`` (full-batch fits on per-information-set rows) learn;
    a resumed run equals the uninterrupted one."""
    opts = {"traversals": 200, "advantage_steps": 200, "memory": 20000, "aggregate": True}
    row = SingleDeepCFRSolver(kuhn, seed=1, **opts).run(20)[-1]
    assert row["nash_conv_average"] < 0.2
    a = DeepCFRSolver(kuhn, seed=1, policy_steps=300, **opts)
    rows = a.run(6, [6])
    assert rows[-1]["nash_conv_average"] < 0.5
    half = DeepCFRSolver(kuhn, seed=1, policy_steps=300, **opts)
    half.run(3)
    back = DeepCFRSolver(kuhn, seed=1, policy_steps=300, **opts)
    back.load_state_dict(half.state_dict())
    assert back.run(6, [6])[-1]["nash_conv_average"] == rows[-1]["nash_conv_average"]


def test_defaults_follow_the_game_size_and_explicit_options_override():
    """Options left at "auto" resolve from the number of information sets: Kuhn (12) keeps the
    small settings -- the same run, number for number, as passing them explicitly -- and the
    Leduc variants (288, 936) get the large ones; an explicit value wins; the resolved values are
    reported."""
    from zerosum.solvers.deep_cfr import LARGE_DEFAULTS, SMALL_DEFAULTS, resolve_defaults

    kuhn = compiled(load_game("kuhn"))
    leduc = compiled(load_game("leduc"))
    keys = ("traversals", "hidden", "policy_hidden", "memory", "aggregate")
    auto = {k: "auto" for k in keys}
    assert resolve_defaults(kuhn, **auto) == SMALL_DEFAULTS
    assert resolve_defaults(leduc, **auto) == LARGE_DEFAULTS
    assert resolve_defaults(leduc, **{**auto, "traversals": 7, "aggregate": False})["traversals"] == 7
    assert resolve_defaults(leduc, **{**auto, "aggregate": False})["aggregate"] is False
    small = {"traversals": 375, "hidden": [64], "policy_hidden": [64], "memory": 100000, "aggregate": False}
    few = {"advantage_steps": 20, "policy_steps": 20, "batch": 64}
    a = DeepCFRSolver(kuhn, seed=3, **few)
    assert {k: a.extra_info()["options"][k] for k in keys} == small
    ra = DeepCFRSolver(kuhn, seed=3, **few).run(2, [1, 2])
    rb = DeepCFRSolver(kuhn, seed=3, **few, **small).run(2, [1, 2])
    assert [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in ra] == \
        [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in rb]
    s = SingleDeepCFRSolver(leduc, memory=1000, traversals="auto")
    o = s.extra_info()["options"]
    assert (o["traversals"], o["hidden"], o["memory"], o["aggregate"]) == (10000, [128, 128], 1000, True)
    assert s.advantage[0].ids.shape == (1000,)
    with pytest.raises(ZerosumError, match="traversals must be a positive integer, got 'many'"):
        SingleDeepCFRSolver(kuhn, traversals="many")


def test_a_state_saved_with_auto_defaults_resumes():
    """The state stores the resolved options: a fresh solver with the same "auto" defaults
    resolves the same and continues the run exactly; one with another explicit value is refused."""
    leduc = compiled(load_game("leduc"))
    few = {"traversals": 30, "advantage_steps": 5, "memory": 3000}  # hidden and aggregate: auto (large)
    whole = SingleDeepCFRSolver(leduc, seed=4, **few).run(3)[-1]
    half = SingleDeepCFRSolver(leduc, seed=4, **few)
    half.run(2)
    back = SingleDeepCFRSolver(leduc, **few)
    back.load_state_dict(half.state_dict())
    assert {k: v for k, v in back.run(3)[-1].items() if k != "cpu_seconds"} == \
        {k: v for k, v in whole.items() if k != "cpu_seconds"}
    with pytest.raises(ZerosumError, match=r"hidden=\[128, 128\], not \[64\]"):
        SingleDeepCFRSolver(leduc, hidden=[64], **few).load_state_dict(half.state_dict())
