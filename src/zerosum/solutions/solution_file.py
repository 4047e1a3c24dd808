"""Saved public-tree solutions in a compact binary file (``.zsp``), read one node block at a time.

The file is a zip archive (no pickle anywhere: every array member is a ``.npy`` read with
``allow_pickle=False``), recognized by its first bytes (``PK\\x03\\x04`` followed by the name of
the first member, ``zerosum-solution.json``), whatever the file is called.  Members, in order:

``zerosum-solution.json`` (stored, not compressed: readable with ``unzip -p``)
    ``{"format": "zerosum.public-solution", "version": 1, "game": GAME ID, "encoding": "uint16" or
    "float32", "n_nodes": N, "infoset_actions": [A0, A1], "hands": [[labels of player 0], [of 1]],
    "blocks": [[[first node, first offset, entries], ...] of player 0, [...] of player 1],
    "evaluation": {"value": ..., "best_response_values": [..., ...], "nash_conv": ...} or null,
    "tree": LAYOUT or null[, "values": ...]}``.  The game id rebuilds the game; ``evaluation`` is what
    :func:`~zerosum.public_tree.passes.nash_conv_public` gave on the probabilities as stored, when
    the file was written; ``tree`` spells out the public tree the policy was solved on.
``tree/...`` (the members ``LAYOUT`` names)
    the :class:`~zerosum.public_tree.form.PublicTree`, field by field: ``LAYOUT`` is
    ``{"dataclass": "module:Class", "fields": {name: LAYOUT}}`` (classes of
    ``zerosum.public_tree`` only), ``{"npy": member}`` (an array: ``tree/kind.npy``,
    ``tree/parent.npy``, ``tree/terminals/order.npy``, ...), ``{"lines": member, "words": bool,
    "n": count}`` (a tuple of strings, one a line: ``tree/labels.txt``; or of tuples of words:
    ``tree/action_labels.txt``), ``{"tuple": [LAYOUT, ...]}``, ``{"dict": {key: LAYOUT}}`` or
    ``{"json": value}``; a tuple of more than :data:`LAZY_LINES` lines is read as
    :class:`Lines` (its text, each line made when asked).  A reader whose classes have other fields builds the tree from the game
    instead; ``tree/kind.npy``, ``tree/player.npy``, ``tree/parent.npy`` and
    ``tree/n_children.npy`` are always there (the check that a built tree is the file's).
``values/0.npy``, ``values/1.npy`` (where the header has ``"values": {"nodes": [...], "cfv":
[member of player 0, of player 1]}``)
    float64 [nodes x hands]: each player's counterfactual values at the root and its children,
    what :func:`~zerosum.solutions.analysis.node_values` computes there on the probabilities as
    stored (:func:`record_values`, when the file is written with its evaluation), so that
    ``evaluate --node`` at those nodes runs no pass; a file without them is read as before.
``p{P}/{K:06d}.npy`` (P = 0, 1; K = 0, 1, ...)
    block K of player P's probabilities: the entries ``first offset`` to ``first offset +
    entries`` of the player's flat array (each decision node of P, in node order, an [action x
    hand] table, actions major), i.e. the tables of P's decision nodes from ``first node`` up
    to the next block's.  ``uint16``: a probability x 65535, rounded so that each hand's
    probabilities at a node add up to 65535 exactly (each within 1 / 65535 of the solver's:
    the cumulative sums over the actions are rounded, and the entries are their differences);
    ``float32``: the probabilities as float32.

Every member but the header is deflated.  A block holds about :data:`BLOCK` entries, so that the
table of one node is read by inflating one block (:class:`SolutionReader`;
:func:`zerosum.public_tree.policy.open_solution` gives the policy).
"""

from __future__ import annotations

import dataclasses
import io
import json
import zipfile
import zlib
from collections.abc import Sequence

import numpy as np

from ..errors import ZerosumError
from ..files import shown
from ..public_tree.form import DECISION, NodeLabels, PublicTree

