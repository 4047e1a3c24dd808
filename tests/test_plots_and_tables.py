"""Readable figures (issue 10 item 6): exact zeros shown, no matplotlib warnings, one legend for
many games, distinct styles, denser curves than the table's checkpoints, no curve for the LP."""

import json
import warnings

import pytest
from click.testing import CliRunner

from zerosum import plots
from zerosum.cli import cli


@pytest.fixture
def captured(monkeypatch):
    """The figures plots would write, kept open for inspection instead."""
    figs = []
    monkeypatch.setattr(plots, "save_figure", lambda fig, path: figs.append(fig))
    yield figs
    for fig in figs:
        plots.pyplot().close(fig)


def test_exact_zeros_are_drawn_on_a_floor_not_dropped(captured):
    with warnings.catch_warnings():
        warnings.simplefilter("error")                 # "No artists with labels" would fail here
        plots.convergence([{"iteration": i, "nash_conv_average": 0.0, "nash_conv_current": 0.0}
                           for i in (10, 30, 100)], "x.png", "cfr+ on rps")
    ax = captured[0].axes[0]
    curves = [line for line in ax.get_lines() if line.get_label() in ("average strategy", "current strategy")]
    assert [list(line.get_xdata()) for line in curves] == [[10, 30, 100]] * 2
    floor = curves[0].get_ydata()[0]
    lo, hi = ax.get_ylim()
    assert floor > 0 and lo < floor < hi
    assert "exactly 0 (drawn here)" in [t.get_text() for t in ax.get_legend().get_texts()]


def test_mixed_zero_and_positive_values(captured):
    plots.loglog({"a": ([1, 2, 4], [1.0, 0.01, 0.0])}, "x.png", "t")
    line = next(line for line in captured[0].axes[0].get_lines() if line.get_label() == "a")
    ys = list(line.get_ydata())
    assert ys[:2] == [1.0, 0.01] and ys[2] == pytest.approx(0.001)


def test_many_series_get_distinct_styles_and_an_outside_legend(captured):
    series = {f"s{k}": ([1, 10], [1.0 / (k + 1), 0.1 / (k + 1)]) for k in range(19)}
    plots.loglog(series, "x.png", "t")
    ax = captured[0].axes[0]
    looks = {(line.get_color(), line.get_linestyle(), line.get_marker()) for line in ax.get_lines()}
    assert len(looks) == 19
    anchor = ax.get_legend().get_bbox_to_anchor().transformed(ax.transAxes.inverted())
    assert anchor.x0 > 1.0                             # right of the axes, not over the curves


def test_panels_share_one_legend(captured):
    panels = {f"{r} ranks": {name: ([0.1, 1.0], [5.0, 0.5]) for name in ("CFR+", "ES-MCCFR", "OS-MCCFR")}
              for r in (3, 4, 5, 6, 7)}
    plots.loglog_panels(panels, "x.png", "t", hlines={"target": 1.0})
    fig = captured[0]
    visible = [ax for ax in fig.axes if ax.get_visible()]
    assert [ax.get_title() for ax in visible] == [f"{r} ranks" for r in (3, 4, 5, 6, 7)]
    assert [t.get_text() for t in fig.legends[0].get_texts()] == ["CFR+", "ES-MCCFR", "OS-MCCFR", "target"]
    colours = [{line.get_label(): line.get_color() for line in ax.get_lines()} for ax in visible]
    assert all(c["CFR+"] == colours[0]["CFR+"] for c in colours)


def test_solve_plot_is_denser_than_the_table(captured):
    r = CliRunner().invoke(cli, ["solve", "kuhn", "-n", "300", "--plot", "k.png", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [c["iteration"] for c in out["checkpoints"]] == [10, 30, 100, 300]
    line = next(line for line in captured[0].axes[0].get_lines() if line.get_label() == "average strategy")
    xs = list(line.get_xdata())
    assert len(xs) >= 20 and xs[0] == 1 and xs[-1] == 300 and {10, 30, 100, 300} <= set(xs)
    by_it = dict(zip(xs, line.get_ydata()))
    for c in out["checkpoints"]:
        assert by_it[c["iteration"]] == pytest.approx(c["nash_conv_average"], rel=1e-12)


def test_experiment_tables_fit_80_columns_and_counts_have_separators():
    from zerosum.experiments.dynamics import moving_magnet_study
    from zerosum.experiments.report import Table

    table, _ = moving_magnet_study(steps=20)
    assert max(len(line) for line in table.render().splitlines()[1:]) <= 80
    t = Table("t", ["nodes touched", "NashConv"], digits=[0, 4])
    t.add(3645331.0, 0.00031)
    assert t.render().splitlines()[-1].split() == ["3,645,331", "0.0003"]
    assert t.to_dict()["rows"] == [[3645331.0, 0.0003]]       # JSON keeps the numbers
    t.add(-0.2, -1e-9)
    assert t.render().splitlines()[-1].split() == ["0", "0.0000"]   # no "-0", no "-0.0000"
