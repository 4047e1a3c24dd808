"""What ``zerosum solve`` and ``zerosum evaluate`` need for the public tree.

``--form public-tree|history-tree`` picks the compiled form; the default is the public tree for
games that have one (the poker family, hold'em subgames) and the history tree otherwise.  The
solve result has the usual fields plus ``form``, ``pot``, ``histories`` (what the per-history tree
would have), ``public_nodes``, ``infoset_actions``, ``bytes`` (solver state and working vectors)
and ``compile_s``.
"""

from __future__ import annotations

import json
import time
from pathlib import Path

import numpy as np

from ..errors import ZerosumError
from ..public_tree.compile import built, has_public_tree, public_tree
from ..solvers import capabilities
from .common import parse_params, progress_status, short_id
from .runs import resume, run_iterations, solve_result, write_outputs

FORMS = ("public-tree", "history-tree")
#: how many of player 0's hands (or first information sets) the text report lists; --json has all
FIRST_ACTION_HANDS = 13


def resolve_form(game, form: str | None, algorithm: str | None = None, simultaneous: bool = False) -> str:
    """The form to compile ``game`` to; refuses one it does not have or cannot hold, before any work.
    Without ``--form``: the public tree where the game has one and the algorithm runs on it
    (alternating CFR-family updates), the history tree otherwise."""
    from ..public_tree.solver import VARIANTS

    runs_there = algorithm is None or (algorithm in VARIANTS and not simultaneous)
    asked_history = form == "history-tree"
    if form is None:
        form = "public-tree" if has_public_tree(game) and runs_there else "history-tree"
    if form not in FORMS:
        raise ZerosumError(f"unknown form {form!r}; choose public-tree or history-tree")
    from ..solvers import SOLVERS

    if algorithm in VARIANTS and algorithm not in SOLVERS:  # pcs-mccfr: no history-tree twin
        if not has_public_tree(game):
            raise ZerosumError(f"{algorithm} runs on the public tree only, which {game.id} does not have (only "
                               f"the poker family and holdem do); use -a es-mccfr (sampling on the history "
                               f"tree) or -a cfr+")
        if asked_history:
            raise ZerosumError(f"{algorithm} runs on the public tree only; drop --form history-tree, or use "
                               f"-a es-mccfr for sampling on the history tree")
    if form == "public-tree" and not has_public_tree(game):
        raise ZerosumError(f"{game.id} has no public-tree form (only the poker family and holdem do); "
                           f"use --form history-tree")
    # Every refusal names a command that works: "--form history-tree" only where the history tree
    # fits, and a public-tree algorithm (without --simultaneous) where it does not.
    why = None if runs_there else ("the public tree runs alternating updates only" if algorithm in VARIANTS
                                   else f"{algorithm} does not run on the public tree")
    if why and (form == "public-tree" or hasattr(game, "check_history_tree")):
        too_big = history_tree_refusal(game)
        fix = ("drop --simultaneous" if algorithm in VARIANTS else
               f"use -a cfr+ or another public-tree algorithm ({', '.join(VARIANTS)})")
        if too_big:
            raise ZerosumError(f"{why}, and {too_big}; {fix}" + (" without --form history-tree" if asked_history
                                                                 else ""))
        if form == "public-tree":
            raise ZerosumError(f"{why}; {fix}, or --form history-tree")
    if form == "history-tree" and hasattr(game, "check_history_tree"):  # the poker family, hold'em: exact counts
        game.check_history_tree()
    return form


def history_tree_refusal(game) -> str | None:
    """Why ``game``'s history tree would not fit (its size estimate), or None where it fits."""
    if not hasattr(game, "check_history_tree"):
        return None
    try:
        game.check_history_tree()
    except ZerosumError as e:
        return str(e).split("; use ")[0]
    return None


def _split_options(options, tree=None, algorithm: str | None = None) -> tuple[dict, str]:
    """The options less ``dtype``, and the dtype: asked for, else the tree's default for
    ``algorithm`` (:func:`~zerosum.public_tree.solver.default_dtype`: float32 for large hold'em
    trees, avg16 for a flop's; float sums where a lock is asked for)."""
    from ..public_tree.solver import default_dtype

    kwargs = parse_params(options, flag="--option")
    dtype = kwargs.pop("dtype", None)
    if dtype is None:
        dtype = default_dtype(tree, algorithm, floats="lock" in kwargs) if tree is not None else "float64"
    return kwargs, str(dtype)


