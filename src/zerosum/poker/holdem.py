"""Texas hold'em subgames (limit, fixed-limit, no-limit): a board of 3, 4 or 5 cards, a pot, and
the streets still to come.

Parameters: ``board`` ("Ks7d2c9h"; the streets after it are dealt by chance, one card each),
``pot`` (chips already in the middle, half from each player), ``stack`` (the effective stack:
chips each player can still put in), each player's range (``range0``, ``range1``: uniform over the
hole pairs that miss the board by default, or the usual notation ``AA,KQs,T9o+,AhKh:0.5``), and the
betting, either

* limit (today's subgames): ``bets`` (bet and raise size of each street still to play, flop / turn
  / river) and ``raises`` (cap per street, a bet counts as one); a raise that would pass the stack
  is not offered; actions ``f``, ``c``, ``r``; or
* ``betting``: sizes per street in the notation of :mod:`zerosum.poker.betting` (``"turn
  bet=60%,e,a raise=2.5x; river bet=60% raise=2.5x donk=50%"`` or the same as a dict), with
  ``add_allin``, ``force_allin`` and ``merging`` thresholds; actions ``f``, ``c``, ``b120``,
  ``r300``, ``a``.  After an all-in is called the remaining cards are dealt with no more betting.

Both are the same rules (:func:`zerosum.poker.betting.legal_actions`): limit is constant sizes in
that module's limit mode.  Rake: ``rake`` (the rate: the house takes ``min(rake * pot, rake_cap)``
of every pot won, fold or showdown, as postflop-solver does; ``rake_cap`` in chips, none by
default).  A raked game is not zero-sum: only the public tree solves it, and its NashConv is the
sum of both players' best-response gains (zero exactly at an equilibrium; docs/conventions.md).
Player 0 acts first on every street.

The chance deal of the hands is proportional to range0(i) * range1(j) over pairs that share no
card.  Two compiled forms: the public tree (:meth:`public_tree`, hands as vectors, showdowns by a
sorted sweep) for any range; the per-history tree of the generic compiler for narrow ranges only
(it grows with the number of hand pairs: the full turn subgame would have 7.6e9 histories).
"""

from __future__ import annotations

import functools
from typing import NamedTuple

import numpy as np

from ..core.game import CHANCE, TERMINAL, Game
from ..core.memory import COMPILE_BYTES_PER_HISTORY, memory_limit
from ..errors import ZerosumError

#: default bet size per street (flop, turn, river): a 2/4 limit game
DEFAULT_BETS = {3: (2.0, 4.0, 4.0), 4: (4.0, 4.0), 5: (4.0,)}
#: public-tree bytes per information-set action (regrets and average, float64) and per node and hand
PUBLIC_BYTES_PER_IA, PUBLIC_BYTES_PER_NODE_HAND = 16, 24
#: and per public node whatever the ranges: its arrays, label and action labels (measured: 206 bytes
#: of peak growth per node while building the 2.4 M-node flop subgame), with a margin
PUBLIC_BYTES_PER_NODE = 300


class HoldemHistory(NamedTuple):
    hands: tuple  # () before the deal, then (pair index of player 0, of player 1)
    dealt: tuple  # cards dealt after the starting board
    rounds: tuple  # betting of each street so far


