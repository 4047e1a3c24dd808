"""One spot template solved on every flop of a set: each flop to a target in % of the pot, each
result written at once to a results folder.

A *template* is a hold'em spot file (:mod:`zerosum.poker.spots`) whose board is replaced by each
flop (a spot without ``board``, or with a flop of 3 cards; a turn or river board is refused: a
batch varies the flop).  :func:`solve_flop` runs what ``zerosum solve holdem --spot FILE
--target-nashconv X --checkpoints 10,20,...`` runs on that flop: the public tree with suit
isomorphism, DCFR with its average restarted at the powers of 4 (the command's default), the
tree's default dtype, a check of the average's NashConv every
``check_every`` iterations and a stop at the first check where exploitability (NashConv / 2) is
at most ``target`` % of the starting pot (or at ``max_iterations``); so the value, NashConv and
iterations are that command's.

:func:`run_batch` solves the flops of a set in a plain loop (one worker, no Ray) or as Ray tasks
(one CPU each, at most ``workers`` in flight; ``ray="auto"`` a local instance, ``HOST:PORT`` a
cluster), and writes each finished flop to ``FOLDER/FLOP.json`` atomically as it arrives (the
fields are in docs/batch.md).  A flop whose file exists with the template's hash (the template's
spot less its board, the target and the solver settings) is not solved again, so a batch that
was stopped (Ctrl-C, a lost worker, a killed driver) resumes where it stopped and loses at most
the flops in flight.  ``FOLDER/batch.json`` holds the template, its hash and the flop set.
"""

from __future__ import annotations

import hashlib
import json
import os
import time
from pathlib import Path

import numpy as np

from ..errors import ZerosumError
from .flops import FlopClass, canonical, flop_set, texture

FORMAT = "zerosum.batch-flop"
VERSION = 2  # 2: the root's EVs by class and by action (2026-12-06)
MANIFEST = "batch.json"
#: the solver a batch runs (zerosum solve holdem's default) and how often it checks the target
ALGORITHM, CHECK_EVERY, MAX_ITERATIONS = "dcfr", 10, 1000
#: the options of ``zerosum solve holdem``'s default algorithm (its average restarted at the powers
#: of 4, its negative regrets' factor (t / 20)^0.5 / ((t / 20)^0.5 + 1):
#: :data:`zerosum.cli.imperfect.DEFAULT_OPTIONS`), which ``dcfr`` here runs with
DCFR_OPTIONS = {"restart": 4, "restart_until": 64, "beta": 0.5, "beta_scale": 20}


def load_template(template) -> dict:
    """The template's spot (a dict as read from JSON) from a path or a dict; its board, if any, must be
    a flop (the batch replaces it); checked by reading it on a placeholder flop."""
    from ..poker.spots import spot_params

    if isinstance(template, (str, os.PathLike)):
        try:
            spot = json.loads(Path(template).read_text(encoding="utf-8"))
        except OSError as e:
            raise ZerosumError(f"cannot read spot file {str(template)!r}: {e.strerror or e}") from None
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise ZerosumError(f"spot file {str(template)!r} is not JSON: {e}") from None
        where = str(template)
    else:
        spot, where = dict(template), "template"
    if not isinstance(spot, dict):
        raise ZerosumError(f"{where}: a spot is a JSON object")
    board = str(spot.get("board", "") or "").replace(" ", "")
    if len(board) not in (0, 6):
        raise ZerosumError(f"{where}: a batch replaces the spot's flop, so its board is a flop (3 cards) or "
                           f"absent, got {board!r}")
    spot_params({**spot, "board": "AsKhQd"}, where)  # the fields checked before any work
    spot.pop("board", None)
    check_suits(spot, where)
    return spot


