"""Monte Carlo tree search with UCT (Kocsis & Szepesvari, "Bandit based Monte-Carlo planning",
ECML 2006).

Each iteration walks down the tree choosing the child with the best upper confidence bound
(UCB1: mean reward + c * sqrt(ln N_parent / N_child)), adds one new child, finishes the game with
uniformly random moves (a *playout*) and backs the result up the path, each node counting wins for
the player who moved into it.  No evaluation function is needed; the move played is the most
visited child.  A game may provide ``random_playout(state, rng)`` (a fast path returning the
winner); otherwise playouts use the generic interface.
"""

from __future__ import annotations

import math
import time

import numpy as np

from .result import SearchResult, SearchStats


class _Node:
    __slots__ = ("children", "move", "mover", "parent", "reward", "state", "untried", "visits")

    def __init__(self, game, state, mover, move, parent, rng):
        self.state, self.mover, self.move, self.parent = state, mover, move, parent
        self.children: list[_Node] = []
        self.untried = list(game.legal_moves(state))
        rng.shuffle(self.untried)
        self.visits = 0
        self.reward = 0.0     # sum of rewards for ``mover`` (+1 win, 0.5 draw, 0 loss)


def _playout(game, state, rng):
    fast = getattr(game, "random_playout", None)
    if fast is not None:
        return fast(state, rng)
    while not game.is_terminal(state):
        moves = game.legal_moves(state)
        state = game.result(state, moves[int(rng.random() * len(moves))])
    return game.winner(state)


def mcts(game, state, iterations: int = 1000, c: float = math.sqrt(2), rng=None,
         deadline: float | None = None) -> SearchResult:
    """UCT from ``state``: ``iterations`` playouts (fewer if ``deadline`` passes first)."""
    rng = np.random.default_rng() if rng is None else rng
    start = time.perf_counter()
    stats = SearchStats()
    player = game.player(state)
    root = _Node(game, state, 1 - player, None, None, rng)
    if game.is_terminal(state):
        return SearchResult("mcts", game.utility(state, player), None, player, stats, exact=True)
    for _ in range(iterations):
        node = root
        # selection: descend through fully expanded nodes by UCB1
        while not node.untried and node.children:
            log_n = math.log(node.visits)
            node = max(node.children, key=lambda ch: ch.reward / ch.visits + c * math.sqrt(log_n / ch.visits))
        # expansion: one new child
        if node.untried:
            move = node.untried.pop()
            child_state = game.result(node.state, move)
            child = _Node(game, child_state, game.player(node.state), move, node, rng)
            node.children.append(child)
            node = child
            stats.nodes += 1
        # simulation
        winner = _playout(game, node.state, rng)
        # backpropagation: each node scores the result for the player who moved into it
        while node is not None:
            node.visits += 1
            node.reward += 0.5 if winner is None else 1.0 if winner == node.mover else 0.0
            node = node.parent
        stats.evaluations += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    best = max(root.children, key=lambda ch: ch.visits)
    stats.seconds = time.perf_counter() - start
    value = 2 * best.reward / best.visits - 1      # estimated value for the player to move
    return SearchResult("mcts", value, best.move, player, stats, depth=None, exact=False)
