"""Card abstraction of hold'em subgames on the public tree (issue 30, 4): hands bucketed by E[HS] on
each street, perfect recall, solved by tying the real tree's arrays, evaluated exactly.

**Buckets.**  At a decision node whose board has b cards, a hand's key is its bucket on every board
from the subgame's first street to b: the bucket on a board is its rank, in K equal-count groups,
of its E[HS] there (showdown equity against a uniformly random opponent hand over every runout,
:func:`zerosum.poker.equity.equity`), among the hands the board leaves live.  Hands sharing
a key at a node are one information set of the abstract game (the key remembers the earlier streets'
buckets: perfect recall, as the poker family's abstraction).

**Solving.**  The abstract game's CFR iterates are the real tree's with the members of each abstract
information set tied: after each player's pass, every member's cumulative regret (and average sum)
becomes the members' mean.  The strategy of a bucket is then the same for all its members, and their
instantaneous regrets add up to the abstract information set's (counterfactual values already
carry each member's chance and opponent reach), so the tied iterates are exactly CFR's on the
abstract game -- for the variants whose regret rule is linear (CFR, LCFR: a mean of members' updates
is the update of the mean).  CFR+'s floor and DCFR's sign-dependent discount are not, and are refused.
The average policy is then a policy of the real tree (the abstraction lifted), whose NashConv is
exact.  Tying costs two ``bincount`` over each player's arrays per pass (limit turn subgame: about
the time of the pass again); the arrays stay per hand, so the abstraction here measures what it
costs in exploitability, not what it saves in memory.
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from .form import DECISION, PublicTree

#: the variants whose regret rule is linear: tying by the mean is exact for them
LINEAR = ("cfr", "lcfr")


def board_buckets(tree: PublicTree, k: int) -> dict:
    """{board id: [hands] bucket (0..k-1, -1 for hands the board kills)} for every board of ``tree``'s
    decision nodes: equal-count groups of E[HS] against a uniform opponent, over the sweep's shared
    hand list (a player's hands are its window of it)."""
    from ..poker.cards import parse_cards
    from ..poker.equity import equity
    from .terminals import SWEEP

    # the sweep's shared list of hands (both players' lists are windows of it)
    cards = np.asarray(tree.terminals.cards, dtype=np.int64) if tree.terminals.kind == SWEEP else None
    boards = tree.extra.get("boards")
    if cards is None or boards is None:
        raise ZerosumError(f"card abstraction on the public tree is for hold'em subgames; {tree.game_id} is not one "
                           f"(the poker family's runs on the history tree: --option abstraction=K without --form)")
    out = {}
    for b in np.unique(tree.board[tree.kind == DECISION]).tolist():
        board = parse_cards(boards[b])
        eq = equity(board, cards, np.ones(len(cards)))
        live = np.isfinite(eq)
        bucket = np.full(len(cards), -1, dtype=np.int64)
        order = np.flatnonzero(live)[np.argsort(eq[live], kind="stable")]
        bucket[order] = (np.arange(len(order)) * k) // max(len(order), 1)
        out[b] = bucket
    return out


def _board_path(tree: PublicTree, node: int) -> list[int]:
    """The board ids of the decision streets from the root to ``node`` (one per street, in order)."""
    path, n = [], node
    while n >= 0:
        if tree.kind[n] == DECISION:
            b = int(tree.board[n])
            if not path or path[-1] != b:
                path.append(b)
        n = int(tree.parent[n]) if n > 0 else -1
    return path[::-1]


class Abstraction:
    """The tie groups of both players' arrays: ``groups[p]`` ([entries] int64, the abstract
    information-set action of each entry; hands a board kills keep groups of their own) and
    ``counts[p]``; ``infosets[p]`` the abstract information sets."""

    def __init__(self, tree: PublicTree, k: int):
        if isinstance(k, bool) or not isinstance(k, (int, np.integer)) or k < 1:
            raise ZerosumError(f"--option abstraction takes a number of buckets >= 1, got {k!r}")
        if tree.iso is not None:
            raise ZerosumError("card abstraction ties hands across suits already; build the tree with "
                               "isomorphism=False (--option isomorphism=false)")
        self.tree, self.k = tree, int(k)
        buckets = board_buckets(tree, self.k)
        self.groups, self.counts, self.infosets = [], [], []
        for p in (0, 1):
            n = tree.n_hands[p]
            mine = tree.hand_window(p)  # (the buckets are of the sweep's shared list)
            groups = np.empty(tree.infoset_actions()[p], dtype=np.int64)
            next_id, infosets = 0, 0
            for node in tree.decision_nodes(p).tolist():
                path = _board_path(tree, node)
                key = np.zeros(n, dtype=np.int64)
                dead = np.zeros(n, dtype=bool)
                for b in path:  # perfect recall: the buckets of every street so far
                    key = key * self.k + np.maximum(buckets[b][mine], 0)
                    dead |= buckets[b][mine] < 0
                key = np.where(dead, -1 - np.arange(n), key)  # a killed hand is alone
                _, local = np.unique(key, return_inverse=True)
                m = int(local.max()) + 1
                infosets += len(np.unique(key[~dead]))
                na, o = int(tree.n_children[node]), int(tree.offset[node])
                for a in range(na):
                    groups[o + a * n:o + (a + 1) * n] = next_id + a * m + local
                next_id += na * m
            self.groups.append(groups)
            self.counts.append(np.bincount(groups, minlength=next_id).astype(np.float64))
            self.infosets.append(infosets)

    def tie(self, arrays: np.ndarray, p: int) -> None:
        """Replace, in place, each entry of player p's ``arrays`` by the mean of its group."""
        g = self.groups[p]
        means = np.bincount(g, weights=arrays, minlength=len(self.counts[p])) / np.maximum(self.counts[p], 1.0)
        arrays[:] = means[g].astype(arrays.dtype, copy=False)

    def apply(self, solver, p: int) -> None:
        """The hook after player p's pass: its regrets and average sums tied."""
        self.tie(solver.regrets[p], p)
        self.tie(solver.average[p], p)


def abstract_solver(tree: PublicTree, k: int, algorithm: str = "lcfr", dtype: str = "float64", **options):
    """A public-tree solver of ``algorithm`` (cfr or lcfr) on ``tree`` whose iterates are those of the
    K-bucket abstraction (see the module docstring); its average policy is the lifted policy."""
    from .solver import public_solver_class

    if algorithm not in LINEAR:
        raise ZerosumError(f"card abstraction on the public tree ties regrets by their mean, exact for the linear "
                           f"rules only: use -a {' or -a '.join(LINEAR)}, not {algorithm}")
    if dtype in ("int16", "avg16"):
        raise ZerosumError(f"card abstraction ties float sums; drop --option dtype={dtype} (16-bit storage)")
    abstraction = Abstraction(tree, k)
    solver = public_solver_class(algorithm, dtype)(tree, **options)
    solver.ties = abstraction  # applied after each player's pass
    return solver, abstraction
