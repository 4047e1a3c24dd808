"""The batches view: ``GET /api/batches?folder=`` answers a results folder's progress (as its
manifest and flop files say) and :func:`zerosum.batch.report.aggregate` of its files as is; a path
that is not a results folder is a one-line 400; ``POST /api/batches/open`` loads a flop's saved
solution into the explorer; and in a real browser the table has a row a flop, sorts, and a flop's
"open" shows that board in the explorer."""

from __future__ import annotations

import json

import pytest
from conftest import wait_for

#: the tiny template of tests/test_batch.py: one flop bet, no betting on the turn and river
TINY = {"name": "tiny", "pot": 10, "stack": 10,
        "ranges": ["AA,KK,QQ,JJ,AK,AQs,KQs,JTs", "AA,KK,QQ,TT,AK,AQ,KJs,T9s"],
        "streets": {"flop": {"bet": ["50%"], "raise": ["a"]}, "turn": {"bet": []}, "river": {"bet": []}}}
FLOPS = "Qs7h2d,6d6c3s"
TARGET = 0.5


@pytest.fixture(scope="module")
def batches(tmp_path_factory):
    """Two folders of the tiny template on two flops: ``whole`` (both solved, Qs7h2d's solution
    saved, 6s6h3d's not) and ``part`` (one of the two solved: a batch still running)."""
    from zerosum.batch import run_batch

    root = tmp_path_factory.mktemp("batches")
    run_batch(TINY, "Qs7h2d", TARGET, root / "whole", workers=1, save_solutions=True)
    run_batch(TINY, FLOPS, TARGET, root / "whole", workers=1)
    run_batch(TINY, FLOPS, TARGET, root / "part", workers=1, limit=1)
    return root


def test_the_page_answers_the_reports_aggregate(client, batches):
    from zerosum.batch.report import aggregate, read_results

    r = client.get("/api/batches", params={"folder": str(batches / "whole")})
    assert r.status_code == 200, r.text
    view = r.json()
    assert view["progress"] == {**view["progress"], "done": 2, "total": 2, "left": 0, "complete": True}
    expect = json.loads(json.dumps(aggregate(read_results(batches / "whole"))))
    report = view["report"]
    assert report["total"] == expect["total"] and report["by_group"] == expect["by_group"]
    assert [{k: v for k, v in row.items() if k != "solution"} for row in report["rows"]] == expect["rows"]
    assert {row["flop"]: row["solution"] for row in report["rows"]} == {"Qs7h2d": True, "6s6h3d": False}
    # the weighted total really is a weighted mean of the two flops (not, e.g., their plain mean)
    w = {row["flop"]: row["weight"] for row in report["rows"]}
    bet = {row["flop"]: row["bet"] for row in report["rows"]}
    assert w["Qs7h2d"] != w["6s6h3d"]
    assert report["total"]["bet"] == pytest.approx(sum(w[f] * bet[f] for f in w) / sum(w.values()), abs=1e-12)


def test_a_running_batch_shows_its_progress(client, batches):
    from zerosum.batch.report import aggregate

    view = client.get("/api/batches", params={"folder": str(batches / "part")}).json()
    assert view["progress"] == {**view["progress"], "done": 1, "total": 2, "left": 1, "complete": False}
    assert view["flop_set"] == FLOPS and view["target_pct"] == TARGET
    assert view["report"]["total"] == json.loads(json.dumps(aggregate(batches / "part")["total"]))
    assert len(view["report"]["rows"]) == 1


@pytest.mark.parametrize("where, words", [
    ("empty", "is not a results folder of zerosum batch"),
    ("missing", "no folder"),
    ("", "name a results folder"),
    ("file", "no folder"),
])
def test_a_path_that_is_not_a_results_folder_is_a_one_line_400(client, tmp_path, where, words):
    (tmp_path / "empty").mkdir()
    (tmp_path / "file").write_text("{}")
    folder = str(tmp_path / where) if where else ""
    r = client.get("/api/batches", params={"folder": folder})
    assert r.status_code == 400 and words in r.json()["error"] and "\n" not in r.json()["error"], r.text
    assert "Traceback" not in r.text


def test_a_broken_manifest_is_a_one_line_400(client, tmp_path):
    (tmp_path / "batch.json").write_text('{"format": "something else"}')
    r = client.get("/api/batches", params={"folder": str(tmp_path)})
    assert r.status_code == 400 and "is not a batch manifest" in r.json()["error"], r.text


def test_a_flops_saved_solution_opens_in_the_explorer(client, batches):
    result = json.loads((batches / "whole" / "Qs7h2d.json").read_text())
    r = client.post("/api/batches/open", json={"folder": str(batches / "whole"), "flop": "Qs7h2d"})
    assert r.status_code == 200, r.text
    summary = r.json()
    assert summary["kind"] == "holdem" and summary["flop"] == "Qs7h2d" and "Qs7h2d" in summary["game"]
    # the solution saved (16-bit probabilities) of the flop solved: its NashConv is the batch's
    assert summary["nash_conv"] == pytest.approx(result["nash_conv"], rel=2e-3)
    assert client.get(f"/api/policies/{summary['id']}").json()["flop"] == "Qs7h2d"
    node = client.get(f"/api/policies/{summary['id']}/node").json()
    assert node["actions"] == result["actions"]
    again = client.post("/api/batches/open", json={"folder": str(batches / "whole"), "flop": "Qs7h2d"}).json()
    assert again["id"] == summary["id"]  # the same file is not loaded twice


