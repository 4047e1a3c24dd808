"""The memory of public-tree policies: ``normalized`` gathers in chunks (no temporaries the size of
the arrays), ``from_sums(in_place=True)`` reuses the caller's arrays, and ``save`` streams the JSON
node by node (never the whole text, nor every probability as a Python float)."""

from __future__ import annotations

import json
import tracemalloc

import numpy as np
import pytest

from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree import policy as policy_module
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import DECISION
from zerosum.public_tree.policy import PublicPolicy, normalized
from zerosum.public_tree.solver import public_solver_class

TURN = {"board": "Ks7d2c9h", "range0": "AA,KK,JJ,T9s,76s", "range1": "QQ,AK,98s,TT", "raises": 1}


@pytest.fixture(scope="module")
def tree():
    return public_tree(HoldemGame(**TURN))


def per_node(tree, p, sums):
    """The same normalization, one node at a time (an independent loop)."""
    out = np.empty(len(sums))
    n = tree.n_hands[p]
    for node in tree.decision_nodes(p):
        na, o = int(tree.n_children[node]), int(tree.offset[node])
        block = np.maximum(np.asarray(sums[o:o + na * n], dtype=np.float64).reshape(na, n), 0.0)
        total = block[0].copy()
        for a in range(1, na):
            total += block[a]
        out[o:o + na * n] = np.where(total > 0, block / np.where(total > 0, total, 1.0), 1.0 / na).ravel()
    return out


def test_chunked_normalization_is_exact_and_small(tree, monkeypatch):
    monkeypatch.setattr(policy_module, "CHUNK", 1024)  # many chunks on this small tree
    rng = np.random.default_rng(3)
    sums = [rng.normal(size=n) * (rng.random(n) < 0.7) for n in tree.infoset_actions()]
    sums[0][: tree.n_hands[0] * 2] = -1.0  # a node with no positive sum (the root's two actions): uniform
    expected = [per_node(tree, p, sums[p]) for p in (0, 1)]
    for p in (0, 1):
        assert np.array_equal(normalized(tree, p, sums[p]), expected[p])
        assert np.array_equal(normalized(tree, p, sums[p].astype(np.float32)), per_node(tree, p, sums[p].astype(np.float32)))
    copies = [s.copy() for s in sums]
    tracemalloc.start()
    try:
        policy = PublicPolicy.from_sums(tree, copies, in_place=True)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert all(a is b for a, b in zip(policy.probs, copies))  # the caller's arrays, normalized where they are
    assert all(np.array_equal(a, b) for a, b in zip(policy.probs, expected))
    # whole-size gathers held an int64 index and three float64 blocks the size of the arrays
    assert peak < 0.25 * sum(s.nbytes for s in sums)


def test_a_solvers_policy_leaves_the_solver_alone(tree):
    # (its float64 sums are what its next iterations read: normalized into new arrays)
    s = public_solver_class("cfr+", "float64")(tree)
    s.iterate(3)
    before = [a.copy() for a in s.average]
    pol = s.average_policy()
    assert all(np.array_equal(a, b) for a, b in zip(s.average, before))
    assert all(np.array_equal(pol.probs[p], per_node(tree, p, s.average[p])) for p in (0, 1))
    assert all(np.array_equal(a, b) for a, b in zip(s.average_policy().probs, pol.probs))


def test_save_streams_the_same_bytes(tree, tmp_path):
    rng = np.random.default_rng(5)
    pol = PublicPolicy.from_sums(tree, [rng.random(n) for n in tree.infoset_actions()])
    path = tmp_path / "p.json"
    pol.save(tmp_path / "warm.json")  # the first call's imports and caches are not the file's cost
    tracemalloc.start()
    try:
        pol.save(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    text = path.read_text()
    assert text == json.dumps(pol.to_dict(), separators=(",", ":"))  # the format, byte for byte
    assert peak < len(text) / 8  # built whole, the text alone (and the lists before it) were larger
    back = PublicPolicy.from_dict(tree, json.loads(text))
    assert np.abs(back.probs[0] - pol.probs[0]).max() < 1e-8
    assert len(json.loads(text)["nodes"]) == int((tree.kind == DECISION).sum())
