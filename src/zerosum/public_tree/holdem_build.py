"""Compile a limit hold'em subgame (:mod:`zerosum.poker.holdem`) to the public tree.

Public nodes are the betting lines and the cards dealt after the starting board (one chance node
per street still to come, a child per card not on the board: the hands are not public).  Both
players share one hand list (the pairs either range holds); the terminal data is a
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
from .form import PublicTree, assemble
from .terminals import SweepTerminals


def holdem_public_tree(game, progress=None) -> PublicTree:
    """``progress(public nodes so far)``: see :func:`~zerosum.public_tree.build.expand`."""
    from ..poker.holdem import HoldemHistory

    t0 = time.perf_counter()
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
                ids = []
                for c in range(52):
                    if c not in used:
                        dealt = dealt_of[b] + (c,)
                        if dealt not in boards:
                            boards[dealt] = len(boards)
                            dealt_of.append(dealt)
                        ids.append(boards[dealt])
                found = children_of[b] = np.array(ids, dtype=np.int64)
            out.append(found)
        return out

    kind, player, parent, board, stake, skel = expand(sk, deal, progress)
    prefix = [game.public_label(d, ()) for d in dealt_of]  # ":<cards dealt>:"; the betting follows
    suffix, actions = sk.suffix, sk.actions
    labels = [prefix[b] + suffix[s] for b, s in zip(board.tolist(), skel.tolist())]
    terminals = sweep_terminals(game, boards)
    est = game.estimated_sizes()
    return assemble(game.id, kind, player, parent, board, stake, labels, [actions[s] for s in skel.tolist()],
                    (game.hand_labels, game.hand_labels), game.ranges, terminals, histories=est["histories"],
                    pot=game.pot, compile_s=time.perf_counter() - t0,
                    boards=tuple(cards_str(game.board + d) for d in boards), hands=game.hands)


def sweep_terminals(game, boards: dict) -> SweepTerminals:
    cards = np.ascontiguousarray(game.hand_cards, dtype=np.int64)
    z = float(game._pairs[2].sum())
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
    return SweepTerminals(cards=cards, const=const, order=np.concatenate(orders).astype(np.int64),
                          start=np.array(starts, dtype=np.int64), strength=np.concatenate(values))

