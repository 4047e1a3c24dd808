"""Commands for imperfect-information games: ``games``, ``solve``, ``evaluate``."""

from __future__ import annotations

import time

import click

from ..errors import ZerosumError
from .common import check_writable, console, emit_json, load_from_cli, parse_params, progress_status, short_id
from .runs import _duration, finish_interrupted, resume, run_iterations, solve_result, write_outputs

#: constructor parameters of a solver that are not --option keys
NOT_OPTIONS = ("self", "game", "variant")
DEFAULT_CHECKPOINTS = (10, 30, 100, 300, 1000, 3000, 10000, 30000, 100000)

param_option = click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
                            help="Game parameter (repeatable); VALUE is read as JSON when it parses.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")


def load_cli_game(name: str, params: tuple[str, ...] = ()):
    """The game GAME of ``solve`` and ``evaluate``: your own, ``FILE.py:NAME`` or ``module:NAME`` (a
    game class made with the --param values, or an instance as it is; :func:`zerosum.games.load_user_game`),
    else a registered name, ``openspiel:NAME`` or a Gambit .efg file."""
    from ..games import is_user_game, load_user_game

    if is_user_game(name):
        return load_user_game(name, **parse_params(params))
    return load_from_cli(name, params)


@click.command()
@json_option
def games(as_json):
    """List the games: those `zerosum solve` takes, with their sizes, and the perfect-information
    ones of `zerosum search`, `play` and `tournament`."""
    from ..core.compile import compiled
    from ..games import REGISTRY, load_game
    from ..perfect.games import PERFECT_GAMES

    rows = []
    for name, (_, description) in sorted(REGISTRY.items()):
        try:
            sizes = compiled(load_game(name)).sizes()
        except (ZerosumError, TypeError):
            sizes = None  # a family that needs parameters (e.g. matrix)
        rows.append({"name": name, "kind": "imperfect", "description": description, "sizes": sizes})
    rows.append({"name": "openspiel:NAME", "kind": "imperfect",
                 "description": "any two-player zero-sum turn-based OpenSpiel game, e.g. openspiel:leduc_poker",
                 "sizes": None})
    rows.append({"name": "FILE.efg", "kind": "imperfect",
                 "description": "a Gambit extensive-form file (extra 'gambit')", "sizes": None})
    rows.append({"name": "FILE.py:NAME", "kind": "imperfect",
                 "description": "your own game: a zerosum.Game subclass (made with the --param values) or instance "
                                "in a Python file; module:NAME for an importable module (docs/game-api.md)",
                 "sizes": None})
    for name, (_, description) in sorted(PERFECT_GAMES.items()):
        rows.append({"name": name, "kind": "perfect", "description": description, "sizes": None})
    if as_json:
        emit_json({"games": rows})
        return
    from rich.table import Table

    c = console()
    t = Table(title="games for zerosum solve / evaluate")
    for col in ("name", "histories", "terminals", "infosets", "sequences", "description"):
        t.add_column(col, justify="left" if col in ("name", "description") else "right")
    for r in rows:
        if r["kind"] != "imperfect":
            continue
        s = r["sizes"]
        cells = ([f"{s['histories']:,}", f"{s['terminals']:,}", "{:,} / {:,}".format(*s["infosets"]),
                  "{:,} / {:,}".format(*s["sequences"])] if s else ["-"] * 4)
        t.add_row(r["name"], *cells, r["description"])
    c.print(t)
    p = Table(title="perfect-information games for zerosum search / play / tournament")
    p.add_column("name")
    p.add_column("description")
    for r in rows:
        if r["kind"] == "perfect":
            p.add_row(r["name"], r["description"])
    c.print(p)


#: the largest bare fraction --target takes (5 % of the pot); above it a number must say % (0.5 is ambiguous)
MAX_BARE_TARGET = 0.05


def parse_pot_target(text: str | None, nash_conv_target) -> float | None:
    """``--target``: ``0.5%`` (percent of the starting pot) or ``0.005`` (the fraction itself, as the
    JSON's ``exploitability_pot_fraction``), as a fraction; None when not given.  A bare number above
    0.05 is refused as ambiguous (``--target 0.5`` would be half the pot: write ``0.5%`` or ``50%``)."""
    if text is None:
        return None
    if nash_conv_target is not None:
        raise ZerosumError("give --target (a share of the pot) or --target-nashconv (chips), not both")
    raw = str(text).strip()
    percent = raw.endswith("%")
    try:
        value = float(raw[:-1].strip() if percent else raw)
    except ValueError:
        raise ZerosumError(f"--target takes a share of the pot, e.g. 0.5% (or the fraction 0.005), got {text!r}") from None
    if not 0 < value < float("inf"):  # (NaN is not above 0)
        raise ZerosumError(f"--target must be above 0, got {text!r}")
    if percent:
        value /= 100
    elif value > MAX_BARE_TARGET:
        raise ZerosumError(f"--target {raw} is ambiguous: write {raw}% for {raw} percent of the pot, or "
                           f"{100 * value:g}% (a bare number is a fraction of the pot, at most {MAX_BARE_TARGET:g}: "
                           f"0.005 = 0.5%)")
    return value


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
        past = sorted(m for m in marks if m > iterations)
        if past:  # refused rather than dropped: the user asked for a row that would never come
            raise ZerosumError(f"--checkpoints {','.join(map(str, past))} past --iterations {iterations:,}: "
                               f"ask for -n {past[-1]} (or drop those checkpoints)")
    return sorted(set(marks) | {iterations})


def first_actions(policy) -> dict:
    """Player 0's action probabilities at its first decisions (information sets with no own past)."""
    tree = policy.game.treeplexes[0]
    return {label: policy.action_probabilities(label, 0)
            for i, label in enumerate(tree.infoset_labels) if tree.infoset_parent[i] == 0}


# The sequence-form LP's HiGHS time grows about as the 2.5th power of its size here: poker(13,4) with
# 33,293 / 99,541 / 200,941 terminal histories takes 0.4 / 3.4 / 19 s; a million would take ~20 minutes.
LP_MAX_TERMINALS = 1_000_000


