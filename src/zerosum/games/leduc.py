"""Leduc hold'em (Southey et al. 2005) with cards as ranks, exactly as Lab 15 defines it.

Deck J J Q Q K K; ante 1; a betting round; one public card; a second round.  Player 0 acts
first in each round; bets and raises are 2 then 4; at most two raises (a bet and a raise) per
round.  A card pairing the public card wins, otherwise the higher card; equal ranks split.
Suits never matter, so only ranks are dealt and the deck's composition enters through the
chance probabilities: 24 rank deals, 144 information sets per player.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.game import CHANCE, TERMINAL, Game

RANKS = "JQK"


class LeducHistory(NamedTuple):
    cards: str  # private card of player 0, of player 1, then the public card
    rounds: tuple[str, ...]  # betting of each round so far: c = check/call, r = bet/raise, f = fold


def _round_over(betting: str) -> bool:
    return len(betting) >= 2 and betting[-1] == "c"


class LeducPoker(Game):
    """Actions ``f`` (fold, only when facing a bet), ``c`` (check or call), ``r`` (bet or raise).

    Information-set labels: private card, public card once dealt, then the betting of each round,
    e.g. ``K:cr`` (king, first round, check then bet) or ``KQ:crc/r``.
    """

    name = "leduc"
    ante = 1.0
    bet_sizes = (2.0, 4.0)
    max_raises = 2
    copies = 2

    def root(self):
        return LeducHistory("", ("",))

    def player(self, h):
        if len(h.cards) < 2:
            return CHANCE
        betting = h.rounds[-1]
        if betting.endswith("f"):
            return TERMINAL
        if _round_over(betting):
            if len(h.rounds) == 1:
                return CHANCE
            return TERMINAL
        return len(betting) % 2

    def actions(self, h):
        betting = h.rounds[-1]
        legal = []
        if betting.endswith("r"):
            legal.append("f")
        legal.append("c")
        if betting.count("r") < self.max_raises:
            legal.append("r")
        return tuple(legal)

    def chance_outcomes(self, h):
        left = {r: self.copies - h.cards.count(r) for r in RANKS}
        total = sum(left.values())
        return [(r, n / total) for r, n in left.items() if n > 0]

    def child(self, h, action):
        if self.player(h) == CHANCE:
            rounds = h.rounds if len(h.cards) < 2 else h.rounds + ("",)
            return LeducHistory(h.cards + action, rounds)
        return LeducHistory(h.cards, h.rounds[:-1] + (h.rounds[-1] + action,))

    def contributions(self, h) -> list[float]:
        """Chips each player has put in the pot so far."""
        put = [self.ante, self.ante]
        for rnd, betting in enumerate(h.rounds):
            for i, a in enumerate(betting):
                me = i % 2
                if a == "c":
                    put[me] = put[1 - me]
                elif a == "r":
                    put[me] = put[1 - me] + self.bet_sizes[rnd]
        return put

    def payoff(self, h):
        put = self.contributions(h)
        betting = h.rounds[-1]
        if betting.endswith("f"):
            folder = (len(betting) - 1) % 2
            return -put[0] if folder == 0 else put[1]
        mine, yours, public = h.cards
        if mine == public:
            return put[1]
        if yours == public:
            return -put[0]
        if mine == yours:
            return 0.0
        return put[1] if RANKS.index(mine) > RANKS.index(yours) else -put[0]

    def infoset(self, h):
        me = self.player(h)
        return h.cards[me] + h.cards[2:] + ":" + "/".join(h.rounds)
