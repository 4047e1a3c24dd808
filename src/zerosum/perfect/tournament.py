"""Round-robin tournaments between agents, with Elo ratings fitted to the results.

Every pair of agents plays ``games`` games, alternating who moves first.  The ratings are the
maximum-likelihood Bradley-Terry strengths (Bradley & Terry, 1952; Elo's model is the same
logistic curve): P(i beats j) = 1 / (1 + 10^((R_j - R_i)/400)), a draw counting as half a win.
One virtual draw per pair keeps the ratings finite when an agent wins every game; the ratings
are then shifted to average 1500.  With two agents this gives the closed form
R_i - R_j = 400 log10(s / (n - s)) where s is i's score (virtual draw included) out of n.
"""

from __future__ import annotations

import math
import time

import numpy as np

from ..errors import ZerosumError


def play_game(game, first, second, state=None, on_move=None):
    """Play one game between two agents; returns (utility for the first player, moves, seconds per agent).

    ``on_move(state, move)`` is called after each move (for printing).  An agent that returns an
    illegal move raises ZerosumError naming it.
    """
    agents = (first, second)
    for a in agents:
        a.reset(game)
    state = game.initial_state() if state is None else state
    seconds = [0.0, 0.0]
    counts = [0, 0]
    moves = []
    while not game.is_terminal(state):
        p = game.player(state)
        t0 = time.perf_counter()
        move = agents[p].choose(game, state)
        seconds[p] += time.perf_counter() - t0
        counts[p] += 1
        state = game.result(state, move)
        moves.append(move)
        if on_move is not None:
            on_move(state, move)
    return game.utility(state, 0), moves, seconds, counts


def fit_elo(n_agents: int, results, prior_draws: float = 1.0) -> np.ndarray:
    """Elo ratings from ``results``: (i, j, score of i) triples, score 1, 0.5 or 0 per game."""
    from scipy.optimize import minimize

    wins = np.zeros((n_agents, n_agents))   # wins[i, j] = i's score against j
    for i, j, s in results:
        wins[i, j] += s
        wins[j, i] += 1 - s
    if prior_draws:
        off = ~np.eye(n_agents, dtype=bool)
        played = (wins + wins.T) > 0
        wins[off & played] += prior_draws / 2

    def nll(r):                                     # r in natural (log-odds) units
        p = 1 / (1 + np.exp(-(r[:, None] - r[None, :])))   # P(i beats j)
        ll = np.sum(wins * np.log(np.clip(p, 1e-300, None)))
        # d/dr_i of sum_ij w_ij log p_ij = sum_j w_ij (1 - p_ij) - sum_j w_ji (1 - p_ji)
        grad = np.sum(wins * (1 - p), axis=1) - np.sum(wins.T * (1 - p.T), axis=1)
        return -ll, -grad

    res = minimize(nll, np.zeros(n_agents), jac=True, method="L-BFGS-B", options={"gtol": 1e-12, "ftol": 1e-15})
    r = res.x - res.x.mean()
    return 1500 + 400 / math.log(10) * r


def round_robin(game, agents, games: int = 10, progress=None) -> dict:
    """Each pair plays ``games`` games (the first of the pair moves first in even-numbered ones).

    Returns ``{"agents": [per-agent rows], "pairs": [per-pair rows], "games": [...]}``; a row has
    wins, draws, losses, games, moves, mean_seconds_per_move and rating.
    """
    if len(agents) < 2:
        raise ZerosumError("a tournament needs at least two agents")
    if not isinstance(games, int) or games < 1:
        raise ZerosumError(f"--games must be a positive integer, got {games!r}")
    n = len(agents)
    w = np.zeros((n, n), dtype=int)   # w[i, j]: games i won against j
    d = np.zeros((n, n), dtype=int)
    secs, counts = np.zeros(n), np.zeros(n, dtype=int)
    results, records = [], []
    for i in range(n):
        for j in range(i + 1, n):
            for g in range(games):
                a, b = (i, j) if g % 2 == 0 else (j, i)
                u, moves, s, c = play_game(game, agents[a], agents[b])
                secs[a] += s[0]
                secs[b] += s[1]
                counts[a] += c[0]
                counts[b] += c[1]
                winner = a if u > 0 else b if u < 0 else None
                if winner is None:
                    d[a, b] += 1
                    d[b, a] += 1
                    results.append((a, b, 0.5))
                else:
                    w[winner, b if winner == a else a] += 1
                    results.append((a, b, 1.0 if winner == a else 0.0))
                records.append({"first": agents[a].name, "second": agents[b].name,
                                "winner": None if winner is None else agents[winner].name,
                                "moves": " ".join(game.move_label(m) for m in moves)})
                if progress is not None:
                    progress(1)
    ratings = fit_elo(n, results)
    rows = [{"agent": agents[i].name, "games": int(w[i].sum() + d[i].sum() + w[:, i].sum()),
             "wins": int(w[i].sum()), "draws": int(d[i].sum()), "losses": int(w[:, i].sum()),
             "moves": int(counts[i]), "mean_seconds_per_move": float(secs[i] / counts[i]) if counts[i] else None,
             "rating": float(ratings[i])} for i in range(n)]
    pairs = [{"agent": agents[i].name, "opponent": agents[j].name, "wins": int(w[i, j]),
              "draws": int(d[i, j]), "losses": int(w[j, i])} for i in range(n) for j in range(i + 1, n)]
    return {"agents": rows, "pairs": pairs, "games": records}
