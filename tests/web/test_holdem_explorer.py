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
from conftest import wait_for

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


# --- in the browser ---------------------------------------------------------------------------------
def _post_json(url, body) -> dict:
    import urllib.request

    request = urllib.request.Request(url, data=json.dumps(body).encode(), headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def _get_json(url) -> dict:
    import urllib.request

    with urllib.request.urlopen(url, timeout=30) as answer:
        return json.loads(answer.read())


@pytest.fixture(scope="module")
def live_run(live_server):
    """A finished tiny river run on the live server (its id)."""
    rid = _post_json(live_server.url + "/api/runs", {"game": "holdem", "spot": TINY, "iterations": 2000,
                                                     "target_pot_fraction": 0.001})["id"]
    deadline = time.time() + 120
    while _get_json(f"{live_server.url}/api/runs/{rid}")["status"] in ("starting", "running"):
        assert time.time() < deadline
        time.sleep(0.05)
    return rid


def _viewport(browser, width, height, mobile=False):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": width, "height": height,
                                                                  "deviceScaleFactor": 1, "mobile": mobile})


def _open_from_the_runs_table(browser, live_server, rid):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    button = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, f'tr[data-run="{rid}"] button.run-explore'),
                      what="the run's explore button")
    wait_for(browser, lambda b: button.is_enabled(), what="the explore button enabled")
    button.click()
    loaded = wait_for(browser, lambda b: b.find_element(By.ID, "explore-loaded"), what="the loaded policy")
    assert loaded.get_attribute("data-kind") == "holdem"
    wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#explore-node-info code").text == "::",
             what="the root node")


def _click_to(browser, labels):
    from selenium.webdriver.common.by import By

    for label in labels:
        css = f'#explore-children button[data-label="{label}"]'
        wait_for(browser, lambda b, css=css: b.find_element(By.CSS_SELECTOR, css), what=f"the button to {label}").click()
        wait_for(browser, lambda b, label=label: b.find_element(By.CSS_SELECTOR, "#explore-node-info code").text == label,
                 what=f"node {label}")


