"""What every ``zerosum solve`` path shares, whichever the form (history tree, public tree, the
public tree split over Ray): resuming a saved run, running it with progress, the result dict and
the files written at the end.

One resume check (:func:`resume`), one run loop with progress (:func:`run_iterations`), one result
builder (:func:`solve_result`) and one writer of the output files (:func:`write_outputs`: a file
that cannot be written at the end is reported after the results, which are worth having anyway).
"""

from __future__ import annotations

import time

from ..errors import ZerosumError
from .common import load_state, progress_bar, save_state


def resume(solver, resume_path: str | None, iterations: int, seed=None) -> None:
    """Load ``resume_path`` (if any) into ``solver``; refuse another seed than the saved run's and a
    run already at ``iterations``."""
    if not resume_path:
        return
    load_state(solver, resume_path)
    if seed is not None and getattr(solver, "seed", seed) != seed:
        raise ZerosumError(f"the saved run used --seed {solver.seed}, not {seed}: a resumed run keeps its "
                           f"seed (leave --seed out, or start afresh)")
    if solver.iteration >= iterations:
        raise ZerosumError(f"the saved run is already at iteration {solver.iteration}; ask for more --iterations")


class StopRequests:
    """While a run is in flight: the first Ctrl-C (SIGINT) asks the run loop to stop after the step in
    flight (so the state, the policy and the results so far can still be written, and the command
    exits 130); a second one aborts at once (KeyboardInterrupt, as without this handler).

    Used as a context manager around ``solver.run``; ``self()`` is the loop's ``stop`` callable.
    Outside the main thread (where Python cannot install signal handlers) it does nothing.
    """

    def __init__(self, seconds=None, target=None, strategy="average"):
        self.reason = None
        self._previous = None
        self.deadline = None if seconds is None else time.perf_counter() + seconds
        self.target, self.key = target, f"nash_conv_{strategy}"

    def __call__(self, row=None):
        """The reason to stop now, or None: a Ctrl-C, the --time deadline passed, or (on a
        checkpoint's row) the --target-nashconv reached by the method's result strategy."""
        if self.reason is None and self.deadline is not None and time.perf_counter() >= self.deadline:
            self.reason = "time"
        if self.reason is None and row is not None and self.target is not None \
                and row.get(self.key) is not None and row[self.key] <= self.target:
            self.reason = "target"
        return self.reason

    def _handle(self, signum, frame):
        import signal

        self.reason = "interrupt"
        signal.signal(signal.SIGINT, signal.default_int_handler)  # the second Ctrl-C aborts

    def __enter__(self):
        import signal
        import threading

        if threading.current_thread() is threading.main_thread():
            self._previous = signal.signal(signal.SIGINT, self._handle)
        return self

    def __exit__(self, *exc):
        import signal

        if self._previous is not None:
            signal.signal(signal.SIGINT, self._previous)
        return False


