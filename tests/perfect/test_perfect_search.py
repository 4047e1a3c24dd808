"""Search algorithms: the seed's tic-tac-toe facts, agreement between algorithms, table bounds."""

import math
import os
from pathlib import Path

import pytest

from zerosum.perfect import load_perfect_game
from zerosum.perfect.search import (
    ALGORITHMS,
    NaiveTable,
    TranspositionTable,
    alphabeta,
    alphabeta_tt,
    iterative_deepening,
    mcts,
    minimax,
    negamax,
    negamax_alphabeta,
)

DATA = Path(os.environ.get("ZEROSUM_CONNECT4_DATA", Path(__file__).resolve().parents[3] / "shared" / "data" / "connect4"))


@pytest.fixture(scope="module")
def ttt():
    return load_perfect_game("tictactoe")


@pytest.fixture(scope="module")
def ttt_positions(ttt):
    seen = {}
    stack = [(ttt.initial_state(), ())]
    while stack:
        s, path = stack.pop()
        if ttt.key(s) in seen:
            continue
        seen[ttt.key(s)] = (s, path)
        stack.extend((ttt.result(s, m), path + (m,)) for m in ttt.legal_moves(s))
    return list(seen.values())


def test_tictactoe_value_is_zero_for_every_algorithm(ttt):
    s = ttt.initial_state()
    results = {name: fn(ttt, s, **kw) for name, (fn, kw) in ALGORITHMS.items()}
    results["iterative_deepening"] = iterative_deepening(ttt, s, time_budget=60)
    for name, r in results.items():
        assert r.value == 0 and r.exact, name
        assert r.move in ttt.legal_moves(s)
    # minimax visits the whole game tree: 549,946 nodes (255,168 finished games plus the rest)
    assert results["minimax"].stats.nodes == results["negamax"].stats.nodes == 549_946
    ab = results["alphabeta"].stats.nodes
    assert ab == results["negamax_alphabeta"].stats.nodes       # the same pruning in two forms
    assert ab * 20 < 549_946                                     # "far fewer nodes"
    assert results["alphabeta_ordered"].stats.nodes < ab
    assert results["alphabeta_tt"].stats.nodes < ab
    assert results["alphabeta_tt_ordered"].stats.nodes < results["alphabeta_tt"].stats.nodes
    tt = results["alphabeta_tt"].stats
    assert tt.tt_hits > 0 and tt.tt_misses > 0 and tt.tt_size == tt.tt_misses  # a miss stores one entry
    assert results["iterative_deepening"].depth == 9


def test_values_from_the_second_players_point_of_view(ttt):
    s = ttt.play([0, 1, 2, 6, 8])      # X threatens cells 4 and 5 (0-based); O cannot stop both
    assert ttt.player(s) == 1
    for name, (fn, kw) in ALGORITHMS.items():
        r = fn(ttt, s, **kw)
        assert r.value == -1 and r.value_for(0) == 1, name
    s = ttt.play([0, 4, 1])            # O must block at 3 (cell index 2), then it is a draw
    for name, (fn, kw) in ALGORITHMS.items():
        r = fn(ttt, s, **kw)
        assert (r.value, r.move) == (0, 2), name


def test_all_algorithms_agree_on_every_tictactoe_position(ttt, ttt_positions):
    for s, _ in ttt_positions:
        if ttt.is_terminal(s):
            continue
        ref = negamax_alphabeta(ttt, s).value
        assert alphabeta(ttt, s, order=True).value == ref
        assert alphabeta_tt(ttt, s).value == ref
        if len(ttt.legal_moves(s)) <= 5:
            assert minimax(ttt, s).value == negamax(ttt, s).value == ref


def test_a_table_that_stores_bounds_as_exact_gets_values_wrong(ttt, ttt_positions):
    # X in the centre, O in a corner: a draw; the naive table answers a later node with a bound
    s = ttt.play([4, 0])
    assert minimax(ttt, s).value == 0
    assert alphabeta_tt(ttt, s, table=TranspositionTable(), order=False).value == 0
    assert alphabeta_tt(ttt, s, table=NaiveTable(), order=False).value == 1
    wrong_naive = wrong_ours = 0
    for s, _ in ttt_positions:
        ref = negamax_alphabeta(ttt, s).value
        wrong_naive += alphabeta_tt(ttt, s, table=NaiveTable(), order=False).value != ref
        wrong_ours += alphabeta_tt(ttt, s, table=TranspositionTable(), order=False).value != ref
    assert wrong_naive > 0 and wrong_ours == 0


@pytest.mark.parametrize("name,params,moves", [
    ("tictactoe", {}, []), ("tictactoe", {}, [4]), ("connect4", {"width": 5, "height": 4}, [2, 2, 1]),
    ("connect4", {}, [3, 3, 2, 4]), ("mnk", {"m": 4, "n": 4, "k": 3}, [5])])
@pytest.mark.parametrize("depth", [1, 2, 3])
def test_depth_limited_searches_agree(name, params, moves, depth):
    g = load_perfect_game(name, **params)
    s = g.play(moves)
    ref = minimax(g, s, depth)
    assert not ref.exact and -1 < ref.value < 1
    for r in (negamax(g, s, depth), alphabeta(g, s, depth), alphabeta(g, s, depth, order=True),
              negamax_alphabeta(g, s, depth, order=True), alphabeta_tt(g, s, depth)):
        assert math.isclose(r.value, ref.value, abs_tol=1e-12), r.algorithm
        assert r.stats.nodes <= ref.stats.nodes


