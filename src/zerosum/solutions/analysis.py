"""What a poker user reads at one public node: per hand, the strategy, the range reaching the
node, the expected value and the equity; the same by 13x13 hand class and by made hand / draw.

Definitions (player p at public node n, hand i; o is the other player; everything from the
profile's behavioral strategies, e.g. a solver's average policy):

* ``reach[i]`` = range_p(i) x the probability that p's own strategy takes hand i to n (the
  player's range at the node before card removal, what solvers draw as the range);
* ``probability[i]`` = P(n is reached and p holds i) = reach[i] x D(i), where
  D(i) = sum_j W_n(i, j) reach_o[j] and W_n(i, j) is the chance probability of the deal (i, j) and
  of the public cards dealt down to n (zero where the hands share a card with each other or with
  the board): chance, card removal and the opponent's reach are all in D;
* ``weight[i]`` = probability[i] / sum(probability): the range at the node normalized to sum to 1
  (the probability of holding i given that the node is reached);
* ``ev[i]`` = E[p's net chips at the end of the hand | n reached, p holds i] = cfv(i) / D(i), where
  cfv(i) = sum over the terminals z below n of p's own probability from n to z x the payoff of z
  x sum_j W_z(i, j) reach_o(z, j) is the counterfactual value (the one the passes compute).  Net
  chips are the game's payoff: what p ends with minus what p had before the subgame (the starting
  pot counts half to each player), so at the root ``sum_i weight[i] * ev[i]`` is the game value;
  NaN where D(i) = 0 (the hand cannot be there);
* ``equity[i]`` = P(win) + P(tie) / 2 at showdown against o's hands weighted by reach_o at n
  (card removal included), over all the cards still to come, ignoring any further betting (as
  poker solvers define it); NaN where no opponent hand is compatible;
* ``strategy[a, i]`` (the player to act only): the profile's probability of action a;
* ``action_mix[a]`` (the player to act only) = sum_i weight[i] strategy[a, i]: how often the
  range takes action a at n (what solvers show as the range's strategy, "checks 93 %").

The reach at n comes from the path (:func:`path_reach`), the values below n from the compiled
depth-first pass of the solver (:func:`~zerosum.public_tree.kernels.dfs_from` started at n with
that reach, EXPECT or BEST_RESPONSE per player: :func:`node_values`), so memory is O(depth x
hands) whatever the subtree.  The NumPy pass over [nodes x hands] arrays of the subtree
(:func:`numpy_node_values`: reach down, terminals as one matrix product per board, values up)
stays for best responses with locked hands and as the tests' reference
(tests/test_analysis_large_nodes.py: the same figures to 1e-9); both are checked against the
history tree.  Hold'em trees give card-level hands (grid, categories, equity); the poker family
gives strategy, reach, weight and EV.

Costs, measured here: a 3-bet-pot flop read from a ``.zsp`` (425,494 public nodes, 40 and 73
hands), the whole report at the root 1.85 s of CPU and 276 MB for the whole process (the NumPy
pass: 7.1 s, 1.17 GB); :func:`check_work` refuses a subtree past ~1e11 terminal products, naming
a later node; the equity of every hand of both players on a flop with full ranges 0.55 s of CPU
(one runout at a time, as before 2026-12-06: 2.1 s).
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from ..poker.cards import grid_classes, hand_class
from ..poker.equity import equity
from ..public_tree.form import CHANCE_NODE, DECISION, FOLD, SHOWDOWN, PublicTree, find_node
from ..public_tree.locking import NodeLocks
from ..public_tree.policy import PublicPolicy
from ..public_tree.terminals import DENSE, RANKS, SWEEP

#: the categories, first match wins (see :func:`hand_categories` for the exact rules)
CATEGORIES = ("straight flush", "quads", "full house", "flush", "straight", "set", "trips", "two pair",
              "overpair", "top pair", "weaker pair", "flush draw", "straight draw", "nothing")


def as_policy(tree: PublicTree, profile):
    """A :class:`~zerosum.public_tree.policy.PublicPolicy` from a policy, or a solver's average."""
    if isinstance(profile, PublicPolicy):
        return profile
    if hasattr(profile, "average_policy"):
        return profile.average_policy()
    raise ZerosumError(f"expected a public-tree policy or solver, got {type(profile).__name__}")


