"""The 1,755 strategically different flops, their weights and textures, and the flop sets a batch
runs on.

A flop is three distinct cards; there are C(52, 3) = 22,100 of them.  Permuting the four suits
(24 permutations) never changes a spot whose ranges treat the suits alike, so flops are grouped
into classes: :func:`canonical` maps a flop to its class's representative, the permuted flop whose
cards (sorted high first, as card ints ``4 * rank + suit`` with suits c < d < h < s) are largest,
so representatives read ``AsKhQd``, ``AsKs2h``, ``7s7h2s``.  A class's *weight* is the number of
the 22,100 flops it stands for (4, 12 or 24; 1,755 classes), computed here by enumerating every
flop and every permutation, not typed in.

Textures (:func:`texture`): ``high`` (the highest rank, ``"A"`` ... ``"4"``), ``pairing``
(``unpaired``, ``paired``, ``trips``), ``suits`` (``monotone``, ``two-tone``, ``rainbow``) and
``connected`` (an unpaired flop whose three ranks lie within five consecutive ranks, the ace
also low: a straight is possible with two hole cards, e.g. 987, T86, A23, 5A4) with ``gaps`` (the
ranks missing inside that window, 0 for 987 or 432 / A23; None where no straight is possible).

Flop sets (:func:`flop_set`), each a list of :class:`FlopClass` with the weight the set gives it:

* ``all``: the 1,755 classes, each with its weight (22,100 in all);
* ``random:N[:SEED]``: a stratified random subset of N classes (seed 0 by default), see
  :func:`random_subset`; its weights still add up to 22,100, each stratum keeping its share;
* a texture filter: ``monotone``, ``two-tone``, ``rainbow``, ``paired`` (trips included),
  ``unpaired``, ``trips``, ``connected``, ``disconnected``, ``high:A`` (``high:T`` ...), several
  joined by ``+`` for their intersection (``two-tone+connected``); each class with its weight;
* flops named in the set: ``Qs7h2d,Th9h8c`` (each with its class's weight);
* a file: one flop a line (any suits: the flop is mapped to its class), an optional weight after
  it (default: the class's weight), ``#`` starts a comment; two lines of the same class are refused.
"""

from __future__ import annotations

import itertools
import os
import random
from dataclasses import dataclass
from functools import lru_cache

from ..errors import ZerosumError
from ..poker.cards import RANKS, cards_str, parse_cards

N_FLOPS = 22_100
SUIT_PERMUTATIONS = tuple(itertools.permutations(range(4)))
SUIT_KINDS = ("monotone", "two-tone", "rainbow")
PAIRINGS = ("unpaired", "paired", "trips")
#: texture filters without an argument (``high:R`` takes a rank)
FILTERS = ("monotone", "two-tone", "rainbow", "paired", "unpaired", "trips", "connected", "disconnected")


@dataclass(frozen=True)
class FlopClass:
    """One class of suit-isomorphic flops: its representative ``flop`` (text, high card first), the
    number of the 22,100 flops it stands for (``count``) and the ``weight`` a flop set gives it
    (``count`` except in a random subset or a file that says otherwise)."""

    flop: str
    count: int
    weight: float

    @property
    def texture(self) -> dict:
        """The representative's textures (:func:`texture`)."""
        return texture(self.flop)


def _permute(cards, perm) -> tuple[int, ...]:
    return tuple(sorted((4 * (c >> 2) + perm[c & 3] for c in cards), reverse=True))


def canonical(flop) -> str:
    """The representative of ``flop``'s class (text such as ``"Ks7d2c"`` or card ints)."""
    cards = parse_cards(flop) if isinstance(flop, str) else tuple(int(c) for c in flop)
    if len(cards) != 3 or len(set(cards)) != 3:
        raise ZerosumError(f"a flop is three different cards, got {flop!r}")
    return cards_str(max(_permute(cards, p) for p in SUIT_PERMUTATIONS))


@lru_cache(maxsize=1)
def _classes() -> tuple[FlopClass, ...]:
    counts: dict[tuple[int, ...], int] = {}
    for flop in itertools.combinations(range(52), 3):
        key = max(_permute(flop, p) for p in SUIT_PERMUTATIONS)
        counts[key] = counts.get(key, 0) + 1
    return tuple(FlopClass(cards_str(k), n, float(n)) for k, n in sorted(counts.items(), reverse=True))


