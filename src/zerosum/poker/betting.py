"""Betting rules of hold'em subgames: bet sizes in the notation poker solvers share, and the legal
actions (labels and chip amounts) at any state of a street.

Sizes (one token each, case-insensitive):

* ``60%`` -- a percent of the pot.  For a bet, of the pot; for a raise, the previous bet plus that
  percent of the pot after calling (postflop-solver's reading, which the spots in
  ``shared/data/poker-spots`` assume);
* ``2.5x`` -- a multiple of the previous bet: raises only (raise to 2.5 times it);
* ``4c`` -- a constant in chips (a bet of 4, a raise by 4); ``4c2r`` -- the same, a raise allowed
  only while at most 2 bets stand on the street (the bet counts as one): fixed limit with a cap of
  3 bets is bet ``4c``, raise ``4c2r``;
* ``e`` / ``2e`` -- geometric: the fraction of the pot that, bet on each of the remaining streets
  (``2e``: over 2 streets; a raise counts the bets already made on this street), puts the stack in;
* ``a`` -- all-in.

Per street a player has bet sizes, raise sizes, and (player 0 only) donk sizes: used instead of
the bet sizes when player 0 leads a street after calling the other's bet or raise on the previous
one (no donk sizes: the ordinary bet sizes).  Three thresholds, 0 by default:

* add all-in: all-in is added when it is at most ``add_allin`` times the pot (after calling), past
  the previous bet for a raise;
* force all-in: a bet becomes all-in when the stack left after the opponent's call would be at most
  ``force_allin`` times the pot then;
* merging: going down from the largest size, a size is dropped unless (as pot fractions past the
  previous bet) ``(1 + m) * size + m`` is below the last size kept.

Amounts are whole chips (computed sizes rounded half up), clamped to at least the minimum raise
(the previous bet plus the last raise's increment; 1 chip for a bet) and at most all-in.  These are
postflop-solver's rules (its ``action_tree.rs``, read, not copied), so that both build the same tree.

Action labels, short so that information-set labels stay readable (``AsKs:Qc:b120r300c/c``):
``f`` fold, ``c`` check or call, ``b120`` bet 120 chips, ``r300`` raise to 300 chips (both counted
on this street), ``a`` all-in.  The limit subgames of ``HoldemGame(bets=..., raises=...)`` are the
same rules with constant sizes in *limit* mode: their labels stay ``f``, ``c``, ``r`` (saved
policies keep their information sets), sizes are not rounded or clamped, and a bet that would pass
the stack is not offered (as before) instead of becoming all-in.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from typing import NamedTuple

from ..errors import ZerosumError

#: the streets by board size at which they are played
STREET_NAMES = ("flop", "turn", "river")
#: action kinds, in the order a node lists them (fold, check/call, bets, raises, all-in)
FOLD, CHECK, CALL, BET, RAISE, ALLIN = range(6)
_TOKEN = re.compile(r"[a-z][0-9]*")
_SIZE = re.compile(r"^(?:(?P<pct>\d+(?:\.\d+)?)%|(?P<mult>\d+(?:\.\d+)?)x|(?P<const>\d+(?:\.\d+)?)c"
                   r"(?:(?P<cap>\d+)r)?|(?P<geo>\d*)e(?P<geomax>\d+(?:\.\d+)?%)?|(?P<allin>a))$")


@dataclass(frozen=True)
class Size:
    """One bet size: ``kind`` is pot, prev, const, geo or allin; ``value`` the fraction, multiple,
    chips or (geo) the pot-fraction ceiling; ``count`` the raise cap (const, 0: none) or the
    streets (geo, 0: those remaining)."""
    kind: str
    value: float = 0.0
    count: int = 0
    text: str = ""


def parse_size(token: str, where: str = "", raise_: bool = False) -> Size:
    """One size token; a bad one is one line naming it (``where`` says which list it is in)."""
    text = str(token).strip().lower()
    m = _SIZE.match(text)
    at = f" in {where}" if where else ""
    if not m:
        raise ZerosumError(f"cannot read bet size {token!r}{at}: use e.g. 60% (of the pot), 2.5x (of the previous "
                           f"bet, raises), 4c (chips), 4c2r (chips, raise cap), e or 2e (geometric), a (all-in)")
    if m["pct"] is not None:
        return Size("pot", float(m["pct"]) / 100, 0, text)
    if m["mult"] is not None:
        if not raise_:
            raise ZerosumError(f"bet size {token!r}{at} is a multiple of the previous bet, which only a raise has: "
                               f"use a percent of the pot (e.g. 60%)")
        if not float(m["mult"]) > 1:
            raise ZerosumError(f"raise size {token!r}{at} must be more than 1x the previous bet")
        return Size("prev", float(m["mult"]), 0, text)
    if m["const"] is not None:
        if not float(m["const"]) > 0:
            raise ZerosumError(f"bet size {token!r}{at} must be positive")
        return Size("const", float(m["const"]), int(m["cap"] or 0), text)
    if m["allin"] is not None:
        return Size("allin", 0.0, 0, text)
    ceiling = float(m["geomax"][:-1]) / 100 if m["geomax"] else math.inf
    streets = int(m["geo"] or 0)
    if m["geo"] and streets == 0:
        raise ZerosumError(f"bet size {token!r}{at}: a geometric size needs at least 1 street (e, 2e, ...)")
    return Size("geo", ceiling, streets, text)


def parse_sizes(value, where: str = "", raise_: bool = False) -> tuple[Size, ...]:
    """A list of tokens or one comma-separated string (``"60%,e,a"``); empty: no sizes."""
    if value is None:
        return ()
    items = value.split(",") if isinstance(value, str) else list(value)
    return tuple(parse_size(t, where, raise_) for t in items if str(t).strip())


class PlayerSizes(NamedTuple):
    """One player's sizes on one street: bets (nobody has bet yet) and raises (facing a bet)."""
    bet: tuple
    raise_: tuple


