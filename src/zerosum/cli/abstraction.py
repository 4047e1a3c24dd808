"""``zerosum solve GAME --option abstraction=K``: solve a card abstraction, report the lifted policy.

The abstract game is :class:`zerosum.poker.abstraction.AbstractPokerGame` (K buckets per round, or
``[K1,K2]``); any history-tree solver of ``-a`` runs on it with its other ``--option`` keys; the
abstract policy is lifted to the real game, whose exact NashConv is reported, and ``--save`` writes
the lifted policy (a policy of the real game, so ``-a resolve --option blueprint=`` re-solves it).
An ``--option`` rather than a game parameter: the real game stays the one named (its id is the
saved policy's), and the abstraction is a choice of how to solve it, as the solver's options are.
"""

from __future__ import annotations

import time

from ..errors import ZerosumError
from .common import console, emit_json, parse_params


def abstraction_requested(options) -> bool:
    """Whether ``--option abstraction=...`` is among the options (before any is parsed as JSON)."""
    return any(o.split("=", 1)[0].strip() == "abstraction" for o in options)


def solve_abstracted(g, algorithm: str, iterations: int, options, save_path, as_json: bool, seed=None,
                     unused=(), make_solver=None) -> None:
    """Run ``algorithm`` on the abstraction of ``g`` and print the lifted policy's exact NashConv;
    ``make_solver``: :func:`zerosum.cli.imperfect.make_solver` (passed in: importing it here would
    make an import cycle with the module that calls this)."""
    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..poker.abstraction import AbstractPokerGame, lift
    from ..poker.holdem import HoldemGame

    if isinstance(g, HoldemGame):  # hold'em subgames: the public tree's abstraction
        solve_holdem_abstracted(g, algorithm, iterations, options, save_path, as_json, seed,
                                [u for u in unused if u != "--form public-tree"])
        return
    if unused:
        raise ZerosumError(f"--option abstraction takes -n, --option, --seed and --save, not {', '.join(unused)}; "
                           f"drop {'it' if len(unused) == 1 else 'them'}")
    from ..solvers import SOLVERS

    if algorithm not in SOLVERS:
        raise ZerosumError(f"{algorithm} runs on the public tree only; the card abstraction is solved on the "
                           f"history tree: use e.g. -a cfr+ --option abstraction=3")
    kwargs = parse_params(options, flag="--option")
    buckets = kwargs.pop("abstraction")
    rest = tuple(o for o in options if o.split("=", 1)[0].strip() != "abstraction")
    a = AbstractPokerGame(g, buckets)
    a.check_history_tree()
    t0 = time.perf_counter()
    rcg, acg = compiled(g), compiled(a)
    compile_s = time.perf_counter() - t0
    solver = make_solver(algorithm, acg, seed=seed, options=rest)
    t0 = time.perf_counter()
    if hasattr(solver, "iterate"):
        solver.run(iterations)
    else:  # the LP: one shot
        solver.run(1, [1])
    solve_s = time.perf_counter() - t0
    abstract_policy = solver.average_policy()
    lifted = lift(rcg, a, abstract_policy)
    ev = evaluate(rcg, lifted)
    out = {"game": g.id, "algorithm": algorithm, "iterations": iterations if hasattr(solver, "iterate") else None,
           "abstraction": {"buckets": list(a.buckets), "infosets": acg.sizes()["infosets"],
                           "abstract_nash_conv": evaluate(acg, abstract_policy).nash_conv},
           "sizes": rcg.sizes(), "value": ev.value,
           "nash_conv": ev.nash_conv, "exploitability": ev.nash_conv / 2,
           "seconds": {"compile": compile_s, "solve": solve_s}}
    if save_path:
        lifted.save(save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    c = console()
    ab = out["abstraction"]
    c.print(f"{g.id}: {algorithm} x {iterations} on its card abstraction ({'/'.join(map(str, ab['buckets']))} "
            f"buckets per round: {ab['infosets'][0]:,} / {ab['infosets'][1]:,} information sets, real "
            f"{out['sizes']['infosets'][0]:,} / {out['sizes']['infosets'][1]:,})")
    c.print(f"  NashConv in the abstract game:          {ab['abstract_nash_conv']:.6f}")
    c.print(f"  NashConv of the lifted policy (exact):  {ev.nash_conv:.6f}")
    if save_path:
        c.print(f"  saved the lifted policy to {save_path}")


def solve_holdem_abstracted(g, algorithm: str, iterations: int, options, save_path, as_json: bool, seed=None,
                            unused=()) -> None:
    """``zerosum solve holdem ... -a lcfr --option abstraction=K``: the public tree's card abstraction
    (:mod:`zerosum.public_tree.abstraction`), its lifted policy's exact NashConv."""
    from ..public_tree.abstraction import abstract_solver
    from ..public_tree.compile import public_tree
    from .common import progress_bar

    if unused:
        raise ZerosumError(f"--option abstraction takes -n, --option and --save, not {', '.join(unused)}; "
                           f"drop {'it' if len(unused) == 1 else 'them'}")
    if seed is not None:
        raise ZerosumError(f"{algorithm} is not sampled; drop --seed")
    kwargs = parse_params(options, flag="--option")
    k = kwargs.pop("abstraction")
    dtype = str(kwargs.pop("dtype", "float64"))
    iso = kwargs.pop("isomorphism", False)
    if iso:
        raise ZerosumError("--option abstraction runs without suit isomorphism; drop --option isomorphism")
    if kwargs:
        raise ZerosumError(f"--option abstraction on hold'em takes --option dtype only besides, not "
                           f"{', '.join('--option ' + key for key in kwargs)}")
    t0 = time.perf_counter()
    tree = public_tree(g)
    solver, abstraction = abstract_solver(tree, k, algorithm, dtype)
    compile_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    with progress_bar(iterations, f"{algorithm} on the {k}-bucket abstraction of {g.id}", enabled=not as_json,
                      unit="iterations") as advance:
        while solver.iteration < iterations:
            step = min(10, iterations - solver.iteration)
            solver.iterate(step)
            advance(step)
    solve_s = time.perf_counter() - t0
    row = solver.checkpoint()
    out = {"game": g.id, "algorithm": algorithm, "iterations": iterations,
           "abstraction": {"buckets": [abstraction.k], "infosets": abstraction.infosets, "form": "public-tree"},
           "sizes": tree.sizes(), "value": row["value_average"], "nash_conv": row["nash_conv_average"],
           "exploitability": row["nash_conv_average"] / 2, "seconds": {"compile": compile_s, "solve": solve_s}}
    if save_path:
        from ..solutions.saved import save_policy

        save_policy(solver.average_policy(), save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    c = console()
    ab = out["abstraction"]
    real = [len(tree.decision_nodes(p)) for p in (0, 1)]
    c.print(f"{g.id}: {algorithm} x {iterations} on its card abstraction ({abstraction.k} E[HS] buckets a street, "
            f"perfect recall: {ab['infosets'][0]:,} / {ab['infosets'][1]:,} abstract information sets at "
            f"{real[0]:,} / {real[1]:,} public nodes; public tree)")
    c.print(f"  NashConv of the lifted policy (exact):  {out['nash_conv']:.6f}  (value {out['value']:.6f})")
    if save_path:
        c.print(f"  saved the lifted policy to {save_path}")
