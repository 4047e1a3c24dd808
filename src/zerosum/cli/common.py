"""Helpers shared by the CLI commands: game loading from the command line, output, progress."""

from __future__ import annotations

import json
import os
import sys
from contextlib import contextmanager
from pathlib import Path

import click

from ..errors import ZerosumError


def parse_params(params: tuple[str, ...]) -> dict:
    """``--param key=value`` pairs; values are read as JSON when they parse, else kept as text."""
    out = {}
    for item in params:
        if "=" not in item:
            raise ZerosumError(f"--param expects KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return out


def load_from_cli(name: str, params: tuple[str, ...] = ()):
    """A game named on the command line; a path ending in .efg is read as a Gambit file."""
    from ..games import load_game

    if name.lower().endswith(".efg"):
        from ..games.efg import load_efg

        if params:
            raise ZerosumError("a Gambit .efg game takes no --param")
        return load_efg(name)
    return load_game(name, **parse_params(params))


def check_writable(path) -> None:
    """Fail before long work if an output file could not be written."""
    if path is None:
        return
    p = Path(path)
    parent = p.parent if str(p.parent) else Path(".")
    if p.is_dir():
        raise ZerosumError(f"cannot write {str(p)!r}: it is a directory")
    if not parent.is_dir():
        raise ZerosumError(f"cannot write {str(p)!r}: no directory {str(parent)!r}")
    if not os.access(parent, os.W_OK) or (p.exists() and not os.access(p, os.W_OK)):
        raise ZerosumError(f"cannot write {str(p)!r}: permission denied")


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


@contextmanager
def progress_bar(total: int, description: str, enabled: bool = True):
    """A Rich progress bar on stderr (only on a terminal); yields ``advance(n)``."""
    if not enabled or not sys.stderr.isatty():
        yield lambda n=1: None
        return
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TimeRemainingColumn

    with Progress("[progress.description]{task.description}", BarColumn(), MofNCompleteColumn(),
                  TimeRemainingColumn(), console=Console(stderr=True), transient=True) as bar:
        task = bar.add_task(description, total=total)
        yield lambda n=1: bar.advance(task, n)


def save_state(solver, path) -> None:
    """Write a solver's state_dict() as .npz, atomically."""
    import numpy as np

    p = Path(path)
    tmp = p.with_name(f".{p.name}.tmp.npz")
    try:
        np.savez(tmp, **solver.state_dict())
        os.replace(tmp, p)
    except OSError as e:
        tmp.unlink(missing_ok=True)
        raise ZerosumError(f"cannot write {str(p)!r}: {e.strerror}") from None


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