def check_lp_size(game) -> None:
    """Refuse, before compiling, an LP that would run for hours (games that count their size cheaply)."""
    if not hasattr(game, "estimated_sizes"):
        return
    est = game.estimated_sizes()
    terminals = est.get("terminals", est["histories"])  # histories: an upper bound where not counted
    what = "terminal histories" if "terminals" in est else "histories"
    if terminals > LP_MAX_TERMINALS:
        raise ZerosumError(
            f"{game.id} is too large for the exact LP: about {terminals:,} {what} (past "
            f"{LP_MAX_TERMINALS:,} HiGHS runs for hours; 200,941 take ~20 s here); use -a cfr+ or -a dcfr")


def make_solver(algorithm: str, game, simultaneous: bool = False, seed=None, options=()):
    """Build a solver from CLI choices; an option the algorithm does not take is a clear error."""
    import inspect

    from ..solvers import SOLVERS

    cls = SOLVERS[algorithm]
    kwargs = parse_params(options, flag="--option")
    for key, value in getattr(cls, "cli_defaults", {}).items():  # e.g. psro: stop once converged
        kwargs.setdefault(key, value)
    if simultaneous:
        kwargs["alternating"] = False
    if seed is not None:
        kwargs["seed"] = seed
    # not options: the game, and the variant object CFRSolver takes from Python (-a names the variant)
    accepted = [k for k in inspect.signature(cls.__init__).parameters if k not in NOT_OPTIONS]
    for key in kwargs:
        if key == "dtype" and "dtype" not in accepted:  # a public-tree option: say where it applies
            raise ZerosumError("--option dtype (float32 or float64) applies on the public tree only (poker, "
                               "holdem, with a CFR-family -a); this run is on the history tree, in float64: "
                               "drop --option dtype")
        if key in ("lock", "threads", "prune") and key not in accepted:  # public-tree options too
            what = {"lock": "node locking", "threads": "the depth-first pass's threads",
                    "prune": "pruning below an all-zero opponent reach"}[key]
            raise ZerosumError(f"--option {key} ({what}) applies on the public tree only (poker, holdem, with "
                               f"-a cfr+, dcfr, pcfr+, ... in one process); this run is on the history tree: drop "
                               f"--option {key}, or drop --form history-tree")
        if key not in accepted:
            flags = {"alternating": "--simultaneous", "seed": "--seed"}
            takes = [flags.get(k, f"--option {k}") for k in accepted]
            raise ZerosumError(f"{algorithm} does not take {flags.get(key, f'--option {key}')}; "
                               + (f"it takes {', '.join(takes)}" if takes else "it takes no options"))
    return cls(game, **kwargs)


#: ``solve``'s -a when not given, per game name (others: cfr+).  hold'em, postflop-solver's example turn
#: (pfs-example-turn-td9d6h-qc) to exploitability 0.5 % of the pot, checked every 10 iterations, warm:
#: dcfr 90 iterations (1.08 s solving), hs-dcfr 120 (1.35 s), lcfr 130 (1.56 s), cfr+ 140 (1.72 s),
#: pcfr+ not there at 150 (3.29 s)
DEFAULT_ALGORITHMS = {"holdem": "dcfr"}
#: the default algorithm's options per game: hold'em's DCFR restarts its average at the powers of 4,
#: as postflop-solver's does, up to 64 (the restart at 256 threw a converged average away: 0.05 % of
#: the example turn's pot at 270 iterations instead of 350, the same run before 256), and remembers its negative regrets longer as it goes (beta=0.5 with
#: t / 20: a factor of 1/2 at iteration 20, 2/3 at 80, where beta=0 keeps 1/2), which damps the
#: oscillations of its current strategies (fewest iterations over the spots of
#: shared/data/poker-spots: docs/lp-and-variants.md, "Iterations to a share of the pot on the
#: hold'em spots")
DEFAULT_OPTIONS = {"holdem": ("restart=4", "restart_until=64", "beta=0.5", "beta_scale=20")}


def default_options(game: str, options: tuple, ray_address, resume_path) -> tuple:
    """``options`` with the default algorithm's own where the user set none of the same name; not
    over Ray (its split does not restart an average) nor on a resumed state (it keeps the options
    it was saved with)."""
    if ray_address or resume_path:
        return tuple(options)
    given = {str(o).split("=", 1)[0].strip() for o in options}
    return tuple(options) + tuple(o for o in DEFAULT_OPTIONS.get(game, ()) if o.split("=", 1)[0] not in given)


@click.command()
@click.argument("game")
@click.option("--algorithm", "-a", default=None,
              help="Solver: cfr, cfr+ (and the other names listed by --algorithm help).  Default: cfr+; for "
                   "holdem dcfr with --option restart=4 (the average restarted at the powers of 4, as "
                   "postflop-solver's) up to 64 (--option restart_until=64) --option beta=0.5 --option beta_scale=20 (negative regrets remembered "
                   "longer as it goes, which damps its oscillations): the fewest iterations over the hold'em spots "
                   "measured, 280 to 0.1 % of the pot on the two turns in float32 and float64 against 345 and 295 "
                   "with restart=4 alone, plain dcfr's 375 and cfr+'s 595 (docs/lp-and-variants.md).")
@click.option("--iterations", "-n", type=int, default=None,
              help="Iterations to run (the total to reach with --resume); default 1000, 100 for deep-cfr and "
                   "sd-cfr, 1,000,000 for os-mccfr (each algorithm's default_iterations); psro stops once "
                   "converged (--option tol).")
@click.option("--checkpoints", default=None,
              help="Comma-separated iterations to report, at most -n (default 10,30,100,...).")
@click.option("--simultaneous", is_flag=True, help="Simultaneous instead of alternating updates.")
@click.option("--seed", type=int, default=None, help="Random seed (sampling algorithms).")
@click.option("--option", "options", multiple=True, metavar="KEY=VALUE",
              help="Algorithm option (repeatable), e.g. --option alpha=1.5; VALUE read as JSON.")