# --- dense terminal matrices, one board at a time ------------------------------------------------
class Boards:
    """W(i, j, b) (chance weight of the deal) and S(i, j, b) = W x showdown sign for player 0, as
    [n0 x n1] matrices per board id, made on first use (O(n^2) per board: an analysis, not a solver)."""

    def __init__(self, tree: PublicTree):
        self.term = tree.terminals
        self.n = tree.n_hands
        self.cache: dict = {}
        if self.term.kind == SWEEP:
            c = self.term.cards
            self.share = ((c[:, None, 0] == c[None, :, 0]) | (c[:, None, 0] == c[None, :, 1]) |
                          (c[:, None, 1] == c[None, :, 0]) | (c[:, None, 1] == c[None, :, 1]))

    def get(self, b: int):
        """The matrices of board ``b``; only the last board's are kept (the full turn subgame's 49
        boards would hold 1 GB: 2 x 1,128^2 x 8 bytes each)."""
        if b not in self.cache:
            self.cache = {b: self._make(b)}
        return self.cache[b]

    def _make(self, b: int):
        t = self.term
        if t.kind == DENSE:
            return t.weight[b], t.signed[b]
        if t.kind == SWEEP:  # on the sweep's shared list, then [player 0's window x player 1's]
            n = len(t.cards)
            live = t.order[t.start[b]:t.start[b + 1]]
            strength = np.full(n, -1, dtype=np.int64)
            strength[live] = t.strength[t.start[b]:t.start[b + 1]]
            ok = np.zeros(n, dtype=bool)
            ok[live] = True
            w = t.const[b] * (ok[:, None] & ok[None, :] & ~self.share)
            (a0, m0), (a1, m1) = t.windows().tolist()
            w = w[a0:a0 + m0, a1:a1 + m1]
            return w, w * np.sign(strength[a0:a0 + m0, None] - strength[None, a1:a1 + m1])
        if t.kind == RANKS:  # W = c(b) (k - [i = j]) (k - [i = r] - [j = r]); a rank pairing the card on top
            k, r = t.copies, int(t.board_rank[b])
            n = self.n[0]
            eye = np.eye(n)
            w = t.const[b] * (k - eye)
            strength = np.arange(n)
            if r >= 0:
                hit = np.zeros(n)
                hit[r] = 1.0
                w = w * np.maximum(k - hit[:, None] - hit[None, :], 0.0)
                strength = strength.copy()
                strength[r] = n
            return w, w * np.sign(strength[:, None] - strength[None, :])
        raise AssertionError(f"unknown terminals {t.kind}")


# --- the value pass -----------------------------------------------------------------------------------
def path_reach(tree: PublicTree, policy, node: int) -> list[np.ndarray]:
    """Each player's reach at ``node``: range x that player's own probabilities along the path."""
    reach = [np.array(tree.ranges[0], dtype=np.float64), np.array(tree.ranges[1], dtype=np.float64)]
    path = []
    n = node
    while n > 0:
        path.append(n)
        n = int(tree.parent[n])
    for child in reversed(path):
        par = int(tree.parent[child])
        if tree.kind[par] == DECISION:
            q = int(tree.player[par])
            reach[q] = reach[q] * policy.table(par)[child - int(tree.first_child[par])]
    return reach


def subtree(tree: PublicTree, node: int) -> np.ndarray:
    """The nodes below ``node`` (itself included), ascending: parents before children."""
    out, stack = [], [node]
    while stack:
        n = stack.pop()
        out.append(n)
        f, c = int(tree.first_child[n]), int(tree.n_children[n])
        if c:
            stack.extend(range(f, f + c))
    return np.array(sorted(out), dtype=np.int64)


#: the value pass's most terminal work (terminals x n0 x n1 multiply-adds): about 40 s here (the
#: full turn subgame's root, 4,000 terminals x 1,128^2, took 2 s)
MAX_TERMINAL_WORK = 1e11


def check_size(tree: PublicTree, node: int, nodes: np.ndarray) -> None:
    """Refuse, in one line and before any work, a subtree whose value pass would not fit in memory
    (four [nodes x hands] float64 arrays) or would take minutes (dense terminal products)."""
    from ..core.memory import memory_limit

    n0, n1 = tree.n_hands
    need = 2 * len(nodes) * (n0 + n1) * 8
    work = int((tree.kind[nodes] >= FOLD).sum()) * n0 * n1
    if need <= memory_limit() and work <= MAX_TERMINAL_WORK:
        return
    later = next((int(k) for k in nodes[1:] if tree.kind[int(tree.parent[k])] == CHANCE_NODE), None)
    hint = f"; ask for a node after the next card, e.g. --node {tree.labels[later]!r}" if later is not None else \
        "; narrow the ranges"
    raise ZerosumError(f"the analysis at {tree.labels[node]!r} walks {len(nodes):,} public nodes x {max(n0, n1):,} hands "
                       f"(about {need / 1e9:.1f} GB and {work:.1e} terminal products), too much here{hint}")


