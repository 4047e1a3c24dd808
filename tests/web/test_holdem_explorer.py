"""The explorer on hold'em solutions: a finished run of the solve view opened directly
(``POST /api/policies {"run": ID}``), its per-hand figures equal to ``zerosum evaluate holdem FILE
--node LABEL --json`` on the run's downloaded policy, the range's action frequencies the
reach-weighted mean of the per-hand strategies, the betting in chips; and in a real browser the
grid's pinned figures, the table sorted by EV, and the phone layout (390x844)."""

from __future__ import annotations

import json
import time

import numpy as np
import pytest
from click.testing import CliRunner

#: a river spot with narrow ranges (39 public nodes): solves to 0.1 % of the pot in well under a second
TINY = {"name": "tiny river", "board": "Ks7d2c9h5s", "pot": 10, "stack": 100,
        "ranges": ["AA,KK,QQ,AK,A5s,76s,98s", "AA,KK,JJ,AQ,T9s,K9s,55"],
        "streets": {"river": {"bet": ["50%", "a"], "raise": ["2.5x"]}}}
#: player 0 checks, player 1 bets 5 into 10: player 0 faces a bet
FACING = "::cb5"


def solved_run(client, spot=TINY, target=0.001) -> str:
    r = client.post("/api/runs", json={"game": "holdem", "spot": spot, "iterations": 2000,
                                       "target_pot_fraction": target})
    assert r.status_code == 200, r.text
    rid = r.json()["id"]
    deadline = time.time() + 120
    while client.get(f"/api/runs/{rid}").json()["status"] in ("starting", "running"):
        assert time.time() < deadline, "the run did not finish"
        time.sleep(0.05)
    view = client.get(f"/api/runs/{rid}").json()
    assert view["status"] == "finished", view
    return rid


@pytest.fixture(scope="module")
def opened(client, tmp_path_factory):
    """(policy summary, the run's downloaded policy file) of a finished tiny river run."""
    rid = solved_run(client)
    summary = client.post("/api/policies", json={"run": rid})
    assert summary.status_code == 200, summary.text
    path = tmp_path_factory.mktemp("explorer") / "river.json"
    data = client.get(f"/api/runs/{rid}/policy").json()
    # the download puts the run's params first, and ``zerosum evaluate`` recognizes a public-tree
    # policy by its first 200 characters: the file as ``zerosum solve holdem --save`` writes it
    data.pop("params")
    path.write_text(json.dumps(data, separators=(",", ":")))
    return summary.json(), path


