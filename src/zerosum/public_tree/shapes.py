"""The shape tree: a public tree with its identical subtrees walked once, wherever they hang.

In the poker family every betting subtree of the last street is the same whatever the cards
dealt and whatever the betting before it: only the board (hence the terminal values) and the
stake differ.  The shape tree keeps one *shape node* for each class of such nodes, with a
*multiplicity* m (how many public nodes it stands for), so that a pass visits it once with
vectors [m x hands] instead of m times with [hands].  On poker 13x4 with 8 raises per street the
11,322 public nodes are 40 shape nodes, the 221 second-street subtrees (17 first-street lines
times 13 cards) one.

* ``members``: the public nodes each shape node stands for, one per *row* (rows of shape node s
  are ``row[s] .. row[s] + mult[s] - 1``); a row carries its own board, stake and folder;
* **edges**: shape node s has ``n_children[s]`` edges from ``first_edge[s]``, one per action (or
  card dealt); edge e leads to shape node ``edge_child[e]`` and covers its rows ``edge_row[e] ..
  edge_row[e] + mult[s] - 1``, row u of s to row ``edge_row[e] + u``.  A shape node with several
  incoming edges (``entries`` > 1: the cards of one chance node, or equal subtrees below
  different lines) gathers its rows from them; one with a single entry has its parent's rows;
* the **kernel layout**: at a shape decision node of player q the solver's entries are one block
  [action x hand x row] (``koff[s] + a * m * n_q + i * m + u``), so every loop of the pass is
  one contiguous run of m * n_q, rows innermost (:mod:`zerosum.public_tree.shape_kernels`);
  ``perm[q]`` maps it to the form's own layout (``offset`` per public node, [action x hand]),
  which saved states, policies and every other reader use.

Two public nodes are in one class when their kinds, players (the folder at a fold) and children
are (recursively): boards and stakes may differ.  Classes are listed by decreasing height, so
that every parent comes before its children.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .form import DECISION, FOLD, PublicTree


@dataclass(frozen=True)
class ShapeTree:
    kind: np.ndarray  # int64 per shape node
    player: np.ndarray  # acting player (decision), -1 otherwise
    n_children: np.ndarray  # edges (actions or cards dealt); 0 at terminals
    first_edge: np.ndarray  # first edge of the shape node (its edges consecutive), -1 at terminals
    edge_child: np.ndarray  # per edge: the shape node it leads to
    edge_row: np.ndarray  # per edge: the first of the child's rows it covers
    entries: np.ndarray  # incoming edges per shape node (0 at the root)
    mult: np.ndarray  # public nodes per shape node
    row: np.ndarray  # first row of the shape node
    vrow: np.ndarray  # first row among the inner (non-terminal) nodes' rows, -1 at terminals
    koff: np.ndarray  # start of its [action x hand x row] block in the acting player's arrays, -1 elsewhere
    members: np.ndarray  # public node per row
    row_board: np.ndarray  # board id per row
    row_stake: np.ndarray  # stake per row
    row_player: np.ndarray  # player per row (the folder at a fold)
    perm: tuple[np.ndarray, np.ndarray]  # per player: kernel index -> the form's index

    @property
    def n_shapes(self) -> int:
        return len(self.kind)

    @property
    def inner_rows(self) -> int:
        """Rows of the non-terminal shape nodes (what the update pass keeps vectors for)."""
        return int(self.mult[self.kind < FOLD].sum())

    def to_form(self, player: int, arr: np.ndarray) -> np.ndarray:
        """An array of ``player`` in the kernel layout, copied to the form's layout."""
        out = np.empty_like(arr)
        out[self.perm[player]] = arr
        return out

    def to_kernel(self, player: int, arr: np.ndarray) -> np.ndarray:
        """An array of ``player`` in the form's layout, copied to the kernel layout."""
        return np.ascontiguousarray(np.asarray(arr)[self.perm[player]])


def _signatures(tree: PublicTree) -> tuple[np.ndarray, np.ndarray]:
    """An id per public node, equal for nodes with identical subtrees (boards and stakes aside),
    and each node's height (the longest path down to a terminal)."""
    ids: dict = {}
    kind, player = tree.kind.tolist(), tree.player.tolist()
    first, count = tree.first_child.tolist(), tree.n_children.tolist()
    sig = [0] * tree.n_nodes
    height = [0] * tree.n_nodes
    for n in range(tree.n_nodes - 1, -1, -1):  # children after parents
        c0, na = first[n], count[n]
        key = (kind[n], player[n], tuple(sig[c0:c0 + na]) if na else ())
        sig[n] = ids.setdefault(key, len(ids))
        if na:
            height[n] = 1 + max(height[c0:c0 + na])
    return np.array(sig, dtype=np.int64), np.array(height, dtype=np.int64)


