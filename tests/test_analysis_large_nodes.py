"""The analysis at a public node (``evaluate --node``) runs the compiled depth-first pass from that
node (vectors per depth: a flop's root in bounded memory) and gives the figures of the NumPy pass
over [nodes x hands] arrays (``analysis.numpy_node_values``, the reference kept for this test and
for locked best responses) to 1e-9: per-hand values in EXPECT and BEST_RESPONSE, and the whole
report (EV, equity, reach, weight, strategy, grid, categories), on hold'em (the sweep), the poker
family (ranks), a suit-isomorphic tree (its mirrors) and a policy read from a uint16 solution file
(the pass reads its 16-bit entries)."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import DECISION
from zerosum.public_tree.solver import PublicTreeSolver, public_solver
from zerosum.solutions import analysis
from zerosum.solutions.saved import open_solution, save_policy
from zerosum.solvers.rules import DCFR

TURN = {"board": "Ks7d2c9h", "range0": "AsAh,KhQh,8s8h", "range1": "QsJs,9d8d,AdKd", "raises": 1}
FLOP_BETTING = {"flop": {"bet": ["50%"], "raise": ["a"]}, "turn": {"bet": ["50%"]}, "river": {"bet": []}}


def close(x, y, scale=0.0):
    """x and y equal to 1e-9 of the larger magnitude (NaN where both are); ``scale``: the size of the
    terms the figures are sums of (a value that cancels to ~0 is compared against it)."""
    x, y = np.asarray(x, dtype=np.float64), np.asarray(y, dtype=np.float64)
    assert x.shape == y.shape
    assert np.array_equal(np.isnan(x), np.isnan(y))
    good = ~np.isnan(y)
    if not good.any():
        return True
    tol = 1e-9 * max(float(np.abs(y[good]).max()), scale, 1e-300)
    return bool(np.abs(x[good] - y[good]).max() <= tol)


def check_values(tree, policy, nodes):
    stake = float(np.abs(tree.stake).max())
    for n in nodes:
        for br in (None, 0, 1):
            a = analysis.node_values(tree, policy, int(n), best_response=br)
            b = analysis.numpy_node_values(tree, policy, int(n), best_response=br)
            for p in (0, 1):
                assert close(a["reach"][p], b["reach"][p]) and close(a["denominator"][p], b["denominator"][p])
                scale = stake * float(np.max(b["denominator"][p], initial=0.0))
                assert close(a["cfv"][p], b["cfv"][p], scale), (tree.labels[n], br, p, a["cfv"][p], b["cfv"][p])


def check_reports(tree, policy, labels, monkeypatch, with_equity=True):
    new = [analysis.node_analysis(tree, policy, label, with_equity=with_equity) for label in labels]
    with monkeypatch.context() as m:
        m.setattr(analysis, "node_values", analysis.numpy_node_values)
        old = [analysis.node_analysis(tree, policy, label, with_equity=with_equity) for label in labels]
    for a, b in zip(new, old):
        same(a, b, a["label"])


def same(a, b, where):
    if isinstance(b, dict):
        assert a.keys() == b.keys(), where
        for k in b:
            same(a[k], b[k], f"{where}/{k}")
    elif isinstance(b, (list, tuple)) and b and not isinstance(b[0], (int, float, np.floating)):
        assert len(a) == len(b), where
        for k, (x, y) in enumerate(zip(a, b)):
            same(x, y, f"{where}[{k}]")
    elif isinstance(b, np.ndarray) or (isinstance(b, (list, tuple)) and b):
        # chips and probabilities: at least 1e-9 absolute (an EV that cancels to 0 read 1.9e-16 in NumPy)
        assert close(a, b, 1.0), where
    else:
        assert a == b or (isinstance(b, float) and np.isclose(a, b, rtol=1e-9, atol=0)), (where, a, b)


@pytest.fixture(scope="module")
def turn():
    tree = public_tree(HoldemGame(**TURN))
    s = public_solver("dcfr", tree)
    s.run(30)
    return tree, s.average_policy()


def test_holdem_values_at_every_node(turn):
    tree, policy = turn
    check_values(tree, policy, range(tree.n_nodes))


def test_holdem_report(turn, monkeypatch):
    tree, policy = turn
    labels = ["::", "::c", "::cr", ":2d:cc/", ":2d:cc/c", ":Qh:crc/cr", ":Qh:cc/crc"]
    check_reports(tree, policy, labels, monkeypatch)


def test_poker_family():
    tree = public_tree(load_game("poker", ranks=4, copies=2, raises=2))
    s = public_solver("cfr+", tree)
    s.run(30)
    check_values(tree, s.average_policy(), range(tree.n_nodes))


def test_suit_isomorphic_tree(monkeypatch):
    """QsJh2h: clubs and diamonds alike (mirror deals at the turn and river); the values of the
    isomorphic tree's nodes, and its reports against the whole tree's (the agreement of
    tests/test_isomorphism_agreement.py)."""
    g = load_game("holdem", board="QsJh2h", pot=10, stack=10, betting=FLOP_BETTING, range0="AA,KK,QQ,AK,AQ,KQ,JJ,TT",
                  range1="AA,KK,QQ,AK,AQ,KQ,JJ,TT")
    iso, full = public_tree(g, isomorphism=True), public_tree(g)
    assert iso.iso is not None
    s = PublicTreeSolver(iso, DCFR(), dtype="float64")
    s.iterate(10)
    policy = s.average_policy()
    decisions = np.flatnonzero(iso.kind == DECISION)
    check_values(iso, policy, sorted({0, *decisions[::max(len(decisions) // 40, 1)].tolist(), iso.n_nodes - 1}))
    labels = ["::", "::b5", ":3c:cc/", ":3c:cc/b5"]
    check_reports(iso, policy, labels, monkeypatch, with_equity=False)
    expanded = policy.on_full_tree(full)
    for label in labels:
        a = analysis.node_analysis(iso, policy, label, with_equity=False)
        b = analysis.node_analysis(full, expanded, label, with_equity=False)
        assert a["reach_probability"] == pytest.approx(b["reach_probability"], abs=1e-12)
        for p in (0, 1):
            assert np.allclose(a["players"][p]["ev"], b["players"][p]["ev"], atol=1e-12, rtol=0, equal_nan=True)


def test_a_uint16_solution_file(turn, tmp_path, monkeypatch):
    """The pass reads the file's 16-bit entries (only the blocks below the node); the figures are
    those of the probabilities the reader decodes."""
    tree, policy = turn
    path = tmp_path / "turn.zsp"
    save_policy(policy, path)
    saved = open_solution(path, tree)
    for label in ("::", "::c", ":Qh:cc/", ":Qh:cc/c"):
        n = analysis.find_node(tree, label)
        check_values(tree, saved, [n])
    check_reports(tree, open_solution(path, tree), ["::", ":2d:cc/c"], monkeypatch)
    fresh = open_solution(path, tree)
    analysis.node_values(tree, fresh, analysis.find_node(tree, ":Qh:cc/c"))
    assert fresh._probs is None  # (not every block read)


def test_locked_best_response_keeps_the_numpy_pass(turn):
    tree, policy = turn
    node = analysis.find_node(tree, "::")
    locked = {node: np.array([True, False, True])}
    a = analysis.best_response_value(tree, policy, 0, locked=locked)
    vals = analysis.numpy_node_values(tree, policy, 0, best_response=0, locked=locked)
    assert a == float(vals["reach"][0] @ vals["cfv"][0])
