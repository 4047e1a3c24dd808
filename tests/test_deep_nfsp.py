"""NFSP on Kuhn with tiny budgets (needs the ``deep`` extra)."""

import json

import numpy as np
import pytest

from zerosum import ZerosumError, compiled, load_game

pytest.importorskip("jax", reason="NFSP needs the 'deep' extra (JAX, Optax)")
pytest.importorskip("optax", reason="NFSP needs the 'deep' extra (JAX, Optax)")

from zerosum.solvers.nfsp import NFSPSolver, _self_play

TINY = {"hands": 64, "updates": 2, "batch": 32, "replay": 2000, "reservoir": 5000, "hidden": 16}
#: NFSP as Heinrich and Silver wrote it: minibatches of a reservoir, the actions taken as targets
PAPER = {"sl_fit": "reservoir", "sl_target": "action", "sl_weight": "uniform"}


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


def _drop_cpu(rows):
    return [{k: v for k, v in r.items() if k != "cpu_seconds"} for r in rows]


def test_same_seed_same_numbers_and_resume(kuhn):
    a = NFSPSolver(kuhn, seed=1, **TINY).run(30, [10, 30])
    b = NFSPSolver(kuhn, seed=1, **TINY).run(30, [10, 30])
    c = NFSPSolver(kuhn, seed=2, **TINY).run(30, [30])
    assert _drop_cpu(a) == _drop_cpu(b)
    assert a[-1]["nash_conv_average"] != c[-1]["nash_conv_average"]
    assert a[-1]["episodes"] == 30 * 64
    half = NFSPSolver(kuhn, seed=1, **TINY)
    half.run(10)
    back = NFSPSolver(kuhn, seed=1, **TINY)
    back.load_state_dict(half.state_dict())
    assert _drop_cpu(back.run(30)[-1:]) == _drop_cpu(a[-1:])
    with pytest.raises(ZerosumError, match="anticipatory=0.05"):
        NFSPSolver(kuhn, anticipatory=0.2, **TINY).load_state_dict(half.state_dict())


def test_self_play_records_what_each_mode_should(kuhn):
    """With eta = 1 every action is a best-response action: the reservoir gets one sample per
    decision; with eta = 0 it gets none.  Each hand ends with one terminal transition per player
    that acted, carrying that player's scaled payoff (zero-sum: the two sum to zero per hand)."""
    s = NFSPSolver(kuhn, seed=3, **TINY, **PAPER)
    br, avg, _ = s._tables(0.5)
    tree = kuhn.tree
    for eta, expect_samples in ((1.0, True), (0.0, False)):
        rl = {k: np.zeros_like(v) for k, v in s.rl.items()}
        sl = {k: np.zeros_like(v) for k, v in s.sl.items()}
        nodes = _self_play(tree.player, tree.infoset, s.seq0, tree.first_child, tree.n_children, tree.edge_prob,
                           tree.payoff, s.scale, br, avg, np.zeros(0), 1.0, eta, 3, 1, 100, rl["ids"], rl["act"],
                           rl["rew"], rl["next"], rl["live"], rl["pos"], rl["size"], sl["ids"], sl["targets"],
                           sl["seen"], sl["sum"])
        decisions = int(rl["size"].sum())
        assert nodes == decisions + 100  # every decision is one transition; plus 100 terminals
        assert (sl["seen"].sum() == decisions) if expect_samples else sl["seen"].sum() == 0
        # the reservoir holds every sample here (5,000 slots): its per-information-set sums are
        # the running sums that sl_fit="aggregate" fits
        for p in (0, 1):
            n = int(sl["seen"][p])
            t = s.trees[p]
            counts = np.zeros((t.n_infosets, s.width))
            np.add.at(counts, sl["ids"][p][:n], sl["targets"][p][:n])
            assert np.array_equal(counts, sl["sum"][p][:t.n_infosets])
        ends = [rl["rew"][p][:rl["size"][p]][~rl["live"][p][:rl["size"][p]]] for p in (0, 1)]
        assert len(ends[0]) == len(ends[1]) == 100
        assert np.allclose(ends[0] + ends[1], 0.0)
        assert set(np.round(np.abs(ends[0]) * s.scale).astype(int)) <= {1, 2}


