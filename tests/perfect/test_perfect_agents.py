"""Agents and tournaments: legal play, tactics, accounting, and the Elo fit's closed form."""

import math
import sys

import pytest

from zerosum.errors import ZerosumError
from zerosum.perfect import load_perfect_game
from zerosum.perfect.agents import AlphaBetaAgent, RandomAgent, SolverAgent, make_agent
from zerosum.perfect.tournament import fit_elo, play_game, round_robin


def test_make_agent_specs_and_errors():
    assert make_agent("alphabeta:3").depth == 3
    assert make_agent("alphabeta").depth is None
    assert make_agent("mcts:50").iterations == 50
    assert make_agent("id:0.25").time_budget == 0.25
    for bad, msg in [("minimax9", "unknown agent"), ("random:3", "takes no argument"),
                     ("alphabeta:x", "not a valid int"), ("mcts:0", "positive"), ("id:-1", "positive")]:
        with pytest.raises(ZerosumError, match=msg):
            make_agent(bad)


@pytest.mark.parametrize("spec", ["alphabeta:2", "id:0.2", "mcts:300"])
def test_search_agents_take_a_win_and_block_a_loss_at_connect_four(spec):
    g = load_perfect_game("connect4")
    agent = make_agent(spec, seed=0)
    agent.reset(g)
    assert agent.choose(g, g.from_moves("112233")) == 3       # X wins in column 4
    agent.reset(g)
    assert agent.choose(g, g.from_moves("11223")) == 3        # O blocks column 4


def test_perfect_alphabeta_never_loses_tictactoe_and_beats_random():
    g = load_perfect_game("tictactoe")
    perfect, rnd = AlphaBetaAgent(None, seed=1), RandomAgent(seed=2)
    res = round_robin(g, [perfect, rnd], games=20)
    rows = {r["agent"]: r for r in res["agents"]}
    assert rows["alphabeta"]["losses"] == 0 and rows["alphabeta"]["wins"] >= 10
    assert rows["alphabeta"]["games"] == rows["random"]["games"] == 20
    assert rows["alphabeta"]["rating"] > rows["random"]["rating"]
    # both perfect: every game a draw, whoever starts
    res = round_robin(g, [AlphaBetaAgent(None, seed=3), AlphaBetaAgent(None, seed=4)], games=4)
    assert all(r["draws"] == 4 for r in res["agents"])


def test_round_robin_accounting_and_alternation():
    g = load_perfect_game("connect4", width=5, height=4)
    agents = [RandomAgent(seed=1), make_agent("alphabeta:2", seed=2), make_agent("mcts:30", seed=3)]
    res = round_robin(g, agents, games=3)
    assert len(res["games"]) == 9
    for r in res["agents"]:
        assert r["wins"] + r["draws"] + r["losses"] == r["games"] == 6
        assert r["mean_seconds_per_move"] > 0
    assert sum(r["wins"] for r in res["agents"]) == sum(r["losses"] for r in res["agents"])
    first = [(rec["first"], rec["second"]) for rec in res["games"][:3]]
    assert first == [("random", "alphabeta:2"), ("alphabeta:2", "random"), ("random", "alphabeta:2")]
    for rec in res["games"]:        # every recorded game replays legally to its recorded result
        s = g.from_moves(rec["moves"].replace(" ", ""))
        assert g.is_terminal(s)
        w = g.winner(s)
        assert rec["winner"] == (None if w is None else rec["first"] if w == 0 else rec["second"])
    # reproducible with the same seeds
    again = round_robin(g, [RandomAgent(seed=1), make_agent("alphabeta:2", seed=2), make_agent("mcts:30", seed=3)],
                        games=3)
    assert [r["moves"] for r in again["games"]] == [r["moves"] for r in res["games"]]


def test_elo_fit_matches_the_two_player_closed_form():
    # 7 wins, 2 draws, 1 loss for agent 0; one virtual draw: score 8.5 of 11
    results = [(0, 1, 1.0)] * 7 + [(1, 0, 0.5)] * 2 + [(1, 0, 1.0)]
    r = fit_elo(2, results)
    assert math.isclose(r[0] - r[1], 400 * math.log10(8.5 / 2.5), rel_tol=1e-6)
    assert math.isclose(r.mean(), 1500)
    # three agents in a cycle of equal results: equal ratings
    cyc = [(0, 1, 1.0), (1, 2, 1.0), (2, 0, 1.0)]
    assert max(fit_elo(3, cyc)) - min(fit_elo(3, cyc)) < 1e-6


def test_an_agent_returning_an_illegal_move_is_an_error():
    class Bad(RandomAgent):
        def choose(self, game, state):
            return 99

    g = load_perfect_game("tictactoe")
    with pytest.raises(ZerosumError, match="not a cell"):
        play_game(g, Bad(), RandomAgent())


def test_solver_agent_unavailable_or_wrong_game(monkeypatch):
    with pytest.raises(ZerosumError, match="Connect Four only"):
        SolverAgent().reset(load_perfect_game("tictactoe"))
    monkeypatch.setitem(sys.modules, "zerosum.perfect.connect4_solver", None)   # import fails
    with pytest.raises(ZerosumError, match="not available"):
        SolverAgent().reset(load_perfect_game("connect4"))


def test_solver_agent_plays_perfectly_in_the_endgame():
    pytest.importorskip("zerosum.perfect.connect4_solver")
    g = load_perfect_game("connect4", width=5, height=4)
    # on a small board the solver agent never loses to alpha-beta, and matches our exact search
    solver, ab = SolverAgent(seed=0), make_agent("alphabeta:3", seed=1)
    from zerosum.perfect.search import alphabeta_tt

    s = g.from_moves("3322")
    solver.reset(g)
    move = solver.choose(g, s)
    exact = alphabeta_tt(g, s).value
    assert -alphabeta_tt(g, g.result(s, move)).value == exact
    res = round_robin(g, [solver, ab], games=2)
    assert res["agents"][0]["losses"] == 0
