"""POST /api/policies/upload?game=holdem (the short name, no parameters) with a file saved by
``zerosum solve holdem --save``: the short name defers to the full id the file records when they
name the same game (it used to answer "board is required"); parameters given beside it still
override the file's, and a short name of another game is still refused."""

from __future__ import annotations

import json

import pytest

from zerosum.games import load_game
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.policy import PublicPolicy
from zerosum.public_tree.solver import public_solver

RIVER = {"board": "Ks7d2c9h5s", "range0": "AsAh,KhQh,8s8h", "range1": "QsJs,9d8d,AdKd", "raises": 1}


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    game = load_game("holdem", **RIVER)
    tree = public_tree(game)
    solver = public_solver("dcfr", tree)
    solver.run(20)
    path = tmp_path_factory.mktemp("upload") / "river.json"
    solver.average_policy().save(path)
    return game, tree, path


def test_the_short_name_takes_the_files_full_id(client, saved):
    game, tree, path = saved
    r = client.post("/api/policies/upload", params={"game": "holdem"}, content=path.read_bytes())
    assert r.status_code == 200, r.text
    summary = r.json()
    assert summary["game"] == game.id and summary["kind"] == "holdem"
    expected = PublicPolicy.from_dict(tree, json.loads(path.read_text())).evaluate()["nash_conv"]
    assert summary["nash_conv"] == pytest.approx(float(expected), abs=1e-12)
    by_id = client.post("/api/policies/upload", params={"game": game.id}, content=path.read_bytes())
    assert by_id.status_code == 200, by_id.text
    assert by_id.json()["nash_conv"] == summary["nash_conv"]


def test_params_beside_the_short_name_override_the_files(client, saved):
    _, _, path = saved
    other = load_game("holdem", **{**RIVER, "pot": 4})
    r = client.post("/api/policies/upload?game=holdem&param=pot=4", content=path.read_bytes())
    assert r.status_code == 400  # the policy was made for the file's pot, and the page says so in one line
    error = r.json()["error"]
    assert other.id in error and "board is required" not in error and len(error.splitlines()) == 1


def test_another_games_short_name_is_not_replaced(client, saved):
    _, _, path = saved
    r = client.post("/api/policies/upload", params={"game": "leduc"}, content=path.read_bytes())
    assert r.status_code == 400 and "board is required" not in r.json()["error"]
