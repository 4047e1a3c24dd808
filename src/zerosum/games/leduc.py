"""Leduc hold'em (Southey et al. 2005) with cards as ranks, exactly as Lab 15 defines it.

Deck J J Q Q K K; ante 1; a betting round; one public card; a second round.  Player 0 acts
first in each round; bets and raises are 2 then 4; at most two raises (a bet and a raise) per
round.  A card pairing the public card wins, otherwise the higher card; equal ranks split.
Suits never matter, so only ranks are dealt and the deck's composition enters through the
chance probabilities: 24 rank deals, 144 information sets per player.
"""

from __future__ import annotations

from typing import NamedTuple

from ..core.game import CHANCE, Game
from ..poker.family import child_history, contributions, deck_outcomes, to_act

RANKS = "JQK"


class LeducHistory(NamedTuple):
    cards: str  # private card of player 0, of player 1, then the public card
    rounds: tuple[str, ...]  # betting of each round so far: c = check/call, r = bet/raise, f = fold


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
        return to_act(h, 2)

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
        return deck_outcomes(h.cards, RANKS, self.copies)

    def child(self, h, action):
        return child_history(h, action, self.player(h) == CHANCE)

    def contributions(self, h) -> list[float]:
        """Chips each player has put in the pot so far."""
        return contributions(h.rounds, self.ante, self.bet_sizes)

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
