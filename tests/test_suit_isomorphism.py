"""Suit isomorphism on the hold'em public tree (issue 28): a deal lists one card per class of
suit-isomorphic cards and the depth-first pass sums the others' values through hand permutations.
The same game, so the same figures as the whole tree (up to rounding), with fewer nodes."""

from __future__ import annotations

import json

import numpy as np
import pytest
from click.testing import CliRunner

from zerosum.cli import cli
from zerosum.games import load_game
from zerosum.poker.cards import parse_cards
from zerosum.public_tree.compile import public_tree
from zerosum.public_tree.form import CHANCE_NODE
from zerosum.public_tree.holdem_build import canonical_deal, suit_swaps
from zerosum.public_tree.solver import PublicChanceSampling, PublicTreeSolver
from zerosum.solvers.rules import CFR, DCFR, PCFRPlus

RANGES = {"range0": "AA,KQ,T9s,76s,A5s", "range1": "QQ,AK,J9s,87s,55"}


def game(board, raises=2, **ranges):
    return load_game("holdem", board=board, raises=raises, **{**RANGES, **ranges})


def deal_counts(tree):
    """The number of cards each chance node deals, in node order."""
    return tree.n_children[tree.kind == CHANCE_NODE].tolist()


def solved(tree, variant, threads=1, iterations=15):
    s = PublicTreeSolver(tree, variant, threads=threads)
    s.iterate(iterations)
    return s, s.checkpoint()


def test_swaps_are_the_transpositions_that_keep_both_ranges():
    # KsQs on the board: a swap moving spades maps live hands (KhQh) onto dead ones (KsQs)
    assert sorted(suit_swaps(game("KsQs7h2h"))) == [(0, 1)]
    assert sorted(suit_swaps(load_game("holdem", board="Ks9s5s2s", raises=1))) == [(0, 1), (0, 2), (1, 2)]
    # one club hand: swapping clubs and diamonds would change the range; diamonds and hearts keep the
    # ranges (QcQd <-> QcQh) but not the board (7h 2h), so no deal has a mirror
    g = game("KsQs7h2h", range0="AcKc", range1="QQ")
    assert sorted(suit_swaps(g)) == [(1, 2)] and public_tree(g, isomorphism=True).iso is None


@pytest.mark.parametrize("board, listed", [("KsQs7h2h", 48 - 13), ("Ks9s5s2s", 48 - 26), ("Ks7d2c9h", 48)])
def test_a_deal_lists_one_card_per_class(board, listed):
    """KsQs7h2h: clubs and diamonds are interchangeable (13 of their 26 river cards are mirrors);
    on four spades the three other suits are (26 mirrors of 39); a rainbow turn has no mirror."""
    full, iso = public_tree(game(board)), public_tree(game(board), isomorphism=True)
    assert set(deal_counts(full)) == {48}
    assert set(deal_counts(iso)) == {listed}
    if listed == 48:
        assert iso.iso is None and iso.n_nodes == full.n_nodes
    else:  # each listed card stands for itself and its mirrors: 48 deals in all
        for chance in np.flatnonzero(iso.kind == CHANCE_NODE)[:3]:
            kids = range(iso.first_child[chance], iso.first_child[chance] + iso.n_children[chance])
            assert sum(1 + iso.iso[1][k] for k in kids) == 48


def test_flop_deals_lose_their_symmetry_once_a_club_or_diamond_comes():
    """QsJh2h: 36 of 49 turn cards; after a spade or heart turn 35 of 48 rivers, after a club or
    diamond turn all 48 (the board tells the two suits apart from then on)."""
    iso = public_tree(flop(), isomorphism=True)
    counts = deal_counts(iso)
    turn = [c for c in counts if c in (36, 49)]
    assert turn and set(turn) == {36}
    rivers = sorted(set(counts) - {36})
    assert rivers == [35, 48]


def flop():
    return load_game("holdem", board="QsJh2h", raises=1, range0="AA,KQs,T9s", range1="QQ,AKs,87s")


# (not PCFR+ on the flop: there the whole tree's PCFR+ breaks its own symmetry at the first iteration,
# quad queens' exact ties: QhQd and QhQc play 0/1 and 1/2-1/2 after Qc and Qd)
@pytest.mark.parametrize("board, variant", [("KsQs7h2h", DCFR), ("KsQs7h2h", PCFRPlus), ("Ks9s5s2s", DCFR),
                                            ("Ks9s5s2s", PCFRPlus), ("QsJh2h", DCFR), ("QsJh2h", CFR)])
