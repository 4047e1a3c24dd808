"""The play view: poker hands against the cached CFR+ policy (payoffs by the game's own rules, the
bot's probabilities by its policy) and Connect Four against the exact solver (scores as the solver
gives them, full games the solver does not lose), through the API and by clicking in a browser."""

from __future__ import annotations

import numpy as np
import pytest
from conftest import wait_for

from zerosum.games.kuhn import KuhnPoker
from zerosum.games.leduc import LeducHistory, LeducPoker
from zerosum.perfect.connect4 import ConnectFour
from zerosum.perfect.connect4_solver import Connect4Solver


def _bot_policy(client, name):
    return client.app.state.zerosum["play"]["policies"].get(name)[1]


def _play_kuhn_hand(client, data, choose):
    """Play the hand to its end with ``choose(legal labels) -> label``; the Kuhn history rebuilt
    from what the server showed: (cards of player 0 and 1) + the betting."""
    while not data["over"]:
        data = client.post(f"/api/play/{data['id']}/act", json={"action": choose(
            [a["action"] for a in data["legal_actions"]])}).json()
    seat = data["seat"]
    cards = [data["your_cards"], data["bot_cards"]] if seat == 0 else [data["bot_cards"], data["your_cards"]]
    betting = "".join(e["action"] for e in data["log"] if e["by"] != "chance")
    return data, "".join(cards) + betting


def test_kuhn_hands_payoffs_probabilities_and_score(client):
    rules = KuhnPoker()
    data = client.post("/api/play/new", json={"game": "kuhn", "seat": 1, "seed": 7}).json()
    policy = _bot_policy(client, "kuhn")
    payoffs = []
    choices = [lambda legal: legal[-1], lambda legal: legal[0]]   # always bet/call, always pass/fold
    for k in range(6):
        assert data["hand"] == k + 1 and data["seat"] == (1 + k) % 2   # the seat alternates
        assert data["public_cards"] == "" and data["your_cards"] in "JQK" and "bot_cards" not in data
        data, h = _play_kuhn_hand(client, data, choices[k % 2])
        assert data["history"] == h and rules.player(h) == -2            # a terminal history
        u0 = rules.payoff(h)
        assert data["payoff"] == (u0 if data["seat"] == 0 else -u0)
        payoffs.append(data["payoff"])
        # every bot action: the probability the cached policy gives it at the bot's information set
        bot_player = 1 - data["seat"]
        bets = [e for e in data["log"] if e["by"] != "chance"]
        bot_moves = [(i, e) for i, e in enumerate(bets) if e["by"] == "bot"]
        assert len(bot_moves) == len(data["bot_infosets"]) >= 1
        for (i, e), shown in zip(bot_moves, data["bot_infosets"]):
            infoset = h[bot_player] + "".join(b["action"] for b in bets[:i])
            assert shown["infoset"] == infoset and i % 2 == bot_player
            probs = policy.action_probabilities(infoset, bot_player)
            assert e["probability"] == probs[e["action"]] > 0
            assert shown["probabilities"] == probs
        if k < 5:
            data = client.post(f"/api/play/{data['id']}/next").json()
    score = data["score"]
    assert score["hands"] == 6 and score["total"] == pytest.approx(sum(payoffs))
    assert score["mean"] == pytest.approx(np.mean(payoffs))
    assert score["stderr"] == pytest.approx(np.std(payoffs, ddof=1) / np.sqrt(6))
    # the policy is CFR+'s: near equilibrium (Kuhn's value -1/18 for player 0)
    assert data["bot"]["nash_conv"] < 1e-3