FORMAT = "zerosum.public-solution"
VERSION = 1
HEADER = "zerosum-solution.json"
#: the first bytes of every solution file (a zip's local header signature, the header member's name
#: at byte 30)
MAGIC = b"PK\x03\x04"
#: entries per block (256 KiB of uint16)
BLOCK = 1 << 17
SCALE = 65535
ENCODINGS = ("uint16", "float32")
_TREE_MEMBERS = ("kind", "player", "parent", "n_children")
#: the modules whose classes a stored tree may name (its dataclasses: the tree, its terminals)
_MODULES = ("zerosum.public_tree.",)
#: a stored tuple of more lines than this is read as :class:`Lines` (its text kept, each line made
#: when asked), a shorter one as a tuple
LAZY_LINES = 4096


def is_solution_file(path) -> bool:
    """Whether ``path`` starts as a solution file does (its magic bytes and first member's name)."""
    try:
        with open(path, "rb") as f:
            head = f.read(30 + len(HEADER))
    except OSError:
        return False
    return head[:4] == MAGIC and head[30:] == HEADER.encode()


def quantize(tree: PublicTree, player: int, probs: np.ndarray) -> np.ndarray:
    """``probs`` of ``player`` as uint16: per node and hand, the cumulative sums over the actions
    x 65535 rounded, the last set to 65535, and their differences (so each entry is within one
    unit of probs x 65535 and each hand's entries add up to 65535)."""
    out = np.empty(len(probs), dtype=np.uint16)
    n = tree.n_hands[player]
    nodes = tree.decision_nodes(player)
    counts = tree.n_children[nodes]
    for na in np.unique(counts):
        offsets = tree.offset[nodes[counts == na]]
        local = ((np.arange(na) * n)[:, None] + np.arange(n)[None, :])[None]
        step = max(1, (1 << 18) // int(na * n))
        for k in range(0, len(offsets), step):
            idx = offsets[k:k + step, None, None] + local  # [k, na, n]
            c = np.rint(np.cumsum(probs[idx], axis=1) * SCALE)
            np.clip(c, 0, SCALE, out=c)
            c[:, -1] = SCALE
            c[:, 1:] -= c[:, :-1].copy()
            out[idx] = c.astype(np.uint16)
    return out


def _npy(array: np.ndarray) -> bytes:
    buf = io.BytesIO()
    np.lib.format.write_array(buf, np.ascontiguousarray(array), allow_pickle=False)
    return buf.getvalue()


def block_plan(tree: PublicTree, player: int) -> list[list[int]]:
    """[first node, first offset, entries] of each block of ``player``: consecutive decision nodes
    of the player, about :data:`BLOCK` entries each (a node's table is never split)."""
    nodes = tree.decision_nodes(player)
    if not len(nodes):
        return []
    sizes = tree.n_children[nodes].astype(np.int64) * tree.n_hands[player]
    ends = np.cumsum(sizes)
    plan, start = [], 0
    while start < len(nodes):
        base = int(ends[start] - sizes[start])
        stop = max(start + 1, int(np.searchsorted(ends, base + BLOCK, side="right")))
        plan.append([int(nodes[start]), base, int(ends[stop - 1]) - base])
        start = stop
    return plan


class _NotStorable(Exception):
    pass


def _encode(value, name: str, members: dict):
    """The layout of ``value`` (JSON), its arrays and texts put in ``members`` under ``name``."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return {"json": value}
    if isinstance(value, (np.integer, np.floating, np.bool_)):
        return {"json": value.item()}
    if isinstance(value, np.ndarray):
        if value.dtype == object:
            raise _NotStorable(name)
        members[name.rstrip("/") + ".npy"] = value
        return {"npy": name.rstrip("/") + ".npy"}
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        cls = type(value)
        if not cls.__module__.startswith(_MODULES):
            raise _NotStorable(name)
        return {"dataclass": f"{cls.__module__}:{cls.__qualname__}",
                "fields": {f.name: _encode(getattr(value, f.name), f"{name}{f.name}/", members)
                           for f in dataclasses.fields(value)}}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise _NotStorable(name)
        return {"dict": {k: _encode(v, f"{name}{k}/", members) for k, v in value.items()}}
    if isinstance(value, Lines):
        members[name.rstrip("/") + ".txt"] = value.data
        return {"lines": name.rstrip("/") + ".txt", "words": value.words, "n": len(value)}
    if isinstance(value, NodeLabels):  # (a built tree's labels, made when asked: stored as the tuple they read as)
        value = tuple(value)
    if isinstance(value, (tuple, list)):
        text = _lines(value)
        if text is not None:
            members[name.rstrip("/") + ".txt"] = text
            return {"lines": name.rstrip("/") + ".txt", "words": not all(isinstance(v, str) for v in value),
                    "n": len(value)}
        return {"tuple": [_encode(v, f"{name}{k}/", members) for k, v in enumerate(value)]}
    raise _NotStorable(name)


def _lines(value) -> str | None:
    """A tuple of strings as lines, or of tuples of strings as lines of words; None otherwise."""
    if value and all(isinstance(v, str) and "\n" not in v for v in value):
        return "\n".join(value)
    if value and all(isinstance(v, tuple) and all(isinstance(w, str) and w and not set(w) & {" ", "\n"} for w in v)
                     for v in value):
        return "\n".join(" ".join(v) for v in value)
    return None


class Lines(Sequence):
    """A stored tuple of strings (``words``: of tuples of words) kept as its UTF-8 text, one item a
    line, each made when asked: a flop's million public labels take their 22 MB of text rather
    than 80 MB of Python strings.  It reads as the tuple it stands for (indexing, ``len``,
    iteration, ``in``, ``index``, ``==`` with a tuple).  :meth:`index` finds a line by one search
    of the text; the first few lines asked for by number are found by a scan of the text, and
    past :data:`SCANS` of them a start per line (4 bytes each) is kept."""

    #: lines found by a scan before the starts of all lines are kept
    SCANS = 16
    #: bytes of text per step of a scan (its temporaries)
    STEP = 1 << 22

    def __init__(self, data: bytes, words: bool = False):
        self.data = bytes(data)
        self.words = bool(words)
        self._n = self.data.count(b"\n") + 1 if self.data else 0
        self._starts = None  # line k: bytes starts[k] .. starts[k + 1] - 2
        self._known: dict = {}  # line -> (start, end) found by index() or a scan
        self._shared: dict = {}  # words: equal lines share one tuple

    def __len__(self) -> int:
        return self._n

    def _newlines(self):
        """The positions of the newlines, :data:`STEP` bytes of text at a time."""
        raw = np.frombuffer(self.data, dtype=np.uint8)
        kind = np.int32 if len(raw) < 2 ** 31 - 1 else np.int64
        for k in range(0, len(raw), self.STEP):
            yield (np.flatnonzero(raw[k:k + self.STEP] == 10) + k).astype(kind)

    def _span(self, k: int) -> tuple[int, int]:
        found = self._known.get(k)
        if found is not None:
            return found
        if self._starts is None and len(self._known) >= self.SCANS:
            ends = list(self._newlines())
            kind = ends[0].dtype if ends else np.int32
            self._starts = np.concatenate([np.zeros(1, dtype=kind), *(e + 1 for e in ends),
                                           np.array([len(self.data) + 1], dtype=kind)])
        if self._starts is not None:
            return int(self._starts[k]), int(self._starts[k + 1]) - 1
        seen = 0  # newlines before this step's
        start, end = 0, len(self.data)  # after newline k - 1, up to newline k
        for ends in self._newlines():
            if 0 <= k - 1 - seen < len(ends):
                start = int(ends[k - 1 - seen]) + 1
            if k - seen < len(ends):
                end = int(ends[k - seen])
                break
            seen += len(ends)
        self._known[k] = (start, end)
        return start, end

    def _item(self, line: bytes):
        text = line.decode("utf-8")
        if not self.words:
            return text
        found = self._shared.get(text)
        if found is None:
            found = self._shared[text] = tuple(text.split(" ")) if text else ()
        return found

    def __getitem__(self, k):
        if isinstance(k, slice):
            return tuple(self[i] for i in range(*k.indices(len(self))))
        k = int(k)
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError("line index out of range")
        start, end = self._span(k)
        return self._item(self.data[start:end])

    def __iter__(self):
        if not len(self):
            return iter(())
        return (self._item(x) for x in self.data.split(b"\n"))

    def index(self, value, start: int = 0, stop: int | None = None) -> int:
        """The first line equal to ``value`` (a search of the text, no string per line)."""
        if start or stop is not None:
            return super().index(value, start, len(self) if stop is None else stop)
        key = (" ".join(value) if self.words and isinstance(value, tuple) else value)
        if not isinstance(key, str) or "\n" in key:
            raise ValueError(f"{value!r} is not in the lines")
        b = key.encode("utf-8")
        d = self.data
        if not d:
            raise ValueError(f"{value!r} is not in the lines")
        if d.startswith(b + b"\n") or d == b:
            at = 0
        else:
            at = d.find(b"\n" + b + b"\n") + 1
            if not at:
                at = len(d) - len(b) if d.endswith(b"\n" + b) else 0
            if not at:
                raise ValueError(f"{value!r} is not in the lines")
        k = d.count(b"\n", 0, at)
        self._known[k] = (at, at + len(b))
        return k

    def __contains__(self, value) -> bool:
        try:
            self.index(value)
        except ValueError:
            return False
        return True

    def __eq__(self, other) -> bool:
        if isinstance(other, Lines):
            return self.words == other.words and self.data == other.data
        if isinstance(other, (tuple, list)):
            return len(other) == len(self) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def __hash__(self) -> int:
        return hash(tuple(self))

    def __repr__(self) -> str:
        return f"Lines({len(self)} lines)"


def _decode(layout, reader: SolutionReader):
    import importlib

    if not isinstance(layout, dict) or len(layout) > 3:
        raise ValueError("layout")
    if "json" in layout:
        return layout["json"]
    if "npy" in layout:
        return reader.array(layout["npy"], ndim=None)
    if "lines" in layout:
        if int(layout["n"]) > LAZY_LINES:  # (a flop's million labels: 22 MB of text, not 80 MB of strings)
            lines = Lines(reader.member(layout["lines"]), bool(layout["words"]))
            if len(lines) != layout["n"]:
                raise ValueError("lines")
            return lines
        text = reader.text(layout["lines"])
        lines = text.split("\n") if layout["n"] else []
        if len(lines) != layout["n"]:
            raise ValueError("lines")
        if not layout["words"]:
            return tuple(lines)
        shared: dict = {}  # equal lines share one tuple (a flop's nodes repeat a few action lists)
        return tuple(shared.get(x) or shared.setdefault(x, tuple(x.split(" ")) if x else ()) for x in lines)
    if "tuple" in layout:
        return tuple(_decode(v, reader) for v in layout["tuple"])
    if "dict" in layout:
        return {str(k): _decode(v, reader) for k, v in layout["dict"].items()}
    if "dataclass" in layout:
        module, _, qualname = str(layout["dataclass"]).partition(":")
        if not module.startswith(_MODULES):
            raise ValueError("class")
        cls = getattr(importlib.import_module(module), qualname)
        if not dataclasses.is_dataclass(cls) or {f.name for f in dataclasses.fields(cls)} != set(layout["fields"]):
            raise ValueError("fields")  # another version of the class: the tree is rebuilt
        return cls(**{k: _decode(v, reader) for k, v in layout["fields"].items()})
    raise ValueError("layout")


def write_solution(policy, path, encoding: str = "uint16", evaluate: bool = True, level: int = 6) -> dict:
    """Write ``policy`` (a PublicPolicy) to ``path`` as a solution file (atomically); returns the
    header.  ``evaluate``: record the evaluation of the probabilities as stored (three passes)."""
    from ..files import write_atomic

    if encoding not in ENCODINGS:
        raise ZerosumError(f"a solution file stores probabilities as {' or '.join(ENCODINGS)}, not {encoding!r}")
    tree = policy.tree
    if encoding == "uint16":
        stored = [quantize(tree, p, policy.probs[p]) for p in (0, 1)]
    else:
        stored = [np.asarray(policy.probs[p], dtype=np.float32) for p in (0, 1)]
    evaluation = None
    if evaluate:
        from ..public_tree.passes import nash_conv_public

        # uint16: the pass reads the 16-bit entries themselves (it divides each by its node and
        # hand's total, 65535, as decode does), as evaluate --node reads a file: no float64 copy of
        # the stored probabilities (8 bytes an entry: 1.9 GB of a 7.2 GB peak saving TexasSolver's
        # flop), and the same compiled pass as --node's
        evaluation = nash_conv_public(tree, stored if encoding == "uint16" else [decode(s) for s in stored])
    plans = [block_plan(tree, p) for p in (0, 1)]
    header = {"format": FORMAT, "version": VERSION, "game": tree.game_id, "encoding": encoding,
              "n_nodes": int(tree.n_nodes), "infoset_actions": [int(x) for x in tree.infoset_actions()],
              "hands": [list(tree.hand_labels[0]), list(tree.hand_labels[1])], "blocks": plans,
              "evaluation": evaluation}
    values = record_values(tree, stored, encoding) if evaluate else None
    members: dict = {}
    try:
        layout = _encode(tree, "tree/", members)
    except _NotStorable:  # a tree this writer cannot spell: rebuilt from the game when read
        layout, members = None, {}
    if layout is None or any(not isinstance(members.get(f"tree/{name}.npy"), np.ndarray) for name in _TREE_MEMBERS):
        members = {f"tree/{name}.npy": np.asarray(getattr(tree, name)) for name in _TREE_MEMBERS}
        layout = None
    header["tree"] = layout
    if values is not None:
        header["values"] = {"nodes": values[0], "cfv": [f"values/{p}.npy" for p in (0, 1)]}
        members.update({f"values/{p}.npy": values[1][p] for p in (0, 1)})

    def write(tmp):
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=level) as z:
            z.writestr(zipfile.ZipInfo(HEADER), json.dumps(header, separators=(",", ":")),
                       compress_type=zipfile.ZIP_STORED)
            for name, value in members.items():
                z.writestr(name, _npy(value) if isinstance(value, np.ndarray) else value)
            for p in (0, 1):
                for k, (_, first, size) in enumerate(plans[p]):
                    z.writestr(f"p{p}/{k:06d}.npy", _npy(stored[p][first:first + size]))

    write_atomic(path, write)
    return header


class _StoredTables:
    """The tables of the stored probabilities as a reader gives them (the path's reach at save)."""

    def __init__(self, tree: PublicTree, stored):
        self.tree, self.stored = tree, stored

    def table(self, node: int) -> np.ndarray:
        t = self.tree
        p = int(t.player[node])
        n, o, na = t.n_hands[p], int(t.offset[node]), int(t.n_children[node])
        table = self.stored[p][o:o + na * n]  # decode's figures (a node's table, not a whole array)
        return (table / float(SCALE) if table.dtype == np.uint16 else table.astype(np.float64)).reshape(na, n)


def record_values(tree: PublicTree, stored, encoding: str):
    """(nodes, [cfv of player 0 [k, n0], of player 1 [k, n1]]) at the root and its children (the
    nodes whose subtree is most of the tree): the counterfactual values the analysis of
    ``evaluate --node`` computes there (:func:`~zerosum.solutions.analysis.node_values`, both
    players' EXPECT passes from the node on the probabilities as stored), so that reading them
    takes no pass; None where the analysis would refuse every one of them (too much work)."""
    from ..public_tree import kernels
    from .analysis import _pass_values, check_work, path_reach, subtree_mask

    src = stored if encoding == "uint16" else [decode(s) for s in stored]
    tables = _StoredTables(tree, stored)
    nodes, cfv = [], ([], [])
    first, count = int(tree.first_child[0]), int(tree.n_children[0])
    for node in [0, *range(first, first + count)] if count else [0]:
        try:
            check_work(tree, node, subtree_mask(tree, node))
        except ZerosumError:
            continue
        top = path_reach(tree, tables, node)
        for p in (0, 1):
            cfv[p].append(_pass_values(tree, src, node, p, top, kernels.EXPECT))
        nodes.append(int(node))
    if not nodes:
        return None
    return nodes, [np.array(cfv[p], dtype=np.float64).reshape(len(nodes), tree.n_hands[p]) for p in (0, 1)]


def decode(block: np.ndarray) -> np.ndarray:
    """Stored probabilities as float64 (uint16: / 65535)."""
    if block.dtype == np.uint16:
        return block / float(SCALE)
    return block.astype(np.float64)


class SolutionReader:
    """An open solution file: the header at once, each member when asked (``reads`` counts the
    members inflated, for the tests)."""

    def __init__(self, path):
        self.path = path
        self.source = shown(path)
        self.reads = 0
        if not is_solution_file(path):
            raise ZerosumError(f"{self.source} is not a zerosum solution file")
        try:
            self.zip = zipfile.ZipFile(path)
            self.header = json.loads(self.zip.read(HEADER))
        except (OSError, zipfile.BadZipFile, zlib.error, KeyError, EOFError, ValueError, UnicodeDecodeError) as e:
            raise self._broken(e) from None
        h = self.header
        if not isinstance(h, dict) or h.get("format") != FORMAT:
            raise ZerosumError(f"{self.source} is not a zerosum solution file")
        if h.get("version") != VERSION or h.get("encoding") not in ENCODINGS:
            raise ZerosumError(f"{self.source} is a solution file of version {h.get('version')!r} "
                               f"({h.get('encoding')!r}); this zerosum reads version {VERSION}")
        try:
            self.starts = [np.array([b[0] for b in h["blocks"][p]], dtype=np.int64) for p in (0, 1)]
            self.firsts = [[int(b[1]) for b in h["blocks"][p]] for p in (0, 1)]
            self.sizes = [[int(b[2]) for b in h["blocks"][p]] for p in (0, 1)]
            str(h["game"])
        except (KeyError, TypeError, IndexError, ValueError):
            raise ZerosumError(f"{self.source}: the header of the solution file is damaged") from None

    def _broken(self, e) -> ZerosumError:
        why = "truncated or damaged" if not isinstance(e, OSError) else (e.strerror or str(e))
        return ZerosumError(f"cannot read {self.source}: {why} (not a complete zerosum solution file)")

    def _read(self, name: str) -> bytes:
        try:
            with self.zip.open(name) as f:
                data = f.read()
        except (OSError, zipfile.BadZipFile, zlib.error, KeyError, EOFError, ValueError) as e:
            raise self._broken(e) from None
        self.reads += 1
        return data

    def array(self, name: str, dtype=None, size=None, ndim: int | None = 1) -> np.ndarray:
        """The ``.npy`` member ``name`` (no pickle), checked for its dtype and length."""
        try:
            a = np.lib.format.read_array(io.BytesIO(self._read(name)), allow_pickle=False)
        except ValueError as e:
            raise self._broken(e) from None
        if ((ndim is not None and a.ndim != ndim) or (dtype is not None and a.dtype != dtype)
                or (size is not None and len(a) != size)):
            raise ZerosumError(f"{self.source}: member {name} is not what the header says (damaged file?)")
        return a

    def member(self, name: str) -> bytes:
        """The raw bytes of member ``name``."""
        return self._read(name)

    def text(self, name: str) -> str:
        """Member ``name`` as UTF-8 text."""
        try:
            return self._read(name).decode("utf-8")
        except UnicodeDecodeError as e:
            raise self._broken(e) from None

    def stored_tree(self, game_id: str) -> PublicTree | None:
        """The public tree stored in the file (what the solver solved on, rebuilt without building
        it), or None where the file has none, or one of another version of zerosum's classes."""
        layout = self.header.get("tree")
        if layout is None:
            return None
        try:
            tree = _decode(layout, self)
        except (ValueError, TypeError, KeyError, AttributeError, ImportError):
            return None
        if not isinstance(tree, PublicTree) or tree.game_id != game_id:
            return None
        n = tree.n_nodes
        node_arrays = ("kind", "player", "parent", "first_child", "n_children", "board", "stake", "offset")
        if (any(np.shape(getattr(tree, a)) != (n,) for a in node_arrays) or len(tree.labels) != n
                or len(tree.action_labels) != n or n == 0 or int(tree.parent[0]) != -1
                or np.any(tree.parent[1:] >= np.arange(1, n)) or np.any(tree.parent[1:] < 0)
                or np.any(tree.first_child.astype(np.int64) + tree.n_children > n)):
            raise ZerosumError(f"{self.source}: the stored public tree is damaged")
        return tree

    def recorded_values(self, n_hands) -> dict:
        """{node: [cfv of player 0, of player 1]} the file records (:func:`record_values`; empty
        where it records none), checked for their shapes."""
        rec = self.header.get("values")
        if not rec:
            return {}
        try:
            nodes = [int(n) for n in rec["nodes"]]
            cfv = [self.array(str(rec["cfv"][p]), np.dtype(np.float64), len(nodes), ndim=2) for p in (0, 1)]
        except (KeyError, TypeError, IndexError, ValueError):
            raise ZerosumError(f"{self.source}: the header of the solution file is damaged") from None
        if any(cfv[p].shape[1] != n_hands[p] for p in (0, 1)) or any(not 0 <= n < self.header["n_nodes"] for n in nodes):
            raise ZerosumError(f"{self.source}: the recorded values are not what the header says (damaged file?)")
        return {n: [cfv[0][k], cfv[1][k]] for k, n in enumerate(nodes)}

    def block(self, p: int, k: int) -> np.ndarray:
        """Block ``k`` of player ``p``'s probabilities, as stored (uint16 or float32)."""
        return self.array(f"p{p}/{k:06d}.npy", np.dtype(self.header["encoding"]), self.sizes[p][k])

    def check_tree(self, tree: PublicTree) -> None:
        """Refuse, in one line, a tree the file was not made on (the game, the sizes, the structure)."""
        h = self.header
        if h["game"] != tree.game_id:
            raise ZerosumError(f"{self.source} was made for {h['game']!r}, not {tree.game_id!r}")
        if (h.get("n_nodes") != tree.n_nodes or list(h.get("infoset_actions", ())) != list(tree.infoset_actions())
                or h.get("hands") != [list(tree.hand_labels[0]), list(tree.hand_labels[1])]):
            raise ZerosumError(f"{self.source} does not match the public tree of {tree.game_id!r} "
                               f"(made by another version of zerosum?)")
        for p in (0, 1):  # the blocks tile the player's array, each from the start of a node's table
            starts, firsts, sizes = self.starts[p], self.firsts[p], self.sizes[p]
            ok = len(starts) == 0 or (
                int(starts.min()) >= 0 and int(starts.max()) < tree.n_nodes and np.all(np.diff(starts) > 0)
                and np.all(tree.kind[starts] == DECISION) and np.all(tree.player[starts] == p)
                and np.array_equal(tree.offset[starts], firsts)
                and np.array_equal(np.cumsum(sizes) - sizes, firsts))
            if not ok or sum(sizes) != tree.infoset_actions()[p]:
                raise ZerosumError(f"{self.source}: the blocks of player {p} do not tile its probabilities (damaged file?)")
        for name in _TREE_MEMBERS:
            saved = self.array(f"tree/{name}.npy", size=tree.n_nodes)
            if not np.array_equal(saved, getattr(tree, name)):
                raise ZerosumError(f"{self.source} does not match the public tree of {tree.game_id!r} ({name} differs)")


def saved_game_id(path) -> str:
    """The game id a solution file records (its header only)."""
    return str(SolutionReader(path).header["game"])
