"""Independent reference computations for tests: plain recursion over the game's own rules."""

from __future__ import annotations

import numpy as np

from zerosum.core.game import CHANCE, TERMINAL


def brute_force_value(game, strategy) -> float:
    """Player 0's expected payoff by walking the rules; strategy(player, label) -> {action: prob}."""

    def walk(h):
        p = game.player(h)
        if p == TERMINAL:
            return game.payoff(h)
        if p == CHANCE:
            return sum(q * walk(game.child(h, a)) for a, q in game.chance_outcomes(h) if q > 0)
        probs = strategy(p, game.infoset(h))
        return sum(probs[a] * walk(game.child(h, a)) for a in game.actions(h))

    return walk(game.root())


def random_policy(compiled_game, rng):
    """Random behavioral probabilities per sequence for both players (Dirichlet per infoset)."""
    from zerosum import TabularPolicy

    probs = []
    for tree in compiled_game.treeplexes:
        pi = np.ones(tree.n_sequences)
        for i in range(tree.n_infosets):
            f, n = tree.infoset_first[i], tree.infoset_size[i]
            pi[f:f + n] = rng.dirichlet(np.ones(n))
        probs.append(pi)
    return TabularPolicy(compiled_game, probs)