def saved_tree_options(resume_path, options) -> tuple:
    """``options`` plus the saved run's ``dtype`` and ``isomorphism`` where a resumed state has them
    and the command line does not say (a run resumes as it was saved)."""
    if not resume_path:
        return tuple(options)
    given = {str(o).split("=", 1)[0].strip() for o in options}
    try:
        with np.load(resume_path, allow_pickle=False) as data:
            saved = {k: data[k].item() for k in ("dtype", "isomorphism") if k in data.files}
    except Exception:  # noqa: BLE001  (an unreadable file is refused with its own message when it is loaded)
        return tuple(options)
    extra = [f"dtype={saved['dtype']}"] if "dtype" in saved and "dtype" not in given else []
    if saved.get("isomorphism") and "isomorphism" not in given:
        extra.append("isomorphism=true")
    return (*options, *extra)


def make_public_solver(algorithm: str, tree, simultaneous: bool = False, seed=None, options=()):
    import inspect

    from ..public_tree.solver import VARIANTS, public_solver_class

    kwargs, dtype = _split_options(options, tree, algorithm)
    lock_path = kwargs.pop("lock", None)  # --option lock=FILE.json: node locking (public_tree.locking)
    checks = str(kwargs.pop("checks", "full"))  # --option checks=average: the average's NashConv only
    if checks not in ("full", "average"):
        raise ZerosumError(f"--option checks takes full or average, got {checks!r}")
    threads = kwargs.pop("threads", None)  # --option threads=N: the depth-first pass's threads
    prune = kwargs.pop("prune", None)  # --option prune=1: the work below an all-zero opponent reach skipped
    if algorithm not in VARIANTS:
        raise ZerosumError(f"{algorithm} does not run on the public tree; use one of {', '.join(VARIANTS)} "
                           f"or --form history-tree")
    if simultaneous:
        raise ZerosumError("the public tree runs alternating updates only; drop --simultaneous or use "
                           "--form history-tree")
    cls = public_solver_class(algorithm, dtype)
    accepted = [k for k in inspect.signature(cls.__init__).parameters
                if k not in ("self", "game", "alternating", "dtype")]
    # the sampler's seed is --seed, as for the history tree's samplers (es-mccfr, os-mccfr, ...)
    row = capabilities.algorithm(algorithm)
    takes = ", ".join(["--seed" if k == "seed" else f"--option {k}" for k in accepted] + ["--option dtype",
                                                                                          "--option checks"] +
                      (["--option threads"] if row.runs_with("threads") else []) +
                      (["--option prune"] if row.runs_with("prune") else []))
    if threads is not None:
        capabilities.require(algorithm, "threads", "drop --option threads")
        kwargs["threads"] = threads
    if prune is not None:
        capabilities.require(algorithm, "prune", "drop --option prune")
        kwargs["prune"] = prune
    if "seed" in kwargs:
        raise ZerosumError(f"{algorithm} takes its seed as --seed {kwargs['seed']}, not --option seed")
    if seed is not None:
        if "seed" not in accepted:
            raise ZerosumError(f"{algorithm} does not take --seed (it is not sampled); it takes {takes}")
        kwargs["seed"] = seed
    for key in kwargs:
        if key not in accepted and key not in ("threads", "prune"):
            raise ZerosumError(f"{algorithm} does not take --option {key}; it takes {takes}")
    if lock_path is None:
        solver = cls(tree, **kwargs)
        solver.light_checks = checks == "average"
        return solver
    from ..public_tree.locking import load_locks, lock_solver

    capabilities.require(algorithm, "locks", "drop --option lock")
    return lock_solver(cls(tree, **kwargs), load_locks(tree, str(lock_path)))


_RANKS = "23456789TJQKA"


