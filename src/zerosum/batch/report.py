"""Reading a results folder and the aggregate report: each flop's root frequencies and EV for the
first player to act, and their weighted total (each flop weighted by the flop set's weight: the
number of the 22,100 flops its class stands for, or a random subset's stratum share).

:func:`aggregate` is, for each action a, ``sum_f w_f freq_f(a) / sum_f w_f`` and the same for the
EV, the exploitability (% of the pot) and the iterations; the same by texture group
(:func:`~zerosum.batch.flops.texture_group`).  :func:`write_csv` writes a row a flop and a last
``total`` row; :func:`plot` draws the bet frequency of each flop, sorted within texture groups.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ..errors import ZerosumError
from .flops import texture_group
from .run import FORMAT, MANIFEST


def read_results(folder) -> list[dict]:
    """The flop results in ``folder`` of the template its ``batch.json`` names (files of another
    template, e.g. before the spot was changed, are left out), highest flops first."""
    root = Path(folder)
    if not root.is_dir():
        raise ZerosumError(f"no results folder {str(root)!r} (zerosum batch SPOT.json --out FOLDER writes one)")
    digest = None
    if (root / MANIFEST).exists():
        try:
            digest = json.loads((root / MANIFEST).read_text(encoding="utf-8")).get("template_hash")
        except (OSError, UnicodeDecodeError, json.JSONDecodeError, AttributeError):
            raise ZerosumError(f"{str(root / MANIFEST)!r} is not a batch manifest") from None
    out = []
    for path in root.glob("*.json"):
        if path.name == MANIFEST:
            continue
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue
        if isinstance(result, dict) and result.get("format") == FORMAT and \
                (digest is None or result.get("template_hash") == digest):
            out.append(result)
    if not out:
        raise ZerosumError(f"{str(root)!r} holds no flop results")
    from ..poker.cards import parse_cards

    return sorted(out, key=lambda r: tuple(-c for c in parse_cards(r["flop"])))


def actions_of(results) -> list[str]:
    """Every root action label in the results, in the order first met."""
    seen: dict[str, None] = {}
    for r in results:
        for a in r["actions"]:
            seen.setdefault(a, None)
    return list(seen)


def bet_frequency(result: dict) -> float:
    """How often the first player bets (any size, all-in included) at the root."""
    return sum(f for a, f in result["frequencies"].items() if a[:1] in ("b", "r", "a"))


def _total(results, actions) -> dict:
    w = sum(float(r["weight"]) for r in results)
    def mean(get):
        return sum(float(r["weight"]) * get(r) for r in results) / w
    return {"flops": len(results), "weight": w,
            "frequencies": {a: mean(lambda r, a=a: r["frequencies"].get(a, 0.0)) for a in actions},
            "bet": mean(bet_frequency), "ev": mean(lambda r: r["ev"]),
            "exploitability_pct": mean(lambda r: r["exploitability_pct"]),
            "iterations": mean(lambda r: r["iterations"])}


def aggregate(results) -> dict:
    """The weighted total of ``results`` (a folder or :func:`read_results`' list) and the same by
    texture group; ``rows``: one per flop (flop, weight, texture, group, frequencies, bet, ev,
    exploitability_pct, iterations, seconds)."""
    if isinstance(results, (str, Path)):
        results = read_results(results)
    results = list(results)
    if not results:
        raise ZerosumError("no flop results to aggregate")
    actions = actions_of(results)
    groups: dict[str, list] = {}
    for r in results:
        groups.setdefault(texture_group(r["flop"]), []).append(r)
    rows = [{"flop": r["flop"], "weight": r["weight"], "count": r["count"], "texture": r["texture"],
             "group": texture_group(r["flop"]),
             "frequencies": {a: r["frequencies"].get(a, 0.0) for a in actions}, "bet": bet_frequency(r),
             "ev": r["ev"], "exploitability_pct": r["exploitability_pct"], "iterations": r["iterations"],
             "seconds": r["seconds"]["total"]} for r in results]
    return {"actions": actions, "player": 0, "pot": results[0]["pot"], "total": _total(results, actions),
            "by_group": {g: _total(rs, actions) for g, rs in sorted(groups.items())}, "rows": rows}


def write_csv(report: dict, path) -> None:
    """A row a flop, then the weighted ``total`` row."""
    actions = report["actions"]
    head = ["flop", "weight", "group", "high", "pairing", "suits", "connected", *[f"freq_{a}" for a in actions],
            "bet", "ev", "exploitability_pct", "iterations"]
    try:
        with open(path, "w", newline="", encoding="utf-8") as f:
            out = csv.writer(f)
            out.writerow(head)
            for r in report["rows"]:
                t = r["texture"]
                out.writerow([r["flop"], r["weight"], r["group"], t["high"], t["pairing"], t["suits"], t["connected"],
                              *[r["frequencies"][a] for a in actions], r["bet"], r["ev"], r["exploitability_pct"],
                              r["iterations"]])
            t = report["total"]
            out.writerow(["total", t["weight"], "", "", "", "", "", *[t["frequencies"][a] for a in actions], t["bet"],
                          t["ev"], t["exploitability_pct"], t["iterations"]])
    except OSError as e:
        raise ZerosumError(f"cannot write {str(path)!r}: {e.strerror or e}") from None


def plot(report: dict, path, title: str = "") -> None:
    """The first player's bet frequency on each flop, flops sorted by bet frequency within their
    texture group, one colour a group, each group's weighted mean as a line over its bars."""
    from ..plots import pyplot, save_figure

    plt = pyplot()
    groups = sorted({r["group"] for r in report["rows"]})
    fig, ax = plt.subplots(figsize=(max(6.0, 0.12 * len(report["rows"]) + 2), 4))
    x = 0
    for k, g in enumerate(groups):
        rows = sorted((r for r in report["rows"] if r["group"] == g), key=lambda r: -r["bet"])
        xs = list(range(x, x + len(rows)))
        ax.bar(xs, [r["bet"] for r in rows], color=f"C{k % 10}", label=g, width=0.85)
        mean = report["by_group"][g]["bet"]
        ax.hlines(mean, xs[0] - 0.4, xs[-1] + 0.4, colors="black", linewidth=1)
        if len(rows) <= 60:
            for xi, r in zip(xs, rows):
                ax.text(xi, 0.01, r["flop"], rotation=90, fontsize=6, ha="center", va="bottom")
        x += len(rows) + 1
    ax.axhline(report["total"]["bet"], color="gray", linestyle="--", linewidth=1,
               label=f"weighted total {report['total']['bet']:.1%}")
    ax.set_ylim(0, 1)
    ax.set_xticks([])
    ax.set_ylabel("bet frequency (player 0, root)")
    ax.set_title(title or f"bet frequency by flop, {len(report['rows'])} flops, grouped by texture")
    ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    save_figure(fig, path)
