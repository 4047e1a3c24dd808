"""``zerosum batch`` (one spot template solved on many flops, :mod:`zerosum.batch.run`) and
``zerosum report`` (the aggregate of a results folder, :mod:`zerosum.batch.report`); docs/batch.md."""

from __future__ import annotations

import click

from .common import emit_json

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")


def _duration(seconds: float) -> str:
    if seconds < 120:
        return f"{seconds:.0f} s"
    if seconds < 7200:
        return f"{seconds / 60:.0f} min"
    return f"{seconds / 3600:.1f} h"


@click.command()
@click.argument("spot", type=click.Path(dir_okay=False))
@click.option("--flops", "flops", default="all", show_default=True, metavar="SET",
              help="all (the 1,755 flop classes), random:N[:SEED] (a stratified subset with weights), a texture "
                   "(monotone, two-tone, rainbow, paired, unpaired, trips, connected, disconnected, high:A; join with +) "
                   "or a file with one flop a line.")
@click.option("--target", default="0.5%", show_default=True, metavar="PCT%",
              help="Stop each flop once its exploitability (NashConv / 2) is at most this % of the starting pot "
                   "(checked every 10 iterations, at most 1,000).")
@click.option("--out", "out", required=True, type=click.Path(file_okay=False), metavar="FOLDER",
              help="Results folder: one JSON file a flop, written as each finishes; a rerun skips the flops done.")
@click.option("--workers", type=int, default=None,
              help="Flops solved at once (Ray tasks); 1 without --ray: a plain loop in this process. "
                   "Default: the machine's (or cluster's) CPUs.")
@click.option("--ray", "ray_address", default=None, metavar="auto|ADDRESS",
              help="Ray to run on: auto (a local instance, the default unless --workers 1) or HOST:PORT (a cluster).")
@click.option("--limit", type=click.IntRange(min=0), default=None, metavar="N",
              help="Solve at most N flops this time (a rerun goes on with the rest).")
@click.option("--worker-memory", "worker_gb", type=click.FloatRange(min=0, min_open=True), default=None, metavar="GB",
              help="The memory a flop task may take; a template whose task's estimate is larger is refused before "
                   "any flop. Default: 70 % of the available memory / --workers (a cluster: each node's memory a CPU).")
@click.option("--save-solutions", is_flag=True,
              help="Also write each flop's whole solution, FOLDER/FLOP.zsp (zerosum evaluate reads it).")
@json_option
def batch(spot, flops, target, out, workers, ray_address, limit, worker_gb, save_solutions, as_json):
    """Solve the hold'em spot template SPOT (its board replaced by each flop) on every flop of a set,
    each to a target in % of the pot, writing each flop's result to FOLDER as it finishes.

    Progress and the expected time left go to stderr; `zerosum report FOLDER` reads the results.
    """
    from ..batch.run import run_batch

    def progress(e):
        eta = f", about {_duration(e['eta'])} left" if e["done"] < e["total"] else ""
        click.echo(f"[{e['done']}/{e['total']}] {e['flop']}: {e['iterations']} iterations, "
                   f"{e['exploitability_pct']:.3f} % of the pot; {_duration(e['seconds'])} so far{eta}", err=True)

    summary = run_batch(spot, flops, target, out, workers=workers, ray=ray_address, limit=limit, progress=progress,
                        worker_bytes=None if worker_gb is None else int(worker_gb * 1e9), save_solutions=save_solutions)
    if as_json:
        emit_json(summary)
        return
    rate = f", {summary['flops_per_hour']:,.0f} flops an hour" if summary["flops_per_hour"] else ""
    how = f"{summary['workers']} Ray workers" if summary["ray"] else "one process"
    click.echo(f"{summary['solved']} flops solved in {_duration(summary['seconds'])} ({how}{rate}); "
               f"{summary['already_done']} were already done, {summary['left']} left of {summary['flops']}; "
               f"results in {summary['folder']} (zerosum report {summary['folder']})")


@click.command()
@click.argument("folder", type=click.Path(file_okay=False))
@click.option("--csv", "csv_path", type=click.Path(dir_okay=False), default=None, metavar="FILE",
              help="Also write the table as CSV (a row a flop, then the weighted total).")
@click.option("--plot", "plot_path", type=click.Path(dir_okay=False), default=None, metavar="FILE.png",
              help="Plot each flop's root action frequencies and EV, grouped by texture, and a heat map of the "
                   "weighted bet frequency by high card x texture.")
@json_option
def report(folder, csv_path, plot_path, as_json):
    """The aggregate of a `zerosum batch` results FOLDER: each flop's root action frequencies and EV
    for the first player to act, and their total weighted by each flop's weight."""
    from ..batch.report import aggregate, heatmap_table, plot, read_results, write_csv

    if plot_path:
        from ..plots import check_plot_path

        check_plot_path(plot_path)
    rep = aggregate(read_results(folder))
    if csv_path:
        write_csv(rep, csv_path)
    if plot_path:
        plot(rep, plot_path)
    if as_json:
        emit_json({**rep, "heatmap": heatmap_table(rep)})
        return
    actions = rep["actions"]
    head = f"{'flop':<8} {'weight':>8} {'texture':<22}" + "".join(f" {a:>7}" for a in actions) + \
        f" {'EV':>8} {'expl %':>7} {'iters':>6}"
    click.echo(f"player 0 at the root, {len(rep['rows'])} flops; frequencies, EV in chips (pot {rep['pot']:g})")
    click.echo(head)
    for r in rep["rows"]:
        click.echo(f"{r['flop']:<8} {r['weight']:8.1f} {r['group']:<22}" +
                   "".join(f" {r['frequencies'][a]:7.3f}" for a in actions) +
                   f" {r['ev']:8.3f} {r['exploitability_pct']:7.3f} {r['iterations']:6d}")
    for name, t in [*rep["by_group"].items(), ("total", rep["total"])]:
        label = "TOTAL" if name == "total" else ""
        click.echo(f"{label:<8} {t['weight']:8.1f} {name if name != 'total' else 'weighted':<22}" +
                   "".join(f" {t['frequencies'][a]:7.3f}" for a in actions) +
                   f" {t['ev']:8.3f} {t['exploitability_pct']:7.3f} {t['iterations']:6.0f}")
    if rep["classes"]:
        click.echo("\nplayer 0 at the root by hand class, over the flops (each weighted by its flop weight x how often "
                   "the class is held there): share of the range, frequencies, EV, EV by action (chips)")
        click.echo(f"{'class':<8} {'weight':>8} {'flops':>5}" + "".join(f" {a:>7}" for a in actions) +
                   f" {'EV':>8}" + "".join(f" {'EV ' + a:>8}" for a in actions))
        for name, c in rep["classes"].items():
            click.echo(f"{name:<8} {c['weight']:8.4f} {c['flops']:5d}" +
                       "".join(f" {c['frequencies'][a]:7.3f}" for a in actions) + f" {c['ev']:8.3f}" +
                       "".join(f" {c['action_ev'][a]:8.3f}" if c["action_ev"][a] is not None else f" {'-':>8}"
                               for a in actions))
    for what, path in (("CSV", csv_path), ("plot", plot_path)):
        if path:
            click.echo(f"{what}: {path}")
