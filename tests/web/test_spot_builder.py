"""The hold'em spot builder of the solve view: the size-estimate endpoint against the library's
estimate and its one-line refusals, the range endpoint against the library's parser; and in a real
browser, a spot file loaded into the form (every field), saved back (the same JSON, the same
HoldemGame parameters), a range painted by clicks and a drag (its text and combos as the library
reads them), a range typed (its grid), a rake refused in one line, and a solve started from the
builder (its run row appears)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from conftest import wait_for

from zerosum.poker.cards import parse_board
from zerosum.poker.holdem import HoldemGame
from zerosum.poker.ranges import parse_range, range_combos
from zerosum.poker.spots import spot_params

SPOTS = Path(__file__).parents[2].parent / "shared" / "data" / "poker-spots"
TURN_SPOT = SPOTS / "pfs-example-turn-td9d6h-qc.json"
TINY = {"name": "tiny river", "board": "Ks7d2c9h5s", "pot": 10, "stack": 100,
        "ranges": ["AA,KK,QQ,AK,A5s,76s,98s", "AA,KK,JJ,AQ,T9s,K9s,55"],
        "streets": {"river": {"bet": ["50%", "a"], "raise": ["2.5x"]}}}


def needs_turn_spot():
    if not TURN_SPOT.exists():
        pytest.skip(f"{TURN_SPOT} is absent (the shared spot files: ../shared/data/poker-spots)")
    return json.loads(TURN_SPOT.read_text())


# --- HTTP -------------------------------------------------------------------------------------------
@pytest.mark.parametrize("which", ["tiny", "turn"])
def test_the_estimate_is_the_librarys(client, which):
    spot = TINY if which == "tiny" else needs_turn_spot()
    answer = client.post("/api/spots/estimate", json={"spot": spot})
    assert answer.status_code == 200, answer.text
    data = answer.json()
    game = HoldemGame(**spot_params(spot))
    expected = game.estimated_sizes()
    for key in ("histories", "public_nodes", "infoset_actions", "public_bytes", "compile_bytes"):
        assert data[key] == expected[key], key
    assert data["fits"] is True and data["game_id"] == game.id and data["hands"] == len(game.hands)
    board = parse_board(spot["board"])
    assert data["combos"] == [pytest.approx(range_combos(parse_range(r, dead=board))) for r in spot["ranges"]]


@pytest.mark.parametrize("body, words", [
    ({"spot": {**TINY, "board": "Ks7d"}}, "board"),
    ({"spot": {k: v for k, v in TINY.items() if k != "pot"}}, "'pot'"),
    ({"spot": {**TINY, "ranges": ["AA,ZZ", ""]}}, "ZZ"),
    ({"spot": {**TINY, "rake": {"rate": 0.05, "cap": 0}}}, "rake cap of 0"),
    ({"spot": {**TINY, "merging": 0.1}}, "unknown field 'merging'"),
    ({"spot": {**TINY, "streets": {"river": {"bet": ["50%"], "raise": ["2.5y"]}}}}, "2.5y"),
    ({"board": "Ks7d2c9h5s"}, '{"spot"'),
    ([1, 2], '{"spot"'),
])
def test_the_estimate_refuses_bad_input_in_one_line(client, body, words):
    answer = client.post("/api/spots/estimate", json=body)
    assert answer.status_code == 400, answer.text
    message = answer.json()["error"]
    assert words in message and "\n" not in message and len(message) < 400


def test_a_tree_past_the_memory_is_estimated_but_does_not_fit(client, monkeypatch):
    import zerosum.core.memory

    monkeypatch.setattr(zerosum.core.memory, "memory_limit", lambda *_: 1000)
    data = client.post("/api/spots/estimate", json={"spot": TINY}).json()
    assert data["public_bytes"] > data["memory_limit"] == 1000 and data["fits"] is False


def test_the_range_grid_is_the_librarys_parse(client):
    text, board = "AA,AKs:0.5,KQo,AhKh,T9s:0.25,J5s-J2s", "Td9d6hQc"
    data = client.post("/api/spots/range", json={"text": text, "board": board}).json()
    weights = parse_range(text, dead=parse_board(board))
    assert data["combos"] == pytest.approx(range_combos(weights))
    grid, live = data["weights"], data["live"]
    assert grid[0][0] == 1 and live[0][0] == 6                     # AA
    assert grid[0][1] == pytest.approx(0.625) and live[0][1] == 4  # AKs:0.5 with AhKh at 1
    assert grid[2][1] == 1 and live[2][1] == 9                     # KQo: the Qc is on the board
    assert live[4][5] == 3 and grid[4][5] == 0.25                  # T9s: Td9d is dead
    assert sum(w * n for row_w, row_n in zip(grid, live) for w, n in zip(row_w, row_n) if w) == \
        pytest.approx(range_combos(weights))
    bad = client.post("/api/spots/range", json={"text": "AA,AKx", "board": board})
    assert bad.status_code == 400 and "AKx" in bad.json()["error"]


# --- the browser ------------------------------------------------------------------------------------
def _open_builder(browser, live_server):
    browser.get(live_server.url + "/")
    wait_for(browser, lambda b: b.find_element("id", "builder"), what="the builder")
    builder = browser.find_element("id", "builder")
    if not builder.get_attribute("open"):
        builder.find_element("css selector", "summary").click()
    wait_for(browser, lambda b: b.find_element("id", "builder-file").is_displayed() or True, what="the builder open")


def _value(browser, element_id):
    return browser.find_element("id", element_id).get_attribute("value")


def _cell(browser, p, hand):
    return browser.find_element("css selector", f'#builder-grid-{p} [data-hand="{hand}"]')


def _combos_shown(browser, p) -> float:
    text = browser.find_element("id", f"builder-combos-{p}").text
    assert text.endswith(" combos"), text
    return float(text.split()[0])


def test_the_builder_round_trips_a_spot_file_paints_a_range_and_solves(browser, live_server, tmp_path, screenshot):
    from selenium.webdriver.common.action_chains import ActionChains
    from selenium.webdriver.common.keys import Keys

    spot = needs_turn_spot()
    _open_builder(browser, live_server)
    browser.find_element("id", "builder-file").send_keys(str(TURN_SPOT))
    wait_for(browser, lambda b: _value(b, "builder-board") == spot["board"], what="the loaded board")

    # every field shows the file's values
    assert _value(browser, "builder-name") == spot["name"]
    assert float(_value(browser, "builder-pot")) == spot["pot"]
    assert float(_value(browser, "builder-stack")) == spot["stack"]
    assert _value(browser, "builder-range-0") == spot["ranges"][0]
    assert _value(browser, "builder-range-1") == spot["ranges"][1]
    assert _value(browser, "builder-betting") == spot["betting"]
    assert _value(browser, "builder-same") == "true"
    assert float(_value(browser, "builder-add-allin-threshold")) == spot["add_allin_threshold"]
    assert float(_value(browser, "builder-force-allin-threshold")) == spot["force_allin_threshold"]
    assert float(_value(browser, "builder-merging-threshold")) == spot["merging_threshold"]
    assert float(_value(browser, "builder-rake-rate")) == spot["rake"]["rate"]
    assert float(_value(browser, "builder-rake-cap")) == spot["rake"]["cap"]
    for street, sizes in spot["streets"].items():
        assert _value(browser, f"builder-{street}-oop-bet") == ",".join(sizes["bet"])
        assert _value(browser, f"builder-{street}-oop-raise") == ",".join(sizes["raise"])
        assert _value(browser, f"builder-{street}-ip-bet") == ",".join(sizes["bet"])  # same sizes: mirrored
        assert browser.find_element("id", f"builder-{street}-same").is_selected()
        assert _value(browser, f"builder-{street}-donk") == ",".join(sizes.get("donk", []))
    for key in (k for k in spot if k.endswith("_note")):
        assert browser.find_element("css selector", f'#builder-note-fields input[data-key="{key}"]').get_attribute("value") == spot[key]
    on = {b.get_attribute("data-card") for b in browser.find_elements("css selector", "#builder-cards .bcard.on")}
    assert on == {"Td", "9d", "6h", "Qc"}
    board = parse_board(spot["board"])
    for p in (0, 1):
        expected = range_combos(parse_range(spot["ranges"][p], dead=board))
        wait_for(browser, lambda b, p=p, e=expected: abs(_combos_shown(b, p) - e) < 1e-6, what=f"range {p}'s combos")
    sizes = HoldemGame(**spot_params(spot)).estimated_sizes()
    wait_for(browser, lambda b: b.find_element("id", "builder-estimate").get_attribute("data-public-nodes")
             == str(sizes["public_nodes"]), what="the estimate")
    assert browser.find_element("id", "builder-estimate").get_attribute("data-public-bytes") == str(sizes["public_bytes"])
    assert f"{sizes['public_nodes']:,} public nodes" in browser.find_element("id", "builder-estimate").text
    screenshot("spot-builder-loaded")

    # save it back: the downloaded file is the file's JSON, the same game
    browser.execute_cdp_cmd("Browser.setDownloadBehavior", {"behavior": "allow", "downloadPath": str(tmp_path)})
    browser.find_element("id", "builder-save").click()
    saved_path = tmp_path / f"{spot['name']}.json"
    wait_for(browser, lambda b: saved_path.exists() and saved_path.stat().st_size > 0, what="the saved spot file")
    time.sleep(0.2)
    saved = json.loads(saved_path.read_text())
    assert saved == spot
    assert spot_params(saved) == spot_params(spot)

    # paint: 50 % on 72o..32o by a drag along the row, then a click on 22
    slider = browser.find_element("id", "builder-weight")
    slider.send_keys(Keys.HOME)
    for _ in range(50):
        slider.send_keys(Keys.ARROW_RIGHT)
    assert slider.get_attribute("value") == "50"
    before = parse_range(_value(browser, "builder-range-0"), dead=board)
    painted = ["72o", "62o", "52o", "42o", "32o"]
    chain = ActionChains(browser).click_and_hold(_cell(browser, 0, painted[0]))
    for hand in painted[1:]:
        chain = chain.move_to_element(_cell(browser, 0, hand))
    chain.release().perform()
    _cell(browser, 0, "22").click()
    text = _value(browser, "builder-range-0")
    for hand in [*painted, "22"]:
        assert _cell(browser, 0, hand).get_attribute("data-weight") == "0.5", hand
        assert f"{hand}:0.5" in text, text
    after = parse_range(text, dead=board)
    expected = before.copy()
    expected[parse_range(",".join([*painted, "22"]), dead=board) > 0] = 0.5
    assert after == pytest.approx(expected)  # the text is the grid: the old range and the painted cells
    assert _combos_shown(browser, 0) == pytest.approx(range_combos(after), abs=0.005)
    assert range_combos(after) == pytest.approx(range_combos(before) + 0.5 * (5 * 12 - 3 + 6))  # 62o: 6h dead

    # type a range: the grid follows, as the library reads it
    box = browser.find_element("id", "builder-range-1")
    box.clear()
    box.send_keys("AA,AKs:0.5,QQ")
    wait_for(browser, lambda b: _cell(b, 1, "AKs").get_attribute("data-weight") == "0.5"
             and _cell(b, 1, "KK").get_attribute("data-weight") == "0", what="the typed range's grid")
    assert _cell(browser, 1, "QQ").get_attribute("data-weight") == "1"
    wait_for(browser, lambda b: _combos_shown(b, 1) == range_combos(parse_range("AA,AKs:0.5,QQ", dead=board)),
             what="the typed range's combos")  # 6 + 2 + 3 (the Qc is on the board)

    # a rake: kept in the spot (no cap typed: none); a cap of 0 refused by the server in one line
    rate = browser.find_element("id", "builder-rake-rate")
    cap = browser.find_element("id", "builder-rake-cap")
    cap.clear()  # (the file's cap 0)
    rate.clear()
    rate.send_keys("0.05")
    wait_for(browser, lambda b: json.loads(_value(b, "builder-json")).get("rake") == {"rate": 0.05}, what="the rake")
    cap.send_keys("0")
    wait_for(browser, lambda b: "rake cap of 0" in b.find_element("id", "builder-estimate").text, what="the cap's refusal")
    assert json.loads(_value(browser, "builder-json"))["rake"] == {"rate": 0.05, "cap": 0}
    cap.clear()
    rate.clear()
    rate.send_keys("0")
    wait_for(browser, lambda b: "public nodes" in b.find_element("id", "builder-estimate").text, what="the estimate back")
    browser.execute_script("document.getElementById('builder-weight').scrollIntoView()")
    screenshot("spot-builder-painted")

    # solve from the builder: the run row appears (stopped at once: the machine is shared)
    runs = live_server.app.state.zerosum["runs"]
    known = {r["id"] for r in runs.list()}
    browser.find_element("id", "builder-solve").click()
    row = wait_for(browser, lambda b: [r for r in b.find_elements("css selector", "#solve-runs tbody tr")
                                       if r.get_attribute("data-run") not in known], what="the builder's run row")
    rid = row[0].get_attribute("data-run")
    try:
        assert spot["name"] in row[0].text
        run = runs.get(rid)
        assert run.params["range0"] == text and run.params["range1"] == "AA,AKs:0.5,QQ"
        assert run.target == pytest.approx(0.005)
    finally:
        runs.delete(rid)
