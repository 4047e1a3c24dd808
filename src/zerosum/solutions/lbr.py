"""Local best response (Lisy and Bowling 2017) against a public-tree policy, computed exactly.

The LBR player, at each of its decisions, holds the opponent's range at that public node: the
opponent's hands weighted by the opponent's reach under the policy, by chance and by card removal
against the board and the LBR player's own hand (the weights W of :mod:`.analysis`).  It values each
action against that range under the same fixed continuation as :mod:`zerosum.core.lbr`:

* after the action, the opponent plays its policy (so a bet or raise is worth its fold equity, the
  opponent's fold probability from the policy, plus the equity against the range that continues);
* the LBR player itself only checks or calls from then on, to the end of the hand.

and plays the best action (the first of equals).  The value of action a for hand i at node n is
then the counterfactual value of the child (n, a) for hand i when the LBR player checks/calls below
and the opponent follows the policy: sum over the opponent's hands j of W(i, j) x reach_o(j) x the
payoff, which is exactly "the opponent's range at the node" (Bayes: the normalizer is the same
for every action, so the argmax is that of the expected values).

Since LBR's strategy is a deterministic function of its hand and the public node, its value
against the policy needs no sampling: one pass down (the opponent's reach), the terminals (one
matrix product per board, as :func:`.analysis.node_values`) and one pass up that carries two value
arrays, the check/call continuation (which makes the rule) and LBR's own play (which values it).
So the report is exact, with no confidence interval: per seat LBR's value, its gain over the
policy's own value, and beside them the exact best response's (:func:`.analysis.best_response_value`),
so LBR's NashConv estimate can be read against the true NashConv (LBR is a strategy, so its gain
never exceeds the best response's).  On the history tree (the poker family) it is the same
strategy and value as :func:`zerosum.core.lbr.lbr_strategy` (tests/test_public_lbr.py checks it).

Costs are those of the analysis pass (three [nodes x hands] float64 arrays; :func:`.analysis.check_size`
refuses what would not fit): on the full limit turn subgame (7,077 public nodes, 1,128 hands) both
seats take 6.6-8.4 s here, most of it the terminal products (4,000 terminals x 1,128^2, BLAS), and
``evaluate --lbr`` peaks at 600 MB (see docs/subgames.md).  A river subgame with narrow ranges takes
milliseconds.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from ..errors import ZerosumError
from ..public_tree.form import CHANCE_NODE, DECISION, FOLD, SHOWDOWN, PublicTree
from .analysis import Boards, best_response_value, check_size, game_value, subtree


def passive_action(tree: PublicTree, node: int) -> int:
    """The position of check/call (``c``) among the actions of ``node``."""
    acts = tree.action_labels[node]
    if "c" not in acts:
        raise ZerosumError(f"local best response checks or calls after its decision, and {tree.game_id} has no "
                           f"check/call at {tree.labels[node]!r} (actions {list(acts)}); it runs on poker and holdem")
    return acts.index("c")


def lbr_values(tree: PublicTree, policy, player: int) -> tuple[float, np.ndarray]:
    """LBR's exact value in seat ``player`` against ``policy`` (the other player's part of it), and
    its rule: {decision node of ``player``: [hands] chosen action}."""
    nodes = subtree(tree, 0)
    check_size(tree, 0, nodes)
    q, o = player, 1 - player
    n_nodes = len(nodes)
    n = tree.n_hands
    kind, who, first, count, parent = tree.kind, tree.player, tree.first_child, tree.n_children, tree.parent
    # down: the opponent's reach (range x its policy's probabilities along the path)
    ro = np.zeros((n_nodes, n[o]))
    ro[0] = tree.ranges[o]
    for k in range(1, n_nodes):  # ``nodes`` is 0..N-1 ascending, parents first
        par = int(parent[k])
        if kind[par] == DECISION and int(who[par]) == o:
            ro[k] = ro[par] * policy.table(par)[k - int(first[par])]
        else:
            ro[k] = ro[par]
    # terminals: LBR's counterfactual value per hand, one product per board
    passive = np.zeros((n_nodes, n[q]))  # LBR checks/calls below the node
    term = np.flatnonzero(kind >= FOLD)
    boards = Boards(tree)
    for b in np.unique(tree.board[term]):
        ks = term[tree.board[term] == b]
        w, s = boards.get(int(b))
        stake = tree.stake[ks]
        show = kind[ks] == SHOWDOWN
        sign0 = np.where(show, 1.0, np.where(who[ks] == 0, -1.0, 1.0)) * stake
        for m, mat in ((show, s), (~show, w)):
            if not m.any():
                continue
            if q == 0:
                passive[ks[m]] = sign0[m, None] * (ro[ks[m]] @ mat.T)
            else:
                passive[ks[m]] = -sign0[m, None] * (ro[ks[m]] @ mat)
    played = passive.copy()  # LBR plays its rule below the node
    rule = {}
    cols = np.arange(n[q])
    for k in range(n_nodes - 1, -1, -1):
        if kind[k] >= FOLD:
            continue
        kids = np.arange(int(first[k]), int(first[k]) + int(count[k]))
        if kind[k] == CHANCE_NODE or int(who[k]) == o:  # the opponent's reach is already in the values
            passive[k] = passive[kids].sum(axis=0)
            played[k] = played[kids].sum(axis=0)
            continue
        choice = np.argmax(passive[kids], axis=0)
        rule[k] = choice
        passive[k] = passive[kids[passive_action(tree, k)]]
        played[k] = played[kids[choice], cols]
    return float(np.asarray(tree.ranges[q], dtype=np.float64) @ played[0]), rule


@dataclass(frozen=True)
class PublicLBRResult:
    """LBR against a public-tree policy, exact (see the module docstring)."""

    values: tuple[float, float]  # LBR's exact value in seat 0, seat 1
    policy_values: tuple[float, float]  # the policy's own value in each seat
    best_response_values: tuple[float, float]  # the exact best response's, for comparison
    seconds: float  # LBR's passes (both seats), without the best response

    @property
    def gains(self) -> tuple[float, float]:
        """Per player, LBR's value against the policy less the policy's own value."""
        return tuple(v - pv for v, pv in zip(self.values, self.policy_values))

    @property
    def best_response_gains(self) -> tuple[float, float]:
        """Per player, the exact best response's value less the policy's own value."""
        return tuple(v - pv for v, pv in zip(self.best_response_values, self.policy_values))

    @property
    def nash_conv(self) -> float:
        """LBR's estimate (a lower bound) of NashConv: the sum of its gains."""
        return float(sum(self.gains))

    @property
    def exact_nash_conv(self) -> float:
        """The exact NashConv: the sum of the best responses' gains."""
        return float(sum(self.best_response_gains))

    def to_dict(self) -> dict:
        """The fields of ``zerosum evaluate --lbr --json``'s ``lbr`` for a public-tree policy."""
        nc, exact = self.nash_conv, self.exact_nash_conv
        return {"method": "exact", "form": "public-tree", "values": list(self.values),
                "policy_values": list(self.policy_values), "gains": list(self.gains),
                "nash_conv": nc, "exploitability": nc / 2,
                "best_response_values": list(self.best_response_values),
                "best_response_gains": list(self.best_response_gains), "exact_nash_conv": exact,
                "fraction_of_nash_conv": nc / exact if exact > 0 else None, "seconds": self.seconds}


def public_local_best_response(tree: PublicTree, policy, value: float | None = None,
                               best_response_values=None) -> PublicLBRResult:
    """LBR in both seats against ``policy`` (a PublicPolicy on ``tree``), exactly.  ``value`` (player
    0's) and ``best_response_values`` may come from an evaluation already made (``zerosum evaluate``
    has them from the compiled passes): recomputing them with the analysis pass took 3 x 6 s of the
    35 s on the limit turn subgame."""
    t0 = time.perf_counter()
    values = tuple(lbr_values(tree, policy, p)[0] for p in (0, 1))
    seconds = time.perf_counter() - t0
    v = game_value(tree, policy) if value is None else float(value)
    if best_response_values is None:
        best_response_values = [best_response_value(tree, policy, p) for p in (0, 1)]
    br = (float(best_response_values[0]), float(best_response_values[1]))
    return PublicLBRResult(values, (v, -v), br, seconds)


__all__ = ["PublicLBRResult", "lbr_values", "passive_action", "public_local_best_response"]
