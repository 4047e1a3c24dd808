"""Numba's compiles, as the command line sees them.

zerosum's kernels are compiled by Numba for the machine on their first use and cached on disk
(``cache=True``: next to the sources in ``__pycache__``, or under ``NUMBA_CACHE_DIR``); a run
that finds them cached loads them in a fraction of a second.  A run that does not spends 2-60 s
compiling, which used to be silent and to count as iterations in the duration estimate.  This
module:

* says so, once per process, on stderr, the moment Numba starts compiling a cacheable kernel
  (a cache miss: a warm cache never says it): ``compiling the kernels for this machine, once:
  about N s``, N from :data:`COMPILE_SECONDS` for the path of that first kernel;
* counts the seconds spent compiling (:func:`compile_seconds`), so that the duration estimate of
  :mod:`.runs` times the iterations only;
* makes Numba's start lighter (:mod:`.numba_start`: what a warm run does not use is not loaded).

Both come from Numba's own compile events (``numba.core.event``, "numba:compile": triggered on
a cache miss only, after the disk cache was tried), registered when Numba is first imported
(:func:`install`, from the console script's ``main``), so commands that never load Numba do not
pay for importing it.
"""

from __future__ import annotations

import sys
import time

#: seconds to compile a path's kernels on an empty cache, measured on a 2-core machine (one
#: thread; ``NUMBA_CACHE_DIR`` a new folder), by the package of the first kernel that compiles:
#: the public tree (hold'em spots start with the hand strengths of ``zerosum.poker``): 36-98 s of
#: CPU measured 2026-12-06 (a river 36, postflop-solver's example turn 64-74, ``solve poker --param
#: raises=20`` 69, the turn with two threads and int16 98; wall 1.4-5x that at a load of 2-9), so
#: 60 s is within 2x of each; the history tree's solvers (``zerosum.core``,
#: ``zerosum.solvers``): Leduc CFR+ 1.3 s, Kuhn MMD 5 s; Connect Four's search; the learning
#: simulator.
COMPILE_SECONDS = (
    ("zerosum.public_tree", 60),
    ("zerosum.poker", 60),
    ("zerosum.perfect", 10),
    ("zerosum.learning", 10),
    ("zerosum.solvers", 3),
    ("zerosum.core", 3),
)
#: any other kernel's package
OTHER_SECONDS = 10

_state = {"seconds": 0.0, "depth": 0, "since": 0.0, "said": False, "installed": False}


def compile_seconds() -> float:
    """Seconds this process has spent in Numba's compiles so far (one in flight included)."""
    extra = time.perf_counter() - _state["since"] if _state["depth"] else 0.0
    return _state["seconds"] + extra


def expected_seconds(module: str) -> int:
    """The table's figure for the path whose first compiled kernel is in ``module``."""
    for package, seconds in COMPILE_SECONDS:
        if module == package or module.startswith(package + "."):
            return seconds
    return OTHER_SECONDS


def notice(module: str = "") -> str:
    return (f"compiling the kernels for this machine, once: about {expected_seconds(module)} s "
            f"(Numba caches them; later runs start at once)")


def _cacheable(dispatcher) -> bool:
    """A kernel with ``cache=True`` (Numba's ``FunctionCache``), not one of Numba's own overloads
    compiled inside it, nor an uncached function (compiled on every run: nothing to announce)."""
    from numba.core.caching import NullCache

    cache = getattr(dispatcher, "_cache", None)
    return cache is not None and not isinstance(cache, NullCache)


def _say(text: str) -> None:
    import contextlib

    import click

    with contextlib.suppress(Exception):  # a notice must never break a compile
        click.echo(text, err=True)


def _register() -> None:
    """Listen to Numba's compile events (once per process)."""
    if _state["installed"]:
        return
    from numba.core import event

    class CompileListener(event.Listener):
        def on_start(self, ev):
            if _state["depth"] == 0:
                _state["since"] = time.perf_counter()
            _state["depth"] += 1
            if not _state["said"]:
                try:
                    dispatcher = ev.data["dispatcher"]
                    cacheable = _cacheable(dispatcher)
                    module = getattr(dispatcher.py_func, "__module__", "") or ""
                except Exception:  # noqa: BLE001
                    cacheable, module = False, ""
                if cacheable:
                    _state["said"] = True
                    _say(notice(module))

        def on_end(self, ev):
            _state["depth"] = max(0, _state["depth"] - 1)
            if _state["depth"] == 0:
                _state["seconds"] += time.perf_counter() - _state["since"]

    event.register("numba:compile", CompileListener())
    _state["installed"] = True


class _AfterNumbaImport:
    """A ``sys.meta_path`` finder that, when ``numba`` is first imported, lets the usual finders
    find it and registers the listener right after its module has run (so that importing zerosum's
    CLI does not import Numba)."""

    def find_spec(self, name, path=None, target=None):
        if name != "numba":
            return None
        if self in sys.meta_path:
            sys.meta_path.remove(self)
        try:
            import importlib.util

            spec = importlib.util.find_spec(name)  # the remaining finders (Numba's, or the BLAS check's)
            loader = getattr(spec, "loader", None) if spec is not None else None
            run = getattr(loader, "exec_module", None)
            if run is None:
                return None

            def exec_module(module):
                import contextlib

                from .numba_start import after_import, holding_back_yaml

                with holding_back_yaml():
                    run(module)
                with contextlib.suppress(Exception):  # Numba changed: no notice, nothing broken
                    _register()
                after_import()

            loader.exec_module = exec_module
            return spec
        except Exception:  # noqa: BLE001 -- the ordinary import, without the notice
            return None


def install() -> None:
    """Announce this process's compiles: now if Numba is loaded, else when it is first imported."""
    if "numba" in sys.modules:
        import contextlib

        from .numba_start import after_import

        with contextlib.suppress(Exception):
            _register()
        after_import()
    elif not any(isinstance(f, _AfterNumbaImport) for f in sys.meta_path):
        sys.meta_path.insert(0, _AfterNumbaImport())