@click.option("--save", "save_path", type=click.Path(dir_okay=False),
              help="Save the method's result (JSON): the average policy, or the current strategy of a "
                   "last-iterate method (magnet, moving-magnet, mmd, proximal-magnet).")
@click.option("--save-current", "save_current", type=click.Path(dir_okay=False),
              help="Save the current (last-iterate) strategy (JSON), for any iterative solver.")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), help="Plot NashConv against iterations.")
@click.option("--save-state", "state_path", type=click.Path(dir_okay=False),
              help="Save the solver's state (.npz) at the end, to resume later.")
@click.option("--time", "seconds", type=click.FloatRange(min=0, min_open=True), default=None, metavar="SECONDS",
              help="Stop after about SECONDS of solving (the step in flight completes); -n stays the upper bound.")
@click.option("--target-nashconv", "target", type=click.FloatRange(min=0), default=None, metavar="X",
              help="Stop once NashConv of the method's result strategy is at most X, checked at the checkpoints "
                   "(add --checkpoints for a finer check).")
@click.option("--target", "target_pot", default=None, metavar="P%",
              help="hold'em and the poker family: stop once exploitability (NashConv / 2) is at most this share of "
                   "the starting pot: 0.5% (or the fraction 0.005), checked every 10 iterations unless --checkpoints "
                   "says otherwise.")
@click.option("--save-every", "save_every", type=click.IntRange(min=1), default=None, metavar="N",
              help="With --save-state: also write the state every N iterations (atomically), not only at the end.")
@click.option("--resume", "resume_path", type=click.Path(dir_okay=False),
              help="Resume from a saved state; --iterations is then the total to reach.")
@click.option("--form", type=click.Choice(["public-tree", "history-tree"]), default=None,
              help="Compiled form (default: the public tree where the game has one: poker, holdem).")
@click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
              help="Split the public tree over Ray (cfr, cfr+, lcfr, dcfr), or run psro's two learned oracle "
                   "calls per iteration at once: auto starts a local instance, HOST:PORT joins a cluster.")
@click.option("--workers", type=int, default=None,
              help="Ray workers holding subtrees or running oracle calls (default: the cluster's CPUs).")
@param_option
@click.option("--spot", "spot", type=click.Path(dir_okay=False), default=None, metavar="FILE.json",
              help="holdem: the spot (board, pot, stack, ranges, betting per street) from a JSON file; a --param "
                   "overrides the file's field.")