def _hand_order(label: str) -> tuple:
    """Hands in the order a player reads a range: higher first card first, then higher second card
    (``AsAh`` ... ``AhKd`` ... ``3c2d``); the suits break ties.  Non-card labels keep their place."""
    cards = [label[i:i + 2] for i in range(0, min(len(label), 4), 2)]
    if len(cards) != 2 or any(c[0] not in _RANKS for c in cards):
        return (0,)
    ranks = sorted((_RANKS.index(c[0]) for c in cards), reverse=True)
    return (-ranks[0], -ranks[1], label)


class RootPolicy:
    """The average strategy at the root only (what the report shows), read from a one-process
    solver's sums without normalizing the rest: ``tree`` and ``table(0)`` as a PublicPolicy has them."""

    def __init__(self, solver):
        self.tree = tree = solver.tree
        sums = solver.average_source()[int(tree.player[0])] if tree.kind[0] == 0 else None
        self._root = None
        if sums is not None:
            n, o, na = tree.n_hands[int(tree.player[0])], int(tree.offset[0]), int(tree.n_children[0])
            block = np.maximum(np.asarray(sums[o:o + na * n], dtype=np.float64).reshape(na, n), 0.0)
            total = block[0].copy()
            for a in range(1, na):  # (the actions in order, as the policy's normalization adds them)
                total += block[a]
            positive = total > 0
            self._root = np.where(positive, block / np.where(positive, total, 1.0), 1.0 / na)

    def table(self, node: int) -> np.ndarray:
        """[actions x hands] at the root (the only node this holds)."""
        if node != 0 or self._root is None:
            raise AssertionError("RootPolicy holds the root's table only")
        return self._root


def first_actions_public(policy) -> dict:
    """Player 0's action probabilities at the root, for every hand in player 0's range, strongest
    ranks first (the text report shows the first FIRST_ACTION_HANDS of them and says so)."""
    tree = policy.tree
    if tree.kind[0] != 0 or tree.player[0] != 0:
        return {}
    table = policy.table(0)
    in_range = sorted(np.flatnonzero(np.asarray(tree.ranges[0]) > 0),
                      key=lambda i: _hand_order(tree.hand_labels[0][i]))
    return {tree.hand_labels[0][i] + tree.labels[0]: {a: float(table[k, i]) for k, a in enumerate(tree.action_labels[0])}
            for i in in_range}


def public_sizes(tree, solver=None) -> dict:
    """The game's sizes as the history tree counts them: only hands of positive weight count (a
    hold'em tree lists each player's range only, but another game's list may hold a hand of weight
    0, with a slot and no information set); ``bytes`` is what the slots cost."""
    held = [int(np.count_nonzero(np.asarray(tree.ranges[p]) > 0)) for p in (0, 1)]
    infosets = [int(len(tree.decision_nodes(p)) * held[p]) for p in (0, 1)]
    ia = [int(tree.n_children[tree.decision_nodes(p)].sum()) * held[p] for p in (0, 1)]
    out = {"histories": tree.histories, "public_nodes": tree.n_nodes, "hands": held,
           "infosets": infosets, "infoset_actions": int(sum(ia))}
    if solver is not None:
        out["bytes"] = int(solver.nbytes() + tree.nbytes())
    return out


def public_tree_with_progress(game, enabled: bool = True, isomorphism: bool = False):
    """The public tree, with a spinner and the count of public nodes built (or occasional stderr
    lines when stderr is not a terminal) while it is built; the public-tree twin of the history
    tree's ``compile_with_progress`` (``enabled=False`` under --json)."""
    if built(game, isomorphism) is not None:
        return built(game, isomorphism)
    total = game.estimated_sizes()["public_nodes"]  # exact, or an upper bound where a stack cuts raises
    with progress_status(f"building the public tree of {game.id}", enabled=enabled) as update:
        update(f"0 / {total:,} public nodes")
        return public_tree(game, progress=lambda n: update(f"{n:,} / {total:,} public nodes"),
                           isomorphism=isomorphism)


def has_suits(game) -> bool:
    """Whether ``game``'s public tree takes suit isomorphism (its protocol's build options)."""
    return has_public_tree(game) and "isomorphism" in getattr(game, "public_tree_options", ())


