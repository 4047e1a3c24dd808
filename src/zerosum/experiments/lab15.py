"""Lab 15 in one command: the four parts, printed in the layout of the lab's "Expected results".

Each part lives in its own experiment module and returns a :class:`Report`:

* Part 1, CFR and CFR+: ``zerosum.experiments.cfr.lab_part1``;
* Part 2, external-sampling MCCFR: ``zerosum.experiments.mccfr.lab_part2`` (one seed here);
* Part 3, self-play dynamics: ``zerosum.experiments.dynamics.lab_part3``;
* Part 4, PSRO: ``zerosum.experiments.psro.lab_part4``.

A part whose module or function does not exist yet prints "Part N: not available yet", never a
number.  With a figure path ``zerosum-lab15.png``, part N's figure is ``zerosum-lab15-partN.png``.
"""

from __future__ import annotations

import importlib
import time
from dataclasses import dataclass, field
from pathlib import Path

from ..games import load_game
from ..progress import counted
from .report import Report

#: part -> (module inside zerosum.experiments, function, keyword arguments)
PARTS = {
    1: ("cfr", "lab_part1", {}),
    2: ("mccfr", "lab_part2", {"seeds": 1}),
    3: ("dynamics", "lab_part3", {}),
    4: ("psro", "lab_part4", {}),
}


@dataclass
class LabReport(Report):
    """A report made of parts, each printed under the lab's header; missing parts say so.

    ``tables``, ``figures`` and ``notes`` (prefixed "Part N:") gather all parts' for ``--json``.
    """

    header: str = ""
    #: (part number, its report or None when not available, wall seconds)
    parts: list = field(default_factory=list)

    def render(self) -> str:
        out = [self.header]
        for n, rep, _ in self.parts:
            out.append(f"Part {n}: not available yet" if rep is None else rep.render())
        return "\n\n".join(out)

    def to_dict(self) -> dict:
        d = super().to_dict()
        d["header"] = self.header
        d["parts"] = [{"part": n, "available": rep is not None, "tables": len(rep.tables) if rep else 0,
                       "seconds": round(sec, 3)} for n, rep, sec in self.parts]
        return d


def part_function(n: int):
    """The function computing part n, or None if its module or function does not exist yet."""
    module, name, _ = PARTS[n]
    try:
        mod = importlib.import_module(f"{__package__}.{module}")
        return getattr(mod, name)
    except (ImportError, AttributeError):
        return None


def figure_path(plot, n: int):
    """``zerosum-lab15.png`` -> ``zerosum-lab15-part{n}.png``."""
    if plot is None:
        return None
    p = Path(plot)
    return str(p.with_name(f"{p.stem}-part{n}{p.suffix or '.png'}"))


def header() -> str:
    from ..core.compile import compiled
    from ..games.leduc import LeducHistory

    game = load_game("leduc")
    deals = 0
    for c0, _ in game.chance_outcomes(game.root()):
        for c1, _ in game.chance_outcomes(LeducHistory(c0, ("",))):
            deals += len(game.chance_outcomes(LeducHistory(c0 + c1, ("cc",))))
    n0, n1 = (t.n_infosets for t in compiled(game).treeplexes)
    return (f"Leduc hold'em: {deals} deals of ranks, {n0 + n1} information sets "
            f"({n0} and {n1} for players 0 and 1)" if n0 != n1 else
            f"Leduc hold'em: {deals} deals of ranks, {n0 + n1} information sets ({n0} per player)")


def lab15(plot=None, progress=False, parts=None) -> LabReport:
    """Run the parts in order (all of :data:`PARTS` by default); each part's tables, notes and
    figure go into one report."""
    parts = sorted(PARTS) if parts is None else parts
    report = LabReport("lab15", header=header())
    with counted(len(parts), "Lab 15, parts 1-4", enabled=progress) as advance:
        for n in parts:
            fn = part_function(n)
            start = time.perf_counter()
            rep = None
            if fn is not None:
                rep = fn(plot=figure_path(plot, n), progress=False, **PARTS[n][2])
                report.tables += rep.tables
                report.figures += rep.figures
                report.notes += [f"Part {n}: {note}" for note in rep.notes]
            else:
                report.notes.append(f"Part {n}: not available yet")
            report.parts.append((n, rep, time.perf_counter() - start))
            advance(1)
    return report