@json_option
def solve(game, algorithm, iterations, checkpoints, simultaneous, seed, options, save_path, plot_path, state_path,
          resume_path, params, as_json, form=None, ray_address=None, workers=None, save_current=None,
          save_every=None, seconds=None, target=None, spot=None, target_pot=None):
    """Solve GAME and report NashConv of the average and current strategies at checkpoints.

    GAME is a name of `zerosum games`, openspiel:NAME, a Gambit FILE.efg, or your own game:
    FILE.py:NAME or module:NAME, a zerosum.Game subclass (made with the --param values) or instance.

    Ctrl-C stops after the iteration in flight, writes the files asked for and the results so far,
    and exits 130 (resume with --resume STATE where --save-state was given).

    ``-a help`` lists the algorithms.  Output paths are checked before any work; if a file still
    cannot be written at the end, the results are printed first and the command then fails.
    """
    from ..solvers import SOLVERS, check_iterations

    if algorithm in ("help", "list"):
        _print_algorithms(as_json)
        return
    if algorithm is None:  # the fastest variant measured on the hold'em spots (--help has the figures)
        algorithm = DEFAULT_ALGORITHMS.get(game, "cfr+")
        options = default_options(game, options, ray_address, resume_path)
    if algorithm not in algorithm_names():
        raise ZerosumError(f"unknown algorithm {algorithm!r}; choose from {', '.join(algorithm_names())} "
                           f"(-a help describes them)")
    if iterations is None:  # per algorithm: the network solvers take ~1 s an iteration
        iterations = getattr(SOLVERS.get(algorithm), "default_iterations", 1000)
    check_iterations(iterations)
    pot_fraction_target = parse_pot_target(target_pot, target)
    marks = _parse_checkpoints(checkpoints, iterations)
    if pot_fraction_target is not None and checkpoints is None:  # as poker solvers check: every 10 iterations
        marks = sorted(set(range(10, iterations, 10)) | {iterations})
    from ..files import check_policy_path

    check_policy_path(save_path)  # also refuses a Gambit .efg name: --save writes JSON
    check_policy_path(save_current)
    if save_every and not state_path:
        raise ZerosumError("--save-every N writes the --save-state file every N iterations; add --save-state RUN.npz")
    check_writable(state_path)
    if plot_path:
        from ..plots import check_plot_path

        check_plot_path(plot_path)
    from ..files import probe

    if resume_path and not probe(resume_path, verb="read state file"):  # an input: checked before the work
        raise ZerosumError(f"cannot read state file {resume_path!r}: no such file")
    g = load_cli_game(game, params) if spot is None else load_spot_game(game, params, spot)
    if pot_fraction_target is not None:  # --target P%: the NashConv it means on this game's pot
        from .public_tree import game_pot

        pot = game_pot(g)
        if pot is None:
            raise ZerosumError(f"--target is a share of the pot, and {g.id} has none (hold'em and the poker family "
                               f"do); use --target-nashconv X")
        target = 2 * pot_fraction_target * pot
    from .abstraction import abstraction_requested, solve_abstracted

    if abstraction_requested(options) and algorithm not in ("resolve", "continual"):  # zerosum.cli.abstraction
        unused = [f for f, v in (("--checkpoints", checkpoints), ("--save-state", state_path), ("--resume", resume_path),
                                 ("--plot", plot_path), ("--save-current", save_current), ("--ray", ray_address),
                                 ("--time", seconds), ("--target-nashconv", target), ("--target", target_pot),
                                 ("--simultaneous", simultaneous),
                                 ("--form public-tree", form == "public-tree")) if v]
        solve_abstracted(g, algorithm, iterations, options, save_path, as_json, seed, unused, make_solver)
        return
    if algorithm == "resolve":  # re-solving a saved blueprint: zerosum.cli.resolve
        from .resolve import solve_resolve

        unused = [f for f, v in (("--checkpoints", checkpoints), ("--plot", plot_path), ("--save-current", save_current), ("--ray", ray_address),
                                 ("--time", seconds), ("--target-nashconv", target), ("--target", target_pot),
                                 ("--simultaneous", simultaneous),
                                 ("--form public-tree", form == "public-tree")) if v]
        solve_resolve(g, iterations, options, save_path, as_json, seed, unused, state_path, resume_path)
        return
    if algorithm == "continual":  # the continual re-solving agent, tabulated: zerosum.cli.continual
        from .continual import solve_continual

        unused = [f for f, v in (("--checkpoints", checkpoints), ("--save-state", state_path), ("--resume", resume_path),
                                 ("--plot", plot_path), ("--save-current", save_current), ("--ray", ray_address),
                                 ("--time", seconds), ("--target-nashconv", target), ("--target", target_pot),
                                 ("--simultaneous", simultaneous),
                                 ("--form public-tree", form == "public-tree")) if v]
        solve_continual(g, iterations, options, save_path, as_json, seed, unused)
        return
    if algorithm == "lp":
        check_lp_size(g)
    from .public_tree import resolve_form, solve_public

    psro_ray = ray_address is not None and algorithm == "psro"  # the two learned oracle calls at once
    if ray_address is not None:  # the public tree split over Ray workers
        from ..distributed.ray_runtime import check_workers
        from .ray import check_ray_game, solve_split

        check_workers(workers)
        if not psro_ray:
            check_ray_game(g, form, algorithm)
    if (ray_address is not None and not psro_ray) or resolve_form(g, form, algorithm, simultaneous) == "public-tree" \
            or algorithm == "pcs-mccfr":
        if algorithm == "pcs-mccfr":
            resolve_form(g, "public-tree")
        if save_current:  # the public tree's solvers are judged by their average
            raise ZerosumError("--save-current is for the history tree; add --form history-tree (or use --save)")
        run = solve_split if ray_address else solve_public
        extra = (ray_address, workers) if ray_address else ()
        result, failed = run(g, algorithm, iterations, marks, simultaneous, seed, options, state_path, resume_path,
                             save_path, as_json, *extra, save_every=save_every, seconds=seconds, target=target)
        if plot_path:  # a late write failure comes after the results, as below
            failed += write_outputs(result, None, None, plot=(plot_path, result["checkpoints"],
                                                              f"{algorithm} on {g.id}"))
        if pot_fraction_target is not None:
            result["target_pot_fraction"] = pot_fraction_target
        emit_json(result) if as_json else _print_solve(result)
        if failed:
            raise ZerosumError("; ".join(failed))
        finish_interrupted(result)
        return
    t0 = time.perf_counter()
    cg = compile_with_progress(g, enabled=not as_json)
    compile_s = time.perf_counter() - t0
    solver = make_solver(algorithm, cg, simultaneous=simultaneous, seed=seed, options=options)
    if psro_ray:
        from ..distributed.ray_runtime import start

        if solver.oracle == "exact":
            raise ZerosumError("--ray with psro runs the two learned oracle calls of each iteration at once; the "
                               "exact oracle takes milliseconds: run without --ray, or pick --option oracle=dqn, "
                               "q-learning or policy-gradient")
        solver.parallel = (ray_address, start(ray_address, workers))
    one_shot = not hasattr(solver, "iterate")  # the LP: -n, checkpoints and curves do not apply
    if save_current and (one_shot or not hasattr(solver, "current_policy")):
        raise ZerosumError(f"{algorithm} has no current strategy to save; drop --save-current (--save writes "
                           f"its result)")
    notes = []
    if one_shot and (state_path or resume_path):
        solver.state_dict()  # before the work: the one-shot solver says why it has no state
    elif (state_path or resume_path) and not hasattr(solver, "state_dict"):  # not a traceback after the run
        flag = "--save-state" if state_path else "--resume"
        raise ZerosumError(f"{algorithm} cannot save or resume its state; drop {flag} (or use e.g. -a cfr+, "
                           f"which can)")
    resume(solver, resume_path, iterations, seed)
    if one_shot and plot_path:
        notes.append(f"no plot: {algorithm} solves the game in one shot, so there is no convergence curve "
                     f"to draw ({plot_path} not written)")
        plot_path = None
    if one_shot:
        t0 = time.perf_counter()
        with progress_status(f"{algorithm} on {g.id}", enabled=not as_json) as update:
            update("solving")
            rows = solver.run(1, [1])
        solve_s = time.perf_counter() - t0
    else:
        curve_marks = _log_spaced(iterations) if plot_path else []  # a denser curve than the table's
        curve, rows, solve_s = run_iterations(solver, iterations, marks, f"{algorithm} on {short_id(g.id)}", as_json,
                                              curve_marks, save_every=save_every, state_path=state_path,
                                              seconds=seconds, target=target)
    strategy = getattr(solver, "result_strategy", "average")  # last-iterate methods: "current"
    # the method's result: the profile that --save writes, `evaluate` reads and the headline reports
    avg = solver.current_policy() if strategy == "current" else solver.average_policy()
    stopped = getattr(solver, "stopped", None)
    result = solve_result(g, algorithm, _updates(solver), None if one_shot else solver.iteration if stopped
                          else iterations, rows, first_actions(avg), cg.sizes(), compile_s, solve_s)
    if not one_shot:
        result["stopped"] = stopped
    if pot_fraction_target is not None:
        result["target_pot_fraction"] = pot_fraction_target
    if stopped == "converged":  # psro's tol (zerosum.solvers.psro): more iterations would change nothing
        notes.append(f"{algorithm} converged at iteration {solver.iteration:,} of {iterations:,}: "
                     f"{solver.convergence} (--option tol=0 runs all -n)")
    if hasattr(solver, "extra_info"):  # e.g. the LP's size and time
        result.update(solver.extra_info())
    if psro_ray:
        result["workers"] = solver.parallel[1]
    if not one_shot:
        last = rows[-1]
        result["result_strategy"] = strategy
        result["nash_conv_current"] = last.get("nash_conv_current")
        result["nash_conv_average"] = last.get("nash_conv_average")
        result["value_average"] = last.get("value_average")
        if strategy == "current":  # value, nash_conv, exploitability: of the result strategy, as saved
            result.update(_current_headline(solver, last))
    # late write failures: reported after the results, which are worth having anyway
    failed = write_outputs(result, solver, avg, state_path,
                           save_path, (plot_path, curve, f"{algorithm} on {g.id}") if plot_path else None,
                           current=(save_current, solver.current_policy) if save_current else None)
    if result.get("saved"):
        result["saved_strategy"] = strategy
    if notes:
        result["notes"] = notes
    if as_json:
        emit_json(result)
    else:
        _print_solve(result)
    for n in notes:
        click.echo(f"note: {n}", err=True)
    if failed:
        raise ZerosumError("; ".join(failed))
    finish_interrupted(result)


