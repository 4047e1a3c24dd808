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


def run_iterations(solver, iterations: int, marks, label: str, quiet: bool, curve_marks=()):
    """Run ``solver`` to ``iterations`` with a progress bar; returns (every checkpoint row, the rows
    at ``marks``, solve seconds).  ``curve_marks``: more checkpoints for a plot's curve."""
    t0 = time.perf_counter()
    with progress_bar(iterations - solver.iteration, label, enabled=not quiet, unit="iterations") as advance:
        curve = solver.run(iterations, sorted(set(marks) | set(curve_marks)), progress=advance)
    keep = set(marks)
    return curve, [row for row in curve if row["iteration"] in keep], time.perf_counter() - t0


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
    """The average policy as JSON; a network solver's networks next to it (``.npz``)."""
    policy.save(path)
    if hasattr(solver, "networks"):
        from ..deep.network_policy import network_path, save_networks

        save_networks(network_path(path), solver.networks())


def write_outputs(result: dict, solver, policy, state_path=None, save_path=None, plot=None) -> list[str]:
    """Write the state, the policy and the plot (``plot``: (path, rows, title)) where asked, adding
    ``state_saved``, ``saved`` and ``plot`` to ``result``; returns the messages of those that failed."""
    from ..plots import convergence

    failed = []
    plot_path, curve, title = plot if plot else (None, None, None)
    for key, path, write in (
            ("state_saved", state_path, lambda: save_state(solver, state_path)),
            ("saved", save_path, lambda: save_policy(solver, policy, save_path)),
            ("plot", plot_path, lambda: convergence(curve, plot_path, title))):
        if path:
            try:
                write()
                result[key] = path
            except ZerosumError as e:
                failed.append(str(e))
    return failed
