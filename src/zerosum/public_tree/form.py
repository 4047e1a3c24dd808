"""The public-tree form: what a solver walks once per iteration, with hand vectors inside.

A game whose actions are public and whose private state is each player's hand compiles to

* a **public tree** in flat arrays, parents before children (node 0 is the root) and the children
  of a node consecutive: ``kind`` (decision, chance, fold, showdown), ``player`` (who acts; at a
  fold, who folded), ``first_child``/``n_children``, ``board`` (id of the public cards dealt so
  far, an index into the terminal data), ``stake`` (at a fold what the folder loses, at a showdown
  what the winner wins) and ``offset`` (where a decision node's [action x hand] block starts in
  the acting player's flat arrays: entry ``offset + a * n_hands[p] + i`` is hand i, action a);
* each player's **hands** (labels and initial weights, the range), a list per player: a hold'em
  tree lists each player's range only, both lists windows of the terminals' one list
  (:meth:`PublicTree.hand_window`);
* **terminal data** (:mod:`zerosum.public_tree.terminals`) that turns the opponent's reach vector
  at a terminal into the value of each of the player's hands, chance already inside.

Chance is folded into the terminal weights, so reach vectors carry only the players' own
probabilities (times the ranges) and a chance node just passes them on.  Nothing is stored per
history: memory is the information-set actions (regrets and average) plus one vector per node.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from ..errors import ZerosumError

DECISION, CHANCE_NODE, FOLD, SHOWDOWN = 0, 1, 2, 3
SWEEP_KIND = 1  # (terminals.SWEEP: the card evaluator, whose lists are windows of one)
KIND_NAMES = ("decision", "chance", "fold", "showdown")


#: the node arrays' types: int8 for kinds and players, int32 for node numbers, counts and board
#: ids, int64 for the offsets (a player's entries can pass 2 ** 31) and float64 for the stakes:
#: the narrowest types that hold them, since a flop has hundreds of thousands of nodes.
NODE_TYPES = {"kind": np.int8, "player": np.int8, "parent": np.int32, "first_child": np.int32,
              "n_children": np.int32, "board": np.int32}


@dataclass(frozen=True)
class PublicTree:
    game_id: str
    kind: np.ndarray  # int8 per node (NODE_TYPES: the narrowest that hold them)
    player: np.ndarray  # int8: acting player (decision), folder (fold), -1 otherwise
    parent: np.ndarray  # int32
    first_child: np.ndarray  # int32
    n_children: np.ndarray  # int32
    board: np.ndarray  # int32: board id per node
    stake: np.ndarray  # float64
    offset: np.ndarray  # int64: start of the node's block in the acting player's arrays, -1 elsewhere
    labels: Sequence  # public label per node (a tuple or NodeLabels); an information set is hand label + public label
    action_labels: Sequence  # per node, a tuple of action labels (empty for non-decisions)
    hand_labels: tuple[tuple[str, ...], tuple[str, ...]]
    ranges: tuple[np.ndarray, np.ndarray]  # initial weight of each hand (float64)
    terminals: object  # DenseTerminals or SweepTerminals
    histories: int  # histories the per-history tree of the same game would have
    pot: float  # chips in the pot at the root
    compile_s: float = 0.0
    extra: dict = field(default_factory=dict, repr=False)

    @property
    def n_nodes(self) -> int:
        return len(self.kind)

    @property
    def n_hands(self) -> tuple[int, int]:
        return len(self.ranges[0]), len(self.ranges[1])

    @property
    def width(self) -> int:
        """The length of the passes' vector rows: the longer hand list, or the terminals' shared
        list where it is longer (a hold'em tree's: the sweep's scratch is laid out on it)."""
        shared = len(self.terminals.cards) if getattr(self.terminals, "kind", None) == SWEEP_KIND else 0
        return max(*self.n_hands, shared)

    def hand_window(self, p: int) -> np.ndarray:
        """Player p's hands as indices into the terminals' shared list (hold'em: the window
        ``start .. start + n_hands[p] - 1``; the other evaluators: p's own list, 0 .. n - 1)."""
        if getattr(self.terminals, "kind", None) == SWEEP_KIND:
            start, n = (int(x) for x in self.terminals.windows()[p])
            return np.arange(start, start + n)
        return np.arange(self.n_hands[p])

    def hand_cards(self, p: int) -> np.ndarray | None:
        """Player p's hands' two cards ([n_hands[p], 2], hold'em), or None (no card terminals)."""
        if getattr(self.terminals, "kind", None) != SWEEP_KIND:
            return None
        return np.asarray(self.terminals.cards, dtype=np.int64)[self.hand_window(p)]

    @property
    def iso(self):
        """Suit isomorphism's mirrors, (first, count, perm, swap) per node below a deal, or None:
        the node stands for ``count[n]`` more deals whose values are its own read through the hand
        permutations ``perm[swap[m]]`` for m in ``first[n]`` .. ``first[n] + count[n] - 1`` (see
        :func:`zerosum.public_tree.holdem_build.holdem_public_tree`)."""
        return self.extra.get("iso")

    def infoset_actions(self) -> tuple[int, int]:
        """Per player: sum over its decision nodes of actions x hands (the length of its arrays)."""
        out = []
        for p in (0, 1):
            mine = (self.kind == DECISION) & (self.player == p)
            out.append(int(self.n_children[mine].sum()) * self.n_hands[p])
        return out[0], out[1]

    def decision_nodes(self, player: int) -> np.ndarray:
        return np.flatnonzero((self.kind == DECISION) & (self.player == player))

    def nbytes(self) -> int:
        """Memory held by the form itself (tree arrays, terminal data and suit isomorphism's mirrors)."""
        arrays = (self.kind, self.player, self.parent, self.first_child, self.n_children, self.board, self.stake,
                  self.offset, *self.ranges, *(self.iso or ()))
        return sum(a.nbytes for a in arrays) + self.terminals.nbytes()

    def sizes(self) -> dict:
        counts = np.bincount(self.kind, minlength=4)
        return {"form": "public-tree", "public_nodes": self.n_nodes,
                **{f"{KIND_NAMES[k]}_nodes": int(counts[k]) for k in range(4)},
                "hands": list(self.n_hands), "infoset_actions": sum(self.infoset_actions()),
                "histories": self.histories, "pot": self.pot}


class TreeBuilder:
    """Collects public nodes breadth-first, so that parents precede children and siblings are consecutive."""

    def __init__(self):
        self.kind, self.player, self.parent, self.board, self.stake = [], [], [], [], []
        self.labels, self.actions, self.first_child, self.n_children = [], [], [], []

    def add(self, kind: int, player: int, parent: int, board: int, stake: float, label: str,
            actions: tuple[str, ...] = ()) -> int:
        self.kind.append(kind)
        self.player.append(player)
        self.parent.append(parent)
        self.board.append(board)
        self.stake.append(stake)
        self.labels.append(label)
        self.actions.append(tuple(actions))
        self.first_child.append(-1)
        self.n_children.append(0)
        return len(self.kind) - 1

    def finish(self, game_id: str, hand_labels, ranges, terminals, histories: int, pot: float,
               compile_s: float = 0.0, **extra) -> PublicTree:
        nodes = Nodes(np.array(self.kind, dtype=np.int64), np.array(self.player, dtype=np.int64),
                      np.array(self.parent, dtype=np.int64), np.array(self.board, dtype=np.int64),
                      np.array(self.stake, dtype=np.float64), tuple(self.labels), tuple(self.actions))
        return assemble(game_id, nodes, Hands(hand_labels, ranges), terminals, histories, pot, compile_s, **extra)


@dataclass(frozen=True)
class Nodes:
    """A public tree's nodes as a builder lists them, parents first with the children of a node
    consecutive: per node its kind, acting player (the folder at a fold, -1 elsewhere), parent,
    board id, stake, public label and action labels (empty but at decisions).  What
    :func:`assemble` completes into a :class:`PublicTree`; any sequences (NumPy arrays or lists)."""

    kind: object
    player: object
    parent: object
    board: object
    stake: object
    labels: object
    action_labels: object


@dataclass(frozen=True)
class Hands:
    """Both players' private hands: ``labels`` (per player, a label per hand) and ``ranges`` (per
    player, the initial weight of each hand)."""

    labels: object
    ranges: object


def assemble(game_id: str, nodes: Nodes, players: Hands, terminals, histories: int, pot: float,
             compile_s: float = 0.0, **extra) -> PublicTree:
    """The PublicTree of ``nodes`` (what :class:`TreeBuilder` collects, or a vectorized builder
    makes): adds ``first_child``, ``n_children`` and the ``offset`` of each decision node's block in
    its player's arrays.  ``players``: both players' hand labels and ranges; ``extra``: the form's
    ``extra`` (hold'em: boards, hands, suit isomorphism)."""
    kind = np.asarray(nodes.kind, dtype=np.int64)
    player = np.asarray(nodes.player, dtype=np.int64)
    parent = np.asarray(nodes.parent, dtype=np.int64)
    ranges = players.ranges
    n = len(kind)
    if np.any(parent[1:] >= np.arange(1, n)):
        raise AssertionError("public tree: a parent after its child")
    count = np.bincount(parent[1:], minlength=n).astype(np.int64)
    first = np.full(n, n, dtype=np.int64)
    np.minimum.at(first, parent[1:], np.arange(1, n, dtype=np.int64))  # children are consecutive
    first[count == 0] = -1
    n_hands = (len(ranges[0]), len(ranges[1]))
    offset = np.full(n, -1, dtype=np.int64)
    for p in (0, 1):  # each player's decision nodes in node order, blocks of actions x hands
        mine = np.flatnonzero((kind == DECISION) & (player == p))
        size = count[mine] * n_hands[p]
        offset[mine] = np.cumsum(size) - size
    t = NODE_TYPES
    return PublicTree(
        game_id=game_id, kind=kind.astype(t["kind"]), player=player.astype(t["player"]),
        parent=parent.astype(t["parent"]), first_child=first.astype(t["first_child"]),
        n_children=count.astype(t["n_children"]), board=np.asarray(nodes.board, dtype=t["board"]),
        stake=np.asarray(nodes.stake, dtype=np.float64), offset=offset, labels=_per_node(nodes.labels),
        action_labels=_per_node(nodes.action_labels), hand_labels=(tuple(players.labels[0]), tuple(players.labels[1])),
        ranges=(np.asarray(ranges[0], dtype=np.float64), np.asarray(ranges[1], dtype=np.float64)),
        terminals=terminals, histories=int(histories), pot=float(pot), compile_s=compile_s, extra=extra)


def _per_node(items) -> Sequence:
    """A node's labels as :class:`PublicTree` keeps them: :class:`NodeLabels` as they are, anything else as a tuple."""
    return items if isinstance(items, NodeLabels) else tuple(items)


class NodeLabels(Sequence):
    """A label per public node, made when asked: node n's is the concatenation of
    ``table[index[n]]`` over the ``parts`` (pairs of a tuple and an int32 array per node), e.g.
    the public cards' prefix by board id and the betting line's suffix by skeleton node.  A
    hold'em tree's nodes repeat a few boards and betting lines, so this holds two small tuples and
    two int32 per node where the labels' Python strings took 47 MiB on TexasSolver's flop (629,798
    nodes), and the action labels' tuple 4.8 MiB.  It reads as the tuple it stands for (indexing,
    ``len``, iteration, ``in``, ``index``, ``==`` with a tuple or another one); one part alone
    gives the table's items themselves (a tuple of action labels per node)."""

    def __init__(self, *parts):
        self.parts = tuple((tuple(table), np.asarray(index, dtype=np.int32)) for table, index in parts)

    def __len__(self) -> int:
        return len(self.parts[0][1])

    def _item(self, n: int):
        if len(self.parts) == 1:
            table, index = self.parts[0]
            return table[index[n]]
        return "".join(table[index[n]] for table, index in self.parts)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return tuple(self._item(n) for n in range(*k.indices(len(self))))
        n = int(k) + len(self) if int(k) < 0 else int(k)
        if not 0 <= n < len(self):
            raise IndexError("node label index out of range")
        return self._item(n)

    def __iter__(self):
        columns = [(table, index.tolist()) for table, index in self.parts]
        if len(columns) == 1:
            table, index = columns[0]
            return (table[i] for i in index)
        return ("".join(x) for x in zip(*([table[i] for i in index] for table, index in columns)))

    def _candidates(self, value) -> np.ndarray:
        """The nodes whose label may be ``value``: those whose parts' entries spell it."""
        if len(self.parts) > 1 and not isinstance(value, str):
            return np.zeros(0, dtype=np.int64)
        splits = [((), value)]  # (entries so far, the rest of the value)
        for k, (table, _) in enumerate(self.parts):
            if k == len(self.parts) - 1:
                splits = [(got + (i,), None) for got, rest in splits for i, x in enumerate(table) if x == rest]
            else:
                splits = [(got + (i,), rest[len(x):]) for got, rest in splits for i, x in enumerate(table)
                          if rest.startswith(x)]
        mask = np.zeros(len(self), dtype=bool)
        for got, _ in splits:
            mask |= np.logical_and.reduce([index == i for (_, index), i in zip(self.parts, got)])
        return np.flatnonzero(mask)

    def index(self, value, start: int = 0, stop: int | None = None) -> int:
        stop = len(self) if stop is None else stop
        for n in self._candidates(value).tolist():
            if start <= n < stop:
                return n
        raise ValueError(f"{value!r} is not a node label")

    def __contains__(self, value) -> bool:
        return len(self._candidates(value)) > 0

    def __eq__(self, other):
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):  # (a stored tree's Lines too)
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"NodeLabels({len(self)} nodes)"


def find_node(tree: PublicTree, label: str) -> int:
    """The public node with this label (``":9h:cc/r"``: cards dealt after the starting board, then
    the betting of each street, '/' between streets), or a one-line refusal naming some labels."""
    try:
        return tree.labels.index(label)
    except ValueError:
        pass
    near = [tree.labels[int(k)] for k in np.flatnonzero(tree.kind == DECISION)[:6]]
    iso = ("; this tree is suit-isomorphic (one deal per class of suit-alike cards): read a mirror deal's node "
           "on the whole tree, with the policy's on_full_tree") if tree.iso is not None else ""
    raise ZerosumError(f"no public node {label!r} in {tree.game_id}; labels look like {', '.join(map(repr, near))} "
                       f"(the root is {tree.labels[0]!r}){iso}")
