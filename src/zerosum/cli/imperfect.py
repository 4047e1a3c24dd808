"""Commands for imperfect-information games: ``games``, ``solve``, ``evaluate``."""

from __future__ import annotations

import time

import click

from ..errors import ZerosumError
from .common import (
    check_writable,
    console,
    emit_json,
    load_from_cli,
    load_state,
    parse_params,
    progress_bar,
    save_state,
)

DEFAULT_CHECKPOINTS = (10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)

param_option = click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
                            help="Game parameter (repeatable); VALUE is read as JSON when it parses.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")


@click.command()
@json_option
def games(as_json):
    """List the games with their sizes."""
    from ..compiled import compiled
    from ..games import REGISTRY, load_game

    rows = []
    for name, (_, description) in sorted(REGISTRY.items()):
        try:
            sizes = compiled(load_game(name)).sizes()
        except (ZerosumError, TypeError):
            sizes = None  # a family that needs parameters (e.g. matrix)
        rows.append({"name": name, "description": description, "sizes": sizes})
    rows.append({"name": "openspiel:NAME", "description": "any two-player zero-sum turn-based OpenSpiel game",
                 "sizes": None})
    if as_json:
        emit_json({"games": rows})
        return
    from rich.table import Table

    t = Table(title="games")
    for col in ("name", "histories", "terminals", "infosets", "sequences", "description"):
        t.add_column(col, justify="left" if col in ("name", "description") else "right")
    for r in rows:
        s = r["sizes"]
        cells = ([str(s["histories"]), str(s["terminals"]), "{} / {}".format(*s["infosets"]),
                  "{} / {}".format(*s["sequences"])] if s else ["-"] * 4)
        t.add_row(r["name"], *cells, r["description"])
    console().print(t)


def _parse_checkpoints(text: str | None, iterations: int) -> list[int]:
    if text is None:
        marks = [c for c in DEFAULT_CHECKPOINTS if c < iterations]
    else:
        try:
            marks = [int(x) for x in text.split(",") if x.strip()]
        except ValueError:
            raise ZerosumError(f"--checkpoints expects comma-separated integers, got {text!r}") from None
        if any(m <= 0 for m in marks):
            raise ZerosumError("checkpoints must be positive")
    return sorted({m for m in marks if m <= iterations} | {iterations})


def first_actions(policy) -> dict:
    """Player 0's action probabilities at its first decisions (information sets with no own past)."""
    tree = policy.game.treeplexes[0]
    return {label: policy.action_probabilities(label, 0)
            for i, label in enumerate(tree.infoset_labels) if tree.infoset_parent[i] == 0}


def make_solver(algorithm: str, game, simultaneous: bool = False, seed=None, options=()):
    """Build a solver from CLI choices; an option the algorithm does not take is a clear error."""
    import inspect

    from ..solvers import SOLVERS

    cls = SOLVERS[algorithm]
    kwargs = parse_params(options, flag="--option")
    if simultaneous:
        kwargs["alternating"] = False
    if seed is not None:
        kwargs["seed"] = seed
    accepted = inspect.signature(cls.__init__).parameters
    for key in kwargs:
        if key not in accepted:
            flag = {"alternating": "--simultaneous", "seed": "--seed"}.get(key, f"--option {key}")
            raise ZerosumError(f"{algorithm} does not take {flag}")
    return cls(game, **kwargs)


@click.command()
@click.argument("game")
@click.option("--algorithm", "-a", default="cfr+", show_default=True,
              help="Solver: cfr, cfr+ (and the other names listed by --algorithm help).")
