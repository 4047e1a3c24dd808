"""Your own game from the command line: ``zerosum solve FILE.py:NAME`` and ``module:NAME`` (a game
class made with --param, or an instance as it is), ``zerosum evaluate`` on the same, ``zerosum games``
saying so, and one-line errors for each way the name can be wrong."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from click.testing import CliRunner

from zerosum.cli import cli

# the one-card bluffing game of docs/game-api.md (value 1/3 at p = 0.5), an instance and two things that are not games
GAME = textwrap.dedent('''
    import zerosum
    from zerosum.core.game import CHANCE, TERMINAL


    class OneCardBluff(zerosum.Game):
        name = "one_card_bluff"

        def __init__(self, p=0.5, bet=1.0):
            self.p, self.bet = p, bet

        def params(self):
            return {"p": self.p, "bet": self.bet}

        def root(self):
            return ()

        def player(self, h):
            if len(h) == 0:
                return CHANCE
            if len(h) == 1:
                return 0
            return 1 if (h[1] == "bet" and len(h) == 2) else TERMINAL

        def actions(self, h):
            return ("check", "bet") if len(h) == 1 else ("fold", "call")

        def chance_outcomes(self, h):
            return [("high", self.p), ("low", 1 - self.p)]

        def child(self, h, action):
            return h + (action,)

        def payoff(self, h):
            sign = 1.0 if h[0] == "high" else -1.0
            if h[1] == "check":
                return sign
            return 1.0 if h[2] == "fold" else sign * (1 + self.bet)

        def infoset(self, h):
            return f"0:{h[0]}" if len(h) == 1 else "1:bet"


    QUARTER = OneCardBluff(p=0.25)
    NOT_A_GAME = 42


    class Plain:
        pass
''')


@pytest.fixture
def files(tmp_path):
    (tmp_path / "bluff.py").write_text(GAME)
    (tmp_path / "broken.py").write_text("import zerosum\nimport no_such_package_for_zerosum_tests\n")
    (tmp_path / "typo.py").write_text("x = (\n")
    return tmp_path


def _run(*args):
    return CliRunner().invoke(cli, [str(a) for a in args])


def test_solve_a_class_with_params_and_an_instance(files):
    cls = _run("solve", f"{files}/bluff.py:OneCardBluff", "--param", "p=0.25", "-a", "lp", "--json")
    assert cls.exit_code == 0, cls.output
    a = json.loads(cls.output)
    assert a["game"] == "one_card_bluff(bet=1.0,p=0.25)"
    inst = _run("solve", f"{files}/bluff.py:QUARTER", "-a", "lp", "--json")
    assert inst.exit_code == 0, inst.output
    b = json.loads(inst.output)
    assert b["game"] == a["game"] and b["value"] == pytest.approx(a["value"], abs=1e-9)
    # the --param reached the class: p = 0.25's value is not p = 0.5's (1/3, docs/game-api.md)
    half = json.loads(_run("solve", f"{files}/bluff.py:OneCardBluff", "-a", "lp", "--json").output)
    assert half["game"] == "one_card_bluff(bet=1.0,p=0.5)" and half["value"] == pytest.approx(1 / 3, abs=1e-9)
    assert a["value"] != pytest.approx(half["value"], abs=1e-3)
    assert a["nash_conv"] == pytest.approx(0, abs=1e-9)


def test_evaluate_the_saved_policy_of_your_own_game(files):
    pol = files / "pol.json"
    r = _run("solve", f"{files}/bluff.py:OneCardBluff", "--param", "p=0.25", "-n", "200", "--save", pol, "--json")
    assert r.exit_code == 0, r.output
    solved = json.loads(r.output)
    ev = _run("evaluate", f"{files}/bluff.py:OneCardBluff", "--param", "p=0.25", pol, "--json")
    assert ev.exit_code == 0, ev.output
    e = json.loads(ev.output)
    assert e["game"] == "one_card_bluff(bet=1.0,p=0.25)"
    assert e["nash_conv"] == pytest.approx(solved["nash_conv_average"], abs=1e-6)
    by_instance = json.loads(_run("evaluate", f"{files}/bluff.py:QUARTER", pol, "--json").output)
    assert by_instance["nash_conv"] == e["nash_conv"]


def test_module_name_through_the_console_script(files):
    """``module:NAME`` as a user types it: the module beside them (the console script's sys.path
    does not hold the current folder by itself)."""
    script = Path(sys.executable).with_name("zerosum")
    env = {**os.environ, "PYTHONPATH": ""}
    r = subprocess.run([str(script), "solve", "bluff:OneCardBluff", "--param", "bet=2", "-n", "20", "--json"],
                       check=False, cwd=files, capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["game"] == "one_card_bluff(bet=2,p=0.5)"
    r = subprocess.run([str(script), "solve", "no_such_module_xyz:Game"], check=False, cwd=files, capture_output=True,
                       text=True, env=env, timeout=120)
    assert r.returncode != 0 and len(r.stderr.strip().splitlines()) == 1
    assert "cannot import module 'no_such_module_xyz'" in r.stderr and "Traceback" not in r.stderr


@pytest.mark.parametrize("spec,params,words", [
    ("missing.py:Game", [], "cannot read"),
    ("bluff.py:Nope", [], "has no 'Nope' (games in it: OneCardBluff, QUARTER)"),
    ("bluff.py:NOT_A_GAME", [], "is not a game (int)"),
    ("bluff.py:Plain", [], "is not a game (a class, not a subclass of zerosum.Game)"),
    ("bluff.py", [], "name the game in"),
    ("broken.py:Game", [], "line 2: ModuleNotFoundError: No module named 'no_such_package_for_zerosum_tests'"),
    ("typo.py:Game", [], "line 1: SyntaxError"),
    ("bluff.py:QUARTER", ["--param", "p=0.5"], "takes no --param"),
    ("bluff.py:OneCardBluff", ["--param", "q=1"], "no parameter 'q'; it takes p (default 0.5), bet (default 1.0)"),
])
def test_one_line_errors(files, spec, params, words):
    for command in (["solve", f"{files}/{spec}", *params, "-n", "5"],
                    ["evaluate", f"{files}/{spec}", *params, str(files / "pol.json")]):
        r = _run(*command)
        assert r.exit_code != 0
        assert words in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1 and "Traceback" not in r.output


def test_games_lists_your_own_game():
    r = _run("games", "--json")
    names = {row["name"]: row for row in json.loads(r.output)["games"]}
    assert "FILE.py:NAME" in names and "module:NAME" in names["FILE.py:NAME"]["description"]
    text = _run("games").output
    assert "FILE.py:NAME" in text
