"""The experiments that reproduce the seeds: psro (Lab 15 Part 4), lab15 (all parts), kuhn."""

import json

import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.experiments import EXPERIMENTS, lab15
from zerosum.experiments.psro import lab_part4

KUHN_VALUE = -1 / 18


def _run(*args):
    res = CliRunner().invoke(cli, list(args))
    assert res.exit_code == 0, res.output
    return res.output


def test_registered():
    for name in ("psro", "lab15", "kuhn"):
        assert name in EXPERIMENTS


def test_part4_table_as_printed_and_figure(tmp_path):
    plot = tmp_path / "p4.png"
    rep = lab_part4(plot=str(plot), iterations=10)
    table = rep.tables[0]
    assert table.columns == ["iterations", "1", "5", "10"]
    # the lab's digits for the first three checkpoints, as printed (3 decimals)
    assert table.to_dict()["rows"] == [["iterated BR", 4.747, 6.761, 5.8],
                                       ["fictitious play", 4.747, 3.97, 2.547],
                                       ["PSRO (Nash)", 4.747, 4.836, 3.041]]
    assert plot.stat().st_size > 0 and rep.figures == [str(plot)]


def test_part4_band_brackets_the_default_run():
    rep = lab_part4(iterations=12, band=True)
    band = rep.tables[1].rows
    default, lo, hi = band[0], band[-2], band[-1]
    assert lo[0].startswith("band") and hi[0].startswith("band")
    for d, a, b in zip(default[1:], lo[1:], hi[1:]):
        assert a <= d <= b


def test_psro_command_json():
    out = json.loads(_run("experiment", "psro", "--json", "--no-plot", "-n", "5", "--no-band"))
    assert out["experiment"] == "psro" and out["figures"] == []
    (table,) = out["tables"]
    assert table["rows"][1] == ["fictitious play", 4.747, 3.97]


def test_figure_names_derive_from_plot():
    assert lab15.figure_path("out/zerosum-lab15.png", 3) == "out/zerosum-lab15-part3.png"
    assert lab15.figure_path(None, 1) is None


def test_header_counts_deals_and_information_sets():
    assert lab15.header() == "Leduc hold'em: 24 deals of ranks, 288 information sets (144 per player)"


def test_missing_parts_say_so_and_never_print_numbers(monkeypatch, tmp_path):
    monkeypatch.setattr(lab15, "PARTS", {
        1: ("no_such_module_here", "lab_part1", {}),
        2: ("psro", "no_such_function", {}),
        4: ("psro", "lab_part4", {"iterations": 5}),
    })
    plot = tmp_path / "lab.png"
    out = _run("experiment", "lab15", "--plot", str(plot))
    assert "Part 1: not available yet" in out and "Part 2: not available yet" in out
    assert "PSRO (Nash)" in out and (tmp_path / "lab-part4.png").exists()
    assert not (tmp_path / "lab-part1.png").exists()
    data = json.loads(_run("experiment", "lab15", "--json", "--no-plot"))
    assert [p["available"] for p in data["parts"]] == [False, False, True]
    assert len(data["tables"]) == 1 and data["tables"][0]["rows"][0][:2] == ["iterated BR", 4.747]
    assert "Part 1: not available yet" in data["notes"]


@pytest.fixture(scope="module")
def kuhn_report():
    from zerosum.experiments.kuhn import notebook

    return notebook()


def test_kuhn_regret_matching(kuhn_report):
    rows = {r[0]: r for r in kuhn_report.tables[0].printed_rows()}
    assert rows["against 'always rock'"][1:] == [1000, 0.0, 0.999, 0.0]
    for label in ("self-play, both from uniform (row player)", "self-play, row player starting on rock"):
        assert all(abs(p - 1 / 3) < 0.01 for p in rows[label][2:])


def test_kuhn_cfr_value_and_strategy(kuhn_report):
    value = kuhn_report.tables[1].rows
    assert abs(value[0][1] - KUHN_VALUE) < 1e-3  # value of the average profile
    assert abs(value[1][1] - KUHN_VALUE) < 1e-3  # the notebook's running mean
    strat = {r[0]: r for r in kuhn_report.tables[2].rows}
    assert list(strat) == [c + h for c in "JQK" for h in ("", "p", "pb", "b")]
    for r in strat.values():
        assert r[2] + r[3] == pytest.approx(1.0)
    # Kuhn's equilibrium: player 1 is unique (bluff J after a pass 1/3, call with Q 1/3, K always bets)
    assert strat["Jp"][3] == pytest.approx(1 / 3, abs=0.02)
    assert strat["Qb"][3] == pytest.approx(1 / 3, abs=0.02)
    assert strat["Kb"][3] == pytest.approx(1.0, abs=1e-3) and strat["Jpb"][2] == pytest.approx(1.0, abs=1e-3)
    # player 0's family: K bets 3 alpha, Q calls alpha + 1/3
    alpha = strat["J"][3]
    assert strat["K"][3] == pytest.approx(3 * alpha, abs=0.03)
    assert strat["Qpb"][3] == pytest.approx(alpha + 1 / 3, abs=0.02)


def test_kuhn_cfr_plus_and_convergence(kuhn_report):
    cfr, plus = kuhn_report.tables[3].rows
    assert plus[4] < cfr[4]  # CFR+'s average is less exploitable after the same iterations
    conv = kuhn_report.tables[4].rows
    assert [r[0] for r in conv] == [10, 30, 100, 300, 1000, 3000, 10000, 30000]
    nc = [r[3] for r in conv]
    assert nc == sorted(nc, reverse=True) and nc[-1] < 0.003
