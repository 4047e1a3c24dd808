"""Output files: checked before any work starts, written whole or not at all, and readable by
whoever the user's umask lets read them (a temporary file is created 0600, so its mode is set
explicitly before the rename).  Every message names the path the user gave, never a temporary one.
"""

from __future__ import annotations

import errno
import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from .errors import ZerosumError


def current_umask() -> int:
    """The process's umask (read from /proc where possible: setting it, even briefly, is global)."""
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _directory(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def _reason(e: OSError) -> str:
    if e.errno == errno.ENAMETOOLONG:
        return "file name too long"
    return e.strerror or str(e)


def shown(path) -> str:
    """``repr`` of the path for a message, its middle elided past 60 characters: a 300-character
    name the file system refused would otherwise fill the screen."""
    s = str(path)
    return repr(s if len(s) <= 60 else f"{s[:24]}\u2026{s[-12:]}")


def os_failure(path, e: OSError, verb: str = "write") -> ZerosumError:
    """The one-line error for an ``OSError`` met on a user's path (``verb``: "write", "read")."""
    return ZerosumError(f"cannot {verb} {shown(path)}: {_reason(e)}")


def probe(path, test: str = "is_file", verb: str = "read") -> bool:
    """``Path(path).is_file()`` / ``is_dir()`` / ``exists()`` that answers a name the file system
    refuses (too long, ELOOP, ...) with a one-line ZerosumError instead of ``OSError``: on Linux
    ``is_file`` swallows ENOENT but not ENAMETOOLONG."""
    try:
        return getattr(Path(path), test)()
    except OSError as e:
        raise os_failure(path, e, verb) from None


def check_writable(path) -> None:
    """Fail now, before long work, if ``path`` could not be written later: by creating (and
    removing) a file beside it, since permission bits say nothing of /proc, read-only mounts or
    a root user."""
    if path is None:
        return
    p = Path(path)
    parent = _directory(p)
    try:
        if p.is_dir():
            raise ZerosumError(f"cannot write {shown(p)}: it is a directory")
        if not parent.is_dir():
            raise ZerosumError(f"cannot write {shown(p)}: no directory {shown(parent)}")
        if p.exists() and not os.access(p, os.W_OK):
            raise ZerosumError(f"cannot write {shown(p)}: permission denied")
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.name[:200]}.", suffix=".check")
    except OSError as e:
        raise os_failure(p, e) from None
    os.close(fd)
    os.unlink(tmp)


def check_policy_path(path) -> None:
    """``--save`` writes a policy as JSON whatever the name says; a Gambit ``.efg`` name would
    promise a game file that is not there (the package has a Gambit reader, no writer), so that
    name is refused, before any work, instead of being written as JSON."""
    if path is not None and Path(path).suffix.lower() == ".efg":
        stem = Path(path).with_suffix(".json")
        raise ZerosumError(f"cannot save the policy as {shown(path)}: .efg is a game format and the "
                           f"policy is written as JSON; use --save {shown(stem)}")
    check_writable(path)


def write_atomic(path, write: Callable[[str], None], what: str = "") -> None:
    """Call ``write(temporary_path)`` for a file beside ``path``, give it the mode a new file
    gets (0666 less the umask), and rename it onto ``path``.  ``what`` (e.g. "plot") goes into
    the message if anything fails."""
    p = Path(path)
    label = f"{what} {shown(p)}" if what else shown(p)
    try:
        # the name is cut so that a name near the 255-byte limit still leaves room for the
        # temporary's random part; the rename then gives the full name or fails on it
        fd, tmp = tempfile.mkstemp(dir=_directory(p), prefix=f".{p.name[:200]}.", suffix=p.suffix[:20])
    except OSError as e:
        raise ZerosumError(f"cannot write {label}: {_reason(e)}") from None
    os.close(fd)
    try:
        write(tmp)
        os.chmod(tmp, 0o666 & ~current_umask())
        os.replace(tmp, p)
    except (OSError, ValueError) as e:
        if os.path.exists(tmp):
            os.unlink(tmp)
        reason = _reason(e) if isinstance(e, OSError) else str(e)
        raise ZerosumError(f"cannot write {label}: {reason}") from None


def write_text(path, text: str) -> None:
    """A text file, atomically."""
    def write(tmp):
        with open(tmp, "w", encoding="utf-8") as f:
            f.write(text)

    write_atomic(path, write)
