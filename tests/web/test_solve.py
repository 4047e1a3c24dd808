"""The solve-and-watch view: runs in background threads, their curves, stop and resume, downloads,
bad input, and the page in a real browser (a Kuhn CFR+ run's curve reaching NashConv <= 1e-3)."""

from __future__ import annotations

import io
import time

import numpy as np
import pytest
from conftest import wait_for

from zerosum.core.evaluation import evaluate
from zerosum.games import load_game
from zerosum.solvers import SOLVERS
from zerosum.web.runs import marks


def finished(client, rid, timeout=60.0):
    deadline = time.time() + timeout
    while time.time() < deadline:
        view = client.get(f"/api/runs/{rid}").json()
        if view["status"] not in ("starting", "running"):
            return view
        time.sleep(0.02)
    raise AssertionError(f"run {rid} did not finish")


def test_marks_are_log_spaced_and_end_at_the_last():
    assert marks(1) == [1]
    assert marks(120) == [1, 2, 3, 5, 10, 20, 30, 50, 100, 120]
    assert marks(1000)[-3:] == [300, 500, 1000]


def test_a_kuhn_run_records_its_curve_and_gives_the_solvers_policy(client):
    r = client.post("/api/runs", json={"game": "kuhn", "algorithm": "cfr+", "iterations": 200})
    assert r.status_code == 200
    view = finished(client, r.json()["id"])
    assert view["status"] == "finished" and view["iteration"] == 200
    curve = view["curve"]
    assert [p["iteration"] for p in curve] == marks(200)
    # the same solver run here gives the same figures at the same iterations
    direct = SOLVERS["cfr+"](load_game("kuhn"))
    rows = direct.run(200, checkpoints=marks(200))
    assert [p["nash_conv_average"] for p in curve] == [row["nash_conv_average"] for row in rows]
    assert curve[-1]["nash_conv_average"] <= 1e-3 < curve[0]["nash_conv_average"]
    policy = client.get(f"/api/runs/{view['id']}/policy").json()
    # the file zerosum solve --save writes, with the run's params beside it
    assert policy == {**direct.average_policy().to_dict(), "params": {}}
    state = np.load(io.BytesIO(client.get(f"/api/runs/{view['id']}/state").content), allow_pickle=False)
    assert int(state["iteration"]) == 200


def test_stop_then_resume_reaches_the_uninterrupted_figures(client):
    r = client.post("/api/runs", json={"game": "leduc", "algorithm": "dcfr", "iterations": 100000}).json()
    wait = time.time() + 30
    while client.get(f"/api/runs/{r['id']}").json()["iteration"] < 60 and time.time() < wait:
        time.sleep(0.02)
    stopped = client.post(f"/api/runs/{r['id']}/stop").json()
    assert stopped["status"] == "stopped" and 0 < stopped["iteration"] < 100000
    done = stopped["iteration"]
    bad = client.post(f"/api/runs/{r['id']}/resume", json={"iterations": done})  # not more than done
    assert bad.status_code == 400 and "above" in bad.json()["error"]
    client.post(f"/api/runs/{r['id']}/resume", json={"iterations": done + 30})
    view = finished(client, r["id"])
    assert view["status"] == "finished" and view["iteration"] == done + 30
    direct = SOLVERS["dcfr"](load_game("leduc"))
    direct.run(done + 30)
    assert view["curve"][-1]["nash_conv_average"] == direct.checkpoint()["nash_conv_average"]
    assert client.delete(f"/api/runs/{r['id']}").json() == {"deleted": r["id"]}


@pytest.mark.parametrize("body, words", [
    ({"game": "nope"}, "unknown game"),
    ({"game": "kuhn", "params": {"size": 3}}, "no parameter"),
    ({"game": "kuhn", "algorithm": "alphago"}, "unknown algorithm"),
    ({"game": "kuhn", "iterations": 0}, "iterations must be"),
    ({"game": "kuhn", "iterations": 10 ** 9}, "iterations must be"),
    ("kuhn", "send {"),
])
def test_bad_runs_are_one_line_and_the_server_goes_on(client, body, words):
    r = client.post("/api/runs", json=body)
    assert r.status_code == 400 and words in r.json()["error"] and "\n" not in r.json()["error"]
    assert client.get("/api/runs/r999").status_code == 400
    assert "no run" in client.get("/api/runs/r999/policy").json()["error"]
    assert client.get("/api/algorithms").json()["algorithms"][1] == "cfr+"