def check_suits(spot: dict, where: str = "template") -> None:
    """Refuse (one line) a template whose ranges do not treat the four suits alike (``AsKs``,
    ``AhKh:0.5``, ...): a flop class's weight counts flops that differ only by their suits, which such
    a spot does not play the same.  Each range's 1,326 weights are compared with themselves under
    the 23 other suit permutations (whatever the range's syntax)."""
    from ..poker.cards import hole_pairs, pair_index_table, pair_str
    from ..poker.spots import spot_params
    from .flops import SUIT_PERMUTATIONS

    params = spot_params({**spot, "board": "AsKhQd"}, where)
    pairs, index = hole_pairs(), pair_index_table()
    for player, key in enumerate(("range0", "range1")):
        weights = parse_range_weights(params.get(key, ""))
        for perm in SUIT_PERMUTATIONS[1:]:
            p = np.asarray(perm)
            image = index[4 * (pairs[:, 0] >> 2) + p[pairs[:, 0] & 3], 4 * (pairs[:, 1] >> 2) + p[pairs[:, 1] & 3]]
            differ = np.flatnonzero(~np.isclose(weights[image], weights))  # a pair and its image differ
            if differ.size:
                i = int(differ[np.argmax(weights[differ])])  # one the range holds
                k = int(image[i])
                raise ZerosumError(
                    f"{where}: player {player}'s range {params.get(key)!r} names specific suits ({pair_str(i)} "
                    f"{weights[i]:g} but {pair_str(k)} {weights[k]:g}); a batch weights each flop class by the "
                    f"flops it stands for, which assumes every suit plays alike: write the range without suits "
                    f"(AKs, AKo, AK, QQ)")


def parse_range_weights(text) -> np.ndarray:
    """A range's (1326,) weights over ``hole_pairs()``, no card dead."""
    from ..poker.ranges import parse_range

    return np.asarray(parse_range(text), dtype=np.float64)


#: a worker's memory besides its tree: Python, numpy, numba's compiled kernels, Ray's worker
#: (measured: 204 MiB peak RSS for a whole one-process batch of the tiny template, whose trees the
#: estimate puts at 71 MB; a Ray worker adds its own libraries: rounded up)
TASK_BASE_BYTES = 300 * 1024 ** 2
#: the flops of a set whose estimates :func:`task_memory` computes (those leaving the most hands)
ESTIMATED_FLOPS = 3


def task_memory(spot: dict, flops) -> dict:
    """A flop task's memory, estimated before any solve: the hold'em game's own estimate of its
    public tree (``HoldemGame.estimated_sizes()["public_bytes"]``: the tree without suit
    isomorphism, an upper bound of the tree a batch builds) on the flops of ``flops`` that leave the
    most hands in the two ranges (the public nodes are the same on every flop; the hands are not),
    plus :data:`TASK_BASE_BYTES`.  Returns ``bytes``, ``tree_bytes``, ``flop`` (the largest),
    ``public_nodes`` and ``hands``."""
    from ..games import load_game
    from ..poker.cards import hole_pairs, pair_index_table, parse_cards
    from ..poker.spots import spot_params

    params = spot_params({**spot, "board": "AsKhQd"})
    held = [parse_range_weights(params.get(k, "")) > 0 for k in ("range0", "range1")]
    names = sorted({c.flop if isinstance(c, FlopClass) else canonical(c) for c in flops})
    if not names:
        raise ZerosumError("no flop to estimate")

    # the hands each flop leaves (the union's, then both players'), all flops at once: a held pair
    # is blocked if it holds a flop card (inclusion-exclusion over the flop's three cards)
    cards = np.array([parse_cards(f) for f in names], dtype=np.int64)  # [flops x 3]
    pairs, index = hole_pairs(), pair_index_table()
    pair_of = [index[cards[:, a], cards[:, b]] for a, b in ((0, 1), (0, 2), (1, 2))]

    def left(mask):
        touching = np.bincount(pairs[mask].ravel(), minlength=52)  # held pairs holding each card
        blocked = touching[cards].sum(axis=1) - sum(mask[p].astype(np.int64) for p in pair_of)
        return int(np.count_nonzero(mask)) - blocked

    size = left(held[0] | held[1]) * 10_000 + left(held[0]) + left(held[1])
    biggest = [names[i] for i in np.argsort(-size, kind="stable")[:ESTIMATED_FLOPS]]
    best = None
    for flop in biggest:
        game = load_game("holdem", **spot_params({**spot, "board": flop}), max_bytes=1 << 62)
        est = game.estimated_sizes()
        if best is None or est["public_bytes"] > best["tree_bytes"]:
            best = {"bytes": int(est["public_bytes"]) + TASK_BASE_BYTES, "tree_bytes": int(est["public_bytes"]),
                    "flop": flop, "public_nodes": int(est["public_nodes"]), "hands": len(game.hands)}
    return best


