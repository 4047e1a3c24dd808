"""Saved hold'em solutions as compact solution files (``--save FILE.zsp``,
zerosum.solutions.solution_file): the probabilities round-trip (uint16 within 1 / 65535, float32
exactly), ``evaluate --node`` gives the JSON's figures, the file is at most a quarter of the
JSON's size, one node is read without the other nodes' blocks, and a damaged file is refused in
one line."""

from __future__ import annotations

import json
import zipfile

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum.cli
from zerosum.cli.imperfect import load_spot_game
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import DECISION
from zerosum.public_tree.policy import PublicPolicy
from zerosum.solutions import solution_file
from zerosum.solutions.saved import open_solution, save_policy
from zerosum.solutions.solution_file import SolutionReader

SPOT = {"board": "Td9d6hQc", "pot": 100, "stack": 200,
        "ranges": ["QQ,99,AQs,KJs,87s", "TT,AKs,QJs,A5s,98s"],
        "streets": {"turn": {"bet": ["50%"], "raise": ["a"]}, "river": {"bet": ["50%"], "raise": []}}}


def cli(*args):
    return CliRunner().invoke(zerosum.cli.cli, [str(a) for a in args])


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    d = tmp_path_factory.mktemp("solution")
    spot = d / "spot.json"
    spot.write_text(json.dumps(SPOT))
    for name in ("p.json", "p.zsp"):  # the same deterministic solve, saved both ways
        r = cli("solve", "holdem", "--spot", spot, "-a", "dcfr", "-n", "40", "--save", d / name, "--json")
        assert r.exit_code == 0, r.output
    game = load_spot_game("holdem", (), str(spot))
    return d, game, public_tree(game)


def json_policy(d, tree):
    return PublicPolicy.from_dict(tree, json.loads((d / "p.json").read_text()))


def test_round_trip_uint16_and_float32(saved, tmp_path):
    d, _game, tree = saved
    policy = json_policy(d, tree)
    u16 = open_solution(d / "p.zsp", tree)
    assert u16.reader.header["encoding"] == "uint16"
    for p in (0, 1):
        assert np.max(np.abs(u16.probs[p] - policy.probs[p])) <= 1 / 65535 + 1e-9
    for node in np.flatnonzero(tree.kind == DECISION):  # each hand's probabilities add up to 1
        assert np.allclose(u16.table(int(node)).sum(axis=0), 1.0, atol=1e-12)
    save_policy(policy, tmp_path / "f.bin", encoding="float32")  # any name: known by its first bytes
    f32 = open_solution(tmp_path / "f.bin", tree)
    for p in (0, 1):
        assert np.array_equal(f32.probs[p], policy.probs[p].astype(np.float32).astype(np.float64))
    # the recorded evaluation is the evaluation of the probabilities as stored
    ev = PublicPolicy(tree, [u16.probs[0].copy(), u16.probs[1].copy()]).evaluate()
    assert u16.evaluation["nash_conv"] == pytest.approx(ev["nash_conv"], abs=1e-9)
    assert u16.evaluation["value"] == pytest.approx(ev["value"], abs=1e-9)


def test_evaluate_node_gives_the_json_figures(saved):
    d, _, tree = saved
    for label in ("::", "::b50", "::c"):
        if label not in tree.labels:
            continue
        out = []
        for name in ("p.json", "p.zsp"):
            r = cli("evaluate", "holdem", d / name, "--node", label, "--json")
            assert r.exit_code == 0, r.output
            out.append(json.loads(r.output))
        a, b = out
        for key in ("value", "nash_conv"):
            assert b[key] == pytest.approx(a[key], abs=1e-2)
        for pa, pb in zip(a["node"]["players"], b["node"]["players"]):
            assert pa["hands"] == pb["hands"]
            for key in ("reach", "weight", "ev", "equity"):
                x = np.array([np.nan if v is None else v for v in pa[key]], dtype=float)
                y = np.array([np.nan if v is None else v for v in pb[key]], dtype=float)
                # (the quantization moves each probability by up to 1.5e-5: chips by hundredths)
                assert np.allclose(x, y, atol=5e-2 if key == "ev" else 1e-3, equal_nan=True), (key, np.nanmax(abs(x - y)))
            if "strategy" in pa:
                assert np.allclose(pa["strategy"], pb["strategy"], atol=1 / 65535 + 1e-9)
    # and without --node: the figures recomputed from the stored probabilities
    a, b = (json.loads(cli("evaluate", "holdem", d / n, "--json").output) for n in ("p.json", "p.zsp"))
    assert b["nash_conv"] == pytest.approx(a["nash_conv"], abs=1e-2)
    text = cli("evaluate", "holdem", d / "p.zsp", "--node", "::")
    assert text.exit_code == 0 and "node '::'" in text.output


