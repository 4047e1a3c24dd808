"""The explore view: saved policies uploaded to the app, read back as information-set tables (Leduc)
and as a hold'em public tree with the per-hand report and 13x13 grid of solutions.analysis."""

from __future__ import annotations

import json

import numpy as np
import pytest
from conftest import wait_for

from zerosum.core.compile import compiled
from zerosum.core.evaluation import evaluate
from zerosum.games import load_game
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import public_solver
from zerosum.solutions import analysis
from zerosum.solvers import SOLVERS

# a turn subgame: chance deals the river (a card to pick), ~0.5 s to build and solve
TURN = {"board": "Ks7d2c9h", "range0": "AsAh,KhQh,8s8h", "range1": "QsJs,9d8d,AdKd", "raises": 1}
RIVER_NODE = ":5s:cc/"


@pytest.fixture(scope="module")
def leduc():
    game = compiled(load_game("leduc"))
    solver = SOLVERS["cfr+"](game)
    solver.run(20)
    policy = solver.average_policy()
    return game, policy


@pytest.fixture(scope="module")
def holdem():
    tree = public_tree(load_game("holdem", **TURN))
    solver = public_solver("dcfr", tree)
    solver.run(40)
    return tree, solver.average_policy()


def _post(client, game, params, policy):
    return client.post("/api/policies", json={"game": game, "params": params, "policy": policy})


def test_leduc_table_rows_and_exact_nash_conv(client, leduc):
    game, policy = leduc
    r = _post(client, "leduc", {}, policy.to_dict())
    assert r.status_code == 200, r.text
    summary = r.json()
    assert summary["kind"] == "table"
    exact = evaluate(game, policy)
    assert summary["nash_conv"] == pytest.approx(exact.nash_conv, abs=1e-12)
    assert summary["value"] == pytest.approx(exact.value, abs=1e-12)
    label, probs = next((lab, pr) for p, lab, pr in policy.rows() if p == 1 and "K" in lab and "r" in lab)
    rows = client.get(f"/api/policies/{summary['id']}/infosets",
                      params={"filter": label, "player": 1}).json()["rows"]
    row = next(row for row in rows if row["infoset"] == label)
    assert dict(zip(row["actions"], row["probabilities"])) == probs
    # the filter and paging: every row holds the text, pages partition the matches
    all_k = client.get(f"/api/policies/{summary['id']}/infosets", params={"filter": "K", "limit": 500}).json()
    assert all_k["total"] == sum("K" in lab for _, lab, _ in policy.rows()) and all_k["total"] > 10
    page = client.get(f"/api/policies/{summary['id']}/infosets", params={"filter": "K", "offset": 5, "limit": 3})
    assert [x["infoset"] for x in page.json()["rows"]] == [x["infoset"] for x in all_k["rows"][5:8]]


def test_bad_policies_answer_one_line(client, leduc):
    _, policy = leduc
    kuhn = SOLVERS["cfr"](compiled(load_game("kuhn")))
    kuhn.run(2)
    r = _post(client, "leduc", {}, kuhn.average_policy().to_dict())
    assert r.status_code == 400 and "kuhn" in r.json()["error"]
    broken = policy.to_dict()
    first = next(iter(broken["players"][0]))
    broken["players"][0][first] = {"x": 1.0}
    r = _post(client, "leduc", {}, broken)
    assert r.status_code == 400 and "actions at" in r.json()["error"]
    r = client.post("/api/policies/upload?game=leduc", content=b"{not json")
    assert r.status_code == 400 and r.json()["error"].startswith("the request is not valid JSON")
    r = client.post("/api/policies/upload?game=leduc", content=json.dumps({"format": "pickle"}))
    assert r.status_code == 400 and "not a zerosum policy file" in r.json()["error"]
    r = client.post("/api/policies/upload?game=leduc", content=b"x",
                    headers={"content-length": str(65 * 2**20)})
    assert r.status_code == 413 and "limit" in r.json()["error"]
    r = client.get("/api/policies/p999/infosets")
    assert r.status_code == 400 and "POST /api/policies" in r.json()["error"]
    for body in (r.json(),):
        assert "\n" not in body["error"]


def test_upload_of_the_saved_file(client, leduc, tmp_path):
    game, policy = leduc
    path = tmp_path / "leduc.json"
    policy.save(path)
    r = client.post("/api/policies/upload?game=leduc", content=path.read_bytes())
    assert r.status_code == 200 and r.json()["nash_conv"] == pytest.approx(evaluate(game, policy).nash_conv)