def node_values(tree: PublicTree, policy, node: int = 0, best_response: int | None = None, locked=None,
                boards: Boards | None = None) -> dict:
    """Counterfactual values of every hand of both players at ``node`` under ``policy``.  With
    ``best_response=q``, player q takes the best action per hand at its nodes below (read only
    q's values then: the other player's are not against that response), except for the hands of
    ``locked[node]`` (a bool [hands] mask), which follow the policy there.  Returns ``cfv`` (two
    vectors), ``reach`` (two vectors at ``node``) and ``denominator`` (D of the module docstring).

    The reach at ``node`` comes from the path (:func:`path_reach`), the values from the compiled
    depth-first pass (:func:`~zerosum.public_tree.kernels.dfs_from`, one per player, EXPECT or
    BEST_RESPONSE) started at ``node`` with that reach: vectors per depth, O(depth x hands)
    memory whatever the subtree (:func:`_pass_values`).  With ``locked`` the NumPy pass
    (:func:`numpy_node_values`: the kernels have no locked hands)."""
    if locked:
        return numpy_node_values(tree, policy, node, best_response, locked, boards)
    recorded = getattr(policy, "recorded_values", None) if best_response is None else None
    cfv = recorded(node) if recorded is not None else None
    if cfv is not None:  # a solution file's root and its children: the values it records (no pass)
        top = path_reach(tree, policy, node)
        w, _ = (boards or Boards(tree)).get(int(tree.board[node]))
        return {"cfv": cfv, "reach": top, "denominator": [w @ top[1], w.T @ top[0]]}
    from ..public_tree import kernels

    inside = subtree_mask(tree, node)
    check_work(tree, node, inside)
    top = path_reach(tree, policy, node)
    src, offset = _pass_sources(tree, policy, inside)
    cfv = [_pass_values(tree, src, node, p, top,
                        kernels.BEST_RESPONSE if best_response == p else kernels.EXPECT, offset) for p in (0, 1)]
    w, _ = (boards or Boards(tree)).get(int(tree.board[node]))
    den = [w @ top[1], w.T @ top[0]]
    return {"cfv": cfv, "reach": top, "denominator": den}


def subtree_mask(tree: PublicTree, node: int) -> np.ndarray:
    """Per node, whether it is ``node`` or below it: one vector step per depth (the children of
    the last depth's nodes), no loop over nodes in Python."""
    inside = np.zeros(tree.n_nodes, dtype=bool)
    level = np.array([node], dtype=np.int64)
    while len(level):
        inside[level] = True
        counts = tree.n_children[level].astype(np.int64)
        level = level[counts > 0]
        counts = counts[counts > 0]
        if not len(level):
            break
        starts = np.repeat(tree.first_child[level].astype(np.int64) - np.cumsum(counts) + counts, counts)
        level = starts + np.arange(int(counts.sum()))
    return inside


def check_work(tree: PublicTree, node: int, inside: np.ndarray) -> None:
    """Refuse, in one line and before any work, a subtree whose terminals would take minutes
    (terminals x n0 x n1 past :data:`MAX_TERMINAL_WORK`); memory is no bound (the compiled pass
    keeps vectors per depth)."""
    n0, n1 = tree.n_hands
    terminals = int((inside & (tree.kind >= FOLD)).sum())
    work = terminals * n0 * n1
    if work <= MAX_TERMINAL_WORK:
        return
    parent = tree.parent.astype(np.int64)
    below_deal = inside.copy()
    below_deal[0] = False
    below_deal[1:] &= tree.kind[parent[1:]] == CHANCE_NODE
    below_deal[node] = False
    later = np.flatnonzero(below_deal)
    hint = f"; ask for a node after the next card, e.g. --node {tree.labels[int(later[0])]!r}" if len(later) else \
        "; narrow the ranges"
    raise ZerosumError(f"the analysis at {tree.labels[node]!r} walks {int(inside.sum()):,} public nodes x "
                       f"{max(n0, n1):,} hands ({work:.1e} terminal products), too much here{hint}")


#: the workspace of the last tree analysed (its kernel arrays, terminal batches and vectors per
#: depth), kept while that tree lives: resolving calls node_values at many nodes of one tree
_LAST_WORKSPACE: list = [None, None]


def _workspace(tree: PublicTree):
    import weakref

    from ..public_tree.arrays import depth_scratch
    from ..public_tree.passes import Workspace

    ref, ws = _LAST_WORKSPACE
    if ref is not None and ref() is tree:
        return ws
    ws = Workspace(tree, np.float64)
    ws.scratch = depth_scratch(ws.max_depth, ws.max_actions, ws.width, np.float64, False, ws.batches)
    _LAST_WORKSPACE[:] = [weakref.ref(tree), ws]
    return ws


