"""Kuhn poker (Kuhn 1950): three cards J, Q, K; ante 1; one bet of 1; value -1/18 to player 0."""

from __future__ import annotations

from ..core.game import CHANCE, TERMINAL, Game

CARDS = "JQK"


class KuhnPoker(Game):
    """Histories are strings: the two dealt cards, then the betting with ``p`` (pass) and ``b`` (bet).

    Information-set labels are the player's card followed by the betting, e.g. ``K`` or ``Qpb``.
    """

    name = "kuhn"

    def root(self):
        return ""

    def player(self, h):
        if len(h) < 2:
            return CHANCE
        bets = h[2:]
        if bets in ("pp", "bp", "bb", "pbp", "pbb"):
            return TERMINAL
        return len(bets) % 2

    def actions(self, h):
        return ("p", "b")

    def chance_outcomes(self, h):
        remaining = [c for c in CARDS if c not in h]
        return [(c, 1.0 / len(remaining)) for c in remaining]

    def child(self, h, action):
        return h + action

    def payoff(self, h):
        cards, bets = h[:2], h[2:]
        if bets == "bp":
            return 1.0
        if bets == "pbp":
            return -1.0
        stake = 1.0 if bets == "pp" else 2.0
        return stake if CARDS.index(cards[0]) > CARDS.index(cards[1]) else -stake

    def infoset(self, h):
        me = self.player(h)
        return h[me] + h[2:]
