"""``zerosum warm-up``: compile and cache zerosum's Numba kernels for this machine now (``make``
runs it once, after installing), so that the first real solve starts at once.

It runs the real ``zerosum solve`` in this process, output discarded, on small games that take the
paths a first solve takes: the history tree (Kuhn poker: CFR+ and MMD, ``make run``'s solver and
a last-iterate one) and the public tree on hold'em spots (a river, a turn and a flop, with the
default variant, DCFR, in float32 as real spots run).  Numba caches each kernel per argument
types, not per game, so the small games compile what the big ones use.  Other variants
(:data:`MORE_RUNS`: a small spot's float64, two threads, the poker family, a
saved solution written and read with ``evaluate --node``, 16-bit storage, the average in 16 bits)
are compiled here too;
the others (the predictive variants) compile on their first use, which says so.
"""

from __future__ import annotations

import contextlib
import io
import json
import os
import tempfile
import time

import click

#: hold'em trees past a size (every spot people solve) run in float32 (``FLOAT32_FROM`` of
#: :mod:`zerosum.public_tree.solver`): the small spots below ask for it, so that they compile the
#: kernels a real spot runs (Numba compiles per argument types: float64 would compile others)
_F32 = ["--option", "dtype=float32"]
#: (what, the ``zerosum`` arguments; ``{spot:NAME}`` is the path of :data:`SPOTS`' spot NAME)
RUNS = (
    ("the history tree: CFR+", ["solve", "kuhn", "-a", "cfr+", "-n", "20", "--json"]),
    ("the history tree: MMD", ["solve", "kuhn", "-a", "mmd", "-n", "20", "--json"]),
    ("the public tree: a hold'em river", ["solve", "holdem", "--spot", "{spot:river}", "-n", "3", *_F32, "--json"]),
    ("the public tree: a hold'em turn", ["solve", "holdem", "--spot", "{spot:turn}", "-n", "3", *_F32, "--json"]),
    ("the public tree: a hold'em flop", ["solve", "holdem", "--spot", "{spot:flop}", "-n", "2", *_F32, "--json"]),
)
#: the other argument types the public tree's pass runs with, compiled once here rather than on
#: their first use (and, in the test suite's two processes, twice at once): small spots' float64,
#: two threads (the cut's tasks), the poker family (its rank evaluator), and a solution file's 16-bit entries
MORE_RUNS = (
    ("the public tree: a small spot in float64", ["solve", "holdem", "--spot", "{spot:turn}", "-n", "2",
                                                   "--option", "dtype=float64", "--json"]),
    ("the public tree: two threads", ["solve", "holdem", "--spot", "{spot:turn}", "-n", "2", *_F32, "--option",
                                      "threads=2", "--json"]),
    ("the public tree: the poker family", ["solve", "poker", "-n", "3", "--json"]),
    # 16-bit storage: its own types (int16 and uint16 sums, node scales), which two test files compiled
    # once each in the test suite's two processes (about 30 s apiece)
    ("the public tree: 16-bit storage", ["solve", "holdem", "--spot", "{spot:turn}", "-n", "2", "--option",
                                         "dtype=int16", "--json"]),
    # the average in 16 bits (a flop's default: public_tree.solver.AVG16_FROM), in two threads: the
    # float32 regrets beside uint16 sums, types of their own
    ("the public tree: the average in 16 bits", ["solve", "holdem", "--spot", "{spot:turn}", "-n", "2", "--option",
                                                 "dtype=avg16", "--option", "threads=2", "--json"]),
    # a saved solution (.zsp): its evaluation when written and evaluate --node read the 16-bit
    # entries themselves (a pass of its own types: 11 s of CPU on the first evaluate --node otherwise)
    ("the public tree: a saved solution", ["solve", "holdem", "--spot", "{spot:river}", "-n", "2", "--save",
                                           "{folder}/river.zsp", "--json"]),
    ("the public tree: evaluate --node", ["evaluate", "holdem", "{folder}/river.zsp", "--node", "::", "--json"]),
)