def _current_headline(solver, row: dict) -> dict:
    """``value``, ``nash_conv`` and ``exploitability`` of the solver's current strategy (a last-iterate
    method's result), from the last checkpoint where it has them, else computed here."""
    nash_conv, value = row.get("nash_conv_current"), row.get("value_current")
    if nash_conv is None or value is None:
        from ..core.evaluation import evaluate as evaluate_policy

        ev = evaluate_policy(solver.game, solver.current_policy())
        nash_conv, value = ev.nash_conv, ev.value
    return {"value": value, "nash_conv": nash_conv, "exploitability": nash_conv / 2}


def load_spot_game(game: str, params, spot: str):
    """``--spot FILE.json``: the hold'em game of a spot file (:mod:`zerosum.poker.spots`), each
    ``--param`` replacing the file's field of that name (``--param stack=500``)."""
    if game != "holdem":
        raise ZerosumError(f"--spot reads a hold'em spot; use zerosum solve holdem --spot {spot} (not {game})")
    from ..games import load_game
    from ..poker.spots import read_spot

    merged = read_spot(spot)
    merged.update(parse_params(params))
    return load_game("holdem", **merged)


def _log_spaced(last: int, per_decade: int = 8) -> list[int]:
    """About ``per_decade`` iterations per factor of ten from 1 to ``last`` (the plot's points)."""
    import numpy as np

    n = max(2, int(np.log10(max(last, 1)) * per_decade) + 1)
    return sorted({int(x + 0.5) for x in np.logspace(0, np.log10(max(last, 1)), n)} | {last})


#: a history tree this large (a second or more to compile) is announced with its size first;
#: a smaller one compiles at once, and a one-line refusal after it stays one line
SIZE_LINE_FROM = 100_000


def compile_with_progress(game, enabled: bool = True):
    """The compiled game, with a spinner (or occasional stderr lines) while a large one compiles.

    A game that counts its histories (``estimated_sizes``: the poker family, hold'em) says its size
    on stderr before compiling, from :data:`SIZE_LINE_FROM` histories, and the progress then reads
    "N of M histories (P %), about T left"."""
    from ..core.compile import compiled

    sizes = getattr(game, "estimated_sizes", None)
    total = None
    if sizes is not None:
        try:
            est = sizes()
            total = int(est["histories"])
        except (ZerosumError, KeyError, TypeError, ValueError):  # an estimate is a courtesy: the compile itself says what is wrong
            total = None
        if total and total >= SIZE_LINE_FROM and enabled:
            gb = est.get("compile_bytes")
            click.echo(f"history tree of {game.id}: {total:,} histories"
                       + (f", about {gb / 1e9:.1f} GB to compile" if gb and gb >= 1e8 else
                          f", about {gb / 1e6:.1f} MB to compile" if gb else "") + "; compiling", err=True)
    t0 = time.perf_counter()

    def text(n: int) -> str:
        if not total:
            return f"{n:,} histories"
        line = f"{n:,} of {total:,} histories ({min(100.0, 100 * n / total):.0f} %)"
        elapsed = time.perf_counter() - t0
        if 0 < n < total and elapsed > 1:
            line += f", about {_duration((total - n) * elapsed / n)} left"
        return line

    with progress_status(f"compiling {game.id}", enabled=enabled) as update:
        return compiled(game, progress=lambda n: update(text(n)))


def algorithm_names() -> list[str]:
    """Every name ``-a`` takes: the history-tree solvers and the public-tree-only ones (pcs-mccfr),
    derived from the two registries so that a new variant is listed without editing this."""
    from ..public_tree.solver import VARIANTS
    from ..solvers import SOLVERS

    return sorted(set(SOLVERS) | set(VARIANTS) | {"resolve", "continual"})  # zerosum.cli.resolve, cli.continual


def _print_algorithms(as_json: bool) -> None:
    """``-a help``: every algorithm with the first line of its docstring; public-tree-only ones
    (not in SOLVERS) say so, as that is the form they need."""
    import inspect

    from ..public_tree.solver import VARIANTS, public_solver_class
    from ..solvers import SOLVERS

    rows = []
    for name in algorithm_names():
        if name == "resolve":  # not a solver class: re-solves a saved blueprint (zerosum.cli.resolve)
            from .resolve import DESCRIPTION, OPTIONS

            rows.append({"algorithm": name, "description": DESCRIPTION,
                         "options": [k if v is None else f"{k}={v!r}" for k, v in OPTIONS.items()]})
            continue
        if name == "continual":  # not a solver class: the tabulated re-solving agent (zerosum.cli.continual)
            from .continual import DESCRIPTION as CONTINUAL
            from .continual import OPTIONS as CONTINUAL_OPTIONS

            rows.append({"algorithm": name, "description": CONTINUAL,
                         "options": [k if v is None else f"{k}={v!r}" for k, v in CONTINUAL_OPTIONS.items()]})
            continue
        cls = SOLVERS[name] if name in SOLVERS else public_solver_class(name)
        doc = (cls.__doc__ or VARIANTS[name].__doc__ or "").strip().split("\n\n")[0]
        params = [p for p in inspect.signature(cls.__init__).parameters.values()
                  if p.name not in NOT_OPTIONS and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)]
        flags = {"alternating": "--simultaneous", "seed": "--seed"}
        shown = {p.name: p.default for p in params} | getattr(cls, "cli_defaults", {})  # what solve runs with
        opts = [flags.get(p.name, f"{p.name}={shown[p.name]!r}" if shown[p.name] is not p.empty else p.name)
                for p in params]
        if name in VARIANTS:  # the public tree's own option (float32: half the memory)
            opts.append("dtype='float64' (public tree)")
        if name not in SOLVERS:
            doc = "(public tree only: poker, holdem) " + doc
        rows.append({"algorithm": name, "description": " ".join(doc.split()), "options": opts})
    if as_json:
        emit_json({"algorithms": rows})
        return
    from rich.table import Table

    t = Table(title="algorithms (-a NAME); options with --option KEY=VALUE")
    t.add_column("algorithm", no_wrap=True)
    t.add_column("options")
    t.add_column("description")
    for r in rows:
        t.add_row(r["algorithm"], ", ".join(r["options"]) or "-", r["description"])
    console().print(t)


