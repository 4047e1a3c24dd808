"""The perfect-information games: rules, move strings, illegal moves, known counts and values."""

import random

import pytest

from zerosum.errors import ZerosumError
from zerosum.perfect import load_perfect_game
from zerosum.perfect.search import negamax_alphabeta


def reachable(game):
    seen = {}
    stack = [game.initial_state()]
    while stack:
        s = stack.pop()
        k = game.key(s)
        if k in seen:
            continue
        seen[k] = s
        stack.extend(game.result(s, m) for m in game.legal_moves(s))
    return seen


def test_tictactoe_has_5478_legal_positions_and_958_terminal_ones():
    g = load_perfect_game("tictactoe")
    states = reachable(g)
    assert len(states) == 5478
    assert sum(g.is_terminal(s) for s in states.values()) == 958


def test_tictactoe_rules_and_errors():
    g = load_perfect_game("tictactoe")
    s = g.play([4, 0, 2, 6, 3, 5, 1, 7])     # X: centre, 3, 4, 2 ... ; no line yet
    assert not g.is_terminal(s) and g.player(s) == 0 and g.legal_moves(s) == [8]
    end = g.result(s, 8)
    assert g.is_terminal(end) and g.utility(end, 0) == 0 and g.winner(end) is None
    won = g.play([0, 3, 1, 4, 2])            # X takes the top row
    assert g.is_terminal(won) and g.utility(won, 0) == 1 and g.utility(won, 1) == -1
    with pytest.raises(ZerosumError, match="move 5: that cell is already taken"):
        g.result(g.play([4]), 4)
    with pytest.raises(ZerosumError, match="already over"):
        g.result(won, 8)
    with pytest.raises(ZerosumError, match="not a cell"):
        g.result(s, 9)
    with pytest.raises(ZerosumError, match="'x'"):
        g.parse_move(s, "x")
    assert g.parse_move(s, " 9 ") == 8
    assert "X" in g.render(won) and "O" in g.render(won)


def test_mnk_parameters():
    g = load_perfect_game("mnk", m=4, n=4, k=3)
    assert len(g.legal_moves(g.initial_state())) == 16
    s = g.play([0, 4, 5, 8, 10])             # X on the diagonal 0, 5, 10
    assert g.winner(s) == 0
    with pytest.raises(ZerosumError, match="cannot fit"):
        load_perfect_game("mnk", m=2, n=2, k=3)


def _grid_winner(width, height, moves):
    """An independent, slow referee: a 2-D grid scanned in the four directions."""
    grid = [[None] * height for _ in range(width)]
    for i, ch in enumerate(moves):
        c = int(ch) - 1
        r = grid[c].index(None)
        grid[c][r] = i % 2
    for c in range(width):
        for r in range(height):
            p = grid[c][r]
            if p is None:
                continue
            for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
                cells = [(c + k * dc, r + k * dr) for k in range(4)]
                if all(0 <= cc < width and 0 <= rr < height and grid[cc][rr] == p for cc, rr in cells):
                    return p
    return None


@pytest.mark.parametrize("width,height", [(7, 6), (5, 4), (4, 7), (9, 9)])
def test_connect4_bitboard_agrees_with_a_grid_referee(width, height):
    g = load_perfect_game("connect4", width=width, height=height)
    rng = random.Random(width * 100 + height)
    for _ in range(150):
        s = g.initial_state()
        while not g.is_terminal(s):
            s = g.result(s, rng.choice(g.legal_moves(s)))
            # the game stops at the first four, so the referee sees at most one winner
            assert g.winner(s) == _grid_winner(width, height, s.moves)
        assert g.from_moves(s.moves) == s and g.key(g.from_moves(s.moves)) == g.key(s)


def test_connect4_moves_string_key_and_render():
    g = load_perfect_game("connect4")
    a, b = g.from_moves("1234"), g.from_moves("3214")     # the same position by two move orders
    assert a.moves == "1234" and b.moves == "3214"
    assert g.key(a) == g.key(b) and a == b
    assert g.key(g.from_moves("4321")) != g.key(a)
    s = g.result(g.from_moves("44"), 2)
    assert s.moves == "443" and g.player(s) == 1
    picture = g.render(g.from_moves("443"))
    rows = picture.splitlines()
    assert rows[-1].split() == [str(c) for c in range(1, 8)]
    assert rows[5] == "| . . X X . . . |" and rows[4] == "| . . . O . . . |"


@pytest.mark.parametrize("moves,message", [
    ("448", r"move 3 \('8'\) of '448': not a column 1-7"),
    ("40", r"move 2 \('0'\) of '40': not a column 1-7"),
    ("4a", r"move 2 \('a'\) of '4a': not a column"),
    ("4 4", r"move 2 \(' '\)"),
    ("4444444", r"move 7 \('4'\) of '4444444': column 4 is full"),
    ("12121213", r"move 8 \('3'\) of '12121213': the game is already over \(player 1 has won\)"),
])
def test_connect4_illegal_move_strings_name_the_move(moves, message):
    g = load_perfect_game("connect4")
    with pytest.raises(ZerosumError, match=message):
        g.from_moves(moves)


def test_connect4_illegal_moves_through_the_interface():
    g = load_perfect_game("connect4", width=5, height=4)
    s = g.from_moves("1111")
    assert g.legal_moves(s) == [1, 2, 3, 4]
    with pytest.raises(ZerosumError, match="column 1 is full"):
        g.result(s, 0)
    with pytest.raises(ZerosumError, match="not a column index"):
        g.result(s, 5)
    with pytest.raises(ZerosumError, match="not a column index"):
        g.result(s, True)
    with pytest.raises(ZerosumError, match="'6': type a column number 1-5"):
        g.parse_move(s, "6")
    with pytest.raises(ZerosumError, match="move '1': column 1 is full"):
        g.parse_move(s, "1")
    full = g.from_moves("53151141543423322542")   # a drawn game that fills the board
    assert g.is_terminal(full) and g.winner(full) is None and g.utility(full, 0) == 0
    with pytest.raises(ZerosumError, match="board is full"):
        g.result(full, 0)
    with pytest.raises(ZerosumError, match="width"):
        load_perfect_game("connect4", width=10)


def test_nim_values_are_boutons_nim_sum():
    for heaps in [(1,), (2, 2), (1, 2, 3), (1, 2, 4), (3, 4, 5), (2, 3, 3), (1, 1, 1, 1), (4, 4, 1)]:
        g = load_perfect_game("nim", heaps=list(heaps))
        nim_sum = 0
        for h in heaps:
            nim_sum ^= h
        r = negamax_alphabeta(g, g.initial_state())
        assert r.value == (1.0 if nim_sum else -1.0), heaps
        if nim_sum:       # the move found leaves a zero nim-sum
            after = g.result(g.initial_state(), r.move)[0]
            x = 0
            for h in after:
                x ^= h
            assert x == 0


def test_nim_errors():
    g = load_perfect_game("nim", heaps=[1, 2])
    s = g.initial_state()
    with pytest.raises(ZerosumError, match="heap 1 has 1"):
        g.result(s, (0, 2))
    with pytest.raises(ZerosumError, match="no heap 3"):
        g.parse_move(s, "3:1")
    with pytest.raises(ZerosumError, match="HEAP:TAKE"):
        g.parse_move(s, "two")
    with pytest.raises(ZerosumError, match="heaps"):
        load_perfect_game("nim", heaps=[-1])
    end = g.play([(0, 1), (1, 2)])
    assert g.is_terminal(end) and g.winner(end) == 1
    with pytest.raises(ZerosumError, match="unknown perfect-information game"):
        load_perfect_game("chess")
