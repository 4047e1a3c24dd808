"""The public tree's labels made when asked (:class:`zerosum.public_tree.form.NodeLabels`) read as
the tuple of strings they stand for, and :func:`zerosum.public_tree.memory.release_freed` gives
freed heap memory back to the operating system, and :func:`~zerosum.public_tree.memory.resident_zeros`
makes zeroed arrays whose pages are already there."""

from __future__ import annotations

import numpy as np
import pytest

from zerosum.games import load_game
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import NodeLabels
from zerosum.public_tree.memory import HUGE_PAGE, PAGE, make_resident, release_freed, resident_zeros

# two parts whose entries can spell one string two ways ("a" + "bc" and "ab" + "c")
PREFIX, SUFFIX = ("a", "ab", "x"), ("bc", "c", "", "yz")
P_INDEX, S_INDEX = [2, 1, 0, 0, 2, 1, 1], [3, 0, 0, 2, 2, 1, 2]


def test_labels_read_as_the_tuple_they_stand_for():
    labels = NodeLabels((PREFIX, P_INDEX), (SUFFIX, S_INDEX))
    plain = tuple(PREFIX[p] + SUFFIX[s] for p, s in zip(P_INDEX, S_INDEX))  # ('xyz', 'abbc', 'abc', 'a', 'x', 'abc', 'ab')
    assert len(labels) == len(plain) and tuple(labels) == plain and labels == plain
    assert [labels[n] for n in range(-len(plain), len(plain))] == list(plain + plain)
    assert labels[1:6:2] == plain[1:6:2]
    for value in set(plain):  # the first node of each label, whichever way its parts spell it
        assert value in labels and labels.index(value) == plain.index(value)
    assert labels.index("abc", 3) == 5 and "b" not in labels and "ax" not in labels
    with pytest.raises(ValueError):
        labels.index("abc", 6)
    with pytest.raises(IndexError):
        labels[len(plain)]
    one = NodeLabels((("c", "b"), [1, 0, 1]))  # one part: the table's items themselves
    assert tuple(one) == ("b", "c", "b") and one.index("b") == 0


def test_a_holdem_trees_labels_are_unique_and_found_again():
    tree = public_tree(load_game("holdem", board="Ks7d2c9h", raises=1))
    labels = tree.labels
    assert isinstance(labels, NodeLabels) and len(labels) == tree.n_nodes
    listed = list(labels)  # the iterator's path against indexing, one node at a time
    assert listed == [labels[n] for n in range(tree.n_nodes)]
    assert len(set(listed)) == tree.n_nodes  # a label names one node
    for n in range(0, tree.n_nodes, 97):
        assert labels.index(listed[n]) == n


def _resident_kib() -> int:
    with open("/proc/self/status") as f:
        return next(int(line.split()[1]) for line in f if line.startswith("VmRSS"))


def test_release_freed_gives_freed_heap_memory_back():
    if not release_freed():
        pytest.skip("this C library has no malloc_trim: release_freed does nothing here, as documented")
    blocks = [bytearray(4000) for _ in range(12_000)]  # ~48 MB of heap blocks (malloc, not mmap)
    keep = blocks[::64]  # every 64th stays, so the heap's top cannot shrink on its own
    del blocks
    before = _resident_kib()
    assert release_freed()
    after = _resident_kib()
    assert before - after > 20_000, (before, after)  # most of the ~47 MB freed in the middle went back
    assert len(keep) == 188 and all(len(b) == 4000 for b in keep)
    assert np.all(np.frombuffer(keep[0], dtype=np.uint8) == 0)


def _faults() -> int:
    import resource

    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


@pytest.mark.parametrize("sizes", [[10, 1000, 3], [700_001, 1_500_000, 700_001, 1_500_000]])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("now", [True, False])
def test_resident_zeros_are_disjoint_aligned_zeros_already_in_memory(sizes, dtype, now):
    arrays = resident_zeros(sizes, dtype, now=now)
    if not now:
        make_resident(arrays)
    assert [a.shape for a in arrays] == [(n,) for n in sizes] and all(a.dtype == dtype for a in arrays)
    assert all(a.flags.writeable and a.flags.c_contiguous and not a.any() for a in arrays)
    if sum(sizes) * np.dtype(dtype).itemsize >= HUGE_PAGE:  # one block: cache-line aligned, its pages made
        assert all(a.ctypes.data % 64 == 0 for a in arrays)
        before = _faults()
        for a in arrays:
            a.view(np.uint8)[::PAGE] = 1  # every page written: none of them new
        assert _faults() - before < 50, _faults() - before
    for i, a in enumerate(arrays):  # each its own memory: writing one leaves the others as they were
        a[:] = i + 1
    assert [float(a.min()) for a in arrays] == [float(a.max()) for a in arrays] == [i + 1.0 for i in range(len(sizes))]