@click.option("--iterations", "-n", type=int, default=1000, show_default=True)
@click.option("--checkpoints", default=None, help="Comma-separated iterations to report (default 10,30,100,...).")
@click.option("--simultaneous", is_flag=True, help="Simultaneous instead of alternating updates.")
@click.option("--seed", type=int, default=None, help="Random seed (sampling algorithms).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Algorithm option (repeatable), e.g. --option alpha=1.5; VALUE read as JSON.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False), help="Save the average policy (JSON).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Plot NashConv against iterations.")
@click.option("--save-state", "state_path", type=click.Path(dir_okay=False),
              help="Save the solver's state (.npz) at the end, to resume later.")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Resume from a saved state; --iterations is then the total to reach.")
@param_option
@json_option
def solve(game, algorithm, iterations, checkpoints, simultaneous, seed, options, save_path, plot_path, state_path,
          resume_path, params, as_json):
    """Solve GAME and report NashConv of the average and current strategies at checkpoints."""
    from ..compiled import compiled
    from ..solvers import SOLVERS, check_iterations

    if algorithm not in SOLVERS:
        raise ZerosumError(f"unknown algorithm {algorithm!r}; choose from {', '.join(sorted(SOLVERS))}")
    check_iterations(iterations)
    marks = _parse_checkpoints(checkpoints, iterations)
    check_writable(save_path)
    check_writable(plot_path)
    check_writable(state_path)
    g = load_from_cli(game, params)
    t0 = time.perf_counter()
    cg = compiled(g)
    compile_s = time.perf_counter() - t0
    solver = make_solver(algorithm, cg, simultaneous=simultaneous, seed=seed, options=options)
    if resume_path:
        load_state(solver, resume_path)
        if solver.iteration >= iterations:
            raise ZerosumError(f"the saved run is already at iteration {solver.iteration}; "
                               f"ask for more --iterations")
    t0 = time.perf_counter()
    with progress_bar(iterations - solver.iteration, f"{algorithm} on {g.id}", enabled=not as_json) as advance:
        rows = solver.run(iterations, marks, progress=advance)
    solve_s = time.perf_counter() - t0
    avg = solver.average_policy()
    result = {
        "game": g.id,
        "algorithm": algorithm,
        "updates": _updates(solver),
        "iterations": iterations,
        "value": rows[-1]["value_average"],
        "nash_conv": rows[-1]["nash_conv_average"],
        "exploitability": rows[-1]["nash_conv_average"] / 2,
        "checkpoints": rows,
        "first_actions": first_actions(avg),
        "sizes": cg.sizes(),
        "seconds": {"compile": compile_s, "solve": solve_s},
    }
    if hasattr(solver, "extra_info"):  # e.g. the LP's size and time
        result.update(solver.extra_info())
    if state_path:
        save_state(solver, state_path)
        result["state_saved"] = state_path
    if save_path:
        avg.save(save_path)
        result["saved"] = save_path
    if plot_path:
        from ..plots import convergence

        convergence(rows, plot_path, f"{algorithm} on {g.id}")
        result["plot"] = plot_path
    if as_json:
        emit_json(result)
        return
    _print_solve(result)


def _updates(solver) -> str | None:
    """alternating / simultaneous for iterative solvers; None for one-shot ones (the LP)."""
    if not hasattr(solver, "alternating"):
        return None
    return "alternating" if solver.alternating else "simultaneous"


def _nc(v: float) -> str:
    return f"{v:.4f}" if v >= 1e-4 or v == 0 else f"{v:.2e}"


def _print_solve(r: dict) -> None:
    from rich.table import Table

    c = console()
    c.print(f"{r['game']}: {r['sizes']['histories']} histories, infosets {r['sizes']['infosets'][0]} + "
            f"{r['sizes']['infosets'][1]}; {r['algorithm']}"
            + (f" ({r['updates']} updates), {r['iterations']} iterations" if r["updates"] else "")
            + f" in {r['seconds']['solve']:.3f} s")
    t = Table(title="NashConv (sum of both players' best-response gains)")
    learned = any(row.get("hands") for row in r["checkpoints"])  # PSRO with a learned oracle or sampled payoffs
    for col in ("iterations", "average", "current", "value (avg)", "nodes") + (
            ("oracle error (p0, p1)", "hands") if learned else ()):
        t.add_column(col, justify="right")
    for row in r["checkpoints"]:
        extra = ()
        if learned:
            errs = row["oracle_error"]
            extra = ("-" if errs[0] is None else f"{errs[0]:.4f}, {errs[1]:.4f}", f"{row['hands']:,}")
        t.add_row(str(row["iteration"]), _nc(row["nash_conv_average"]), _nc(row["nash_conv_current"]),
                  f"{row['value_average']:.4f}", f"{row['nodes']:,}", *extra)
    c.print(t)
    c.print(f"value of the game to player 0 (average strategy): {r['value']:.4f}")
    c.print(f"exploitability (NashConv / 2): {r['exploitability']:.6f}")
    c.print("player 0's first action:  " + "   ".join(
        f"{label} " + " ".join(f"{a}={p:.2f}" for a, p in probs.items())
        for label, probs in r["first_actions"].items()))
    if "lp" in r:
        for k, (size, secs) in enumerate(zip(r["lp"]["sizes"], r["lp"]["seconds"])):
            c.print(f"sequence-form LP {k + 1}: {size['variables']} variables, {size['constraints']} constraints, "
                    f"{size['nonzeros']} nonzeros, {size['simplex_iterations']} simplex iterations, {secs:.3f} s")
    if "saved" in r:
        c.print(f"average policy saved to {r['saved']}")
    if "plot" in r:
        c.print(f"plot written to {r['plot']}")


@click.command()
@click.argument("game")
@click.argument("policy_file", type=click.Path(dir_okay=False))
@param_option
@json_option
def evaluate(game, policy_file, params, as_json):
    """NashConv, exploitability and value of a saved policy on GAME."""
    from ..evaluation import evaluate as evaluate_policy
    from ..policy import TabularPolicy

    g = load_from_cli(game, params)
    pol = TabularPolicy.load(g, policy_file)
    ev = evaluate_policy(g, pol)
    out = {"game": g.id, "policy": policy_file, **ev.to_dict()}
    if as_json:
        emit_json(out)
        return
    c = console()
    c.print(f"{g.id}, policy {policy_file}")
    c.print(f"  value to player 0:                  {ev.value:.6f}")
    c.print(f"  best-response values (p0, p1):      {ev.best_response_values[0]:.6f}, "
            f"{ev.best_response_values[1]:.6f}")
    c.print(f"  NashConv (sum of BR gains):         {ev.nash_conv:.6f}")
    c.print(f"  exploitability (NashConv / 2):      {ev.exploitability:.6f}")
