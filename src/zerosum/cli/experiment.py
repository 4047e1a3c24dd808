"""``zerosum experiment NAME``: the experiments of :mod:`zerosum.experiments` (one per line of
:data:`~zerosum.experiments.EXPERIMENTS`), their options, and how their reports are printed.

Each command parses its options here and calls its experiment's function, which returns a
:class:`~zerosum.experiments.report.Report`; :func:`experiment_command` adds ``--json`` and
``--plot``/``--no-plot`` and prints the report.  The experiment modules are imported when their
command runs, so ``zerosum experiment --help`` loads none of their solvers, JAX or Ray.
"""

from __future__ import annotations

import functools
import logging
from contextlib import contextmanager

import click

from ..errors import ZerosumError
from ..experiments.discounting import VARIANTS
from ..experiments.learned_oracles import ORACLES
from . import LazyGroup


@click.group(cls=LazyGroup)
def experiment():
    """Run an experiment and print its tables (and draw its figure)."""


def experiment_command(name: str):
    """Turn ``fn(plot, progress, **options) -> Report`` into ``zerosum experiment NAME``.

    Adds ``--json`` and ``--plot PATH`` (default ``zerosum-NAME.png``; ``--no-plot`` for none).
    Under ``--json`` no figure is drawn unless ``--plot PATH`` is given: a script that asked for
    one JSON object on stdout should not find a PNG left in its working folder.
    ``progress`` is False under --json.  Extra click options go between this decorator and fn.
    """
    def deco(fn):
        @click.command(name=name, help=fn.__doc__)
        @click.option("--json", "as_json", is_flag=True, help="Print one JSON object with a 'tables' list.")
        @click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None,
                      help=f"Where to write the figure (PNG); default zerosum-{name}.png, none under --json.")
        @click.option("--no-plot", is_flag=True, help="Do not draw a figure.")
        @functools.wraps(fn)
        def cmd(as_json, plot_path, no_plot, **options):
            from ..plots import check_plot_path
            from .common import emit_json

            if no_plot or (plot_path is None and as_json):
                plot = None
            else:
                plot = plot_path or f"zerosum-{name}.png"
            check_plot_path(plot)
            from ..experiments.report import Report, collecting

            with collecting() as started:
                try:
                    report = fn(plot=plot, progress=not as_json, **options)
                except KeyboardInterrupt:  # the tables it had started, with the rows finished so far
                    report = Report(name, [t for t in started if t.rows], interrupted=True)
            if as_json:
                emit_json(report.to_dict())
            else:
                click.echo(report.render())
            if report.interrupted:
                rows = sum(len(t.rows) for t in report.tables)
                click.echo(f"interrupted (Ctrl-C): the {rows:,} row{'' if rows == 1 else 's'} finished before it "
                           f"{'emitted' if as_json else 'shown'}, the rest not run", err=True)
                raise click.exceptions.Exit(130)

        experiment.add_command(cmd)
        return cmd

    return deco


def ray_options(what: str):
    """The ``--ray auto|ADDRESS`` and ``--workers N`` options of an experiment command (passed
    to it as ``ray_address`` and ``workers``); ``what`` names what one Ray task runs."""
    def deco(fn):
        fn = click.option("--workers", type=int, default=None,
                          help="Ray workers (default: the cluster's CPUs).")(fn)
        return click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
                            help=f"One Ray task per {what} (same numbers as without): auto starts a local "
                                 f"instance, HOST:PORT joins a cluster.")(fn)
    return deco


@contextmanager
def _stderr_lines(logger: str):
    """Each INFO record of ``logger`` as one line on stderr while the block runs (an experiment's
    word on which solver runs now)."""
    class Echo(logging.Handler):
        def emit(self, record):
            click.echo(record.getMessage(), err=True)

    log = logging.getLogger(logger)
    handler, before = Echo(), (log.level, log.propagate)
    log.addHandler(handler)
    log.setLevel(logging.INFO)
    log.propagate = False  # shown here once, whatever the root logger does
    try:
        yield
    finally:
        log.removeHandler(handler)
        log.level, log.propagate = before


