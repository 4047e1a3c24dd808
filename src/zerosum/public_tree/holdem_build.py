"""Compile a limit hold'em subgame (:mod:`zerosum.poker.holdem`) to the public tree.

Public nodes are the betting lines and the cards dealt after the starting board (one chance node
per street still to come, a child per card not on the board: the hands are not public).  Each
player's hand list is its range (:func:`hand_windows`): both are windows of one list of the pairs
either range holds, the terminals' (:attr:`~zerosum.public_tree.terminals.SweepTerminals.window`);
the terminal data is a
:class:`~zerosum.public_tree.terminals.SweepTerminals`: per board id the live hands by strength
and the chance probability c(b) of any one compatible deal, 1 / (Z * m (m - 1) ...) with Z the
range-weighted number of compatible hand pairs and m the cards left once the board and both
hands are out.
"""

from __future__ import annotations

import time

import numpy as np

from ..poker.cards import cards_str
from ..poker.strength import board_strengths
from .build import Skeleton, expand
from .form import CHANCE_NODE, Hands, NodeLabels, Nodes, PublicTree, assemble
from .terminals import SweepTerminals


def hand_windows(game) -> tuple[np.ndarray, np.ndarray]:
    """The shared hand list of the public tree, as indices into the game's (``game.hands``, the
    pairs either range holds): player 0's hands that player 1's range lacks, then the hands of
    both, then player 1's only, each group in the game's order; and each player's window of it
    ([2, 2]: start, length), which is exactly its range (the hands of positive weight).  Each
    player's sums then cover its range only: postflop-solver's example turn spot lists 270 hands,
    167 in player 0's range and 250 in player 1's; with full ranges both windows are the list."""
    in0, in1 = np.asarray(game.ranges[0]) > 0, np.asarray(game.ranges[1]) > 0
    order = np.concatenate([np.flatnonzero(in0 & ~in1), np.flatnonzero(in0 & in1), np.flatnonzero(~in0 & in1)])
    only0 = int(np.count_nonzero(in0 & ~in1))
    window = np.array([[0, int(in0.sum())], [only0, int(in1.sum())]], dtype=np.int64)
    return order.astype(np.int64), window


def suit_swaps(game, order=None) -> dict[tuple[int, int], np.ndarray]:
    """The suit transpositions (s, t), s < t, that map each player's range onto itself: for each,
    the hand permutation of the shared hand list (``perm[i]`` = index of hand i with suits s and t
    swapped; the list is the game's, or ``game.hands[order]`` where ``order`` is given, as
    :func:`hand_windows` makes it).  A transposition also has to fix the board to be used at a deal
    (:func:`_mirrors`); the ranges are checked once, here."""
    from ..poker.cards import pair_index_table

    index = np.full(1326, -1, dtype=np.int64)
    index[np.asarray(game.hands, dtype=np.int64)] = np.arange(len(game.hands))
    table = pair_index_table()
    cards = np.asarray(game.hand_cards, dtype=np.int64)
    out = {}
    for s in range(4):
        for t in range(s + 1, 4):
            suit = cards & 3
            swapped = np.where(suit == s, cards - s + t, np.where(suit == t, cards - t + s, cards))
            perm = index[table[swapped[:, 0], swapped[:, 1]]]
            if (perm < 0).any():
                continue
            if all(np.array_equal(np.asarray(r), np.asarray(r)[perm]) for r in game.ranges):
                out[(s, t)] = perm
    if order is not None:  # the same permutations on the list game.hands[order]
        where = np.empty(len(game.hands), dtype=np.int64)
        where[order] = np.arange(len(order))
        out = {k: where[perm[order]] for k, perm in out.items()}
    return out


def _alike(board, dealt, swaps) -> set[tuple[int, int]]:
    """The transpositions (s, t) of ``swaps`` that the board cannot tell apart so far: suits s and
    t hold the same ranks on the starting ``board`` and on the board of every street dealt since
    (``board`` + each prefix of ``dealt``).  Every street, not only the current board: the betting
    of an earlier street saw that street's board, so a swap that changed it (Qs7h2d, then a 7c:
    hearts and clubs hold a 7 each on the turn, but the flop's 7h has no 7c twin) maps hands whose
    reach differs there (AhKh's backdoor flush draw, AcKc's none), and a mirror deal would read
    the representative's values against the wrong opponent reach."""
    out = set(swaps)
    for k in range(len(dealt) + 1):
        cards = tuple(board) + tuple(dealt[:k])
        ranks = [frozenset(c >> 2 for c in cards if c & 3 == u) for u in range(4)]
        out = {(u, s) for u, s in out if ranks[u] == ranks[s]}
    return out


