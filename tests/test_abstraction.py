"""Card abstraction of the poker family (zerosum.poker.abstraction) and ``solve --option abstraction=K``."""

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.core.compile import compiled
from zerosum.core.evaluation import evaluate
from zerosum.errors import ZerosumError
from zerosum.games import load_game
from zerosum.poker.abstraction import AbstractPokerGame, hand_strengths, lift
from zerosum.solvers import SOLVERS


def _solve(game, n):
    s = SOLVERS["cfr+"](compiled(game))
    s.run(n)
    return s.average_policy()


def test_leduc_hand_strengths_exact():
    # J preflop: opponent J (1/5) ties (0.5); opponent Q or K (4/5) loses unless the board is the
    # last J (1/4): 0.1 + 0.8 * 0.25 = 0.3; Q and K likewise by symmetry 0.5, 0.7
    pre, flop = hand_strengths(load_game("leduc"))
    assert pre == pytest.approx({"J": 0.3, "Q": 0.5, "K": 0.7}, abs=1e-15)
    # J on a Q board: deck J Q K K left, only the other J ties: 0.5 / 4; a pair always wins
    assert flop["JQ"] == 0.125 and flop["KQ"] == 0.625 and flop["QQ"] == 1.0


@pytest.mark.parametrize("name,params", [("leduc", {}), ("poker", {"ranks": 4})])
def test_as_many_buckets_as_hands_is_the_real_solve(name, params):
    g = load_game(name, **params)
    a = AbstractPokerGame(g, 1000)  # >= distinct hands in each round: a relabelling
    assert compiled(a).sizes() == compiled(g).sizes()
    lifted = lift(compiled(g), a, _solve(a, 30))
    ref = _solve(g, 30)
    for x, y in zip(lifted.probs, ref.probs):
        np.testing.assert_array_equal(x, y)


def test_fewer_buckets_smaller_game_and_a_policy_of_the_real_game():
    g = load_game("leduc")
    rcg = compiled(g)
    lp = SOLVERS["lp"](rcg)
    lp.run(1, [1])
    eq = evaluate(rcg, lp.average_policy()).nash_conv
    # infosets per player: 144 real; k=3 keeps the 3 preflop cards apart (only the flop merges): 114
    counts = {}
    for k in (3, 2, 1):
        a = AbstractPokerGame(g, k)
        counts[k] = compiled(a).sizes()["infosets"]
        lifted = lift(rcg, a, _solve(a, 20))
        assert evaluate(rcg, lifted).nash_conv >= eq - 1e-9
        if k == 1:  # one bucket: every card plays alike
            assert lifted.action_probabilities("J:", 0) == lifted.action_probabilities("K:", 0)
            assert lifted.action_probabilities("JQ:cc/", 0) == lifted.action_probabilities("KK:cc/", 0)
    assert counts == {3: [114, 114], 2: [66, 66], 1: [18, 18]}
    assert eq < 1e-6


def test_bucket_is_a_function_of_what_the_player_sees():
    """Walk every history of poker(ranks=4): histories in one real infoset share one abstract infoset,
    and the flop bucket label keeps the preflop bucket (perfect recall of the abstraction)."""
    from zerosum.core.game import CHANCE, TERMINAL

    g = load_game("poker", ranks=4, copies=2)
    a = AbstractPokerGame(g, [2, 3])
    seen = {}
    stack = [g.root()]
    while stack:
        h = stack.pop()
        p = g.player(h)
        if p == TERMINAL:
            continue
        if p == CHANCE:
            stack.extend(g.child(h, c) for c, _ in g.chance_outcomes(h))
            continue
        assert seen.setdefault(g.infoset(h), a.infoset(h)) == a.infoset(h)
        stack.extend(g.child(h, x) for x in g.actions(h))
    assert len(seen) == sum(compiled(g).sizes()["infosets"])
    assert len(set(seen.values())) == sum(compiled(a).sizes()["infosets"]) < len(seen)