#: an experiment that counts its progress in units of expected work (``experiment deep``: each
#: method's iterations weighed by their measured cost) says its expected duration once, when its
#: counted work has run this long: later than ``zerosum solve``'s second, since one unit of the
#: work may take a second or more (a deep-cfr iteration)
ESTIMATE_AFTER_S = 15.0


class _SaysExpectedDuration:
    """A :class:`zerosum.progress.Reporter` that hands everything on to ``inner`` (the command
    line's) and, in a counted task, prints one stderr line with its expected duration
    (the time so far times total / done: right where the steps are proportional to the time) once
    the task has run :data:`ESTIMATE_AFTER_S`, when that duration is past
    :func:`.runs.long_run_seconds` (on stderr: --json's stdout stays one object)."""

    def __init__(self, inner, what: str):
        self.inner = inner
        self.what = what

    @contextmanager
    def counted(self, total, description, enabled, unit):
        import time

        from .runs import _duration, long_run_seconds

        t0 = time.perf_counter()
        done, said = [0], [False]
        with self.inner.counted(total, description, enabled, unit) as advance:
            def wrapped(n=1):
                advance(n)
                done[0] += n
                if said[0]:
                    return
                elapsed = time.perf_counter() - t0
                if elapsed < ESTIMATE_AFTER_S or done[0] <= 0:
                    return
                said[0] = True
                expected = elapsed * total / done[0]
                if expected > long_run_seconds() and done[0] < total:
                    click.echo(f"expected duration: about {_duration(expected)} for {self.what} (timed on the "
                               f"first {_duration(elapsed)}, {100 * done[0] / total:.0f} % of the expected work); "
                               f"Ctrl-C stops early and keeps the finished runs", err=True)

            yield wrapped

    def status(self, description, enabled):
        return self.inner.status(description, enabled)


@experiment_command("discounting")
@click.option("--iterations", "-n", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--games", default="kuhn,leduc", show_default=True, help="Comma-separated game names.")
@click.option("--variants", default=",".join(VARIANTS), show_default=True,
              help="Comma-separated solvers, or all (adds hs-dcfr, hs-pcfr+).")
def _discounting(plot, progress, iterations, games, variants):
    """Linear, discounted and predictive CFR against CFR and CFR+, with the LP's exact value."""
    from ..experiments.discounting import discounting

    return discounting(plot, progress, iterations, games, variants)


@experiment_command("cfr")
@click.option("--iterations", "-n", type=click.IntRange(min=1), default=1000, show_default=True)
@click.option("--game", default="leduc", show_default=True)
def _cfr(plot, progress, iterations, game):
    """Lab 15 Part 1: CFR and CFR+ on Leduc hold'em (average and current NashConv, value, first actions)."""
    from ..experiments.cfr import lab_part1

    return lab_part1(plot, progress, iterations, game)


@experiment_command("mccfr")
@click.option("--seeds", type=click.IntRange(min=1), default=5, show_default=True,
              help="MCCFR runs (seeds 0 .. N-1); the table shows mean, std and range.")
@click.option("--iterations", "-n", type=click.IntRange(min=1), default=100000, show_default=True)
@click.option("--game", default="leduc", show_default=True)
@click.option("--outcome-sampling/--no-outcome-sampling", default=True, show_default=True,
              help="Also run outcome-sampling MCCFR.")
@click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
              help="Run the seeds on Ray: auto starts a local instance, HOST:PORT joins a cluster.")
