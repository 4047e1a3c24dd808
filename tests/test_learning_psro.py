"""PSRO with learned oracles and sampled payoffs: exact measurements, reproducibility, resume."""

import numpy as np
import pytest

from zerosum import ZerosumError, compiled, load_game
from zerosum.core.sequence_form import behavioral_from_realization
from zerosum.learning.oracle import oracle_error
from zerosum.solvers.psro import PSROSolver


@pytest.fixture(scope="module")
def kuhn():
    return compiled(load_game("kuhn"))


@pytest.fixture(scope="module")
def leduc():
    return compiled(load_game("leduc"))


def test_checkpoint_oracle_error_is_the_exact_error_of_the_newest_members(leduc):
    solver = PSROSolver(leduc, "nash", oracle="q-learning", hands=2000, seed=3)
    solver.run(4)
    meta = solver.meta_strategies()
    plans = [solver.empirical.mixture_plan(p, meta[p]) for p in (0, 1)]
    c = solver.run(5)[-1]
    for p in (0, 1):
        newest = behavioral_from_realization(leduc.treeplexes[p], solver.empirical.members(p)[-1])
        assert c["oracle_error"][p] == pytest.approx(oracle_error(leduc, p, plans[1 - p], newest), abs=1e-12)
        assert c["oracle_error"][p] >= -1e-12
    assert c["hands"] == 4 * 2 * 2000
    assert c["nodes"] == 0  # a learned oracle's cost is counted in hands
    assert c["mean_oracle_error"] == pytest.approx(np.mean([solver._oracle_errors[k] for k in range(2, 6)]))


def test_exact_oracle_reports_zero_error_and_no_hands(leduc):
    rows = PSROSolver(leduc, "nash").run(3, [1, 3])
    assert rows[0]["oracle_error"] == [None, None] and rows[0]["mean_oracle_error"] is None
    assert rows[1]["oracle_error"] == [0.0, 0.0] and rows[1]["hands"] == 0 and rows[1]["oracle"] == "exact"


@pytest.mark.parametrize("oracle", ["q-learning", "policy-gradient"])
def test_same_seed_same_numbers_and_resume_equals_the_uninterrupted_run(leduc, oracle):
    def fresh(seed=1):
        return PSROSolver(leduc, "nash", oracle=oracle, hands=1500, seed=seed, payoffs="sampled", eval_hands=500)

    full = fresh().run(6, [3, 6])
    assert fresh().run(6, [3, 6]) == full
    assert fresh(seed=2).run(6, [3, 6]) != full
    first = fresh()
    first.run(3)
    state = {k: np.array(v) for k, v in first.state_dict().items()}
    resumed = fresh()
    resumed.load_state_dict(state)
    assert resumed.run(6, [6]) == [full[-1]]


def test_sampled_payoffs_estimate_the_exact_entries(kuhn):
    exact = PSROSolver(kuhn, "uniform")
    exact.run(4)
    sampled = PSROSolver(kuhn, "uniform", payoffs="sampled", eval_hands=40_000, seed=5)
    sampled.run(4)
    # same members (exact oracle), entries from 40,000 hands each: within 5 standard errors
    np.testing.assert_array_equal(sampled.empirical.members(0), exact.empirical.members(0))
    assert np.abs(sampled.empirical.payoffs - exact.empirical.payoffs).max() < 5 * 2 / np.sqrt(40_000)
    assert not np.array_equal(sampled.empirical.payoffs, exact.empirical.payoffs)
    assert sampled.checkpoint()["hands"] == 16 * 40_000


def test_learned_oracle_psro_solves_kuhn(kuhn):
    rows = PSROSolver(kuhn, "nash", oracle="q-learning", hands=10_000, seed=1).run(12, [12])
    assert rows[-1]["nash_conv"] < 1e-6


def test_bad_psro_oracle_input(leduc):
    cases = [({"oracle": "sarsa"}, "unknown oracle 'sarsa'"),
             ({"oracle": "q-learning", "hands": 0}, "hands must be a positive integer"),
             ({"oracle": "q-learning", "hands": -5}, "hands must be a positive integer"),
             ({"hands": 100}, "the exact oracle plays no hands"),
             ({"oracle_options": {"epsilon": 0.1}}, "the exact oracle plays no hands"),
             ({"eval_hands": 100}, "eval_hands needs payoffs=sampled"),
             ({"payoffs": "guessed"}, "payoffs must be exact or sampled"),
             ({"oracle": "q-learning", "oracle_options": {"lr": 1}}, "no option lr")]
    for kwargs, message in cases:
        with pytest.raises(ZerosumError, match=message):
            PSROSolver(leduc, "nash", **kwargs)
    a = PSROSolver(leduc, "nash", oracle="q-learning", hands=100)
    a.run(2)
    b = PSROSolver(leduc, "nash", oracle="policy-gradient", hands=100)
    with pytest.raises(ZerosumError, match="oracle 'q-learning', not 'policy-gradient'"):
        b.load_state_dict({k: np.array(v) for k, v in a.state_dict().items()})


def test_cli_resume_equals_the_uninterrupted_run(tmp_path):
    import json

    from click.testing import CliRunner

    from zerosum.cli import cli

    base = ["solve", "kuhn", "-a", "psro", "--option", "oracle=policy-gradient", "--option", "hands=800",
            "--option", "payoffs=sampled", "--option", "eval_hands=300", "--seed", "4", "--json"]

    def run(*extra):
        res = CliRunner().invoke(cli, base + list(extra))
        assert res.exit_code == 0, res.output
        return json.loads(res.stdout)

    full = run("-n", "6")
    run("-n", "3", "--save-state", str(tmp_path / "s.npz"))
    resumed = run("-n", "6", "--resume", str(tmp_path / "s.npz"))
    assert resumed["checkpoints"][-1] == full["checkpoints"][-1]
    res = CliRunner().invoke(cli, ["solve", "kuhn", "-a", "psro", "--option", "oracle=q-learning", "--option",
                                   "hands=0"])
    assert res.exit_code == 1 and "hands must be a positive integer" in res.output