def test_refusals():
    with pytest.raises(ZerosumError, match="poker family"):
        AbstractPokerGame(load_game("kuhn"), 2)
    with pytest.raises(ZerosumError, match="one per round"):
        AbstractPokerGame(load_game("leduc"), [2, 2, 2])


def test_cli_solve_abstraction_saves_a_blueprint_resolve_reads(tmp_path):
    bp = tmp_path / "bp.json"
    r = CliRunner().invoke(cli, ["solve", "leduc", "-n", "20", "--option", "abstraction=2", "--save", str(bp),
                                 "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.output)
    g = load_game("leduc")
    a = AbstractPokerGame(g, 2)
    expected = evaluate(compiled(g), lift(compiled(g), a, _solve(a, 20))).nash_conv
    assert out["nash_conv"] == pytest.approx(expected, abs=1e-12)
    assert out["abstraction"]["infosets"] == [66, 66] and out["abstraction"]["buckets"] == [2, 2]
    r = CliRunner().invoke(cli, ["solve", "leduc", "-a", "resolve", "-n", "20", "--option", f"blueprint={bp}",
                                 "--option", "node=Q:cc/", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["blueprint_nash_conv"] == pytest.approx(expected, abs=1e-9)


@pytest.mark.parametrize("args,words", [
    (["kuhn", "--option", "abstraction=2"], "poker family"),
    (["leduc", "--option", "abstraction=0"], "positive integer"),
    (["leduc", "--option", "abstraction=2", "--checkpoints", "10", "-n", "20"], "--checkpoints"),
    (["leduc", "-a", "pcs-mccfr", "--option", "abstraction=2"], "history tree"),
])
def test_cli_abstraction_bad_input(args, words):
    r = CliRunner().invoke(cli, ["solve", *args])
    assert r.exit_code == 1
    assert r.output.startswith("Error: ") and words in r.output and "Traceback" not in r.output


def test_experiment_abstraction_quick():
    from zerosum.experiments.subgames import abstraction

    t, holdem = abstraction(quick=True).tables
    # hold'em on the public tree: the unabstracted row is LCFR x 20 run directly; one bucket costs more
    from zerosum.experiments.subgames import QUICK_TURN
    from zerosum.public_tree.compile import public_tree
    from zerosum.public_tree.solver import public_solver

    real = public_solver("lcfr", public_tree(load_game("holdem", **QUICK_TURN)))
    real.iterate(20)
    hrows = {r[0]: r for r in holdem.rows}
    assert hrows["none (real game)"][3] == pytest.approx(real.checkpoint()["nash_conv_average"], abs=1e-6)
    assert hrows["1"][3] > hrows["4"][3] > hrows["none (real game)"][3]
    assert hrows["1"][1] < hrows["4"][1] < hrows["none (real game)"][1]
    rows = {r[1]: r for r in t.rows}
    assert [rows[k][2] for k in ("1", "3", "none (real game)")] == [36, 228, 288]
    g = load_game("leduc")
    assert rows["none (real game)"][4] == pytest.approx(evaluate(compiled(g), _solve(g, 20)).nash_conv, abs=1e-12)
    a = AbstractPokerGame(g, 1)
    assert rows["1"][4] == pytest.approx(evaluate(compiled(g), lift(compiled(g), a, _solve(a, 20))).nash_conv,
                                         abs=1e-12)
    assert all(r[5] is not None and r[5] >= 0 for r in t.rows)  # the re-solved profiles, measured


def test_experiment_command_prints_the_table():
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    result = CliRunner().invoke(cli, ["experiment", "abstraction", "--quick", "--json"])
    assert result.exit_code == 0, result.output
    table = json.loads(result.output)["tables"][0]
    rows = {(r[0], r[1]): r for r in table["rows"]}
    lifted = table["columns"].index("NashConv lifted")
    # one bucket a round is a worse blueprint than the real game's solve at the same iterations
    assert rows[("leduc", "1")][lifted] > rows[("leduc", "none (real game)")][lifted]
