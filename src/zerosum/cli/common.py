"""Helpers shared by the CLI commands: game loading from the command line, output, and how progress
is shown (:class:`TerminalReporter`, installed for every command by :func:`zerosum.cli.cli`)."""

from __future__ import annotations

import json
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from ..errors import ZerosumError
from ..files import check_writable, write_atomic  # noqa: F401  (check_writable: for the commands)


def parse_params(params: tuple[str, ...], flag: str = "--param") -> dict:
    """``--param key=value`` pairs (or ``--option``: ``flag`` names the option in messages);
    values are read as JSON when they parse, else kept as text."""
    out = {}
    for item in params:
        if "=" not in item or not item.split("=", 1)[0].strip():
            raise ZerosumError(f"{flag} expects KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def compact_moves(text: str | None) -> str:
    """Connect Four moves as one string of columns: ``4 4 5 3``, ``4,4,5,3`` and ``4453`` alike."""
    return "".join((text or "").replace(",", " ").split())


#: the longest game id a progress line shows whole (a hold'em spot's id holds its ranges: 809 characters for TexasSolver's flop)
SHORT_ID = 80


def short_id(game_id: str, width: int = SHORT_ID) -> str:
    """``game_id`` for a progress line: whole up to ``width`` characters, else its name with the
    parameters a reader knows the game by (a board, a pot, a stack: the ranges left out) and an
    ellipsis, e.g. ``holdem(board=QsJh2h,pot=50,stack=200,...)``."""
    if len(game_id) <= width:
        return game_id
    import re

    name = game_id.split("(", 1)[0]
    known = [m.group(0) for m in re.finditer(r"\b(board|pot|stack)=[^,()\[\]]+", game_id)]
    return f"{name}({','.join(known + ['...'])})" if known else game_id[:width - 3] + "..."


def load_from_cli(name: str, params: tuple[str, ...] = ()):
    """A game named on the command line; a path ending in .efg is read as a Gambit file."""
    from ..games import load_game

    if name.lower().endswith(".efg"):
        from ..games.efg import load_efg

        if params:
            raise ZerosumError("a Gambit .efg game takes no --param")
        from ..files import probe

        if not probe(name):  # before the extra's hint: the file is the first thing wrong
            reason = "it is a directory" if Path(name).is_dir() else "no such file"
            raise ZerosumError(f"cannot read {name!r}: {reason}")
        return load_efg(name)
    return load_game(name, **parse_params(params))


def emit_json(obj) -> None:
    click.echo(json.dumps(obj, indent=1, default=_jsonable))


def _jsonable(o):
    import numpy as np

    if isinstance(o, np.integer):
        return int(o)
    if isinstance(o, np.floating):
        return float(o)
    if isinstance(o, np.ndarray):
        return o.tolist()
    raise TypeError(f"not JSON serializable: {type(o).__name__}")


def console():
    from rich.console import Console

    # wide enough for the tables when the output goes to a file or a pipe
    return Console(highlight=False, width=None if sys.stdout.isatty() else 120)


#: seconds before the first plain progress line when stderr is not a terminal, and between lines
PLAIN_FIRST_S, PLAIN_EVERY_S = 20.0, 30.0


def _elapsed(seconds: float) -> str:
    seconds = int(seconds)
    if seconds < 60:
        return f"{seconds} s"
    if seconds < 3600:
        return f"{seconds // 60} min {seconds % 60:02d} s"
    return f"{seconds // 3600} h {seconds % 3600 // 60:02d} min"


class _PlainLines:
    """Occasional one-line progress reports on stderr, for a log file or a pipe: a background
    thread prints ``status()`` after PLAIN_FIRST_S and then every PLAIN_EVERY_S, so that even one
    long call (an LP, a deep search) is reported."""

    def __init__(self, description: str, status):
        import threading
        import time

        self.clock = time.monotonic
        self.description = description
        self.status = status
        self.start = self.clock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._loop, daemon=True)

    def _loop(self):
        wait = PLAIN_FIRST_S
        while not self.stop.wait(wait):
            text = self.status()
            click.echo(f"zerosum: {self.description}: {text + ', ' if text else ''}"
                       f"{_elapsed(self.clock() - self.start)} elapsed", err=True)
            wait = PLAIN_EVERY_S

    def __enter__(self):
        self.thread.start()
        return self

    def __exit__(self, *exc):
        self.stop.set()
        self.thread.join()


@contextmanager
def progress_bar(total: int, description: str, enabled: bool = True, unit: str = ""):
    """Progress of a counted task; yields ``advance(n)``.  On a terminal: a Rich bar on stderr
    (unless ``enabled`` is False, e.g. under --json); otherwise a plain line on stderr every
    half minute or so (never on stdout, so --json output stays one object)."""
    if not sys.stderr.isatty():
        done = [0]

        def advance(n=1):
            done[0] += n

        with _PlainLines(description, lambda: f"{done[0]:,} / {total:,}{' ' + unit if unit else ''} "
                                              f"({100 * done[0] / max(total, 1):.1f} %)"):
            yield advance
        return
    if not enabled:
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeElapsedColumn, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), TimeRemainingColumn(), console=Console(stderr=True),
                  transient=True) as bar:
        task = bar.add_task(escape(description), total=total)  # game ids may hold [...]
        yield lambda n=1: bar.advance(task, n)


@contextmanager
def progress_status(description: str, enabled: bool = True):
    """Progress of a task of unknown length (e.g. compiling a game); yields ``update(text)``
    where ``text`` is a string or a function returning one.  A Rich spinner with the text on a
    terminal, the occasional plain line on stderr otherwise."""
    if not sys.stderr.isatty():
        last = [""]

        def update(text):
            last[0] = text

        with _PlainLines(description, lambda: last[0]() if callable(last[0]) else last[0]):
            yield update
        return
    if not enabled:
        yield lambda text: None
        return
    from rich.console import Console
    from rich.markup import escape
    from rich.progress import Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

    with Progress(SpinnerColumn(), TextColumn("{task.description}"), TimeElapsedColumn(),
                  console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(escape(description))  # game ids may hold [...] (no-limit betting)

        def update(text):
            bar.update(task, description=escape(f"{description}: {text() if callable(text) else text}"))

        yield update


class TerminalReporter:
    """The command line's :class:`zerosum.progress.Reporter`: :func:`progress_bar` and
    :func:`progress_status` (a Rich bar or spinner on a terminal, plain stderr lines otherwise)."""

    def counted(self, total, description, enabled, unit):
        return progress_bar(total, description, enabled=enabled, unit=unit)

    def status(self, description, enabled):
        return progress_status(description, enabled=enabled)


def save_state(solver, path) -> None:
    """Write a solver's state_dict() as .npz, atomically."""
    import numpy as np

    state = solver.state_dict()

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez(f, **state)

    write_atomic(path, write, "state file")


def load_state(solver, path) -> None:
    """Restore a solver from a .npz written by save_state."""
    import zipfile

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as data:
            state = {k: data[k] for k in data.files}
    except OSError as e:
        raise ZerosumError(f"cannot read state file {str(path)!r}: {e.strerror or e}") from None
    except (ValueError, zipfile.BadZipFile):
        raise ZerosumError(f"{str(path)!r} is not a zerosum state file") from None
    solver.load_state_dict(state)