def shape_tree(tree: PublicTree) -> ShapeTree:
    """The shape tree of ``tree`` (built once per tree and kept in ``tree.extra``)."""
    # (a tree copied with dataclasses.replace shares ``extra``: the key says which arrays it was for)
    key = tuple(id(a) for a in (tree.kind, tree.player, tree.stake, tree.board, tree.offset, tree.first_child))
    found = tree.extra.get("shapes")
    if found is not None and found[0] == key:
        return found[1]
    sig, height = _signatures(tree)
    ids, first_seen = np.unique(sig, return_index=True)
    order = np.lexsort((first_seen, -height[first_seen]))  # parents first, then as the tree lists them
    shape_of = dict(zip(ids[order].tolist(), range(len(order))))
    n = len(order)
    rep = first_seen[order]
    kind = tree.kind[rep].astype(np.int64)
    player = np.where(kind == DECISION, tree.player[rep], -1).astype(np.int64)
    n_children = np.where(kind < FOLD, tree.n_children[rep], 0).astype(np.int64)
    first_edge = np.where(kind < FOLD, np.concatenate([[0], np.cumsum(n_children)[:-1]]), -1).astype(np.int64)
    edge_child = np.zeros(int(n_children.sum()), dtype=np.int64)
    edge_row = np.zeros_like(edge_child)
    rows: list[list[np.ndarray]] = [[] for _ in range(n)]
    used = [0] * n
    rows[0].append(np.zeros(1, dtype=np.int64))
    used[0] = 1
    for s in range(n):  # every parent of s is done: its rows are complete
        if n_children[s] == 0:
            continue
        mine = np.concatenate(rows[s])
        rows[s] = [mine]
        c0 = tree.first_child[mine]
        for a in range(int(n_children[s])):
            c = shape_of[int(sig[c0[0] + a])]
            e = first_edge[s] + a
            edge_child[e], edge_row[e] = c, used[c]
            rows[c].append(c0 + a)
            used[c] += len(mine)
    members = [np.concatenate(r) for r in rows]
    mult = np.array([len(m) for m in members], dtype=np.int64)
    row = np.concatenate([[0], np.cumsum(mult)[:-1]]).astype(np.int64)
    inner = np.where(kind < FOLD, mult, 0)
    vrow = np.where(kind < FOLD, np.concatenate([[0], np.cumsum(inner)[:-1]]), -1).astype(np.int64)
    entries = np.bincount(edge_child, minlength=n).astype(np.int64)
    allm = np.concatenate(members).astype(np.int64)
    koff = np.full(n, -1, dtype=np.int64)
    used = [0, 0]
    perms = [[], []]
    n_hands = tree.n_hands
    for s in range(n):
        if kind[s] != DECISION:
            continue
        q, m, na = int(player[s]), int(mult[s]), int(n_children[s])
        nq = n_hands[q]
        koff[s] = used[q]
        used[q] += na * m * nq
        base = tree.offset[members[s]]  # [m]
        idx = base[None, None, :] + (np.arange(na) * nq)[:, None, None] + np.arange(nq)[None, :, None]
        perms[q].append(idx.ravel())
    perm = tuple(np.concatenate(p).astype(np.int64) if p else np.zeros(0, dtype=np.int64) for p in perms)
    shapes = ShapeTree(kind=kind, player=player, n_children=n_children, first_edge=first_edge, edge_child=edge_child,
                       edge_row=edge_row, entries=entries, mult=mult, row=row, vrow=vrow, koff=koff, members=allm,
                       row_board=tree.board[allm].copy(), row_stake=tree.stake[allm].copy(),
                       row_player=tree.player[allm].copy(), perm=perm)
    tree.extra["shapes"] = (key, shapes)
    return shapes


def rank_rows(shapes: ShapeTree, terminals) -> np.ndarray:
    """Per row, for the poker family's O(ranks) terminals (:class:`~zerosum.public_tree.terminals.
    RankTerminals`): the showdown scale, the fold scales for players 0 and 1, and the public card's
    rank (-1: none), [4 x rows] flattened, computed as the per-node pass computes them."""
    st, bd = shapes.row_stake, shapes.row_board
    c = terminals.const[bd]
    folder = shapes.row_player
    return np.concatenate([st * c, np.where(folder == 0, -st, st) * c, np.where(folder == 1, -st, st) * c,
                           terminals.board_rank[bd].astype(np.float64)])