def flop_classes() -> list[FlopClass]:
    """The 1,755 classes of suit-isomorphic flops, each with the number of flops it stands for
    (weights sum to 22,100), highest flops first (``AsAhAd`` first, ``3s2s2h`` ... last)."""
    return list(_classes())


def texture(flop: str) -> dict:
    """``high``, ``pairing``, ``suits``, ``connected`` and ``gaps`` of a flop (see the module docstring)."""
    cards = parse_cards(flop)
    if len(cards) != 3:
        raise ZerosumError(f"a flop is three cards, got {flop!r}")
    ranks = sorted({c >> 2 for c in cards}, reverse=True)
    suits = len({c & 3 for c in cards})
    pairing = PAIRINGS[3 - len(ranks)]
    gaps = None
    if len(ranks) == 3:
        for low in (ranks, [r if r != 12 else -1 for r in ranks]):  # the ace also plays low
            span = max(low) - min(low)
            if span <= 4:
                gaps = span - 2 if gaps is None else min(gaps, span - 2)
    return {"high": RANKS[ranks[0]], "pairing": pairing, "suits": SUIT_KINDS[suits - 1],
            "connected": gaps is not None, "gaps": gaps}


def texture_group(flop: str) -> str:
    """The group a report sorts a flop into: ``monotone``, ``two-tone`` or ``rainbow``, then
    ``paired`` / ``trips`` or ``connected`` / ``disconnected`` (e.g. ``"rainbow paired"``)."""
    t = texture(flop)
    return f"{t['suits']} " + (t["pairing"] if t["pairing"] != "unpaired" else
                               "connected" if t["connected"] else "disconnected")


def _matches(term: str, t: dict) -> bool:
    if term.startswith("high:"):
        rank = term[5:].upper().replace("10", "T")
        if len(rank) != 1 or rank not in RANKS:
            raise ZerosumError(f"high:R takes a rank from {RANKS}, got {term!r}")
        return t["high"] == rank
    if term in SUIT_KINDS:
        return t["suits"] == term
    if term == "paired":
        return t["pairing"] != "unpaired"
    if term in ("unpaired", "trips"):
        return t["pairing"] == term
    if term == "connected":
        return t["connected"]
    if term == "disconnected":
        return not t["connected"]
    raise ZerosumError(f"unknown flop set or texture {term!r}: use all, random:N[:SEED], a file of flops, or "
                       f"{', '.join(FILTERS)}, high:R, joined by + (two-tone+connected)")


def by_texture(spec: str) -> list[FlopClass]:
    """The classes whose textures match every ``+``-joined term of ``spec``, with their weights."""
    terms = [t.strip().lower() for t in spec.split("+") if t.strip()]
    if not terms:
        raise ZerosumError("an empty texture filter")
    out = [c for c in _classes() if all(_matches(term, texture(c.flop)) for term in terms)]
    if not out:
        raise ZerosumError(f"no flop has the textures {spec!r}")
    return out


def stratum(flop: str) -> str:
    """The stratum of :func:`random_subset`: suits x pairing (``"two-tone paired"``; 6 strata)."""
    t = texture(flop)
    return f"{t['suits']} {t['pairing']}"