def test_holdem_node_grid_equals_the_analysis(client, holdem):
    tree, policy = holdem
    params = [f"{k}={v}" for k, v in TURN.items()]
    r = client.post("/api/policies/upload?" + "&".join(["game=holdem", *("param=" + p for p in params)]),
                    content=json.dumps(policy.to_dict()))
    assert r.status_code == 200, r.text
    summary = r.json()
    assert summary["kind"] == "holdem" and summary["root"] == "::"
    # the file rounds to 9 digits: compare with the same file read back by the library
    policy = PublicPolicy.from_dict(tree, policy.to_dict())
    assert summary["nash_conv"] == pytest.approx(policy.evaluate()["nash_conv"], abs=1e-12)
    pid = summary["id"]
    chance = client.get(f"/api/policies/{pid}/node", params={"label": "::cc"}).json()
    assert chance["kind"] == "chance" and {"label": RIVER_NODE, "action": "5s", "kind": "decision"} in chance["children"]
    node = client.get(f"/api/policies/{pid}/node", params={"label": RIVER_NODE}).json()
    assert [s["action"] for s in node["path"]] == ["root", "c", "c", "5s"]
    expected = analysis.node_analysis(tree, policy, RIVER_NODE)
    acting = node["player"]
    got, want = node["players"][acting]["grid"], expected["players"][acting]["grid"]
    mask = ~np.isnan(want["strategy"])
    assert mask.sum() > 0
    assert np.allclose(np.array(got["strategy"], dtype=float)[mask], want["strategy"][mask], atol=1e-12)
    assert got["weight"] == pytest.approx(list(want["weight"]), abs=1e-12)
    bad = client.get(f"/api/policies/{pid}/node", params={"label": "::cx"})
    assert bad.status_code == 400 and "the children of '::c' are '::cc', '::cr'" in bad.json()["error"]
    wrong = client.get(f"/api/policies/{pid}/infosets")
    assert wrong.status_code == 400 and f"/api/policies/{pid}/node" in wrong.json()["error"]


def test_holdem_policy_of_another_board_is_refused(client, holdem):
    _, policy = holdem
    other = {**TURN, "board": "Ks7d2c9s"}
    r = _post(client, "holdem", other, policy.to_dict())
    assert r.status_code == 400 and "was made for" in r.json()["error"]


def _open_file(browser, live_server, path, game, params=""):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    wait_for(browser, lambda b: b.find_element(By.ID, "explore-file"), what="the explore view")
    browser.find_element(By.CSS_SELECTOR, "#tabs button[data-view=explore]").click()
    browser.find_element(By.ID, "explore-file").send_keys(str(path))
    browser.find_element(By.ID, "explore-game").send_keys(game)
    if params:
        browser.find_element(By.ID, "explore-params").send_keys(params)
    browser.find_element(By.ID, "explore-load").click()


def test_browser_reads_a_leduc_probability(live_server, browser, screenshot, leduc, tmp_path):
    from selenium.webdriver.common.by import By

    _, policy = leduc
    path = tmp_path / "leduc.json"
    policy.save(path)
    rows = list(policy.rows())
    # an information set of player 0 whose label no other label contains: the filter leaves it alone
    label, probs = next((lab, pr) for p, lab, pr in rows
                           if p == 0 and lab.startswith("Q") and sum(lab in other for _, other, _ in rows) == 1)
    _open_file(browser, live_server, path, "leduc")
    wait_for(browser, lambda b: b.find_element(By.ID, "explore-table"), what="the infoset table")
    browser.find_element(By.ID, "explore-filter").send_keys(label)
    action, prob = next(iter(probs.items()))
    css = f'#explore-table tr[data-infoset="{label}"] span[data-action="{action}"]'
    # read inside the wait: each keystroke of the filter redraws the table (a found cell can go stale)
    shown = wait_for(browser, lambda b: (b.find_element(By.ID, "explore-count").text.endswith(" of 1")
                                         and [(c.get_attribute("data-p"), c.text)
                                              for c in b.find_elements(By.CSS_SELECTOR, css)]),
                     what=f"the row of {label} alone")
    assert float(shown[0][0]) == pytest.approx(prob, abs=1e-12)
    assert shown[0][1].startswith(f"{action}: {prob:.4f}")
    screenshot("explore-leduc")