def test_browser_pins_a_cell_and_sorts_the_hands_by_ev(live_server, browser, screenshot, live_run):
    from selenium.webdriver.common.by import By

    _viewport(browser, 1366, 768)
    _open_from_the_runs_table(browser, live_server, live_run)
    root_buttons = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#explore-children button")]
    assert root_buttons == ["check", "bet 5 (50 % pot)", "all-in 100 (1000 % pot)"]
    _click_to(browser, ["::c", FACING])
    crumbs = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#explore-breadcrumb button")]
    assert crumbs == ["root", "check", "bet 5 (50 % pot)"]
    assert "pot 15" in browser.find_element(By.ID, "explore-pot").text
    pid = browser.find_element(By.ID, "explore-loaded").get_attribute("data-id")
    node = _get_json(f"{live_server.url}/api/policies/{pid}/node?label=%3A%3Acb5")
    entry = node["players"][0]
    mix = browser.find_element(By.ID, "explore-mix").text
    assert mix.startswith("OOP: fold ") and "call 5" in mix and f"{100 * entry['action_mix'][1]:.1f} %" in mix
    # a click (a tap on a phone) pins the class's figures
    cell = browser.find_element(By.CSS_SELECTOR, '#explore-grid .cell[data-class="AA"]')
    cell.click()
    pinned = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, '#explore-pinned[data-class="AA"]'),
                      what="AA pinned")
    i = entry["hands"].index("AsAh")
    row = pinned.find_element(By.CSS_SELECTOR, 'tr[data-hand="AsAh"]')
    assert row.text.split()[0] == "AsAh" and f"{entry['ev'][i]:.2f}" in row.text
    assert "AA" in pinned.text and "combos" in pinned.text
    browser.find_element(By.TAG_NAME, "h1").click()  # the pointer leaves: the pinned figures stay
    assert browser.find_element(By.ID, "explore-pinned").get_attribute("data-class") == "AA"
    # sort the per-hand table by EV: one click, largest first; a second, smallest first
    header = browser.find_element(By.CSS_SELECTOR, '#explore-hand-table th[data-key="ev"]')
    header.click()
    column = list(browser.find_element(By.CSS_SELECTOR, "#explore-hand-table thead tr").find_elements(By.TAG_NAME, "th"))
    k = [th.get_attribute("data-key") for th in column].index("ev")

    def evs():
        rows = browser.find_elements(By.CSS_SELECTOR, "#explore-hand-table tbody tr")
        return [(r.get_attribute("data-hand"), r.find_elements(By.TAG_NAME, "td")[k].get_attribute("data-v")) for r in rows]

    shown = evs()
    values = [float(v) for _, v in shown if v not in (None, "")]
    assert len(shown) == len(entry["hands"]) and values == sorted(values, reverse=True)
    by_hand = dict(zip(entry["hands"], entry["ev"]))
    for hand, v in shown:
        if v not in (None, ""):
            assert float(v) == pytest.approx(by_hand[hand], abs=1e-12)
    header = browser.find_element(By.CSS_SELECTOR, '#explore-hand-table th[data-key="ev"]')
    header.click()
    values = [float(v) for _, v in evs() if v not in (None, "")]
    assert values == sorted(values)
    # the filter: a class name
    box = browser.find_element(By.ID, "explore-hand-filter")
    box.send_keys("AA")
    wait_for(browser, lambda b: {r.get_attribute("data-class") for r in
                                 b.find_elements(By.CSS_SELECTOR, "#explore-hand-table tbody tr")} == {"AA"},
             what="only AA rows")
    browser.execute_script("document.getElementById('explore-hand-filter').value='';"
                           "document.getElementById('explore-hand-filter').dispatchEvent(new Event('input'))")
    browser.execute_script("document.getElementById('explore-loaded').scrollIntoView()")
    screenshot("explore-holdem-1366x768")


def test_phone_layout_fits_the_grid_and_the_plot(live_server, browser, screenshot, live_run):
    from selenium.webdriver.common.by import By

    _viewport(browser, 390, 844, mobile=True)
    try:
        _open_from_the_runs_table(browser, live_server, live_run)
        _click_to(browser, ["::c", FACING])
        width = browser.execute_script("return window.innerWidth")
        assert width == 390
        rects = browser.execute_script(
            "return [...document.querySelectorAll('#explore-grid .cell')].slice(0, 13)"
            ".map(c => c.getBoundingClientRect().toJSON())")
        assert len(rects) == 13
        assert all(r["left"] >= 0 and r["right"] <= width and r["width"] > 10 for r in rects), rects
        browser.find_element(By.CSS_SELECTOR, '#explore-grid .cell[data-class="AKs"]').click()
        wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, '#explore-pinned[data-class="AKs"]'),
                 what="AKs pinned")
        browser.execute_script("document.getElementById('explore-breadcrumb').scrollIntoView()")
        screenshot("explore-holdem-390x844")
        # the solve view's plot and its legend within the screen
        browser.find_element(By.CSS_SELECTOR, '#tabs button[data-view="solve"]').click()
        # read in one script: the view redraws its plot as the runs list refreshes, so an element
        # found in one call may be gone (stale) in the next
        got = wait_for(browser, lambda b: b.execute_script(
            "const s = document.querySelector('#solve-plot-holdem svg.plot');"
            "const l = document.querySelector('#solve-plot-holdem .plot-legend');"
            "return s && l ? {plot: s.getBoundingClientRect().toJSON(), legend_top: l.getBoundingClientRect().top,"
            " names: s.querySelectorAll('text[fill]').length} : null"), what="the plot")
        rect = got["plot"]
        assert rect["width"] <= width and rect["left"] >= 0 and rect["right"] <= width
        assert got["legend_top"] >= rect["bottom"] - 1  # under the plot, not over the curves
        assert got["names"] == 0  # no run names drawn on it
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