def take_isomorphism(game, options, algorithm: str | None = None) -> tuple[bool, tuple]:
    """``--option isomorphism=true|false`` (a property of the tree, not of the solver: taken out
    of the options before the solver is made), and the other options.  Not given: on for hold'em
    (the same game solved with fewer nodes) where nothing that does not run with it is asked for
    (``pcs-mccfr``, ``--option lock``)."""

    rest, value = [], None
    for text in options:
        if str(text).split("=", 1)[0].strip() == "isomorphism":
            value = parse_params([text], flag="--option")["isomorphism"]
            if not isinstance(value, bool):
                raise ZerosumError(f"--option isomorphism takes true or false, got {value!r}")
        else:
            rest.append(text)
    if value is None:
        locked = any(str(t).split("=", 1)[0].strip() == "lock" for t in rest)
        row = capabilities.ALGORITHMS.get(algorithm)
        takes_it = row is None or row.runs_with("isomorphism")
        return has_suits(game) and takes_it and not locked, tuple(rest)
    if value and not has_suits(game):
        raise ZerosumError(f"--option isomorphism is for hold'em subgames (suits); {game.id} has none")
    return value, tuple(rest)


def solve_public(game, algorithm, iterations, marks, simultaneous, seed, options, state_path, resume_path, save_path,
                 quiet: bool, save_every=None, seconds=None, target=None) -> tuple[dict, list[str]]:
    """Run a CFR-family solver on the public tree: the result dict of ``zerosum solve`` and the
    messages of output files that could not be written."""
    t0 = time.perf_counter()
    options = saved_tree_options(resume_path, options)
    isomorphism, options = take_isomorphism(game, options, algorithm)
    tree = public_tree_with_progress(game, enabled=not quiet, isomorphism=isomorphism)
    compile_s = time.perf_counter() - t0
    if isomorphism and "lock" in parse_params(options, flag="--option"):
        raise ZerosumError("--option lock does not run with suit isomorphism yet; drop --option isomorphism")
    solver = make_public_solver(algorithm, tree, simultaneous, seed, options)
    resume(solver, resume_path, iterations, seed if algorithm == "pcs-mccfr" else None)  # another seed: refused
    locks = getattr(solver, "locks", None)
    if locks is not None:  # a resumed state holds the sums as saved: the lock goes back on
        locks.apply(solver, locks.player)
    _, rows, solve_s = run_iterations(solver, iterations, marks, f"{algorithm} on {short_id(game.id)} (public tree)", quiet,
                                      save_every=save_every, state_path=state_path, seconds=seconds, target=target)
    if rows and rows[-1]["value_average"] is None:  # --option checks=average: the last row in full
        rows[-1] = solver.checkpoint(full=True)
    extra = {"pruned_fraction": solver.pruned_fraction} if getattr(solver, "prune", False) else {}
    # the whole average policy (float64, a probability per information-set action: 1.1 GB on
    # TexasSolver's flop) only where it is needed: the locks' gains here, --save in public_result
    # (made there, not held here: a suit-isomorphic tree's policy is freed once it is mapped onto
    # the whole tree, 1.1 GB less while the file is written); the report reads the root
    avg = solver.average_policy() if locks is not None else None
    if locks is not None:
        from ..solutions.analysis import locked_exploitability

        extra["locks"] = {**locks.summary(), **locked_exploitability(tree, avg, locks)}
        extra["locks"]["free_player_gain_pot_fraction"] = pot_fraction(extra["locks"]["free_player_gain"], tree.pot)
    return public_result(game, algorithm, iterations, tree, solver, rows, compile_s, solve_s, state_path,
                         save_path, dtype=solver.dtype, threads=getattr(solver, "threads", 1), avg=avg, **extra)


