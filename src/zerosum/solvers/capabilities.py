"""What each CFR-family algorithm runs with: one table that the solvers, the command line's help
and refusals and the web app read, so that the list of variants and what each supports is written
once.

A row (:class:`Algorithm`) is derived from the variant's class in :data:`zerosum.solvers.rules.VARIANTS`
(a predictive variant stores its strategies in floats, so it has no 16-bit storage, no split over
Ray and no depth-limited solving) or written out for the one sampler of the public tree
(``pcs-mccfr``).  Adding a variant to ``rules.VARIANTS`` adds its row: nothing else lists them.

A refusal reads the table (:func:`require`): ``"pcfr+ does not run with 16-bit storage
(--option dtype=int16); these do: cfr, cfr+, dcfr, hs-dcfr, lcfr"``.

May import: :mod:`zerosum.errors`, :mod:`.rules`.  Never the public tree, the command line or
the web app (they import this).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from ..errors import ZerosumError
from . import rules

#: what a feature is called in a refusal: the option or flag a user gave
FEATURES = {
    "history-tree": "the history tree (--form history-tree)",
    "public-tree": "the public tree (--form public-tree)",
    "threads": "threads (--option threads=N)",
    "int16": "16-bit storage (--option dtype=int16 or dtype=avg16)",
    "ray-split": "the public tree split over Ray (--ray)",
    "locks": "node locks (--option lock=FILE)",
    "isomorphism": "suit isomorphism (--option isomorphism=true)",
    "resume": "--resume",
    "depth-limited": "depth-limited solving and re-solving (-a resolve --option solver=NAME)",
    "restart": "an average restarted during the run (dcfr --option restart=B)",
    "rake": "a raked game (--param rake=R)",
    "prune": "pruning below an all-zero opponent reach (--option prune=1)",
}

#: what every full-width CFR variant runs with, on either form
_FULL_WIDTH = frozenset(FEATURES) - {"restart"}
#: what a predictive variant gives up: its strategies are stored in floats, rebuilt bottom-up in
#: the one process that holds the whole tree
_NOT_PREDICTIVE = frozenset({"int16", "ray-split", "depth-limited"})


@dataclass(frozen=True)
class Algorithm:
    """One name ``zerosum solve -a NAME`` takes among the CFR family, and the features it runs with
    (keys of :data:`FEATURES`); ``sampled``: it draws its public chance (a seed, no exact pass)."""

    name: str
    features: frozenset
    predictive: bool = False
    sampled: bool = False

    def runs_with(self, feature: str) -> bool:
        if feature not in FEATURES:
            raise KeyError(feature)
        return feature in self.features


def _variant_row(name: str, cls: type) -> Algorithm:
    features = _FULL_WIDTH - (_NOT_PREDICTIVE if cls.predictive else frozenset())
    if name == "dcfr":  # the one variant with a restarted average (DCFR's restart=B)
        features = features | {"restart"}
    return Algorithm(name, frozenset(features), predictive=bool(cls.predictive))


#: PCS-MCCFR: public chance sampling on the public tree only; one deal per chance node, so no
#: threads (nothing to split), no isomorphism (it samples a mirror's deals), no locks
_SAMPLER = Algorithm("pcs-mccfr", frozenset({"public-tree", "resume"}), sampled=True)

class _Rows(Mapping):
    """Every CFR-family algorithm by name, read from :data:`zerosum.solvers.rules.VARIANTS` each
    time (a variant registered later has its row), then the public tree's sampler."""

    def _rows(self) -> dict:
        return {**{n: _variant_row(n, c) for n, c in rules.VARIANTS.items()}, _SAMPLER.name: _SAMPLER}

    def __getitem__(self, name: str) -> Algorithm:
        return self._rows()[name]

    def __iter__(self):
        return iter(self._rows())

    def __len__(self) -> int:
        return len(rules.VARIANTS) + 1


#: every CFR-family algorithm by name: the variants of :mod:`.rules` and the public tree's sampler
ALGORITHMS: Mapping = _Rows()


def algorithm(name: str) -> Algorithm:
    """The row of ``name``, or a one-line refusal listing the names."""
    if name not in ALGORITHMS:
        raise ZerosumError(f"{name} is not a CFR-family algorithm; choose one of {', '.join(ALGORITHMS)}")
    return ALGORITHMS[name]


def names_with(*features: str) -> list[str]:
    """The names that run with every one of ``features``, in the table's order."""
    for f in features:
        if f not in FEATURES:
            raise KeyError(f)
    return [a.name for a in ALGORITHMS.values() if all(f in a.features for f in features)]


def refusal(name: str, feature: str, fix: str = "") -> str:
    """The one line that says ``name`` does not run with ``feature``, which names do, and ``fix``."""
    others = names_with(feature)
    line = f"{name} does not run with {FEATURES[feature]}"
    if others:
        line += f"; these do: {', '.join(others)}"
    return line + (f"; {fix}" if fix else "")


def require(name: str, feature: str, fix: str = "") -> None:
    """Refuse in one line (:func:`refusal`) where ``name`` does not run with ``feature``."""
    if name not in ALGORITHMS or not ALGORITHMS[name].runs_with(feature):
        raise ZerosumError(refusal(name, feature, fix))


#: features that never run together, whatever the algorithm, and why (the split's workers each hold
#: a part of the tree in floats; a lock is written into float sums; depth-limited solving and the
#: split keep one average from the first iteration)
APART = {
    frozenset({"ray-split", "int16"}): "16-bit storage runs in one process",
    frozenset({"ray-split", "restart"}): "the split's workers do not restart their averages",
    frozenset({"ray-split", "locks"}): "node locks run in one process",
    frozenset({"ray-split", "prune"}): "the split's workers do not prune",
    frozenset({"locks", "int16"}): "a lock is written into float sums",
    frozenset({"depth-limited", "restart"}): "depth-limited solving does not restart the average",
    # a raked game is general-sum: these read player 1's value as minus player 0's
    frozenset({"ray-split", "rake"}): "the split's NashConv is a zero-sum game's",
    frozenset({"locks", "rake"}): "the locked gain is a zero-sum game's",
    frozenset({"depth-limited", "rake"}): "its leaf values are a zero-sum game's",
}


def require_apart(first: str, second: str, fix: str = "") -> None:
    """Refuse in one line where ``first`` and ``second`` are asked for together but never run so."""
    why = APART.get(frozenset({first, second}))
    if why is not None:
        raise ZerosumError(f"{FEATURES[first]} does not run with {FEATURES[second]}: {why}" + (f"; {fix}" if fix else ""))


def table() -> list[dict]:
    """Every row as a dict (``zerosum solve -a help --json``, the web app, docs/cli.md)."""
    return [{"algorithm": a.name, "predictive": a.predictive, "sampled": a.sampled,
             "features": sorted(a.features)} for a in ALGORITHMS.values()]
