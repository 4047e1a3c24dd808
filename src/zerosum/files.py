"""Output files: checked before any work starts, written whole or not at all, and readable by
whoever the user's umask lets read them (a temporary file is created 0600, so its mode is set
explicitly before the rename).  Every message names the path the user gave, never a temporary one.
"""

from __future__ import annotations

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
    return e.strerror or str(e)


def check_writable(path) -> None:
    """Fail now, before long work, if ``path`` could not be written later: by creating (and
    removing) a file beside it, since permission bits say nothing of /proc, read-only mounts or
    a root user."""
    if path is None:
        return
    p = Path(path)
    parent = _directory(p)
    if p.is_dir():
        raise ZerosumError(f"cannot write {str(p)!r}: it is a directory")
    if not parent.is_dir():
        raise ZerosumError(f"cannot write {str(p)!r}: no directory {str(parent)!r}")
    if p.exists() and not os.access(p, os.W_OK):
        raise ZerosumError(f"cannot write {str(p)!r}: permission denied")
    try:
        fd, tmp = tempfile.mkstemp(dir=parent, prefix=f".{p.name}.", suffix=".check")
    except OSError as e:
        raise ZerosumError(f"cannot write {str(p)!r}: {_reason(e)}") from None
    os.close(fd)
    os.unlink(tmp)


def write_atomic(path, write: Callable[[str], None], what: str = "") -> None:
    """Call ``write(temporary_path)`` for a file beside ``path``, give it the mode a new file
    gets (0666 less the umask), and rename it onto ``path``.  ``what`` (e.g. "plot") goes into
    the message if anything fails."""
    p = Path(path)
    label = f"{what} {str(p)!r}" if what else repr(str(p))
    try:
        fd, tmp = tempfile.mkstemp(dir=_directory(p), prefix=f".{p.name}.", suffix=p.suffix)
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
