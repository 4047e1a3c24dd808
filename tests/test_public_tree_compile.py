"""The public-tree builders (issue 11 item 4): the vectorized breadth-first expansion gives the
tree a node-by-node walk of the game's rules gives, reports its progress, and a game too large
for the public tree is refused before anything is built."""

import numpy as np
import pytest
from click.testing import CliRunner

import zerosum
from zerosum.cli import cli
from zerosum.core.game import CHANCE, TERMINAL
from zerosum.poker.family import PokerHistory
from zerosum.poker.holdem import HoldemHistory
from zerosum.public_tree import build
from zerosum.public_tree import compile as compile_module
from zerosum.public_tree.build import poker_public_tree
from zerosum.public_tree.form import CHANCE_NODE, DECISION, FOLD, SHOWDOWN, TreeBuilder
from zerosum.public_tree.holdem_build import holdem_public_tree


def walk(game, root, chance_children, board_of, label_of):
    """The public tree one node at a time: a breadth-first queue of histories, every node asked of
    the game's own rules (the form the builders had before they were vectorized)."""
    tb = TreeBuilder()
    queue, head = [(root, -1)], 0
    while head < len(queue):
        h, parent = queue[head]
        head += 1
        who, board, label = game.player(h), board_of(h), label_of(h)
        if who == TERMINAL:
            put, betting = game.contributions(h), h.rounds[-1]
            if betting.endswith("f"):
                folder = (len(betting) - 1) % 2
                tb.add(FOLD, folder, parent, board, put[folder], label)
            else:
                tb.add(SHOWDOWN, -1, parent, board, put[0], label)
        elif who == CHANCE:
            node = tb.add(CHANCE_NODE, -1, parent, board, 0.0, label)
            queue.extend((c, node) for c in chance_children(h))
        else:
            actions = tuple(game.actions(h))
            node = tb.add(DECISION, who, parent, board, 0.0, label, actions)
            queue.extend((game.child(h, a), node) for a in actions)
    return tb


def assert_same_tree(tree, tb):
    ref = tb.finish(tree.game_id, tree.hand_labels, tree.ranges, tree.terminals, tree.histories, tree.pot)
    for f in ("kind", "player", "parent", "first_child", "n_children", "board", "stake", "offset"):
        got, want = getattr(tree, f), getattr(ref, f)
        assert got.dtype == want.dtype and np.array_equal(got, want), f
    assert tree.labels == ref.labels and tree.action_labels == ref.action_labels


@pytest.mark.parametrize("params", [
    {"ranks": 3, "copies": 1, "rounds": 1, "raises": 1, "bets": [1]},  # Kuhn
    {},                                                                  # Leduc
    {"ranks": 5, "copies": 2, "raises": [0, 2]},
    {"ranks": 4, "copies": 3, "rounds": 1, "raises": 3, "bets": [2]},
    {"ranks": 13, "copies": 4, "raises": 8},
])
def test_poker_build_is_the_node_by_node_walk(params):
    game = zerosum.load_game("poker", **params)
    tree = poker_public_tree(game)
    labels = game.labels
    placeholder = labels[0] + labels[-1]
    tb = walk(game, PokerHistory(placeholder, ("",)),
              lambda h: [PokerHistory(placeholder + c, h.rounds + ("",)) for c in labels],
              lambda h: 1 + labels.index(h.cards[2]) if len(h.cards) > 2 else 0,
              lambda h: h.cards[2:] + ":" + "/".join(h.rounds))
    assert_same_tree(tree, tb)
    assert tree.n_nodes == game.estimated_sizes()["public_nodes"]


@pytest.mark.parametrize("params", [
    {"board": "Ks7d2c9h5s"},
    {"board": "Ks7d2c9h"},
    {"board": "Ks7d2c9h", "range0": "AA,KQs", "range1": "T9o+,AhKh:0.5", "bets": [2, 6], "stack": 9},
    {"board": "Ks7d2c", "range0": "AA", "range1": "KQs", "raises": 0},  # two deals
])
def test_holdem_build_is_the_node_by_node_walk(params):
    game = zerosum.load_game("holdem", **params)
    tree = holdem_public_tree(game)
    boards = {(): 0}

    def deal(h):  # board ids in the order the walk first sees them
        used = set(game.board) | set(h.dealt)
        out = []
        for c in range(52):
            if c not in used:
                boards.setdefault(h.dealt + (c,), len(boards))
                out.append(HoldemHistory(h.hands, h.dealt + (c,), h.rounds + ("",)))
        return out

    tb = walk(game, HoldemHistory((0, 0), (), ("",)), deal, lambda h: boards[h.dealt],
              lambda h: game.public_label(h.dealt, h.rounds))
    assert_same_tree(tree, tb)
    assert len(tree.extra["boards"]) == len(boards) == int(tree.board.max()) + 1
    assert tree.n_nodes <= game.estimated_sizes()["public_nodes"]  # a stack can only cut raises


def test_build_reports_progress(monkeypatch):
    monkeypatch.setattr(build, "_PROGRESS_EVERY_S", 0.0)  # report after every depth
    monkeypatch.setattr(compile_module, "_CACHE", {})
    for game in (zerosum.load_game("poker", ranks=6, raises=3),
                 zerosum.load_game("holdem", board="Ks7d2c9h", range0="AA,KQs", range1="QQ,T9s")):
        seen = []
        tree = compile_module.public_tree(game, progress=seen.append)
        assert len(seen) > 3 and seen == sorted(seen) and seen[-1] == tree.n_nodes
        again = []
        assert compile_module.public_tree(game, progress=again.append) is tree and again == []  # cached


def test_too_large_for_the_public_tree_is_refused_before_building(monkeypatch):
    import zerosum.core.memory as memory_module

    def never(*args, **kwargs):
        raise AssertionError("built a game the count refuses")

    monkeypatch.setattr(build, "expand", never)
    monkeypatch.setattr(memory_module, "available_memory", lambda: 10**9)
    r = CliRunner().invoke(cli, ["solve", "poker", "--param", "ranks=13", "--param", "copies=4",
                                 "--param", "raises=64", "-n", "1"])
    assert r.exit_code == 1 and len(r.output.strip().splitlines()) == 1, r.output
    assert "too large even for the public tree: 649,386 public nodes" in r.output
