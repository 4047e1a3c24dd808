"""What an experiment returns: tables (as text, or as JSON) and figures; the command line prints them
(``zerosum experiment NAME``).

``--json`` prints one object::

    {"experiment": NAME, "tables": [{"title": ..., "columns": [...], "rows": [[...], ...]}, ...],
     "figures": [PATH, ...], "notes": [...]}

Rows hold the numbers as printed: a column with ``digits`` is rounded to that many decimals.
A report of a run stopped by Ctrl-C holds the rows finished before it and ``"interrupted": true``
(:func:`collecting` keeps the tables an experiment has started, for those that do not build
their partial report themselves).
"""

from __future__ import annotations

from contextlib import contextmanager
from dataclasses import dataclass, field

#: the tables made while :func:`collecting` runs (None outside it)
_started: list | None = None


@contextmanager
def collecting():
    """Keep every :class:`Table` made in the block; yields that list (an interrupted experiment's
    rows so far are in it)."""
    global _started
    before, _started = _started, []
    try:
        yield _started
    finally:
        _started = before


@dataclass
class Table:
    title: str
    columns: list[str]
    rows: list[list] = field(default_factory=list)
    #: decimals per column (None: print as is); applied to the JSON too
    digits: list[int | None] | None = None

    def __post_init__(self):
        if _started is not None:
            _started.append(self)

    def add(self, *cells) -> None:
        self.rows.append(list(cells))

    def _cell(self, j: int, v):
        d = self.digits[j] if self.digits else None
        if v is None:
            return None
        if d is not None and isinstance(v, (int, float)) and not isinstance(v, bool):
            return round(float(v), d)
        return v

    def printed_rows(self) -> list[list]:
        return [[self._cell(j, v) for j, v in enumerate(r)] for r in self.rows]

    def to_dict(self) -> dict:
        return {"title": self.title, "columns": list(self.columns), "rows": self.printed_rows()}

    def render(self) -> str:
        """Plain text, right-aligned columns (stable for copying into notes)."""
        def fmt(j, v):
            d = self.digits[j] if self.digits else None
            if v is None:
                return "-"
            if d is not None and isinstance(v, (int, float)) and not isinstance(v, bool):
                text = f"{v:,.0f}" if d == 0 else f"{v:.{d}f}"  # counts: 3,645,331
                return text[1:] if text.startswith("-") and float(text.replace(",", "")) == 0 else text
            if isinstance(v, int) and not isinstance(v, bool):
                return f"{v:,}"
            return str(v)

        cells = [[str(c) for c in self.columns]] + [[fmt(j, v) for j, v in enumerate(r)] for r in self.rows]
        widths = [max(len(row[j]) for row in cells) for j in range(len(self.columns))]
        lines = [f"=== {self.title} ==="]
        for k, row in enumerate(cells):
            lines.append("  ".join(c.rjust(w) if j else c.ljust(w) for j, (c, w) in enumerate(zip(row, widths))))
            if k == 0:
                lines.append("  ".join("-" * w for w in widths))
        return "\n".join(lines)


@dataclass
class Report:
    experiment: str
    tables: list[Table] = field(default_factory=list)
    figures: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: stopped by Ctrl-C: the tables hold the rows finished before it
    interrupted: bool = False

    def to_dict(self) -> dict:
        out = {"experiment": self.experiment, "tables": [t.to_dict() for t in self.tables],
               "figures": list(self.figures), "notes": list(self.notes)}
        if self.interrupted:
            out["interrupted"] = True
        return out

    def render(self) -> str:
        parts = [t.render() for t in self.tables]
        if self.interrupted:
            parts.insert(0, "INTERRUPTED (Ctrl-C): the rows below are those finished before it")
        parts += [f"note: {n}" for n in self.notes]
        parts += [f"figure written to {f}" for f in self.figures]
        return "\n\n".join(parts)