@dataclass(frozen=True)
class Betting:
    """The betting of a subgame: per street still to play, per player, the sizes; player 0's donk
    sizes per street (None: its ordinary bet sizes); the thresholds; ``limit`` mode (see the
    module docstring)."""
    sizes: tuple  # [street][player] -> PlayerSizes
    donk: tuple  # [street] -> tuple of Size or None
    add_allin: float = 0.0
    force_allin: float = 0.0
    merging: float = 0.0
    limit: bool = False

    @classmethod
    def fixed(cls, bets, raises: int) -> Betting:
        """Today's limit subgames: a bet of ``bets[s]`` chips and raises of as much, at most
        ``raises`` bets a street (the bet counts as one), in limit mode."""
        streets = []
        for b in bets:
            bet = (Size("const", float(b), 0, f"{b}c"),) if raises >= 1 else ()
            rai = (Size("const", float(b), raises - 1, f"{b}c{raises - 1}r"),) if raises >= 2 else ()
            streets.append((PlayerSizes(bet, rai),) * 2)
        return cls(tuple(streets), (None,) * len(streets), limit=True)

    @classmethod
    def from_spec(cls, spec, first_street: int, add_allin=0.0, force_allin=0.0, merging=0.0) -> Betting:
        """From a dict ``{"turn": {"bet": [...], "raise": [...], "donk": [...]}, "river": ...}`` (sizes
        per player: ``{"oop": {...}, "ip": {...}}`` in a street), or its compact text
        ``"turn bet=60%,e,a raise=2.5x; river bet=60% raise=2.5x donk=50%"`` (``bet0=``/``raise1=``:
        one player's); ``first_street`` 0, 1, 2 for a flop, turn, river subgame."""
        names = STREET_NAMES[first_street:]
        if isinstance(spec, str):
            spec = _parse_compact(spec)
        if not isinstance(spec, dict):
            raise ZerosumError(f"betting must give sizes per street ({', '.join(names)}), e.g. "
                               f"\"{names[0]} bet=60%,a raise=2.5x\"")
        unknown = [k for k in spec if k not in names]
        if unknown:
            raise ZerosumError(f"betting names street {unknown[0]!r}: this subgame plays {', '.join(names)}")
        sizes, donk = [], []
        for name in names:
            street = spec.get(name)
            if street is None:
                raise ZerosumError(f"betting has no sizes for the {name}: add e.g. \"{name}\": "
                                   f"{{\"bet\": [\"50%\"], \"raise\": [\"2.5x\"]}}")
            if not isinstance(street, dict):
                raise ZerosumError(f"betting for the {name} must be an object with bet, raise (and donk) sizes")
            bad = [k for k in street if k not in ("bet", "raise", "donk", "oop", "ip")]
            if bad:
                raise ZerosumError(f"betting for the {name} has an unknown field {bad[0]!r}: use bet, raise, donk "
                                   f"(or oop and ip, each with bet and raise)")
            per = []
            for p, who in enumerate(("oop", "ip")):
                own = street.get(who, street)
                if not isinstance(own, dict):
                    raise ZerosumError(f"betting for the {name}, {who}: give an object with bet and raise sizes")
                at = f"{name} {who}" if who in street else name
                per.append(PlayerSizes(parse_sizes(own.get("bet"), f"{at} bet"),
                                       parse_sizes(own.get("raise"), f"{at} raise", raise_=True)))
            sizes.append(tuple(per))
            donk.append(parse_sizes(street["donk"], f"{name} donk") if street.get("donk") is not None else None)
        if donk and donk[0] == ():  # "donk": [] on the first street: no donk bets, which is all it can have
            donk[0] = None
        if donk and donk[0] is not None:
            raise ZerosumError(f"the {names[0]} starts this subgame, so nobody can donk bet on it: drop its donk sizes "
                               f"(they apply on later streets)")
        values = []
        for label, v in (("add_allin (a spot's add_allin_threshold)", add_allin),
                         ("force_allin (a spot's force_allin_threshold)", force_allin),
                         ("merging (a spot's merging_threshold)", merging)):
            try:
                v = float(v or 0)
            except (TypeError, ValueError):
                raise ZerosumError(f"{label} must be a number, got {v!r}") from None
            if not v >= 0 or math.isinf(v):
                raise ZerosumError(f"{label} must be a non-negative number, got {v}")
            values.append(v)
        return cls(tuple(sizes), tuple(donk), *values)

    def text(self, first_street: int) -> str:
        """The compact text of :meth:`from_spec` (a game's ``params``)."""
        parts = []
        for s, per in enumerate(self.sizes):
            words = [STREET_NAMES[first_street + s]]
            for key in ("bet", "raise_"):
                a, b = (tuple(x.text for x in getattr(per[p], key)) for p in (0, 1))
                k = key.rstrip("_")
                words += [f"{k}={','.join(a)}"] if a == b else [f"{k}0={','.join(a)}", f"{k}1={','.join(b)}"]
            if self.donk[s] is not None:
                words.append("donk=" + ",".join(x.text for x in self.donk[s]))
            parts.append(" ".join(words))
        return "; ".join(parts)


