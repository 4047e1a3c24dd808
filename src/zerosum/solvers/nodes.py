"""Nodes touched: one measure of work for every solver, full-width or sampling.

Definition (the convention of Lab 15's reference solution, which it reproduces exactly):

    **nodes touched** = the decision and terminal histories a tree-walking implementation visits,
    counting a history once for every *deal* it is visited under; chance nodes are not counted.

A *deal* is one complete draw of every chance outcome, made before play (Lab 15 walks its 24
deals of ranks one after another).  So a full-width pass for player i walks the betting tree of
every deal and skips the subtrees that the opponent reaches with probability zero (their
counterfactual values are zero); a first-round node of Leduc is counted once per public card
that can follow it.  A sampling algorithm draws one deal per traversal, so it counts each history
it visits once.  With this definition CFR's first ten iterations on Lab 15's Leduc touch 18,613
nodes and CFR+'s 24,076, the lab's figures.

For a full-width pass the count needs no traversal: a history is visited iff the opponent's
realization plan is positive at the opponent's last sequence before it, so the count is
``weights[i] @ (plan[1 - i] > 0)``, where ``weights[i][s]`` sums the deals of the histories whose
opponent's last sequence is s.  :class:`NodeCounter` prepares those weights once per game.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from ..core.game import CHANCE, TERMINAL


@njit(cache=True)
def _deals_and_last_sequences(player, infoset, first_child, n_children, first0, first1):
    """Per history: deals it is visited under, and each player's last sequence before it."""
    n = len(player)
    m = np.ones(n)  # deals below h if play could continue everywhere (bottom-up)
    for h in range(n - 1, -1, -1):  # children have larger ids than their parent
        k = n_children[h]
        if k == 0:
            continue
        c0 = first_child[h]
        if player[h] == CHANCE:
            s = 0.0
            for c in range(c0, c0 + k):
                s += m[c]
            m[h] = s
        else:
            s = 0.0
            for c in range(c0, c0 + k):
                s = max(s, m[c])
            m[h] = s
    mult = np.empty(n)
    last = np.zeros((n, 2), dtype=np.int64)
    mult[0] = m[0]
    for h in range(n):
        k = n_children[h]
        c0 = first_child[h]
        p = player[h]
        for j in range(k):
            c = c0 + j
            last[c, 0] = last[h, 0]
            last[c, 1] = last[h, 1]
            if p == CHANCE:
                mult[c] = mult[h] * m[c] / m[h]
            else:
                mult[c] = mult[h]
                if p == 0:
                    last[c, 0] = first0[infoset[h]] + j
                elif p == 1:
                    last[c, 1] = first1[infoset[h]] + j
    return mult, last


class NodeCounter:
    """Counts nodes touched by full-width passes on one compiled game (see the module docstring)."""

    def __init__(self, game):
        tree = game.tree
        t0, t1 = game.treeplexes
        mult, last = _deals_and_last_sequences(tree.player, tree.infoset, tree.first_child, tree.n_children,
                                               t0.infoset_first, t1.infoset_first)
        counted = tree.player != CHANCE
        #: weights[i][s]: deals of the histories whose opponent's (1 - i) last sequence is s
        self.weights = tuple(
            np.bincount(last[counted, 1 - i], mult[counted], minlength=game.treeplexes[1 - i].n_sequences)
            for i in (0, 1))
        #: nodes of one pass that prunes nothing
        self.full_pass = float(mult[counted].sum())
        self.n_terminal_deals = float(mult[tree.player == TERMINAL].sum())

    def full_width_pass(self, player: int, opponent_plan: np.ndarray) -> int:
        """Nodes touched by one full-width pass updating ``player`` against the opponent's plan."""
        # (a float @ bool product would take numpy's slow mixed-type path)
        return round(float(self.weights[player][opponent_plan > 0].sum()))


def node_counter(game) -> NodeCounter:
    """The game's NodeCounter, built once and kept on the compiled game object."""
    found = getattr(game, "_zerosum_node_counter", None)
    if found is None:
        found = NodeCounter(game)
        object.__setattr__(game, "_zerosum_node_counter", found)
    return found