def run_iterations(solver, iterations: int, marks, label: str, quiet: bool, curve_marks=(), save_every=None,
                   state_path=None, seconds=None, target=None):
    """Run ``solver`` to ``iterations`` with a progress bar; returns (every checkpoint row, the rows
    at ``marks``, solve seconds).  ``curve_marks``: more checkpoints for a plot's curve.

    A first Ctrl-C stops the run after the step in flight (:class:`StopRequests`): ``solver.stopped``
    is then ``"interrupt"``, ``solver.iteration`` the iteration reached, and the last row (always
    kept) is the checkpoint there; the caller writes what it was asked to and exits 130
    (:func:`finish_interrupted`).

    ``seconds`` (--time) and ``target`` (--target-nashconv, judged at checkpoints on the method's
    result strategy) also stop the run, with ``solver.stopped`` "time" or "target" (exit 0).

    ``save_every=N`` with ``state_path``: the state is also written (atomically, so a crash mid-write
    keeps the previous one) each time the run passes a multiple of N iterations, between two steps
    where the solver is consistent; counted in iterations rather than seconds so that the saved
    iterations do not depend on the machine's speed."""
    import inspect

    if (seconds is not None or target is not None) and "stop" not in inspect.signature(solver.run).parameters:
        raise ZerosumError(f"{getattr(solver, 'name', 'this solver')} has its own run loop, which does not take "
                           f"--time or --target-nashconv; set -n instead")
    from .numba_start import collect_again

    collect_again()  # (the start's objects frozen: no collection during the iterations scans them)
    t0 = time.perf_counter()
    solver.stopped = None
    with progress_bar(iterations - solver.iteration, label, enabled=not quiet, unit="iterations") as advance, \
            StopRequests(seconds, target, getattr(solver, "result_strategy", "average")) as stop:
        kwargs = {"stop": stop} if "stop" in inspect.signature(solver.run).parameters else {}
        if seconds is None:  # with --time the user has said how long
            advance = _with_estimate(advance, iterations - solver.iteration, t0)
        if save_every and state_path:
            show, last = advance, [solver.iteration // save_every]

            def advance(n=1):
                show(n)
                if solver.iteration // save_every > last[0]:
                    last[0] = solver.iteration // save_every
                    save_state(solver, state_path)
        curve = solver.run(iterations, sorted(set(marks) | set(curve_marks)), progress=advance, **kwargs)
    keep = set(marks)
    rows = [row for row in curve if row["iteration"] in keep]
    if getattr(solver, "stopped", None) and (not rows or rows[-1] is not curve[-1]):
        rows.append(curve[-1])  # the results so far
    return curve, rows, time.perf_counter() - t0


#: runs expected to take longer than this say so on stderr once their rate is known (the
#: environment's ``ZEROSUM_ESTIMATE_SECONDS`` overrides it: 0 always says it)
LONG_RUN_SECONDS = 60
#: the rate is measured over a second at least, from the end of the first step (10 or 50
#: iterations: the kernels compiled or loaded there) and less any compiling after it (a
#: checkpoint's first evaluation): with the first step in, a cold cache's 1-60 s of compiling
#: counted as iterations (``make run``: "about 2 min" for a run of 1.3 s; postflop-solver's
#: example turn: "about 34 min" for 53 s)
ESTIMATE_AFTER_SECONDS = 1.0


def long_run_seconds() -> float:
    import os

    try:
        return float(os.environ.get("ZEROSUM_ESTIMATE_SECONDS", LONG_RUN_SECONDS))
    except ValueError:
        return LONG_RUN_SECONDS


def _with_estimate(advance, total: int, t0: float):
    """``advance`` that, once the iterations after the first step have run for a second (Numba's
    compiles excluded: :func:`.compiling.compile_seconds`), prints one stderr line with the
    expected duration of the ``total`` iterations when it is past :func:`long_run_seconds`
    (never on stdout: --json stays one object).  ``t0``: when the run started (unused: the first
    step, with the kernels' compile or load, is not timed)."""
    import click

    from .compiling import compile_seconds

    done = [0]
    first = {}  # after the first step: its time, iterations and compile seconds so far
    decided = [False]

    def wrapped(n=1):
        advance(n)
        done[0] += n
        if decided[0]:
            return
        now = time.perf_counter()
        if not first:
            first.update(at=now, done=done[0], compiled=compile_seconds())
            return
        elapsed = now - first["at"] - (compile_seconds() - first["compiled"])
        timed = done[0] - first["done"]
        if elapsed < ESTIMATE_AFTER_SECONDS or timed <= 0:
            return
        decided[0] = True
        expected = elapsed * total / timed
        if expected > long_run_seconds() and total > done[0]:
            click.echo(f"expected duration: about {_duration(expected)} for {total:,} iterations (timed on "
                       f"iterations {first['done'] + 1:,}-{done[0]:,}, compiling excluded); Ctrl-C stops early "
                       f"and keeps the results so far", err=True)
    return wrapped


def _duration(seconds: float) -> str:
    if seconds < 10:
        return f"{seconds:.1f} s"
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


def finish_interrupted(result: dict) -> None:
    """After an interrupted run's results are shown: one stderr line saying what was kept and how to
    go on, then exit 130 (the shell's code for Ctrl-C)."""
    import click

    why = {"time": "--time reached", "target": "--target-nashconv reached"}.get(result.get("stopped"))
    if result.get("stopped") == "target" and result.get("target_pot_fraction") is not None:
        reached = result.get("exploitability_pot_fraction")
        why = (f"--target {100 * result['target_pot_fraction']:g}% of the pot reached" +
               ("" if reached is None else f" (exploitability {100 * reached:.3g} % of the pot)"))
    if why:  # a stopping rule met: success
        click.echo(f"stopped at iteration {result['iterations']:,}: {why}", err=True)
    if result.get("stopped") != "interrupt":
        return
    kept = ", ".join(result[k] for k in ("state_saved", "saved", "plot") if result.get(k))
    how = (f"; continue with --resume {result['state_saved']}" if result.get("state_saved")
           else "; add --save-state FILE to be able to resume")
    click.echo(f"interrupted at iteration {result['iterations']:,}" + (f": wrote {kept}" if kept else "") + how,
               err=True)
    raise click.exceptions.Exit(130)


def solve_result(game, algorithm: str, updates, iterations, rows, first_actions: dict, sizes: dict,
                 compile_seconds: float, solve_seconds: float, **extra) -> dict:
    """The JSON object of ``zerosum solve`` (fields in docs/cli.md): the same keys on every form,
    then the form's own (``extra``)."""
    return {
        "game": game.id,
        "algorithm": algorithm,
        "updates": updates,
        "iterations": iterations,
        "value": rows[-1]["value_average"],
        "nash_conv": rows[-1]["nash_conv_average"],
        "exploitability": rows[-1]["nash_conv_average"] / 2,
        "checkpoints": rows,
        "first_actions": first_actions,
        "sizes": sizes,
        "seconds": {"compile": compile_seconds, "solve": solve_seconds},
        **extra,
    }


def save_policy(solver, policy, path) -> None:
    """The average policy as JSON (a public-tree policy under a ``.zsp`` name: a solution file); a
    network solver's networks next to it (``.npz``)."""
    from ..files import check_policy_path
    from ..solutions.saved import save_policy as write_policy

    check_policy_path(path)  # never JSON under a Gambit name, whichever command got here
    write_policy(policy, path)
    if hasattr(solver, "networks"):
        from ..deep.network_policy import network_path, save_networks

        save_networks(network_path(path), solver.networks())


def _save_current(policy, path) -> None:
    """``--save-current``: JSON, or a solution file under a ``.zsp`` name."""
    from ..solutions.saved import save_policy as write_policy

    write_policy(policy, path)


def _plot(curve, path, title) -> None:
    from ..plots import convergence  # (matplotlib's module, imported where a plot is asked for only)

    convergence(curve, path, title)


def write_outputs(result: dict, solver, policy, state_path=None, save_path=None, plot=None,
                  current=None) -> list[str]:
    """Write the state, the policy and the plot (``plot``: (path, rows, title)) where asked, adding
    ``state_saved``, ``saved`` and ``plot`` to ``result``; returns the messages of those that failed.
    ``current``: (path, a function returning the current policy) for ``--save-current``
    (``saved_current``)."""
    failed = []
    plot_path, curve, title = plot if plot else (None, None, None)
    current_path, current_policy = current if current else (None, None)
    for key, path, write in (
            ("state_saved", state_path, lambda: save_state(solver, state_path)),
            ("saved", save_path, lambda: save_policy(solver, policy, save_path)),
            ("saved_current", current_path, lambda: _save_current(current_policy(), current_path)),
            ("plot", plot_path, lambda: _plot(curve, plot_path, title))):
        if path:
            try:
                write()
                result[key] = path
            except ZerosumError as e:
                failed.append(str(e))
    return failed