def test_the_page_starts_a_run_and_draws_its_curve(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#solve-game option[value=kuhn]"), what="the games")
    for algorithm in ("cfr", "cfr+"):  # two runs on one plot
        browser.find_element(By.ID, "solve-algorithm").send_keys(algorithm)
        box = browser.find_element(By.ID, "solve-iterations")
        box.clear()
        box.send_keys("300")
        browser.find_element(By.ID, "solve-start").click()
        time.sleep(0.3)

    def last_nashconv(b):
        rows = b.find_elements(By.CSS_SELECTOR, "#solve-runs tbody tr")
        for row in rows:
            if row.find_elements(By.XPATH, "./td[4][text()='cfr+']") and \
                    row.find_element(By.CSS_SELECTOR, ".run-status").text == "finished":
                return float(row.find_element(By.CSS_SELECTOR, ".run-nashconv").text)
        return None

    value = wait_for(browser, last_nashconv, what="the CFR+ run to finish")
    assert value <= 1e-3
    curves = browser.find_elements(By.CSS_SELECTOR, "svg.plot polyline.curve")
    assert len(curves) >= 4  # two runs, average and current each
    screenshot("solve")


def _start_in_page(browser, game, iterations, params=None):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, f"#solve-game option[value={game}]"),
             what="the games")
    Select(browser.find_element(By.ID, "solve-game")).select_by_value(game)
    for name, value in (params or {}).items():
        box = browser.find_element(By.CSS_SELECTOR, f"#solve-params input[name={name}]")
        box.clear()
        box.send_keys(value)
    box = browser.find_element(By.ID, "solve-iterations")
    box.clear()
    box.send_keys(str(iterations))
    browser.find_element(By.ID, "solve-start").click()


def test_a_failed_run_shows_its_error_in_the_list(live_server, browser, screenshot, monkeypatch):
    from selenium.webdriver.common.by import By

    from zerosum.public_tree import holdem_build

    # hold'em runs on the public tree now (the default ranges of this river solve: test_holdem_runs);
    # a failure while the tree is built, after the request was accepted, stands for one here
    def out_of_memory(*args, **kwargs):
        raise MemoryError("the public tree needs 9.9 GB (simulated)\nsecond line never shown")

    monkeypatch.setattr(holdem_build, "holdem_public_tree", out_of_memory)
    browser.get(live_server.url + "/")
    before = {r["id"] for r in _api(live_server, "GET", "/api/runs")["runs"]}
    _start_in_page(browser, "holdem", 100, {"board": "Ks7d2c9h5s"})

    def failed_row(b):
        for row in b.find_elements(By.CSS_SELECTOR, "#solve-runs tbody tr"):
            if row.get_attribute("data-run") not in before and \
                    row.find_element(By.CSS_SELECTOR, ".run-status").text.startswith("failed"):
                return row
        return None

    row = wait_for(browser, failed_row, what="the hold'em run's row, failed")
    rid = row.get_attribute("data-run")
    server = _api(live_server, "GET", f"/api/runs/{rid}")
    assert server["status"] == "failed" and server["error"] == "MemoryError: the public tree needs 9.9 GB (simulated)"
    shown = row.find_element(By.CSS_SELECTOR, ".run-error").text
    assert shown == server["error"]
    screenshot("solve-failed-run")
    _api(live_server, "DELETE", f"/api/runs/{rid}")


