"""A policy on the public tree: per player, per decision node, an [action x hand] probability table.

Saved as JSON (never pickle); the compact solution file (``.zsp``: 16-bit or float32
probabilities in a zip, read one node block at a time) is written and read by
:mod:`zerosum.solutions` (:func:`~zerosum.solutions.saved.save_policy`,
:func:`~zerosum.solutions.saved.open_solution`), which this package never imports.  The JSON::

    {"format": "zerosum.public-policy", "version": 1, "game": "poker(...)",
     "hands": [[hand labels of player 0], [of player 1]],
     "nodes": [{"node": 0, "public": ":", "player": 0, "actions": ["c", "r"],
                "probs": [[p(c | hand 0), p(c | hand 1), ...], [p(r | hand 0), ...]]}, ...]}

``public`` is the public label (board cards dealt, betting per round); an information set is a
hand label followed by the public label (as on the history tree of the poker family).
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import ZerosumError
from ..poker.cards import cards_str, parse_cards
from .form import DECISION, PublicTree

FORMAT = "zerosum.public-policy"
VERSION = 1
#: paths with this suffix are solution files: :func:`zerosum.solutions.saved.save_policy` writes them
SOLUTION_SUFFIX = ".zsp"


#: entries gathered at once by :func:`normalized` (2 MiB of float64 per temporary)
CHUNK = 1 << 18


def normalized(tree: PublicTree, player: int, sums: np.ndarray, out: np.ndarray | None = None) -> np.ndarray:
    """Positive parts of ``sums`` normalized over each node's actions, per hand (uniform where none is
    positive): regret matching on regrets, the average strategy on average sums.  In NumPy, one
    gather per action count rather than a loop over nodes, which trees of hundreds of thousands of
    nodes make slow; the sums over actions add the actions in order, as the depth-first pass does.

    The gathers run over chunks of about CHUNK entries, so the temporaries (an int64 index, the
    gathered block, its positive part, the quotient and the result) take a few MiB rather than
    five times the player's arrays, in the same time.  ``out``: where to write (float64, may be
    ``sums`` itself: each chunk is read before it is written); a new array by default."""
    sums = np.asarray(sums)
    if out is None:
        out = np.empty(len(sums))
    n = tree.n_hands[player]
    nodes = tree.decision_nodes(player)
    counts = tree.n_children[nodes]
    for na in np.unique(counts):
        offsets = tree.offset[nodes[counts == na]]
        local = ((np.arange(na) * n)[:, None] + np.arange(n)[None, :])[None]  # [1, na, n]
        step = max(1, CHUNK // int(na * n))
        for k in range(0, len(offsets), step):
            idx = offsets[k:k + step, None, None] + local  # [k, na, n]
            block = sums[idx].astype(np.float64, copy=False)  # a gathered copy
            np.maximum(block, 0.0, out=block)
            total = block[:, 0].copy()
            for a in range(1, na):
                total += block[:, a]
            positive = total > 0
            block /= np.where(positive, total, 1.0)[:, None, :]
            out[idx] = np.where(positive[:, None, :], block, 1.0 / na)
    return out


class PublicPolicy:
    """Behavioral strategies of both players, flat in the solver's layout."""

    def __init__(self, tree: PublicTree, probs):
        self.tree = tree
        self.probs = [np.asarray(p, dtype=np.float64) for p in probs]
        sizes = tree.infoset_actions()
        if len(self.probs) != 2 or any(pi.shape != (n,) for pi, n in zip(self.probs, sizes)):
            raise ZerosumError(f"a public-tree policy of {tree.game_id!r} needs {sizes[0]} and {sizes[1]} "
                               f"probabilities, got {[pi.shape for pi in self.probs]}: was it made for another game?")

    @classmethod
    def from_sums(cls, tree: PublicTree, sums, in_place: bool = False) -> PublicPolicy:
        """The policy of ``sums`` (regrets or average sums); ``in_place``: the caller's float64
        arrays become the probabilities (no second copy of that size; never a solver's own sums,
        which its next iterations still read)."""
        def out(a):
            return a if in_place and isinstance(a, np.ndarray) and a.dtype == np.float64 else None

        return cls(tree, [normalized(tree, p, sums[p], out(sums[p])) for p in (0, 1)])

    def table(self, node: int) -> np.ndarray:
        """[actions x hands] probabilities of the player acting at ``node``."""
        t = self.tree
        p = int(t.player[node])
        n, o, na = t.n_hands[p], t.offset[node], t.n_children[node]
        return self.probs[p][o:o + na * n].reshape(na, n)

    def to_tabular(self, compiled_game):
        """The same policy on the history tree (poker family: infoset = hand label + public label)."""
        from ..core.policy import TabularPolicy

        probs = [tp.uniform() for tp in compiled_game.treeplexes]
        t = self.tree
        filled = [0, 0]  # information sets given a strategy: all of them, unless the game is another
        other_actions = False
        for node in np.flatnonzero(t.kind == DECISION):
            p = int(t.player[node])
            tp = compiled_game.treeplexes[p]
            table = self.table(node)
            for i, hand in enumerate(t.hand_labels[p]):
                k = tp.index.get(hand + t.labels[node])
                if k is not None:  # hands the deal cannot give here have no information set there
                    f = tp.infoset_first[k]
                    if tp.infoset_size[k] != table.shape[0]:  # another game, other actions here
                        other_actions = True
                        continue
                    probs[p][f:f + tp.infoset_size[k]] = table[:, i]
                    filled[p] += 1
        if other_actions or any(n != tp.n_infosets for n, tp in zip(filled, compiled_game.treeplexes)):
            # otherwise the rest would silently stay uniform: a wrong policy, not an error
            raise ZerosumError(f"the public-tree policy of {t.game_id!r} does not cover the information sets "
                               f"of {compiled_game.game_id!r}; convert it on the game it was solved for")
        return TabularPolicy(compiled_game, probs)

    def on_full_tree(self, full: PublicTree) -> PublicPolicy:
        """This policy of a suit-isomorphic tree as a policy of the whole tree ``full`` (the same
        game built without isomorphism): each deal a mirror stands for reads its representative's
        table through the hand permutation of the swapped suits.  A policy of a whole tree is
        itself."""
        iso = self.tree
        if iso.iso is None:
            return self
        from ..poker.cards import pair_index_table
        from .holdem_build import canonical_deal

        game = iso.extra["game"]
        swaps = iso.extra["swaps"]
        where = {label: k for k, label in enumerate(iso.labels)}
        pairs = pair_index_table()
        cards = [iso.hand_cards(q) for q in (0, 1)]  # each player's list (the same in both trees)
        index = []  # per player: pair id -> its place in the player's list
        for q in (0, 1):
            ix = np.full(1326, -1, dtype=np.int64)
            ix[pairs[cards[q][:, 0], cards[q][:, 1]]] = np.arange(len(cards[q]))
            index.append(ix)
        board = tuple(game.board)
        probs = [np.empty(n) for n in full.infoset_actions()]
        seen: dict[str, tuple] = {}
        for node in np.flatnonzero(full.kind == DECISION).tolist():
            label = full.labels[node]
            _, dealt_text, betting = label.split(":", 2)
            found = seen.get(dealt_text)
            if found is None:
                dealt = tuple(parse_cards(dealt_text)) if dealt_text else ()
                canon, cmap = canonical_deal(board, dealt, swaps)
                maps = tuple(index[q][pairs[cmap[cards[q][:, 0]], cmap[cards[q][:, 1]]]] for q in (0, 1))
                found = seen[dealt_text] = (cards_str(canon), maps)
            canon_text, maps = found
            k = where[":" + canon_text + ":" + betting]
            p, na, n = int(full.player[node]), int(full.n_children[node]), full.n_hands[int(full.player[node])]
            table = self.table(k)[:, maps[p]]
            o = full.offset[node]
            probs[p][o:o + na * n] = table.reshape(-1)
        return PublicPolicy(full, probs)

    def _head(self) -> dict:
        t = self.tree
        return {"format": FORMAT, "version": VERSION, "game": t.game_id,
                "hands": [list(t.hand_labels[0]), list(t.hand_labels[1])]}

    def _entries(self):
        """The ``nodes`` entries of the file, one decision node at a time."""
        t = self.tree
        for node in np.flatnonzero(t.kind == DECISION):
            yield {"node": int(node), "public": t.labels[node], "player": int(t.player[node]),
                   "actions": list(t.action_labels[node]),
                   "probs": [[round(x, 9) for x in row] for row in self.table(node).tolist()]}

    def to_dict(self) -> dict:
        return {**self._head(), "nodes": list(self._entries())}

    def save(self, path) -> None:
        """The JSON of :meth:`to_dict`, byte for byte, written node by node (through a temporary
        sibling and a rename), so that a large policy never holds every probability as a Python
        float in lists (32 bytes each) and then the whole text at once.  A path ending in ``.zsp``
        is refused: the compact solution file is :func:`zerosum.solutions.saved.save_policy`'s
        (it records values computed by the analysis, which lives apart from the solver)."""
        from ..files import write_atomic

        if str(path).lower().endswith(SOLUTION_SUFFIX):
            raise ZerosumError(f"{path}: a solution file (.zsp) is written by zerosum.solutions.save_policy(policy, "
                               f"path); PublicPolicy.save writes JSON")

        head = json.dumps(self._head(), separators=(",", ":"))[:-1]  # without the closing brace

        def write(tmp):
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(head + ',"nodes":[')
                f.writelines(("," if k else "") + json.dumps(entry, separators=(",", ":"))
                             for k, entry in enumerate(self._entries()))
                f.write("]}")

        write_atomic(path, write)

    @classmethod
    def from_dict(cls, tree: PublicTree, data: dict, source: str = "policy") -> PublicPolicy:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ZerosumError(f"{source} is not a zerosum public-tree policy file")
        if data.get("version") != VERSION or data.get("game") != tree.game_id:
            raise ZerosumError(f"{source} was made for {data.get('game')!r} (version {data.get('version')}), "
                               f"not {tree.game_id!r}")
        probs = [np.zeros(n) for n in tree.infoset_actions()]
        seen = set()
        for entry in data.get("nodes", []):
            node = entry.get("node")
            if not isinstance(node, int) or not 0 <= node < tree.n_nodes or tree.kind[node] != DECISION:
                raise ZerosumError(f"{source}: no decision node {node!r}")
            p = int(tree.player[node])
            table = np.asarray(entry.get("probs"), dtype=float)
            na, n = tree.n_children[node], tree.n_hands[p]
            if table.shape != (na, n) or np.any(table < 0) or not np.all(np.isfinite(table)):
                raise ZerosumError(f"{source}: node {node} needs {na} x {n} probabilities")
            o = tree.offset[node]
            probs[p][o:o + na * n] = table.ravel()
            seen.add(node)
        if len(seen) != len(np.flatnonzero(tree.kind == DECISION)):
            raise ZerosumError(f"{source}: some decision nodes are missing")
        return cls.from_sums(tree, probs, in_place=True)

    def evaluate(self) -> dict:
        from .passes import nash_conv_public

        return nash_conv_public(self.tree, self.probs)