def worker_memory(workers: int, nodes: list | None = None) -> tuple[int, str]:
    """The memory a flop task may take, and how it was found: on this machine 70 % of the memory
    available now (:func:`zerosum.core.memory.memory_limit`) shared by the ``workers``; on a Ray
    cluster (``nodes`` as ``ray.nodes()`` lists them) the smallest share of a node, its memory
    resource divided by its CPUs (a node runs a task a CPU)."""
    if nodes is None:
        from ..core.memory import memory_limit

        total = memory_limit()
        return total // max(workers, 1), f"70 % of this machine's available memory ({total / 1e9:.1f} GB) / {workers} workers"
    shares = [(float(n["Resources"].get("memory", 0)) / float(n["Resources"]["CPU"]), n.get("NodeManagerAddress", "?"))
              for n in nodes if n.get("Alive", True) and float(n.get("Resources", {}).get("CPU", 0)) > 0]
    if not shares:
        raise ZerosumError("the Ray cluster has no node with a CPU")
    share, node = min(shares)
    return int(share), f"the Ray node {node}'s memory a CPU"


def check_memory(estimate: dict, share: int, how: str) -> None:
    """Refuse (one line) a task whose estimate is above a worker's share."""
    if estimate["bytes"] > share:
        raise ZerosumError(
            f"a flop task of this template needs about {estimate['bytes'] / 1e9:.2f} GB (flop {estimate['flop']}: "
            f"{estimate['public_nodes']:,} public nodes x {estimate['hands']:,} hands), more than a worker's "
            f"{share / 1e9:.2f} GB ({how}); use fewer workers, narrower ranges, fewer sizes or a later street")


def template_hash(spot: dict, target: float, algorithm: str = ALGORITHM, check_every: int = CHECK_EVERY,
                  max_iterations: int = MAX_ITERATIONS) -> str:
    """What a result depends on: the spot less its board and text fields, the target, the solver."""
    solved = {k: v for k, v in spot.items() if k not in ("board", "name", "notes") and not k.endswith("_note")}
    key = {"spot": solved, "target": float(target), "algorithm": algorithm, "check_every": int(check_every),
           "options": DCFR_OPTIONS if algorithm == "dcfr" else {},
           "max_iterations": int(max_iterations), "version": VERSION}
    return hashlib.sha256(json.dumps(key, sort_keys=True).encode()).hexdigest()[:16]


def parse_target(target) -> float:
    """``"0.5%"``, ``"0.5"`` or 0.5: the target exploitability in % of the starting pot."""
    text = str(target).strip().removesuffix("%").strip()
    try:
        value = float(text)
    except ValueError:
        raise ZerosumError(f"the target is a percentage of the pot such as 0.5%, got {target!r}") from None
    if not value > 0:
        raise ZerosumError(f"the target must be above 0 % of the pot, got {target!r}")
    return value