def test_depth_zero_is_the_heuristic(ttt):
    s = ttt.play([4])
    assert minimax(ttt, s, 0).value == ttt.heuristic(s) == negamax(ttt, s, 0).value
    assert minimax(ttt, s, 0).stats.nodes == 1


def test_move_ordering_prunes_more_on_connect_four():
    g = load_perfect_game("connect4")
    s = g.from_moves("4453")
    plain, ordered = alphabeta(g, s, 5), alphabeta(g, s, 5, order=True)
    assert plain.value == ordered.value
    assert ordered.stats.nodes < plain.stats.nodes


def test_iterative_deepening_always_has_a_move_and_finds_the_shortest_win():
    g = load_perfect_game("connect4")
    s = g.initial_state()
    r = iterative_deepening(g, s, time_budget=0.0)
    assert r.move == 3 and r.depth == 0          # nothing completed: the game's first choice
    s = g.from_moves("112233")                   # X wins at once in column 4
    r = iterative_deepening(g, s, time_budget=30)
    assert (r.value, r.move, r.depth) == (1, 3, 1)
    s = g.from_moves("11223")                    # O must block in column 4; it is not lost yet
    r = iterative_deepening(g, s, time_budget=0.5, max_depth=4)
    assert r.move == 3 and r.depth <= 4


def test_exact_search_agrees_with_the_benchmark_scores_in_the_endgame():
    if not (DATA / "Test_L3_R1").exists():
        pytest.skip(f"Connect Four test positions not found in {DATA}")
    g = load_perfect_game("connect4")
    pairs = [line.split() for line in (DATA / "Test_L3_R1").read_text().splitlines() if line.strip()]
    checked = 0
    for moves, score in pairs:
        if len(moves) < 31:          # keep the Python search short: positions with <= 11 empty cells
            continue
        score = int(score)
        r = alphabeta_tt(g, g.from_moves(moves))
        assert r.value == (score > 0) - (score < 0), moves
        checked += 1
    assert checked > 300


def test_connect_four_4x4_is_a_draw():
    g = load_perfect_game("connect4", width=4, height=4)
    r = alphabeta_tt(g, g.initial_state())
    assert r.value == 0 and r.exact


def test_mcts_finds_the_winning_move_and_blocks():
    import numpy as np

    ttt = load_perfect_game("tictactoe")
    s = ttt.play([0, 3, 1, 4])                  # X to move wins at cell 2
    assert mcts(ttt, s, 400, rng=np.random.default_rng(0)).move == 2
    g = load_perfect_game("connect4")
    r = mcts(g, g.from_moves("414141"), 300, rng=np.random.default_rng(1))
    assert r.move == 3 and r.value > 0.5
    r = mcts(g, g.from_moves("12131"), 500, rng=np.random.default_rng(2))   # O must block column 1
    assert r.move == 0


def test_node_counts_match_openspiel_alpha_beta_and_minimax(ttt):
    osm = pytest.importorskip("open_spiel.python.algorithms.minimax")
    import pyspiel

    game = pyspiel.load_game("tic_tac_toe")
    counted = {}
    for fname in ("_alpha_beta", "expectiminimax"):
        original, n = getattr(osm, fname), [0]

        def counting(*a, _f=original, _n=n, **k):
            _n[0] += 1
            return _f(*a, **k)

        setattr(osm, fname, counting)
        try:
            if fname == "_alpha_beta":
                value, _ = osm.alpha_beta_search(game, maximizing_player_id=0)
            else:
                value = osm.expectiminimax(game.new_initial_state(), 9, None, 0)[0]
        finally:
            setattr(osm, fname, original)
        counted[fname] = (value, n[0])
    s = ttt.initial_state()
    # the same algorithms with the same (natural) move order visit exactly the same nodes
    assert counted["_alpha_beta"] == (alphabeta(ttt, s).value, alphabeta(ttt, s).stats.nodes)
    assert counted["expectiminimax"] == (minimax(ttt, s).value, minimax(ttt, s).stats.nodes)


def test_connect_four_fast_playouts_have_the_generic_playouts_distribution():
    import numpy as np

    from zerosum.perfect.connect4 import ConnectFour
    from zerosum.perfect.search.mcts import _playout

    class Generic(ConnectFour):
        random_playout = None           # forces the interface-only playout

    fast, slow = ConnectFour(), Generic()
    rng = np.random.default_rng(7)
    n = 1500
    a = sum(fast.random_playout(fast.initial_state(), rng) == 0 for _ in range(n)) / n
    b = sum(_playout(slow, slow.initial_state(), rng) == 0 for _ in range(n)) / n
    assert 0.5 < a < 0.62 and abs(a - b) < 4 * math.sqrt(2 * 0.25 / n)   # first player wins ~56% at random


def test_a_result_read_from_the_table_remembers_it_was_an_estimate():
    g = load_perfect_game("connect4")
    s = g.from_moves("4453")
    table = TranspositionTable()
    deep = alphabeta_tt(g, s, 4, table=table)
    again = alphabeta_tt(g, s, 2, table=table)        # answered from depth-4 entries
    assert again.stats.evaluations == 0 and not again.exact and not deep.exact
    # iterative deepening with a warm table still goes past the depths the table answers
    r = iterative_deepening(g, s, time_budget=30, max_depth=5, table=table)
    assert r.depth == 5 and not r.exact
    # a table filled by a complete search is exact
    ttt = load_perfect_game("tictactoe")
    t = TranspositionTable()
    alphabeta_tt(ttt, ttt.initial_state(), table=t)
    assert alphabeta_tt(ttt, ttt.play([4]), table=t).exact
