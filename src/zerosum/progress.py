"""Progress of long work, said by the library and shown by whoever listens.

Library code (the public-tree builders, experiments, solvers' callers) never prints: it wraps
long work in :func:`counted` (a known number of steps) or :func:`status` (a phase of unknown
length, e.g. building a tree) and reports as it goes.  What the user sees is decided by the
*reporter* installed with :func:`reporting`: the command line installs one that draws a Rich
bar on a terminal and prints a plain line on stderr every half minute or so otherwise
(:mod:`zerosum.cli.common`); a web page or a notebook may install its own.  With no reporter
installed (a script, a test) nothing is shown and the calls cost nothing.

``enabled=False`` is the caller saying that this work should not draw on a terminal (``--json``
output on a terminal stays clean); a reporter may still log it where that disturbs nothing, as the
command line's plain stderr lines do.

May import: the standard library only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import Protocol


class Reporter(Protocol):
    """What a reporter provides: the two context managers below, each yielding its update function."""

    def counted(self, total: int, description: str, enabled: bool, unit: str) \
            -> AbstractContextManager[Callable[..., None]]:
        """Show ``total`` steps of ``description``; the context yields ``advance(n=1)``."""

    def status(self, description: str, enabled: bool) -> AbstractContextManager[Callable[..., None]]:
        """Show a phase of unknown length; the context yields ``update(text)``."""


_reporter: Reporter | None = None


def _nothing(*_args) -> None:
    return None


@contextmanager
def counted(total: int, description: str, enabled: bool = True, unit: str = "") -> Iterator[Callable[..., None]]:
    """Progress of ``total`` steps; yields ``advance(n=1)``."""
    if _reporter is None:
        yield _nothing
        return
    with _reporter.counted(total, description, enabled, unit) as advance:
        yield advance


@contextmanager
def status(description: str, enabled: bool = True) -> Iterator[Callable[..., None]]:
    """Progress of a phase of unknown length; yields ``update(text)``, where ``text`` is a string or
    a function returning one (called only when the reporter shows it)."""
    if _reporter is None:
        yield _nothing
        return
    with _reporter.status(description, enabled) as update:
        yield update


@contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """Show the progress said inside this block with ``reporter`` (None: show nothing)."""
    global _reporter
    before, _reporter = _reporter, reporter
    try:
        yield
    finally:
        _reporter = before


def reporter() -> Reporter | None:
    """The reporter installed now, if any."""
    return _reporter