def test_a_quarter_of_the_json(saved):
    d, _, _ = saved
    assert (d / "p.zsp").stat().st_size * 4 <= (d / "p.json").stat().st_size


def blocks_of(reader, tree, nodes):
    out = set()
    for n in nodes:
        if tree.kind[n] == DECISION:
            p = int(tree.player[n])
            out.add((p, int(np.searchsorted(reader.starts[p], n, side="right")) - 1))
    return out


def test_one_node_reads_only_its_blocks(saved, tmp_path, monkeypatch):
    d, _game, tree = saved
    monkeypatch.setattr(solution_file, "BLOCK", 1)  # a block per node
    path = tmp_path / "small-blocks.zsp"
    save_policy(json_policy(d, tree), path)
    reference = json.loads(cli("evaluate", "holdem", path, "--node", "::b50", "--json").output)["node"]
    reader = SolutionReader(path)
    assert sum(len(s) for s in reader.starts) == len(np.flatnonzero(tree.kind == DECISION))
    from zerosum.solutions.analysis import subtree

    node = tree.labels.index("::b50")
    path_nodes, n = [], node
    while n > 0:
        n = int(tree.parent[n])
        path_nodes.append(n)
    needed = blocks_of(reader, tree, path_nodes + subtree(tree, node).tolist())
    every = {(p, k) for p in (0, 1) for k in range(len(reader.starts[p]))}
    assert needed and needed != every
    # reading: only the blocks on the path and below are inflated
    policy = open_solution(path, tree)
    from zerosum.solutions.analysis import node_analysis

    read = set()
    block = SolutionReader.block
    monkeypatch.setattr(SolutionReader, "block", lambda self, p, k: read.add((p, k)) or block(self, p, k))
    node_analysis(tree, policy, "::b50")
    assert read and read <= needed  # (the analysis reads the 16-bit blocks below the node itself)
    # damage every other block: the node still reads, the same; the whole policy does not
    raw = bytearray(path.read_bytes())
    with zipfile.ZipFile(path) as z:
        for p, k in every - needed:
            info = z.getinfo(f"p{p}/{k:06d}.npy")
            start = info.header_offset + 30 + len(info.filename) + len(info.extra)
            raw[start:start + info.compress_size] = b"\xff" * info.compress_size
    path.write_bytes(bytes(raw))
    r = cli("evaluate", "holdem", path, "--node", "::b50", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["node"] == reference
    r = cli("evaluate", "holdem", path)
    assert r.exit_code == 1 and r.output.startswith("Error: cannot read") and r.output.count("\n") == 1, r.output


def test_bad_files_one_line(saved, tmp_path):
    d, _, _ = saved
    raw = (d / "p.zsp").read_bytes()
    cases = {"truncated.zsp": raw[:len(raw) // 2], "head-only.zsp": raw[:40],
             "garbage.zsp": raw[:34] + b"\x00" * 200, "empty.zsp": b""}
    for name, data in cases.items():
        (tmp_path / name).write_bytes(data)
        r = cli("evaluate", "holdem", tmp_path / name, "--node", "::")
        assert r.exit_code == 1 and r.output.startswith("Error: ") and r.output.count("\n") == 1, (name, r.output)
    # a solution file of another game
    other = dict(SPOT, pot=120)
    (tmp_path / "other.json").write_text(json.dumps(other))
    r = cli("evaluate", "holdem", d / "p.zsp", "--spot", tmp_path / "other.json")
    assert r.exit_code == 1 and "was made for" in r.output and r.output.count("\n") == 1, r.output


def test_the_tree_is_inside_the_file(saved, monkeypatch):
    """``evaluate --node`` reads the tree stored in the file (no build); the figures of the
    kernels' passes (evaluate without --node) run on a tree built from the game."""
    import dataclasses

    d, game, tree = saved
    stored = open_solution(d / "p.zsp", game=game).tree
    assert stored is not tree and stored.game_id == tree.game_id
    for f in dataclasses.fields(tree):
        if isinstance(getattr(tree, f.name), np.ndarray):
            assert np.array_equal(getattr(stored, f.name), getattr(tree, f.name)), f.name
    assert stored.labels == tree.labels and stored.action_labels == tree.action_labels
    assert stored.hand_labels == tree.hand_labels
    expected = json.loads(cli("evaluate", "holdem", d / "p.zsp", "--node", "::c", "--json").output)

    def no_build(*args, **kwargs):
        raise AssertionError("the public tree was built")

    import zerosum.cli.public_tree as cli_public_tree
    import zerosum.public_tree.compile as compile_module

    monkeypatch.setattr(cli_public_tree, "public_tree", no_build)
    monkeypatch.setattr(compile_module, "public_tree", no_build)
    cli_public_tree._LOADED.clear()
    r = cli("evaluate", "holdem", d / "p.zsp", "--node", "::c", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.output) == expected