def test_leduc_hand_to_showdown(client):
    data = client.post("/api/play/new", json={"game": "leduc", "seat": 0, "seed": 3}).json()
    assert data["legal_actions"] and data["to_move"] == "you"
    while not data["over"]:
        legal = [a["action"] for a in data["legal_actions"]]
        data = client.post(f"/api/play/{data['id']}/act", json={"action": "c" if "c" in legal else legal[0]}).json()
    cards = data["your_cards"] + data["bot_cards"] + data["public_cards"]
    h = LeducHistory(cards, tuple(data["betting"]))
    assert data["history"] == cards + ":" + "/".join(data["betting"])
    assert data["payoff"] == LeducPoker().payoff(h)
    policy = _bot_policy(client, "leduc")
    for shown in data["bot_infosets"]:
        assert shown["probabilities"] == policy.action_probabilities(shown["infoset"], 1)


def test_the_bot_plays_a_policy_loaded_in_the_explore_view(client):
    from zerosum.core.compile import compiled
    from zerosum.games import load_game
    from zerosum.solvers import SOLVERS

    solver = SOLVERS["cfr"](compiled(load_game("kuhn")))
    solver.run(3)                                  # far from CFR+'s 1000 iterations: another policy
    loaded = solver.average_policy()
    pid = client.post("/api/policies", json={"game": "kuhn", "params": {}, "policy": loaded.to_dict()}).json()["id"]
    data = client.post("/api/play/new", json={"policy": pid, "seat": 1, "seed": 2}).json()
    assert data["bot"]["source"] == f"loaded policy {pid}" and data["game"] == "kuhn"
    data, _ = _play_kuhn_hand(client, data, lambda legal: legal[-1])
    assert data["bot_infosets"]
    for shown in data["bot_infosets"]:
        assert shown["probabilities"] == loaded.action_probabilities(shown["infoset"], 0)


def test_a_policy_of_another_game_than_the_one_chosen_is_refused(client):
    """The page sends the game chosen in its list beside the policy id: a Leduc policy with Kuhn
    chosen is refused in one line (it used to be played in Kuhn's place, silently)."""
    from zerosum.core.compile import compiled
    from zerosum.games import load_game
    from zerosum.solvers import SOLVERS

    solver = SOLVERS["cfr"](compiled(load_game("leduc")))
    solver.run(2)
    pid = client.post("/api/policies", json={"game": "leduc", "params": {},
                                             "policy": solver.average_policy().to_dict()}).json()["id"]
    r = client.post("/api/play/new", json={"game": "kuhn", "policy": pid, "seat": 0})
    error = r.json()["error"]
    assert r.status_code == 400 and "\n" not in error
    assert error == f"policy {pid} is of leduc, not Kuhn poker; choose Leduc hold'em in the game list, or clear the policy id"
    data = client.post("/api/play/new", json={"game": "leduc", "policy": pid, "seat": 0, "seed": 1}).json()
    assert data["game"] == "leduc" and data["bot"]["source"] == f"loaded policy {pid}"


def test_holdem_shows_the_pot_the_stacks_and_the_sizes_in_chips(client):
    """Each hold'em view has the pot, both stacks and what is to call, as the game's contributions
    give them, and each action (offered or played) in chips: the bot's river is a limit bet of 4
    into 10 with two raises, 1,000 behind."""
    from zerosum.poker.holdem import HoldemHistory

    game = client.app.state.zerosum["play"]["policies"].get("holdem")[0]
    for seat, seed in ((0, 3), (1, 5), (1, 8), (0, 21)):
        data = client.post("/api/play/new", json={"game": "holdem", "seat": seat, "seed": seed}).json()
        while True:
            table, betting = data["table"], data["betting"][-1]
            if data["over"]:
                hands = {seat: data["your_cards"], 1 - seat: data["bot_cards"]}
                h = HoldemHistory(tuple(game.hand_labels.index(hands[p]) for p in (0, 1)), (), (betting,))
            else:
                h = HoldemHistory((0, 1), (), (betting,))  # the contributions read the betting only
            put = game.contributions(h)
            assert table["street"] == "river" and table["pot"] == sum(put)
            assert table["your_stack"] == 5 + 1000 - put[seat] and table["bot_stack"] == 5 + 1000 - put[1 - seat]
            for event in data["log"][1:]:
                assert event["words"] in ("check", "fold", "bet 4 (40 % pot)", "call 4", "raise to 8 (22 % pot)",
                                          "raise to 12 (15 % pot)"), event
            if data["over"]:
                break
            words = [a["words"] for a in data["legal_actions"]]
            facing = put[1 - seat] > put[seat]
            assert table["to_call"] == (put[1 - seat] - put[seat] if facing else 0)
            assert words[0] == ("fold" if facing else "check")
            assert words[-1] in ("bet 4 (40 % pot)", "raise to 8 (22 % pot)", "raise to 12 (15 % pot)", "call 4")
            data = client.post(f"/api/play/{data['id']}/act", json={"action": data["legal_actions"][-1]["action"]}).json()


