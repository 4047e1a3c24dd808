"""Compile a poker-family member (:mod:`zerosum.poker.family`) to the public-tree form.

The public structure (who acts, legal actions, stakes) is read from the game's own rules on a
placeholder deal, so it cannot drift from the history tree; the hands are the ranks; the deal
probabilities (copies of each rank) and the showdown result go into dense terminal matrices
(one board per public card, plus "no public card yet" for first-round folds).
"""

from __future__ import annotations

import time

import numpy as np

from ..errors import ZerosumError
from ..poker.family import PokerGame, PokerHistory
from .form import CHANCE_NODE, DECISION, FOLD, SHOWDOWN, Hands, Nodes, PublicTree, assemble
from .terminals import DenseTerminals, RankTerminals


def _deal_weights(game: PokerGame) -> np.ndarray:
    """[boards, r, r]: probability of (my rank, your rank[, public rank]) as the rules deal it."""
    r, k = game.ranks, game.copies
    n = r * k
    eye = np.eye(r)
    first = np.full(r, k / n)
    pair = first[:, None] * (k - eye) / (n - 1)  # P(i) P(j | i)
    if game.rounds == 1:
        return pair[None]
    boards = [pair]
    for b in range(r):
        left = k - eye[:, b][:, None] - eye[:, b][None, :]  # copies of b left after i and j
        boards.append(pair * (np.maximum(left, 0) / (n - 2)))
    return np.stack(boards)


def _signs(game: PokerGame) -> np.ndarray:
    """[boards, r, r]: +1 / 0 / -1 for player 0 at a showdown, from the game's own payoff."""
    r = game.ranks
    labels = game.labels
    boards = 1 if game.rounds == 1 else r + 1
    out = np.zeros((boards, r, r))
    betting = ("rc",) if game.rounds == 1 else ("cc", "rc")
    for b in range(boards):
        if game.rounds == 2 and b == 0:
            continue  # no showdown before the public card
        public = "" if game.rounds == 1 else labels[b - 1]
        for i in range(r):
            for j in range(r):
                h = PokerHistory(labels[i] + labels[j] + public, betting)
                put = game.contributions(h)[1]
                out[b, i, j] = np.sign(game.payoff(h) / put)
    return out


def dense_terminals(game: PokerGame) -> DenseTerminals:
    weight = _deal_weights(game)
    return DenseTerminals(weight=weight, signed=weight * _signs(game))


def rank_terminals(game: PokerGame) -> RankTerminals:
    """The O(ranks) evaluator; checked against the game's own showdown signs before use."""
    r, k = game.ranks, game.copies
    n = r * k
    signs = _signs(game)
    possible = _deal_weights(game) > 0
    boards = signs.shape[0]
    board_rank = np.array([-1] + list(range(r)) if game.rounds == 2 else [-1], dtype=np.int64)
    const = np.array([k / (n * (n - 1)) if b < 0 else k / (n * (n - 1) * (n - 2)) for b in board_rank])
    order = np.empty((boards, r), dtype=np.int64)
    for b in range(boards):
        strength = np.arange(r, dtype=np.int64)
        if board_rank[b] >= 0:
            strength[board_rank[b]] = r
        order[b] = np.argsort(strength, kind="stable")
        # equal ranks split, including two hands that both pair the public card (copies >= 3)
        expect = np.sign(strength[:, None] - strength[None, :]).astype(float)
        if (game.rounds == 1 or b > 0) and not np.array_equal(expect[possible[b]], signs[b][possible[b]]):
            raise AssertionError("the showdown is not a strength order")
    return RankTerminals(copies=k, const=const, board_rank=board_rank, order=order)


class Skeleton:
    """The betting lines of a game whose public state is (cards dealt, betting so far) and whose
    rules below a deal do not depend on which cards came: one node per betting line, read from the
    game's own rules (``player``, ``actions``, ``child``, ``contributions``) on placeholder cards.
    A chance node has one child here (the line after any card); :func:`expand` deals the cards."""

    def __init__(self, game, root, chance_child):
        from ..core.game import CHANCE, TERMINAL

        self.kind, self.player, self.stake, self.suffix, self.actions, self.children = [], [], [], [], [], []
        stack = [(root, -1, 0)]
        while stack:
            h, parent, slot = stack.pop()
            s = len(self.kind)
            if parent >= 0:
                self.children[parent][slot] = s
            who = game.player(h)
            actions, below = (), []
            if who == TERMINAL:
                betting = h.rounds[-1]
                put = game.contributions(h)
                if betting.endswith("f"):  # a game with labels longer than a letter says who folded
                    kind = FOLD
                    who = game.folder(h) if hasattr(game, "folder") else (len(betting) - 1) % 2
                    stake = put[who]
                else:
                    if put[0] != put[1]:
                        raise AssertionError("showdown with unequal contributions")
                    kind, who, stake = SHOWDOWN, -1, put[0]
            elif who == CHANCE:
                kind, who, stake = CHANCE_NODE, -1, 0.0
                below = [chance_child(h)]
            else:
                kind, stake = DECISION, 0.0
                actions = tuple(game.actions(h))
                below = [game.child(h, a) for a in actions]
            self.kind.append(kind)
            self.player.append(who)
            self.stake.append(float(stake))
            self.suffix.append("/".join(h.rounds))
            self.actions.append(actions)
            self.children.append([-1] * len(below))
            stack.extend((c, s, k) for k, c in enumerate(below))