def root_values(tree, policy) -> dict:
    """Per hand at the root (player 0's decision before any card), from the solver's own
    depth-first pass (:func:`zerosum.solutions.analysis.node_values`, EXPECT, both players) at
    each root child: ``ev`` (two vectors: each player's EV in net chips given the hand, cfv / D
    as in :mod:`zerosum.solutions.analysis`; NaN where the hand cannot be held), ``action_ev``
    ([actions x player 0's hands]: player 0's EV had the hand taken that action, then followed
    the strategy: the action's child's counterfactual value / D; ``ev[0]`` is its mix by the
    root strategy), ``probability`` (two vectors, P(hand) = reach x D, summing to 1: the root is
    reached) and ``strategy`` (the root's [actions x hands]).  The root's hands are the whole
    ranges on a suit-isomorphic tree too (its mirrors are deals below chance), so this reads the
    tree a batch solves; the cost is one iteration's two passes."""
    from ..public_tree.form import DECISION
    from ..solutions.analysis import Boards, node_values

    if int(tree.kind[0]) != DECISION or int(tree.player[0]) != 0:
        raise ZerosumError("a batch's root is player 0's decision")
    boards = Boards(tree)
    strategy = np.asarray(policy.table(0), dtype=np.float64)  # [actions x hands]
    first, count = int(tree.first_child[0]), int(tree.n_children[0])
    kids = [node_values(tree, policy, c, boards=boards) for c in range(first, first + count)]
    reach = [np.asarray(tree.ranges[p], dtype=np.float64) for p in (0, 1)]
    w, _ = boards.get(int(tree.board[0]))
    den = [w @ reach[1], w.T @ reach[0]]  # D at the root (= at its children: player 1 has not acted)
    cfv_a = np.array([k["cfv"][0] for k in kids])  # player 0's value of each action, per hand
    # the root's values: player 0's mixes its actions by the strategy; player 1's sums the children
    # (each child's reach holds player 0's probability of that action)
    cfv = [(strategy * cfv_a).sum(axis=0), np.sum([k["cfv"][1] for k in kids], axis=0)]
    with np.errstate(invalid="ignore", divide="ignore"):
        ev = [np.where(d > 0, c / np.where(d > 0, d, 1.0), np.nan) for c, d in zip(cfv, den)]
        action_ev = np.where(den[0] > 0, cfv_a / np.where(den[0] > 0, den[0], 1.0), np.nan)
    return {"ev": ev, "action_ev": action_ev, "probability": [r * d for r, d in zip(reach, den)],
            "cfv": cfv, "strategy": strategy}


def _by_class(labels, prob: np.ndarray, values: dict) -> dict:
    """Per 13x13 class held (P(hand) > 0): ``weight`` (its share of P(hand)) and the P(hand)-weighted
    mean of each of ``values`` (name: [hands] or [k x hands] with a list of k names)."""
    from ..poker.cards import hand_class

    total = prob.sum()
    out: dict[str, dict] = {}
    sums: dict[str, list] = {}
    for i in np.flatnonzero(prob > 0):
        name = hand_class(labels[i])
        entry = sums.setdefault(name, [0.0, {k: 0.0 for k in values}])
        entry[0] += float(prob[i])
        for k, v in values.items():
            entry[1][k] = entry[1][k] + v[..., i] * prob[i]
    for name, (weight, s) in sums.items():
        out[name] = {"weight": weight / total, **{k: v / weight for k, v in s.items()}}
    return out