_STREET = {"bet": ["60%", "e", "a"], "raise": ["2.5x"]}
_RIVER = {"bet": ["60%", "e", "a"], "raise": ["2.5x"], "donk": ["50%"]}
#: small spots in the format of ``zerosum solve holdem --spot`` (docs/cli.md), with the example
#: turn's bet sizes (postflop-solver's examples/basic.rs) and ranges small enough to solve at once
SPOTS = {
    "river": {"board": "Td9d6hQc2s", "pot": 200, "stack": 900,
              "ranges": ["99+,AQs+,KQs,JTs,T9s,AQo+", "88+,ATs+,KTs+,QTs+,J9s+,T8s+,AJo+"],
              "betting": "no-limit", "streets": {"river": _STREET}},
    "turn": {"board": "Td9d6hQc", "pot": 200, "stack": 900,
             "ranges": ["99+,AQs+,KQs,JTs,T9s,AQo+", "88+,ATs+,KTs+,QTs+,J9s+,T8s+,AJo+"],
             "betting": "no-limit", "streets": {"turn": _STREET, "river": _RIVER}},
    "flop": {"board": "QsJh2h", "pot": 100, "stack": 200,
             "ranges": ["QQ+,AKs,QJs", "JJ,TT,AQs,KQs"],
             "betting": "no-limit", "streets": {"flop": {"bet": ["50%"]}, "turn": {"bet": ["a"]},
                                                 "river": {"bet": ["a"]}}},
}


#: the runs in two processes at once (Numba compiles in one thread): the history tree and the
#: poker family beside the hold'em spots' passes
FIRST_PART = frozenset({"the history tree: CFR+", "the history tree: MMD", "the public tree: the poker family",
                        "the public tree: 16-bit storage", "the public tree: the average in 16 bits"})


def _part(runs: tuple, part: int) -> tuple:
    """The runs of part 1 (:data:`FIRST_PART`) or part 2 (the others)."""
    return tuple(r for r in runs if (r[0] in FIRST_PART) == (part == 1))


@click.command("warm-up")
@click.option("--part", type=click.IntRange(1, 2), default=None, hidden=True,
              help="Run one of the two halves in this process (the command runs both at once).")
def warm_up(part):
    """Compile zerosum's kernels for this machine and cache them (about a minute and a half on
    two cores; nothing to do when they are cached already).

    `make` runs it once after installing, so that a new clone's first hold'em solve starts at
    once.  It solves small games through the real `zerosum solve` (output discarded): the history
    tree (Kuhn: CFR+, MMD) and the public tree (hold'em river, turn and flop spots, a small spot in
    float64, two threads, the poker family), in two processes at once.  Numba keeps the compiled
    kernels in __pycache__ next to the sources, or under NUMBA_CACHE_DIR if set.
    """
    from .compiling import _state, compile_seconds

    _state["said"] = True  # this command says what it compiles itself
    start, compiled = time.perf_counter(), compile_seconds()
    if part is not None:
        _run(_part(RUNS + MORE_RUNS, part))
        return
    import subprocess
    import sys

    click.echo("zerosum warm-up: compiling the kernels for this machine, once (about 1.5 min on two cores; "
               "seconds when they are cached)", err=True)
    command = [sys.executable, "-c", "from zerosum.cli import main; main()", "warm-up", "--part"]
    other = subprocess.Popen([*command, "2"])  # (its lines go to the same stderr)
    _run(_part(RUNS + MORE_RUNS, 1))
    other.wait()
    click.echo(f"kernels ready: {time.perf_counter() - start:.1f} s ({compile_seconds() - compiled:.1f} s compiling "
               f"in this process)", err=True)


def _run(runs: tuple) -> None:
    """Each run through the real ``zerosum solve`` in this process, its output discarded."""
    from . import cli

    with tempfile.TemporaryDirectory(prefix="zerosum-warm-up-") as folder:
        paths = {}
        for name, spot in SPOTS.items():
            paths[name] = os.path.join(folder, f"{name}.json")
            with open(paths[name], "w") as f:
                json.dump({"name": f"warm-up-{name}", **spot}, f)
        for what, args in runs:
            args = [paths[a[len("{spot:"):-1]] if a.startswith("{spot:") else a.replace("{folder}", folder)
                    for a in args]
            t = time.perf_counter()
            out, err = io.StringIO(), io.StringIO()
            try:
                with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
                    cli.main(args, prog_name="zerosum", standalone_mode=False)
            except Exception as e:  # noqa: BLE001 -- a failed warm-up leaves the first run to compile
                message = str(e) or type(e).__name__
                click.echo(f"  {what}: failed ({message}); its kernels compile on first use", err=True)
                continue
            click.echo(f"  {what}: {time.perf_counter() - t:.1f} s", err=True)
