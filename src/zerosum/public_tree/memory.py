"""Give the memory that a build's temporaries held back to the operating system.

glibc's ``malloc`` keeps freed blocks of its heap resident for the next allocation: the public
tree's build and the solver's set-up free tens of MiB of NumPy temporaries and Python objects
(the breadth-first expansion's int64 node arrays, the showdown lists' wider copies, the terminal
batches' plan), and the solver's sums, allocated next, come from fresh pages (``mmap``), so the
freed blocks would stay in the process's resident memory, and in its peak, for the whole solve.
:func:`release_freed` hands them back (``malloc_trim``); it changes no figure, and does nothing
where the C library has no ``malloc_trim`` (macOS, Windows, musl).

May import: the standard library.
"""

from __future__ import annotations

import ctypes

_TRIM = None  # the C library's malloc_trim, looked up once (False: there is none)


def release_freed() -> bool:
    """Return the C heap's free memory to the operating system (glibc's ``malloc_trim(0)``);
    whether it could.  A few milliseconds; called once the tree is built and once the solver's
    working memory is made."""
    global _TRIM
    if _TRIM is None:
        try:
            _TRIM = ctypes.CDLL(None).malloc_trim  # the process's own symbols: the C library's
            _TRIM.argtypes, _TRIM.restype = [ctypes.c_size_t], ctypes.c_int
        except (OSError, AttributeError, TypeError):  # no such function, or no CDLL(None) (Windows)
            _TRIM = False
    if _TRIM is False:
        return False
    _TRIM(0)
    return True
