"""``zerosum solve GAME --ray auto|ADDRESS [--workers N]``: the public-tree solve, split over Ray.

The result has the public-tree solve's fields (see :mod:`zerosum.cli.public_tree`) plus
``workers``, ``bytes_per_iteration`` (reach vectors sent and value vectors received by the driver,
per iteration), ``compute_s`` (seconds each worker spent in its passes), ``driver_s`` (the
driver's own passes over the trunk), ``subtrees`` per worker and ``restarts`` (actors restarted
after a fault).  ``--save``, ``--save-state`` and ``--resume`` read and write the single-process
run's files: a run can move between one process and a cluster.
"""

from __future__ import annotations

import inspect
import time

from ..distributed.ray_runtime import check_workers, start
from ..errors import ZerosumError
from .common import parse_params, short_id
from .public_tree import public_result, public_tree_with_progress, resolve_form, saved_tree_options
from .runs import resume, run_iterations


def check_ray_game(game, form, algorithm) -> None:
    """Refuse, before any work (Ray is not started: that takes seconds), what --ray cannot split."""
    splits = ", ".join(splittable())
    if form == "history-tree":
        raise ZerosumError(f"--ray splits the public tree only (-a {splits}); drop --form history-tree, or run "
                           f"without --ray")
    if algorithm not in splittable():
        raise ZerosumError(f"{algorithm} does not run split over Ray (it splits -a {splits}); run -a {algorithm} "
                           f"without --ray, in one process")
    try:
        resolve_form(game, "public-tree")
    except ZerosumError:
        raise ZerosumError(f"{game.id} has no public tree to split over Ray (only the poker family and holdem do); "
                           f"run it without --ray, or spread independent runs with an experiment's --ray") from None


def splittable() -> list[str]:
    """The algorithms --ray splits: the public-tree CFR variants without predictions (a prediction
    needs the whole tree's last regrets, which the split driver does not keep) and not pcs-mccfr."""
    from ..solvers.capabilities import names_with

    return names_with("ray-split")


def solve_split(game, algorithm, iterations, marks, simultaneous, seed, options, state_path, resume_path, save_path,
                quiet: bool, ray: str = "auto", workers: int | None = None,
                save_every=None, seconds=None, target=None) -> tuple[dict, list[str]]:
    """The result dict of ``zerosum solve ... --ray`` (see the module docstring) and the messages of
    output files that could not be written."""
    from ..public_tree.solver import default_dtype
    from ..public_tree.split import split_solver

    check_workers(workers)
    if simultaneous:
        raise ZerosumError("the public tree runs alternating updates only; drop --simultaneous")
    if seed is not None:
        raise ZerosumError(f"{algorithm} does not take --seed")
    kwargs = parse_params(saved_tree_options(resume_path, options), flag="--option")
    dtype = kwargs.pop("dtype", None)
    if "lock" in kwargs:  # refused before the tree is built and Ray started
        raise ZerosumError("--option lock (node locking) runs in one process, not split over Ray; drop --ray "
                           "(and --workers) to solve with the lock, or drop --option lock")
    if "isomorphism" in kwargs:
        raise ZerosumError("--option isomorphism runs in one process, not split over Ray yet; drop --ray (and "
                           "--workers) or drop --option isomorphism")
    if "prune" in kwargs:
        raise ZerosumError("--option prune runs in one process (the split's workers do not prune); drop --option "
                           "prune, or drop --ray")
    if "threads" in kwargs:
        raise ZerosumError("--option threads is the one-process pass's threads; over Ray the workers run the "
                           "subtrees in parallel: drop --option threads (set --workers N), or drop --ray")
    t0 = time.perf_counter()
    tree = public_tree_with_progress(game, enabled=not quiet)
    compile_s = time.perf_counter() - t0
    dtype = default_dtype(tree) if dtype is None else str(dtype)
    n = start(ray, workers)
    solver = split_solver(algorithm, tree, n, dtype=dtype)  # refuses an algorithm it cannot split
    accepted = inspect.signature(type(solver).__init__).parameters
    for key in kwargs:
        if key not in accepted or key == "alternating":
            solver.close()
            raise ZerosumError(f"{algorithm} does not take --option {key}")
    if kwargs:
        solver.close()
        solver = split_solver(algorithm, tree, n, dtype=dtype, **kwargs)
    try:
        resume(solver, resume_path, iterations)
        _, rows, solve_s = run_iterations(solver, iterations, marks,
                                          f"{algorithm} on {short_id(game.id)} (public tree, {n} Ray workers)", quiet,
                                          save_every=save_every, state_path=state_path, seconds=seconds,
                                          target=target)
        return public_result(game, algorithm, iterations, tree, solver, rows, compile_s, solve_s, state_path,
                             save_path, dtype=dtype, **solver.stats())
    finally:
        solver.close()