def _pass_sources(tree: PublicTree, policy, inside: np.ndarray) -> tuple[list[np.ndarray], np.ndarray | None]:
    """The arrays the pass reads each player's strategy from (normalized per node and hand as it
    reads them: probabilities read unchanged), and the node offsets into them (None: the tree's).
    A policy read from a ``uint16`` solution file
    (:class:`~zerosum.public_tree.policy.SavedPolicy`, its probabilities not all read): its
    16-bit entries themselves, the tables of the subtree's decision nodes only, one after the
    other in node order (2 bytes an entry; each block holding one inflated in turn), with their
    offsets in a node array of zeros elsewhere (the pass reads no other node's; the pass divides
    each entry by the node's total, 65535, as the file's reader does); any other policy: its
    float64 probabilities and the tree's offsets."""
    from itertools import pairwise

    reader = getattr(policy, "reader", None)
    if reader is None or getattr(policy, "_probs", None) is not None or reader.header.get("encoding") != "uint16":
        return [np.asarray(policy.probs[p], dtype=np.float64) for p in (0, 1)], None
    offset = np.zeros(tree.n_nodes, dtype=np.int64)  # (pages of zeros: only the subtree's are written)
    out = []
    for p in (0, 1):
        nodes = np.flatnonzero(inside & (tree.kind == DECISION) & (tree.player == p))
        sizes = tree.n_children[nodes].astype(np.int64) * tree.n_hands[p]
        local = np.cumsum(sizes) - sizes
        offset[nodes] = local
        codes = np.empty(int(sizes.sum()), dtype=np.uint16)
        blocks = np.searchsorted(reader.starts[p], nodes, side="right") - 1
        cuts = [0, *(np.flatnonzero(np.diff(blocks)) + 1).tolist(), len(nodes)] if len(nodes) else [0]
        for lo, hi in pairwise(cuts):  # the subtree's nodes in block k, in node order
            k = int(blocks[lo])
            block = reader.block(p, k)
            s = sizes[lo:hi]
            o = tree.offset[nodes[lo:hi]] - reader.firsts[p][k]
            total = int(s.sum())
            codes[local[lo]:local[lo] + total] = block[np.repeat(o - (np.cumsum(s) - s), s) + np.arange(total)]
        out.append(codes)
    return out, offset


def _pass_values(tree: PublicTree, src: list[np.ndarray], node: int, p: int, top: list[np.ndarray],
                 mode: int, offset: np.ndarray | None = None) -> np.ndarray:
    """Player p's counterfactual values at ``node``: the depth-first pass from ``node``
    (``Cut(n0=node)``), the reach ``top`` in row 0 of its vectors per depth; ``offset``: where
    each node's table starts in ``src`` (None: the tree's offsets)."""
    from ..public_tree import kernels
    from ..public_tree.arrays import Cut, Sums, pass_step

    ws = _workspace(tree)
    sc = ws.scratch
    n_p, n_o = tree.n_hands[p], tree.n_hands[1 - p]
    sc.own[0, :n_p] = top[p]
    sc.opp[0, :n_o] = top[1 - p]
    ranges = ws.ranges
    sums = Sums(ranges[p], ranges[1 - p], src[p], src[1 - p], ws.empty, src[p], ws.no_scales, ws.no_sample)
    nodes, term = ws.args
    if offset is not None:
        nodes = nodes._replace(offset=offset)
    kernels.dfs_from(nodes, term, pass_step(p, mode), sums, sc, ws.cs, Cut(int(node), 0, ws.no_sample, ws.no_cut,
                                                                            ws.no_cut))
    return sc.val[0, :n_p].astype(np.float64, copy=True)