def test_the_isomorphic_tree_solves_the_same_game(board, variant):
    """Turn and flop subgames (on the flop the mirrors nest: a river deal under a turn deal).  The
    flop runs 3 iterations: from the 4th the whole tree's own suit symmetry breaks by rounding (a
    regret of an exact tie that lands on either side of 0 switches a strategy: measured, hands
    AhAc and AdAc 4.7e-5 apart at the 4th), which the isomorphic tree cannot do."""
    g = flop() if board == "QsJh2h" else game(board)
    its = 3 if board == "QsJh2h" else 15
    full, iso = public_tree(g), public_tree(g, isomorphism=True)
    assert iso.n_nodes < full.n_nodes
    _, a = solved(full, variant(), iterations=its)
    s1, b = solved(iso, variant(), iterations=its)
    for key in ("nash_conv_average", "nash_conv_current", "value_average"):
        assert b[key] == pytest.approx(a[key], abs=1e-12), key
    # two threads: the same figures bit for bit (the mirrors summed in the same order)
    s2, c = solved(iso, variant(), threads=2, iterations=its)
    assert c == b
    for p in (0, 1):
        assert np.array_equal(s1.regrets[p], s2.regrets[p]) and np.array_equal(s1.average[p], s2.average[p])


def test_the_policy_on_the_whole_tree_is_the_whole_trees_solution():
    g = game("KsQs7h2h")
    full, iso = public_tree(g), public_tree(g, isomorphism=True)
    a, _ = solved(full, DCFR())
    b, _ = solved(iso, DCFR())
    expanded = b.average_policy().on_full_tree(full)
    want = a.average_policy()
    for p in (0, 1):
        assert np.allclose(expanded.probs[p], want.probs[p], atol=1e-12, rtol=0)
    assert expanded.evaluate()["nash_conv"] == pytest.approx(want.evaluate()["nash_conv"], abs=1e-12)


def test_canonical_deal_maps_a_mirror_to_its_representative():
    board = parse_cards("QsJh2h")
    swaps = suit_swaps(load_game("holdem", board="QsJh2h", raises=1))
    deal, cards = canonical_deal(board, parse_cards("5d5c"), swaps)
    assert deal == tuple(parse_cards("5c5d"))  # 5d -> 5c (swap c, d); then 5c reads as 5d
    assert cards[parse_cards("Ad")[0]] == parse_cards("Ac")[0]


def test_cli_isomorphism_solves_saves_and_refuses(tmp_path):
    params = ["--param", "board=KsQs7h2h", "--param", "raises=2", "--param", "range0=AA,KQ,T9s",
              "--param", "range1=QQ,AK,J9s"]
    runner = CliRunner()
    out = {}
    for iso in ("true", "false"):
        r = runner.invoke(cli, ["solve", "holdem", *params, "-a", "dcfr", "-n", "10", "--option", f"isomorphism={iso}",
                                "--save", str(tmp_path / f"{iso}.json"), "--save-state", str(tmp_path / f"{iso}.npz"),
                                "--json"])
        assert r.exit_code == 0, r.output
        out[iso] = json.loads(r.output)
    assert out["true"]["public_nodes"] < out["false"]["public_nodes"]
    assert out["true"]["nash_conv"] == pytest.approx(out["false"]["nash_conv"], abs=1e-12)
    # the saved policy is the whole tree's: evaluate reads it as any other
    r = runner.invoke(cli, ["evaluate", "holdem", *params, str(tmp_path / "true.json"), "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["nash_conv"] == pytest.approx(out["false"]["nash_conv"], abs=1e-6)
    # a resumed run keeps its tree: without the option it runs on as saved, against it: one line
    r = runner.invoke(cli, ["solve", "holdem", *params, "-a", "dcfr", "-n", "20", "--resume", str(tmp_path / "true.npz"),
                            "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["public_nodes"] == out["true"]["public_nodes"]
    r = runner.invoke(cli, ["solve", "holdem", *params, "-a", "dcfr", "-n", "20", "--resume", str(tmp_path / "true.npz"),
                            "--option", "isomorphism=false"])
    assert r.exit_code != 0 and "isomorphism=true" in r.output and "Traceback" not in r.output
    # not asked for: on (where a deal has mirrors)
    r = runner.invoke(cli, ["solve", "holdem", *params, "-a", "dcfr", "-n", "10", "--json"])
    assert json.loads(r.output)["public_nodes"] == out["true"]["public_nodes"]
    for args, words in ((["solve", "poker", "--form", "public-tree", "-a", "cfr", "-n", "5"], "hold'em"),
                        (["solve", "holdem", *params, "-a", "dcfr", "-n", "5", "--option", "isomorphism=maybe"],
                         "true or false"),
                        (["solve", "holdem", *params, "-a", "pcs-mccfr", "-n", "5"], "pcs-mccfr")):
        r = runner.invoke(cli, [*args, "--option", "isomorphism=true"] if "maybe" not in args[-1] else args)
        assert r.exit_code != 0 and words in r.output and "Traceback" not in r.output, r.output


def test_sampling_refuses_an_isomorphic_tree():
    with pytest.raises(Exception, match="isomorphism"):
        PublicChanceSampling(public_tree(game("KsQs7h2h"), isomorphism=True))