def public_result(game, algorithm, iterations, tree, solver, rows, compile_s, solve_s, state_path, save_path,
                  avg=None, **extra) -> tuple[dict, list[str]]:
    """The result of a public-tree solve (one process or split over Ray workers): the common fields,
    then the public tree's; writes the state and the average policy (``avg``, where the caller
    has it already) where asked."""
    if avg is None and (save_path or not hasattr(solver, "average_source")):
        avg = solver.average_policy()
    sizes = public_sizes(tree, solver)
    stopped = getattr(solver, "stopped", None)  # "interrupt": the results so far (cli.runs.run_iterations)
    result = solve_result(game, algorithm, "alternating", solver.iteration if stopped else iterations, rows, first_actions_public(avg if avg is not None else RootPolicy(solver)), sizes,
                          compile_s, solve_s, form="public-tree", pot=tree.pot, histories=tree.histories,
                          public_nodes=tree.n_nodes, infoset_actions=sizes["infoset_actions"], bytes=sizes["bytes"],
                          compile_s=compile_s, stopped=stopped, **extra)
    add_pot_fractions(result, tree.pot)
    if rows and rows[-1].get("values_average") is not None:  # a raked hold'em game: general-sum
        result["values"] = list(rows[-1]["values_average"])
        result["expected_rake"] = -sum(rows[-1]["values_average"])
    if save_path and tree.iso is not None:  # the file holds the whole tree's policy, as without isomorphism
        avg = avg.on_full_tree(public_tree(game))
    return result, write_outputs(result, solver, avg, state_path, save_path)


def game_pot(game) -> float | None:
    """The chips in the pot at the start (hold'em's ``pot``, the poker family's two antes), or None
    for a game without one: what ``--target P%`` and ``exploitability_pot_fraction`` divide by (the
    public tree's ``pot``)."""
    from ..poker.holdem import HoldemGame

    if isinstance(game, HoldemGame):
        return float(game.pot)
    if has_public_tree(game) and getattr(game, "ante", None):
        return 2.0 * float(game.ante)
    return None


def pot_fraction(exploitability, pot) -> float | None:
    """Exploitability (NashConv / 2) as a fraction of the starting pot, as poker solvers report it
    (0.005: 0.5 % of the pot); None without a pot or a figure."""
    if exploitability is None or not pot or pot <= 0:
        return None
    return float(exploitability) / float(pot)


def add_pot_fractions(result: dict, pot) -> None:
    """``exploitability_pot_fraction`` on the result and on each checkpoint row (of the average:
    ``nash_conv_average`` / 2 / pot), for a game with a pot (hold'em, the poker family)."""
    if not pot or pot <= 0:
        return
    result["exploitability_pot_fraction"] = pot_fraction(result.get("exploitability"), pot)
    for row in result.get("checkpoints") or ():
        nc = row.get("nash_conv_average")
        row["exploitability_pot_fraction"] = None if nc is None else pot_fraction(nc / 2, pot)


def evaluate_public(game, policy_file, form: str | None, recorded: bool = False):
    """The Evaluation of a saved public-tree policy (zerosum.public-policy JSON), or None when the
    file is a history-tree policy and the form allows the history tree."""
    from ..core.evaluation import Evaluation

    if not is_public_policy_file(policy_file):
        if form == "public-tree":
            raise ZerosumError(f"{policy_file} is not a public-tree policy (solve --form public-tree --save writes one)")
        resolve_form(game, "history-tree")
        return None
    if form == "history-tree":
        raise ZerosumError(f"{policy_file} is a public-tree policy; evaluate it with --form public-tree")
    resolve_form(game, "public-tree")
    # a solution file records its evaluation (made when saved, on the probabilities as stored):
    # taken where asked (evaluate --node), so one node is read without the rest (nor a tree built)
    policy = load_public_policy(game, policy_file, stored_tree=recorded)
    if recorded and getattr(policy, "evaluation", None):
        ev = policy.evaluation
    else:  # the kernels' passes run on a tree built here, never on one read from a file
        ev = load_public_policy(game, policy_file).evaluate()
    nc = ev["nash_conv"]
    raked = getattr(game, "rake", None) is not None and ev.get("values") is not None  # general-sum
    return Evaluation(ev["value"], tuple(ev["best_response_values"]), nc, nc / 2,
                      tuple(ev["values"]) if raked else None)


#: the policy last read by load_public_policy: (path, size, mtime, game id) -> policy (``evaluate
#: --node`` asks twice)
_LOADED: dict = {}