def numpy_node_values(tree: PublicTree, policy, node: int = 0, best_response: int | None = None, locked=None,
                boards: Boards | None = None) -> dict:
    """:func:`node_values` in NumPy (the reference the tests check the compiled pass against, and
    the pass of a best response with locked hands): one pass down (reach vectors), terminals per
    board (matrix products), one pass up, with [nodes x hands] arrays for the whole subtree.  With
    ``best_response=q``, player q takes the best action per hand at its nodes below (read only
    q's values then: the other player's are not against that response), except for the hands of
    ``locked[node]`` (a bool [hands] mask), which follow the policy there.  Returns ``cfv`` (two
    vectors), ``reach`` (two vectors at ``node``) and ``denominator`` (D of the module docstring)."""
    boards = boards or Boards(tree)
    nodes = subtree(tree, node)
    check_size(tree, node, nodes)
    pos = {int(n): k for k, n in enumerate(nodes)}
    n0, n1 = tree.n_hands
    top = path_reach(tree, policy, node)
    r = [np.zeros((len(nodes), n0)), np.zeros((len(nodes), n1))]
    r[0][0], r[1][0] = top
    kind, player, first, count = tree.kind, tree.player, tree.first_child, tree.n_children
    tables = {}
    for k, n in enumerate(nodes.tolist()):  # down: each child's reach from its parent's
        if k and kind[int(tree.parent[n])] == DECISION:
            par = int(tree.parent[n])
            q = int(player[par])
            if par not in tables:
                tables[par] = policy.table(par)
            kp = pos[par]
            r[q][k] = r[q][kp] * tables[par][n - int(first[par])]
            r[1 - q][k] = r[1 - q][kp]
        elif k:
            kp = pos[int(tree.parent[n])]
            r[0][k], r[1][k] = r[0][kp], r[1][kp]
    v = [np.zeros((len(nodes), n0)), np.zeros((len(nodes), n1))]
    term = np.flatnonzero(kind[nodes] >= FOLD)
    for b in np.unique(tree.board[nodes[term]]):  # terminals: one product per board
        ks = term[tree.board[nodes[term]] == b]
        w, s = boards.get(int(b))
        tn = nodes[ks]
        stake = tree.stake[tn]
        show = kind[tn] == SHOWDOWN
        # player 0: +stake x S r1 at a showdown, -/+ stake x W r1 at a fold by 0 / by 1
        sign0 = np.where(show, 1.0, np.where(player[tn] == 0, -1.0, 1.0)) * stake
        sh, fo = ks[show], ks[~show]
        if len(sh):
            v[0][sh] = sign0[show, None] * (r[1][sh] @ s.T)
            v[1][sh] = -sign0[show, None] * (r[0][sh] @ s)
        if len(fo):
            v[0][fo] = sign0[~show, None] * (r[1][fo] @ w.T)
            v[1][fo] = -sign0[~show, None] * (r[0][fo] @ w)
    locked = locked or {}
    mirrors = _mirror_reads(tree, nodes)
    for k in range(len(nodes) - 1, -1, -1):  # up: children after parents in ``nodes``
        n = int(nodes[k])
        if kind[n] >= FOLD:
            continue
        kids = [pos[c] for c in range(int(first[n]), int(first[n]) + int(count[n]))]
        if kind[n] == CHANCE_NODE:
            for p in (0, 1):
                v[p][k] = v[p][kids].sum(axis=0) if mirrors is None else _with_mirrors(v[p], kids, mirrors[p])
            continue
        q = int(player[n])
        table = tables.get(n)
        if table is None:
            table = tables[n] = policy.table(n)
        v[1 - q][k] = v[1 - q][kids].sum(axis=0)
        follow = (table * v[q][kids]).sum(axis=0)
        if best_response == q:
            best = v[q][kids].max(axis=0)
            mask = locked.get(n)
            v[q][k] = best if mask is None else np.where(mask, follow, best)
        else:
            v[q][k] = follow
    w, _ = boards.get(int(tree.board[node]))
    den = [w @ top[1], w.T @ top[0]]
    return {"cfv": [v[0][0], v[1][0]], "reach": top, "denominator": den}


def _mirror_reads(tree: PublicTree, nodes: np.ndarray):
    """Suit isomorphism (:attr:`~zerosum.public_tree.form.PublicTree.iso`): per player, {place in
    ``nodes`` of a deal that has mirrors: the index arrays its mirrors read its values through}
    (player p's hand i in a mirror deal plays as hand ``perm[lo + i] - lo`` of the representative,
    ``lo`` the start of p's window of the shared list); None for a tree without mirrors.  A chance
    node's value is its deals' values plus their mirrors' (as the depth-first pass sums them):
    without them a suit-isomorphic tree's values would leave out the deals it does not list."""
    if tree.iso is None:
        return None
    first, count, perm, swap = tree.iso
    out = ({}, {})
    for k in np.flatnonzero(count[nodes] > 0).tolist():
        n = int(nodes[k])
        rows = [perm[int(swap[m])].astype(np.int64) for m in range(int(first[n]), int(first[n]) + int(count[n]))]
        for p in (0, 1):
            lo = int(tree.hand_window(p)[0]) if tree.n_hands[p] else 0
            out[p][k] = [row[lo:lo + tree.n_hands[p]] - lo for row in rows]
    return out


