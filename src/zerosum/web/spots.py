"""The spot builder's server side: a hold'em spot's tree size and memory before solving, and a range's
text read as the 13x13 grid of hand classes (the library's own parser, so the page never reads the
notation differently from the solver).

``POST /api/spots/estimate`` ``{"spot": {...}}`` (the JSON of a ``--spot`` file): the game's exact
size estimate (:meth:`zerosum.poker.holdem.HoldemGame.estimated_sizes`), whether its public tree fits
the memory available, and each range's combos.  ``POST /api/spots/range`` ``{"text", "board"}``:
the range's mean weight and live combos of each of the 169 classes, and its combos.  Bad input is
one line (400).

May import: :mod:`zerosum.poker`, :mod:`zerosum.core.memory`, :mod:`.common`.
"""

from __future__ import annotations

import threading

from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..errors import ZerosumError
from .common import read_json

#: grid order: rows and columns from A down to 2 (the usual chart)
GRID_RANKS = "AKQJT98765432"


def estimate(spot) -> dict:
    """The size estimate of ``spot`` (a spot's JSON object): the counts of ``estimated_sizes()`` for
    the whole tree (no suit isomorphism), ``memory_limit`` and ``fits`` (the public tree's bytes
    within it: a spot that does not fit is still estimated, and a run of it is refused), the hands
    either range holds and each range's combos."""
    from ..core.memory import memory_limit
    from ..poker.holdem import HoldemGame
    from ..poker.ranges import range_combos
    from ..poker.spots import spot_params

    if isinstance(spot, dict) and isinstance(spot.get("spot"), dict):
        spot = spot["spot"]
    params = spot_params(spot, "the spot")
    # estimated whatever its size: the constructor's memory refusal is reported as fits=false
    game = HoldemGame(**params, max_bytes=1 << 62)
    sizes = game.estimated_sizes()
    limit = memory_limit(None)
    combos = [round(range_combos(w), 6) for w in game.ranges]
    return {**{k: int(v) for k, v in sizes.items()}, "memory_limit": int(limit),
            "fits": bool(sizes["public_bytes"] <= limit), "hands": len(game.hands),
            "combos": combos, "streets": int(game.streets),
            "game_id": game.id}


def range_grid(text, board="") -> dict:
    """``text`` (range notation) with ``board``'s cards dead, as 13 x 13 lists in :data:`GRID_RANKS`
    order (pairs on the diagonal, suited above it, offsuit below): ``weights`` (the mean weight of
    the class's live combos; None where the board leaves it none), ``live`` (its live combos), and
    ``combos`` (the range's total weight)."""
    import numpy as np

    from ..poker.cards import hole_pairs, parse_board
    from ..poker.ranges import parse_range, range_combos

    if text is None:
        text = ""
    if not isinstance(text, str):
        raise ZerosumError('send {"text": "AA,KK,AKs:0.5", "board": "Td9d6hQc"}')
    board = "" if board is None else str(board).strip()
    dead = parse_board(board, (3, 4, 5)) if board else []
    weights = parse_range(text, dead=dead)
    pairs = hole_pairs()
    ranks, suits = pairs >> 2, pairs & 3
    hi, lo = ranks.max(axis=1), ranks.min(axis=1)
    suited = suits[:, 0] == suits[:, 1]
    # grid row / column: 0 is the ace (rank 12)
    r_hi, r_lo = 12 - hi, 12 - lo
    row = np.where(suited, r_hi, r_lo)
    col = np.where(suited, r_lo, r_hi)
    deadmask = np.isin(pairs, np.asarray(dead, dtype=pairs.dtype)).any(axis=1) if dead else np.zeros(len(pairs), bool)
    live = np.zeros((13, 13))
    total = np.zeros((13, 13))
    np.add.at(live, (row[~deadmask], col[~deadmask]), 1)
    np.add.at(total, (row, col), weights)
    mean = [[round(float(total[i, j] / live[i, j]), 6) if live[i, j] else None for j in range(13)] for i in range(13)]
    return {"ranks": GRID_RANKS, "weights": mean, "live": live.astype(int).tolist(),
            "combos": round(range_combos(weights), 6)}


#: one estimate at a time: counting a very deep betting tree (hundreds of pots behind, many raise
#: sizes) walks every betting line and can take minutes; a request while one counts is refused
#: (429) instead of piling up threads, and the page asks again
_ESTIMATING = threading.Lock()


def routes(_state=None) -> list:
    """The builder's routes (no server state)."""

    def estimate_once(spot):
        if not _ESTIMATING.acquire(blocking=False):
            raise HTTPException(429, "the previous estimate is still counting its tree (a very deep betting tree); "
                                     "try again in a moment")
        try:
            return estimate(spot)
        finally:
            _ESTIMATING.release()

    async def estimate_route(request: Request):
        body = await read_json(request, limit=1 << 20)
        if not isinstance(body, dict) or "spot" not in body:
            raise ZerosumError('send {"spot": {...the JSON of a --spot file...}}')
        return JSONResponse(await run_in_threadpool(estimate_once, body["spot"]))

    async def range_route(request: Request):
        body = await read_json(request, limit=1 << 20)
        if not isinstance(body, dict):
            raise ZerosumError('send {"text": "AA,KK,AKs:0.5", "board": "Td9d6hQc"}')
        return JSONResponse(await run_in_threadpool(range_grid, body.get("text"), body.get("board")))

    return [Route("/api/spots/estimate", estimate_route, methods=["POST"]),
            Route("/api/spots/range", range_route, methods=["POST"])]
