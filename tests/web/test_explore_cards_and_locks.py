"""The hold'em explorer's per-card summary and node locking (issue 51 items 3 and 4).

``GET /api/policies/ID/cards?node=`` answers, per card a chance node deals, the acting range's action
frequencies and each player's range EV at the node after the card: exactly what the node view
reports there.  In a real browser the summary renders under a chance node and a click on a card
walks there; "Lock and re-solve" at a decision node starts a locked run of the same spot (chosen
hands at a chosen mix, or the whole range at its strategy there) and shows the other player's gain
as the run reports it."""

from __future__ import annotations

import time

import numpy as np
import pytest
from conftest import wait_for
from test_holdem_explorer import (
    FACING,
    TINY,
    _click_to,
    _get_json,
    _open_from_the_runs_table,
    _post_json,
    _viewport,
)

#: a turn spot with narrow ranges (~5,000 public nodes): 100 iterations take well under a second
TURN = {"name": "tiny turn", "board": "Ks7d2c9h", "pot": 10, "stack": 100,
        "ranges": ["AA,KK,QQ,AK,A5s,76s,98s", "AA,KK,JJ,AQ,T9s,K9s,55"],
        "streets": {"turn": {"bet": ["50%"], "raise": []}, "river": {"bet": ["50%", "a"], "raise": ["2.5x"]}}}
CHANCE = "::cc"  # both check the turn: the river is dealt


def _finish(get, rid, timeout=120.0) -> dict:
    deadline = time.time() + timeout
    while (view := get(rid))["status"] in ("starting", "running"):
        assert time.time() < deadline, f"run {rid} did not finish"
        time.sleep(0.05)
    assert view["status"] == "finished", view
    return view


@pytest.fixture(scope="module")
def turn_policy(client) -> str:
    r = client.post("/api/runs", json={"game": "holdem", "spot": TURN, "iterations": 300, "target_pot_fraction": 0.005})
    assert r.status_code == 200, r.text
    _finish(lambda rid: client.get(f"/api/runs/{rid}").json(), r.json()["id"])
    summary = client.post("/api/policies", json={"run": r.json()["id"]})
    assert summary.status_code == 200, summary.text
    return summary.json()["id"]


def test_a_large_trees_first_street_is_made_after_loading(client, turn_policy, monkeypatch):
    """A flop's first-street nodes are made by a thread after loading (explore.WARM_NODES): the
    answers it keeps are those made on request, and the summary says how far it is."""
    from zerosum.web import explore

    monkeypatch.setattr(explore, "WARM_NODES", 0)
    run = client.get(f"/api/policies/{turn_policy}").json()["run"]
    pid = client.post("/api/policies", json={"run": run}).json()["id"]
    deadline = time.time() + 60
    while (warm := client.get(f"/api/policies/{pid}").json()["warm"])["done"] < warm["total"]:
        assert time.time() < deadline, warm
        time.sleep(0.05)
    # the turn's 4 decision nodes (::, ::c, ::b5, ::cb5), its 3 chance nodes and their card summaries
    assert warm["total"] == 10
    for route, label in (("node?label=", ""), ("node?label=", "::c"), ("cards?node=", CHANCE)):
        ahead = client.get(f"/api/policies/{pid}/{route}{label}").json()
        fresh = client.get(f"/api/policies/{turn_policy}/{route}{label}").json()
        assert {**ahead, "id": None} == {**fresh, "id": None}


def test_each_cards_figures_are_the_node_views(client, turn_policy):
    data = client.get(f"/api/policies/{turn_policy}/cards", params={"node": CHANCE}).json()
    chance = client.get(f"/api/policies/{turn_policy}/node", params={"label": CHANCE}).json()
    assert data["label"] == CHANCE and chance["kind"] == "chance"
    assert [c["label"] for c in data["cards"]] == [c["label"] for c in chance["children"]]
    assert [c["card"] for c in data["cards"]] == [c["action"] for c in chance["children"]]
    assert len(data["cards"]) == 48  # 52 less the 4 board cards
    by_card = {c["card"]: c for c in data["cards"]}
    for card in ("Qs", "5d", "Kh"):
        mine = by_card[card]
        node = client.get(f"/api/policies/{turn_policy}/node", params={"label": mine["label"]}).json()
        assert mine["player"] == node["player"] == 0 and mine["actions"] == node["actions"]
        assert mine["action_mix"] == node["players"][0]["action_mix"]  # exactly
        assert mine["ev"] == [node["players"][0]["range_ev"], node["players"][1]["range_ev"]]
        assert mine["texts"] == [a["text"] for a in node["betting"]["actions"]]
        # the range EV is the per-hand EVs averaged with P(hand | node), as the node's table has them
        for entry in node["players"]:
            w = np.array(entry["weight"])
            ev = np.array([np.nan if x is None else x for x in entry["ev"]])
            ok = ~np.isnan(ev) & (w > 0)
            assert entry["range_ev"] == pytest.approx(float(ev[ok] @ w[ok]), rel=1e-12)
    # the cards do change the strategy: a king pairs OOP's kings and aces-kings, a five OOP's A5s
    assert abs(by_card["Kh"]["action_mix"][0] - by_card["5d"]["action_mix"][0]) > 0.05
    assert by_card["Kh"]["ev"][0] != by_card["5d"]["ev"][0]


@pytest.mark.parametrize("node, words", [("::", "not a chance node"), ("::zz", "no public node '::zz'")])
def test_a_bad_node_is_a_one_line_400(client, turn_policy, node, words):
    r = client.get(f"/api/policies/{turn_policy}/cards", params={"node": node})
    assert r.status_code == 400 and words in r.json()["error"] and "\n" not in r.json()["error"]