def _with_mirrors(v: np.ndarray, kids: list[int], reads: dict) -> np.ndarray:
    """The sum of the deals' value rows ``v[kids]``, each followed by its mirrors' (its own read
    through each mirror's hand permutation), in the depth-first pass's order."""
    total = np.zeros(v.shape[1])
    for c in kids:
        total += v[c]
        for idx in reads.get(c, ()):
            total += v[c][idx]
    return total


def game_value(tree: PublicTree, policy) -> float:
    """Player 0's expected payoff under ``policy`` (from :func:`node_values` at the root)."""
    vals = node_values(tree, policy, 0)
    return float(vals["reach"][0] @ vals["cfv"][0])


def best_response_value(tree: PublicTree, policy, player: int, locked=None) -> float:
    """Player ``player``'s best-response value against the other's strategy in ``policy``, keeping
    ``locked`` ({node: bool mask of its hands}) fixed to the policy (the best response of a locked
    player can only move its free slots)."""
    vals = node_values(tree, policy, 0, best_response=player, locked=locked)
    return float(vals["reach"][player] @ vals["cfv"][player])


# --- hold'em hands: classes, categories, equity --------------------------------------------------------
def _hand_cards(tree: PublicTree) -> np.ndarray | None:
    """The two cards of each hand of the sweep's shared list (both players' lists are windows
    of it: :meth:`~zerosum.public_tree.form.PublicTree.hand_window`), or None."""
    if tree.terminals.kind != SWEEP:
        return None
    return np.asarray(tree.terminals.cards, dtype=np.int64)


def player_equity(tree: PublicTree, board, p: int, opponent: np.ndarray) -> np.ndarray:
    """:func:`equity` of player p's hands against the other player's weights ``opponent`` (over
    its own list): both placed on the sweep's shared list, which holds both."""
    cards = _hand_cards(tree)
    shared = np.zeros(len(cards))
    shared[tree.hand_window(1 - p)] = opponent
    return equity(board, cards, shared)[tree.hand_window(p)]


def players_equity(tree: PublicTree, board, reach: list[np.ndarray]) -> list[np.ndarray]:
    """:func:`player_equity` of both players, each against the other's ``reach``, in one
    :func:`equity` (the runouts' strengths and sorts are the same for both)."""
    cards = _hand_cards(tree)
    shared = np.zeros((2, len(cards)))
    for p in (0, 1):
        shared[p, tree.hand_window(1 - p)] = reach[1 - p]
    both = equity(board, cards, shared)
    return [both[p][tree.hand_window(p)] for p in (0, 1)]


def node_board(tree: PublicTree, node: int) -> tuple[int, ...] | None:
    """The cards on the board at ``node`` (hold'em), or None."""
    from ..poker.cards import parse_cards

    boards = tree.extra.get("boards")
    if boards is None:
        return None
    return parse_cards(boards[int(tree.board[node])])


def _straight_mask(ranks_mask: np.ndarray) -> np.ndarray:
    wheel = (1 << 12) | 0b1111
    masks = np.array([wheel] + [0b11111 << lo for lo in range(9)], dtype=np.int64)
    return ((ranks_mask[..., None] & masks) == masks).any(axis=-1)


