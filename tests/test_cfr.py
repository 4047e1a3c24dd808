import numpy as np
import pytest

import zerosum


def test_lab15_part1_cfr_table_to_every_printed_digit():
    solver = zerosum.CFRSolver(zerosum.load_game("leduc"))
    rows = solver.run(1000, [10, 30, 100, 300])
    assert [round(r["nash_conv_average"], 4) for r in rows] == [1.7772, 0.6218, 0.1914, 0.0710, 0.0236]
    assert [round(r["nash_conv_current"], 3) for r in rows[:4]] == [1.395, 2.029, 1.863, 1.276]


def test_lab15_part1_cfr_plus_table_value_and_first_actions():
    game = zerosum.load_game("leduc")
    solver = zerosum.CFRPlusSolver(game)
    rows = solver.run(1000, [10, 30, 100, 300])
    assert [round(r["nash_conv_average"], 4) for r in rows[:3]] == [1.2209, 0.1635, 0.0268]
    assert [round(r["nash_conv_current"], 3) for r in rows[:3]] == [0.920, 0.290, 0.096]
    # later CFR+ digits depend on floating-point summation order (shared/notes/lab15-part1-digits.md)
    assert rows[3]["nash_conv_average"] == pytest.approx(0.0047, rel=0.05)
    assert rows[4]["nash_conv_average"] == pytest.approx(0.0005, rel=0.1)
    assert round(rows[-1]["value_average"], 4) == -0.0856
    avg = solver.average_policy()
    first = {c: round(avg.action_probabilities(c + ":")["r"], 2) for c in "JQK"}
    assert first == {"J": 0.07, "Q": 0.74, "K": 0.75}


@pytest.mark.parametrize("name", ["kuhn_poker", "leduc_poker"])
@pytest.mark.parametrize("plus", [False, True])
def test_cfr_matches_openspiel_solvers(name, plus):
    pyspiel = pytest.importorskip("pyspiel")
    game = zerosum.load_game(f"openspiel:{name}")
    ours = (zerosum.CFRPlusSolver if plus else zerosum.CFRSolver)(game)
    theirs = (pyspiel.CFRPlusSolver if plus else pyspiel.CFRSolver)(game.game)
    done = 0
    for target in (10, 100):
        ours.iterate(target - done)
        for _ in range(target - done):
            theirs.evaluate_and_update_policy()
        done = target
        expected = pyspiel.nash_conv(game.game, theirs.average_policy())
        assert abs(zerosum.nash_conv(game, ours.average_policy()) - expected) < 1e-9
        expected_current = pyspiel.nash_conv(game.game, theirs.current_policy())
        # CFR+'s current strategy jumps when a floored regret turns positive, so summation order
        # shows up sooner there (about 2e-9 on Leduc after 100 iterations)
        assert abs(zerosum.nash_conv(game, ours.current_policy()) - expected_current) < (1e-8 if plus else 1e-9)
        # and the same policy, not just the same number
        reference = theirs.average_policy()
        for _, label, probs in ours.average_policy().rows():
            pairs = dict(reference.get_state_policy(label))
            assert np.allclose([pairs[a] for a in game.action_ids[label]], list(probs.values()), atol=1e-9)


def test_kuhn_vanilla_cfr_simultaneous_value_after_20000():
    solver = zerosum.CFRSolver(zerosum.load_game("kuhn"), alternating=False)
    solver.iterate(20000)
    assert abs(solver.checkpoint()["value_average"] + 1 / 18) < 1e-3


@pytest.mark.parametrize("cls, iterations", [(zerosum.CFRSolver, 20000), (zerosum.CFRPlusSolver, 10000)])
def test_kuhn_learned_strategy_is_in_the_equilibrium_family(cls, iterations):
    solver = cls(zerosum.load_game("kuhn"))
    solver.iterate(iterations)
    pol = solver.average_policy()

    def bet(label):
        return pol.action_probabilities(label)["b"]

    alpha = bet("J")
    assert alpha <= 1 / 3 + 1e-2
    assert abs(bet("K") - 3 * alpha) < 1e-2  # the king is bet three times as often as the jack bluffs
    assert bet("Q") < 1e-2 and bet("Jpb") < 1e-2 and bet("Kpb") > 1 - 1e-2
    assert abs(bet("Qpb") - (alpha + 1 / 3)) < 1e-2  # the queen calls with probability alpha + 1/3
    assert abs(bet("Jp") - 1 / 3) < 1e-2 and abs(bet("Qb") - 1 / 3) < 1e-2  # player 1's bluff and call
    assert bet("Kb") > 1 - 1e-2 and bet("Kp") > 1 - 1e-2 and bet("Qp") < 1e-2 and bet("Jb") < 1e-2


def test_kuhn_cfr_plus_nash_conv_below_1e_4_by_10000():
    game = zerosum.load_game("kuhn")
    solver = zerosum.CFRPlusSolver(game)
    rows = solver.run(10000, [1000])
    assert rows[-1]["nash_conv_average"] < 1e-4
    assert rows[0]["nash_conv_average"] > rows[-1]["nash_conv_average"]


def test_resume_equals_uninterrupted_run():
    game = zerosum.load_game("leduc")
    a = zerosum.CFRPlusSolver(game)
    a.iterate(50)
    b = zerosum.CFRPlusSolver(game)
    b.load_state_dict(a.state_dict())
    a.iterate(50)
    b.iterate(50)
    assert all(np.array_equal(x, y) for x, y in zip(a.average_plan, b.average_plan))
    with pytest.raises(zerosum.ZerosumError, match="from solver 'cfr\\+'"):
        zerosum.CFRSolver(game).load_state_dict(a.state_dict())


def test_iterations_must_be_positive():
    solver = zerosum.CFRSolver(zerosum.load_game("kuhn"))
    for bad in (0, -3, 2.5):
        with pytest.raises(zerosum.ZerosumError, match="positive integer"):
            solver.run(bad)
