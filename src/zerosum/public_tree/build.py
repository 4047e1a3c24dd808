"""Compile a poker-family member (:mod:`zerosum.games.poker`) to the public-tree form.

The public structure (who acts, legal actions, stakes) is read from the game's own rules on a
placeholder deal, so it cannot drift from the history tree; the hands are the ranks; the deal
probabilities (copies of each rank) and the showdown result go into dense terminal matrices
(one board per public card, plus "no public card yet" for first-round folds).
"""

from __future__ import annotations

import time

import numpy as np

from ..errors import ZerosumError
from ..games.poker import PokerGame, PokerHistory
from .form import CHANCE_NODE, DECISION, FOLD, SHOWDOWN, PublicTree, TreeBuilder
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


def poker_public_tree(game: PokerGame, rank_form: bool = True) -> PublicTree:
    """The public tree of one poker-family member (Kuhn and Leduc included); ``rank_form=False``
    uses the dense [ranks x ranks] terminal matrices instead of the O(ranks) evaluator."""
    if not isinstance(game, PokerGame):
        raise ZerosumError(f"{game.id} has no public-tree form here")
    t0 = time.perf_counter()
    labels = game.labels
    placeholder = labels[0] + labels[-1]
    tb = TreeBuilder()
    # queue entries: (history with placeholder cards, parent id, board id, board label)
    queue = [(PokerHistory(placeholder, ("",)), -1, 0, "")]
    head = 0
    from ..games.base import CHANCE, TERMINAL

    while head < len(queue):
        h, parent, board, board_label = queue[head]
        head += 1
        label = board_label + ":" + "/".join(h.rounds)
        who = game.player(h)
        if who == TERMINAL:
            betting = h.rounds[-1]
            put = game.contributions(h)
            if betting.endswith("f"):
                folder = (len(betting) - 1) % 2
                tb.add(FOLD, folder, parent, board, put[folder], label)
            else:
                if put[0] != put[1]:
                    raise AssertionError("showdown with unequal contributions")
                tb.add(SHOWDOWN, -1, parent, board, put[0], label)
        elif who == CHANCE:
            node = tb.add(CHANCE_NODE, -1, parent, board, 0.0, label)
            for b in range(game.ranks):
                child = PokerHistory(placeholder + labels[b], h.rounds + ("",))
                queue.append((child, node, b + 1, labels[b]))
        else:
            actions = tuple(game.actions(h))
            node = tb.add(DECISION, who, parent, board, 0.0, label, actions)
            for a in actions:
                queue.append((game.child(h, a), node, board, board_label))
    terminals = rank_terminals(game) if rank_form else dense_terminals(game)
    ones = np.ones(game.ranks)
    return tb.finish(game.id, (labels, labels), (ones, ones), terminals,
                     histories=game.estimated_sizes()["histories"], pot=2 * game.ante,
                     compile_s=time.perf_counter() - t0)
