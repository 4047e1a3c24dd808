"""Issue 52 item 2: a last-iterate method's headline, --json and saved policy are one strategy.

mmd, magnet, moving-magnet and proximal-magnet are judged by their current strategy: ``--save``
writes it, so the headline exploitability, the ``--json`` fields and ``zerosum evaluate`` on the
saved file must all agree, and the output says which strategy it describes."""

import json
import re

import click.testing
import pytest

import zerosum.cli


def _invoke(*args):
    return click.testing.CliRunner().invoke(zerosum.cli.cli, list(args))


def _evaluate(path) -> dict:
    r = _invoke("evaluate", "kuhn", str(path), "--json")
    assert r.exit_code == 0, r.output
    return json.loads(r.stdout)


@pytest.mark.parametrize("algorithm", ["mmd", "magnet", "moving-magnet", "proximal-magnet"])
def test_json_headline_is_the_saved_strategy(tmp_path, algorithm):
    path = tmp_path / f"{algorithm}.json"
    r = _invoke("solve", "kuhn", "-a", algorithm, "-n", "200", "--save", str(path), "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    ev = _evaluate(path)
    assert res["result_strategy"] == "current" and res["saved_strategy"] == "current"
    assert res["nash_conv"] == pytest.approx(ev["nash_conv"], abs=1e-12)
    assert res["exploitability"] == pytest.approx(ev["nash_conv"] / 2, abs=1e-12)
    assert res["value"] == pytest.approx(ev["value"], abs=1e-12)
    # the average's figures are still there, under their own names, and differ
    last = res["checkpoints"][-1]
    assert res["nash_conv_average"] == last["nash_conv_average"] != res["nash_conv"]
    assert res["value_average"] == last["value_average"]
    # first_actions: of the saved strategy too
    saved = json.loads(path.read_text())["players"][0]
    for label, probs in res["first_actions"].items():
        assert probs == pytest.approx(saved[label], abs=1e-12)


def test_text_headline_matches_evaluate_and_names_the_strategy(tmp_path):
    path = tmp_path / "mmd.json"
    r = _invoke("solve", "kuhn", "-a", "mmd", "-n", "300", "--save", str(path))
    assert r.exit_code == 0, r.output
    head = re.search(r"exploitability \(NashConv / 2\): ([0-9.]+) \(current strategy, the last iterate\)", r.output)
    assert head, r.output
    assert float(head.group(1)) == pytest.approx(_evaluate(path)["exploitability"], abs=1e-6)
    assert "value of the game to player 0 (current strategy, the last iterate)" in r.output
    assert "the average strategy's:" in r.output


def test_average_methods_keep_the_average(tmp_path):
    path = tmp_path / "cfr.json"
    r = _invoke("solve", "kuhn", "-a", "cfr+", "-n", "50", "--form", "history-tree", "--save", str(path), "--json")
    assert r.exit_code == 0, r.output
    res = json.loads(r.stdout)
    assert res["result_strategy"] == "average" and res["nash_conv"] == res["nash_conv_average"]
    assert res["nash_conv"] == pytest.approx(_evaluate(path)["nash_conv"], abs=1e-12)
    r = _invoke("solve", "kuhn", "-a", "cfr+", "-n", "50")
    assert "exploitability (NashConv / 2):" in r.output and "(average strategy)" in r.output