def _root_report(tree, policy) -> dict:
    """Player 0's root: each action's frequency (the hands weighted by P(hand) = range x the
    opponent's range that shares no card with it), and the same by 13x13 class; the EVs of
    :func:`root_values` by class (player 0: overall and by action; player 1: overall) and player
    0's by action over the whole range (each P(hand)-weighted)."""
    table = np.asarray(policy.table(0), dtype=np.float64)  # [actions x hands]
    r0, r1 = (np.asarray(tree.ranges[p], dtype=np.float64) for p in (0, 1))
    c0, c1 = tree.hand_cards(0), tree.hand_cards(1)
    share = ((c0[:, None, 0] == c1[None, :, 0]) | (c0[:, None, 0] == c1[None, :, 1]) |
             (c0[:, None, 1] == c1[None, :, 0]) | (c0[:, None, 1] == c1[None, :, 1]))
    prob = r0 * ((~share).astype(np.float64) @ r1)
    prob = prob / prob.sum()
    actions = list(tree.action_labels[0])
    freq = table @ prob
    values = root_values(tree, policy)
    ev0 = np.nan_to_num(values["ev"][0])  # NaN only where P(hand) = 0, which no mean reads
    act0 = np.nan_to_num(values["action_ev"])
    classes = _by_class(tree.hand_labels[0], prob, {"strategy": table, "ev": ev0, "action_ev": act0})
    by_class = {name: {"weight": e["weight"], "frequencies": dict(zip(actions, e["strategy"].tolist())),
                       "ev": float(e["ev"]), "action_ev": dict(zip(actions, e["action_ev"].tolist()))}
                for name, e in classes.items()}
    p1 = values["probability"][1]
    opponent = _by_class(tree.hand_labels[1], p1 / p1.sum(), {"ev": np.nan_to_num(values["ev"][1])})
    return {"actions": actions, "frequencies": dict(zip(actions, freq.tolist())), "classes": by_class,
            "action_ev": dict(zip(actions, (act0 @ prob).tolist())),
            "opponent_classes": {name: {"weight": e["weight"], "ev": float(e["ev"])} for name, e in opponent.items()}}


def solve_flop(spot: dict, flop: str, target: float, algorithm: str = ALGORITHM, check_every: int = CHECK_EVERY,
               max_iterations: int = MAX_ITERATIONS, save_solution: bool = False) -> dict:
    """The template ``spot`` solved on ``flop`` to ``target`` % of the pot (see the module
    docstring); the result dict written to the results folder, less the set's ``weight``.
    ``save_solution``: also the whole average strategy (on the whole tree) as a ``.zsp`` solution file's bytes
    (``"_solution"``, which :func:`run_batch` writes beside the result: a Ray task returns it, so
    a cluster's workers need no shared folder)."""
    from ..games import load_game
    from ..poker.spots import spot_params
    from ..public_tree.holdem_build import holdem_public_tree
    from ..public_tree.solver import default_dtype, public_solver
    from ..solutions.saved import save_policy

    t0 = time.perf_counter()
    game = load_game("holdem", **spot_params({**spot, "board": flop}))
    # the tree zerosum solve holdem builds (suit isomorphism on), without the cache of built trees:
    # a batch builds one tree per flop
    tree = holdem_public_tree(game, isomorphism=True)
    t1 = time.perf_counter()
    solver = public_solver(algorithm, tree, default_dtype(tree, algorithm), **(DCFR_OPTIONS if algorithm == "dcfr" else {}))
    goal = 2 * target / 100 * tree.pot  # NashConv = 2 x exploitability

    def stop(row=None):
        return "target" if row is not None and row["nash_conv_average"] <= goal else None

    marks = list(range(check_every, max_iterations + 1, check_every))
    rows = solver.run(max_iterations, marks, stop=stop)
    t2 = time.perf_counter()
    average = solver.average_policy()
    root = _root_report(tree, average)
    last = rows[-1]
    extra = {}
    if save_solution:
        import tempfile

        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "solution.zsp"
            # on the whole tree, as zerosum solve holdem --save writes it (what evaluate --spot builds)
            whole = average if tree.iso is None else average.on_full_tree(holdem_public_tree(game, isomorphism=False))
            save_policy(whole, path)
            extra["_solution"] = path.read_bytes()
    t3 = time.perf_counter()
    return {**extra, "format": FORMAT, "version": VERSION, "flop": canonical(flop), "board": flop,
            "count": _count(canonical(flop)), "texture": texture(flop), "player": 0,
            "actions": root["actions"], "frequencies": root["frequencies"],
            "ev": last["value_average"], "value": last["value_average"], "pot": tree.pot,
            "nash_conv": last["nash_conv_average"], "exploitability": last["nash_conv_average"] / 2,
            "exploitability_pct": 100 * last["nash_conv_average"] / 2 / tree.pot, "target_pct": target,
            "reached": last["nash_conv_average"] <= goal, "iterations": solver.iteration, "algorithm": algorithm,
            "dtype": solver.dtype, "public_nodes": tree.n_nodes,
            "seconds": {"build": t1 - t0, "solve": t2 - t1, "report": t3 - t2, "total": t3 - t0},
            "classes": root["classes"], "action_ev": root["action_ev"],
            "opponent_classes": root["opponent_classes"]}


