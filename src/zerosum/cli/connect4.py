"""``zerosum analyze connect4``: exact scores of Connect Four positions (the solver of
:mod:`zerosum.perfect.connect4_solver`)."""

from __future__ import annotations

import time

import click

from ..errors import ZerosumError
from .common import compact_moves, console, emit_json, parse_params, progress_bar, progress_status

GAMES = ("connect4",)


def _outcome(score: int | None) -> str:
    if score is None:
        return "full"
    return "win" if score > 0 else ("loss" if score < 0 else "draw")


def _read_positions(path: str) -> list[tuple[int, str, int | None]]:
    """(line number, moves, expected score or None) for each position line of the file.

    Blank lines and comments (from ``#`` to the end of the line) are skipped, so a test set can
    carry its provenance in a header."""
    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except OSError as e:
        raise ZerosumError(f"cannot read {path!r}: {e.strerror or e}") from None
    except UnicodeDecodeError:
        raise ZerosumError(f"cannot read {path!r}: not a UTF-8 text file") from None
    out = []
    for number, line in enumerate(lines, start=1):
        fields = line.split("#", 1)[0].split()
        if not fields:
            continue
        if len(fields) > 2:
            raise ZerosumError(f"{path}, line {number}: expected 'MOVES' or 'MOVES SCORE', got {line!r}")
        expected = None
        if len(fields) == 2:
            try:
                expected = int(fields[1])
            except ValueError:
                raise ZerosumError(f"{path}, line {number}: score {fields[1]!r} is not an integer") from None
        out.append((number, fields[0], expected))
    return out


def _board_size(params, width, height) -> tuple[int, int]:
    """Width and height from ``--param`` (the spelling the other perfect-information commands
    use), or from the older hidden ``--width/--height``; 7x6 by default."""
    given = parse_params(params)
    unknown = sorted(set(given) - {"width", "height"})
    if unknown:
        raise ZerosumError(f"analyze connect4 takes --param width=N and --param height=N, not {unknown[0]!r} "
                           "(e.g. zerosum analyze connect4 4453 --param width=7 --param height=6)")
    size = {"width": 7 if width is None else width, "height": 6 if height is None else height}
    for key, value in given.items():
        if not isinstance(value, int) or isinstance(value, bool):
            raise ZerosumError(f"--param {key}= expects an integer, got {value!r}")
        size[key] = value
    return size["width"], size["height"]


def _sign(x: int) -> int:
    return (x > 0) - (x < 0)


@click.command()
@click.argument("game")
@click.argument("moves", required=False)
@click.option("--file", "path", type=click.Path(dir_okay=False), default=None,
              help="Positions, one per line: 'MOVES' or 'MOVES SCORE' (Pons's test-set format).")
@click.option("--weak", is_flag=True, help="Only win (1), draw (0) or loss (-1); often faster.")
@click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
              help="Board size, as at search/play/tournament: --param width=7 --param height=6 (the default).")
@click.option("--width", type=int, default=None, hidden=True, help="Old spelling of --param width=N.")
@click.option("--height", type=int, default=None, hidden=True, help="Old spelling of --param height=N.")
@click.option("--table-size-log2", type=int, default=24, show_default=True,
              help="Transposition table of 2**N slots of 8 bytes (24: 128 MiB).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of text.")
