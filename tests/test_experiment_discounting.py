"""`zerosum experiment discounting`: every variant (--variants all), game specs with parameters,
the uniform policy's NashConv and the CPU time to fractions of it."""

from __future__ import annotations

import json

from click.testing import CliRunner

from zerosum.cli import cli


def test_all_variants_and_cpu_time_to_thresholds():
    r = CliRunner().invoke(cli, ["experiment", "discounting", "--iterations", "100", "--variants", "all",
                                 "--games", "poker(ranks=3,copies=1,rounds=1,raises=1,bets=[1])", "--json"])
    assert r.exit_code == 0, r.output
    (table,) = json.loads(r.stdout)["tables"]
    # Kuhn's uniform policy: NashConv 11/12 (OpenSpiel's exploitability of it is 0.458333)
    assert "uniform policy's NashConv 0.9167" in table["title"]
    assert [row[0] for row in table["rows"]] == ["cfr", "cfr+", "lcfr", "dcfr", "pcfr+", "pdcfr+",
                                                 "hs-dcfr", "hs-pcfr+"]
    cols = table["columns"]
    assert cols[-2:] == ["CPU s to 0.001 x uniform", "CPU s to 1e-05 x uniform"]
    for row in table["rows"]:
        rec = dict(zip(cols, row))
        total = rec["ms / iteration"] * 100 / 1e3
        for f in (1e-3, 1e-5):
            t = rec[f"CPU s to {f:g} x uniform"]
            if rec["100"] <= f * 11 / 12:  # reached by the end: a time, within the run's
                assert t is not None and 0 <= t <= total + 1e-6
        t3, t5 = rec["CPU s to 0.001 x uniform"], rec["CPU s to 1e-05 x uniform"]
        assert t5 is None or (t3 is not None and t3 <= t5)
    by = {row[0]: dict(zip(cols, row)) for row in table["rows"]}
    assert by["pdcfr+"]["CPU s to 1e-05 x uniform"] is not None  # 2e-7 at 100 iterations on Kuhn
    assert by["cfr"]["CPU s to 0.001 x uniform"] is None  # CFR is at 1.6e-2


def test_bad_game_spec_is_one_line():
    r = CliRunner().invoke(cli, ["experiment", "discounting", "--games", "poker(ranks6)", "--no-plot"])
    assert r.exit_code == 1 and r.output.startswith("Error: ") and "poker(ranks=6)" in r.output
    assert len(r.output.strip().splitlines()) == 1