@click.option("--workers", type=int, default=None, help="Ray workers (default: the cluster's CPUs).")
def _mccfr(plot, progress, seeds, iterations, game, outcome_sampling, ray_address, workers):
    """Lab 15 Part 2: external-sampling MCCFR against CFR and CFR+ at equal nodes touched."""
    from ..distributed.ray_runtime import check_workers
    from ..experiments.mccfr import lab_part2

    check_workers(workers)
    return lab_part2(plot, progress, seeds=seeds, iterations=iterations, game=game,
                     outcome_sampling=outcome_sampling, ray=ray_address, workers=workers)


@experiment_command("sampling-pays")
@click.option("--fraction", type=click.FloatRange(min=0, min_open=True), default=0.1, show_default=True,
              help="Target NashConv as a fraction of the uniform policy's.")
@click.option("--time-limit", type=click.FloatRange(min=0, min_open=True), default=10.0, show_default=True,
              help="Solver seconds allowed per solver and game.")
@click.option("--max-ranks", type=click.IntRange(3, 13), default=13, show_default=True,
              help="Skip members with more ranks.")
@ray_options("family member or hold'em subgame")
def _sampling_pays(plot, progress, fraction, time_limit, max_ranks, ray_address, workers):
    """Grow the poker family; where does MCCFR overtake CFR+ in wall-clock time to a given NashConv?"""
    from ..experiments.sampling_pays import MEMBERS, SUBGAMES, crossover

    members = [m for m in MEMBERS if m["ranks"] <= max_ranks]
    with _stderr_lines("zerosum.experiments.sampling_pays"):
        return crossover(plot, progress, fraction, time_limit, members, SUBGAMES if max_ranks == 13 else (),
                         ray=ray_address, workers=workers)


@experiment_command("psro")
@click.option("--iterations", "-n", type=click.IntRange(min=1), default=150, show_default=True,
              help="Iterations, i.e. strategies per player at the end.")
@click.option("--band/--no-band", default=True, show_default=True,
              help="Rerun PSRO under other LP tie-breaking rules and show the band.")
@click.option("--game", default="leduc", show_default=True)
@ray_options("PSRO run (meta-solver or tie-breaking rule)")
def _psro(plot, progress, iterations, band, game, ray_address, workers):
    """Lab 15 Part 4: iterated best response, fictitious play and PSRO (Nash) with exact best responses."""
    from ..experiments.psro import lab_part4

    return lab_part4(plot, progress, iterations, band, game, ray=ray_address, workers=workers)


@experiment_command("lab15")
def _lab15(plot, progress):
    """Lab 15, all four parts (CFR/CFR+, MCCFR, self-play dynamics, PSRO) in the lab's layout."""
    from ..experiments.lab15 import lab15

    return lab15(plot, progress)


@experiment_command("kuhn")
def _kuhn(plot, progress):
    """The Kuhn-poker notebook: regret matching on RPS, vanilla CFR's value and strategy, CFR vs CFR+."""
    from ..experiments.kuhn import notebook

    return notebook(plot, progress)


@experiment_command("dynamics")
@click.option("--steps", type=click.IntRange(min=1000), default=30000, show_default=True,
              help="Steps of the moving-magnet study.")
def _dynamics(plot, progress, steps):
    """Lab 15 Part 3 (self-play dynamics, current-strategy NashConv), converging moving magnets,
    dilated MMD against CFR+."""
    from ..experiments.dynamics import dynamics_experiment

    return dynamics_experiment(plot, progress, steps)


def _budgets(text: str, name: str) -> tuple[int, ...]:
    """``--budgets``-style text: comma-separated positive integers (blanks skipped)."""
    try:
        values = tuple(int(x) for x in text.split(",") if x.strip())
    except ValueError:
        raise ZerosumError(f"{name} expects comma-separated integers, got {text!r}") from None
    if not values or any(v <= 0 for v in values):
        raise ZerosumError(f"{name} must be positive integers, got {text!r}")
    return values