def analyze(game, moves, path, weak, params, width, height, table_size_log2, as_json):
    """Exact score of every column after MOVES (columns 1..7 from the empty board), or of every
    position of a --file.  Scores follow Pascal Pons's convention: from the point of view of the
    player who moves, 0 draw, positive a win (22 minus the winner's stones at the end on 7x6),
    negative a loss.
    """
    if game.lower() not in GAMES:
        raise ZerosumError(f"analyze knows only {', '.join(GAMES)}, not {game!r}")
    if (moves is None) == (path is None):
        raise ZerosumError("give either MOVES or --file POSITIONS (exactly one)")
    from ..perfect.connect4_solver import Connect4Solver

    width, height = _board_size(params, width, height)
    solver = Connect4Solver(width, height, table_size_log2=table_size_log2)
    if path is not None:
        _analyze_file(solver, path, weak, as_json)
        return
    moves = compact_moves(moves)
    start = time.perf_counter()
    with progress_status(f"solving connect4 after {moves or '(empty board)'}", enabled=not as_json):
        scores = solver.analyze(moves, weak=weak)
    elapsed = time.perf_counter() - start
    playable = [s for s in scores if s is not None]
    best = max(playable) if playable else None
    best_move = None
    if playable:
        best_move = next(int(c) + 1 for c in solver.order if scores[c] == best)
    if as_json:
        emit_json({"game": "connect4", "width": width, "height": height, "moves": moves.strip(),
                   "weak": weak, "score": best, "best_move": best_move,
                   "columns": [{"column": c + 1, "score": s, "outcome": _outcome(s)}
                               for c, s in enumerate(scores)],
                   "nodes": solver.nodes, "time_s": elapsed})
        return
    from rich.table import Table

    t = Table(title="connect4" + (" (weak)" if weak else ""), caption=f"after {moves.strip() or '(empty board)'}")
    for col in ("column", "score", "outcome"):
        t.add_column(col, justify="right")
    for c, s in enumerate(scores):
        mark = " *" if s is not None and s == best else ""
        t.add_row(str(c + 1), "-" if s is None else f"{s}{mark}", _outcome(s))
    out = console()
    out.print(t)
    if best is None:
        out.print("the board is full: no move left")
    else:
        out.print(f"score {best} ({_outcome(best)} for the player to move), best move {best_move}; "
                  f"{solver.nodes:,} nodes in {elapsed:.3f} s")


def _analyze_file(solver, path, weak, as_json):
    positions = _read_positions(path)
    if not positions:
        raise ZerosumError(f"{path!r} holds no position: expected one 'MOVES' or 'MOVES SCORE' per line")
    results = []
    mismatched = []
    start = time.perf_counter()
    with progress_bar(len(positions), "solving", enabled=not as_json, unit="positions") as advance:
        for number, moves, expected in positions:
            t0 = time.perf_counter()
            try:
                score = solver.solve(moves, weak=weak)
            except ZerosumError as e:
                raise ZerosumError(f"{path}, line {number}: {e}") from None
            row = {"line": number, "moves": moves, "score": score, "expected": expected,
                   "nodes": solver.nodes, "time_s": time.perf_counter() - t0}
            differs = expected is not None and (_sign(expected) != score if weak else expected != score)
            row["match"] = None if expected is None else not differs
            if differs:
                mismatched.append({"line": number, "moves": moves, "expected": expected, "score": score})
            results.append(row)
            if not as_json:
                click.echo(f"{moves} {score}")
            advance(1)
    elapsed = time.perf_counter() - start
    checked = sum(r["expected"] is not None for r in results)
    if as_json:
        emit_json({"game": "connect4", "file": path, "weak": weak, "count": len(results),
                   "checked": checked, "mismatches": len(mismatched), "mismatched": mismatched,
                   "time_s": elapsed, "positions": results})
    else:
        if checked:
            click.echo(f"{len(results)} position{'' if len(results) == 1 else 's'} in {elapsed:.2f} s; "
                       f"{checked} had a score in the file, {len(mismatched)} "
                       f"differ{'s' if len(mismatched) == 1 else ''}" + (" in sign" if weak else ""), err=True)
        for m in mismatched:  # as comments, so that stdout stays a valid positions file
            click.echo(f"# mismatch: {path}, line {m['line']}: {m['moves']} expected {m['expected']}, "
                       f"got {m['score']}")
    if mismatched:
        # A checked test set that disagrees is a failure a script must see without parsing output.
        raise click.exceptions.Exit(1)