@pytest.mark.parametrize("flop, words", [("6s6h3d", "has no saved solution"), ("AsKsQs", "no result of flop"),
                                         ("../whole/Qs7h2d", "no result of flop"), (7, "send {")])
def test_a_flop_without_a_solution_is_a_one_line_400(client, batches, flop, words):
    r = client.post("/api/batches/open", json={"folder": str(batches / "whole"), "flop": flop})
    assert r.status_code == 400 and words in r.json()["error"] and "\n" not in r.json()["error"], r.text


def test_browser_shows_the_report_sorts_it_and_opens_a_flop(live_server, browser, screenshot, batches):
    from selenium.webdriver.common.by import By

    from zerosum.batch.report import aggregate

    expect = aggregate(batches / "whole")
    browser.get(live_server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "#tabs button[data-view=batches]").click()
    box = browser.find_element(By.ID, "batches-folder")
    box.clear()
    box.send_keys(str(batches / "whole"))
    browser.find_element(By.ID, "batches-load").click()
    rows = wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#batches-table tbody tr"), what="the table")
    assert len(rows) == 2
    assert browser.find_element(By.ID, "batches-count").get_attribute("data-done") == "2"
    total = browser.find_element(By.ID, "batches-total").find_elements(By.TAG_NAME, "td")
    n = len(expect["actions"])
    assert [t.text for t in total[3:3 + n]] == [f"{100 * expect['total']['frequencies'][a]:.1f}" for a in expect["actions"]]
    assert total[3 + n + 1].text == f"{expect['total']['ev']:.3f}"
    screenshot("batches-report")
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844,
                                                                  "deviceScaleFactor": 1, "mobile": True})
    screenshot("batches-report-390x844")
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
    ev_header = browser.find_element(By.CSS_SELECTOR, "#batches-table th[data-key=ev]")
    for _ in range(2):  # descending, then ascending
        ev_header.click()
        shown = [r.get_attribute("data-flop") for r in browser.find_elements(By.CSS_SELECTOR, "#batches-table tbody tr")]
        order = sorted(expect["rows"], key=lambda r: r["ev"], reverse=ev_header.get_attribute("data-dir") == "desc")
        assert shown == [r["flop"] for r in order]
    assert not browser.find_elements(By.CSS_SELECTOR, "button.batches-open[data-flop='6s6h3d']")
    browser.find_element(By.CSS_SELECTOR, "button.batches-open[data-flop='Qs7h2d']").click()
    loaded = wait_for(browser, lambda b: b.find_element(By.ID, "explore-loaded"), timeout=60, what="the explorer")
    assert loaded.get_attribute("data-kind") == "holdem" and "Qs7h2d" in loaded.text
    assert browser.find_element(By.ID, "view-explore").is_displayed()
    wait_for(browser, lambda b: len(b.find_elements(By.CSS_SELECTOR, "#explore-grid .cell")) == 169, what="the root's grid")
    check = json.loads((batches / "whole" / "Qs7h2d.json").read_text())["frequencies"]["c"]
    assert f"check {100 * check:.1f} %" in browser.find_element(By.ID, "explore-mix").text  # the batch's root mix
    assert not browser.find_element(By.ID, "view-batches").is_displayed()
    screenshot("batches-opened-in-explorer")


def test_browser_polls_a_running_batch_until_it_is_done(live_server, browser, batches, tmp_path):
    import shutil

    from selenium.webdriver.common.by import By

    from zerosum.batch import run_batch

    folder = tmp_path / "running"
    shutil.copytree(batches / "part", folder)
    browser.get(live_server.url + "/")
    browser.find_element(By.CSS_SELECTOR, "#tabs button[data-view=batches]").click()
    box = browser.find_element(By.ID, "batches-folder")
    box.clear()
    box.send_keys(str(folder))
    browser.find_element(By.ID, "batches-load").click()
    count = wait_for(browser, lambda b: b.find_element(By.ID, "batches-count"), what="the progress")
    assert count.get_attribute("data-done") == "1" and "1 of 2 flops done" in count.text
    assert len(browser.find_elements(By.CSS_SELECTOR, "#batches-table tbody tr")) == 1
    run_batch(TINY, FLOPS, TARGET, folder, workers=1)  # the batch goes on: the page sees it without a click
    wait_for(browser, lambda b: b.find_element(By.ID, "batches-count").get_attribute("data-done") == "2",
             timeout=30, what="the polled progress")
    assert browser.find_element(By.ID, "batches-bar").get_attribute("value") == "2"
    assert len(browser.find_elements(By.CSS_SELECTOR, "#batches-table tbody tr")) == 2