def _updates(solver) -> str | None:
    """alternating / simultaneous for iterative solvers; None for one-shot ones (the LP)."""
    if not hasattr(solver, "alternating"):
        return None
    return "alternating" if solver.alternating else "simultaneous"


def _nc(v: float | None) -> str:
    if v is None:  # not computed at this checkpoint (--option checks=average)
        return "-"
    return _fixed(v, 4) if v >= 1e-4 or v == 0 else f"{v:.2e}"


def _fixed(v: float | None, digits: int) -> str:
    """``v`` with ``digits`` decimals, never "-0.0000" for a value that rounds to zero ("-": not computed)."""
    if v is None:
        return "-"
    text = f"{v:.{digits}f}"
    return text[1:] if text.startswith("-") and float(text) == 0 else text


def _percent(fraction: float | None) -> str:
    """A fraction of the pot in percent: ``0.512 %`` (three significant digits below 1 %)."""
    if fraction is None:
        return "-"
    pct = 100 * fraction
    return f"{pct:.3f} %" if abs(pct) < 1 else f"{pct:.2f} %"


def _plural(n: int, word: str) -> str:
    return f"{n:,} {word}" + ("" if n == 1 else "s")


def _print_solve(r: dict) -> None:
    from rich.table import Table

    c = console()
    sizes = r["sizes"]
    what = r["algorithm"]
    if r["updates"]:
        what += f" ({r['updates']} updates), {_plural(r['iterations'], 'iteration')}"
    c.print(f"{r['game']}: {_plural(sizes['histories'], 'history').replace('historys', 'histories')}, "
            f"infosets {sizes['infosets'][0]:,} + {sizes['infosets'][1]:,}; compiled in "
            f"{r['seconds']['compile']:.3f} s; {what} in {r['seconds']['solve']:.3f} s", soft_wrap=True,
            markup=False)  # a no-limit game id holds its betting in [...]: not Rich markup
    if r["iterations"] is not None:
        t = Table(title="NashConv (sum of both players' best-response gains)")
        learned = any(row.get("hands") for row in r["checkpoints"])  # PSRO with a learned oracle
        deep = any("samples" in row for row in r["checkpoints"])  # zerosum.deep: networks' samples, CPU s
        in_pot = "exploitability_pot_fraction" in r  # hold'em, the poker family: exploitability in % of the pot
        for col in ("iterations", "average", "current", "value (avg)", "nodes") + (
                ("oracle error (p0, p1)", "hands") if learned else ()) + (("samples", "CPU s") if deep else ()) + (
                ("expl. % of pot",) if in_pot else ()):
            t.add_column(col, justify="right")
        for row in r["checkpoints"]:
            extra = ()
            if learned:
                errs = row["oracle_error"]
                extra = ("-" if errs[0] is None else f"{_fixed(errs[0], 4)}, {_fixed(errs[1], 4)}",
                         f"{row['hands']:,}")
            if deep:
                extra += (f"{row['samples']:,}", f"{row['cpu_seconds']:.1f}")
            if in_pot:
                extra += (_percent(row.get("exploitability_pot_fraction")),)
            t.add_row(f"{row['iteration']:,}", _nc(row["nash_conv_average"]), _nc(row["nash_conv_current"]),
                      _fixed(row["value_average"], 4), f"{row['nodes']:,}", *extra)
        c.print(t)
    if "lp" in r:
        lps = r["lp"]["sizes"]
        names = ["sequence-form LP"] if len(lps) == 1 else ["player 0's sequence-form LP", "player 1's"]
        for name, size, secs in zip(names, lps, r["lp"]["seconds"]):
            c.print(f"{name}: {size['variables']:,} variables, {size['constraints']:,} constraints, "
                    f"{size['nonzeros']:,} nonzeros, {_plural(size['simplex_iterations'], 'simplex iteration')}, "
                    f"{secs:.3f} s", soft_wrap=True)
        if len(lps) == 1:
            c.print("(one LP: player 0's maximin; player 1's strategy is read from its duals)")
        c.print(f"NashConv (sum of both players' best-response gains): {_nc(r['nash_conv'])}")
    which = "current strategy, the last iterate" if r.get("result_strategy") == "current" else "average strategy"
    c.print(f"value of the game to player 0 ({which}): {_fixed(r['value'], 4)}")
    if "values" in r:
        c.print(f"raked (not zero-sum): player 1's value {_fixed(r['values'][1], 4)}; the house takes "
                f"{_fixed(r['expected_rake'], 4)} a hand, which the two values sum to minus", soft_wrap=True)
    pot = r.get("pot")
    if r.get("locks"):  # --option lock=FILE (zerosum.public_tree.locking): the free player's gain is the headline
        lk = r["locks"]
        share = "" if lk.get("free_player_gain_pot_fraction") is None else \
            f", {_percent(lk['free_player_gain_pot_fraction'])} of the pot ({pot:g})"
        c.print(f"exploitability under the locks (player {lk['free_player']}'s best-response gain against the locked "
                f"profile): {_fixed(lk['free_player_gain'], 6)}{share}", soft_wrap=True)
        gain = "" if lk["locked_player_gain"] is None else \
            f", the locked player's (free slots only) {_fixed(lk['locked_player_gain'], 6)}"
        c.print(f"locked: player {lk['player']} at {lk['nodes']} nodes ({lk['hands']} hand locks); gain of a best response: "
                f"player {lk['free_player']}'s {_fixed(lk['free_player_gain'], 6)}{gain}; the usual NashConv "
                f"{_nc(r['nash_conv'])} counts player {lk['player']} leaving its lock, which the lock forbids", soft_wrap=True)
    else:
        share = "" if r.get("exploitability_pot_fraction") is None else \
            f", {_percent(r['exploitability_pot_fraction'])} of the pot ({pot:g})"
        c.print(f"exploitability (NashConv / 2): {_fixed(r['exploitability'], 6)} ({which}){share}", soft_wrap=True)
    if r.get("pruned_fraction") is not None:  # --option prune=1 (the public tree's depth-first pass)
        c.print(f"pruned: {_percent(r['pruned_fraction'])} of the node visits (below an all-zero opponent reach)")
    _print_first_actions(c, r["first_actions"])
    if "state_saved" in r:
        c.print(f"solver state saved to {r['state_saved']}", soft_wrap=True)
    if r.get("result_strategy") == "current":  # a last-iterate method: its current strategy is the result
        c.print(f"{r['algorithm']} is a last-iterate method: its result is the current strategy (the figures above "
                f"and --save), NashConv {_nc(r['nash_conv'])}; the average strategy's: {_nc(r['nash_conv_average'])}",
                soft_wrap=True)
    if "saved" in r:
        c.print(f"{r.get('saved_strategy', 'average')} {'strategy' if r.get('saved_strategy') == 'current' else 'policy'}"
                f" saved to {r['saved']}", soft_wrap=True)
    if "saved_current" in r:
        c.print(f"current strategy saved to {r['saved_current']}", soft_wrap=True)
    if "plot" in r:
        c.print(f"plot written to {r['plot']}", soft_wrap=True)


