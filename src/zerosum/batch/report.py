"""Reading a results folder and the aggregate report: each flop's root frequencies and EV for the
first player to act, and their weighted total (each flop weighted by the flop set's weight: the
number of the 22,100 flops its class stands for, or a random subset's stratum share).

:func:`aggregate` is, for each action a, ``sum_f w_f freq_f(a) / sum_f w_f`` and the same for the
EV, the exploitability (% of the pot) and the iterations; the same by texture group
(:func:`~zerosum.batch.flops.texture_group`).  :func:`write_csv` writes a row a flop and a last
``total`` row; :func:`plot` draws each flop's root action frequencies and EV, sorted within texture groups, and
the heat map of :func:`heatmap_table` (bet frequency by high card x texture).  :func:`class_table`
is player 0's EV, frequencies and EV by action per 13x13 hand class over the flops, weighted the
same way and by how often the class is held on each flop.
"""

from __future__ import annotations

import csv
import json
from pathlib import Path

from ..errors import ZerosumError
from ..poker.cards import RANKS
from .flops import texture, texture_group
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
    exploitability_pct, iterations, seconds); ``classes``: :func:`class_table`."""
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
            "by_group": {g: _total(rs, actions) for g, rs in sorted(groups.items())}, "rows": rows,
            "classes": class_table(results, actions)}


def class_table(results, actions=None) -> dict:
    """Player 0's root by 13x13 hand class over the flops, in the grid's order (classes held on
    some flop): for class k, with w_f the flop's weight and p_f(k) the class's share of P(hand) on
    flop f (its ``weight`` in the flop's ``classes``), ``weight`` = ``sum_f w_f p_f(k) / sum_f
    w_f`` and each of ``ev``, ``frequencies`` and ``action_ev`` the mean ``sum_f w_f p_f(k) x_f(k)
    / sum_f w_f p_f(k)`` (the class's EV over the flops, each flop counted by its frequency and
    by how often the class is held there), with ``flops`` the number of flops holding it.  Only
    the flops whose files hold the class EVs (version 2); ``{}`` if none does."""
    from ..poker.cards import grid_classes

    results = [r for r in results if r.get("version", 1) >= 2 and "action_ev" in r]
    if not results:
        return {}
    actions = actions or actions_of(results)
    w = sum(float(r["weight"]) for r in results)
    sums: dict[str, dict] = {}
    for r in results:
        for name, c in r["classes"].items():
            m = float(r["weight"]) * c["weight"]
            e = sums.setdefault(name, {"mass": 0.0, "flops": 0, "ev": 0.0, "frequencies": dict.fromkeys(actions, 0.0),
                                       "action_ev": dict.fromkeys(actions, 0.0), "ev_mass": dict.fromkeys(actions, 0.0)})
            e["mass"] += m
            e["flops"] += 1
            e["ev"] += m * c["ev"]
            for a in actions:
                e["frequencies"][a] += m * c["frequencies"].get(a, 0.0)
                if a in c["action_ev"]:  # an action the flop's root has
                    e["action_ev"][a] += m * c["action_ev"][a]
                    e["ev_mass"][a] += m
    out = {}
    for name in (k for row in grid_classes() for k in row):
        e = sums.get(name)
        if e is None or e["mass"] <= 0:
            continue
        out[name] = {"weight": e["mass"] / w, "flops": e["flops"], "ev": e["ev"] / e["mass"],
                     "frequencies": {a: v / e["mass"] for a, v in e["frequencies"].items()},
                     "action_ev": {a: e["action_ev"][a] / e["ev_mass"][a] if e["ev_mass"][a] > 0 else None
                                   for a in actions}}
    return out


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


#: the heat map's rows: unpaired flops by their suits, then every paired flop (trips included)
HEAT_TEXTURES = ("monotone", "two-tone", "rainbow", "paired")


def heat_texture(flop: str) -> str:
    """A flop's row in the heat map: ``paired`` (trips included), else its suits."""
    t = texture(flop)
    return "paired" if t["pairing"] != "unpaired" else t["suits"]


def heatmap_table(results) -> dict:
    """The table the heat map draws: for each texture of :data:`HEAT_TEXTURES` (rows) and each
    high card met (columns, ``A`` first), the weighted mean bet frequency ``sum_f w_f bet_f / sum_f
    w_f`` over the flops of that cell (None where there is none), their total ``weight`` and their
    number (``flops``).  ``results``: a folder, :func:`read_results`' list or :func:`aggregate`'s
    report."""
    if isinstance(results, (str, Path)):
        results = read_results(results)
    rows = results["rows"] if isinstance(results, dict) else aggregate(results)["rows"]
    highs = [r for r in reversed(RANKS) if any(row["texture"]["high"] == r for row in rows)]
    sums = {(t, h): [0.0, 0.0, 0] for t in HEAT_TEXTURES for h in highs}
    for row in rows:
        cell = sums[(heat_texture(row["flop"]), row["texture"]["high"])]
        cell[0] += float(row["weight"]) * row["bet"]
        cell[1] += float(row["weight"])
        cell[2] += 1
    return {"textures": list(HEAT_TEXTURES), "highs": highs,
            "bet": [[sums[(t, h)][0] / sums[(t, h)][1] if sums[(t, h)][2] else None for h in highs]
                    for t in HEAT_TEXTURES],
            "weight": [[sums[(t, h)][1] for h in highs] for t in HEAT_TEXTURES],
            "flops": [[sums[(t, h)][2] for h in highs] for t in HEAT_TEXTURES]}


def plot_order(report: dict) -> list[tuple[str, list[dict]]]:
    """The flops as the plots lay them out: texture groups in order, each group's flops by bet
    frequency, highest first."""
    groups = sorted({r["group"] for r in report["rows"]})
    return [(g, sorted((r for r in report["rows"] if r["group"] == g), key=lambda r: (-r["bet"], r["flop"])))
            for g in groups]


def plot(report: dict, path, title: str = "") -> None:
    """Three panels: (a) each root action's frequency on each flop, stacked, the flops grouped by
    texture (:func:`plot_order`) with each group's weighted bet frequency as a black line and the
    weighted total dashed; (b) player 0's EV on each flop, in the same order, with each group's
    weighted mean; (c) the heat map of :func:`heatmap_table` (weighted bet frequency by high card x
    texture, each cell with its value and its number of flops)."""
    import numpy as np

    from ..plots import pyplot, save_figure

    plt = pyplot()
    order = plot_order(report)
    n = len(report["rows"])
    width = max(8.0, 0.13 * (n + len(order)) + 3)
    fig = plt.figure(figsize=(width, 12))
    grid = fig.add_gridspec(3, 1, height_ratios=[1.2, 1.0, 1.1], hspace=0.55)
    ax_f, ax_e = fig.add_subplot(grid[0]), fig.add_subplot(grid[1])
    xs_all, labels, spans, x = [], [], [], 0
    for g, rows in order:
        xs = list(range(x, x + len(rows)))
        xs_all += xs
        labels += [r["flop"] for r in rows]
        spans.append((g, xs, rows))
        x += len(rows) + 1
    rows_all = [r for _, _, rows in spans for r in rows]
    bottom = np.zeros(len(rows_all))
    for k, a in enumerate(report["actions"]):
        heights = np.array([r["frequencies"][a] for r in rows_all])
        ax_f.bar(xs_all, heights, bottom=bottom, width=0.85, color=f"C{k % 10}", label=_action_name(a, report["pot"]))
        bottom += heights
    for k, (g, xs, _) in enumerate(spans):
        mean_bet, mean_ev = report["by_group"][g]["bet"], report["by_group"][g]["ev"]
        ax_f.hlines(1 - mean_bet, xs[0] - 0.4, xs[-1] + 0.4, colors="black", linewidth=1.2)
        ax_e.hlines(mean_ev, xs[0] - 0.4, xs[-1] + 0.4, colors="black", linewidth=1.2)
        ax_e.bar(xs, [r["ev"] for r in spans[k][2]], width=0.85, color=f"C{k % 10}", alpha=0.8, label=g)
        for ax, top in ((ax_f, 1.02), (ax_e, None)):
            if top is not None:
                ax.text((xs[0] + xs[-1]) / 2, top, g.replace(" ", "\n"), ha="center", va="bottom", fontsize=7)
    total = report["total"]
    ax_f.axhline(1 - total["bet"], color="gray", linestyle="--", linewidth=1)
    ax_f.set_ylim(0, 1)
    ax_f.set_ylabel("root frequency (player 0)")
    ax_f.set_title(title or f"(a) player 0's root actions on {n} flops, grouped by texture (bets on top; black: "
                   f"1 - the group's weighted bet frequency; dashed: 1 - the weighted total, {total['bet']:.1%})",
                   fontsize=9, pad=24)
    ax_f.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    ax_e.axhline(total["ev"], color="gray", linestyle="--", linewidth=1)
    ax_e.axhline(0, color="black", linewidth=0.5)
    ax_e.set_ylabel(f"EV, chips (pot {report['pot']:g})")
    ax_e.set_title(f"(b) player 0's EV by flop, same order (black: the group's weighted mean; dashed: weighted "
                   f"total {total['ev']:+.3f})", fontsize=9)
    ax_e.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.0, 1.0))
    for ax in (ax_f, ax_e):
        ax.set_xlim(-1, x - 1)
        if n <= 250:
            ax.set_xticks(xs_all)
            ax.set_xticklabels(labels, rotation=90, fontsize=6, family="monospace")
        else:
            ax.set_xticks([])
    table = heatmap_table(report)
    ax_h = fig.add_subplot(grid[2])
    values = np.array([[np.nan if v is None else v for v in row] for row in table["bet"]], dtype=float)
    image = ax_h.imshow(values, cmap="viridis", vmin=0, vmax=1, aspect="auto")
    ax_h.set_xticks(range(len(table["highs"])), table["highs"])
    ax_h.set_yticks(range(len(table["textures"])), table["textures"])
    ax_h.set_xlabel("high card")
    for i, row in enumerate(table["bet"]):
        for j, v in enumerate(row):
            if v is not None:
                ax_h.text(j, i, f"{v:.0%}\n{table['flops'][i][j]} fl", ha="center", va="center", fontsize=7,
                          color="white" if v < 0.55 else "black")
    fig.colorbar(image, ax=ax_h, label="weighted bet frequency", fraction=0.03)
    ax_h.set_title("(c) player 0's bet frequency by high card x texture (paired: trips included), each flop "
                   "weighted by its class weight; blank: no flop", fontsize=9)
    save_figure(fig, path)


def _action_name(action: str, pot: float) -> str:
    """``c`` check, ``b5`` bet 5 (50 % pot), ``a`` all-in."""
    if action == "c":
        return "check"
    if action == "a":
        return "all-in"
    if action[:1] in ("b", "r"):
        try:
            return f"bet {action[1:]} ({float(action[1:]) / pot:.0%} pot)"
        except ValueError:
            return action
    return action