def hand_categories(board, cards: np.ndarray) -> np.ndarray:
    """Index into :data:`CATEGORIES` for each hole pair (cards [n, 2]) on ``board`` (3-5 cards).
    The first rule that holds wins:

    * straight flush ... straight, and two pair: the evaluator's category of the best five of
      board + hole cards (:mod:`zerosum.poker.strength`; a hand that plays the board counts too);
    * three of a kind: ``set`` with a pocket pair matching a board card, ``trips`` otherwise;
    * one pair, with a hole card in the pair: ``overpair`` (a pocket pair above every board card),
      ``top pair`` (a hole card pairs the highest board card), ``weaker pair`` (any other);
    * no pair of its own (high card, or the pair is the board's): ``flush draw`` (board of 3 or 4
      cards, four cards of one suit among board + hole, at least one a hole card), ``straight draw``
      (board of 3 or 4 cards and one more rank would make a straight that needs a hole card:
      open-ended and gutshots alike), ``nothing`` otherwise."""
    from ..poker.strength import CATEGORIES as BANDS
    from ..poker.strength import hand_strengths

    board = np.asarray(board, dtype=np.int64)
    cards = np.asarray(cards, dtype=np.int64)
    s = hand_strengths(board, cards).astype(np.int64)
    low = {name: lo for name, lo in BANDS}
    out = np.full(len(cards), CATEGORIES.index("nothing"))
    br, hr = board >> 2, cards >> 2
    pocket = hr[:, 0] == hr[:, 1]
    hits = (hr[:, :, None] == br[None, None, :]).any(axis=2)  # [n, 2] hole card pairs a board card
    one_pair = (s >= low["one pair"]) & (s < low["two pair"])
    own_pair = one_pair & (pocket | hits.any(axis=1))
    top = br.max()
    rules = [
        ("straight flush", s >= low["straight flush"]),
        ("quads", (s >= low["four of a kind"]) & (s < low["straight flush"])),
        ("full house", (s >= low["full house"]) & (s < low["four of a kind"])),
        ("flush", (s >= low["flush"]) & (s < low["full house"])),
        ("straight", (s >= low["straight"]) & (s < low["flush"])),
        ("set", (s >= low["three of a kind"]) & (s < low["straight"]) & pocket & hits[:, 0]),
        ("trips", (s >= low["three of a kind"]) & (s < low["straight"])),
        ("two pair", (s >= low["two pair"]) & (s < low["three of a kind"])),
        ("overpair", own_pair & pocket & (hr[:, 0] > top)),
        ("top pair", own_pair & ((hr == top) & hits).any(axis=1)),
        ("weaker pair", own_pair),
    ]
    if len(board) < 5:
        bs, hs = board & 3, cards & 3
        counts = (bs[None, :, None] == np.arange(4)).sum(axis=1) + (hs[:, :, None] == np.arange(4)).sum(axis=1)
        uses = (hs[:, :, None] == np.arange(4)).any(axis=1)  # [n, 4]
        rules.append(("flush draw", ((counts == 4) & uses).any(axis=1)))
        bmask = int(np.bitwise_or.reduce(1 << br))
        hmask = (1 << hr[:, 0]) | (1 << hr[:, 1])
        draw = np.zeros(len(cards), dtype=bool)
        for r in range(13):
            with_r = _straight_mask((bmask | hmask) | (1 << r))
            board_only = _straight_mask(np.array([bmask | (1 << r)]))[0]
            draw |= with_r & ~board_only
        rules.append(("straight draw", draw))
    done = np.zeros(len(cards), dtype=bool)
    for name, hold in rules:
        take = hold & ~done
        out[take] = CATEGORIES.index(name)
        done |= take
    return out


# --- the report -----------------------------------------------------------------------------------------
def _weighted(x: np.ndarray, w: np.ndarray, groups: np.ndarray, n_groups: int) -> np.ndarray:
    """Per group, the w-weighted mean of x over its members (NaN entries and zero weights skipped;
    NaN for a group without weight).  x: [hands] or [k, hands]."""
    x = np.atleast_2d(x)
    good = ~np.isnan(x) & (w > 0)
    xs = np.where(good, x, 0.0) * w
    num = np.zeros((x.shape[0], n_groups))
    den = np.zeros((x.shape[0], n_groups))
    for row in range(x.shape[0]):
        num[row] = np.bincount(groups, weights=xs[row], minlength=n_groups)
        den[row] = np.bincount(groups, weights=np.where(good[row], w, 0.0), minlength=n_groups)
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.where(den > 0, num / np.where(den > 0, den, 1.0), np.nan)


def node_analysis(tree: PublicTree, profile, label: str | int, with_equity: bool = True) -> dict:
    """Per hand of each player at the node ``label`` (a public label, or a node index): see the
    module docstring for ``reach``, ``probability``, ``weight``, ``ev``, ``equity`` and
    ``strategy``; for hold'em also ``grid`` (the 13x13 classes: combos held, reach, weight, and
    the probability-weighted means of ev, equity and each action) and ``categories``."""
    policy = as_policy(tree, profile)
    node = label if isinstance(label, (int, np.integer)) else find_node(tree, label)
    node = int(node)
    vals = node_values(tree, policy, node)
    board = node_board(tree, node)
    kind = int(tree.kind[node])
    out = {"game": tree.game_id, "node": node, "label": tree.labels[node], "kind": ("decision", "chance", "fold",
           "showdown")[kind], "player": int(tree.player[node]) if kind == DECISION else None,
           "actions": list(tree.action_labels[node]), "players": []}
    if board is not None:
        from ..poker.cards import cards_str

        out["board"] = cards_str(board)
    total = float(vals["reach"][0] @ vals["denominator"][0])
    out["reach_probability"] = total  # P(the node is reached), chance included
    equities = (players_equity(tree, board, vals["reach"]) if with_equity and board is not None
                and _hand_cards(tree) is not None else None)
    for p in (0, 1):
        reach, den, cfv = vals["reach"][p], vals["denominator"][p], vals["cfv"][p]
        prob = reach * den
        with np.errstate(invalid="ignore", divide="ignore"):
            ev = np.where(den > 0, cfv / np.where(den > 0, den, 1.0), np.nan)
            weight = prob / prob.sum() if prob.sum() > 0 else np.zeros_like(prob)
        held = np.flatnonzero(np.asarray(tree.ranges[p]) > 0)
        entry = {"player": p, "hands": [tree.hand_labels[p][i] for i in held], "reach": reach[held],
                 "probability": prob[held], "weight": weight[held], "ev": ev[held]}
        if kind == DECISION and int(tree.player[node]) == p:
            entry["strategy"] = policy.table(node)[:, held]
            # the range's action frequencies: each action's probability averaged over the hands with
            # weight = P(hand | node) (reach, card removal and the opponent's reach included)
            entry["action_mix"] = entry["strategy"] @ entry["weight"]
        cards = tree.hand_cards(p)
        if cards is not None and board is not None:
            if with_equity:
                entry["equity"] = equities[p][held]
            entry.update(_aggregates(entry, cards[held], board, out["actions"] if "strategy" in entry else []))
        out["players"].append(entry)
    return out