def _parse_compact(text: str) -> dict:
    text = text.strip()
    if text.startswith("[") and text.endswith("]"):  # as a game id writes it
        text = text[1:-1]
    out = {}
    for part in text.split(";"):
        words = part.split()
        if not words:
            continue
        name, fields = words[0].lower(), {}
        for w in words[1:]:
            key, eq, value = w.partition("=")
            key = key.lower()
            if not eq or key not in ("bet", "raise", "donk", "bet0", "bet1", "raise0", "raise1"):
                raise ZerosumError(f"cannot read {w!r} in betting {text!r}: write e.g. \"turn bet=60%,a raise=2.5x; "
                                   f"river bet=60% raise=2.5x donk=50%\"")
            if key[-1] in "01":
                fields.setdefault(("oop", "ip")[int(key[-1])], {})[key[:-1]] = value
            else:
                fields[key] = value
        if "oop" in fields or "ip" in fields:
            for who in ("oop", "ip"):
                own = fields.setdefault(who, {})
                for k in ("bet", "raise"):
                    if k in fields:
                        own.setdefault(k, fields[k])
            fields = {k: v for k, v in fields.items() if k in ("oop", "ip", "donk")}
        out[name] = fields
    return out


class State(NamedTuple):
    """Where a street's betting stands after some actions (replayed from the labels)."""
    put: tuple  # each player's total contribution, the starting pot's halves included
    start: float  # the matched contribution when this street began
    prev: float  # the last bet or raise, counted on this street (0: none yet)
    bets: int  # bets and raises so far this street
    facing: bool  # the player to act faces a bet or raise
    allin: bool  # someone is all-in (then no more bets, on any street)
    donk: bool  # player 0 called a bet or raise to end the previous street
    actions: int  # actions so far this street


def tokens(betting: str) -> list[str]:
    """The action labels of one street's betting string (``"b120r300c"`` -> b120, r300, c)."""
    return _TOKEN.findall(betting)


def replay(rules: Betting, pot: float, stack: float, rounds) -> State:
    """The state after the betting ``rounds`` (one string per street so far)."""
    put = [pot / 2, pot / 2]
    allin = called_by_0 = False
    state = None
    for street, betting in enumerate(rounds):
        donk, called_by_0 = called_by_0, False  # player 0 called to end the street before this one
        start, prev, bets, facing, n = put[0], 0.0, 0, False, 0
        for k, a in enumerate(tokens(betting)):
            me = k % 2
            n += 1
            if a == "f":
                facing = False
                break
            if a == "c":
                called_by_0 = facing and me == 0
                put[me] = put[1 - me]
                prev, facing = 0.0, False
                continue
            if a == "r":  # limit mode: the one constant raise (or bet) of the street
                put[me] = put[1 - me] + _const(rules, street, me, bets)
            elif a == "a":
                put[me] = pot / 2 + stack
                allin = True
            else:
                put[me] = start + float(a[1:])
            prev, bets, facing = put[me] - start, bets + 1, True
        state = State(tuple(put), start, prev, bets, facing, allin, donk, n)
    return state


