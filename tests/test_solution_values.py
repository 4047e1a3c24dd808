"""A solution file's recorded values and lazy labels (issue 52): ``evaluate --node`` at the root
and its children reads the counterfactual values the file records (computed when it was
written, on the probabilities as stored) and gives the report the passes give, bit for bit;
other nodes run the pass on the subtree's 16-bit tables alone (the same figures as on the whole
policy); the stored tree's labels are kept as text (:class:`~zerosum.solutions.solution_file.Lines`)
and read as the tuple."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum.cli
from zerosum.cli.imperfect import load_spot_game
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import DECISION
from zerosum.public_tree.policy import PublicPolicy
from zerosum.solutions import solution_file
from zerosum.solutions.analysis import node_analysis, to_json
from zerosum.solutions.saved import SavedPolicy, open_solution, save_policy
from zerosum.solutions.solution_file import Lines, SolutionReader

SPOT = {"board": "Td9d6hQc", "pot": 100, "stack": 200,
        "ranges": ["QQ,99,AQs,KJs,87s", "TT,AKs,QJs,A5s,98s"],
        "streets": {"turn": {"bet": ["50%"], "raise": ["a"]}, "river": {"bet": ["50%"], "raise": []}}}


def cli(*args):
    return CliRunner().invoke(zerosum.cli.cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    d = tmp_path_factory.mktemp("values")
    spot = d / "spot.json"
    spot.write_text(json.dumps(SPOT))
    r = cli("solve", "holdem", "--spot", spot, "-a", "dcfr", "-n", "20", "--save", d / "p.zsp", "--json")
    assert r.exit_code == 0, r.output
    game = load_spot_game("holdem", (), str(spot))
    return d / "p.zsp", game, public_tree(game)


def _fresh(path, tree, recorded=True):
    policy = SavedPolicy(tree, SolutionReader(path))
    if not recorded:
        policy._recorded = {}  # as a file without recorded values: the passes run
    return policy


def test_recorded_values_round_trip(saved):
    path, _, tree = saved
    reader = SolutionReader(path)
    rec = reader.header["values"]
    first, count = int(tree.first_child[0]), int(tree.n_children[0])
    assert rec["nodes"] == [0, *range(first, first + count)]
    values = reader.recorded_values(tree.n_hands)
    policy = open_solution(path, tree)
    stored = [solution_file.quantize(tree, p, policy.probs[p]) for p in (0, 1)]
    nodes, cfv = solution_file.record_values(tree, stored, "uint16")
    assert nodes == rec["nodes"]
    for k, node in enumerate(nodes):
        for p in (0, 1):
            assert values[node][p].dtype == np.float64 and values[node][p].shape == (tree.n_hands[p],)
            assert np.array_equal(values[node][p], cfv[p][k])


@pytest.mark.parametrize("label", ["::", "::c", "::b50"])
def test_recorded_report_is_the_passes(saved, label):
    """At the root and its children, the report from the recorded values is the passes' report."""
    path, _, tree = saved
    if label not in tree.labels:
        pytest.skip(f"no {label}")
    with_values = _fresh(path, tree)
    without = _fresh(path, tree, recorded=False)
    a = to_json(node_analysis(tree, with_values, label))
    assert with_values._recorded and tree.labels.index(label) in with_values._recorded
    b = to_json(node_analysis(tree, without, label))
    assert a == b


def test_subtree_tables_only(saved):
    """Below the root's children: the pass reads the subtree's 16-bit tables, packed, and gives
    the figures of the pass on the whole policy's probabilities (to 1e-12)."""
    path, _, tree = saved
    policy = _fresh(path, tree)
    whole = PublicPolicy(tree, [p.copy() for p in open_solution(path, tree).probs])
    deep = [int(n) for n in np.flatnonzero(tree.kind == DECISION) if int(tree.parent[n]) > 0][::max(1, tree.n_nodes // 40)]
    assert deep
    for node in deep:
        a, b = node_analysis(tree, policy, node), node_analysis(tree, whole, node)
        for pa, pb in zip(a["players"], b["players"]):
            for key in ("reach", "probability", "ev", "equity"):
                assert np.allclose(pa[key], pb[key], rtol=1e-12, atol=1e-12, equal_nan=True), (node, key)


def test_lazy_labels(saved, monkeypatch):
    """A stored tuple of more than LAZY_LINES lines is read as Lines: the same items, the same
    reports; and a tree read so is written again as it was."""
    path, game, tree = saved
    expected = json.loads(cli("evaluate", "holdem", path, "--node", "::c", "--json").output)
    monkeypatch.setattr(solution_file, "LAZY_LINES", 0)
    stored = open_solution(path, game=game).tree
    assert isinstance(stored.labels, Lines) and isinstance(stored.action_labels, Lines)
    assert stored.labels == tree.labels and stored.action_labels == tree.action_labels
    assert list(stored.labels) == list(tree.labels) and len(stored.labels) == tree.n_nodes
    for k in [0, 1, tree.n_nodes // 2, tree.n_nodes - 1, *range(0, tree.n_nodes, 97)]:
        assert stored.labels[k] == tree.labels[k] and stored.action_labels[k] == tree.action_labels[k]
        assert stored.labels.index(tree.labels[k]) == k
    assert "nonsense" not in stored.labels
    again = path.parent / "again.zsp"
    save_policy(open_solution(path, game=game), again)
    reread = open_solution(again, game=game)
    assert reread.reader.header["tree"] is not None and reread.tree.labels == tree.labels
    assert reread.tree.action_labels == tree.action_labels
    import zerosum.cli.public_tree as cli_public_tree

    cli_public_tree._LOADED.clear()
    r = cli("evaluate", "holdem", path, "--node", "::c", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == expected
    r = cli("evaluate", "holdem", path, "--node", "::nonsense")
    assert r.exit_code == 1 and "no public node" in r.output and r.output.count("\n") == 1


def test_lines():
    items = [":", ":3c:", "", ":3c:cc/", "x", "", "::b", "x"]
    for step in (1, 3, 1 << 22):
        for scans in (0, 2, 100):
            lines = Lines("\n".join(items).encode())
            lines.STEP, lines.SCANS = step, scans
            for k in (3, 0, 7, 2, 5, 1, 6, 4, -1):
                assert lines[k] == items[k]
            fresh = Lines("\n".join(items).encode())
            fresh.STEP = step
            for x in items:
                assert fresh.index(x) == items.index(x) and fresh[items.index(x)] == x
            assert list(lines) == items and lines == tuple(items) and lines[1:3] == tuple(items[1:3])
    words = Lines(b"c b a\n\nc\nc b a", words=True)
    assert list(words) == [("c", "b", "a"), (), ("c",), ("c", "b", "a")] and words[0] is words[3]
    assert words.index(("c",)) == 2 and words.index(()) == 1
