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