def test_greedy_targets_and_linear_weights(kuhn):
    """sl_target="greedy": each best-response decision adds the greedy row of its information set
    (not the epsilon-greedy action taken), times the weight sl_w."""
    s = NFSPSolver(kuhn, seed=4, **TINY, **PAPER)
    br, avg, greedy = s._tables(0.5)
    assert not np.array_equal(br, greedy)
    tree = kuhn.tree
    sl = {k: np.zeros_like(v) for k, v in s.sl.items()}
    rl = {k: np.zeros_like(v) for k, v in s.rl.items()}
    _self_play(tree.player, tree.infoset, s.seq0, tree.first_child, tree.n_children, tree.edge_prob, tree.payoff,
               s.scale, br, avg, greedy, 7.0, 1.0, 4, 1, 200, rl["ids"], rl["act"], rl["rew"], rl["next"], rl["live"],
               rl["pos"], rl["size"], sl["ids"], sl["targets"], sl["seen"], sl["sum"])
    for p in (0, 1):
        t = s.trees[p]
        rows = np.zeros((t.n_infosets, s.width))
        for i in range(t.n_infosets):
            f = s.offsets[p] + t.infoset_first[i]
            rows[i, :t.infoset_size[i]] = greedy[f:f + t.infoset_size[i]]
        n = int(sl["seen"][p])
        assert np.array_equal(sl["targets"][p][:n], rows[sl["ids"][p][:n]])
        visits = np.bincount(sl["ids"][p][:n], minlength=t.n_infosets)
        assert np.allclose(sl["sum"][p][:t.n_infosets], 7.0 * visits[:, None] * rows)


def test_reservoir_same_seed_and_resume(kuhn):
    opts = {**TINY, **PAPER, "features": "cards", "double": False, "rl_decay": 0, "rl_loss": "huber"}
    a = NFSPSolver(kuhn, seed=1, **opts).run(20, [20])
    half = NFSPSolver(kuhn, seed=1, **opts)
    half.run(8)
    back = NFSPSolver(kuhn, seed=1, **opts)
    back.load_state_dict(half.state_dict())
    assert _drop_cpu(back.run(20)) == _drop_cpu(a)
    with pytest.raises(ZerosumError, match="the saved run used features='cards'"):
        NFSPSolver(kuhn, **TINY).load_state_dict(half.state_dict())


def test_defaults_learn_on_kuhn(kuhn):
    """The default settings, 200 iterations (205 k hands, a few seconds): the average policy's exact
    NashConv is well below the uniform policy's (0.917) at both checkpoints (0.20 and 0.21 for
    seed 0: early on it wobbles; a learner that does not learn stays near the uniform policy, where
    the networks start)."""
    from zerosum.core.evaluation import evaluate
    from zerosum.core.policy import TabularPolicy

    uniform = evaluate(kuhn, TabularPolicy.uniform(kuhn)).nash_conv
    rows = NFSPSolver(kuhn, seed=0).run(200, [100, 200])
    assert uniform > 0.9
    assert all(r["nash_conv_average"] < 0.5 * uniform for r in rows)
    assert rows[1]["episodes"] == 200 * 1024


def test_bad_options(kuhn):
    with pytest.raises(ZerosumError, match="sl_fit must be reservoir or aggregate"):
        NFSPSolver(kuhn, sl_fit="table")
    with pytest.raises(ZerosumError, match="sl_target must be action, greedy or softmax"):
        NFSPSolver(kuhn, sl_target="best")
    with pytest.raises(ZerosumError, match="sl_weight must be uniform or linear"):
        NFSPSolver(kuhn, sl_weight="square")
    with pytest.raises(ZerosumError, match="rl_decay must be a non-negative integer"):
        NFSPSolver(kuhn, rl_decay=-1)
    with pytest.raises(ZerosumError, match="rl_loss must be huber or squared"):
        NFSPSolver(kuhn, rl_loss="abs")
    with pytest.raises(ZerosumError, match="sl_updates must be a positive integer"):
        NFSPSolver(kuhn, sl_updates=0)
    with pytest.raises(ZerosumError, match="hands must be a positive integer"):
        NFSPSolver(kuhn, hands=0)
    with pytest.raises(ZerosumError, match="anticipatory must be a number in"):
        NFSPSolver(kuhn, anticipatory=1.5)


