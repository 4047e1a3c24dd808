"""Depth-limited solving on the public tree: the tree cut after a number of streets, the rest of the
game replaced by the values of blueprint continuations (Brown, Sandholm and Amos 2018, "Depth-Limited
Solving for Imperfect-Information Games"), solved with any non-predictive CFR variant, and evaluated
exactly on the whole tree.

**The cut.**  ``depth`` counts betting rounds: the public chance node that would open round
``depth + 1`` (the first chance node on a path when ``depth`` is 1: the river cards of a turn subgame)
becomes a *leaf*; nothing below a leaf is walked while solving.  A tree with no chance node that deep
is solved whole (the truncated game is then the game itself: the tests use that to check the pass
against :class:`~zerosum.public_tree.solver.PublicTreeSolver`).

**Leaf values.**  Below a leaf L both players follow fixed *continuation* strategies.  Player 0's
value there is bilinear in the reaches at L: ``v0(i) = sum_j M_L(i, j) r1(j)`` and
``v1(j) = -sum_i M_L(i, j) r0(i)``, with
``M_L(i, j) = sum over terminals z below L of pi0(i, L->z) pi1(j, L->z) u0(z) W_z(i, j)``
(relative reaches from L, the payoff, chance and card removal).  M_L is built once per leaf and
continuation: the relative reaches of each terminal, grouped by board, make one matrix product per
board (``A^T diag(u) B``, BLAS), masked by that board's card removal and showdown sign (one fused
Numba loop per board on hold'em).  Then an iteration of the truncated game costs one [n0 x n1]
product per leaf and player instead of a walk of everything below.

* ``continuations=1``: both players continue with the blueprint ((a) of issue 30: the blueprint's
  values at the depth limit).  One solve gives both players' strategies above the cut.
* ``continuations=K`` (2 to 4; the paper's four): *multi-valued states*.  To solve player P, the
  opponent chooses at each leaf, per hand, among K continuations of its own (the blueprint, then the
  blueprint with fold, call, raise probabilities each multiplied by ``bias`` = 5 and renormalized, the
  paper's choice), while P continues with the blueprint: the leaf is a decision of the opponent with
  K actions whose payoffs are the K matrices.  P's strategy above the cut is kept; one solve per
  player.  (The opponent may pick the continuation that hurts P most, per hand, so P cannot rely on
  the opponent playing the blueprint below the cut: the paper's fix of the unsafe single value.)

**Combined profile.**  The strategy above the cut from the solve(s), the blueprint below: a profile of
the whole tree, whose exact NashConv comes from the depth-first pass
(:func:`~zerosum.public_tree.passes.nash_conv_public`).

The truncated pass is plain NumPy over [hands] vectors (a cut turn subgame has a few dozen public
nodes): per iteration and player, one product per leaf and continuation, one per terminal above the
cut (dense [n0 x n1] matrices of the board: :class:`~zerosum.solutions.analysis.Boards`).  Memory is
the leaf matrices: leaves x K' x n0 x n1 x 8 bytes (K' = 1 + the K - 1 biased continuations of the
player being solved against), checked against :func:`zerosum.core.memory.memory_limit` before any is
built.

Not here: a value network at the leaves ((c) of issue 30), re-solving from a node below the root
(the gadgets of :mod:`zerosum.solvers.resolve` on this form), suit-isomorphic trees (build the tree
with ``isomorphism=False``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
from numba import njit

from ..errors import ZerosumError
from ..public_tree.form import CHANCE_NODE, DECISION, FOLD, SHOWDOWN, PublicTree
from ..public_tree.passes import is_raked
from ..public_tree.terminals import SWEEP
from ..solutions.analysis import Boards
from ..solvers.capabilities import require, require_apart
from ..solvers.rules import CFRPlus, Variant, apply_regret_rule, check_variant

#: continuation names, in the order ``continuations=K`` takes them
CONTINUATIONS = ("blueprint", "fold", "call", "raise")
#: the paper's bias: the favoured action class's probabilities times 5, then renormalized
BIAS = 5.0


def action_class(label: str) -> int:
    """0 fold, 1 check/call, 2 bet/raise (any size): the classes a biased continuation favours."""
    return 0 if label == "f" else 1 if label == "c" else 2


def cut(tree: PublicTree, depth: int | None, root: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """The nodes kept below ``root`` (itself included, ascending: parents first) and the leaves among
    them (the chance nodes that open round ``depth + 1`` counted from ``root``; none when ``depth`` is
    None: the whole subtree)."""
    from ..solutions.analysis import subtree

    if depth is not None and (isinstance(depth, bool) or not isinstance(depth, (int, np.integer)) or depth < 1):
        raise ZerosumError(f"depth counts the betting rounds solved before the cut and must be an integer >= 1, "
                           f"got {depth!r}")
    if tree.iso is not None:
        raise ZerosumError("depth-limited solving and re-solving walk the whole tree; build it with "
                           "isomorphism=False (--option isomorphism=false)")
    if depth is not None and tree.kind[root] == CHANCE_NODE and depth == 1:
        raise ZerosumError(f"{tree.labels[root]!r} is a chance node: depth 1 would cut it at its root; ask for depth >= 2")
    nodes = subtree(tree, root)
    if depth is None:
        return nodes, np.zeros(0, dtype=np.int64)
    rounds = {root: 0}  # chance nodes strictly above each node, from root
    keep, leaves = [root], []
    dropped = set()
    if tree.kind[root] == CHANCE_NODE and depth == 1:
        leaves.append(root)
    for n in nodes[1:].tolist():
        p = int(tree.parent[n])
        if p in dropped or p in leaves:
            dropped.add(n)
            continue
        rounds[n] = rounds[p] + int(tree.kind[p] == CHANCE_NODE)
        keep.append(n)
        if tree.kind[n] == CHANCE_NODE and rounds[n] == depth - 1:
            leaves.append(n)
    return np.array(keep, dtype=np.int64), np.array(leaves, dtype=np.int64)


def biased(tree: PublicTree, probs: np.ndarray, player: int, nodes, favour: int, bias: float = BIAS) -> np.ndarray:
    """``probs`` (player ``player``'s flat strategy) with, at each of its decision nodes in ``nodes``,
    the probabilities of the actions of class ``favour`` (:func:`action_class`) times ``bias``,
    renormalized per hand; nodes without such an action are unchanged."""
    out = np.array(probs, dtype=np.float64)
    n = tree.n_hands[player]
    for node in nodes:
        node = int(node)
        if tree.kind[node] != DECISION or int(tree.player[node]) != player:
            continue
        classes = np.array([action_class(a) for a in tree.action_labels[node]])
        if not (classes == favour).any():
            continue
        o, na = int(tree.offset[node]), int(tree.n_children[node])
        block = out[o:o + na * n].reshape(na, n)
        block[classes == favour] *= bias
        total = block.sum(axis=0)
        block /= np.where(total > 0, total, 1.0)
    return out


@njit(cache=True)
def _add_signed(m, gs, strength0, strength1, const):
    """m += const x sign(s_i - s_j) x gs: one board's showdown product (its vectors already masked by
    the board's live hands) with the showdown's sign, fused (each player's strengths on its list)."""
    n0, n1 = m.shape
    for i in range(n0):
        si = strength0[i]
        for j in range(n1):
            sj = strength1[j]
            if si > sj:
                m[i, j] += const * gs[i, j]
            elif si < sj:
                m[i, j] -= const * gs[i, j]


class _Matrices:
    """Builds the leaf matrices M_L of the module docstring for given continuation strategies."""

    def __init__(self, tree: PublicTree):
        self.tree = tree
        self.boards = Boards(tree)
        t = tree.terminals
        if t.kind == SWEEP:  # per board, each hand's strength (-1: not live), as Boards reads it
            self.strength = {}
            n = len(t.cards)  # (the sweep's shared list; each player's hands are its window of it)
            w0, w1 = tree.hand_window(0), tree.hand_window(1)
            live_all = np.zeros((len(t.start) - 1, n))
            for b in range(len(t.start) - 1):
                s = np.full(n, -1, dtype=np.int64)
                live = t.order[t.start[b]:t.start[b + 1]]
                s[live] = t.strength[t.start[b]:t.start[b + 1]]
                self.strength[b] = (s[w0], s[w1])
                live_all[b, live] = 1.0
            self.live = (live_all[:, w0], live_all[:, w1])
            self.apart = ~self.boards.share[np.ix_(w0, w1)]  # the two hands share no card

    def subtree(self, leaf: int) -> np.ndarray:
        from ..solutions.analysis import subtree

        return subtree(self.tree, leaf)

    def relative_reach(self, nodes: np.ndarray, probs: np.ndarray, player: int) -> np.ndarray:
        """[len(nodes) x hands] reach of ``player`` from ``nodes[0]`` (ones there) under ``probs``."""
        t = self.tree
        n = t.n_hands[player]
        pos = {int(x): k for k, x in enumerate(nodes)}
        r = np.empty((len(nodes), n))
        r[0] = 1.0
        for k in range(1, len(nodes)):
            x = int(nodes[k])
            par = int(t.parent[x])
            kp = pos[par]
            if t.kind[par] == DECISION and int(t.player[par]) == player:
                a = x - int(t.first_child[par])
                o = int(t.offset[par]) + a * n
                r[k] = r[kp] * probs[o:o + n]
            else:
                r[k] = r[kp]
        return r

    def matrix(self, nodes: np.ndarray, reach0: np.ndarray, reach1: np.ndarray) -> np.ndarray:
        """M (player 0's payoffs, [n0 x n1]) of the subtree ``nodes`` under the relative reaches."""
        t = self.tree
        n0, n1 = t.n_hands
        kinds = t.kind[nodes]
        term = np.flatnonzero(kinds >= FOLD)
        tn = nodes[term]
        show = t.kind[tn] == SHOWDOWN
        sign0 = np.where(show, 1.0, np.where(t.player[tn] == 0, -1.0, 1.0)) * t.stake[tn]
        boards = t.board[tn]
        if t.terminals.kind != SWEEP:  # small dense boards (the poker family)
            m = np.zeros((n0, n1))
            for b in np.unique(boards):
                on = boards == b
                w, s = self.boards.get(int(b))
                m += s * _product(reach0[term[on & show]], sign0[on & show], reach1[term[on & show]], n0, n1)
                m += w * _product(reach0[term[on & ~show]], sign0[on & ~show], reach1[term[on & ~show]], n0, n1)
            return m
        # hold'em: W = const(b) x [live on b] x [no shared card]; the live masks and const go into the
        # vectors, so every fold is one product, each board's showdowns one more, the card removal last
        live0, live1 = self.live
        fold = ~show
        a = reach0[term[fold]] * live0[boards[fold]]
        d = sign0[fold] * t.terminals.const[boards[fold]]
        m = _product(a, d, reach1[term[fold]] * live1[boards[fold]], n0, n1)
        gs = np.empty((n0, n1))
        for b in np.unique(boards[show]):
            on = show & (boards == b)
            a = reach0[term[on]] * live0[b]
            np.matmul((a * sign0[on, None]).T, reach1[term[on]] * live1[b], out=gs)
            _add_signed(m, gs, *self.strength[int(b)], float(t.terminals.const[b]))
        m *= self.apart
        return m


def _leaf_value(m: np.ndarray, p: int, other: np.ndarray) -> np.ndarray:
    """Player p's values at a leaf of matrix ``m`` (player 0's payoffs) from the other's reach, in
    float64 (a float32 matrix multiplies a float32 copy of the reach)."""
    x = other.astype(m.dtype, copy=False)
    out = m @ x if p == 0 else -(x @ m)
    return out.astype(np.float64, copy=False)


def _product(a: np.ndarray, d: np.ndarray, b: np.ndarray, n0: int, n1: int) -> np.ndarray:
    """sum over terminals z of d_z a_z b_z^T ([n0 x n1]; zeros when there is none)."""
    if len(d) == 0:
        return np.zeros((n0, n1))
    return (a * d[:, None]).T @ b


@dataclass
class _Leaf:
    node: int
    matrices: list  # [K] player 0's payoff matrices, one per continuation of the chooser
    chooser: int  # the player choosing among them (-1: a single continuation)
    #: instead of matrices: ``function(node, r0, r1) -> (v0, v1)``, both players' values from both
    #: reaches (a value network, or the subgame below solved for those ranges)
    function: object = None


@dataclass
class TruncatedGame:
    """The cut tree of :func:`truncate`: the kept nodes, their leaves and the leaf matrices.
    ``chooser`` is the player choosing a continuation at the leaves (-1 with one continuation)."""

    tree: PublicTree
    nodes: np.ndarray
    leaves: dict  # node -> _Leaf
    chooser: int
    build_s: float = 0.0
    pos: dict = field(default_factory=dict)
    root: int = 0
    top: tuple | None = None  # both players' reaches at ``root`` (the ranges at the tree's root)

    def __post_init__(self):
        if self.top is None:
            self.top = tuple(np.asarray(r, dtype=np.float64) for r in self.tree.ranges)
        self.pos = {int(n): k for k, n in enumerate(self.nodes)}
        self.kids = {}
        t = self.tree
        for n in self.nodes.tolist():
            if n not in self.leaves and t.n_children[n]:
                f = int(t.first_child[n])
                self.kids[n] = list(range(f, f + int(t.n_children[n])))
        self.decisions = [n for n in self.nodes.tolist() if t.kind[n] == DECISION]
        self.boards = Boards(t)
        self.terminal_groups = {}
        for n in self.nodes.tolist():
            if t.kind[n] >= FOLD:
                self.terminal_groups.setdefault((int(t.board[n]), bool(t.kind[n] == SHOWDOWN)), []).append(n)

    @property
    def n_continuations(self) -> int:
        """The most continuations a leaf offers its chooser (1 where leaves have a value function)."""
        return max((len(leaf.matrices) for leaf in self.leaves.values()), default=1)

    def nbytes(self) -> int:
        """The leaves' value matrices, in bytes."""
        return sum(m.nbytes for leaf in self.leaves.values() for m in leaf.matrices)

    @classmethod
    def with_values(cls, tree: PublicTree, depth: int, function, root: int = 0, top=None) -> TruncatedGame:
        """The tree cut after ``depth`` rounds with ``function(leaf, r0, r1) -> (v0, v1)`` at every
        leaf (counterfactual values of both players' hands from both reaches there)."""
        nodes, leaves = cut(tree, depth, root)
        return cls(tree, nodes, {int(n): _Leaf(int(n), [], -1, function) for n in leaves}, -1, root=root, top=top)

    def sizes(self) -> dict:
        """The cut tree's sizes (nodes, leaves, decision nodes, continuations, matrix bytes, hands)."""
        t = self.tree
        return {"public_nodes": len(self.nodes), "leaves": len(self.leaves),
                "decision_nodes": len(self.decisions), "continuations": self.n_continuations,
                "leaf_matrix_bytes": self.nbytes(), "hands": list(t.n_hands)}

    # --- one pass ------------------------------------------------------------------------------
    def reaches(self, strategy, top=None) -> list[dict]:
        """Both players' reach vectors at every kept node under ``strategy`` ({decision node:
        [actions x hands]}), from ``top`` at the root (default: :attr:`top`)."""
        t = self.tree
        top = self.top if top is None else top
        r = [{self.root: top[0]}, {self.root: top[1]}]
        for n in self.nodes.tolist():
            kids = self.kids.get(n)
            if not kids:
                continue
            if t.kind[n] == DECISION:
                q = int(t.player[n])
                for a, c in enumerate(kids):
                    r[q][c] = r[q][n] * strategy[n][a]
                    r[1 - q][c] = r[1 - q][n]
            else:
                for c in kids:
                    r[0][c], r[1][c] = r[0][n], r[1][n]
        return r

    def _terminals(self, p: int, r) -> dict:
        """Player p's values at the kept terminals: one matrix product per board and kind."""
        t = self.tree
        out = {}
        for (b, show), nodes in self.terminal_groups.items():
            w, s = self.boards.get(b)
            mat = s if show else w
            sign0 = np.array([(1.0 if show else (-1.0 if t.player[n] == 0 else 1.0)) * t.stake[n] for n in nodes])
            if p == 0:
                vals = sign0[:, None] * (np.array([r[1][n] for n in nodes]) @ mat.T)
            else:
                vals = -sign0[:, None] * (np.array([r[0][n] for n in nodes]) @ mat)
            out.update(zip(nodes, vals))
        return out

    def values(self, p: int, strategy, r, choice=None, respond: bool = False, update=None, every: bool = False):
        """Player p's counterfactual values at the root, bottom-up.  ``choice``: {leaf: [K x hands]}
        the chooser's strategy over continuations; ``respond``: p takes the best action (and the best
        continuation) per hand; ``update(node, values [actions x hands], value [hands])`` is called at
        each decision of p (and at each leaf p chooses at).  ``every``: the dict of every kept node's
        values instead of the root's."""
        t = self.tree
        self.pass_player = p  # whose pass this is (leaf functions that record values read it)
        v = self._terminals(p, r)
        for n in reversed(self.nodes.tolist()):
            leaf = self.leaves.get(n)
            if leaf is not None:
                mats = leaf.matrices
                if leaf.function is not None:
                    v[n] = np.asarray(leaf.function(n, r[0][n], r[1][n])[p], dtype=np.float64)
                elif leaf.chooser < 0:
                    v[n] = _leaf_value(mats[0], p, r[1 - p][n])
                elif leaf.chooser != p:  # the opponent's choice weights its reach
                    sig = choice[n]
                    v[n] = sum(_leaf_value(m, p, r[1 - p][n] * sig[k]) for k, m in enumerate(mats))
                else:
                    each = np.array([_leaf_value(m, p, r[1 - p][n]) for m in mats])
                    v[n] = each.max(axis=0) if respond else (choice[n] * each).sum(axis=0)
                    if update is not None:
                        update(n, each, v[n])
                continue
            kind = t.kind[n]
            if kind >= FOLD:
                continue
            kids = self.kids[n]
            if kind == CHANCE_NODE or int(t.player[n]) != p:
                v[n] = sum(v[c] for c in kids)
                continue
            each = np.array([v[c] for c in kids])
            v[n] = each.max(axis=0) if respond else (strategy[n] * each).sum(axis=0)
            if update is not None:
                update(n, each, v[n])
        return v if every else v[self.root]

    def value(self, strategy, choice=None) -> float:
        """Player 0's expected payoff under ``strategy`` (and the chooser's ``choice``)."""
        r = self.reaches(strategy)
        return float(self.top[0] @ self.values(0, strategy, r, choice))

    def best_response_value(self, strategy, player: int, choice=None) -> float:
        """Player ``player``'s best-response value in the truncated game (its best action per hand
        above the cut and, where it chooses, its best continuation) against the other's ``strategy``
        (and, when the other is the chooser, its ``choice``)."""
        r = self.reaches(strategy)
        return float(self.top[player] @ self.values(player, strategy, r, choice, respond=True))


def truncate(tree: PublicTree, blueprint, depth: int | None = 1, continuations: int = 1, player: int | None = None,
             bias: float = BIAS, dtype: str = "float64", cache: dict | None = None, root: int = 0,
             top=None) -> TruncatedGame:
    """The truncated game of ``tree`` cut after ``depth`` rounds, with the leaf matrices of the
    continuations of ``blueprint`` (a :class:`~zerosum.public_tree.policy.PublicPolicy` of ``tree``).
    With ``continuations`` > 1, ``player`` is the one being solved (its opponent chooses).  The
    matrices are built in float64 and stored in ``dtype`` (float32 halves the memory and the time of
    an iteration, which reads them all); ``cache``: a dict keeping the blueprint's matrices for the
    next call (the two players' solves share them).  ``root``: the subgame's root node (the whole tree
    by default), ``top``: both players' reaches there (default: the ranges)."""
    from ..core.memory import memory_limit

    t0 = time.perf_counter()
    if blueprint.tree.n_nodes != tree.n_nodes or blueprint.tree.game_id != tree.game_id:
        raise ZerosumError(f"the blueprint is a policy of {blueprint.tree.game_id!r}, not of {tree.game_id!r}")
    if isinstance(continuations, bool) or not isinstance(continuations, (int, np.integer)) \
            or not 1 <= continuations <= len(CONTINUATIONS):
        raise ZerosumError(f"continuations must be 1 to {len(CONTINUATIONS)} ({', '.join(CONTINUATIONS)}), "
                           f"got {continuations!r}")
    if continuations > 1 and player not in (0, 1):
        raise ZerosumError("with several continuations, say which player is solved (player=0 or 1)")
    nodes, leaves = cut(tree, depth, root)
    n0, n1 = tree.n_hands
    chooser = 1 - player if continuations > 1 else -1
    if dtype not in ("float32", "float64"):
        raise ZerosumError(f"dtype must be float32 or float64, got {dtype!r}")
    need = len(leaves) * (continuations + 1) * n0 * n1 * np.dtype(dtype).itemsize
    if need > memory_limit():
        raise ZerosumError(f"the leaf matrices would take {need / 2**30:.1f} GiB ({len(leaves)} leaves x "
                           f"{continuations} continuations x {n0} x {n1} hands): cut deeper (--option depth=) "
                           f"or narrow the ranges")
    builder = _Matrices(tree)
    cache = {} if cache is None else cache
    out = {}
    for leaf in leaves.tolist():
        sub = builder.subtree(leaf)
        own = [builder.relative_reach(sub, blueprint.probs[q], q) for q in (0, 1)]
        if leaf not in cache:
            cache[leaf] = builder.matrix(sub, own[0], own[1]).astype(dtype, copy=False)
        mats = [cache[leaf]]
        for favour in range(continuations - 1):
            o = chooser
            probs = biased(tree, blueprint.probs[o], o, sub, favour, bias)
            ro = builder.relative_reach(sub, probs, o)
            mats.append(builder.matrix(sub, ro if o == 0 else own[0], ro if o == 1 else own[1]).astype(dtype, copy=False))
        out[leaf] = _Leaf(leaf, mats, chooser)
    return TruncatedGame(tree, nodes, out, chooser, build_s=time.perf_counter() - t0, root=root, top=top)


def _matched(regrets: np.ndarray) -> np.ndarray:
    """Regret matching per hand over the rows (uniform where no regret is positive)."""
    pos = np.maximum(regrets, 0.0)
    total = pos.sum(axis=0)
    return np.where(total > 0, pos / np.where(total > 0, total, 1.0), 1.0 / len(regrets))


@dataclass(frozen=True)
class Gadget:
    """The root of a re-solved subgame for the opponent ``o`` (see :mod:`zerosum.solvers.resolve`):

    * ``gate`` (CFR-D's re-solving gadget): per hand j, o decides to take ``alt[j]`` (T) or to enter
      (F); o's reach at the subgame's root is its probability of F.
    * ``margin`` (max-margin): o picks one of its hands (among ``mask``) to enter with; its reach at
      the root is that choice's probability and its value of hand j is the subgame's value less
      ``alt[j]`` (minus the margin).

    ``alt``: o's counterfactual values of the alternative, in the units of the subgame's root values
    (the counterfactual best-response values against the blueprint, plus the gifts for ``reach``)."""

    mode: str
    o: int
    alt: np.ndarray
    mask: np.ndarray | None = None


class TruncatedSolver:
    """A CFR variant on a :class:`TruncatedGame`: alternating updates (player 0's pass, then player
    1's against player 0's new regrets, as the public-tree solver), regrets and average sums per
    decision node (and per leaf the chooser picks at) as [actions x hands] arrays; with a
    :class:`Gadget`, the opponent's root decision too."""

    def __init__(self, game: TruncatedGame, variant: Variant | None = None, gadget: Gadget | None = None,
                 record: int | None = None):
        self.game = game
        self.gadget = gadget
        #: ``record=q``: q's counterfactual values at every kept node, summed over the iterations of q's
        #: passes with the average strategy's weights (``recorded``, ``recorded_weight``): CFR-D's values
        #: of the average (what continual re-solving carries to the next re-solve)
        self.record, self.recorded, self.recorded_weight = record, {}, 0.0
        if gadget is not None:
            n = game.tree.n_hands[gadget.o]
            self.gate = np.zeros((2, n)) if gadget.mode == "gate" else np.zeros(n)
        self.variant = check_variant(variant or CFRPlus())
        require(self.variant.name, "depth-limited")
        if self.variant.restarts:
            require_apart("depth-limited", "restart", "drop dcfr's restart option")
        if is_raked(game.tree):
            require_apart("depth-limited", "rake", "solve the raked game whole (without re-solving)")
        t = game.tree
        self.regrets, self.average = {}, {}
        for n in game.decisions:
            shape = (int(t.n_children[n]), t.n_hands[int(t.player[n])])
            self.regrets[n], self.average[n] = np.zeros(shape), np.zeros(shape)
        for n, leaf in game.leaves.items():
            if leaf.chooser >= 0:
                shape = (len(leaf.matrices), t.n_hands[leaf.chooser])
                self.regrets[n], self.average[n] = np.zeros(shape), np.zeros(shape)
        self.iteration = 0
        self.solve_s = 0.0

    def _current(self) -> tuple[dict, dict]:
        g = self.game
        strategy = {n: _matched(self.regrets[n]) for n in g.decisions}
        choice = {n: _matched(self.regrets[n]) for n in g.leaves if n in self.regrets}
        return strategy, choice

    def root_reach(self) -> np.ndarray | None:
        """The opponent's reach at the subgame's root under the gadget's current strategy."""
        g = self.gadget
        if g is None:
            return None
        if g.mode == "gate":
            return _matched(self.gate)[1]
        pos = np.where(g.mask, np.maximum(self.gate, 0.0), 0.0)
        total = pos.sum()
        return pos / total if total > 0 else g.mask / g.mask.sum()

    def _gadget_update(self, root_values: np.ndarray, rule) -> None:
        g = self.gadget
        if g.mode == "gate":
            each = np.array([g.alt, root_values])
            value = (_matched(self.gate) * each).sum(axis=0)
            apply_regret_rule(self.gate.reshape(-1), (each - value).reshape(-1), rule)
        else:
            u = np.where(g.mask, root_values - g.alt, 0.0)
            q = self.root_reach()
            apply_regret_rule(self.gate, np.where(g.mask, u - q @ u, 0.0), rule)

    def iterate(self, n: int = 1) -> None:
        """``n`` iterations of the variant on the cut tree (each player's pass in turn)."""
        t0 = time.perf_counter()
        v = self.variant
        for _ in range(n):
            self.iteration += 1
            it = self.iteration
            w, rule = v.average_weight(it), v.regret_rule(it)
            for p in (0, 1):
                strategy, choice = self._current()
                top = list(self.game.top)
                if self.gadget is not None:
                    top[self.gadget.o] = self.root_reach()
                r = self.game.reaches(strategy, top)
                mine = {**strategy, **choice}

                def update(node, each, value, p=p, r=r, mine=mine, w=w, rule=rule):
                    sigma = mine[node]
                    self.average[node] += w * r[p][node] * sigma
                    regrets = self.regrets[node]
                    apply_regret_rule(regrets.reshape(-1), (each - value).reshape(-1), rule)

                if p == self.record:
                    every = self.game.values(p, strategy, r, choice, update=update, every=True)
                    for node, vals in every.items():
                        if node in self.recorded:
                            self.recorded[node] += w * vals
                        else:
                            self.recorded[node] = w * np.asarray(vals, dtype=np.float64)
                    self.recorded_weight += w
                    root_values = every[self.game.root]
                else:
                    root_values = self.game.values(p, strategy, r, choice, update=update)
                if self.gadget is not None and p == self.gadget.o:
                    self._gadget_update(root_values, rule)
        self.solve_s += time.perf_counter() - t0

    def state_dict(self) -> dict:
        """The run's state: iteration, each node's regrets and average sums (``regrets/N``,
        ``average/N``), the gadget's regrets and the recorded values; :meth:`load_state_dict` resumes
        it on the same truncated game, to the same figures as one run."""
        state = {"iteration": np.array(self.iteration), "variant": np.array(self.variant.name),
                 "recorded_weight": np.array(self.recorded_weight)}
        for n in self.regrets:
            state[f"regrets/{n}"] = self.regrets[n]
            state[f"average/{n}"] = self.average[n]
        for n, v in self.recorded.items():
            state[f"recorded/{n}"] = v
        if self.gadget is not None:
            state["gate"] = self.gate
        return self.variant.save(state)

    def load_state_dict(self, state: dict) -> None:
        """Resume from :meth:`state_dict` of a solver of the same truncated game and variant (a
        one-line refusal otherwise)."""
        if str(state.get("variant", "")) != self.variant.name:
            raise ZerosumError(f"the saved solve ran {state.get('variant')}, not {self.variant.name}")
        self.variant.check(state)
        keys = {f"regrets/{n}" for n in self.regrets}
        saved = {k for k in state if k.startswith("regrets/")}
        if keys != saved or ("gate" in state) != (self.gadget is not None):
            raise ZerosumError("the saved solve is of another truncated game (its nodes differ)")
        for n in self.regrets:
            for name, arrs in (("regrets", self.regrets), ("average", self.average)):
                a = np.asarray(state[f"{name}/{n}"])
                if a.shape != arrs[n].shape:
                    raise ZerosumError("the saved solve is of another truncated game (its hands differ)")
                arrs[n][...] = a
        if self.gadget is not None:
            self.gate[...] = np.asarray(state["gate"])
        self.recorded = {int(k.split("/", 1)[1]): np.array(v, dtype=np.float64) for k, v in state.items()
                         if k.startswith("recorded/")}
        self.recorded_weight = float(state["recorded_weight"])
        self.iteration = int(state["iteration"])

    def run_to(self, iterations: int, progress=None) -> None:
        """Iterate up to ``iterations`` in all (``progress(k)`` after each block of k)."""
        if self.iteration > iterations:
            raise ZerosumError(f"the saved solve ran {self.iteration} iterations, more than -n {iterations}; "
                               f"resume with -n {self.iteration} or more")
        block = max(1, iterations // 20)
        while self.iteration < iterations:
            k = min(block, iterations - self.iteration)
            self.iterate(k)
            if progress is not None:
                progress(k)

    def average_strategy(self) -> dict:
        """{decision node: [actions x hands]} the normalized average strategy (uniform where none)."""
        return {n: _matched(self.average[n]) for n in self.game.decisions}

    def average_choice(self) -> dict:
        """The leaves' choosers' average mixes over their continuations, per leaf node."""
        return {n: _matched(self.average[n]) for n in self.game.leaves if n in self.average}


def combined(blueprint, strategies: dict, players=(0, 1)):
    """The blueprint with each of ``players``' decision nodes in ``strategies`` replaced: a
    :class:`~zerosum.public_tree.policy.PublicPolicy` of the whole tree."""
    from ..public_tree.policy import PublicPolicy

    tree = blueprint.tree
    probs = [np.array(p, dtype=np.float64) for p in blueprint.probs]
    for n, table in strategies.items():
        q = int(tree.player[n])
        if q in players:
            o, k = int(tree.offset[n]), table.size
            probs[q][o:o + k] = table.reshape(-1)
    return PublicPolicy(tree, probs)


@dataclass
class DepthLimitedResult:
    policy: object  # the combined PublicPolicy
    games: list  # the TruncatedGame(s) solved
    build_s: float
    solve_s: float
    iterations: int
    dtype: str = "float64"
    #: each solve's state (:meth:`TruncatedSolver.state_dict`), what ``--save-state`` writes
    states: list = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """The run's sizes and times, as ``--json`` reports them."""
        g = self.games[0]
        return {"depth_limited": {**g.sizes(), "solves": len(self.games), "iterations": self.iterations,
                                  "build_s": self.build_s, "solve_s": self.solve_s}}


def default_dtype(tree: PublicTree) -> str:
    """float32 where one leaf matrix passes 4 MiB in float64 (hold'em with wide ranges), else float64."""
    n0, n1 = tree.n_hands
    return "float32" if n0 * n1 * 8 > 4 << 20 else "float64"


def depth_limited_solve(tree: PublicTree, blueprint, depth: int = 1, iterations: int = 100,
                        variant: Variant | None = None, continuations: int = 1, bias: float = BIAS,
                        dtype: str | None = None, progress=None, states: list | None = None) -> DepthLimitedResult:
    """Solve ``tree`` above the cut after ``depth`` rounds with ``variant`` x ``iterations`` against
    the blueprint's continuations (one solve with ``continuations=1``, one per player otherwise)
    and return the combined profile.  ``progress(done, total)`` after each block of iterations.
    ``states``: the solves' saved states (``DepthLimitedResult.states`` of an earlier call with the
    same arguments), resumed to ``iterations`` in all: the same figures as one run."""
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ZerosumError(f"iterations must be a positive integer, got {iterations!r}")
    plans = [(None, (0, 1))] if continuations == 1 else [(0, (0,)), (1, (1,))]
    games, strategies, build, solve = [], {}, 0.0, 0.0
    total = iterations * len(plans)
    done = 0
    dtype = dtype or default_dtype(tree)
    cache: dict = {}
    saved = []
    if states is not None and len(states) != len(plans):
        raise ZerosumError(f"the saved depth-limited run holds {len(states)} solve(s), this one makes {len(plans)}")
    for k, (player, keep) in enumerate(plans):
        game = truncate(tree, blueprint, depth, continuations, player, bias, dtype, cache)
        solver = TruncatedSolver(game, variant)
        if states is not None:
            solver.load_state_dict(states[k])
            done += solver.iteration

        def advance(step):
            nonlocal done
            done += step
            if progress is not None:
                progress(done, total)

        solver.run_to(iterations, advance)
        saved.append(solver.state_dict())
        avg = solver.average_strategy()
        strategies.update({n: s for n, s in avg.items() if int(tree.player[n]) in keep})
        games.append(game)
        build += game.build_s
        solve += solver.solve_s
    return DepthLimitedResult(combined(blueprint, strategies), games, build, solve, iterations, dtype, saved)