#: seconds between two progress reports while expanding a public tree
_PROGRESS_EVERY_S = 0.25


def expand(sk: Skeleton, deal, progress=None):
    """The public tree breadth-first (the order :class:`TreeBuilder` gives: parents first, siblings
    consecutive), a whole depth at a time in NumPy.  ``deal(boards)`` gives, for the chance nodes of
    one depth on those board ids (in node order), one array each of the board ids of their children
    (a builder that numbers boards on first sight sees them in breadth-first order).  Returns the
    arrays (kind, player, parent, board, stake) and the skeleton node of each public node;
    ``progress(nodes so far)`` is called about four times a second."""
    kind_of = np.array(sk.kind, dtype=np.int64)
    fan = np.array([len(c) for c in sk.children], dtype=np.int64)
    cstart = np.concatenate([[0], np.cumsum(fan)]).astype(np.int64)
    centry = np.array([c for cs in sk.children for c in cs], dtype=np.int64)
    level_skel, level_board = np.zeros(1, dtype=np.int64), np.zeros(1, dtype=np.int64)
    skel, board, parent = [level_skel], [level_board], [np.full(1, -1, dtype=np.int64)]
    done, next_look = 1, time.monotonic() + _PROGRESS_EVERY_S
    while len(level_skel):
        kinds = kind_of[level_skel]
        count = np.where(kinds == DECISION, fan[level_skel], 0)
        chance = np.flatnonzero(kinds == CHANCE_NODE)
        dealt = deal(level_board[chance]) if len(chance) else []
        count[chance] = [len(d) for d in dealt]
        total = int(count.sum())
        start = np.cumsum(count) - count
        child_skel = np.empty(total, dtype=np.int64)
        child_board = np.empty(total, dtype=np.int64)
        owner = np.repeat(np.arange(len(level_skel)), count)
        within = np.arange(total) - start[owner]
        dec = kinds[owner] == DECISION
        child_skel[dec] = centry[cstart[level_skel[owner[dec]]] + within[dec]]
        child_board[dec] = level_board[owner[dec]]
        if len(chance):
            child_skel[~dec] = centry[cstart[level_skel[owner[~dec]]]]
            child_board[~dec] = np.concatenate(dealt)
        parent.append(done - len(level_skel) + owner)
        skel.append(child_skel)
        board.append(child_board)
        level_skel, level_board = child_skel, child_board
        done += total
        if progress is not None and time.monotonic() >= next_look:
            next_look = time.monotonic() + _PROGRESS_EVERY_S
            progress(done)
    skel = np.concatenate(skel)
    kind = kind_of[skel]
    player = np.array(sk.player, dtype=np.int64)[skel]
    stake = np.array(sk.stake, dtype=np.float64)[skel]
    if progress is not None:
        progress(done)
    return kind, player, np.concatenate(parent), np.concatenate(board), stake, skel


def poker_public_tree(game: PokerGame, rank_form: bool = True, progress=None) -> PublicTree:
    """The public tree of one poker-family member (Kuhn and Leduc included); ``rank_form=False``
    uses the dense [ranks x ranks] terminal matrices instead of the O(ranks) evaluator;
    ``progress(public nodes so far)`` as in :func:`expand`."""
    if not isinstance(game, PokerGame):
        raise ZerosumError(f"{game.id} has no public-tree form here")
    t0 = time.perf_counter()
    labels = game.labels
    placeholder = labels[0] + labels[-1]
    sk = Skeleton(game, PokerHistory(placeholder, ("",)),
                  lambda h: PokerHistory(placeholder + labels[0], h.rounds + ("",)))
    public_cards = np.arange(1, game.ranks + 1, dtype=np.int64)  # board b + 1: public card of rank b
    kind, player, parent, board, stake, skel = expand(sk, lambda boards: [public_cards] * len(boards), progress)
    prefix = [":"] + [c + ":" for c in labels]
    suffix, actions = sk.suffix, sk.actions
    node_labels = [prefix[b] + suffix[s] for b, s in zip(board.tolist(), skel.tolist())]
    terminals = rank_terminals(game) if rank_form else dense_terminals(game)
    ones = np.ones(game.ranks)
    nodes = Nodes(kind, player, parent, board, stake, node_labels, [actions[s] for s in skel.tolist()])
    return assemble(game.id, nodes, Hands((labels, labels), (ones, ones)), terminals,
                    histories=game.estimated_sizes()["histories"], pot=2 * game.ante, compile_s=time.perf_counter() - t0)
