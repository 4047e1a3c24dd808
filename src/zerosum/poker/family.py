"""A family of small poker games with Kuhn poker and Lab 15's Leduc hold'em as members.

Parameters: ``ranks`` (at most 13), ``copies`` of each rank in the deck (suits never matter, so
only ranks are dealt and the deck's composition enters through the chance probabilities), one
or two betting ``rounds`` (a public card is dealt before the second), ``raises`` allowed per
round (a bet counts as one), ``bets`` (bet and raise size of each round) and the ``ante``.

* ``poker(ranks=3, copies=1, rounds=1, raises=1, bets=[1], ante=1)`` is Kuhn poker;
* ``poker(ranks=3, copies=2, rounds=2, raises=2, bets=[2, 4], ante=1)`` is Leduc hold'em
  (the default), with the same information-set labels as :mod:`zerosum.games.leduc`.

Player 0 acts first in each round.  Actions are ``f`` (fold, only facing a bet), ``c`` (check
or call) and ``r`` (bet or raise, while raises are left).  At the showdown a card pairing the
public card wins, otherwise the higher card; equal ranks split the pot.

Larger members grow fast (about ranks**3 deals times the betting trees).  Histories and public
nodes are counted before anything is built: the constructor refuses a member whose public tree
would not fit in memory, and :meth:`PokerGame.check_history_tree` (called where the history tree is
compiled) one whose history tree would not.
"""

from __future__ import annotations

from functools import cached_property
from typing import NamedTuple

from ..core.game import CHANCE, TERMINAL, Game
from ..core.memory import COMPILE_BYTES_PER_HISTORY, memory_limit
from ..errors import ZerosumError

ALPHABET = "23456789TJQKA"
#: peak bytes per public node while building the public tree and solving on it: the node's arrays
#: and label, plus per hand its regrets and average (per action) and working vectors, with a margin
PUBLIC_BYTES_PER_NODE = 400
PUBLIC_BYTES_PER_NODE_HAND = 100


class PokerHistory(NamedTuple):
    cards: str  # private card of player 0, of player 1, then the public card
    rounds: tuple[str, ...]  # betting of each round so far


def rank_labels(ranks: int) -> str:
    """Labels of the ranks, lowest first; three ranks are J Q K as in Kuhn and Leduc."""
    return ALPHABET[12 - ranks:12] if ranks <= 12 else ALPHABET


def betting_tree(max_raises: int) -> tuple[list[str], list[str], list[str]]:
    """Decision, fold and round-ending (call after a bet, or check-check) betting strings."""
    decisions, folds, ends = [], [], []
    stack = [""]
    while stack:
        b = stack.pop()
        if b.endswith("f"):
            folds.append(b)
            continue
        if len(b) >= 2 and b.endswith("c"):
            ends.append(b)
            continue
        decisions.append(b)
        for a in _legal(b, max_raises):
            stack.append(b + a)
    return decisions, folds, ends


def to_act(h, rounds: int) -> int:
    """Who acts after history ``h``: CHANCE while cards are to be dealt (the private cards, then
    the public card once a round but the last is over), TERMINAL after a fold or the last round,
    else the player whose turn it is in the current round (player 0 first)."""
    if len(h.cards) < 2:
        return CHANCE
    betting = h.rounds[-1]
    if betting.endswith("f"):
        return TERMINAL
    if len(betting) >= 2 and betting[-1] == "c":
        return CHANCE if len(h.rounds) < rounds else TERMINAL
    return len(betting) % 2


def deck_outcomes(cards: str, labels: str, copies: int) -> list[tuple[str, float]]:
    """The next card's ranks and probabilities from a deck of ``copies`` of each rank in ``labels``,
    less the ``cards`` already dealt."""
    left = {c: copies - cards.count(c) for c in labels}
    total = sum(left.values())
    return [(c, n / total) for c, n in left.items() if n > 0]


def child_history(h, action: str, dealt: bool):
    """The history after ``action`` (a history of ``cards`` dealt and ``rounds`` of betting, e.g.
    :class:`PokerHistory`): a card dealt by chance (``dealt``; after the two private cards, the
    public card opens a new round) or an action appended to the current round's betting."""
    if dealt:
        return h._replace(cards=h.cards + action, rounds=h.rounds if len(h.cards) < 2 else h.rounds + ("",))
    return h._replace(rounds=h.rounds[:-1] + (h.rounds[-1] + action,))