def test_browser_clicks_to_a_river_node_grid(live_server, browser, screenshot, holdem, tmp_path):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.by import By

    tree, policy = holdem
    path = tmp_path / "turn.json"
    policy.save(path)
    policy = PublicPolicy.from_dict(tree, json.loads(path.read_text()))
    _open_file(browser, live_server, path, "holdem", " ".join(f"{k}={v}" for k, v in TURN.items()))
    for label in ("::c", "::cc", RIVER_NODE):
        css = f'#explore-children button[data-label="{label}"]'
        button = wait_for(browser, lambda b, css=css: b.find_element(By.CSS_SELECTOR, css), what=f"the button to {label}")
        button.click()
        wait_for(browser, lambda b, label=label: b.find_element(By.CSS_SELECTOR, "#explore-node-info code").text == label,
                 what=f"node {label}")
    expected = analysis.node_analysis(tree, policy, RIVER_NODE)
    acting = expected["player"]
    grid = expected["players"][acting]["grid"]
    k = grid["classes"].index("AA")
    cell = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, '#explore-grid .cell[data-class="AA"]'),
                    what="the grid")
    for i in range(len(expected["actions"])):
        assert float(cell.get_attribute(f"data-freq{i}")) == pytest.approx(grid["strategy"][i][k], abs=1e-9)
    ActionChains(browser).move_to_element(cell).perform()
    tip = wait_for(browser, lambda b: b.find_element(By.ID, "explore-tooltip").is_displayed()
                   and b.find_element(By.ID, "explore-tooltip"), what="the tooltip")
    assert "AsAh" in tip.text and "AA" in tip.text
    screenshot("explore-holdem-grid")


def test_open_run_without_a_saved_policy_says_so(live_server, browser):
    """The solve view's hand-off: a run whose policy cannot be fetched answers one clear line."""
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    wait_for(browser, lambda b: b.find_element(By.ID, "explore-file"), what="the explore view")
    browser.execute_script("zs.views.explore.openRun('no-such-run')")
    text = wait_for(browser, lambda b: b.find_element(By.ID, "message").text, what="the message line")
    assert text.startswith("Error: cannot open run no-such-run's policy") and "--save" in text
    assert browser.find_element(By.ID, "view-explore").get_attribute("hidden") is None


# a no-limit river: its betting string holds spaces and commas, and so does the game's id
NO_LIMIT = {"board": "Ks7d2c9h5s", "range0": "AsAh,KhQh,8s8h", "range1": "QsJs,9d8d,AdKd",
            "betting": "river bet=60%,a raise=2.5x"}


@pytest.fixture(scope="module")
def no_limit(tmp_path_factory):
    game = load_game("holdem", **NO_LIMIT)
    tree = public_tree(game)
    solver = public_solver("dcfr", tree)
    solver.run(30)
    path = tmp_path_factory.mktemp("nl") / "river-nl.json"
    solver.average_policy().save(path)
    return game, path


def test_params_with_spaces_and_the_full_id_load_a_no_limit_policy(client, no_limit):
    game, path = no_limit
    box = " ".join(f"{k}={v}" for k, v in NO_LIMIT.items())  # as typed in the params box
    by_box = client.post("/api/policies/upload", params={"game": "holdem", "params": box}, content=path.read_bytes())
    assert by_box.status_code == 200, by_box.text
    assert by_box.json()["game"] == game.id and by_box.json()["kind"] == "holdem"
    by_id = client.post("/api/policies/upload", params={"game": game.id}, content=path.read_bytes())
    assert by_id.status_code == 200, by_id.text
    by_file = client.post("/api/policies/upload", content=path.read_bytes())  # the id the file names
    assert by_file.status_code == 200, by_file.text
    assert by_id.json()["nash_conv"] == by_file.json()["nash_conv"] == by_box.json()["nash_conv"]
    bad = client.post("/api/policies/upload", params={"game": "holdem", "params": "river bet=60%"},
                      content=path.read_bytes())
    assert bad.status_code == 400 and "KEY=VALUE" in bad.json()["error"]


@pytest.mark.parametrize("how", ["params box", "full id"])
def test_browser_loads_a_no_limit_policy(live_server, browser, no_limit, how):
    from selenium.webdriver.common.by import By

    game, path = no_limit
    if how == "params box":
        _open_file(browser, live_server, path, "holdem", " ".join(f"{k}={v}" for k, v in NO_LIMIT.items()))
    else:
        _open_file(browser, live_server, path, game.id)
    loaded = wait_for(browser, lambda b: b.find_element(By.ID, "explore-loaded"), what="the loaded policy")
    assert loaded.get_attribute("data-kind") == "holdem" and loaded.text.startswith(game.id)
    assert browser.find_element(By.ID, "message").get_attribute("hidden") is not None
    wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#explore-node-info code").text == "::",
             what="the root node")