def load_public_policy(game, policy_file, stored_tree: bool = False):
    """The PublicPolicy saved in ``policy_file`` on ``game``'s public tree (built, never solved): a
    solution file (zerosum.solutions.solution_file, known by its first bytes) read block by block
    as its nodes are asked for, or the JSON; the last one read is kept.  ``stored_tree``: a
    solution file's policy on the tree stored in it (no build; for the NumPy analysis of
    ``--node``), else on the tree built from the game."""
    from ..public_tree.policy import PublicPolicy
    from ..solutions.saved import open_solution
    from ..solutions.solution_file import is_solution_file

    path = Path(policy_file)
    try:
        st = path.stat()
        key = (str(path), st.st_size, st.st_mtime_ns, game.id, stored_tree)
    except OSError:
        key = None
    if key is not None and key in _LOADED:
        return _LOADED[key]
    if is_solution_file(path):
        policy = open_solution(path, None if stored_tree else public_tree(game), game=game)
    else:
        try:
            data = json.loads(path.read_text())
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raise ZerosumError(f"{str(path)!r} is not a JSON policy file") from None
        policy = PublicPolicy.from_dict(public_tree(game), data, source=repr(str(path)))
        del data
    _LOADED.clear()
    if key is not None:
        _LOADED[key] = policy
    return policy


def node_report_public(game, policy_file, label: str) -> dict:
    """``zerosum evaluate --node LABEL``: the per-hand report of
    :func:`zerosum.solutions.analysis.node_analysis` at that public node, JSON-ready (arrays as
    lists, NaN as null), from the saved policy alone."""
    from ..solutions.analysis import node_analysis, to_json

    if not is_public_policy_file(policy_file):
        raise ZerosumError(f"--node reads a public-tree policy, and {policy_file} is not one; "
                           f"zerosum solve {game.name} --form public-tree --save POLICY.json writes one")
    policy = load_public_policy(game, policy_file, stored_tree=True)
    return to_json(node_analysis(policy.tree, policy, label))


#: hands listed per player in the text report of ``evaluate --node`` (--json has all)
TOP_HANDS = 16


def action_name(label: str, actions) -> str:
    """A poker action label in words: ``c`` check (call where ``f`` is an option), ``f`` fold,
    ``b120`` bet 120, ``r300`` raise to 300, ``a`` all-in; any other label as it is."""
    if label == "c":
        return "call" if "f" in actions else "check"
    if label == "f":
        return "fold"
    if label == "a":
        return "all-in"
    if len(label) > 1 and label[1:].replace(".", "", 1).isdigit():
        if label[0] == "b":
            return f"bet {label[1:]}"
        if label[0] == "r":
            return f"raise to {label[1:]}"
    return label


def _seat(report: dict, p: int) -> str:
    """``player 0 (OOP)`` on hold'em (player 0 acts first on every street), ``player 0`` otherwise."""
    return f"player {p} ({'OOP' if p == 0 else 'IP'})" if "board" in report else f"player {p}"


def range_mix_line(report: dict) -> str | None:
    """``player 0 (OOP) to act, the range: check 93.1 %, bet 120 6.9 %`` (each action's frequency
    over the acting range, ``action_mix``), or None where nobody acts."""
    entry = next((e for e in report["players"] if "action_mix" in e), None)
    if entry is None:
        return None
    actions = report["actions"]
    parts = [f"{action_name(a, actions)} {100 * (x or 0.0):.1f} %" for a, x in zip(actions, entry["action_mix"])]
    return f"{_seat(report, entry['player'])} to act, the range: {', '.join(parts)}"


def likely_order(entry: dict) -> list[int]:
    """The hands of ``entry`` most likely first: by reach (the range at the node: range weight x the
    player's own probability of getting there, as solvers draw it), ties (a root's uniform range)
    strongest first, as ``solve`` lists them."""
    reach = entry.get("reach") or [0.0] * len(entry["hands"])
    return sorted(range(len(entry["hands"])),
                  key=lambda i: (-round(reach[i] or 0.0, 9), _hand_order(entry["hands"][i])))


