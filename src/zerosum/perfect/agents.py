"""Agents: things that choose a move in a perfect-information game.

An agent is built from a short spec (``random``, ``alphabeta:4``, ``id:0.5``, ``mcts:1000``,
``solver``) by :func:`make_agent`; it has a ``name``, ``reset(game)`` before each game and
``choose(game, state) -> move``.  Agents that search break ties between equally good moves at
random (their root moves are shuffled with their own seeded generator), so that two deterministic
agents do not replay the same game over and over in a tournament.
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from .search import SearchResult, TranspositionTable, alphabeta_tt, iterative_deepening, mcts


class Agent:
    name = "agent"

    def __init__(self, seed=None):
        self.rng = np.random.default_rng(seed)
        self.last: SearchResult | None = None   # the last search, for people who want to see it

    def reset(self, game) -> None:
        """Called before each game."""

    def choose(self, game, state):
        raise NotImplementedError

    def __repr__(self):
        return f"<{type(self).__name__} {self.name}>"


class RandomAgent(Agent):
    """A uniformly random legal move."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.name = "random"

    def choose(self, game, state):
        moves = game.legal_moves(state)
        if not moves:
            raise ZerosumError("no legal move: the game is over")
        return moves[int(self.rng.integers(len(moves)))]


class AlphaBetaAgent(Agent):
    """Alpha-beta to a fixed depth with the game's heuristic at the horizon (None: to the end),
    a transposition table kept for the whole game, and iterative deepening inside the depth so
    that a win is taken by its shortest route."""

    def __init__(self, depth: int | None = 4, seed=None, randomize: bool = True):
        super().__init__(seed)
        if depth is not None and (not isinstance(depth, int) or depth < 1):
            raise ZerosumError(f"alphabeta depth must be a positive integer, got {depth!r}")
        self.depth, self.randomize = depth, randomize
        self.name = "alphabeta" if depth is None else f"alphabeta:{depth}"
        self.table = TranspositionTable()

    def reset(self, game):
        self.table = TranspositionTable()

    def choose(self, game, state):
        limit = game.max_remaining_moves(state)
        depth = self.depth if limit is None or self.depth is None else min(self.depth, limit)
        if depth is None:
            self.last = alphabeta_tt(game, state, None, table=self.table, root_moves=self._root(game, state))
            return self.last.move
        result = None
        for d in range(1, depth + 1):
            result = alphabeta_tt(game, state, d, table=self.table, root_moves=self._root(game, state))
            if abs(result.value) >= 1 or result.exact:
                break
        self.last = result
        return result.move

    def _root(self, game, state):
        moves = game.order_moves(state, game.legal_moves(state))
        if not self.randomize:
            return moves
        return [moves[i] for i in self.rng.permutation(len(moves))]


class IterativeDeepeningAgent(AlphaBetaAgent):
    """Iterative deepening alpha-beta with a time budget per move (seconds)."""

    def __init__(self, time_budget: float = 1.0, seed=None, randomize: bool = True):
        super().__init__(None, seed, randomize)
        if not time_budget > 0:
            raise ZerosumError(f"id time budget must be positive seconds, got {time_budget!r}")
        self.time_budget = float(time_budget)
        self.name = f"id:{time_budget:g}"

    def choose(self, game, state):
        self.last = iterative_deepening(game, state, self.time_budget, table=self.table,
                                        root_moves=self._root(game, state))
        return self.last.move


class MCTSAgent(Agent):
    """Monte Carlo tree search (UCT) with a number of playouts per move."""

    def __init__(self, iterations: int = 1000, seed=None, c: float = 2 ** 0.5):
        super().__init__(seed)
        if not isinstance(iterations, int) or iterations < 1:
            raise ZerosumError(f"mcts iterations must be a positive integer, got {iterations!r}")
        self.iterations, self.c = iterations, c
        self.name = f"mcts:{iterations}"

    def choose(self, game, state):
        self.last = mcts(game, state, self.iterations, self.c, self.rng)
        return self.last.move


class SolverAgent(Agent):
    """Perfect play at Connect Four with the exact solver (:mod:`zerosum.perfect.connect4_solver`):
    a column of the best exact score, i.e. the quickest win or the slowest loss; ties broken at
    random.  Early in a 7x6 game one move can take seconds to minutes (it solves every column)."""

    def __init__(self, seed=None):
        super().__init__(seed)
        self.name = "solver"
        self.solver = None

    def reset(self, game):
        from .connect4 import ConnectFour

        if not isinstance(game, ConnectFour):
            raise ZerosumError(f"the solver agent plays Connect Four only, not {game.id}")
        if self.solver is not None and (self.solver.width, self.solver.height) == (game.width, game.height):
            return
        try:
            from .connect4_solver import Connect4Solver
        except ImportError:
            raise ZerosumError("the solver agent is not available: zerosum.perfect.connect4_solver "
                               "cannot be imported") from None
        self.solver = Connect4Solver(width=game.width, height=game.height)

    def choose(self, game, state):
        if self.solver is None or (self.solver.width, self.solver.height) != (game.width, game.height):
            self.reset(game)
        scores = self.solver.analyze(state.moves)
        legal = [(s, c) for c, s in enumerate(scores) if s is not None]
        if not legal:
            raise ZerosumError("no legal move: the game is over")
        best = max(s for s, _ in legal)
        choices = [c for s, c in legal if s == best]
        self.last = None
        self.best_score = best
        return choices[int(self.rng.integers(len(choices)))]


#: spec name -> (class, argument type or None, help)
AGENTS = {
    "random": (RandomAgent, None, "a uniformly random legal move"),
    "alphabeta": (AlphaBetaAgent, int, ("alphabeta:DEPTH: depth-limited alpha-beta with the game's heuristic "
                                        "(plain alphabeta: to the end of the game, small games only)")),
    "id": (IterativeDeepeningAgent, float, "id:SECONDS: iterative deepening alpha-beta with a time budget per move"),
    "mcts": (MCTSAgent, int, "mcts:PLAYOUTS: Monte Carlo tree search (UCT)"),
    "solver": (SolverAgent, None, "the exact Connect Four solver (any board the solver takes)"),
}


def make_agent(spec: str, seed=None) -> Agent:
    """An agent from a spec such as ``alphabeta:4``; a bad spec is a ZerosumError."""
    spec = spec.strip()
    name, _, arg = spec.partition(":")
    if name not in AGENTS:
        raise ZerosumError(f"unknown agent {spec!r}; agents: {', '.join(sorted(AGENTS))}")
    cls, kind, _ = AGENTS[name]
    if not arg:
        return cls(None, seed=seed) if name == "alphabeta" else cls(seed=seed)
    if kind is None:
        raise ZerosumError(f"agent {name!r} takes no argument (got {spec!r})")
    try:
        value = kind(arg)
    except ValueError:
        raise ZerosumError(f"agent {spec!r}: {arg!r} is not a valid {kind.__name__}") from None
    return cls(value, seed=seed)
