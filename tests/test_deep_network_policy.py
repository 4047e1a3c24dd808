"""Network policies tabulated over every information set, evaluated exactly, saved without pickle."""

import numpy as np
import pytest

from zerosum import ZerosumError, compiled, evaluate, load_game
from zerosum.core.policy import TabularPolicy
from zerosum.deep.network_policy import (
    Network,
    load_networks,
    network_path,
    save_network_policy,
    save_networks,
    strategy_from_outputs,
    tabulate,
)
from zerosum.learning.features import infoset_features


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


def _linear(game, p, table):
    """A network with no hidden layer whose outputs on one-hot features are ``table``'s rows."""
    n = game.treeplexes[p].n_infosets
    return Network(game.game_id, p, "softmax", [(np.asarray(table, np.float32), np.zeros(table.shape[1], np.float32))],
                   "onehot") if table.shape[0] == n else None


def test_rules_turn_outputs_into_the_right_probabilities(kuhn):
    n = kuhn.treeplexes[0].n_infosets
    out = np.zeros((n, 2))
    out[0] = [np.log(3.0), 0.0]  # softmax: 3/4, 1/4
    out[1] = [-1.0, -2.0]  # regret matching, nothing positive: the larger advantage
    out[2] = [1.0, 3.0]  # regret matching: 1/4, 3/4
    soft = strategy_from_outputs(kuhn, 0, out, "softmax")
    rm = strategy_from_outputs(kuhn, 0, out, "regret-matching")
    greedy = strategy_from_outputs(kuhn, 0, out, "greedy")
    f = kuhn.treeplexes[0].infoset_first
    assert soft[0] == 1.0 and np.allclose(soft[f[0]:f[0] + 2], [0.75, 0.25])
    assert np.array_equal(rm[f[1]:f[1] + 2], [1.0, 0.0])
    assert np.allclose(rm[f[2]:f[2] + 2], [0.25, 0.75])
    assert np.array_equal(greedy[f[2]:f[2] + 2], [0.0, 1.0])
    assert np.allclose(rm[f[3]:f[3] + 2], [1.0, 0.0])  # all zero: the first of the tied largest


def test_tabulated_network_is_the_policy_it_encodes(kuhn):
    """A one-layer network on one-hot features is a table of logits: its tabulation must be the
    softmax of that table, and its NashConv the tabular policy's."""
    rng = np.random.default_rng(0)
    nets, probs = [], []
    for p in (0, 1):
        logits = rng.normal(size=(kuhn.treeplexes[p].n_infosets, 2))
        nets.append(_linear(kuhn, p, logits))
        e = np.exp(logits)
        tree = kuhn.treeplexes[p]
        pi = np.ones(tree.n_sequences)
        for i in range(tree.n_infosets):
            pi[tree.infoset_first[i]:tree.infoset_first[i] + 2] = e[i] / e[i].sum()
        probs.append(pi)
    pol = tabulate(kuhn, nets)
    assert np.allclose(pol.probs[0], probs[0], atol=1e-6) and np.allclose(pol.probs[1], probs[1], atol=1e-6)
    assert evaluate(kuhn, pol).nash_conv == pytest.approx(evaluate(kuhn, TabularPolicy(kuhn, probs)).nash_conv, abs=1e-6)


def test_hidden_layers_on_card_features(kuhn):
    rng = np.random.default_rng(1)
    nets = []
    for p in (0, 1):
        d = infoset_features(kuhn, p).shape[1]
        params = [(rng.normal(size=(d, 8)).astype(np.float32), rng.normal(size=8).astype(np.float32)),
                  (rng.normal(size=(8, 2)).astype(np.float32), np.zeros(2, np.float32))]
        nets.append(Network(kuhn.game_id, p, "regret-matching", params))
    pol = tabulate(kuhn, nets)
    x = infoset_features(kuhn, 0)
    h = np.maximum(x @ nets[0].params[0][0] + nets[0].params[0][1], 0) @ nets[0].params[1][0]
    first = kuhn.treeplexes[0].infoset_first[3]
    pos = np.maximum(h[3], 0)
    want = pos / pos.sum() if pos.sum() > 0 else np.eye(2)[h[3].argmax()]
    assert np.allclose(pol.probs[0][first:first + 2], want, atol=1e-6)


def test_save_and_load_round_trip(kuhn, tmp_path):
    rng = np.random.default_rng(2)
    nets = [_linear(kuhn, p, rng.normal(size=(6, 2))) for p in (0, 1)]
    pol = save_network_policy(tmp_path / "p.json", kuhn, nets)
    assert network_path(tmp_path / "p.json") == tmp_path / "p.npz"
    back = load_networks(tmp_path / "p.npz", kuhn)
    assert [n.sizes for n in back] == [n.sizes for n in nets]
    assert np.array_equal(tabulate(kuhn, back).probs[0], pol.probs[0])
    assert np.allclose(TabularPolicy.load(kuhn, tmp_path / "p.json").probs[1], pol.probs[1], rtol=0, atol=1e-12)
    with np.load(tmp_path / "p.npz", allow_pickle=False) as data:  # plain arrays only
        assert all(data[k].dtype != object for k in data.files)


def test_bad_network_files_are_one_line_errors(kuhn, tmp_path):
    rng = np.random.default_rng(3)
    nets = [_linear(kuhn, p, rng.normal(size=(6, 2))) for p in (0, 1)]
    save_networks(tmp_path / "k.npz", nets)
    leduc = compiled(load_game("leduc"))
    with pytest.raises(ZerosumError, match="trained on 'kuhn', not 'leduc'"):
        load_networks(tmp_path / "k.npz", leduc)
    other = Network("kuhn", 0, "softmax", [(np.zeros((6, 1), np.float32), np.zeros(1, np.float32))], "onehot")
    with pytest.raises(ZerosumError, match="has 1 outputs"):
        tabulate(kuhn, [other, nets[1]])
    wide = Network("kuhn", 0, "softmax", [(np.zeros((5, 2), np.float32), np.zeros(2, np.float32))], "onehot")
    with pytest.raises(ZerosumError, match="takes 5 inputs"):
        tabulate(kuhn, [wide, nets[1]])
    (tmp_path / "junk.npz").write_text("not a zip")
    with pytest.raises(ZerosumError, match="not a zerosum network file"):
        load_networks(tmp_path / "junk.npz")
    np.savez(tmp_path / "arrays.npz", a=np.zeros(2))
    with pytest.raises(ZerosumError, match="not a zerosum network file"):
        load_networks(tmp_path / "arrays.npz")
    with pytest.raises(ZerosumError, match="unknown output rule"):
        strategy_from_outputs(kuhn, 0, np.zeros((6, 2)), "argmin")