def test_poker_errors_are_one_line_and_the_server_goes_on(client):
    data = client.post("/api/play/new", json={"game": "kuhn", "seat": 0, "seed": 1}).json()
    sid = data["id"]
    r = client.post(f"/api/play/{sid}/act", json={"action": "r"})
    assert r.status_code == 400 and r.json()["error"] == "illegal action 'r'; the legal actions are p (check), b (bet)"
    r = client.post(f"/api/play/{sid}/next")
    assert r.status_code == 400 and "is not over yet" in r.json()["error"]
    r = client.post("/api/play/h999/act", json={"action": "p"})
    assert r.status_code == 400 and r.json()["error"].startswith("no play session 'h999'")
    for body, words in [({"game": "chess"}, "the bot plays kuhn, leduc"), ({"game": ["kuhn"]}, "the bot plays"),
                        ({"game": "kuhn", "seat": 2}, "seat is 0"), ([1, 2], "send a JSON object"),
                        ({"policy": "p77"}, "no loaded policy 'p77'")]:
        r = client.post("/api/play/new", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.json()
    r = client.post(f"/api/play/{sid}/act", content=b"{nope")
    assert r.status_code == 400 and r.json()["error"].startswith("the request is not valid JSON")
    data, _ = _play_kuhn_hand(client, client.get(f"/api/play/{sid}").json(), lambda legal: legal[0])
    r = client.post(f"/api/play/{sid}/act", json={"action": "p"})
    assert r.status_code == 400 and "is over; deal the next one" in r.json()["error"]
    assert client.get(f"/api/play/{sid}").json()["score"]["hands"] == 1


def _rows(game, moves):
    """The board after ``moves`` as the API draws it (top row first), rebuilt with the game's rules."""
    state = game.from_moves(moves)
    x, o = game.stones_of(state, 0), game.stones_of(state, 1)
    return ["".join("X" if x >> (c * game.h1 + r) & 1 else "O" if o >> (c * game.h1 + r) & 1 else "."
                    for c in range(game.width)) for r in range(game.height - 1, -1, -1)]


def test_connect4_scores_agree_with_the_solver(client):
    for width, height, moves in [(6, 5, "34"), (7, 6, "4444441352")]:
        data = client.post("/api/connect4/new", json={"first": "you", "width": width, "height": height,
                                                       "moves": moves}).json()
        assert data["moves"] == moves and data["to_move"] == "you" and data["reply"] is None
        got = client.get(f"/api/connect4/{data['id']}/scores").json()
        assert got["scores"] == Connect4Solver(width, height, table_size_log2=18).analyze(moves)
        assert got["best"] == max(s for s in got["scores"] if s is not None)


def test_connect4_full_game_the_solver_does_not_lose(client):
    rng = np.random.default_rng(5)
    game = ConnectFour(6, 5)
    data = client.post("/api/connect4/new", json={"first": "you", "width": 6, "height": 5}).json()
    assert data["you"] == "X" and data["board"] == ["......"] * 5
    mine = ""
    while not data["over"]:
        column = int(rng.choice(data["legal"]))
        before = data["moves"]
        data = client.post(f"/api/connect4/{data['id']}/move", json={"column": column}).json()
        mine += str(column)
        assert data["moves"][:len(before) + 1] == before + str(column)   # my move, then the solver's
        if not data["over"] or data["reply"]:
            assert data["reply"]["exact"] and data["moves"][-1] == str(data["reply"]["column"])
    assert data["winner"] in ("solver", None) and data["result"] in ("the solver wins", "draw")
    assert data["moves"][0::2] == mine                                    # I moved first, every other move
    state = game.from_moves(data["moves"])                                # the moves are legal
    assert game.is_terminal(state) and data["board"] == _rows(game, data["moves"])
    assert (state.winner == 1) == (data["winner"] == "solver")
    assert data["legal"] == [] and data["to_move"] is None


def test_connect4_solver_moves_first_and_the_fallback(client, monkeypatch):
    from zerosum.web import play

    data = client.post("/api/connect4/new", json={"first": "solver", "width": 5, "height": 4}).json()
    # the solver's first move on 5x4 is exact: a column of the best score
    scores = Connect4Solver(5, 4, table_size_log2=16).analyze("")
    assert data["reply"]["exact"] and scores[data["reply"]["column"] - 1] == max(scores) == data["reply"]["score"]
    assert data["moves"] == str(data["reply"]["column"]) and data["you"] == "O" and data["to_move"] == "you"
    # out of time on an early 7x6 position: a search with a depth limit answers, and says so
    monkeypatch.setattr(play, "THINK_SECONDS", 0.0)
    monkeypatch.setattr(play, "FALLBACK", "alphabeta:2")
    data = client.post("/api/connect4/new", json={"first": "solver", "moves": "4"}).json()
    reply = data["reply"]
    assert reply["exact"] is False and "alphabeta:2" in reply["how"] and data["moves"] == "4" + str(reply["column"])


def test_connect4_bad_moves_are_one_line(client):
    data = client.post("/api/connect4/new", json={"first": "you", "width": 5, "height": 4,
                                                   "moves": "1111"}).json()
    gid = data["id"]
    for column, words in [(9, "column 9 is out of range 1..5"), ("x", "column must be a whole number"),
                          (True, "column must be a whole number")]:
        r = client.post(f"/api/connect4/{gid}/move", json={"column": column})
        assert r.status_code == 400 and r.json()["error"].startswith(words), r.json()
    r = client.post(f"/api/connect4/{gid}/move", json={"column": 1})
    assert r.status_code == 400 and r.json()["error"] == "column 1 is full"
    assert client.get(f"/api/connect4/{gid}").json()["moves"] == "1111"       # nothing was played
    for body, words in [({"first": "me"}, "first is \"you\" or \"solver\""), ({"moves": "48"}, "not a column 1-7"),
                        ({"moves": "1212121"}, "is already over"), ({"width": 12}, "width must be")]:
        r = client.post("/api/connect4/new", json=body)
        assert r.status_code == 400 and words in r.json()["error"], r.json()
    r = client.post("/api/connect4/c999/move", json={"column": 1})
    assert r.status_code == 400 and r.json()["error"].startswith("no Connect Four game 'c999'")
    # a game to its end: moving and scoring after it are refused
    data = client.post("/api/connect4/new", json={"first": "you", "width": 5, "height": 4, "moves": "121212"}).json()
    data = client.post(f"/api/connect4/{data['id']}/move", json={"column": 1}).json()
    assert data["over"] and data["winner"] == "you" and data["reply"] is None
    r = client.post(f"/api/connect4/{data['id']}/move", json={"column": 2})
    assert r.status_code == 400 and r.json()["error"].startswith("the game is over (you win)")
    r = client.get(f"/api/connect4/{data['id']}/scores")
    assert r.status_code == 400 and "no move to score" in r.json()["error"]
    assert client.get(f"/api/connect4/{data['id']}").json()["result"] == "you win"


# --------------------------------------------------------------------------- in the browser


def _open_play(browser, live_server):
    from selenium.webdriver.common.by import By

    browser.get(live_server.url + "/")
    tab = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#tabs button[data-view=play]"),
                   what="the Play tab")
    tab.click()
    assert browser.find_element(By.ID, "view-play").get_attribute("hidden") is None


