"""Which games have the public tree: the small protocol a game implements
(``public_tree_builder``, ``public_tree_options``; :mod:`zerosum.public_tree.compile`), not a list
of classes.  A game of the test's own, outside the poker package, gets the public-tree solvers by
naming its builder; games without the protocol are refused in one line."""

from __future__ import annotations

from fractions import Fraction

import pytest

from zerosum import load_game
from zerosum.errors import ZerosumError
from zerosum.poker.family import PokerGame
from zerosum.public_tree.compile import has_public_tree, public_tree
from zerosum.public_tree.solver import public_solver

KUHN = {"ranks": 3, "copies": 1, "rounds": 1, "raises": 1, "bets": [1]}
BUILT = []


def build_kuhn(game, progress=None):
    """A builder of this module: the poker family's Kuhn tree, under the wrapper's id."""
    import dataclasses

    from zerosum.public_tree.build import poker_public_tree

    BUILT.append(game.id)
    return dataclasses.replace(poker_public_tree(PokerGame(**KUHN)), game_id=game.id)


class MyKuhn:
    """Not a PokerGame: only the protocol's two attributes and an id."""

    public_tree_builder = f"{__name__}:build_kuhn"
    public_tree_options: tuple = ()
    id = "my_kuhn"


def test_a_game_of_ones_own_gets_the_public_tree_through_the_protocol():
    game = MyKuhn()
    assert has_public_tree(game)
    solver = public_solver("cfr+", game)
    solver.run(2000)
    assert solver.tree.game_id == "my_kuhn" and BUILT == ["my_kuhn"]
    value = solver.checkpoint()["value_average"]
    assert abs(value - float(Fraction(-1, 18))) < 2e-3  # Kuhn's value
    public_tree(game, isomorphism=True)  # an option the builder does not take is not passed: no error
    assert BUILT == ["my_kuhn"]  # built once (the cache; isomorphism ignored for it)


def test_the_poker_family_and_holdem_implement_it_and_other_games_do_not():
    assert has_public_tree(load_game("poker")) and has_public_tree(load_game("holdem", board="Ks7d2c9h5s"))
    assert "isomorphism" in load_game("holdem", board="Ks7d2c9h5s").public_tree_options
    for name in ("kuhn", "leduc", "rps"):
        assert not has_public_tree(load_game(name))
    with pytest.raises(ZerosumError, match="no public-tree form"):
        public_tree(load_game("kuhn"))


def test_a_builder_that_cannot_be_loaded_is_one_line():
    class Broken(MyKuhn):
        public_tree_builder = "zerosum.no_such_module:build"
        id = "broken"

    with pytest.raises(ZerosumError, match="public_tree_builder 'zerosum.no_such_module:build' cannot be loaded"):
        public_tree(Broken())