class HoldemGame(Game):
    """One hold'em subgame; see the module docstring."""

    name = "holdem"
    #: the public-tree protocol (:mod:`zerosum.public_tree.compile`): the function that builds this
    #: game's public tree, and the build options it takes (suit isomorphism)
    public_tree_builder = "zerosum.public_tree.holdem_build:holdem_public_tree"
    public_tree_options: tuple = ("isomorphism",)

    def __init__(self, board: str, pot=10, stack=1000, bets=None, raises=None, range0: str = "",
                 range1: str = "", max_bytes: int | None = None, betting=None, add_allin=0, force_allin=0,
                 merging=0, rake=0, rake_cap=None):
        from .betting import STREET_NAMES, Betting
        from .cards import cards_str, hole_pairs, live_pairs, pair_str, parse_board
        from .ranges import parse_range

        if not str(board).strip():
            raise ZerosumError("holdem needs a board of 3, 4 or 5 cards, e.g. --param board=Ks7d2c9h")
        self.board = parse_board(board, (3, 4, 5))
        self.board_text = cards_str(self.board)
        self.streets = 6 - len(self.board)
        try:
            self.pot, self.stack = float(pot), float(stack)
        except (TypeError, ValueError):
            raise ZerosumError(f"holdem: pot and stack must be numbers, got {pot!r}, {stack!r}") from None
        if not self.pot > 0 or not self.stack >= 0:
            raise ZerosumError(f"holdem: pot must be positive and stack non-negative, got {pot}, {stack}")
        self.rake = parse_rake(rake, rake_cap)
        if betting is not None:
            if bets is not None or raises is not None:
                raise ZerosumError("holdem takes either betting= (sizes per street) or the limit bets= and raises=, "
                                   "not both: drop bets and raises")
            if not self.stack > 0:
                raise ZerosumError(f"holdem: betting= needs a positive stack, got {stack}")
            self.rules = Betting.from_spec(betting, 3 - self.streets, add_allin, force_allin, merging)
            for s, per in enumerate(self.rules.sizes):
                for size in per[0].bet + per[0].raise_ + per[1].bet + per[1].raise_ + (self.rules.donk[s] or ()):
                    if size.kind == "const" and size.value > self.stack:
                        raise ZerosumError(f"holdem: the stack ({self.stack:g}) is smaller than the {size.text} size "
                                           f"on the {STREET_NAMES[3 - self.streets + s]}: give a stack of at least "
                                           f"{size.value:g} or a smaller size")
            self.bets, self.raises = None, None
        else:
            if any(x not in (0, None, "0", "") for x in (add_allin, force_allin, merging)):
                raise ZerosumError("holdem: add_allin, force_allin and merging apply to betting= sizes; the limit "
                                   "bets=/raises= game has none: drop them")
            raises = 3 if raises is None else raises
            if bets is None:
                bets = DEFAULT_BETS[len(self.board)]
            bets = list(bets) if isinstance(bets, (list, tuple)) else [bets] * self.streets
            if len(bets) != self.streets:
                raise ZerosumError(f"holdem: bets needs one size per street still to play ({self.streets}), got {bets}")
            try:
                self.bets = tuple(float(b) for b in bets)
            except (TypeError, ValueError):
                raise ZerosumError(f"holdem: bets must be numbers, got {bets!r}") from None
            if any(not b > 0 for b in self.bets):
                raise ZerosumError(f"holdem: bet sizes must be positive, got {list(self.bets)}")
            if isinstance(raises, bool) or not isinstance(raises, int) or not 0 <= raises <= 16:
                raise ZerosumError(f"holdem: raises must be an integer from 0 to 16, got {raises!r}")
            self.raises = raises
            self.rules = Betting.fixed(self.bets, raises)
        self._legal_cache: dict = {}
        self.range_text = (str(range0), str(range1))
        weights = [parse_range(r, dead=self.board) for r in self.range_text]
        # the game lists the pairs either range holds (the history tree deals from it; the public tree
        # gives each player its own range, a window of this list: public_tree.holdem_build.hand_windows)
        live = live_pairs(self.board)
        self.hands = live[(weights[0][live] > 0) | (weights[1][live] > 0)]
        self.hand_cards = hole_pairs()[self.hands]
        self.hand_labels = tuple(pair_str(i) for i in self.hands)
        self.ranges = (weights[0][self.hands], weights[1][self.hands])
        # the deal's count and total weight; the pairs themselves (``_pairs``: 27 MB for the full
        # ranges of a turn, which only the history tree's chance node reads) are made on first use
        self._deal_count, self._deal_weight = self._deal_totals()
        if not self._deal_weight > 0:
            raise ZerosumError("holdem: the two ranges cannot be dealt together (every pair shares a card)")
        self.max_bytes = max_bytes
        est = self.estimated_sizes()
        limit = memory_limit(max_bytes)
        if est["public_bytes"] > limit:
            raise ZerosumError(
                f"{self.id} is too large even for the public tree: {est['public_nodes']:,} public nodes x "
                f"{len(self.hands):,} hands would need about {est['public_bytes'] / 1e9:.1f} GB, more than the "
                f"{limit / 1e9:.1f} GB available; use a later street, narrower ranges or fewer raises")

    def params(self) -> dict:
        def num(x):
            return int(x) if float(x).is_integer() else x

        out = {"board": self.board_text, "pot": num(self.pot), "stack": num(self.stack)}
        if self.rules.limit:
            out.update(bets="[" + ",".join(str(num(b)) for b in self.bets) + "]", raises=self.raises)
        else:
            out["betting"] = "[" + self.rules.text(3 - self.streets) + "]"  # brackets: the id's commas stay in it
            for key in ("add_allin", "force_allin", "merging"):
                if getattr(self.rules, key):
                    out[key] = num(getattr(self.rules, key))
        for p in (0, 1):
            if self.range_text[p].strip().lower() not in ("", "random", "all"):
                out[f"range{p}"] = self.range_text[p]
        if self.rake is not None:
            out["rake"] = num(self.rake[0])
            if self.rake[1] != float("inf"):
                out["rake_cap"] = num(self.rake[1])
        return out

    def _deal_matrix(self) -> np.ndarray:
        """[n, n] weight of each ordered hand pair (0 where the two share a card)."""
        c = np.asarray(self.hand_cards, dtype=np.int64)
        if len(c) > 4000:  # never: at most 1,176 hands
            raise AssertionError
        mask = (np.int64(1) << c[:, 0]) | (np.int64(1) << c[:, 1])  # each hand's two cards as bits
        share = (mask[:, None] & mask[None, :]) != 0  # (one AND a pair, where four comparisons were 19 ms)
        return self.ranges[0][:, None] * self.ranges[1][None, :] * ~share

    def _deal_totals(self) -> tuple[int, float]:
        w = self._deal_matrix()
        nonzero = w[w != 0]  # (summed as the pairs' weights are: the same float to the last bit)
        return len(nonzero), float(nonzero.sum())

    @functools.cached_property
    def _pairs(self):
        """(i, j, weight) over the ordered hand pairs that share no card."""
        w = self._deal_matrix()
        i, j = np.nonzero(w)
        return i, j, w[i, j]

    # --- sizes, counted without building anything ----------------------------------------------
    def _betting_counts(self):
        """Per street (0: the first still to play): the betting lines that end there (decision,
        fold, chance or showdown nodes of the betting skeleton) and the actions of each player's
        decisions there ([street][player])."""
        nodes, actions = [0] * self.streets, [[0, 0] for _ in range(self.streets)]
        stack = [("",)]
        while stack:
            rounds = stack.pop()
            s = len(rounds) - 1
            nodes[s] += 1
            who = self._line_player(rounds)
            if who == CHANCE:
                stack.append(rounds + ("",))
            elif who != TERMINAL:
                legal = self._legal(rounds)
                actions[s][who] += len(legal)
                stack.extend(rounds[:-1] + (rounds[-1] + a,) for a, _ in legal)
        return nodes, actions

    def estimated_sizes(self) -> dict:
        """Exact counts of histories and public nodes (the betting skeleton's lines times the cards
        dealt above them), exact information-set actions of the public tree (every hand of the
        acting player's range at each of its decision nodes: each player's list is its range), and
        the bytes of both forms."""
        nodes, acts = self._betting_counts()
        deals = self._deal_count
        left_hist = 52 - len(self.board) - 4
        left_pub = 52 - len(self.board)
        histories, public, ia_nodes = 0, 0, [0, 0]
        mult_h = mult_p = 1
        for s in range(self.streets):
            histories += nodes[s] * mult_h
            public += nodes[s] * mult_p
            for q in (0, 1):
                ia_nodes[q] += acts[s][q] * mult_p
            mult_h *= left_hist - s
            mult_p *= left_pub - s
        n = len(self.hands)  # (the terminals' shared list: both ranges)
        ia = sum(ia_nodes[q] * int(np.count_nonzero(np.asarray(self.ranges[q]) > 0)) for q in (0, 1))
        return {"histories": 1 + deals * histories, "public_nodes": public, "infoset_actions": ia,
                "compile_bytes": (1 + deals * histories) * COMPILE_BYTES_PER_HISTORY,
                "public_bytes": ia * PUBLIC_BYTES_PER_IA
                + public * (PUBLIC_BYTES_PER_NODE + n * PUBLIC_BYTES_PER_NODE_HAND)}

    # --- the rules (per history: for the generic compiler, narrow ranges only) -----------------
    def _legal(self, rounds) -> list:
        """(label, amount) of each action after the betting ``rounds`` (cached: the rules are
        replayed from the labels)."""
        found = self._legal_cache.get(rounds)
        if found is None:
            from .betting import legal_actions

            found = self._legal_cache[rounds] = legal_actions(self.rules, self.pot, self.stack, rounds,
                                                              self.streets - len(rounds) + 1)
        return found

    def contributions(self, h) -> list[float]:
        from .betting import replay

        return list(replay(self.rules, self.pot, self.stack, h.rounds).put)

    def _actions_of(self, rounds) -> tuple[str, ...]:
        return tuple(a for a, _ in self._legal(rounds))

    def _line_player(self, rounds):
        """Who acts after the betting ``rounds`` (cards aside)."""
        from .betting import replay, tokens

        acts = tokens(rounds[-1])
        if acts and acts[-1] == "f":
            return TERMINAL
        street_over = len(acts) >= 2 and acts[-1] == "c"
        if not acts and len(rounds) > 1 and replay(self.rules, self.pot, self.stack, rounds).allin:
            street_over = True  # an all-in was called: the cards come with no more betting
        if street_over:
            return CHANCE if len(rounds) < self.streets else TERMINAL
        return len(acts) % 2

    def folder(self, h) -> int:
        """The player who folded, at a fold."""
        from .betting import tokens

        return (len(tokens(h.rounds[-1])) - 1) % 2

    def root(self):
        return HoldemHistory((), (), ("",))

    def player(self, h):
        if not h.hands:
            return CHANCE
        return self._line_player(h.rounds)

    def actions(self, h):
        return self._actions_of(h.rounds)

    def chance_outcomes(self, h):
        from .cards import card_str

        if not h.hands:
            i, j, w = self._pairs
            total = w.sum()
            return [(f"{a}:{b}", float(x / total)) for a, b, x in zip(i.tolist(), j.tolist(), w)]
        used = set(self.board) | set(h.dealt) | set(self.hand_cards[h.hands[0]]) | set(self.hand_cards[h.hands[1]])
        left = [c for c in range(52) if c not in used]
        return [(card_str(c), 1.0 / len(left)) for c in left]

    def child(self, h, action):
        from .cards import parse_card

        if not h.hands:
            a, b = action.split(":")
            return HoldemHistory((int(a), int(b)), (), h.rounds)
        if self.player(h) == CHANCE:
            return HoldemHistory(h.hands, h.dealt + (parse_card(action),), h.rounds + ("",))
        return HoldemHistory(h.hands, h.dealt, h.rounds[:-1] + (h.rounds[-1] + action,))

    def payoff(self, h):
        from .strength import hand_strengths

        put = self.contributions(h)
        if h.rounds[-1].endswith("f"):
            return -put[0] if self.folder(h) == 0 else put[1]
        board = np.array(self.board + h.dealt)
        s = hand_strengths(board, self.hand_cards[list(h.hands)])
        return put[1] if s[0] > s[1] else (-put[0] if s[0] < s[1] else 0.0)

    def public_label(self, dealt, rounds) -> str:
        from .cards import cards_str

        return ":" + cards_str(dealt) + ":" + "/".join(rounds)

    def infoset(self, h):
        me = self.player(h)
        return self.hand_labels[h.hands[me]] + self.public_label(h.dealt, h.rounds)

    def check_history_tree(self, max_bytes: int | None = None) -> None:
        """Refuse, before any work and with the exact count, a subgame whose history tree would not
        fit (the public tree, :func:`zerosum.public_tree.compile.public_tree`, has no such limit),
        and a raked one (general-sum: the history tree's solvers and evaluation are zero-sum's)."""
        if self.rake is not None:
            raise ZerosumError(f"{self.id}: a raked game is solved on the public tree only (it is not zero-sum, "
                               f"which the history tree's solvers assume); use --form public-tree")
        est = self.estimated_sizes()
        limit = memory_limit(self.max_bytes if max_bytes is None else max_bytes)
        if est["compile_bytes"] > limit:
            raise ZerosumError(
                f"{self.id} has {est['histories']:,} histories: about {est['compile_bytes'] / 1e9:.1f} GB as a "
                f"history tree, more than the {limit / 1e9:.1f} GB available; use --form public-tree")
        # Time, not only memory: a full river subgame (22,473,991 histories) fits in 11 GB but took
        # 8 min 40 s to compile and solve through the Python API, where its public tree builds in
        # about a second; the compiler walks ~18,000 hold'em histories/s here (49,141 in 2.8 s).
        if est["histories"] > HISTORY_TREE_MAX_HISTORIES:
            minutes = est["histories"] / HISTORY_RATE / 60
            raise ZerosumError(
                f"{self.id} has {est['histories']:,} histories: about {minutes:,.0f} min to compile as a history "
                f"tree (~{HISTORY_RATE:,} histories/s), past the {HISTORY_TREE_MAX_HISTORIES:,}-history limit; "
                f"use --form public-tree (about a second; in Python: "
                f"zerosum.public_tree.solver.public_solver(\"cfr+\", game))")


