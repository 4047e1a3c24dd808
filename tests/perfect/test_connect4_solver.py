"""The exact Connect Four solver: Pons's test positions, weak mode, analyze, bad input, and small
boards against a plain negamax written independently (lists of columns, no bitboards)."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from zerosum.errors import ZerosumError
from zerosum.perfect.connect4_solver import Connect4Solver

DATA = Path(__file__).resolve().parents[3] / "shared" / "data" / "connect4"
if not DATA.is_dir():
    DATA = Path("/work/shared/data/connect4")

needs_data = pytest.mark.skipif(not DATA.is_dir(), reason="Pons's test sets not found (shared/data/connect4)")


def sample(name: str, count: int) -> list[tuple[str, int]]:
    lines = (DATA / name).read_text().split("\n")
    rows = [line.split() for line in lines if line.strip()][:count]
    return [(m, int(s)) for m, s in rows]


@pytest.fixture(scope="module")
def solver():
    return Connect4Solver(table_size_log2=20)


SETS = [("Test_L3_R1", 40), ("Test_L2_R1", 40), ("Test_L1_R1", 25), ("Test_L2_R2", 8), ("Test_L1_R2", 3)]


@needs_data
@pytest.mark.parametrize("name,count", SETS)
def test_strong_scores_match_pons_test_sets(solver, name, count):
    for moves, expected in sample(name, count):
        solver.reset()
        assert solver.solve(moves) == expected, moves
        assert solver.nodes > 0


@needs_data
@pytest.mark.parametrize("name,count", SETS[:4])
def test_weak_scores_are_the_signs(solver, name, count):
    for moves, expected in sample(name, count):
        solver.reset()
        assert solver.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves


@needs_data
def test_table_kept_between_positions_gives_the_same_scores(solver):
    # no reset: bounds left by earlier positions (strong and weak) must never corrupt a score
    solver.reset()
    rows = sample("Test_L2_R1", 30) + sample("Test_L1_R1", 10)
    for moves, expected in rows:
        assert solver.solve(moves, weak=True) == (expected > 0) - (expected < 0)
        assert solver.solve(moves) == expected


@needs_data
def test_analyze_is_consistent_with_solve(solver):
    for moves, expected in sample("Test_L3_R1", 10) + sample("Test_L2_R1", 6):
        scores = solver.analyze(moves)
        assert len(scores) == 7
        assert max(s for s in scores if s is not None) == expected
        for col, s in enumerate(scores, start=1):
            if s is None:
                assert moves.count(str(col)) == 6
                continue
            try:
                assert s == -solver.solve(moves + str(col))
            except ZerosumError:  # the move wins at once: the solver refuses the finished game
                assert s == (42 + 1 - len(moves)) // 2
        best = solver.best_move(moves)
        assert scores[best - 1] == expected
        weak = solver.analyze(moves, weak=True)
        assert weak == [None if s is None else (s > 0) - (s < 0) for s in scores]


def test_known_small_facts():
    s = Connect4Solver(table_size_log2=18)
    # the player to move wins at once: 22 minus its 4 stones -> 18
    assert s.solve("121212") == 18
    assert s.solve("1212123") == 18  # now the second player completes column 2
    assert s.solve("26364") == -18  # two open ends: the first player wins with its 4th stone
    assert s.solve("26364", weak=True) == -1


@pytest.mark.parametrize("moves,where,why", [
    ("44a5", "position 3", "not a column"),
    ("448", "position 3", "out of range"),
    ("40", "position 2", "out of range"),
    ("4444444", "position 7", "full"),
    ("1212121", None, "already won"),
    ("12121213", "position 8", "already won"),
])
def test_bad_moves_are_refused_with_the_offending_move(moves, where, why):
    s = Connect4Solver(table_size_log2=18)
    for call in (s.solve, s.analyze, s.best_move):
        with pytest.raises(ZerosumError) as e:
            call(moves)
        assert why in str(e.value)
        if where:
            assert where in str(e.value)


def test_bad_board_sizes():
    with pytest.raises(ZerosumError):
        Connect4Solver(9, 7)  # 9 * 8 bits do not fit
    with pytest.raises(ZerosumError):
        Connect4Solver(10, 3)  # moves are single digits
    with pytest.raises(ZerosumError):
        Connect4Solver(table_size_log2=12)  # 32-bit partial keys + 12 bits cannot tell 49-bit keys apart


# ----------------------------------------------------------------------------- small boards


@cache
def reference_solver(width: int, height: int):
    """Plain negamax over lists of columns; Pons's score from its definition: the player to move's
    (width*height+1)//2 + 1 minus the number of stones the winner has played, 0 for a draw."""
    top = (width * height + 1) // 2 + 1

    def wins(cols, col, player):
        row = len(cols[col]) - 1
        for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                c, r = col + sign * dc, row + sign * dr
                while 0 <= c < width and 0 <= r < len(cols[c]) and cols[c][r] == player:
                    run += 1
                    c, r = c + sign * dc, r + sign * dr
            if run >= 4:
                return True
        return False

    @cache
    def value(state: tuple) -> int:
        cols = [list(c) for c in state]
        n = sum(len(c) for c in cols)
        player = n % 2
        if n == width * height:
            return 0
        best = None
        for col in range(width):
            if len(cols[col]) == height:
                continue
            cols[col].append(player)
            if wins(cols, col, player):
                v = top - (n // 2 + 1)
            else:
                v = -value(tuple(tuple(c) for c in cols))
            cols[col].pop()
            best = v if best is None else max(best, v)
        return best

    def from_moves(moves: str):
        cols = [[] for _ in range(width)]
        for i, ch in enumerate(moves):
            cols[int(ch) - 1].append(i % 2)
        return tuple(tuple(c) for c in cols)

    def won(moves: str) -> bool:
        cols = [[] for _ in range(width)]
        for i, ch in enumerate(moves):
            col = int(ch) - 1
            cols[col].append(i % 2)
            if wins(cols, col, i % 2):
                return True
        return False

    return value, from_moves, won


def legal_sequence(width, height, picks):
    counts = [0] * width
    out = []
    for k in picks:
        free = [c for c in range(width) if counts[c] < height]
        if not free:
            break
        c = free[k % len(free)]
        counts[c] += 1
        out.append(str(c + 1))
    return "".join(out)


@pytest.mark.parametrize("width,height,min_moves", [(4, 4, 0), (5, 4, 10), (4, 5, 9)])
def test_small_boards_match_plain_negamax(width, height, min_moves):
    value, from_moves, won = reference_solver(width, height)
    solver = Connect4Solver(width, height, table_size_log2=16)

    @settings(max_examples=30, deadline=None, database=None)
    @given(st.lists(st.integers(0, 1000), min_size=min_moves, max_size=width * height))
    def check(picks):
        moves = legal_sequence(width, height, picks)
        prefix_won = next((i for i in range(1, len(moves) + 1) if won(moves[:i])), None)
        if prefix_won is not None and prefix_won < len(moves):
            with pytest.raises(ZerosumError, match=f"position {prefix_won + 1} "):
                solver.solve(moves)
            moves = moves[:prefix_won]
        if prefix_won is not None:
            with pytest.raises(ZerosumError, match="already won"):
                solver.solve(moves)
            return
        expected = value(from_moves(moves))
        assert solver.solve(moves) == expected, moves
        assert solver.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves

    check()


@pytest.mark.parametrize("knobs", [{"split": 0}, {"split": 99}, {"tt_min": 99}, {"sort_min": 0, "tt_min": 0},
                                   {"sort_min": 99}, {"mtdf": True}, {"small_log2": 10}])
def test_tuning_knobs_change_the_work_never_the_scores(knobs):
    # every node in the big table, every node in the small one, no table at all, tables and
    # ordering everywhere, no ordering, MTD(f), a small table under pressure.  Positions from 0 to
    # 8 moves (the split knob needs some with 18 empty cells or more); the plain negamax checks
    # those with 6 moves or more (from fewer it would walk nearly all 3.1 M positions of the
    # board: 80-110 s of the suite), the shallower ones are checked against the default solver.
    value, from_moves, won = reference_solver(5, 4)
    solver = Connect4Solver(5, 4, table_size_log2=16, **knobs)
    default = Connect4Solver(5, 4, table_size_log2=16)
    nodes = []
    for picks in range(40):
        moves = legal_sequence(5, 4, [(picks * 7919 + i * 104729) % 1000 for i in range(picks % 9)])
        if any(won(moves[:i]) for i in range(1, len(moves) + 1)):
            continue
        expected = default.solve(moves)
        if len(moves) >= 6:
            assert expected == value(from_moves(moves)), moves
        assert solver.solve(moves) == expected, moves
        nodes.append((solver.nodes, default.nodes))
        assert solver.solve(moves, weak=True) == (expected > 0) - (expected < 0), moves
        default.solve(moves, weak=True)
    assert len(nodes) > 20
    assert any(a != b for a, b in nodes)  # the knob did change the search


def test_small_board_analyze_matches_plain_negamax():
    value, from_moves, won = reference_solver(5, 4)
    solver = Connect4Solver(5, 4, table_size_log2=16)
    top = (5 * 4 + 1) // 2 + 1
    for moves in ("332244", "31524", "112233", "5544"):
        assert not won(moves)
        got = solver.analyze(moves)
        for col in range(5):
            child = moves + str(col + 1)
            expected = top - (len(moves) // 2 + 1) if won(child) else -value(from_moves(child))
            assert got[col] == expected, child


# ----------------------------------------------------------------------------- CLI


def test_cli_analyze_json_and_errors(tmp_path):
    from zerosum.cli import cli

    runner = CliRunner()
    late = "2252576253462244111563365343671351441"  # Test_L3_R1, line 1: score -1
    r = runner.invoke(cli, ["analyze", "connect4", late, "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["score"] == -1
    assert out["columns"][out["best_move"] - 1]["score"] == -1
    assert [c["score"] is None for c in out["columns"]] == [late.count(str(c)) == 6 for c in range(1, 8)]
    r = runner.invoke(cli, ["analyze", "connect4", late, "--weak", "--json"])
    assert json.loads(r.stdout)["score"] == -1

    for args, text in ((["analyze", "chess", "44"], "connect4"),
                       (["analyze", "connect4", "4408"], "position 3"),
                       (["analyze", "connect4"], "MOVES or --file"),
                       (["analyze", "connect4", "--file", str(tmp_path / "missing")], "cannot read")):
        r = runner.invoke(cli, args)
        assert r.exit_code == 1 and text in r.output and "Traceback" not in r.output, r.output

    f = tmp_path / "positions"
    f.write_text("121212 18\n\n26364 -17\n")
    r = runner.invoke(cli, ["analyze", "connect4", "--file", str(f), "--json"])
    out = json.loads(r.stdout)
    assert [p["score"] for p in out["positions"]] == [18, -18]
    assert out["count"] == 2 and out["mismatches"] == 1
    r = runner.invoke(cli, ["analyze", "connect4", "--file", str(f)])
    assert r.exit_code == 1  # a mismatch fails (issue 27, item 14) and is listed as a comment
    assert r.stdout.splitlines() == ["121212 18", "26364 -18",
                                     f"# mismatch: {f}, line 3: 26364 expected -17, got -18"]

    f.write_text("121212 18\n12x 3\n")
    r = runner.invoke(cli, ["analyze", "connect4", "--file", str(f)])
    assert r.exit_code == 1 and "line 2" in r.output and "position 3" in r.output


@needs_data
def test_without_mirror_keys_and_with_a_tiny_table_the_scores_are_the_same():
    # a table of 2**18 slots under pressure: replacement must never return a stale bound
    plain = Connect4Solver(table_size_log2=18, symmetric=False)
    tiny = Connect4Solver(table_size_log2=18)
    for moves, expected in sample("Test_L2_R2", 6) + sample("Test_L1_R1", 10):
        assert plain.solve(moves) == expected
        assert tiny.solve(moves) == expected


@needs_data
def test_reset_forgets_everything_even_after_the_generations_wrap():
    s = Connect4Solver(table_size_log2=18)
    rows = sample("Test_L2_R1", 3)
    for i in range(600):  # more resets than the 255 generations an entry can tell apart
        moves, expected = rows[i % 3]
        s.reset()
        assert s.solve(moves, weak=(i % 2 == 1)) == (expected if i % 2 == 0 else (expected > 0) - (expected < 0))


@needs_data
def test_a_search_paused_every_few_nodes_gives_the_same_scores_and_nodes():
    # the search stops after BUDGET nodes (so that Ctrl-C can land) and resumes from its stack:
    # pausing every 7 or 1,000 nodes must change nothing, node for node
    plain = Connect4Solver(table_size_log2=20)
    for budget in (7, 1000):
        paused = Connect4Solver(table_size_log2=20)
        paused.BUDGET = budget
        longest = 0
        for moves, expected in sample("Test_L1_R1", 6) + sample("Test_L2_R2", 3):
            for weak in (False, True):
                plain.reset()
                paused.reset()
                assert paused.solve(moves, weak=weak) == plain.solve(moves, weak=weak)
                assert paused.nodes == plain.nodes
                longest = max(longest, plain.nodes)
        assert longest > 10 * budget  # some searches were paused many times
