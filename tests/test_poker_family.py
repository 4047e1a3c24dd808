"""The poker family: Kuhn and Leduc as members, sizes counted before building, refusals."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli
from zerosum.core.compile import compiled
from zerosum.core.game import TERMINAL
from zerosum.errors import ZerosumError
from zerosum.poker.family import PokerGame
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


def test_too_large_member_is_refused_with_the_estimate(monkeypatch):
    """The history tree's size is checked where it is compiled, before any work, with the exact count;
    the member itself is fine (it runs on the public tree)."""
    game = PokerGame(ranks=13, copies=4, raises=7, max_bytes=10**8)  # a member no other test compiles
    seen = []
    with pytest.raises(ZerosumError, match=r"1,490,594 histories would need about [0-9.]+ GB"):
        compiled(game, progress=seen.append)
    assert seen == []  # refused before the walk
    # the CLI: --form history-tree, or an algorithm that needs the history tree
    import zerosum.core.memory as memory_module

    monkeypatch.setattr(memory_module, "available_memory", lambda: 10**9)
    base = ["solve", "poker", "--param", "ranks=13", "--param", "copies=4", "--param", "raises=8", "-n", "1"]
    for extra in (["--form", "history-tree"], ["-a", "es-mccfr"]):  # (-a lp refuses by its own size rule)
        r = CliRunner().invoke(cli, base + extra)
        assert r.exit_code == 1 and "too large for the history tree: 1,913,432 histories" in r.output, r.output
        assert len(r.output.strip().splitlines()) == 1
    # a member too large even for the public tree is refused by the constructor
    with pytest.raises(ZerosumError, match=r"too large even for the public tree: 649,386 public nodes"):
        PokerGame(ranks=13, copies=4, raises=64, max_bytes=10**8)


def test_member_beyond_the_history_tree_runs_on_the_public_tree():
    """raises=64 on 13 ranks x 4 copies: 109,746,248 histories (55 GB as a history tree), 649,386
    public nodes; the history count is exact (the same formula the history tree checks against)."""
    r = CliRunner().invoke(cli, ["solve", "poker", "--param", "ranks=13", "--param", "copies=4",
                                 "--param", "raises=64", "-a", "cfr+", "-n", "1", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert out["form"] == "public-tree" and out["histories"] == 109_746_248 and out["public_nodes"] == 649_386
    assert PokerGame(ranks=13, copies=4, raises=64).estimated_sizes()["compile_bytes"] > 5e10
    row = out["checkpoints"][-1]
    assert row["iteration"] == 1 and 0 < out["nash_conv"] < float("inf")


def test_games_lists_the_family_with_sizes():
    r = CliRunner().invoke(cli, ["games", "--json"])
    assert r.exit_code == 0, r.output
    row = next(g for g in json.loads(r.stdout)["games"] if g["name"] == "poker")
    assert row["sizes"]["histories"] == 1939 and row["sizes"]["infosets"] == [144, 144]


def test_both_pairing_the_public_card_split_the_pot():
    """With 3 or more copies both players can pair the public card: equal ranks, so a split."""
    g = PokerGame(ranks=4, copies=4)
    h = g.root()._replace(cards="KKK", rounds=("rc", "rrc"))
    assert g.player(h) == TERMINAL
    assert g.payoff(h) == 0.0
    assert g.payoff(h._replace(cards="KQK")) == 11.0 and g.payoff(h._replace(cards="QKK")) == -11.0


def _brute_force_value(game, policy_of):
    """Player 0's expected payoff of a policy, over an explicit deck of (rank, copy) cards, with the
    pot and the showdown rule written here (a card pairing the public card wins, otherwise the
    higher card, equal ranks split); the game supplies only who acts and the legal actions."""
    from collections import Counter
    from itertools import permutations

    deck = [(c, i) for c in game.labels for i in range(game.copies)]
    deals = Counter("".join(c for c, _ in cards) for cards in permutations(deck, 3))
    total = sum(deals.values())
    rank = {c: i for i, c in enumerate(game.labels)}

    def value(cards, rounds, put):
        betting = rounds[-1]
        who = game.player(game.root()._replace(cards=cards[:len(rounds) + 1], rounds=rounds))
        if betting.endswith("f"):
            folder = (len(betting) - 1) % 2
            return -put[0] if folder == 0 else put[1]
        if who == TERMINAL:
            mine, yours, public = cards
            s0 = (2 if mine == public else 0) + rank[mine] / 100
            s1 = (2 if yours == public else 0) + rank[yours] / 100
            return 0.0 if s0 == s1 else (put[1] if s0 > s1 else -put[0])
        if len(betting) >= 2 and betting.endswith("c"):  # the public card: already in ``cards``
            return value(cards, rounds + ("",), put)
        me = len(betting) % 2
        public = cards[2] if len(rounds) == 2 else ""
        out = 0.0
        for a, prob in policy_of(me, cards[me], public + ":" + "/".join(rounds)).items():
            q = list(put)
            if a == "c":
                q[me] = q[1 - me]
            elif a == "r":
                q[me] = q[1 - me] + game.bets[len(rounds) - 1]
            out += prob * value(cards, rounds[:-1] + (betting + a,), q)
        return out

    return sum(n / total * value(cards, ("",), [game.ante, game.ante]) for cards, n in deals.items())


def test_both_forms_agree_with_brute_force_when_both_can_pair():
    """poker(ranks=4, copies=4): the value of a random policy on the history tree and on the public
    tree equals a brute-force sum over the deck, and both forms give the same NashConv."""
    from zerosum.core.evaluation import evaluate
    from zerosum.public_tree.build import poker_public_tree
    from zerosum.public_tree.policy import PublicPolicy

    game = PokerGame(ranks=4, copies=4)
    cg = compiled(game)
    rng = np.random.default_rng(7)
    for rank_form in (True, False):
        tree = poker_public_tree(game, rank_form=rank_form)
        sums = [rng.random(n) for n in tree.infoset_actions()]
        policy = PublicPolicy.from_sums(tree, sums)
        node_of = {label: n for n, label in enumerate(tree.labels)}

        def policy_of(player, hand, public, policy=policy, tree=tree, node_of=node_of):
            n = node_of[public]
            table = policy.table(n)
            i = tree.hand_labels[player].index(hand)
            return {a: table[k, i] for k, a in enumerate(tree.action_labels[n])}

        brute = _brute_force_value(game, policy_of)
        mine = policy.evaluate()
        on_history = evaluate(cg, policy.to_tabular(cg))
        assert abs(mine["value"] - brute) < 1e-12 and abs(on_history.value - brute) < 1e-12
        assert abs(on_history.nash_conv - mine["nash_conv"]) < 1e-12


def test_the_betting_helpers_leduc_and_the_family_share():
    from zerosum.core.game import CHANCE, TERMINAL
    from zerosum.poker.family import PokerHistory, child_history, contributions, deck_outcomes, to_act

    assert contributions(("crrc", "rc"), 1.0, (2.0, 4.0)) == [9.0, 9.0]    # 1 + 2 + 2 (a bet, a raise), then 4
    assert contributions(("r",), 1.0, (2.0, 4.0)) == [3.0, 1.0]
    assert deck_outcomes("JQ", "JQK", 2) == [("J", 0.25), ("Q", 0.25), ("K", 0.5)]
    h = child_history(child_history(PokerHistory("", ("",)), "J", True), "Q", True)
    assert h == PokerHistory("JQ", ("",)) and to_act(h, 2) == 0
    h = child_history(child_history(h, "c", False), "c", False)
    assert to_act(h, 2) == CHANCE and to_act(h, 1) == TERMINAL
    assert child_history(h, "K", True) == PokerHistory("JQK", ("cc", ""))
    assert to_act(child_history(h, "r", False)._replace(rounds=("cc", "rf")), 2) == TERMINAL
