"""Normal-play Nim: take one or more objects from a single heap; whoever takes the last one wins.

Bouton (1901) solved it: the player to move wins exactly when the XOR of the heap sizes (the
nim-sum) is not zero, which gives the search algorithms an answer they did not compute.
"""

from __future__ import annotations

from ..errors import ZerosumError
from .base import PerfectGame


class Nim(PerfectGame):
    """Nim with the given heaps; a state is ``(heaps, player_to_move)``; a move is ``(heap, take)``
    with a 0-based heap index, written ``"heap:take"`` with a 1-based heap (``"2:3"``)."""

    name = "nim"

    def __init__(self, heaps=(3, 4, 5)):
        if isinstance(heaps, str):
            try:
                heaps = [int(h) for h in heaps.replace(",", " ").split()]
            except ValueError:
                raise ZerosumError(f"heaps must be integers, got {heaps!r}") from None
        try:
            heaps = tuple(heaps)
        except TypeError:
            raise ZerosumError(f"heaps must be a list of integers, got {heaps!r}") from None
        if not heaps or not all(isinstance(h, int) and not isinstance(h, bool) and h >= 0 for h in heaps):
            raise ZerosumError(f"heaps must be a non-empty list of non-negative integers, got {list(heaps)!r}")
        self.heaps = heaps

    def params(self):
        return {"heaps": list(self.heaps)}

    def initial_state(self):
        return (self.heaps, 0)

    def player(self, state):
        return state[1]

    def legal_moves(self, state):
        heaps, _ = state
        return [(i, t) for i, h in enumerate(heaps) for t in range(1, h + 1)]

    def result(self, state, move):
        heaps, p = state
        try:
            i, take = move
            ok = all(isinstance(v, int) and not isinstance(v, bool) for v in (i, take))
        except (TypeError, ValueError):
            ok = False
        if not ok:
            raise ZerosumError(f"move {move!r}: a Nim move is (heap, take)")
        if not any(heaps):
            raise ZerosumError(f"move {self.move_label(move)}: the game is already over")
        if not 0 <= i < len(heaps):
            raise ZerosumError(f"move {self.move_label(move)}: there is no heap {i + 1} (heaps 1-{len(heaps)})")
        if not 1 <= take <= heaps[i]:
            raise ZerosumError(f"move {self.move_label(move)}: heap {i + 1} has {heaps[i]}; take 1 to {heaps[i]}")
        return (heaps[:i] + (heaps[i] - take,) + heaps[i + 1:], 1 - p)

    def is_terminal(self, state):
        return not any(state[0])

    def utility(self, state, player):
        # the player to move at the end faces empty heaps: the previous player took the last object
        return -1.0 if state[1] == player else 1.0

    def key(self, state):
        return state

    def render(self, state):
        heaps, p = state
        lines = [f"heap {i + 1}: {'|' * h} ({h})" for i, h in enumerate(heaps)]
        if self.is_terminal(state):  # nobody is to move: the previous player took the last object
            return "\n".join(lines) + f"\ngame over: player {1 - p} took the last object and wins"
        return "\n".join(lines) + f"\nplayer {p} to move"

    def order_moves(self, state, moves):
        # moves to a zero nim-sum first (they are the winning ones), then larger takes
        heaps = state[0]
        nim_sum = 0
        for h in heaps:
            nim_sum ^= h

        def rank(m):
            i, t = m
            return (nim_sum ^ heaps[i] ^ (heaps[i] - t) != 0, -t)

        return sorted(moves, key=rank)

    def max_remaining_moves(self, state):
        return sum(state[0])

    def move_label(self, move):
        return f"{move[0] + 1}:{move[1]}"

    def parse_move(self, state, text):
        text = text.strip()
        parts = text.replace(":", " ").split()
        try:
            i, take = (int(x) for x in parts)
        except ValueError:
            raise ZerosumError(f"move {text!r}: write HEAP:TAKE, e.g. 2:3") from None
        move = (i - 1, take)
        self.result(state, move)
        return move