def _distinguishing(labels: list[str]) -> dict[str, str]:
    """Labels made of bracketed fields (OpenSpiel's ``[Observer: 0][Private: 2][Round 1]...``) or of
    fields joined by `` | `` (OpenSpiel's multi-line strings on one line, goofspiel's ``Current
    player: 0 | Point card sequence: 2 | ...``) shown by the fields that differ between them
    (``[Private: 2]``, ``Point card sequence: 2``); others as they are."""
    import re

    if len(labels) < 2:
        return {label: label for label in labels}
    for split, join in ((lambda label: re.findall(r"\[[^\]]*\]", label), ""),
                        (lambda label: label.split(" | "), " | ")):
        fields = [split(label) for label in labels]
        if any(len(f) < 2 or join.join(f) != label for f, label in zip(fields, labels)) \
                or len({len(f) for f in fields}) != 1:
            continue
        varying = [k for k in range(len(fields[0])) if len({f[k] for f in fields}) > 1]
        return {label: join.join(f[k] for k in varying) or label for label, f in zip(labels, fields)}
    return {label: label for label in labels}


def _print_first_actions(c, first: dict) -> None:
    """On one line when short (Kuhn: ``J p=0.79 b=0.21   Q ...``), else one information set per
    line, long labels (OpenSpiel's information-state strings) shortened in the middle."""
    parts = [f"{label} " + " ".join(f"{a}={p:.2f}" for a, p in probs.items()) for label, probs in first.items()]
    line = "player 0's first action:  " + "   ".join(parts)
    if len(line) <= 100:
        c.print(line, soft_wrap=True)
        return
    from .public_tree import FIRST_ACTION_HANDS

    cut = len(first) > FIRST_ACTION_HANDS  # a hold'em range: up to 1,081 hands on a river board
    c.print(f"player 0's first action ({_plural(len(first), 'information set')}"
            + (f"; the first {FIRST_ACTION_HANDS} in order, --json has all" if cut else "") + "):")
    shown = _distinguishing(list(first))
    for label, probs in list(first.items())[:FIRST_ACTION_HANDS]:
        short = shown[label]
        short = short if len(short) <= 40 else f"{short[:18]}...{short[-18:]}"
        acts = " ".join(f"{a}={p:.2f}" for a, p in probs.items())
        if len(acts) > 80:
            acts = acts[:77] + "..."
        c.print(f"  {short}  {acts}", soft_wrap=True)


def _params_of(game_id: str) -> list[str] | None:
    """``name(k=v,k=v,...)`` back into ``k=v`` items; a comma inside a value (``range0=QQ+,AK``) or
    inside brackets (``bets=[2,4]``) stays in it.  None where the id has no parameter list."""
    if not game_id.endswith(")") or "(" not in game_id:
        return None
    items, depth, token = [], 0, ""
    for ch in game_id[game_id.index("(") + 1:-1] + ",":
        depth += {"[": 1, "(": 1, "]": -1, ")": -1}.get(ch, 0)
        if ch == "," and depth == 0:
            if "=" in token or not items:
                items.append(token)
            else:
                items[-1] += "," + token
            token = ""
        else:
            token += ch
    return [t for t in items if t]


def _game_named_in(game: str, params, policy_file: str):
    """``game`` rebuilt from the id a policy file was saved with, where the command line gave no
    --param; re-raises the command line's own error where the file cannot say."""
    import json

    from ..files import probe

    first_error = None
    try:
        load_cli_game(game, params)
    except ZerosumError as e:
        first_error = e
    if params or str(policy_file).endswith(".npz") or not probe(policy_file, verb="read policy file"):
        raise first_error
    from ..solutions.solution_file import is_solution_file, saved_game_id

    try:
        if is_solution_file(policy_file):  # its header only (a damaged one: that error)
            saved = saved_game_id(policy_file)
        else:
            with open(policy_file) as f:
                saved = str(json.load(f).get("game", ""))
    except (OSError, ValueError, AttributeError):
        raise first_error from None
    items = _params_of(saved)
    if not saved.startswith(game + "(") or items is None:
        raise first_error
    try:
        g = load_cli_game(game, tuple(items))
    except ZerosumError:
        raise first_error from None
    if g.id != saved:
        raise first_error
    return g