def cli_node(path, label) -> dict:
    from zerosum.cli import cli

    r = CliRunner().invoke(cli, ["evaluate", "holdem", str(path), "--node", label, "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def test_a_finished_run_opens_as_a_holdem_policy(client, opened):
    summary, path = opened
    data = json.loads(path.read_text())
    assert summary["kind"] == "holdem" and summary["game"] == data["game"]
    assert summary["root"] == "::" and summary["pot"] == 10 and summary["stack"] == 100
    assert summary["run"] and summary["iteration"] > 0
    # the same exact figures as the downloaded file's, loaded as a file
    again = client.post("/api/policies/upload", content=path.read_bytes()).json()
    for key in ("value", "nash_conv"):
        assert summary[key] == pytest.approx(again[key], abs=1e-9)
    assert summary["exploitability"] / 10 <= 0.001  # the run's target, 0.1 % of the pot


@pytest.mark.parametrize("label", ["::", FACING, "::b5"])
def test_the_per_hand_table_is_the_clis_node_report(client, opened, label):
    summary, path = opened
    node = client.get(f"/api/policies/{summary['id']}/node", params={"label": label}).json()
    cli = cli_node(path, label)["node"]
    assert node["label"] == cli["label"] == label and node["actions"] == cli["actions"]
    for mine, theirs in zip(node["players"], cli["players"]):
        assert mine["hands"] == theirs["hands"]
        for key in ("ev", "equity", "weight", "reach"):
            a = np.array([np.nan if x is None else x for x in mine[key]])
            b = np.array([np.nan if x is None else x for x in theirs[key]])
            np.testing.assert_allclose(a, b, rtol=1e-9, atol=1e-9, equal_nan=True)
        if "strategy" in theirs:
            np.testing.assert_allclose(mine["strategy"], theirs["strategy"], atol=1e-12)
        # one hand by name, as a reader of the table would: AsAh's EV, the CLI's to 1e-9
        if "AsAh" in theirs["hands"]:
            i = theirs["hands"].index("AsAh")
            assert mine["ev"][i] == pytest.approx(theirs["ev"][i], abs=1e-9)


def test_the_ranges_action_frequencies_are_the_reach_weighted_mean(client, opened):
    summary, _ = opened
    for label in ("::", FACING):
        node = client.get(f"/api/policies/{summary['id']}/node", params={"label": label}).json()
        entry = node["players"][node["player"]]
        weight, strategy = np.array(entry["weight"]), np.array(entry["strategy"])
        reach_prob = np.array(entry["probability"])
        assert weight.sum() == pytest.approx(1.0)
        mean = strategy @ (reach_prob / reach_prob.sum())
        np.testing.assert_allclose(entry["action_mix"], mean, atol=1e-12)
        assert sum(entry["action_mix"]) == pytest.approx(1.0)


def test_the_betting_is_in_chips(client, opened):
    summary, _ = opened
    root = client.get(f"/api/policies/{summary['id']}/node", params={"label": "::"}).json()
    b = root["betting"]
    assert b["pot"] == 10 and b["stacks"] == [100, 100] and b["to_call"] == 0 and b["street"] == "river"
    assert [a["text"] for a in b["actions"]] == ["check", "bet 5 (50 % pot)", "all-in 100 (1000 % pot)"]
    children = b["children"]
    assert [c["label"] for c in children] == [c["label"] for c in root["children"]] == ["::c", "::b5", "::a"]
    assert [c["text"] for c in children] == ["check", "bet 5 (50 % pot)", "all-in 100 (1000 % pot)"]
    assert [c["pot"] for c in children] == [10, 15, 110]
    facing = client.get(f"/api/policies/{summary['id']}/node", params={"label": FACING}).json()
    b = facing["betting"]
    assert b["pot"] == 15 and b["stacks"] == [100, 95] and b["to_call"] == 5 and b["effective_stack"] == 95
    # the raise: to 13 on the street, 8 past the call = 40 % of the pot after calling (20)
    assert [a["text"] for a in b["actions"]] == ["fold", "call 5", "raise to 13 (40 % pot)"]
    assert [a["chips"] for a in b["actions"]] == [0, 5, 13]
    assert [s["text"] for s in facing["path"]] == ["root", "check", "bet 5 (50 % pot)"]
    assert [s["pot"] for s in facing["path"]] == [10, 10, 15]
    assert [c["text"] for c in b["children"]] == ["fold", "call 5", "raise to 13 (40 % pot)"]


def test_eqr_is_ev_over_equity_times_the_pot(client, opened):
    summary, _ = opened
    node = client.get(f"/api/policies/{summary['id']}/node", params={"label": FACING}).json()
    b = node["betting"]
    for entry in node["players"]:
        put = b["contributions"][entry["player"]]
        for ev, eq, eqr in zip(entry["ev"], entry["equity"], entry["eqr"]):
            if ev is None or eq is None or eq <= 0:
                assert eqr is None
            else:
                assert eqr == pytest.approx((ev + put) / (eq * b["pot"]), rel=1e-12)


def test_bad_run_ids_answer_one_line(client):
    r = client.post("/api/policies", json={"run": "r999"})
    assert r.status_code == 400 and "no run 'r999'" in r.json()["error"]
    r = client.post("/api/policies", json={"run": 7})
    assert r.status_code == 400 and "RUN_ID" in r.json()["error"]
