"""The shape tree: a public tree with the identical subtrees below a chance node walked once.

Below a public chance node of the poker family every card dealt leads to the same betting
subtree; only the board (hence the terminal values) and the solver's entries differ.  The shape
tree keeps one *shape node* for each set of such identical nodes, with a *multiplicity* m (how
many public nodes it stands for, one per combination of cards dealt above it), so that a pass
visits it once with vectors [m x hands] instead of m times with [hands].

* ``members``: the public nodes each shape node stands for, one per *row* (rows of shape node s
  are ``row[s] .. row[s] + mult[s] - 1``, in the order of the cards dealt);
* a chance node whose children have identical subtrees gets one shape child of multiplicity
  ``mult * fan`` (row u * fan + b: outcome u above, card b here); any other node has one shape
  child per child, of its own multiplicity;
* the **kernel layout**: at a shape decision node of player q the solver's entries are one block
  [action x row x hand] (``koff[s] + a * m * n_q + u * n_q + i``), so every loop of the pass is
  one contiguous run of m * n_q; ``perm[q]`` maps it to the form's own layout (``offset`` per
  public node, [action x hand]), which saved states, policies and every other reader use.

Two nodes are identical when their kinds, players, stakes and children are (recursively); boards
may differ.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .form import CHANCE_NODE, DECISION, FOLD, PublicTree


@dataclass(frozen=True)
class ShapeTree:
    kind: np.ndarray  # int64 per shape node
    player: np.ndarray  # acting player (decision), -1 otherwise
    first_child: np.ndarray  # first shape child (children consecutive), -1 for terminals
    n_children: np.ndarray  # shape children (1 at a collapsed chance node)
    fan: np.ndarray  # cards dealt at a collapsed chance node, 1 elsewhere
    mult: np.ndarray  # public nodes per shape node
    row: np.ndarray  # first row of the shape node
    vrow: np.ndarray  # first row among the inner (non-terminal) nodes' rows, -1 at terminals
    koff: np.ndarray  # start of its [action x row x hand] block in the acting player's arrays, -1 elsewhere
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


def _signatures(tree: PublicTree) -> np.ndarray:
    """An id per public node, equal for nodes with identical subtrees (boards aside)."""
    ids: dict = {}
    sig = np.zeros(tree.n_nodes, dtype=np.int64)
    kind, player, stake = tree.kind.tolist(), tree.player.tolist(), tree.stake.tolist()
    first, count = tree.first_child.tolist(), tree.n_children.tolist()
    sl = [0] * tree.n_nodes
    for n in range(tree.n_nodes - 1, -1, -1):
        c0 = first[n]
        key = (kind[n], player[n], stake[n], tuple(sl[c0:c0 + count[n]]) if count[n] else ())
        sl[n] = ids.setdefault(key, len(ids))
    sig[:] = sl
    return sig


def shape_tree(tree: PublicTree) -> ShapeTree:
    """The shape tree of ``tree`` (built once per tree and kept in ``tree.extra``)."""
    # (a tree copied with dataclasses.replace shares ``extra``: the key says which arrays it was for)
    key = tuple(id(a) for a in (tree.kind, tree.player, tree.stake, tree.board, tree.offset, tree.first_child))
    found = tree.extra.get("shapes")
    if found is not None and found[0] == key:
        return found[1]
    sig = _signatures(tree)
    kinds, players, counts, fans, members, parents = [], [], [], [], [], []
    queue = [(np.zeros(1, dtype=np.int64), -1)]
    head = 0
    while head < len(queue):
        rows, parent = queue[head]
        head += 1
        rep = int(rows[0])
        k, na = int(tree.kind[rep]), int(tree.n_children[rep])
        kinds.append(k)
        players.append(int(tree.player[rep]) if k == DECISION else -1)
        members.append(rows)
        parents.append(parent)
        me = len(kinds) - 1
        if k >= FOLD:
            counts.append(0)
            fans.append(1)
            continue
        c0 = tree.first_child[rows]
        if k == CHANCE_NODE and na > 1 and np.all(sig[tree.first_child[rep]:tree.first_child[rep] + na] ==
                                                  sig[tree.first_child[rep]]):
            counts.append(1)
            fans.append(na)
            queue.append(((c0[:, None] + np.arange(na)[None, :]).ravel(), me))
        else:
            counts.append(na)
            fans.append(1)
            for a in range(na):
                queue.append((c0 + a, me))
    n = len(kinds)
    kind = np.array(kinds, dtype=np.int64)
    parent = np.array(parents, dtype=np.int64)
    first = np.full(n, -1, dtype=np.int64)
    for s in range(n - 1, 0, -1):
        first[parent[s]] = s
    mult = np.array([len(m) for m in members], dtype=np.int64)
    row = np.concatenate([[0], np.cumsum(mult)[:-1]]).astype(np.int64)
    inner = np.where(kind < FOLD, mult, 0)
    vrow = np.where(kind < FOLD, np.concatenate([[0], np.cumsum(inner)[:-1]]), -1).astype(np.int64)
    allm = np.concatenate(members).astype(np.int64)
    koff = np.full(n, -1, dtype=np.int64)
    used = [0, 0]
    perms = [[], []]
    n_hands = tree.n_hands
    for s in range(n):
        if kind[s] != DECISION:
            continue
        q, m, na = players[s], int(mult[s]), counts[s]
        nq = n_hands[q]
        koff[s] = used[q]
        used[q] += na * m * nq
        base = tree.offset[members[s]]  # [m]
        idx = base[None, :, None] + (np.arange(na) * nq)[:, None, None] + np.arange(nq)[None, None, :]
        perms[q].append(idx.ravel())
    perm = tuple(np.concatenate(p).astype(np.int64) if p else np.zeros(0, dtype=np.int64) for p in perms)
    shapes = ShapeTree(kind=kind, player=np.array(players, dtype=np.int64), first_child=first,
                       n_children=np.array(counts, dtype=np.int64), fan=np.array(fans, dtype=np.int64), mult=mult,
                       row=row, vrow=vrow, koff=koff, members=allm, row_board=tree.board[allm].copy(),
                       row_stake=tree.stake[allm].copy(), row_player=tree.player[allm].copy(), perm=perm)
    tree.extra["shapes"] = (key, shapes)
    return shapes
