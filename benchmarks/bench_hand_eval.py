"""Hold'em hand evaluation on the batched jobs a public-tree solver needs: ours vs the libraries.

Jobs (every evaluation = one hole pair that shares no card with one complete 5-card board):
  river: board Ks7d2c9h3s, its 1,081 live pairs;
  turn:  board Ks7d2c9h, its 1,128 live pairs x 48 river cards (51,888 evaluations);
  flop:  board Ks7d2c, its 1,176 live pairs x 1,176 turn-river runouts (1,271,256 evaluations).

Contenders: zerosum (public_tree.strength: one Numba call over the whole batch, tables built once
from phevaluator), phevaluator (its public ``evaluate_cards``, one call per hand), eval7
(``evaluate`` on Card objects, one call per hand) and pokerkit (``StandardHighHand.from_game``, one
call per hand). CPU time (time.process_time), median of several runs; the per-call libraries run
the flop job once, and pokerkit only its first boards there (``--pokerkit-boards``; its rate is
per evaluation, so the rates stay comparable). Every library's order of hands on the river job is
checked against ours. Table build and Numba's first call are reported on their own.

    .venv/bin/python benchmarks/bench_hand_eval.py [--json] [--pokerkit-boards 4]
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from common import cpu_median, emit

from zerosum.poker.cards import card_str, hole_pairs, parse_board
from zerosum.poker.strength import _build_tables, board_strengths, complete_boards

JOBS = {"river": "Ks7d2c9h3s", "turn": "Ks7d2c9h", "flop": "Ks7d2c"}


def live_jobs(boards: np.ndarray, pairs: np.ndarray) -> list[tuple[tuple[int, ...], np.ndarray]]:
    """Per board, the pairs that share no card with it."""
    out = []
    for b in boards:
        clash = np.isin(pairs, b).any(axis=1)
        out.append((tuple(int(c) for c in b), pairs[~clash]))
    return out


def per_call_runner(name: str):
    """A function (board, live pairs) -> list of values for one library, or None if absent."""
    try:
        if name == "phevaluator":
            from phevaluator import evaluate_cards

            def run(board, live):
                return [-evaluate_cards(*board, int(a), int(b)) for a, b in live]

        elif name == "eval7":
            import eval7

            deck = [eval7.Card(card_str(c)) for c in range(52)]

            def run(board, live):
                bc = [deck[c] for c in board]
                return [eval7.evaluate([*bc, deck[a], deck[b]]) for a, b in live]

        elif name == "pokerkit":
            from pokerkit import StandardHighHand

            def run(board, live):
                text = "".join(card_str(c) for c in board)
                return [StandardHighHand.from_game(card_str(a) + card_str(b), text) for a, b in live]

        else:
            raise ValueError(name)
    except ImportError:
        return None
    return run


def same_order(ours: np.ndarray, theirs: list) -> bool:
    order = np.argsort(ours, kind="stable")
    a = ours[order]
    b = [theirs[i] for i in order]
    for i in range(len(a) - 1):
        if (a[i] == a[i + 1]) != (b[i] == b[i + 1]) or (a[i] < a[i + 1] and not b[i] < b[i + 1]):
            return False
    return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--json", action="store_true")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--pokerkit-boards", type=int, default=4, help="flop/turn boards pokerkit runs")
    args = ap.parse_args()

    t0 = time.process_time()
    _build_tables()
    build_s = time.process_time() - t0
    pairs = hole_pairs()
    t0 = time.process_time()
    board_strengths(complete_boards(parse_board(JOBS["river"])), pairs)  # Numba compile or cache load
    first_call_s = time.process_time() - t0

    rows = []
    for job, text in JOBS.items():
        boards = complete_boards(parse_board(text))
        # the subgame's hands: the pairs live on its board (1,176 on a flop, 1,128 on a turn)
        batch_pairs = pairs[~np.isin(pairs, parse_board(text)).any(axis=1)]
        jobs = live_jobs(boards, batch_pairs)
        n_evals = sum(len(live) for _, live in jobs)
        inner = max(1, 500_000 // n_evals)  # small jobs: time a batch of calls, not the clock's grain
        ours_s = cpu_median(
            lambda b=boards, p=batch_pairs: board_strengths(b, p), repeats=args.repeats, inner=inner
        )
        row = {
            "job": job,
            "boards": len(boards),
            "evaluations": n_evals,
            "zerosum_evals_per_s": n_evals / ours_s,
        }
        ours_river = board_strengths(boards[:1], jobs[0][1])[0] if job == "river" else None
        for lib in ("phevaluator", "eval7", "pokerkit"):
            run = per_call_runner(lib)
            if run is None:
                row[f"{lib}_evals_per_s"] = None
                continue
            sub = jobs
            if lib == "pokerkit" and job != "river":
                sub = jobs[: args.pokerkit_boards]
            n_sub = sum(len(live) for _, live in sub)
            repeats = 1 if n_sub > 200_000 or lib == "pokerkit" else 3
            secs = cpu_median(lambda s=sub, r=run: [r(b, live) for b, live in s], repeats=repeats)
            row[f"{lib}_evals_per_s"] = n_sub / secs
            row[f"zerosum_over_{lib}"] = (n_evals / ours_s) / (n_sub / secs)
            if ours_river is not None:
                row[f"{lib}_same_order"] = same_order(ours_river, run(*jobs[0]))
        rows.append(row)
    emit(
        rows,
        "hold'em hand evaluation, evaluations per CPU second (median)",
        args.json,
        {"zerosum_table_build_s": build_s, "zerosum_first_call_s": first_call_s},
    )


if __name__ == "__main__":
    main()
