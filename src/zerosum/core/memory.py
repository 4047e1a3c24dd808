"""How much memory a compile or a solve may take: one rule for every size guard.

A game too large for the memory it would need is refused before any work, with the estimate
(the poker family and hold'em count their histories and public nodes exactly; the generic
compiler estimates and then watches its walk).  The limit is 70 % of the memory available when
asked (Linux's ``MemAvailable``), or what the caller passes as ``max_bytes``.

May import: the standard library only.
"""

from __future__ import annotations

#: peak bytes per history while compiling with the generic compiler (measured: 885 MB peak RSS
#: for 1,913,432 histories of the poker family), with a margin
COMPILE_BYTES_PER_HISTORY = 500
#: share of the available memory a compile or a solve may use
SHARE = 0.7


def available_memory() -> int:
    """Bytes of memory available now (``MemAvailable`` of /proc/meminfo; 8 GiB where unknown)."""
    try:
        with open("/proc/meminfo") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    return 8 * 1024 ** 3


def memory_limit(max_bytes: int | None = None) -> int:
    """The bytes a compile or a solve may take: ``max_bytes`` if given, else 70 % of what is available."""
    return int(SHARE * available_memory()) if max_bytes is None else int(max_bytes)