def _mirrors(board, dealt, swaps) -> dict[int, list[tuple[int, int]]]:
    """At a deal after ``dealt`` on the starting ``board``: card -> the transpositions that carry
    it to a card of the same rank dealt instead (a mirror), for each representative card (the
    lowest suit of its class: suits :func:`_alike` on every street so far)."""
    alike = _alike(board, dealt, swaps)
    used = set(board) | set(dealt)
    out: dict[int, list[tuple[int, int]]] = {}
    for c in range(52):
        if c in used:
            continue
        r, s = c >> 2, c & 3
        rep = min((u for u in range(s) if (u, s) in alike), default=s)
        if rep == s:
            out.setdefault(c, [])
        else:
            out.setdefault(4 * r + rep, []).append((rep, s))
    return out


def canonical_deal(board, dealt, swaps) -> tuple[tuple[int, ...], np.ndarray]:
    """The deal an isomorphic tree holds for the cards ``dealt`` after ``board`` (each card in
    turn replaced by its class's representative, the swaps composed), and the card map taking
    this deal's frame to that one (``cards[c]``, 52 entries): a hand h here plays as the hand of
    mapped cards there."""
    cards = np.arange(52, dtype=np.int64)
    out: list[int] = []
    for x in dealt:
        y = int(cards[x])
        alike = _alike(board, out, swaps)
        r, s = y >> 2, y & 3
        rep = min((u for u in range(s) if (u, s) in alike), default=s)
        if rep != s:  # swap suits rep and s from here on
            suit = cards & 3
            cards = np.where(suit == s, cards - s + rep, np.where(suit == rep, cards - rep + s, cards))
            y = 4 * r + rep
        out.append(y)
    return tuple(out), cards