def _const(rules: Betting, street: int, me: int, bets: int) -> float:
    sizes = rules.sizes[street][me].raise_ if bets else rules.sizes[street][me].bet
    return sizes[0].value


def _round(x: float) -> float:
    """Half up to a whole chip (the sizes are non-negative)."""
    return float(math.floor(x + 0.5))


def legal_actions(rules: Betting, pot: float, stack: float, rounds, streets_left: int) -> list[tuple[str, float]]:
    """The actions of the player to act after ``rounds``: (label, amount) pairs in the order the
    node lists them, the amount counted on this street (what the player will have put in on it;
    0 for fold and check, the call's level for a call).  ``streets_left``: this one included."""
    st = replay(rules, pot, stack, rounds)
    street = len(rounds) - 1
    me = st.actions % 2
    put, prev = st.put, st.prev
    to_call = put[1 - me] - put[me]
    pot_after = 2 * max(put)  # the pot once the player has called
    opp_stack = pot / 2 + stack - max(put)
    top = opp_stack + prev  # all-in, counted on this street
    low = min(max(prev + to_call, 1.0), top)
    spr = opp_stack / pot_after

    def geometric(n, ceiling):
        ratio = ((2 * spr + 1) ** (1 / n) - 1) / 2
        return _round(pot_after * min(ratio, ceiling))

    own = rules.sizes[street][me]
    out = []  # (kind, amount)
    if not st.facing:
        out.append((CHECK, 0.0))
        donk = rules.donk[street]
        sizes = donk if (donk is not None and st.actions == 0 and street > 0 and st.donk) else own.bet
        for s in sizes:
            if s.kind == "pot":
                out.append((BET, _round(pot_after * s.value)))
            elif s.kind == "const":
                out.append((BET, s.value))
            elif s.kind == "geo":
                out.append((BET, geometric(s.count or streets_left, s.value)))
            elif s.kind == "allin":
                out.append((ALLIN, top))
        if not rules.limit and top <= _round(pot_after * rules.add_allin):
            out.append((ALLIN, top))
    else:
        out += [(FOLD, 0.0), (CALL, prev)]
        if not st.allin:
            for s in own.raise_:
                if s.kind == "pot":
                    out.append((RAISE, prev + _round(pot_after * s.value)))
                elif s.kind == "prev":
                    out.append((RAISE, _round(prev * s.value)))
                elif s.kind == "const":
                    if s.count == 0 or st.bets <= s.count:
                        out.append((RAISE, prev + s.value))
                elif s.kind == "geo":
                    n = max((s.count or streets_left) - st.bets + 1, 1)
                    out.append((RAISE, prev + geometric(n, s.value)))
                elif s.kind == "allin":
                    out.append((ALLIN, top))
            if not rules.limit and top <= prev + _round(pot_after * rules.add_allin):
                out.append((ALLIN, top))
    if rules.limit:  # sizes as given; one past the stack is not offered
        kept = [(k, a) for k, a in out if k not in (BET, RAISE) or a <= top]
    else:
        kept = []
        for k, a in out:
            if k in (BET, RAISE):
                a = min(max(a, low), top)
                threshold = _round((pot_after + 2 * (a - prev)) * rules.force_allin)
                if top <= a + threshold:
                    k, a = ALLIN, top
            kept.append((k, a))
        kept = _merge(sorted(set(kept)), pot_after, prev, rules.merging)
    labels = []
    for k, a in kept:
        if k == FOLD:
            labels.append(("f", 0.0))
        elif k in (CHECK, CALL):
            labels.append(("c", a))
        elif rules.limit:
            labels.append(("r", a))
        elif k == ALLIN:
            labels.append(("a", a))
        else:
            labels.append((("b" if k == BET else "r") + _chips(a), a))
    return labels


def _chips(a: float) -> str:
    return str(int(a)) if float(a).is_integer() else repr(a)


def _merge(actions, pot: float, prev: float, m: float):
    """Drop sizes too close to the next larger one kept (the module docstring's merging rule)."""
    kept, last = [], math.inf
    for k, a in reversed(actions):
        if k in (BET, RAISE, ALLIN):
            ratio = (a - prev) / pot
            if ratio < (last - m) / (1 + m) * (1 - 1e-12):
                kept.append((k, a))
                last = ratio
        else:
            kept.append((k, a))
    return kept[::-1]