def test_defaults_by_game_size(kuhn):
    """features, hidden, replay and anticipatory left at their defaults follow the game's size:
    Kuhn (12 information sets) gets one-hot inputs, one layer of 64, a ring of 50,000 and eta 0.05,
    number for number the run with those written out; Leduc (288) gets its card features, two
    layers of 128, a ring of 200,000, eta 0.1 and one average-network step per iteration (Kuhn 16).
    The state stores the resolved values, so a run
    with other ones is refused."""
    from zerosum.solvers.nfsp import LARGE_DEFAULTS, SMALL_DEFAULTS, resolve_defaults

    leduc = compiled(load_game("leduc"))
    assert resolve_defaults(kuhn) == SMALL_DEFAULTS
    assert resolve_defaults(leduc) == LARGE_DEFAULTS
    assert resolve_defaults(leduc, features="onehot", hidden=(8,), replay=7) == {
        "features": "onehot", "hidden": (8,), "replay": 7, "anticipatory": 0.1, "sl_updates": 1}
    assert resolve_defaults(leduc, anticipatory=0.3)["anticipatory"] == 0.3
    assert resolve_defaults(kuhn, hidden="auto")["hidden"] == (64,)
    assert (SMALL_DEFAULTS["replay"], LARGE_DEFAULTS["replay"]) == (50000, 200000)
    assert (SMALL_DEFAULTS["anticipatory"], LARGE_DEFAULTS["anticipatory"]) == (0.05, 0.1)
    assert (SMALL_DEFAULTS["sl_updates"], LARGE_DEFAULTS["sl_updates"]) == (16, 1)
    tiny = {k: v for k, v in TINY.items() if k not in ("hidden", "replay")}
    a = NFSPSolver(kuhn, seed=5, **tiny)
    assert a.rl["ids"].shape == (2, 50000) and a.extra_info()["options"]["replay"] == 50000
    assert a.anticipatory == 0.05
    a = a.run(10, [10])
    b = NFSPSolver(kuhn, seed=5, features="onehot", hidden=[64], replay=50000, anticipatory=0.05, sl_updates=16,
                   **tiny).run(10, [10])
    assert _drop_cpu(a) == _drop_cpu(b)
    s = NFSPSolver(leduc, seed=5, **tiny)
    assert s.extra_info()["options"]["features"] == "auto" and s.extra_info()["options"]["hidden"] == [128, 128]
    assert s.extra_info()["options"]["replay"] == 200000 and s.extra_info()["options"]["anticipatory"] == 0.1
    assert s.feats[0].shape[1] < s.trees[0].n_infosets  # the card encoding, not one-hot
    assert s.extra_info()["options"]["sl_updates"] == 1 and s.sl_updates == 1
    assert [w.shape for w, _ in s.q_params[0]] == [(s.feats[0].shape[1], 128), (128, 128), (128, s.width)]
    with pytest.raises(ZerosumError, match="the saved run used features='auto', not 'onehot'"):
        NFSPSolver(leduc, features="onehot", **tiny).load_state_dict(s.state_dict())


def test_sl_updates_are_the_average_networks_steps(kuhn):
    """One iteration takes ``sl_updates`` full-batch Adam steps on the average network (not
    ``updates``): the network after it is the aggregate fit of that many steps, from the network
    before it, on the sums the iteration's hands left; a state saved before the option existed
    (no ``sl_updates`` among its options) resumes with ``updates`` steps, what it ran."""
    import jax
    import jax.numpy as jnp

    from zerosum.deep.training import batch_steps, fit_trainer

    s = NFSPSolver(kuhn, seed=4, sl_updates=3, **TINY)
    before = [list(p) for p in s.avg_params]
    s.iterate(1)
    fit = fit_trainer("xent", s.sl_learning_rate, 1, 3, False, True)[1]
    opt = batch_steps("xent", s.sl_learning_rate)[0]
    for p in (0, 1):
        n = s.trees[p].n_infosets
        sums = s.sl["sum"][p, :n]
        total = sums.sum(axis=1)
        mean = sums / np.where(total > 0, total, 1.0)[:, None]
        want, _, _ = fit(before[p], opt.init(before[p]), jnp.asarray(s.feats[p]), jnp.asarray(s.legal[p]),
                         jnp.arange(n, dtype=jnp.int32), jnp.asarray(mean, dtype=jnp.float32),
                         jnp.asarray(total, dtype=jnp.float32), jnp.int32(n), jax.random.PRNGKey(0))
        for (w, b), (w2, b2) in zip(s.avg_params[p], want):
            assert np.array_equal(np.asarray(w), np.asarray(w2)) and np.array_equal(np.asarray(b), np.asarray(b2))
    other = NFSPSolver(kuhn, seed=4, sl_updates=2, **TINY)
    other.iterate(1)
    assert not np.array_equal(np.asarray(other.avg_params[0][0][0]), np.asarray(s.avg_params[0][0][0]))
    old = NFSPSolver(kuhn, seed=4, sl_updates=TINY["updates"], **TINY)
    old.iterate(1)
    state = old.state_dict()
    options = json.loads(str(state["options"]))
    del options["sl_updates"]
    state["options"] = np.array(json.dumps(options))
    NFSPSolver(kuhn, seed=4, sl_updates=TINY["updates"], **TINY).load_state_dict(state)
    with pytest.raises(ZerosumError, match="sl_updates"):
        NFSPSolver(kuhn, seed=4, sl_updates=5, **TINY).load_state_dict(state)
