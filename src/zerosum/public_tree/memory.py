"""Give the memory that a build's temporaries held back to the operating system.

glibc's ``malloc`` keeps freed blocks of its heap resident for the next allocation: the public
tree's build and the solver's set-up free tens of MiB of NumPy temporaries and Python objects
(the breadth-first expansion's int64 node arrays, the showdown lists' wider copies, the terminal
batches' plan), and the solver's sums, allocated next, come from fresh pages (``mmap``), so the
freed blocks would stay in the process's resident memory, and in its peak, for the whole solve.
:func:`release_freed` hands them back (``malloc_trim``); it changes no figure, and does nothing
where the C library has no ``malloc_trim`` (macOS, Windows, musl).

The solver's sums come from :func:`resident_zeros`: one block of fresh pages, asked for as huge
pages where the system gives them (Linux's transparent huge pages) and written once on the
thread that makes them.  Left to the first pass, each 4 KiB page faulted twice (read as the
shared zero page, then written), in the pass's threads at once: the first iteration of the
example turn (postflop-solver's) took 34 ms on two threads instead of 6 (6,400 faults, the
threads contending for the process's page tables), 18 ms on one instead of 10.

May import: the standard library, numpy.
"""

from __future__ import annotations

import ctypes
import mmap

import numpy as np

#: a transparent huge page (x86-64, arm64 with 4 KiB pages): a block at least this large is aligned to it
HUGE_PAGE = 2 << 20
#: whether blocks are advised to use huge pages (:func:`resident_zeros`; NumPy advises its own of 4 MiB
#: and more alike, so the flop's sums had them already)
HUGE_PAGES = True
#: the page every write below touches once
PAGE = mmap.PAGESIZE

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


def resident_zeros(sizes, dtype, now: bool = True) -> list[np.ndarray]:
    """Zeroed one-dimensional arrays of ``sizes`` elements of ``dtype``, in one anonymous block
    (``mmap``, each array 64-byte aligned in it) aligned to a huge page and advised to use them
    (``MADV_HUGEPAGE``; nothing where the system has no such advice), every page of which is
    written here (``now``) or by :func:`make_resident` later, so that the passes that read and
    write the arrays find them resident.  Small blocks (under a huge page) are plain
    ``np.zeros``.  The figures are those of ``np.zeros``; only where the pages are made, and
    their size, change."""
    dtype = np.dtype(dtype)
    offsets, total = [], 0
    for n in sizes:
        offsets.append(total)
        total += -(-int(n) * dtype.itemsize // 64) * 64
    if total < HUGE_PAGE or not hasattr(mmap, "MAP_ANONYMOUS"):  # (small, or no anonymous mmap: Windows)
        arrays = [np.zeros(int(n), dtype=dtype) for n in sizes]
    else:
        block = mmap.mmap(-1, total + HUGE_PAGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)  # zero-filled; + alignment
        if HUGE_PAGES and hasattr(block, "madvise") and hasattr(mmap, "MADV_HUGEPAGE"):
            try:
                block.madvise(mmap.MADV_HUGEPAGE)
            except OSError:  # (a kernel without transparent huge pages)
                pass
        start = -np.frombuffer(block, dtype=np.uint8).ctypes.data % HUGE_PAGE
        arrays = [np.frombuffer(block, dtype=dtype, count=int(n), offset=start + o) for n, o in zip(sizes, offsets)]
    if now:
        make_resident(arrays)
    return arrays


def make_resident(arrays) -> None:
    """Write a zero into every page of each array, on this thread: arrays of
    :func:`resident_zeros` (``now=False``) not yet written, whose figures this leaves as they are.
    Later than the arrays where the set-up's temporaries are freed in between: the process's
    peak is then the sums without them (TexasSolver's flop: 45 MiB less)."""
    for a in arrays:
        if a.size:
            a.reshape(-1).view(np.uint8)[::PAGE] = 0