def _aggregates(entry: dict, cards: np.ndarray, board, actions) -> dict:
    classes = [hand_class(h) for h in entry["hands"]]
    names = [c for row in grid_classes() for c in row]
    index = {c: k for k, c in enumerate(names)}
    groups = np.array([index[c] for c in classes], dtype=np.int64)
    w = entry["probability"]
    fields = {"combos": np.bincount(groups, minlength=169).astype(float),
              "reach": np.bincount(groups, weights=entry["reach"], minlength=169),
              "weight": np.bincount(groups, weights=entry["weight"], minlength=169),
              "ev": _weighted(entry["ev"], w, groups, 169)[0]}
    if "equity" in entry:
        fields["equity"] = _weighted(entry["equity"], w, groups, 169)[0]
    if "strategy" in entry:
        fields["strategy"] = _weighted(entry["strategy"], w, groups, 169)
    grid = {"classes": names, **fields}
    cat = hand_categories(board, cards)
    nc = len(CATEGORIES)
    cats = {"names": list(CATEGORIES), "combos": np.bincount(cat, minlength=nc).astype(float),
            "weight": np.bincount(cat, weights=entry["weight"], minlength=nc),
            "ev": _weighted(entry["ev"], w, cat, nc)[0]}
    if "equity" in entry:
        cats["equity"] = _weighted(entry["equity"], w, cat, nc)[0]
    if "strategy" in entry:
        cats["strategy"] = _weighted(entry["strategy"], w, cat, nc)
    return {"grid": grid, "categories": cats, "category": [CATEGORIES[c] for c in cat]}


def to_json(report: dict) -> dict:
    """The report with arrays as lists (NaN as null), for ``--json``."""
    def conv(x):
        if isinstance(x, np.ndarray):
            return conv(x.tolist())
        if isinstance(x, dict):
            return {k: conv(v) for k, v in x.items()}
        if isinstance(x, (list, tuple)):
            return [conv(v) for v in x]
        if isinstance(x, float) and not np.isfinite(x):
            return None
        if isinstance(x, (np.floating,)):
            return conv(float(x))
        if isinstance(x, np.integer):
            return int(x)
        return x

    return conv(report)


def locked_exploitability(tree: PublicTree, policy, locks: NodeLocks) -> dict:
    """Gains against ``policy`` (the lock written over it) of the free player (an unrestricted best
    response: the compiled passes, :func:`~zerosum.public_tree.passes.nash_conv_public`) and of the
    locked player (a best response that keeps its locked slots: the NumPy pass of
    :func:`~zerosum.solutions.analysis.best_response_value`; None where that pass would be too
    large, see :func:`~zerosum.solutions.analysis.check_size`), the locked game's NashConv (their
    sum) and the usual one; ``value`` is player 0's."""
    pol = locks.policy(policy)
    ev = pol.evaluate()
    value = ev["value"]
    f, lp = locks.free_player, locks.player
    own = [value, -value]
    gain_f = ev["best_response_values"][f] - own[f]
    try:
        gain_l = best_response_value(tree, pol, lp, locked=locks.masks) - own[lp]
    except ZerosumError:
        gain_l = None
    return {"value": value, "locked_player": lp, "free_player": f, "free_player_gain": gain_f,
            "locked_player_gain": gain_l, "locked_nash_conv": None if gain_l is None else max(gain_f + gain_l, 0.0),
            "nash_conv": ev["nash_conv"]}