def _select(browser, element_id, value):
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import Select

    Select(browser.find_element(By.ID, element_id)).select_by_value(value)


def _moves(browser) -> str:
    from selenium.webdriver.common.by import By

    return browser.find_element(By.ID, "play-c4-moves").text


def _log_length(browser) -> int:
    from selenium.webdriver.common.by import By

    return len(browser.find_elements(By.CSS_SELECTOR, "#play-log li"))


def test_browser_connect4_game_to_the_end(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    _open_play(browser, live_server)
    _select(browser, "play-game", "connect4")
    _select(browser, "play-board", "5x4")
    _select(browser, "play-first", "you")
    browser.find_element(By.ID, "play-start").click()
    moves = _moves
    wait_for(browser, lambda b: moves(b) == "none", what="the empty board")
    browser.find_element(By.ID, "play-c4-show-scores").click()
    shown = wait_for(browser, lambda b: [s.text for s in b.find_elements(By.CSS_SELECTOR, "#play-c4-scores span")],
                     what="the scores")
    expected = Connect4Solver(5, 4, table_size_log2=16).analyze("")
    assert shown == [f"{s:+d}" if s else "0" for s in expected]
    clicks = 0
    while not browser.find_elements(By.ID, "play-c4-result"):
        before = moves(browser)
        before = "" if before == "none" else before
        column = browser.find_elements(By.CSS_SELECTOR, "#play-c4-board .column:not(.full)")[0]
        n = int(column.get_attribute("data-column"))
        column.click()
        clicks += 1
        wait_for(browser, lambda b, played=before + str(n): moves(b).startswith(played) and
                 (len(moves(b)) == len(played) + 1 or b.find_elements(By.ID, "play-c4-result")),
                 what=f"the solver's reply to column {n}")
        assert clicks <= 10
    result = browser.find_element(By.ID, "play-c4-result").text
    assert result in ("The solver wins.", "Draw: the board is full.")
    assert browser.find_element(By.ID, "message").text.startswith("Game over:")
    # the board drawn is the board of the moves played
    cells = browser.find_elements(By.CSS_SELECTOR, "#play-c4-board .cell")
    assert len(cells) == 20
    game = ConnectFour(5, 4)
    rows = _rows(game, moves(browser))
    for c in range(5):
        for r in range(4):
            cls = cells[c * 4 + r].get_attribute("class").split()
            assert (rows[r][c] if rows[r][c] != "." else None) == next((m for m in ("X", "O") if m in cls), None)
    screenshot("play-connect4")
    assert [e for e in browser.get_log("browser") if e["level"] == "SEVERE" and "400" not in e["message"]] == []


def test_browser_kuhn_hands(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    _open_play(browser, live_server)
    _select(browser, "play-game", "kuhn")
    _select(browser, "play-seat", "1")
    browser.find_element(By.ID, "play-start").click()
    for hand in (1, 2):
        wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-actions button"), what="the actions")
        while not browser.find_elements(By.ID, "play-result"):
            buttons = browser.find_elements(By.CSS_SELECTOR, "#play-actions button")
            assert {b.text for b in buttons} in ({"check", "bet"}, {"fold", "call"})
            before = _log_length(browser)
            buttons[-1].click()   # bet or call: to the showdown unless the bot folds
            wait_for(browser, lambda b, before=before: _log_length(b) > before, what="the hand to go on")
        log = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#play-log li")]
        assert any(t.startswith("you are dealt ") for t in log)
        assert hand == 2 or any("with probability" in t for t in log)   # the bot acted first in hand 1
        assert browser.find_element(By.ID, "play-bot-cards").text in ("J", "Q", "K")
        score = browser.find_element(By.ID, "play-score").text
        assert f"over {hand} hand" in score
        if hand == 1:
            browser.find_element(By.ID, "play-next").click()
            wait_for(browser, lambda b: not b.find_elements(By.ID, "play-result"), what="the next hand")
    assert "± " in browser.find_element(By.ID, "play-score").text      # two hands: a standard error
    screenshot("play-kuhn")


def test_holdem_hand_pays_the_rules_and_the_bot_plays_its_public_tree_policy(client):
    from zerosum.poker.holdem import HoldemHistory

    game, bot, about = client.app.state.zerosum["play"]["policies"].get("holdem")
    assert about["nash_conv"] < 1e-3  # a solved bot
    tree, policy = bot.policy.tree, bot.policy
    for seat in (0, 1):
        data = client.post("/api/play/new", json={"game": "holdem", "seat": seat, "seed": 11 + seat}).json()
        assert data["public_cards"] == "Ks7d2c9h5s" and len(data["your_cards"]) == 4
        while not data["over"]:
            bad = client.post(f"/api/play/{data['id']}/act", json={"action": "x"})
            assert bad.status_code == 400 and "illegal action" in bad.json()["error"]
            data = client.post(f"/api/play/{data['id']}/act", json={"action": data["legal_actions"][-1]["action"]}).json()
        hands = {seat: data["your_cards"], 1 - seat: data["bot_cards"]}
        betting = data["history"].rsplit(":", 1)[1]
        h = HoldemHistory(tuple(game.hand_labels.index(hands[p]) for p in (0, 1)), (), (betting,))
        you = game.payoff(h) if seat == 0 else -game.payoff(h)
        assert data["payoff"] == you
        for step in data["bot_infosets"]:  # each bot action's probabilities: its node's table, its hand
            hand, public = step["infoset"][:4], step["infoset"][4:]
            node = tree.labels.index(public)
            column = policy.table(node)[:, tree.hand_labels[1 - seat].index(hand)]
            assert step["probabilities"] == dict(zip(tree.action_labels[node], column.tolist()))


def test_browser_holdem_hand(live_server, browser, screenshot):
    from selenium.webdriver.common.by import By

    _open_play(browser, live_server)
    _select(browser, "play-game", "holdem")
    _select(browser, "play-seat", "0")
    browser.find_element(By.ID, "play-start").click()
    wait_for(browser, lambda b: b.find_elements(By.CSS_SELECTOR, "#play-actions button"), what="the actions")
    board = [c.text for c in browser.find_elements(By.CSS_SELECTOR, "#play-public-cards .card")]
    assert board == ["K\u2660", "7\u2666", "2\u2663", "9\u2665", "5\u2660"]
    # the pot, the stacks and the sizes in chips (seat 0 acts first: nothing to call yet)
    assert browser.find_element(By.ID, "play-pot").text == "river: pot 10; your stack 1000, the bot's 1000"
    assert [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#play-actions button")] == ["check", "bet 4 (40 % pot)"]
    while not browser.find_elements(By.ID, "play-result"):
        buttons = browser.find_elements(By.CSS_SELECTOR, "#play-actions button")
        before = _log_length(browser)
        buttons[0].click()   # check or fold: the hand ends within two actions of ours
        wait_for(browser, lambda b, before=before: _log_length(b) > before or b.find_elements(By.ID, "play-result"),
                 what="the hand to go on")
    assert len(browser.find_elements(By.CSS_SELECTOR, "#play-bot-cards .card")) == 2
    assert "over 1 hand" in browser.find_element(By.ID, "play-score").text
    assert "(the pot: " in browser.find_element(By.ID, "play-result").text
    screenshot("play-holdem")


def test_browser_the_explorers_policy_id_plays_in_its_game_only(live_server, browser, tmp_path):
    """The id the explore view shows beside a loaded policy is what the play view's field takes;
    with another game chosen, the one-line refusal shows (no hand of the policy's game instead)."""
    from selenium.webdriver.common.by import By
    from test_explore import _open_file

    from zerosum.core.compile import compiled
    from zerosum.games import load_game
    from zerosum.solvers import SOLVERS

    solver = SOLVERS["cfr"](compiled(load_game("leduc")))
    solver.run(2)
    path = tmp_path / "leduc.json"
    solver.average_policy().save(path)
    _open_file(browser, live_server, path, "leduc")
    loaded = wait_for(browser, lambda b: b.find_element(By.ID, "explore-loaded"), what="the loaded policy")
    pid = loaded.get_attribute("data-id")
    assert f"policy id {pid}" in loaded.text
    browser.find_element(By.CSS_SELECTOR, "#tabs button[data-view=play]").click()
    browser.find_element(By.ID, "play-policy").send_keys(pid)
    _select(browser, "play-game", "kuhn")
    browser.find_element(By.ID, "play-start").click()
    message = wait_for(browser, lambda b: b.find_element(By.ID, "message").text, what="the refusal")
    assert message.endswith(f"policy {pid} is of leduc, not Kuhn poker; choose Leduc hold'em in the game list, or clear the policy id")
    assert not browser.find_elements(By.ID, "play-log")
    _select(browser, "play-game", "leduc")
    browser.find_element(By.ID, "play-start").click()
    header = wait_for(browser, lambda b: b.find_element(By.CSS_SELECTOR, "#play-poker strong").text, what="the hand")
    assert header.startswith("Leduc hold'em, hand 1")
    assert f"loaded policy {pid}" in browser.find_element(By.ID, "play-poker").text


def test_browser_says_which_solver_the_bot_is(live_server, browser):
    from selenium.webdriver.common.by import By

    _open_play(browser, live_server)
    _select(browser, "play-game", "holdem")
    intro = browser.find_element(By.ID, "view-play").text
    bot = browser.find_element(By.ID, "play-bot").text
    assert "DCFR" in bot and "public tree" in bot and "CFR+" not in bot
    assert "CFR+" not in intro.replace(bot, "")  # no line of the page calls the hold'em bot CFR+
    browser.find_element(By.ID, "play-start").click()
    header = wait_for(browser, lambda b: next((t for t in (e.text for e in b.find_elements(
        By.CSS_SELECTOR, "#play-poker .muted")) if "the bot:" in t), None), what="the hand")
    assert "DCFR" in header  # the server's own account of the bot agrees
    _select(browser, "play-game", "leduc")
    assert "CFR+" in browser.find_element(By.ID, "play-bot").text


def test_browser_show_scores_has_a_busy_sign(live_server, browser, monkeypatch):
    import time

    from selenium.webdriver.common.by import By

    from zerosum.web import play

    slow = play._scores

    def scores(*args):  # the exact solver thinking, as early in a 7x6 game
        time.sleep(2.0)
        return slow(*args)

    monkeypatch.setattr(play, "_scores", scores)
    _open_play(browser, live_server)
    _select(browser, "play-game", "connect4")
    _select(browser, "play-board", "5x4")
    _select(browser, "play-first", "you")
    browser.find_element(By.ID, "play-start").click()
    wait_for(browser, lambda b: _moves(b) == "none", what="the empty board")
    browser.find_element(By.ID, "play-c4-show-scores").click()
    busy = wait_for(browser, lambda b: b.find_element(By.ID, "play-c4-busy"), timeout=1.0, what="the busy sign")
    assert busy.is_displayed() and "scoring" in busy.text
    button = browser.find_element(By.ID, "play-c4-show-scores")
    assert not button.is_enabled() and browser.find_element(By.ID, "play-c4-scores").text == ""
    wait_for(browser, lambda b: b.find_element(By.ID, "play-c4-scores").text, what="the scores")
    assert not browser.find_elements(By.ID, "play-c4-busy")
    assert browser.find_element(By.ID, "play-c4-show-scores").is_enabled()