def _api(server, method, path, body=None):
    import json
    import urllib.error
    import urllib.request

    data = None if body is None else json.dumps(body).encode()
    request = urllib.request.Request(server.url + path, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return json.loads(answer.read())
    except urllib.error.HTTPError as e:
        return json.loads(e.read())


def _press(browser, button, hold=0.25):
    """A person's click: the button pressed, held a quarter of a second, released."""
    from selenium.webdriver.common.action_chains import ActionChains

    ActionChains(browser).move_to_element(button).click_and_hold().pause(hold).release().perform()


def _until(condition, timeout=10.0, what="the server"):
    deadline = time.time() + timeout
    while time.time() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_every_click_on_stop_resume_and_delete_takes_effect_while_a_run_iterates(live_server, browser):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    rid = _api(live_server, "POST", "/api/runs", {"game": "leduc", "algorithm": "dcfr", "iterations": 1_000_000})["id"]
    status = lambda: _api(live_server, "GET", f"/api/runs/{rid}").get("status")
    button = lambda text: wait_for(
        browser, lambda b: b.find_element(By.XPATH, f"//tr[@data-run='{rid}']//button[text()='{text}']"),
        what=f"the {text} button of {rid}")
    for attempt in range(5):
        _until(lambda: status() == "running", what=f"{rid} running")
        time.sleep(0.4)  # the page polls every 300 ms while it runs
        _press(browser, button("stop"))
        _until(lambda: status() == "stopped", 5.0, f"click {attempt + 1} on stop to stop {rid}")
        _press(browser, button("resume"))
        _until(lambda: status() == "running", 5.0, f"click {attempt + 1} on resume to resume {rid}")
    time.sleep(0.4)
    _press(browser, button("delete"))
    _until(lambda: "no run" in (_api(live_server, "GET", f"/api/runs/{rid}").get("error") or ""), 5.0,
           f"the click on delete to delete {rid}")
    wait_for(browser, lambda b: not b.find_elements(By.CSS_SELECTOR, f"tr[data-run='{rid}']"), what="the row to go")


def test_each_run_keeps_a_colour_of_its_own(live_server, browser):
    browser.get(live_server.url + "/")
    made = []
    for _ in range(14):  # one after another: at most 4 iterate at once; past the palette of 12
        rid = _api(live_server, "POST", "/api/runs", {"game": "kuhn", "algorithm": "cfr", "iterations": 5})["id"]
        _until(lambda rid=rid: _api(live_server, "GET", f"/api/runs/{rid}")["status"] == "finished",
               what=f"{rid} to finish")
        made.append(rid)
    colours_js = """
        const out = {};
        for (const row of document.querySelectorAll('#solve-runs tbody tr')) {
          const id = row.dataset.run;
          const line = document.querySelector(`svg.plot polyline.nash_conv_average[data-run='${id}']`);
          out[id] = [getComputedStyle(row.querySelector('.swatch')).backgroundColor,
                     line ? getComputedStyle(line).stroke : null];
        }
        return out;"""

    def colours(b, expect):
        got = b.execute_script(colours_js)
        return got if set(got) == expect else None

    before = wait_for(browser, lambda b: colours(b, {r["id"] for r in _api(live_server, "GET", "/api/runs")["runs"]}),
                      what="every run's row")
    assert set(made) <= set(before)
    swatches = [swatch for swatch, _ in before.values()]
    assert len(set(swatches)) == len(swatches), f"two runs share a colour: {before}"
    for rid in made:  # each run's curve in its row's colour
        assert before[rid][1] == before[rid][0]
    _api(live_server, "DELETE", f"/api/runs/{made[1]}")
    after = wait_for(browser, lambda b: colours(b, set(before) - {made[1]}), what="the deleted run's row to go")
    assert after == {rid: c for rid, c in before.items() if rid != made[1]}
    for rid in made:
        _api(live_server, "DELETE", f"/api/runs/{rid}")


def test_a_downloaded_policy_loads_in_explore_and_in_the_library(client, tmp_path):
    from zerosum.core.policy import TabularPolicy

    rid = client.post("/api/runs", json={"game": "leduc", "algorithm": "cfr+", "iterations": 30}).json()["id"]
    finished(client, rid)
    download = client.get(f"/api/runs/{rid}/policy")
    assert download.status_code == 200 and download.headers["content-disposition"].endswith(f'"{rid}-policy.json"')
    direct = SOLVERS["cfr+"](load_game("leduc"))
    direct.run(30)
    expected = direct.average_policy()
    for query in ({}, {"game": "leduc"}):  # the game named by the file itself, or in the query
        r = client.post("/api/policies/upload", params=query, content=download.content)
        assert r.status_code == 200, r.text
        assert r.json()["kind"] == "table" and r.json()["nash_conv"] == pytest.approx(
            evaluate(expected.game, expected).nash_conv, abs=1e-12)
    path = tmp_path / "run.json"
    path.write_bytes(download.content)
    loaded = TabularPolicy.load(load_game("leduc"), path)  # what zerosum evaluate --policy reads
    for (p, label, probs), (q, other, want) in zip(loaded.rows(), expected.rows(), strict=True):
        assert (p, label) == (q, other) and probs == pytest.approx(want, abs=1e-12)
    client.delete(f"/api/runs/{rid}")
