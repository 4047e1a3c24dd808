"""The views not yet checked on a phone, at 390x844 (issue 51: nothing cut off): the solve view with
a run listed and its curve, the spot builder with a spot loaded, Play's Kuhn and hold'em hands and
the Connect Four board after a few moves. Each: the page no wider than the screen, the view's key
elements within it, and a screenshot (docs/web.md shows them)."""

from __future__ import annotations

import pytest
from conftest import wait_for
from test_play import _log_length, _moves, _open_play, _select
from test_spot_builder import TURN_SPOT, _open_builder, _value, needs_turn_spot

WIDTH, HEIGHT = 390, 844


@pytest.fixture
def phone(browser):
    browser.execute_cdp_cmd("Emulation.setDeviceMetricsOverride", {"width": WIDTH, "height": HEIGHT,
                                                                  "deviceScaleFactor": 1, "mobile": True})
    yield browser
    browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})


def assert_fits(browser, selectors):
    """The page scrolls no sideways, and every shown element of ``selectors`` lies within the screen
    (a wide table may scroll inside its own box: the box is what is checked)."""
    assert browser.execute_script("return window.innerWidth") == WIDTH
    page = browser.execute_script("return [document.documentElement.scrollWidth, document.body.scrollWidth]")
    assert max(page) <= WIDTH, f"the page is {page} px wide on a {WIDTH} px screen"
    for selector in selectors:
        rects = browser.execute_script("""
            const box = e => {  // an element in a box that scrolls sideways: the box is what must fit
              for (let a = e.parentElement; a; a = a.parentElement)
                if (/auto|scroll/.test(getComputedStyle(a).overflowX)) return a;
              return e;
            };
            return [...document.querySelectorAll(arguments[0])].filter(e => e.checkVisibility())
              .map(e => Object.assign(box(e).getBoundingClientRect().toJSON(),
                                      {what: e.id || e.className || e.tagName, in: (e.closest('[id]') || {}).id}));
            """, selector)
        assert rects, f"nothing shown for {selector}"
        outside = [r for r in rects if r["left"] < -0.5 or r["right"] > WIDTH + 0.5]
        assert not outside, f"{selector} outside the screen: {outside[:3]}"


def test_solve_view_with_a_run_and_its_curve(live_server, phone, screenshot):
    from selenium.webdriver.common.by import By

    browser = phone
    browser.get(live_server.url + "/")
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#solve-game option[value=kuhn]"), what="the games")
    browser.find_element(By.ID, "solve-algorithm").send_keys("cfr+")
    box = browser.find_element(By.ID, "solve-iterations")
    box.clear()
    box.send_keys("300")
    browser.find_element(By.ID, "solve-start").click()
    wait_for(browser, lambda b: any(r.find_element(By.CSS_SELECTOR, ".run-status").text == "finished"
                                    for r in b.find_elements(By.CSS_SELECTOR, "#solve-runs tbody tr")),
             what="the run to finish")
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "svg.plot polyline.curve"), what="the curve")
    browser.execute_script("window.scrollTo(0, document.body.scrollHeight)")  # the form, the plot, the run's row
    screenshot("solve-390x844")
    assert_fits(browser, ["header", "#view-solve .panel", "#view-solve select", "#view-solve input",
                          "#solve-start", "#solve-runs", "svg.plot", ".plot-legend"])
    # the run's row on one line (the table scrolls in its box), its buttons' words not broken a letter wide
    row = browser.find_element(By.CSS_SELECTOR, "#solve-runs tbody tr")
    assert row.rect["height"] < 60, row.rect
    for button in row.find_elements(By.CSS_SELECTOR, "button, a.button"):
        assert button.rect["height"] < 40, (button.text, button.rect)


def test_spot_builder_with_a_spot_loaded(live_server, phone, screenshot):
    browser = phone
    spot = needs_turn_spot()
    _open_builder(browser, live_server)
    browser.find_element("id", "builder-file").send_keys(str(TURN_SPOT))
    wait_for(browser, lambda b: _value(b, "builder-board") == spot["board"], what="the loaded board")
    wait_for(browser, lambda b: "public nodes" in b.find_element("id", "builder-estimate").text, what="the estimate")
    browser.execute_script("document.getElementById('builder').scrollIntoView()")
    screenshot("spot-builder-390x844")
    browser.execute_script("document.querySelector('.bgrid').scrollIntoView()")
    screenshot("spot-builder-ranges-390x844")
    assert_fits(browser, ["#builder", "#builder input", "#builder select", "#builder textarea", ".bcard",
                          ".bgrid", ".bgrid-cell", "#builder-estimate", ".bstreets"])


def test_play_kuhn_and_holdem_hands(live_server, phone, screenshot):
    from selenium.webdriver.common.by import By

    browser = phone
    for game, name in (("kuhn", "play-kuhn-390x844"), ("holdem", "play-holdem-390x844")):
        _open_play(browser, live_server)
        _select(browser, "play-game", game)
        _select(browser, "play-seat", "0")
        browser.find_element(By.ID, "play-start").click()
        wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-actions button"), what="the actions")
        assert_fits(browser, ["#view-play .panel", "#play-actions button", "#play-public-cards, #play-your-cards"])
        while not browser.find_elements(By.ID, "play-result"):
            before = _log_length(browser)
            browser.find_elements(By.CSS_SELECTOR, "#play-actions button")[-1].click()  # bet / call
            wait_for(browser, lambda b, before=before: _log_length(b) > before or b.find_elements(By.ID, "play-result"),
                     what="the hand to go on")
        browser.execute_script("document.getElementById('view-play').scrollIntoView()")
        screenshot(name)
        assert_fits(browser, ["#view-play .panel", "#play-result", "#play-log li", "#play-score", "#play-bot-cards"])


def test_play_connect_four_board(live_server, phone, screenshot):
    from selenium.webdriver.common.by import By

    browser = phone
    _open_play(browser, live_server)
    _select(browser, "play-game", "connect4")
    _select(browser, "play-first", "you")
    # the widest board, 7 x 6, empty (the solver thinks tens of seconds on its first moves: not played here)
    browser.find_element(By.ID, "play-start").click()
    wait_for(browser, lambda b: _moves(b) == "none" and len(b.find_elements(By.CSS_SELECTOR, "#play-c4-board .column")) == 7,
             what="the empty 7 x 6 board")
    assert_fits(browser, ["#view-play .panel", "#play-c4-board", "#play-c4-board .column", "#play-c4-board .cell"])
    # 6 x 5: a few moves each side, then the scores
    _select(browser, "play-board", "6x5")
    browser.find_element(By.ID, "play-start").click()
    wait_for(browser, lambda b: _moves(b) == "none" and len(b.find_elements(By.CSS_SELECTOR, "#play-c4-board .column")) == 6,
             what="the empty 6 x 5 board")
    for n in (2, 2, 3):  # three moves of ours, each answered
        before = "" if _moves(browser) == "none" else _moves(browser)
        browser.find_element(By.CSS_SELECTOR, f'#play-c4-board .column[data-column="{n}"]').click()
        wait_for(browser, lambda b, played=before + str(n): len(_moves(b)) == len(played) + 1
                 and _moves(b).startswith(played), what=f"the solver's reply to column {n}")
    browser.find_element(By.ID, "play-c4-show-scores").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-c4-scores span"), what="the scores")
    browser.execute_script("document.getElementById('view-play').scrollIntoView()")
    screenshot("play-connect4-390x844")
    assert_fits(browser, ["#view-play .panel", "#play-c4-board", "#play-c4-board .column", "#play-c4-board .cell",
                          "#play-c4-scores span"])