def parse_rake(rake, rake_cap=None) -> tuple[float, float] | None:
    """(rate, cap) of ``rake`` (the rate, or a spot file's ``{"rate": R, "cap": C}``) and
    ``rake_cap`` (chips; None or absent: no cap), None for no rake; a one-line error for anything
    else.  A cap of 0 with a positive rate is refused: postflop-solver reads it as no rake at all,
    a user as no cap."""
    if isinstance(rake, dict):
        unknown = set(rake) - {"rate", "cap"}
        if unknown:
            raise ZerosumError(f"holdem: rake takes rate and cap, got {sorted(unknown)}")
        if rake_cap is not None and rake.get("cap") is not None:
            raise ZerosumError("holdem: give the rake's cap once, in rake {\"cap\": C} or as rake_cap")
        rake, rake_cap = rake.get("rate", 0), rake.get("cap", rake_cap)
    try:
        rate = float(rake or 0)
        cap = float("inf") if rake_cap in (None, "", "none", "inf") else float(rake_cap)
    except (TypeError, ValueError):
        raise ZerosumError(f"holdem: rake must be a rate (0.05 for 5 %) or {{\"rate\": R, \"cap\": C}}, "
                           f"and rake_cap a number of chips; got {rake!r}, {rake_cap!r}") from None
    if not 0 <= rate < 1:
        raise ZerosumError(f"holdem: the rake is a rate from 0 to 1 (0.05 for 5 % of the pot), got {rate:g}")
    if rate == 0:
        return None
    if not cap > 0:
        raise ZerosumError(f"holdem: a rake cap of {cap:g} takes no rake at all; leave the cap out for no cap, or "
                           f"give the most the house takes from a pot, in chips")
    return rate, cap


#: the history tree of a hold'em subgame is refused past this many histories (about 2 minutes of
#: compiling at HISTORY_RATE); the public tree has no such limit
HISTORY_TREE_MAX_HISTORIES = 2_000_000
#: hold'em histories compiled per second, measured here (49,141 in 2.8 s on a loaded 2-core machine)
HISTORY_RATE = 18_000


def holdem(**params) -> HoldemGame:
    return HoldemGame(**params)

