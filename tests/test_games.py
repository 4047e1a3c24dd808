import itertools

import pytest

import zerosum
from zerosum.core.game import CHANCE, TERMINAL, Game
from zerosum.games.leduc import LeducHistory


def test_kuhn_rules_match_the_notebook():
    k = zerosum.load_game("kuhn")
    assert k.payoff("KJbb") == 2 and k.payoff("JKbp") == 1 and k.payoff("QJpp") == 1
    assert k.payoff("KQpbp") == -1 and k.payoff("JQpbb") == -2
    assert k.player("KQp") == 1 and k.player("KQpb") == 0 and k.player("K") == CHANCE
    assert k.player("KQpp") == TERMINAL
    assert k.infoset("QKp") == "Kp" and k.infoset("QK") == "Q" and k.infoset("QKpb") == "Qpb"


def test_leduc_sizes_are_the_lab_ones():
    cg = zerosum.compiled(zerosum.load_game("leduc"))
    assert cg.sizes()["infosets"] == [144, 144]
    # 24 rank deals with positive probability, summing to one
    g = zerosum.load_game("leduc")
    deals = {}
    for a, pa in g.chance_outcomes(g.root()):
        h1 = g.child(g.root(), a)
        for b, pb in g.chance_outcomes(h1):
            h2 = g.child(g.child(h1, b), "c")
            h3 = g.child(h2, "c")
            for c, pc in g.chance_outcomes(h3):
                deals[a + b + c] = pa * pb * pc
    assert len(deals) == 24
    assert abs(sum(deals.values()) - 1) < 1e-12
    assert abs(deals["JJQ"] - (2 / 6) * (1 / 5) * (2 / 4)) < 1e-12


def test_leduc_payoffs():
    g = zerosum.load_game("leduc")
    h = LeducHistory("KQJ", ("rrc", "rc"))  # 1 + 2 + 2 + 4 each; K high
    assert g.payoff(h) == 9
    assert g.payoff(LeducHistory("KQQ", ("cc", "cc"))) == -1  # Q pairs the board
    assert g.payoff(LeducHistory("KK", ("rf",))) == 1  # player 1 folds to a bet
    assert g.payoff(LeducHistory("KKJ", ("cc", "rrf"))) == -5  # player 0 folds to a raise of 4 more
    assert g.payoff(LeducHistory("QQK", ("cc", "cc"))) == 0
    assert g.actions(LeducHistory("KQ", ("rr",))) == ("f", "c")
    assert g.actions(LeducHistory("KQ", ("",))) == ("c", "r")


def test_matrix_game_values_and_errors():
    g = zerosum.load_game("matrix", payoffs=[[3, -1], [-2, 1]])
    cg = zerosum.compiled(g)
    assert cg.sizes()["sequences"] == [3, 3]
    with pytest.raises(zerosum.ZerosumError):
        zerosum.load_game("matrix", payoffs=[1, 2, 3])
    with pytest.raises(zerosum.ZerosumError):
        zerosum.load_game("matrix", payoffs=[[1, float("nan")]])
    with pytest.raises(zerosum.ZerosumError, match="invalid parameters"):
        zerosum.load_game("kuhn", cards=4)


def test_unknown_game_lists_known_ones():
    with pytest.raises(zerosum.ZerosumError, match="known games: .*kuhn.*leduc"):
        zerosum.load_game("poker-of-doom")


class _ForgetfulGame(Game):
    """Player 0 moves twice and forgets its first move: not perfect recall."""

    name = "forgetful"

    def root(self):
        return ""

    def player(self, h):
        return TERMINAL if len(h) == 2 else 0

    def actions(self, h):
        return ("a", "b")

    def chance_outcomes(self, h):
        return ()

    def child(self, h, a):
        return h + a

    def payoff(self, h):
        return 1.0 if h in ("aa", "bb") else -1.0

    def infoset(self, h):
        return "" if not h else "second"


class _BadChance(_ForgetfulGame):
    name = "badchance"

    def player(self, h):
        return CHANCE if not h else TERMINAL

    def chance_outcomes(self, h):
        return [("x", 0.5), ("y", 0.4)]


def test_compiler_rejects_malformed_rules():
    with pytest.raises(zerosum.ZerosumError, match="perfect recall"):
        zerosum.compile_game(_ForgetfulGame())
    with pytest.raises(zerosum.ZerosumError, match="sum to 1"):
        zerosum.compile_game(_BadChance())


@pytest.mark.parametrize("name", ["kuhn", "leduc", "rps"])
def test_treeplex_structure(name):
    cg = zerosum.compiled(zerosum.load_game(name))
    for t in cg.treeplexes:
        # every information set's parent sequence precedes it, and depth blocks are contiguous
        assert all(t.infoset_parent[i] < t.infoset_first[i] for i in range(t.n_infosets))
        covered = list(itertools.chain.from_iterable(range(lv.s0, lv.s1) for lv in t.levels))
        assert covered == list(range(1, t.n_sequences))
        for lv in t.levels:
            assert set(t.infoset_depth[lv.i0:lv.i1]) == {t.infoset_depth[lv.i0]}
    # the history tree and the sequence form agree on terminals and chance
    tree = cg.tree
    terminal = tree.player == TERMINAL
    assert terminal.sum() == cg.n_terminals
    assert abs((tree.chance_reach[terminal] * tree.payoff[terminal]).sum() - cg.payoff.sum()) < 1e-12
