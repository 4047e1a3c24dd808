"""Writing a solution file (.zsp): a uint16 file's recorded evaluation runs the pass on the 16-bit
entries themselves (no float64 copy of the stored probabilities: 1.9 GB of the 7.2 GB peak of
saving TexasSolver's flop), and gives the figures of the decoded probabilities; ``zerosum
warm-up`` writes one and reads a node of it (the pass of those types compiled there, not on a
user's first ``evaluate --node``)."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import public_solver
from zerosum.solutions import solution_file
from zerosum.solutions.saved import open_solution

TURN = {"board": "Ks7d2c9h", "range0": "QQ+,AK,T9s", "range1": "JJ+,AQ+,87s", "raises": 1}


@pytest.fixture(scope="module")
def solved():
    tree = public_tree(HoldemGame(**TURN))
    s = public_solver("dcfr", tree)
    s.run(20)
    return tree, s.average_policy()


def test_uint16_evaluation_reads_the_stored_entries_not_a_decoded_copy(solved, tmp_path, monkeypatch):
    tree, policy = solved
    real = solution_file.decode

    def no_uint16(block):
        assert block.dtype != np.uint16, "write_solution decoded the uint16 entries into float64"
        return real(block)

    monkeypatch.setattr(solution_file, "decode", no_uint16)
    header = solution_file.write_solution(policy, tmp_path / "p.zsp")
    monkeypatch.setattr(solution_file, "decode", real)
    assert header["encoding"] == "uint16"
    saved = open_solution(tmp_path / "p.zsp", tree)
    expect = PublicPolicy(tree, [saved.probs[0].copy(), saved.probs[1].copy()]).evaluate()
    assert expect["nash_conv"] > 1e-3  # 20 iterations: not an equilibrium, a figure to compare
    for key in ("value", "nash_conv"):
        assert saved.evaluation[key] == pytest.approx(expect[key], abs=1e-9)
    assert saved.evaluation["best_response_values"] == pytest.approx(expect["best_response_values"], abs=1e-9)


def test_float32_evaluation_is_the_stored_probabilities(solved, tmp_path):
    tree, policy = solved
    solution_file.write_solution(policy, tmp_path / "f.zsp", encoding="float32")
    saved = open_solution(tmp_path / "f.zsp", tree)
    expect = PublicPolicy(tree, [saved.probs[0].copy(), saved.probs[1].copy()]).evaluate()
    for key in ("value", "nash_conv"):
        assert saved.evaluation[key] == pytest.approx(expect[key], abs=1e-9)


def test_warm_up_writes_a_solution_file_and_reads_a_node(capsys):
    from zerosum.cli import warmup

    runs = tuple(r for r in warmup.MORE_RUNS if "--save" in r[1] or r[1][0] == "evaluate")
    assert [r[1][0] for r in runs] == ["solve", "evaluate"]
    assert any(a.endswith(".zsp") for a in runs[0][1]) and "--node" in runs[1][1]
    warmup._run(runs)
    err = capsys.readouterr().err
    assert "failed" not in err, err
    for what, _ in runs:
        assert f"  {what}: " in err


def test_save_frees_the_isomorphic_policy_before_writing_the_whole_trees(tmp_path, monkeypatch):
    """``solve holdem --save F.zsp`` on a suit-isomorphic tree: the policy of the isomorphic tree
    (as large as the solver's sums, in float64) is gone once it is mapped onto the whole tree, so
    it is not held while the file is written (TexasSolver's flop: 1.1 GB)."""
    import gc
    import json
    import weakref

    from click.testing import CliRunner

    import zerosum.cli
    from zerosum.cli.warmup import SPOTS

    spot = tmp_path / "flop.json"  # QsJh2h: diamonds and clubs alike
    spot.write_text(json.dumps({"name": "flop", **SPOTS["flop"]}))
    mapped, alive_at_write = [], []
    on_full_tree = PublicPolicy.on_full_tree

    def remember(self, full):
        if self.tree.iso is not None:
            mapped.append(weakref.ref(self))
        return on_full_tree(self, full)

    write = solution_file.write_solution

    def check(policy, path, **kw):
        gc.collect()
        alive_at_write.append([r() is not None for r in mapped])
        return write(policy, path, **kw)

    monkeypatch.setattr(PublicPolicy, "on_full_tree", remember)
    monkeypatch.setattr(solution_file, "write_solution", check)
    r = CliRunner().invoke(zerosum.cli.cli, ["solve", "holdem", "--spot", str(spot), "-n", "2", "--save",
                                             str(tmp_path / "t.zsp"), "--option", "dtype=float32", "--json"])
    assert r.exit_code == 0, r.output
    assert mapped, "the turn spot was not solved on a suit-isomorphic tree"
    assert alive_at_write == [[False] * len(mapped)]
    assert (tmp_path / "t.zsp").exists()