def _count(flop: str) -> int:
    from .flops import _classes

    return next(c.count for c in _classes() if c.flop == flop)


def _write(path: Path, result: dict) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def done_flops(folder, digest: str) -> dict[str, dict]:
    """The results in ``folder`` solved with the template of hash ``digest``, by flop."""
    out = {}
    for path in sorted(Path(folder).glob("*.json")):
        if path.name == MANIFEST:
            continue
        try:
            result = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            continue  # a broken file (never written whole) is solved again
        if isinstance(result, dict) and result.get("format") == FORMAT and result.get("template_hash") == digest:
            out[result["flop"]] = result
    return out


def run_batch(template, flops, target, out, workers: int | None = None, ray: str | None = None,
              limit: int | None = None, progress=None, algorithm: str = ALGORITHM, check_every: int = CHECK_EVERY,
              max_iterations: int = MAX_ITERATIONS, worker_bytes: int | None = None,
              save_solutions: bool = False) -> dict:
    """Solve ``template`` (a spot file or dict) on every flop of ``flops`` (a set's name, see
    :func:`~zerosum.batch.flops.flop_set`, or a list of :class:`FlopClass`) to ``target`` (% of
    the pot: ``0.5`` or ``"0.5%"``), writing each result to the folder ``out``.

    ``workers=1`` without ``ray``: a plain loop in this process; otherwise Ray tasks (``ray``
    None means a local instance, ``"auto"``; ``workers`` None: the cluster's CPUs).  Flops already
    in ``out`` with this template's hash are skipped; ``limit`` solves at most that many this time.
    ``progress(event)`` is called after each flop with ``done``, ``total``, ``flop``, ``seconds``
    (elapsed) and ``eta`` (seconds, None before the first).  Returns the summary (docs/batch.md).

    Before any flop: a task's memory is estimated (:func:`task_memory`) and a template larger than a
    worker's share (:func:`worker_memory`, or ``worker_bytes`` if given) is refused in one line.
    ``save_solutions``: each flop's whole solution also written, ``FOLDER/FLOP.zsp`` (the result's
    ``solution`` names it; ``zerosum evaluate holdem FILE.zsp --spot`` reads it)."""
    from ..distributed.ray_runtime import check_workers

    check_workers(workers)
    spot = load_template(template)
    target = parse_target(target)
    chosen = flop_set(flops) if isinstance(flops, str) else list(flops)
    if not chosen or not all(isinstance(c, FlopClass) for c in chosen):
        raise ZerosumError("flops: a flop set's name or a list of FlopClass")
    if limit is not None and limit < 0:
        raise ZerosumError(f"the limit must be at least 0, got {limit}")
    digest = template_hash(spot, target, algorithm, check_every, max_iterations)
    use_ray = ray is not None or workers != 1
    local = ray is None or ray == "auto"
    estimate = task_memory(spot, chosen)
    if worker_bytes is not None:
        check_memory(estimate, int(worker_bytes), "worker_bytes")
    elif local:  # a cluster's nodes are known once Ray is joined (_run_on_ray), still before any flop
        n = workers if workers is not None else (os.cpu_count() or 1)
        check_memory(estimate, *worker_memory(n))
    folder = Path(out)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        raise ZerosumError(f"cannot create the results folder {str(folder)!r}: {e.strerror or e}") from None
    weights = {c.flop: c.weight for c in chosen}
    manifest = {"format": "zerosum.batch", "version": VERSION, "template": spot, "template_hash": digest,
                "target_pct": target, "algorithm": algorithm, "check_every": check_every,
                "max_iterations": max_iterations, "flops": flops if isinstance(flops, str) else "list",
                "weights": weights}
    _write(folder / MANIFEST, manifest)
    done = done_flops(folder, digest)
    for flop, result in done.items():  # the set gives the weight: a file kept from another set takes this one's
        if flop in weights and result.get("weight") != weights[flop]:
            _write(folder / f"{flop}.json", {**result, "weight": weights[flop]})
    if save_solutions:  # a flop solved before without its solution is solved again
        done = {f: r for f, r in done.items() if (folder / f"{f}.zsp").exists()}
    todo = [c.flop for c in chosen if c.flop not in done]
    if limit is not None:
        todo = todo[:limit]
    t0 = time.perf_counter()
    state = {"solved": 0, "first": None}

    def finish(result: dict) -> None:
        result.update(weight=weights[result["flop"]], template_hash=digest)
        solution = result.pop("_solution", None)
        if solution is not None:
            from ..files import write_atomic

            write_atomic(folder / f"{result['flop']}.zsp", lambda tmp: Path(tmp).write_bytes(solution))
            result["solution"] = f"{result['flop']}.zsp"
        _write(folder / f"{result['flop']}.json", result)
        state["solved"] += 1
        if progress is not None:
            elapsed = time.perf_counter() - t0
            left = len(todo) - state["solved"]
            # the rate since the first flop came back (Ray's start-up and the first compiled calls
            # are not the rate of the rest); from the first flop alone before
            first = state["first"] = elapsed if state["first"] is None else state["first"]
            rate = (elapsed - first) / (state["solved"] - 1) if state["solved"] > 1 else elapsed
            progress({"done": state["solved"], "total": len(todo), "flop": result["flop"], "seconds": elapsed,
                      "eta": rate * left,
                      "exploitability_pct": result["exploitability_pct"], "iterations": result["iterations"]})

    args = (target, algorithm, check_every, max_iterations, save_solutions)
    n_workers = 1
    if not use_ray:
        for flop in todo:
            finish(solve_flop(spot, flop, *args))
    elif todo:
        n_workers = _run_on_ray(spot, todo, args, ray or "auto", workers, finish,
                                None if local or worker_bytes is not None else estimate)
    elapsed = time.perf_counter() - t0
    return {"folder": str(folder), "template_hash": digest, "target_pct": target, "flops": len(chosen),
            "already_done": len(set(weights) & set(done)),
            "solved": state["solved"], "left": len(chosen) - len(done) - state["solved"],
            "seconds": elapsed, "flops_per_hour": 3600 * state["solved"] / elapsed if state["solved"] else None,
            "workers": n_workers, "ray": use_ray, "task_bytes": estimate["bytes"]}