def contributions(rounds, ante: float, bets) -> list[float]:
    """Chips each player has put in the pot after the betting ``rounds`` (``c`` checks or calls,
    ``r`` bets or raises by ``bets[round]``, player 0 first in each round), the ante included."""
    put = [ante, ante]
    for rnd, betting in enumerate(rounds):
        for i, a in enumerate(betting):
            me = i % 2
            if a == "c":
                put[me] = put[1 - me]
            elif a == "r":
                put[me] = put[1 - me] + bets[rnd]
    return put


def _legal(betting: str, max_raises: int) -> tuple[str, ...]:
    legal = ("f", "c") if betting.endswith("r") else ("c",)
    return legal + ("r",) if betting.count("r") < max_raises else legal


class PokerGame(Game):
    """One member of the family; see the module docstring."""

    name = "poker"
    #: the public-tree protocol (:mod:`zerosum.public_tree.compile`): the function that builds this
    #: game's public tree, and the build options it takes (none: the family has no suits)
    public_tree_builder = "zerosum.public_tree.build:poker_public_tree"
    public_tree_options: tuple = ()

    def __init__(self, ranks: int = 3, copies: int = 2, rounds: int = 2, raises=2, bets=(2, 4), ante=1,
                 max_bytes: int | None = None):
        for key, v in (("ranks", ranks), ("copies", copies), ("rounds", rounds)):
            if isinstance(v, bool) or not isinstance(v, int):
                raise ZerosumError(f"poker: {key} must be an integer, got {v!r}")
        if not 2 <= ranks <= 13:
            raise ZerosumError(f"poker: ranks must be between 2 and 13, got {ranks}")
        if rounds not in (1, 2):
            raise ZerosumError(f"poker: rounds must be 1 or 2, got {rounds}")
        if copies < 1 or ranks * copies < 2 + (rounds == 2):
            raise ZerosumError(f"poker: a deck of {ranks} ranks x {copies} copies cannot deal "
                               f"{2 + (rounds == 2)} cards")
        self.ranks, self.copies, self.rounds = ranks, copies, rounds
        self.raises = self._per_round("raises", raises, int)
        self.bets = self._per_round("bets", bets, float)
        if any(r < 0 for r in self.raises) or any(r > 64 for r in self.raises):
            raise ZerosumError(f"poker: raises per round must be between 0 and 64, got {list(self.raises)}")
        if any(b <= 0 for b in self.bets):
            raise ZerosumError(f"poker: bet sizes must be positive, got {list(self.bets)}")
        try:
            self.ante = float(ante)
        except (TypeError, ValueError):
            raise ZerosumError(f"poker: ante must be a number, got {ante!r}") from None
        if self.ante < 0:
            raise ZerosumError(f"poker: ante must be non-negative, got {ante}")
        self.labels = rank_labels(ranks)
        self.max_bytes = max_bytes
        est = self.estimated_sizes()
        limit = self._memory_limit()
        if est["public_bytes"] > limit:
            raise ZerosumError(
                f"{self.id} is too large even for the public tree: {est['public_nodes']:,} public nodes would "
                f"need about {est['public_bytes'] / 1e9:.1f} GB, more than the {limit / 1e9:.1f} GB available; "
                f"use fewer ranks, rounds or raises")

    def _memory_limit(self, max_bytes: int | None = None) -> int:
        if max_bytes is None:
            max_bytes = self.max_bytes
        return memory_limit(max_bytes)

    def check_history_tree(self, max_bytes: int | None = None) -> None:
        """Refuse, before any work and with the exact count, a member whose history tree would not
        fit; called where the history tree is compiled (the public tree has no such limit)."""
        est = self.estimated_sizes()
        limit = self._memory_limit(max_bytes)
        if est["compile_bytes"] > limit:
            raise ZerosumError(
                f"{self.id} is too large for the history tree: {est['histories']:,} histories would need about "
                f"{est['compile_bytes'] / 1e9:.1f} GB to compile, more than the {limit / 1e9:.1f} GB available; "
                f"use --form public-tree (the default for CFR-family solvers), or fewer ranks, copies, rounds "
                f"or raises")

    def _per_round(self, key, value, kind):
        values = list(value) if isinstance(value, (list, tuple)) else [value] * self.rounds
        if len(values) != self.rounds:
            raise ZerosumError(f"poker: {key} needs one value per round ({self.rounds}), got {value!r}")
        try:
            out = tuple(kind(v) for v in values)
        except (TypeError, ValueError):
            raise ZerosumError(f"poker: {key} must be numbers, got {value!r}") from None
        if kind is int and any(isinstance(v, float) and v != int(v) for v in values):
            raise ZerosumError(f"poker: {key} must be integers, got {value!r}")
        return out

    def params(self) -> dict:
        def num(x):
            return int(x) if float(x).is_integer() else x

        def seq(xs):
            return "[" + ",".join(str(num(x)) for x in xs) + "]"

        return {"ranks": self.ranks, "copies": self.copies, "rounds": self.rounds, "raises": seq(self.raises),
                "bets": seq(self.bets), "ante": num(self.ante)}

    # --- sizes, counted without building anything ----------------------------------------------
    def estimated_sizes(self) -> dict:
        """Histories and terminals, counted combinatorially, and the bytes to compile them."""
        trees = [betting_tree(r) for r in self.raises]
        r, k = self.ranks, self.copies
        pair_deals = r if k >= 2 else 0
        mixed_deals = r * (r - 1)
        histories = 1 + r
        terminals = 0
        d1, f1, e1 = (len(x) for x in trees[0])
        for deals, same in ((pair_deals, True), (mixed_deals, False)):
            if not deals:
                continue
            if self.rounds == 1:
                histories += deals * (d1 + f1 + e1)
                terminals += deals * (f1 + e1)
                continue
            publics = (r - 1 + (k > 2)) if same else (r - 2 + 2 * (k > 1))
            d2, f2, e2 = (len(x) for x in trees[1])
            histories += deals * (d1 + f1 + e1 * (1 + publics * (d2 + f2 + e2)))
            terminals += deals * (f1 + e1 * publics * (f2 + e2))
        d1, f1, e1 = (len(x) for x in trees[0])
        if self.rounds == 1:
            public_nodes = d1 + f1 + e1
        else:
            public_nodes = d1 + f1 + e1 * (1 + r * sum(len(x) for x in trees[1]))
        return {"histories": histories, "terminals": terminals,
                "compile_bytes": histories * COMPILE_BYTES_PER_HISTORY, "public_nodes": public_nodes,
                "public_bytes": public_nodes * (PUBLIC_BYTES_PER_NODE + PUBLIC_BYTES_PER_NODE_HAND * r)}

    # --- the rules -------------------------------------------------------------------------------
    def root(self):
        return PokerHistory("", ("",))

    def player(self, h):
        return to_act(h, self.rounds)

    def actions(self, h):
        return _legal(h.rounds[-1], self.raises[len(h.rounds) - 1])

    def chance_outcomes(self, h):
        return deck_outcomes(h.cards, self.labels, self.copies)

    def child(self, h, action):
        return child_history(h, action, self.player(h) == CHANCE)

    def contributions(self, h) -> list[float]:
        """Chips each player has put in the pot so far."""
        return contributions(h.rounds, self.ante, self.bets)

    @cached_property
    def _rank(self) -> dict:
        return {c: i for i, c in enumerate(self.labels)}

    def payoff(self, h):
        put = self.contributions(h)
        betting = h.rounds[-1]
        if betting.endswith("f"):
            folder = (len(betting) - 1) % 2
            return -put[0] if folder == 0 else put[1]
        mine, yours = h.cards[0], h.cards[1]
        if mine == yours:  # equal ranks split, also when both pair the public card (copies >= 3)
            return 0.0
        if self.rounds == 2:
            public = h.cards[2]
            if mine == public:
                return put[1]
            if yours == public:
                return -put[0]
        return put[1] if self._rank[mine] > self._rank[yours] else -put[0]

    def infoset(self, h):
        me = self.player(h)
        return h.cards[me] + h.cards[2:] + ":" + "/".join(h.rounds)


def poker(**params) -> PokerGame:
    """Factory for the registry (``load_game("poker", ranks=4, ...)``)."""
    return PokerGame(**params)
