"""The registry of the CFR family's features (:mod:`zerosum.solvers.capabilities`): each row is
true (an algorithm it says runs with a feature does, one it says does not is refused in the one
line the registry writes), and the drivers, the command line and the web app read it instead of
lists of their own."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.errors import ZerosumError
from zerosum.poker.holdem import HoldemGame
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.solver import VARIANTS, public_solver
from zerosum.solvers import SOLVERS, capabilities
from zerosum.solvers.capabilities import ALGORITHMS, names_with, refusal
from zerosum.solvers.rules import VARIANTS as RULES

#: a small hold'em turn: public chance (a river deal), two suits that mirror (isomorphism)
TURN = HoldemGame(board="Ks7s2s9h", range0="QQ+,AKs", range1="JJ+,AQs")


@pytest.fixture(scope="module")
def turn():
    return public_tree(TURN)


def test_every_variant_has_a_row_and_nothing_else_lists_them():
    assert list(ALGORITHMS) == [*RULES, "pcs-mccfr"]
    assert list(VARIANTS) == list(ALGORITHMS)  # the public tree runs every row
    assert set(names_with("history-tree")) == set(RULES) and set(RULES) <= set(SOLVERS)
    assert names_with("ray-split") == [n for n, v in RULES.items() if not v.predictive]


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_16_bit_storage_runs_exactly_where_the_registry_says(turn, name):
    if ALGORITHMS[name].runs_with("int16"):
        s = public_solver(name, turn, dtype="int16")
        s.iterate(2)
        assert s.regrets[0].dtype == np.int16 and s.scales is not None
    else:
        with pytest.raises(ZerosumError) as e:
            public_solver(name, turn, dtype="int16")
        assert str(e.value).startswith(refusal(name, "int16"))


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_threads_and_isomorphism_run_exactly_where_the_registry_says(name):
    """Through the command line: 2 threads on the suit-isomorphic tree give the figures of one
    thread on the whole tree (to rounding); a name without a feature is refused in the registry's
    line."""
    base = ["solve", "holdem", "--param", "board=Ks7s2s9h", "--param", "range0=QQ+,AKs", "--param",
            "range1=JJ+,AQs", "-a", name, "-n", "3", "--json", "--option", "isomorphism=false"]
    plain = CliRunner().invoke(cli, base)
    assert plain.exit_code == 0, plain.output
    row = ALGORITHMS[name]
    for feature, options in (("threads", ["--option", "threads=2"]), ("isomorphism", ["--option", "isomorphism=true"])):
        r = CliRunner().invoke(cli, [*base[:-2], *options])
        if not row.runs_with(feature):
            assert r.exit_code == 1 and refusal(name, feature) in r.output, r.output
            continue
        assert r.exit_code == 0, r.output
        a, b = (json.loads(x.output)["checkpoints"][-1] for x in (plain, r))
        assert a["nash_conv_average"] == pytest.approx(b["nash_conv_average"], rel=1e-9, abs=1e-12)


@pytest.mark.parametrize("name", list(ALGORITHMS))
def test_locks_run_exactly_where_the_registry_says(turn, name):
    from zerosum.public_tree.locking import NodeLocks, lock_solver

    locks = NodeLocks(turn, {"::c": {"*": [1, 0]}}, 1)
    if ALGORITHMS[name].runs_with("locks"):
        s = lock_solver(public_solver(name, turn), locks)
        s.iterate(2)
        probs = s.average_policy().probs[1]
        assert np.allclose(probs[locks.slots], locks.values)
    else:
        with pytest.raises(ZerosumError) as e:
            lock_solver(public_solver(name, turn), locks)
        assert refusal(name, "locks") in str(e.value)


@pytest.mark.parametrize("name", [*ALGORITHMS, "es-mccfr"])
def test_the_split_and_depth_limited_solving_refuse_in_the_registrys_line(name):
    from zerosum.cli.ray import splittable
    from zerosum.public_tree.split import split_solver

    assert splittable() == names_with("ray-split")
    if name not in names_with("ray-split"):
        with pytest.raises(ZerosumError) as e:
            split_solver(name, None, 2)
        assert str(e.value).startswith(refusal(name, "ray-split"))
    if name in RULES and name not in names_with("depth-limited"):
        from zerosum.resolving.depth_limited import TruncatedSolver

        with pytest.raises(ZerosumError) as e:
            TruncatedSolver(object(), RULES[name]())  # refused before the game is read
        assert str(e.value) == refusal(name, "depth-limited")


def test_features_that_never_run_together_are_refused_whatever_the_algorithm(turn):
    from zerosum.public_tree.locking import NodeLocks, lock_solver

    with pytest.raises(ZerosumError, match="node locks .* does not run with 16-bit storage|16-bit storage"):
        lock_solver(public_solver("dcfr", turn, dtype="int16"), NodeLocks(turn, {"::c": {"*": [1, 0]}}, 1))
    with pytest.raises(ZerosumError, match="a lock is written into float sums"):
        capabilities.require_apart("int16", "locks")
    capabilities.require_apart("int16", "threads")  # these do run together: no refusal