def _run_on_ray(spot, todo, args, address, workers, finish, estimate=None) -> int:
    """Each flop a Ray task of one CPU, at most the workers' count in flight; ``finish`` each result
    as it comes (so a lost worker loses only its flop in flight).  ``estimate`` (a cluster's): a
    task's memory, checked against the nodes' before any task starts."""
    from ..distributed.ray_runtime import import_ray, start

    n = start(address, workers)
    rt = import_ray()
    if estimate is not None:
        check_memory(estimate, *worker_memory(n, rt.nodes()))
    task = rt.remote(num_cpus=1)(solve_flop)
    spot_ref = rt.put(spot)
    pending, next_flop = {}, 0
    try:
        while next_flop < len(todo) or pending:
            while next_flop < len(todo) and len(pending) < n:
                pending[task.remote(spot_ref, todo[next_flop], *args)] = todo[next_flop]
                next_flop += 1
            ready, _ = rt.wait(list(pending), num_returns=1)
            for ref in ready:
                flop = pending.pop(ref)
                try:
                    result = rt.get(ref)
                except Exception as exc:  # noqa: BLE001 (a task's error or a lost worker: one line)
                    first = str(exc).strip().splitlines()[-1] if str(exc).strip() else type(exc).__name__
                    raise ZerosumError(f"flop {flop} failed on Ray: {first}") from None
                finish(result)
    finally:
        for ref in pending:
            rt.cancel(ref, force=True)
    return n
