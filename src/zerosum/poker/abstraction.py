"""Card abstraction of the poker family: private hands bucketed by expected hand strength.

A member of :mod:`.family` (Leduc, or a larger one such as ``poker(ranks=13)``) is abstracted by
replacing, in every information-set label, what the acting player *sees of the cards* (its private
card, and after the flop the public card too) by a bucket number, per round:

* preflop: the private card's E[HS], its equity (win + half the ties) against a uniform opponent card
  and, in a two-round member, a uniform public card, both drawn from what is left of the deck;
* after the flop: the (private, public) pair's hand strength against a uniform opponent card from
  the deck less those two.

Hands are sorted by strength (ties broken by rank, so the order is fixed) and cut into ``k`` groups
of (almost) equal size; with ``k`` at least the number of distinct hands each hand is its own bucket
and the abstract game is the real one relabelled.  Equal counts rather than equal strength intervals:
the intervals leave buckets empty when strengths cluster (Leduc's preflop equities of the low cards).

:class:`AbstractPokerGame` is a :class:`~zerosum.core.game.Game` with the same histories, actions,
chance and payoffs as the real member; only :meth:`~AbstractPokerGame.infoset` differs, and it is a
function of the real label (so two histories of one real information set always share an abstract
one: the bucketing depends only on what the player sees).  Every history-tree solver runs on it
unchanged; :func:`lift` turns its policy into a policy of the real game (each real information set
plays its bucket's strategy), on which zerosum's exact NashConv applies.
"""

from __future__ import annotations

from ..core.game import Game
from ..errors import ZerosumError
from .family import PokerGame


def _counts(labels: str, copies: int, dealt: str) -> dict[str, int]:
    return {c: copies - dealt.count(c) for c in labels if copies - dealt.count(c) > 0}


def _showdown(mine: str, yours: str, public: str | None, rank: dict) -> float:
    """1 win, 0.5 tie, 0 loss at the family's showdown (pair with the public card, else higher card)."""
    if mine == yours:
        return 0.5
    if public is not None:
        if mine == public:
            return 1.0
        if yours == public:
            return 0.0
    return 1.0 if rank[mine] > rank[yours] else 0.0


def card_rules(game) -> tuple[str, int, int]:
    """(rank labels lowest first, copies, rounds) of a poker-family game: a :class:`PokerGame`, or
    :class:`zerosum.games.leduc.LeducPoker` (its textbook form, not importable from here: known by name)."""
    if isinstance(game, PokerGame):
        return game.labels, game.copies, game.rounds
    if getattr(game, "name", None) == "leduc":
        return "JQK", 2, 2
    raise ZerosumError(f"card abstraction is for the poker family (poker, leduc), not {game.id}; "
                       f"e.g. zerosum solve leduc --option abstraction=3")


def hand_strengths(game) -> list[dict[str, float]]:
    """Per round, E[HS] of every hand the acting player can see: ``{card: equity}`` preflop,
    ``{card + public: strength}`` after the flop (two-round members), exact over the deck."""
    labels, k, rounds = card_rules(game)
    rank = {c: i for i, c in enumerate(labels)}
    pre = {}
    for c in labels:
        total = weight = 0.0
        for o, no in _counts(labels, k, c).items():
            if rounds == 1:
                total += no * _showdown(c, o, None, rank)
                weight += no
                continue
            for b, nb in _counts(labels, k, c + o).items():
                total += no * nb * _showdown(c, o, b, rank)
                weight += no * nb
        pre[c] = total / weight
    out = [pre]
    if rounds == 2:
        flop = {}
        for c in labels:
            for b in _counts(labels, k, c):
                left = _counts(labels, k, c + b)
                flop[c + b] = sum(n * _showdown(c, o, b, rank) for o, n in left.items()) / sum(left.values())
        out.append(flop)
    return out


def bucketing(game, buckets) -> list[dict[str, int]]:
    """Per round, hand -> bucket (0 weakest), ``buckets[r]`` groups of nearly equal size in order of
    strength (hand label as tie-break)."""
    out = []
    for strengths, k in zip(hand_strengths(game), buckets):
        order = sorted(strengths, key=lambda h: (strengths[h], h))
        n = len(order)
        out.append({h: (i if k >= n else i * k // n) for i, h in enumerate(order)})
    return out


def _buckets_per_round(game, buckets) -> tuple[int, ...]:
    rounds = card_rules(game)[2]
    values = list(buckets) if isinstance(buckets, (list, tuple)) else [buckets] * rounds
    if len(values) != rounds or any(isinstance(v, bool) or not isinstance(v, int) or v < 1 for v in values):
        raise ZerosumError(f"abstraction: buckets must be a positive integer or one per round ({rounds}), "
                           f"got {buckets!r}; e.g. --option abstraction=3 or --option 'abstraction=[3,5]'")
    return tuple(values)


class AbstractPokerGame(Game):
    """The real member ``base`` with information sets keyed by bucket (see the module docstring)."""

    name = "poker-abstract"

    def __init__(self, base, buckets):
        card_rules(base)  # refuses a game outside the family
        self.base = base
        self.buckets = _buckets_per_round(base, buckets)
        self.maps = bucketing(base, self.buckets)

    def params(self) -> dict:
        return {"base": self.base.id, "buckets": "[" + ",".join(map(str, self.buckets)) + "]"}

    def check_history_tree(self, max_bytes: int | None = None) -> None:
        """The real game's size check (the abstract game has its histories, so its size)."""
        check = getattr(self.base, "check_history_tree", None)
        if check is not None:
            check(max_bytes)

    def root(self):
        return self.base.root()

    def player(self, h):
        return self.base.player(h)

    def actions(self, h):
        return self.base.actions(h)

    def chance_outcomes(self, h):
        return self.base.chance_outcomes(h)

    def child(self, h, action):
        return self.base.child(h, action)

    def payoff(self, h):
        return self.base.payoff(h)

    def abstract_label(self, label: str) -> str:
        """The abstract information set of a real one: ``CARDS:BETTING`` -> ``P<b>:BETTING`` preflop,
        ``P<b>F<c>:BETTING`` after the flop.  The flop label keeps the preflop bucket: without it
        two hands of different preflop buckets could share a flop bucket after the same betting,
        and the abstract game would not have perfect recall (the compiler refuses such a game)."""
        cards, betting = label.split(":", 1)
        key = f"P{self.maps[0][cards[0]]}"
        if betting.count("/"):
            key += f"F{self.maps[1][cards]}"
        return key + ":" + betting

    def infoset(self, h):
        return self.abstract_label(self.base.infoset(h))


def lift(real, abstract: AbstractPokerGame, policy):
    """The real game's policy in which each real information set plays its bucket's strategy.

    ``real``: the real game compiled (or the game); ``policy``: a TabularPolicy of ``abstract``."""
    import numpy as np

    from ..core.policy import TabularPolicy, as_compiled

    rcg = as_compiled(real)
    acg = policy.game
    probs = []
    for p, (rt, at) in enumerate(zip(rcg.treeplexes, acg.treeplexes)):
        pi = np.ones(rt.n_sequences)
        for i, label in enumerate(rt.infoset_labels):
            j = at.index[abstract.abstract_label(label)]
            f, n = int(rt.infoset_first[i]), int(rt.infoset_size[i])
            g = int(at.infoset_first[j])
            pi[f:f + n] = policy.probs[p][g:g + n]
        probs.append(pi)
    return TabularPolicy(rcg, probs)
