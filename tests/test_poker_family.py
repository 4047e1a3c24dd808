"""The poker family: Kuhn and Leduc as members, sizes counted before building, refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli
from zerosum.compiled import compiled
from zerosum.errors import ZerosumError
from zerosum.games.base import TERMINAL
from zerosum.games.poker import PokerGame
from zerosum.solvers import CFRPlusSolver, CFRSolver

KUHN = {"ranks": 3, "copies": 1, "rounds": 1, "raises": 1, "bets": [1], "ante": 1}
LEDUC = {"ranks": 3, "copies": 2, "rounds": 2, "raises": 2, "bets": [2, 4], "ante": 1}


def kuhn_label(label: str) -> str:
    """Kuhn's 'Qpb' is the family's 'Q:cr' (pass = check, bet = bet)."""
    return label[0] + ":" + label[1:].replace("p", "c").replace("b", "r")


def transfer(policy, target, rename=lambda s: s):
    """The same behavioral strategy on another compiled game, matched by information-set label
    (actions matched by position: Kuhn's p/b are c/r without a bet, f/c facing one)."""
    probs = []
    for p, tree in enumerate(target.treeplexes):
        pi = tree.uniform()
        source = policy.game.treeplexes[p]
        for i, label in enumerate(source.infoset_labels):
            j = tree.index[rename(label)]
            n = tree.infoset_size[j]
            assert n == source.infoset_size[i]
            pi[tree.infoset_first[j]:tree.infoset_first[j] + n] = \
                policy.probs[p][source.infoset_first[i]:source.infoset_first[i] + n]
        probs.append(pi)
    return zerosum.TabularPolicy(target, probs)


@pytest.mark.parametrize("name,params,rename", [("kuhn", KUHN, kuhn_label), ("leduc", LEDUC, lambda s: s)])
def test_kuhn_and_leduc_are_members(name, params, rename):
    original = compiled(zerosum.load_game(name))
    member = compiled(zerosum.load_game("poker", **params))
    assert member.sizes() == original.sizes()
    assert sorted(map(rename, original.treeplexes[0].infoset_labels)) == sorted(member.treeplexes[0].infoset_labels)
    uniform = zerosum.TabularPolicy.uniform(original)
    assert zerosum.nash_conv(member, transfer(uniform, member, rename)) == \
        pytest.approx(zerosum.nash_conv(original, uniform), abs=1e-12)
    for cls, n in ((CFRSolver, 37), (CFRPlusSolver, 100)):
        solver = cls(original)
        avg = solver.run(n)[-1]
        mapped = transfer(solver.average_policy(), member, rename)
        ev = zerosum.evaluate(member, mapped)
        assert ev.nash_conv == pytest.approx(avg["nash_conv_average"], abs=1e-10)
        assert ev.value == pytest.approx(avg["value_average"], abs=1e-10)


def test_kuhn_member_agrees_with_openspiel():
    pytest.importorskip("pyspiel")
    ours = zerosum.load_game("poker", **KUHN)
    theirs = zerosum.load_game("openspiel:kuhn_poker")
    assert zerosum.nash_conv(ours, zerosum.TabularPolicy.uniform(ours)) == \
        pytest.approx(zerosum.nash_conv(theirs, zerosum.TabularPolicy.uniform(theirs)), abs=1e-12)
    # the game value -1/18 comes out of CFR+ on the member
    value = CFRPlusSolver(ours).run(2000)[-1]["value_average"]
    assert value == pytest.approx(-1 / 18, abs=1e-3)


@pytest.mark.parametrize("params", [
    KUHN, LEDUC,
    {"ranks": 5, "copies": 2, "rounds": 2, "raises": [1, 3], "bets": [1, 3], "ante": 2},
    {"ranks": 4, "copies": 3, "rounds": 1, "raises": 3, "bets": [2], "ante": 0.5},
    {"ranks": 2, "copies": 4, "rounds": 2, "raises": 0, "bets": [1, 1], "ante": 1},
    {"ranks": 6, "copies": 1, "rounds": 2, "raises": 2, "bets": [2, 4], "ante": 1},
])
def test_sizes_are_counted_exactly_before_building(params):
    game = PokerGame(**params)
    est = game.estimated_sizes()
    c = compiled(game)
    assert (est["histories"], est["terminals"]) == (c.n_histories, c.n_terminals)
    # chance probabilities sum to one at every chance node, payoffs are zero-sum by construction
    t = c.tree
    for h in np.flatnonzero(t.player == -1):
        f, n = t.first_child[h], t.n_children[h]
        assert t.edge_prob[f:f + n].sum() == pytest.approx(1.0)


def test_payoffs_follow_the_rules():
    g = PokerGame(ranks=4, copies=2, rounds=2, raises=2, bets=[3, 5], ante=2)
    h = g.root()
    for a in "QK":
        h = g.child(h, a)
    for a in "rc":  # bet 3, call: both have 5 in
        h = g.child(h, a)
    h = g.child(h, "T")  # public card pairs nobody: K beats Q
    for a in "crrf":  # second round: 0 checks, 1 bets 5, 0 raises 5 more, 1 folds
        h = g.child(h, a)
    assert g.player(h) == TERMINAL
    # player 1 folds after putting in 5 + 5: player 0 wins player 1's contribution
    assert g.payoff(h) == 10.0
    h2 = h._replace(rounds=("rc", "cc"))
    assert g.payoff(h2) == -5.0  # showdown: K (player 1) beats Q
    assert g.payoff(h2._replace(cards="QKQ")) == 5.0  # Q pairs the public card
    assert g.payoff(h2._replace(cards="KKT")) == 0.0


@pytest.mark.parametrize("bad", [{"ranks": 1}, {"ranks": 14}, {"rounds": 3}, {"ranks": 2, "copies": 1},
                                 {"raises": [1]}, {"bets": [2, -1]}, {"ante": "x"}, {"ranks": 3.5},
                                 {"raises": -1}])
def test_bad_parameters_are_refused(bad):
    with pytest.raises(ZerosumError):
        PokerGame(**bad)


def test_too_large_member_is_refused_with_the_estimate():
    with pytest.raises(ZerosumError, match=r"1,913,432 histories would need about [0-9.]+ GB"):
        PokerGame(ranks=13, copies=4, raises=8, max_bytes=10**8)
    r = CliRunner().invoke(cli, ["solve", "poker", "--param", "ranks=13", "--param", "copies=4",
                                             "--param", "raises=64", "-n", "1"])
    assert r.exit_code == 1 and "too large" in r.output and "GB" in r.output


def test_games_lists_the_family_with_sizes():
    r = CliRunner().invoke(cli, ["games", "--json"])
    assert r.exit_code == 0, r.output
    row = next(g for g in json.loads(r.output)["games"] if g["name"] == "poker")
    assert row["sizes"]["histories"] == 1939 and row["sizes"]["infosets"] == [144, 144]