@experiment_command("learned-oracles")
@click.option("--iterations", "-n", type=click.IntRange(min=2), default=150, show_default=True)
@click.option("--budgets", default="1000,10000,100000", show_default=True, help="Hands per oracle call.")
@click.option("--seeds", type=click.IntRange(min=1), default=2, show_default=True)
@click.option("--oracles", default=",".join(ORACLES), show_default=True)
@click.option("--dqn-max-hands", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Largest budget the DQN runs at.")
@click.option("--sanity-budgets", default="1000,10000,100000,1000000", show_default=True,
              help="Budgets of the oracle-error table against fixed opponents ('' for none).")
@click.option("--sanity-dqn-max-hands", type=click.IntRange(min=1), default=100000, show_default=True,
              help="Largest budget the DQN runs at in the oracle-error table (10^6 takes ~80 CPU s per call).")
@click.option("--quick", is_flag=True, help="A small run: 10 iterations, budgets 300 and 1000, one seed.")
@click.option("--game", default="leduc", show_default=True)
@ray_options("(oracle, budget, seed) PSRO run")
def _learned(plot, progress, iterations, budgets, seeds, oracles, dqn_max_hands, sanity_budgets, sanity_dqn_max_hands,
             quick, game, ray_address, workers):
    """PSRO with learned best responses (Q-learning, policy gradient, DQN) against the exact oracle."""
    from ..experiments.learned_oracles import learned_oracles

    budgets = _budgets(budgets, "--budgets")
    sanity_budgets = _budgets(sanity_budgets, "--sanity-budgets") if sanity_budgets.strip() else ()
    oracles = tuple(o.strip() for o in oracles.split(",") if o.strip())
    if quick:
        iterations, budgets, seeds, dqn_max_hands, sanity_budgets = 10, (300, 1000), 1, 1000, (1000,)
        sanity_dqn_max_hands = 1000
    return learned_oracles(plot, progress, iterations, budgets, seeds, oracles, dqn_max_hands, game,
                           sanity_budgets, ray=ray_address, workers=workers,
                           sanity_dqn_max_hands=sanity_dqn_max_hands)


def _samples(text: str) -> tuple[int, ...]:
    """``--samples`` text: comma-separated positive integers."""
    try:
        values = tuple(int(v) for v in text.split(","))
    except ValueError:
        raise ZerosumError(f"expected comma-separated integers, got {text!r}") from None
    if not values or any(v <= 0 for v in values):
        raise ZerosumError(f"expected positive integers, got {text!r}")
    return values


@experiment_command("approximation")
@click.option("--game", default="leduc", show_default=True)
@click.option("--samples", default="10000,100000", show_default=True, help="Sampled information sets per fit.")
@click.option("--steps", type=int, default=16000, show_default=True, help="Adam steps per network.")
@click.option("--quick", is_flag=True, help="A tiny run (Kuhn, one small network) for tests.")
def _approximation(plot, progress, game, samples, steps, quick):
    """Distill CFR+'s average into small networks and measure the NashConv it costs (Lab 15)."""
    from ..experiments.approximation import approximation

    if steps <= 0:
        raise ZerosumError(f"--steps must be positive, got {steps}")
    if quick:
        return approximation(plot, progress, game="kuhn", cfr_iterations=200, sizes=((8,),), samples=(2000,),
                             steps=300, batch=64)
    return approximation(plot, progress, game=game, samples=_samples(samples), steps=steps)


@experiment_command("deep")
@click.option("--game", default="kuhn", show_default=True)
@click.option("--seeds", type=int, default=3, show_default=True)
@click.option("--quick", is_flag=True, help="A tiny run for tests (one seed, a few iterations, small settings).")
@ray_options("(method, seed) run")
def _deep(plot, progress, game, seeds, quick, ray_address, workers):
    """Deep CFR, SD-CFR and NFSP against CFR+: exact NashConv by nodes touched and CPU time."""
    from ..experiments.deep import METHODS, deep
    from ..progress import reporter, reporting

    if seeds <= 0:
        raise ZerosumError(f"--seeds must be positive, got {seeds}")
    if quick:
        small = {"traversals": 20, "advantage_steps": 20, "batch": 32, "memory": 2000}
        kwargs = {"game": "kuhn", "seeds": 1, "iterations": {"deep-cfr": 3, "sd-cfr": 3, "nfsp": 20},
                  "options": {"deep-cfr": {**small, "policy_steps": 20}, "sd-cfr": small,
                              "nfsp": {"hands": 32, "batch": 16, "replay": 1000, "reservoir": 1000}},
                  "cfr_iterations": 50}
    else:
        kwargs = {"game": game, "seeds": seeds}
    runs = len(METHODS) * kwargs["seeds"]
    inner = reporter()
    with reporting(_SaysExpectedDuration(inner, f"the {runs} (method, seed) runs") if inner else inner):
        return deep(plot, progress, ray=ray_address, workers=workers, **kwargs)


@experiment_command("subgames")
@click.option("--blueprint-iterations", type=click.IntRange(min=1), default=20, show_default=True,
              help="CFR+ iterations of the coarse blueprint.")
@click.option("--iterations", "-n", type=click.IntRange(min=1), default=500, show_default=True,
              help="CFR+ iterations of each subgame.")
@click.option("--hands", type=click.IntRange(min=2), default=20000, show_default=True, help="LBR hands per seat.")
@click.option("--seed", type=int, default=0, show_default=True, help="LBR's random seed.")
@click.option("--larger/--no-larger", default=True, show_default=True,
              help="Also re-solve poker(ranks=13) at its check-check flops (about a minute).")
@click.option("--quick", is_flag=True, help="A small run for tests: Leduc, two states, short solves, 500 hands.")
def _subgames(plot, progress, blueprint_iterations, iterations, hands, seed, larger, quick):
    """Subgame re-solving (unsafe, resolve, maxmargin, reach) at the flop, exact NashConv; LBR against the exact BR."""
    from ..experiments.subgames import subgames

    return subgames(plot, progress, blueprint_iterations=blueprint_iterations, iterations=iterations, hands=hands,
                    seed=seed, larger=larger, quick=quick)


@experiment_command("depth-limited")
@click.option("--blueprint-iterations", "blueprints", type=click.IntRange(min=1), multiple=True, default=(10, 100),
              show_default=True, help="DCFR iterations of a blueprint on the whole tree (repeat for several).")
@click.option("--iterations", "-n", type=click.IntRange(min=1), multiple=True, default=(100, 300), show_default=True,
              help="DCFR iterations of each depth-limited solve (repeat for several).")
@click.option("--quick", is_flag=True, help="A small run for tests: a narrow-range turn spot, 5 and 50 iterations.")
def _depth_limited(plot, progress, blueprints, iterations, quick):
    """Depth-limited solving: Leduc and the limit turn subgame cut at the river, one and four continuations."""
    from ..experiments.subgames import depth_limited

    return depth_limited(plot, progress, blueprints=blueprints, iterations=iterations, quick=quick)


@experiment_command("abstraction")
@click.option("--iterations", "-n", type=click.IntRange(min=1), default=200, show_default=True,
              help="CFR+ iterations of the abstract and of the unabstracted solves.")
@click.option("--resolve-iterations", type=click.IntRange(min=1), default=200, show_default=True,
              help="CFR+ iterations of each re-solved flop subgame.")
@click.option("--quick", is_flag=True, help="A small run for tests: Leduc, k = 1 and 3, 20 iterations.")
def _abstraction(plot, progress, iterations, resolve_iterations, quick):
    """Card abstraction: buckets of hands by E[HS], the lifted blueprint's exact NashConv, re-solved at the flop."""
    from ..experiments.subgames import abstraction

    return abstraction(plot, progress, iterations=iterations, resolve_iterations=resolve_iterations, quick=quick)