# --- in the browser ---------------------------------------------------------------------------------
def _live_run(live_server, spot, iterations, target) -> str:
    rid = _post_json(live_server.url + "/api/runs", {"game": "holdem", "spot": spot, "iterations": iterations,
                                                     "target_pot_fraction": target})["id"]
    _finish(lambda r: _get_json(f"{live_server.url}/api/runs/{r}"), rid)
    return rid


def test_browser_the_card_summary_renders_and_a_click_walks(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    _viewport(browser, 1366, 768)
    rid = _live_run(live_server, TURN, 300, 0.005)
    _open_from_the_runs_table(browser, live_server, rid)
    _click_to(browser, ["::c", CHANCE])
    rows = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#explore-cards-table tbody tr"),
                    what="the per-card summary")
    pid = browser.find_element(By.ID, "explore-loaded").get_attribute("data-id")
    api = _get_json(f"{live_server.url}/api/policies/{pid}/cards?node=%3A%3Acc")["cards"]
    assert [r.get_attribute("data-card") for r in rows] == [c["card"] for c in api]
    heads = [th.text for th in browser.find_elements(By.CSS_SELECTOR, "#explore-cards-table thead th")]
    assert heads == ["card", "check", "bet 5 (50 % pot)", "all-in 100 (1000 % pot)", "OOP EV"]
    qs = next(c for c in api if c["card"] == "Qs")
    row = browser.find_element(By.CSS_SELECTOR, '#explore-cards-table tr[data-card="Qs"]')
    cells = row.find_elements(By.TAG_NAME, "td")
    assert cells[0].text == "Qs" and cells[1].text == f"{100 * qs['action_mix'][0]:.1f} %"
    assert cells[4].text == f"{qs['ev'][0]:.3f}"
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    screenshot("explore-holdem-cards-1366x768")
    _viewport(browser, 390, 844, mobile=True)  # the same summary on a phone (docs/web.md's screenshot)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    screenshot("explore-holdem-cards-390x844")
    _viewport(browser, 1366, 768)
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", row)
    row.click()
    wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#explore-node-info code").text == qs["label"],
             what=f"node {qs['label']}")
    assert "board Ks7d2c9hQs" in browser.find_element(By.ID, "explore-node-info").text
    mix = browser.find_element(By.ID, "explore-mix").text
    assert f"check {100 * qs['action_mix'][0]:.1f} %" in mix


def _lock_and_wait(browser, live_server, previous=None) -> tuple[dict, object]:
    from selenium.webdriver.common.by import By

    browser.find_element(By.ID, "explore-lock-run").click()
    gain = wait_for(browser, lambda b: (g := b.find_element(By.ID, "explore-lock-gain"))
                    and g.get_attribute("data-run") != previous and g, timeout=60, what="the locked run's gain")
    view = _get_json(f"{live_server.url}/api/runs/{gain.get_attribute('data-run')}")
    return view, gain


def test_browser_locks_a_node_and_shows_the_gain(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    _viewport(browser, 1366, 768)
    rid = _live_run(live_server, TINY, 2000, 0.001)
    _open_from_the_runs_table(browser, live_server, rid)
    _click_to(browser, ["::c", FACING])  # OOP faces a half-pot bet
    pid = browser.find_element(By.ID, "explore-loaded").get_attribute("data-id")
    summary = _get_json(f"{live_server.url}/api/policies/{pid}")
    node = _get_json(f"{live_server.url}/api/policies/{pid}/node?label=%3A%3Acb5")
    # chosen hands: OOP folds its aces to the bet
    browser.find_element(By.ID, "explore-lock-hands").send_keys("AA")
    for box, value in zip(browser.find_elements(By.CSS_SELECTOR, "#explore-lock-mix input"), ("100", "0", "0")):
        box.clear()
        box.send_keys(value)
    iterations = browser.find_element(By.ID, "explore-lock-iterations")
    iterations.clear()
    iterations.send_keys("300")
    view, gain = _lock_and_wait(browser, live_server)
    assert view["status"] == "finished" and view["params"] == summary["params"]
    assert view["locks"]["player"] == 0 and view["locks"]["free_player"] == 1
    assert view["locks"]["nodes_locked"] == {FACING: {"AA": [1.0, 0.0, 0.0]}}
    shown = float(gain.get_attribute("data-gain"))
    assert shown == view["free_player_gain_pot_pct"] and shown >= 0
    assert "IP's gain against the lock" in gain.text and "% of the pot" in gain.text
    # beside the original's: IP's best response less its value in the solution explored
    original = 100 * (summary["best_response_values"][1] + summary["value"]) / summary["pot"]
    assert float(gain.get_attribute("data-original")) == pytest.approx(original, rel=1e-12)
    # folding aces to a bet: IP wins more than in the original solution
    moved = 100 * (summary["value"] - view["value_average"]) / summary["pot"]
    assert moved > 1 and f"+{moved:.2f} % of the pot" in gain.text
    screenshot("explore-holdem-lock-1366x768")
    _viewport(browser, 390, 844, mobile=True)
    browser.execute_script("arguments[0].scrollIntoView({block: 'end'})", gain)
    screenshot("explore-holdem-lock-390x844")
    _viewport(browser, 1366, 768)
    # the whole range at its strategy here: each hand's lock is its strategy at the node
    browser.find_element(By.ID, "explore-lock-hands").clear()
    view, gain = _lock_and_wait(browser, live_server, previous=view["id"])
    locked = view["locks"]["nodes_locked"][FACING]
    entry = node["players"][0]
    assert sorted(locked) == sorted(entry["hands"])
    i = entry["hands"].index("AsAh")
    assert locked["AsAh"] == [row[i] for row in entry["strategy"]]
    assert float(gain.get_attribute("data-gain")) == view["free_player_gain_pot_pct"] >= 0
