"""``zerosum solve GAME -a continual``: the continual re-solving agent, tabulated and evaluated exactly.

The work is :func:`zerosum.solvers.continual.continual`; this module reads the ``--option`` keys,
prints the agent's exact NashConv with what it cost and saves the tabulated policy.
"""

from __future__ import annotations

import time

from ..errors import ZerosumError
from .common import console, emit_json, parse_params

#: --option keys of -a continual, with their defaults (None: -n)
OPTIONS = {"solver": "cfr+", "root_iterations": None}
DESCRIPTION = ("Continual re-solving (DeepStack) on the history tree: a whole-game solve, then a CFR-D gadget "
               "re-solve at every public state the agent acts in, carrying its range and the opponent's "
               "values; the agent's policy tabulated in both seats and its exact NashConv (-n: iterations per "
               "re-solve).")
#: games whose information-set labels put the private card first (the public states of resolve.py)
GAMES = ("kuhn", "leduc", "poker")


def solve_continual(g, iterations: int, options, save_path, as_json: bool, seed=None, unused=()) -> None:
    """Run -a continual on the loaded game ``g`` and print the result (see the module docstring)."""
    from ..solvers import SOLVERS
    from ..solvers.continual import continual
    from .resolve import _is_cfr_family

    if unused:
        raise ZerosumError(f"-a continual takes -n, --option and --save, not {', '.join(unused)}; drop "
                           f"{'it' if len(unused) == 1 else 'them'}")
    if seed is not None:
        raise ZerosumError("-a continual takes no --seed (the CFR variants it runs are deterministic); drop --seed")
    if g.name not in GAMES:
        raise ZerosumError(f"-a continual tabulates the agent by public states, named as in {', '.join(GAMES)}; "
                           f"{g.name} is not one: e.g. zerosum solve leduc -a continual -n 100")
    kwargs = parse_params(options, flag="--option")
    for key in kwargs:
        if key not in OPTIONS:
            raise ZerosumError(f"continual does not take --option {key}; it takes "
                               + ", ".join(f"--option {k}" for k in OPTIONS))
    solver = str(kwargs.get("solver", OPTIONS["solver"]))
    if solver not in SOLVERS or not _is_cfr_family(SOLVERS[solver]):
        choices = ", ".join(n for n in sorted(SOLVERS) if _is_cfr_family(SOLVERS[n]))
        raise ZerosumError(f"--option solver={solver} is not a solver of the history tree that solves a subgame; "
                           f"choose from {choices}")
    root = kwargs.get("root_iterations", iterations)
    if isinstance(root, bool) or not isinstance(root, int) or root < 1:
        raise ZerosumError(f"--option root_iterations must be a whole number at least 1, got {root!r} "
                           f"(e.g. --option root_iterations=1000)")
    check = getattr(g, "check_history_tree", None)
    if check is not None:
        check()
    t0 = time.perf_counter()
    r = continual(g, solver, iterations, root)
    out = {"game": g.id, "algorithm": "continual", **r.to_dict(), "solve_s": time.perf_counter() - t0}
    if save_path:
        from ..solutions.saved import save_policy

        save_policy(r.policy, save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    c = console()
    c.print(f"{g.id}: continual re-solving, root solve {solver} x {r.root_iterations}, each re-solve {solver} x "
            f"{iterations} (CFR-D gadget)")
    c.print(f"  re-solves: {r.resolves[0]} as player 0, {r.resolves[1]} as player 1; compute "
            f"{r.cost:,} iterations x histories (= {r.equivalent_iterations:,.1f} whole-game iterations)")
    c.print(f"  NashConv of the agent in both seats: {r.nash_conv:.6f} (exploitability {r.nash_conv / 2:.6f})")
    if save_path:
        c.print(f"  saved the tabulated policy to {save_path}")


__all__ = ["DESCRIPTION", "GAMES", "OPTIONS", "solve_continual"]