def random_subset(n: int, seed: int = 0) -> list[FlopClass]:
    """A random subset of ``n`` classes, stratified by suits x pairing (:func:`stratum`: monotone,
    two-tone and rainbow unpaired, two-tone and rainbow paired, rainbow trips).

    Each stratum h of total weight W_h gets n_h of the n draws: one each (when n is at least the
    number of strata), the rest in proportion to W_h (largest remainders).  Within a stratum the
    classes are ordered by rank (high card, then the others) and n_h are drawn by systematic
    sampling with probability proportional to their weight (a random start, then every W_h / n_h
    flops of the cumulated weights), which also spreads them over the high cards.  Each drawn class
    stands for W_h / n_h flops (a class drawn twice counts twice), so the weights add up to 22,100,
    every stratum keeps its share, and a weighted mean over the subset estimates the mean over
    all flops without bias.  ``n`` at or past 1,755 gives every class."""
    classes = _classes()
    if n < 1:
        raise ZerosumError(f"random:N takes N >= 1, got {n}")
    if n >= len(classes):
        return list(classes)
    strata: dict[str, list[FlopClass]] = {}
    for c in classes:
        strata.setdefault(stratum(c.flop), []).append(c)
    names = sorted(strata)
    total = {h: sum(c.count for c in strata[h]) for h in names}
    base = 1 if n >= len(names) else 0
    share = {h: (n - base * len(names)) * total[h] / N_FLOPS for h in names}
    alloc = {h: base + int(share[h]) for h in names}
    rest = n - sum(alloc.values())
    for h in sorted(names, key=lambda h: (-(share[h] - int(share[h])), h))[:rest]:
        alloc[h] += 1
    rng = random.Random(seed)
    picked: dict[str, float] = {}
    for h in names:
        k = alloc[h]
        if k == 0:
            continue
        members = strata[h]  # already by rank, high first
        step = total[h] / k
        start = rng.random() * step
        points = [start + i * step for i in range(k)]
        cum, j = 0.0, 0
        for c in members:
            cum += c.count
            while j < k and points[j] < cum:
                picked[c.flop] = picked.get(c.flop, 0.0) + step
                j += 1
    counts = {c.flop: c.count for c in classes}
    return [FlopClass(f, counts[f], w) for f, w in sorted(picked.items(), key=lambda fw: _order(fw[0]))]


def _order(flop: str):
    return tuple(-c for c in parse_cards(flop))


def read_flop_file(path: str) -> list[FlopClass]:
    """The classes listed in a file, one flop a line (optional weight after it; ``#`` comments)."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ZerosumError(f"cannot read flop file {path!r}: {e.strerror or e}") from None
    counts = {c.flop: c.count for c in _classes()}
    out: dict[str, FlopClass] = {}
    seen: dict[str, str] = {}
    for number, line in enumerate(lines, 1):
        words = line.split("#", 1)[0].split()
        if not words:
            continue
        where = f"{path}, line {number}"
        if len(words) > 2:
            raise ZerosumError(f"{where}: one flop and an optional weight a line, got {line.strip()!r}")
        try:
            flop = canonical(words[0])
        except ZerosumError as e:
            raise ZerosumError(f"{where}: {e}") from None
        if flop in out:
            raise ZerosumError(f"{where}: {words[0]} is the same flop as {seen[flop]} (suits permuted: class {flop})")
        try:
            weight = float(words[1]) if len(words) == 2 else float(counts[flop])
        except ValueError:
            raise ZerosumError(f"{where}: the weight must be a number, got {words[1]!r}") from None
        if not weight > 0:
            raise ZerosumError(f"{where}: the weight must be positive, got {words[1]}")
        out[flop], seen[flop] = FlopClass(flop, counts[flop], weight), words[0]
    if not out:
        raise ZerosumError(f"flop file {path!r} lists no flop")
    return list(out.values())


def flop_set(spec: str) -> list[FlopClass]:
    """The flop set named by ``spec`` (see the module docstring): ``all``, ``random:N[:SEED]``, a
    file of flops (a path that exists), flops joined by commas, or a texture filter."""
    text = str(spec).strip()
    if text.lower() == "all":
        return flop_classes()
    if text.lower().startswith("random:"):
        parts = text.split(":")
        try:
            n = int(parts[1])
            seed = int(parts[2]) if len(parts) == 3 else 0
            if len(parts) > 3:
                raise ValueError
        except (ValueError, IndexError):
            raise ZerosumError(f"random subsets are random:N or random:N:SEED, got {spec!r}") from None
        return random_subset(n, seed)
    if os.path.exists(text):
        return read_flop_file(text)
    flops = [w.strip() for w in text.split(",") if w.strip()]
    if flops and all(_is_flop(w) for w in flops):
        counts = {c.flop: c.count for c in _classes()}
        listed = {canonical(w): None for w in flops}
        if len(listed) < len(flops):
            raise ZerosumError(f"{spec!r} lists one flop twice (suits permuted)")
        return [FlopClass(f, counts[f], float(counts[f])) for f in listed]
    return by_texture(text)


def _is_flop(text: str) -> bool:
    try:
        cards = parse_cards(text)
    except ZerosumError:
        return False
    return len(cards) == 3 and len(set(cards)) == 3
