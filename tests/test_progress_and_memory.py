"""The neutral progress module reports to the installed reporter only, and restores the one before;
the one memory limit is 70 % of what is available unless the caller gives a number."""

from contextlib import contextmanager

from zerosum import progress
from zerosum.core import memory


class Recorder:
    def __init__(self):
        self.seen = []

    @contextmanager
    def counted(self, total, description, enabled, unit):
        self.seen.append(("counted", total, description, enabled, unit))
        yield lambda n=1: self.seen.append(("advance", n))

    @contextmanager
    def status(self, description, enabled):
        self.seen.append(("status", description, enabled))
        yield lambda text: self.seen.append(("update", text))


def test_progress_goes_to_the_installed_reporter_and_nowhere_without_one():
    with progress.counted(3, "silent") as advance:   # no reporter: nothing happens, nothing fails
        advance(2)
    outer, inner = Recorder(), Recorder()
    with progress.reporting(outer):
        with progress.reporting(inner), progress.counted(5, "work", enabled=False, unit="steps") as advance:
            advance(2)
        assert progress.reporter() is outer                       # the previous one restored
        with progress.status("build") as update:
            update("4 nodes")
    assert progress.reporter() is None
    assert inner.seen == [("counted", 5, "work", False, "steps"), ("advance", 2)]
    assert outer.seen == [("status", "build", True), ("update", "4 nodes")]


def test_memory_limit_is_seventy_percent_of_what_is_available(monkeypatch):
    monkeypatch.setattr(memory, "available_memory", lambda: 10 ** 9)
    assert memory.memory_limit() == 700_000_000
    assert memory.memory_limit(12345) == 12345