def node_report_lines(report: dict) -> list[str]:
    """The text of ``evaluate --node``: the acting range's action mix; per player the most likely
    hands (reach, weight, EV, equity, and the strategy where that player acts), the categories (with
    the strategy), and for the acting player the 13x13 grid of the range at the node (percent of the
    weight in each class) and one grid per action (percent of each class taking it)."""
    def num(x, fmt):  # a missing number (the poker family has no equity) as "-" in the column's width
        return format("-", ">" + fmt.split(".")[0]) if x is None else format(x, fmt)

    actions = report["actions"]
    lines = [f"node {report['label']!r} ({report['kind']}" + (f", player {report['player']} to act: "
             f"{' '.join(actions)}" if report["player"] is not None else "") + ")"
             + (f", board {report['board']}" if "board" in report else "")
             + f", reached with probability {report['reach_probability']:.6f}"]
    mix = range_mix_line(report)
    if mix:
        lines.append(mix)
    for entry in report["players"]:
        acting = "strategy" in entry
        lines.append(f"player {entry['player']}: {len(entry['hands'])} hands, most likely first (reach); weight = "
                     f"P(hand | node), EV in net chips, equity vs the other range")
        head = f"  {'hand':<6} {'reach':>7} {'weight':>8} {'EV':>9} {'equity':>7}"
        if acting:
            head += "".join(f" {a:>6}" for a in actions)
        lines.append(head)
        for i in likely_order(entry)[:TOP_HANDS]:
            eq = entry.get("equity", [None] * len(entry["hands"]))[i]
            row = (f"  {entry['hands'][i]:<6} {num(entry['reach'][i], '7.4f')} {entry['weight'][i]:8.4f} "
                   f"{num(entry['ev'][i], '9.3f')} {num(eq, '7.3f')}")
            if acting:
                row += "".join(f" {num(entry['strategy'][a][i], '6.3f')}" for a in range(len(actions)))
            lines.append(row)
        if len(entry["hands"]) > TOP_HANDS:
            lines.append(f"  ... {len(entry['hands']) - TOP_HANDS} more (--json lists every hand)")
        cats = entry.get("categories")
        if cats:
            head = f"  {'category':<15} {'combos':>6} {'weight':>8} {'EV':>9} {'equity':>7}"
            if acting and "strategy" in cats:
                head += "".join(f" {a:>6}" for a in actions)
            lines.append(head)
            for k, name in enumerate(cats["names"]):
                if cats["combos"][k]:
                    row = (f"  {name:<15} {cats['combos'][k]:6.0f} {cats['weight'][k]:8.4f} "
                           f"{num(cats['ev'][k], '9.3f')} {num(cats.get('equity', [None] * 14)[k], '7.3f')}")
                    if acting and "strategy" in cats:
                        row += "".join(f" {num(cats['strategy'][a][k], '6.3f')}" for a in range(len(actions)))
                    lines.append(row)
        grid = entry.get("grid")
        if grid and (acting or report["player"] is None):
            lines.append("  the range here by class (percent of the weight; '.' none held):")
            lines.extend(_grid_lines(grid, grid["weight"]))
            for a, name in enumerate(actions if acting and "strategy" in grid else ()):
                lines.append(f"  {name} ({action_name(name, actions)}) by class (percent of the class's weight "
                             f"taking it; '.' none held):")
                lines.extend(_grid_lines(grid, grid["strategy"][a]))
    return lines


def _grid_lines(grid: dict, values) -> list[str]:
    """13 rows of the 13x13 grid, each cell its class and ``values`` in percent ('.' none held,
    '-' held without weight here)."""
    out = []
    for r in range(13):
        cells = []
        for c in range(13):
            k = 13 * r + c
            if not grid["combos"][k]:
                cells.append(f"{grid['classes'][k]:>3}   .")
            elif values[k] is None:
                cells.append(f"{grid['classes'][k]:>3}   -")
            else:
                cells.append(f"{grid['classes'][k]:>3}{100 * values[k]:4.0f}")
        out.append("  " + " ".join(cells))
    return out


def is_public_policy_file(path) -> bool:
    """A public-tree policy: a solution file (by its first bytes) or zerosum.public-policy JSON
    (its first 64 KiB, read without the rest: a file the web app downloads puts the run's
    parameters, ranges included, before the format)."""
    from ..solutions.solution_file import is_solution_file

    if is_solution_file(path):
        return True
    try:
        with open(path, encoding="utf-8") as f:
            head = f.read(1 << 16)
    except (OSError, UnicodeDecodeError):
        return False
    return '"zerosum.public-policy"' in head