@click.command()
@click.argument("game")
@click.argument("policy_file", type=click.Path(dir_okay=False))
@click.option("--form", type=click.Choice(["public-tree", "history-tree"]), default=None,
              help="Compiled form (default: the one the policy file was saved from).")
@click.option("--node", "node", default=None, metavar="LABEL",
              help="Public-tree policies: per hand at this public node (e.g. ':5s:cc/r'; the root is '::'): "
                   "strategy, range weight, EV, equity, the 13x13 grid and categories.")
@param_option
@click.option("--spot", "spot", type=click.Path(dir_okay=False), default=None, metavar="FILE.json",
              help="holdem: the spot file the policy was solved on (as zerosum solve holdem --spot).")
@click.option("--lbr", "lbr", is_flag=True,
              help="Also play local best response (Lisy and Bowling 2017) against the policy: its mean gain per "
                   "seat with a 95 % interval, a lower bound of NashConv (a public-tree policy: LBR's exact "
                   "value, no interval, --hands and --seed unused).")
@click.option("--hands", "hands", type=int, default=10000, show_default=True, help="--lbr: hands per seat.")
@click.option("--seed", "lbr_seed", type=int, default=0, show_default=True, help="--lbr: random seed.")
@json_option
def evaluate(game, policy_file, params, as_json, form=None, node=None, spot=None, lbr=False, hands=10000,
             lbr_seed=0):
    """NashConv, exploitability and value of a saved policy (JSON, or networks .npz) on GAME (as `zerosum
    solve` takes it: a name, openspiel:NAME, FILE.efg, or your own game FILE.py:NAME or module:NAME)."""
    from ..core.evaluation import evaluate as evaluate_policy
    from ..core.policy import TabularPolicy
    from .public_tree import evaluate_public, node_report_lines, node_report_public

    try:
        g = load_cli_game(game, params) if spot is None else load_spot_game(game, params, spot)
    except ZerosumError:  # e.g. holdem without --param board=: the policy file names its game in full
        if spot is not None:
            raise
        g = _game_named_in(game, params, policy_file)
    if node is not None:
        from .public_tree import is_public_policy_file

        if str(policy_file).endswith(".npz") or form == "history-tree" or not is_public_policy_file(policy_file):
            raise ZerosumError(f"--node reads a public-tree policy, and {policy_file} is not one; zerosum solve "
                               f"{g.name} --form public-tree --save POLICY.json writes one")
    if str(policy_file).endswith(".npz"):  # networks saved by deep-cfr, sd-cfr, nfsp: tabulated, exact
        from ..deep.network_policy import load_networks, tabulate

        cg = compile_with_progress(g, enabled=not as_json)
        ev = evaluate_policy(cg, tabulate(cg, load_networks(policy_file, cg)))
    else:
        ev = evaluate_public(g, policy_file, form, recorded=node is not None)  # None: a history-tree policy
    lbr_out = None
    if lbr and ev is not None and str(policy_file).endswith(".npz"):  # networks: tabulate them first
        raise ZerosumError(f"--lbr plays a tabular policy, and {policy_file} holds networks; zerosum solve "
                           f"{g.name} --save POLICY.json writes one")
    if lbr and ev is not None:  # a public-tree policy: LBR's exact value (zerosum.solutions.lbr)
        from ..solutions.lbr import public_local_best_response
        from .public_tree import load_public_policy

        public = load_public_policy(g, policy_file)
        lbr_out = public_local_best_response(public.tree, public, ev.value, ev.best_response_values).to_dict()
    if ev is None:
        compile_with_progress(g, enabled=not as_json)
        tabular = TabularPolicy.load(g, policy_file)
        ev = evaluate_policy(g, tabular)
        if lbr:  # zerosum.core.lbr
            from ..core.lbr import local_best_response

            lbr_out = local_best_response(g, tabular, hands, lbr_seed).to_dict()
    out = {"game": g.id, "policy": policy_file, **ev.to_dict()}
    if lbr_out is not None:
        out["lbr"] = lbr_out
    if node is not None:  # per hand at one public node (zerosum.solutions.analysis)
        out["node"] = node_report_public(g, policy_file, node)
    if as_json:
        emit_json(out)
        return
    c = console()
    c.print(f"{g.id}, policy {policy_file}", markup=False)
    c.print(f"  value to player 0:                  {_fixed(ev.value, 6)}")
    if ev.values is not None:  # a raked game: not zero-sum
        c.print(f"  value to player 1 (raked):          {_fixed(ev.values[1], 6)}; the rake "
                f"{_fixed(-sum(ev.values), 6)} a hand")
    c.print(f"  best-response values (p0, p1):      {_fixed(ev.best_response_values[0], 6)}, "
            f"{_fixed(ev.best_response_values[1], 6)}")
    c.print(f"  NashConv (sum of BR gains):         {_fixed(ev.nash_conv, 6)}")
    c.print(f"  exploitability (NashConv / 2):      {_fixed(ev.exploitability, 6)}")
    if lbr_out is not None and lbr_out.get("method") == "exact":
        c.print("  local best response (exact, public tree):")
        for p in (0, 1):
            c.print(f"    seat {p}: LBR gain {lbr_out['gains'][p]:.6f}, best-response gain "
                    f"{lbr_out['best_response_gains'][p]:.6f}")
        c.print(f"    LBR NashConv estimate:            {lbr_out['nash_conv']:.6f} (a lower bound of "
                f"{lbr_out['exact_nash_conv']:.6f}; {lbr_out['seconds']:.2f} s)")
    elif lbr_out is not None:
        from .resolve import print_lbr

        print_lbr(lbr_out)
    if node is not None:
        for line in node_report_lines(out["node"]):
            c.print(line, markup=False)