def holdem_public_tree(game, progress=None, isomorphism: bool = False) -> PublicTree:
    """``progress(public nodes so far)``: see :func:`~zerosum.public_tree.build.expand`.

    ``isomorphism``: a deal lists only one card of each class of suit-isomorphic cards (same rank,
    suits that the board so far cannot tell apart and whose swap maps both ranges onto
    themselves); the others are the representative's *mirrors*: their subtrees are the
    representative's with those two suits swapped, so their values are its values read through the
    hand permutation (``extra["iso"]``, summed in by the depth-first pass at the chance node).  The
    same game, solved exactly (values and NashConv as without, up to rounding), with fewer nodes:
    TexasSolver's flop QsJh2h keeps 36 of 49 turn cards, and 1,429 of its 2,352 river deals."""
    from ..poker.holdem import HoldemHistory

    t0 = time.perf_counter()
    order, window = hand_windows(game)
    swaps = suit_swaps(game, order) if isomorphism else {}
    swap_ids = {k: i for i, k in enumerate(sorted(swaps))}
    mirrors_of: dict[int, list[int]] = {}  # board id of a representative deal -> its mirrors' swap ids
    sk = Skeleton(game, HoldemHistory((0, 0), (), ("",)),
                  lambda h: HoldemHistory(h.hands, h.dealt + (min(set(range(52)) - set(game.board) - set(h.dealt)),),
                                          h.rounds + ("",)))
    boards: dict[tuple, int] = {(): 0}
    dealt_of = [()]
    children_of: dict[int, np.ndarray] = {}  # board id -> board ids of the cards a chance node there deals

    def deal(at):
        out = []
        for b in at.tolist():
            found = children_of.get(b)
            if found is None:
                used = set(game.board) | set(dealt_of[b])
                reps = _mirrors(tuple(game.board), dealt_of[b], swaps) if swaps else {c: [] for c in range(52)}
                ids = []
                for c in range(52):
                    if c not in used and c in reps:
                        dealt = dealt_of[b] + (c,)
                        if dealt not in boards:
                            boards[dealt] = len(boards)
                            dealt_of.append(dealt)
                            if reps[c]:
                                mirrors_of[boards[dealt]] = [swap_ids[m] for m in reps[c]]
                        ids.append(boards[dealt])
                found = children_of[b] = np.array(ids, dtype=np.int64)
            out.append(found)
        return out

    kind, player, parent, board, stake, skel = expand(sk, deal, progress)
    prefix = [game.public_label(d, ()) for d in dealt_of]  # ":<cards dealt>:"; the betting follows
    labels = NodeLabels((prefix, board), (sk.suffix, skel))  # (made when asked: form.NodeLabels)
    terminals = sweep_terminals(game, boards, order, window)
    est = game.estimated_sizes()
    extra = {}
    if mirrors_of:  # per node below a deal: its mirrors (each reads the hand permutation of its swap)
        count = np.zeros(len(kind), dtype=np.int8)  # (the types the passes take: arrays._NO_ISO)
        under_deal = np.zeros(len(kind), dtype=bool)
        under_deal[1:] = kind[parent[1:]] == CHANCE_NODE
        rows = []
        for n in np.flatnonzero(under_deal).tolist():
            m = mirrors_of.get(int(board[n]))
            if m:
                count[n] = len(m)
                rows.extend(m)
        first = (np.cumsum(count, dtype=np.int64) - count).astype(np.int32)
        table = np.stack([swaps[k] for k in sorted(swaps)]).astype(np.int16)  # (hand indices: arrays._NO_ISO)
        extra["iso"] = (first, count, table, np.array(rows, dtype=np.int8))  # (a row per swap, a swap per mirror)
        extra.update(swaps=swaps, game=game)  # (what PublicPolicy.on_full_tree reads)
    mine = [order[a:a + m] for a, m in window.tolist()]  # each player's hands, as the game's indices
    board = labels.parts[0][1]  # (int32: the tree's board ids are the labels' own array, one copy)
    nodes = Nodes(kind, player, parent, board, stake, labels, NodeLabels((sk.actions, labels.parts[1][1])))
    players = Hands(tuple(tuple(game.hand_labels[i] for i in m.tolist()) for m in mine),
                    tuple(np.asarray(r)[m] for r, m in zip(game.ranges, mine)))
    return assemble(game.id, nodes, players, terminals,
                    histories=est["histories"], pot=game.pot, compile_s=time.perf_counter() - t0,
                    boards=tuple(cards_str(game.board + d) for d in boards),
                    hands=tuple(np.asarray(game.hands)[m] for m in mine), **extra)


def sweep_terminals(game, boards: dict, order=None, window=None) -> SweepTerminals:
    """The sweep evaluator's data on the hand list ``game.hands[order]`` (the game's own where
    ``order`` is None), each player's list its ``window`` of it (:func:`hand_windows`)."""
    listed = np.arange(len(game.hands)) if order is None else np.asarray(order, dtype=np.int64)
    cards = np.ascontiguousarray(np.asarray(game.hand_cards, dtype=np.int64)[listed])
    z = game._deal_weight
    left = 52 - len(game.board) - 4
    full = [d for d in boards if len(game.board) + len(d) == 5]
    strengths = {}
    if full:
        arr = np.array([game.board + d for d in full], dtype=np.int64)
        table = board_strengths(arr, cards)
        strengths = {d: table[k] for k, d in enumerate(full)}
    orders, starts, values, const = [], [0], [], np.empty(len(boards))
    for dealt, b in sorted(boards.items(), key=lambda kv: kv[1]):
        live = np.ones(len(cards), dtype=bool)
        for c in dealt:
            live &= (cards[:, 0] != c) & (cards[:, 1] != c)
        idx = np.flatnonzero(live)
        s = strengths.get(dealt)
        s = np.zeros(len(idx), dtype=np.int64) if s is None else s[idx].astype(np.int64)
        order = np.argsort(s, kind="stable")
        orders.append(idx[order])
        values.append(s[order])
        starts.append(starts[-1] + len(idx))
        ways = 1.0
        for t in range(len(dealt)):
            ways *= left - t
        const[b] = 1.0 / (z * ways)
    # order and strength int32 (hand indices, strengths below 7,463): half int64's memory
    return SweepTerminals(cards=cards, const=const, order=np.concatenate(orders).astype(np.int32),
                          start=np.array(starts, dtype=np.int64), strength=np.concatenate(values).astype(np.int32),
                          players=np.stack([np.asarray(r)[listed] > 0 for r in game.ranges]), window=window,
                          rake=getattr(game, "rake", None))

