"""``zerosum solve GAME -a resolve``: re-solve a saved blueprint at one public state (history tree),
or, with ``--option depth=N``, solve the public tree's first N betting rounds against the blueprint's
continuations (depth-limited solving).

The work is :func:`zerosum.solvers.resolve.resolve` and
:func:`zerosum.resolving.depth_limited.depth_limited_solve`; this module reads the ``--option``
keys, prints the combined profile's NashConv next to the blueprint's and saves the combined policy.
"""

from __future__ import annotations

import time

from ..errors import ZerosumError
from .common import console, emit_json, parse_params, progress_status


def save_policy(policy, path) -> None:
    """``--save``: JSON, or a solution file under a ``.zsp`` name (:mod:`zerosum.solutions.saved`)."""
    from ..solutions.saved import save_policy as write_policy

    write_policy(policy, path)


#: --option keys of -a resolve, with their defaults (None: required)
OPTIONS = {"blueprint": None, "node": None, "method": "resolve", "solver": "cfr+"}
DESCRIPTION = ("Subgame re-solving of a saved blueprint at one public state (history tree): unsafe, resolve "
               "(CFR-D gadget), maxmargin, reach; the combined profile's exact NashConv next to the blueprint's.")


#: --option keys of -a resolve on the public tree (--form public-tree, holdem, or --option depth=N)
DEPTH_OPTIONS = {"blueprint": None, "node": None, "method": None, "depth": None, "continuations": 1, "solver": "cfr+",
                 "bias": 5.0, "dtype": None, "leaf": "blueprint", "network": None, "samples": 4000, "seed": 0,
                 "agent": "single"}
#: what -a resolve --option depth=N puts at the leaves (zerosum.resolving.value_net for the last two)
LEAVES = ("blueprint", "exact", "network")


def solve_resolve(g, iterations: int, options, save_path, as_json: bool, seed=None, unused=(), state_path=None,
                  resume_path=None) -> None:
    """Run -a resolve on the loaded game ``g`` and print the result (see the module docstring);
    ``unused``: flags of ``zerosum solve`` given that -a resolve does not take; ``state_path`` /
    ``resume_path``: ``--save-state`` / ``--resume`` of the subgame solves (history tree)."""
    from ..core.compile import compiled
    from ..core.policy import TabularPolicy
    from ..solvers import SOLVERS
    from ..solvers.resolve import METHODS, blueprint_digest, resolve

    public_keys = {"depth", "leaf", "network", "samples", "continuations"}
    if public_keys & set(parse_params(options, flag="--option")) or "--form public-tree" in unused or g.name == "holdem":
        solve_depth_limited(g, iterations, options, save_path, as_json, seed,
                            [u for u in unused if u != "--form public-tree"], state_path, resume_path)
        return
    if unused:
        raise ZerosumError(f"-a resolve takes -n, --option, --save, --save-state and --resume, not {', '.join(unused)}; drop "
                           f"{'it' if len(unused) == 1 else 'them'}")
    if seed is not None:
        raise ZerosumError("-a resolve takes no --seed (the CFR variants it runs are deterministic); drop --seed")
    kwargs = parse_params(options, flag="--option")
    for key in kwargs:
        if key not in OPTIONS:
            raise ZerosumError(f"resolve does not take --option {key}; it takes "
                               + ", ".join(f"--option {k}" for k in OPTIONS))
    opts = {**{k: v for k, v in OPTIONS.items() if v is not None}, **{k: str(v) for k, v in kwargs.items()}}
    for key in ("blueprint", "node"):
        if key not in opts:
            raise ZerosumError(f"-a resolve needs --option {key}=...: e.g. zerosum solve leduc -a resolve "
                               f"--option blueprint=bp.json --option node='Q:cc/' --option method=resolve")
    if opts["method"] not in METHODS:
        raise ZerosumError(f"unknown re-solving method {opts['method']!r}; choose from {', '.join(METHODS)} "
                           f"(--option method=resolve)")
    solver = opts["solver"]
    if solver not in SOLVERS or solver in ("resolve",) or not _is_cfr_family(SOLVERS[solver]):
        choices = ", ".join(n for n in sorted(SOLVERS) if _is_cfr_family(SOLVERS[n]))
        raise ZerosumError(f"--option solver={solver} is not a solver of the history tree that solves a subgame; "
                           f"choose from {choices}")
    check = getattr(g, "check_history_tree", None)
    if check is not None:
        check()
    cg = compiled(g)
    try:
        blueprint = TabularPolicy.load(cg, opts["blueprint"])
    except ZerosumError as e:
        raise ZerosumError(f"{e}; make a blueprint of {g.id} with: zerosum solve {g.name} --form history-tree "
                           f"-n 30 --save bp.json" + (" (with the same --param)" if g.params() else "")) from None
    meta = {"game": g.id, "node": opts["node"], "method": opts["method"], "solver": solver,
            "blueprint_digest": blueprint_digest(blueprint)}
    states = None if not resume_path else load_resolve_state(resume_path, meta)
    t0 = time.perf_counter()
    r = resolve(g, blueprint, opts["node"], opts["method"], solver, iterations, states=states,
                keep_states=bool(state_path))
    out = {"game": g.id, "algorithm": "resolve", "blueprint": opts["blueprint"], **r.to_dict(),
           "solve_s": time.perf_counter() - t0}
    if resume_path:
        out["resumed"] = resume_path
    if state_path:
        if any(st is None for st in r.states):
            raise ZerosumError(f"--option solver={solver} solves in one shot: there is no state to save; drop "
                               f"--save-state")
        save_resolve_state(state_path, meta, r.states)
        out["state"] = state_path
    if save_path:
        save_policy(r.policy, save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    c = console()
    # markup=False: a no-limit id holds "[river bet=60%]", which rich would take for a style tag
    c.print(f"{g.id}: re-solving blueprint {opts['blueprint']} at public state {r.node!r} "
            f"({r.root_histories} root histories) by {r.method}, {solver} x {iterations}", markup=False)
    for s in r.subgames:
        d = s.to_dict()
        who = " and ".join(f"player {p}" for p in s.players)
        margin = "" if d["min_margin"] is None else f", min root margin {d['min_margin']:.6f}"
        c.print(f"  subgame for {who}: {d['histories']:,} histories, its NashConv {d['subgame_nash_conv']:.6f}"
                f"{margin}")
    c.print(f"  NashConv of the blueprint:         {r.blueprint_nash_conv:.6f}")
    c.print(f"  NashConv of the combined profile:  {r.nash_conv:.6f}")
    if save_path:
        c.print(f"  saved the combined policy to {save_path}")


#: what a re-solve's state file says it is (``--save-state`` of ``-a resolve``)
RESOLVE_STATE = "zerosum.resolve-state"


def save_resolve_state(path, meta: dict, states: list) -> None:
    """``--save-state`` of -a resolve: one .npz (atomically) holding what the re-solve was (game,
    public state, method, solver, the blueprint's digest) and each subgame solver's state, its
    keys prefixed ``solve{k}/``."""
    import numpy as np

    from .common import write_atomic

    data = {"format": np.array(RESOLVE_STATE), "solves": np.array(len(states)),
            **{k: np.array(v) for k, v in meta.items()}}
    for k, st in enumerate(states):
        data.update({f"solve{k}/{key}": np.asarray(v) for key, v in st.items()})

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez(f, **data)

    write_atomic(path, write, "state file")


def load_resolve_state(path, meta: dict) -> list:
    """``--resume`` of -a resolve: the subgame solvers' states from ``path``, refused in one line if
    it is not a re-solve's state or was made for another game, public state, method, solver or
    blueprint (``meta``: this run's, as :func:`save_resolve_state` writes it)."""
    import zipfile

    import numpy as np

    try:
        with np.load(path, allow_pickle=False) as f:
            data = {k: f[k] for k in f.files}
    except OSError as e:
        raise ZerosumError(f"cannot read state file {str(path)!r}: {e.strerror or e}") from None
    except (ValueError, zipfile.BadZipFile):
        raise ZerosumError(f"{str(path)!r} is not a zerosum state file") from None
    if str(data.get("format", "")) != RESOLVE_STATE:
        raise ZerosumError(f"{str(path)!r} is not the state of a re-solve (zerosum solve GAME -a resolve "
                           f"--save-state FILE writes one)")
    for key, value in meta.items():
        saved = str(data.get(key, ""))
        if saved != str(value):
            what = "another blueprint (its probabilities differ)" if key == "blueprint_digest" else \
                f"{key} {saved!r}, not {str(value)!r}"
            raise ZerosumError(f"the saved re-solve was made for {what}; resume it with the same "
                               f"game, --option node, method, solver and blueprint")
    return [{key.split("/", 1)[1]: v for key, v in data.items() if key.startswith(f"solve{k}/")}
            for k in range(int(data["solves"]))]


def solve_depth_limited(g, iterations: int, options, save_path, as_json: bool, seed=None, unused=(), state_path=None,
                        resume_path=None) -> None:
    """``-a resolve`` on the public tree: with ``--option node=LABEL`` re-solving at that public node
    (:mod:`zerosum.resolving.resolve`, depth-limited with ``--option depth=N``), without it
    depth-limited solving from the root (:mod:`zerosum.resolving.depth_limited`); printed with the
    combined profile's exact NashConv.  ``--save-state`` / ``--resume`` (``state_path``,
    ``resume_path``) keep and resume the solves, as on the history tree (:func:`save_resolve_state`)."""
    from ..public_tree.compile import public_tree
    from ..public_tree.passes import nash_conv_public
    from ..resolving.depth_limited import depth_limited_solve
    from ..solvers.capabilities import ALGORITHMS, names_with
    from ..solvers.rules import VARIANTS, finite
    from .common import progress_bar
    from .public_tree import load_public_policy, resolve_form

    if unused:
        raise ZerosumError(f"-a resolve takes -n, --option and --save, not {', '.join(unused)}; drop "
                           f"{'it' if len(unused) == 1 else 'them'}")
    if seed is not None:
        raise ZerosumError("-a resolve takes no --seed (depth-limited solving is deterministic); drop --seed")
    kwargs = parse_params(options, flag="--option")
    for key in kwargs:
        if key not in DEPTH_OPTIONS:
            raise ZerosumError(f"-a resolve on the public tree does not take --option {key}; it takes "
                               + ", ".join(f"--option {k}" for k in DEPTH_OPTIONS))
    opts = {**{k: v for k, v in DEPTH_OPTIONS.items() if v is not None}, **kwargs}
    if opts["leaf"] not in LEAVES:
        raise ZerosumError(f"--option leaf={opts['leaf']} is not a leaf value; choose from {', '.join(LEAVES)}")
    if opts["leaf"] != "blueprint":
        if state_path or resume_path:
            raise ZerosumError("--option leaf=exact|network re-solves every leaf once it is solved: there is no "
                               "state to save or resume; drop --save-state / --resume")
        _solve_leaf_values(g, iterations, opts, set(kwargs), save_path, as_json)
        return
    if "blueprint" not in opts:
        raise ZerosumError(f"-a resolve on the public tree needs --option blueprint=FILE, a public-tree policy: make "
                           f"one with zerosum solve {g.name} --form public-tree -n 20 --save bp.json (or "
                           f"--option leaf=exact|network: no blueprint)")
    if "node" not in opts and "depth" not in opts:
        raise ZerosumError("-a resolve on the public tree needs --option node=LABEL (re-solving there) or "
                           "--option depth=N (depth-limited solving from the root)")
    if "node" not in opts and "method" in opts:
        raise ZerosumError("--option method= is for re-solving at a node: add --option node=LABEL")
    solver = str(opts["solver"])
    if solver not in VARIANTS or not ALGORITHMS[solver].runs_with("depth-limited"):
        choices = ", ".join(names_with("depth-limited"))
        raise ZerosumError(f"--option solver={solver} is not a variant depth-limited solving runs; choose from {choices}")
    try:
        resolve_form(g, "public-tree")
    except ZerosumError:
        raise ZerosumError(f"depth-limited solving runs on the public tree, and {g.name} has none: it takes holdem "
                           f"and the poker family (zerosum solve poker ... is Leduc)") from None
    bias = finite("bias", opts["bias"])
    if bias <= 0:
        raise ZerosumError(f"--option bias must be positive, got {bias}")
    blueprint = load_public_policy(g, str(opts["blueprint"]))
    tree = public_tree(g)
    from ..solvers.resolve import blueprint_digest

    meta = {"game": g.id, "form": "public-tree", "node": str(opts.get("node", "(none: from the root)")),
            "method": str(opts.get("method", "resolve" if "node" in opts else "depth-limited")),
            "depth": str(opts.get("depth")), "continuations": str(opts["continuations"]), "solver": solver,
            "bias": repr(bias), "dtype": str(opts.get("dtype")), "blueprint_digest": blueprint_digest(blueprint)}
    states = None if not resume_path else load_resolve_state(resume_path, meta)
    if "node" in opts:
        _resolve_node(g, tree, blueprint, iterations, opts, VARIANTS[solver](), bias, save_path, as_json,
                      states, state_path, resume_path, meta)
        return
    t0 = time.perf_counter()
    with progress_bar(iterations * (1 if opts["continuations"] == 1 else 2), f"depth-limited {g.id}",
                      enabled=not as_json, unit="iterations") as advance:
        done = [0]

        def progress(n, total):
            advance(n - done[0])
            done[0] = n

        r = depth_limited_solve(tree, blueprint, opts["depth"], iterations, VARIANTS[solver](),
                                opts["continuations"], bias, opts.get("dtype"), progress, states)
    wall = time.perf_counter() - t0
    base = nash_conv_public(tree, blueprint.probs)
    ev = nash_conv_public(tree, r.policy.probs)
    out = {"game": g.id, "algorithm": "resolve", "method": "depth-limited", "blueprint": str(opts["blueprint"]),
           "depth": opts["depth"], "continuations": opts["continuations"], "solver": solver,
           "iterations": iterations, "dtype": r.dtype, **r.to_dict(),
           "blueprint_nash_conv": base["nash_conv"], "nash_conv": ev["nash_conv"], "value": ev["value"],
           "pot": tree.pot, "solve_wall_s": wall}
    _state_outputs(out, r.states, meta, state_path, resume_path)
    if save_path:
        save_policy(r.policy, save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    d = out["depth_limited"]
    c = console()
    c.print(f"{g.id}: depth-limited solving of blueprint {opts['blueprint']}, {opts['depth']} round(s) deep, "
            f"{opts['continuations']} continuation(s), {solver} x {iterations}", markup=False)
    c.print(f"  cut tree: {d['public_nodes']:,} public nodes, {d['leaves']:,} leaves, leaf matrices "
            f"{d['leaf_matrix_bytes'] / 2**20:.1f} MiB ({r.dtype}); built in {r.build_s:.2f} s, solved in {r.solve_s:.2f} s")
    c.print(f"  NashConv of the blueprint:         {base['nash_conv']:.6f}")
    c.print(f"  NashConv of the combined profile:  {ev['nash_conv']:.6f}  (value {ev['value']:.6f})")
    if save_path:
        c.print(f"  saved the combined policy to {save_path}")


def _solve_leaf_values(g, iterations: int, opts: dict, given: set, save_path, as_json: bool) -> None:
    """-a resolve --option depth=N --option leaf=exact|network: the cut game with DeepStack's leaf
    values (:mod:`zerosum.resolving.value_net`), each leaf then re-solved with CFR-D's gadget.
    ``--option network=FILE`` loads that network when the file exists (and no ``samples`` is given),
    else trains one and saves it there; ``given``: the options on the command line."""
    from pathlib import Path

    from ..public_tree.compile import public_tree
    from ..public_tree.passes import nash_conv_public
    from ..resolving.value_net import (
        ValueNetwork,
        continual_resolving,
        exact_leaf_values,
        solve_with_leaf_values,
        train_value_network,
    )
    from ..solvers.rules import VARIANTS
    from .common import progress_bar
    from .public_tree import resolve_form

    for key in ("blueprint", "node", "method", "continuations"):
        if key in opts and (key != "continuations" or opts[key] != 1):
            raise ZerosumError(f"--option leaf={opts['leaf']} takes no --option {key}: the leaves' values come from "
                               f"the subgames below them, solved for the ranges that reach them")
    if "depth" not in opts:
        raise ZerosumError(f"--option leaf={opts['leaf']} needs --option depth=N")
    if opts["agent"] not in ("single", "continual"):
        raise ZerosumError(f"--option agent takes single (the cut game, then each leaf re-solved) or continual "
                           f"(re-solving at every public node the agent reaches), got {opts['agent']!r}")
    try:
        resolve_form(g, "public-tree")
    except ZerosumError:
        raise ZerosumError(f"depth-limited solving runs on the public tree, and {g.name} has none: it takes holdem "
                           f"and the poker family (zerosum solve poker ... is Leduc)") from None
    tree = public_tree(g)
    variant = VARIANTS[str(opts["solver"])]()
    info: dict = {}
    if opts["leaf"] == "exact":
        function = exact_leaf_values(tree)
    elif "network" in opts and "samples" not in given and Path(str(opts["network"])).exists():
        function = ValueNetwork.load(tree, str(opts["network"]))
        if function.depth != opts["depth"]:
            raise ZerosumError(f"{opts['network']} was trained for depth {function.depth}, not {opts['depth']}")
        info["network"] = {"loaded": str(opts["network"])}
    else:
        samples = opts["samples"]
        if isinstance(samples, bool) or not isinstance(samples, int) or samples < 10:
            raise ZerosumError(f"--option samples must be an integer >= 10, got {samples!r}")
        with progress_bar(samples, f"value network samples {g.id}", enabled=not as_json, unit="subgames") as advance:
            done = [0]

            def progress(n, total):
                advance(n - done[0])
                done[0] = n

            function = train_value_network(tree, opts["depth"], samples, seed=int(opts["seed"]), progress=progress)
        info["network"] = dict(function.stats)
        if "network" in opts:
            function.save(str(opts["network"]))
            info["network"]["saved"] = str(opts["network"])
    continual = opts["agent"] == "continual"
    with progress_status(f"{'continual re-solving' if continual else 'depth-limited'} {g.id} with {opts['leaf']} "
                         f"leaf values", enabled=not as_json):
        if continual:
            r = continual_resolving(tree, function, iterations, variant, opts["depth"])
            timing = {"resolves": r.resolves, "solve_s": r.seconds}
        else:
            r = solve_with_leaf_values(tree, opts["depth"], function, iterations, variant)
            timing = {"solve_s": r.solve_s, "finish_s": r.finish_s}
    ev = nash_conv_public(tree, r.policy.probs)
    out = {"game": g.id, "algorithm": "resolve", "method": "continual" if continual else "depth-limited",
           "leaf": opts["leaf"], "depth": opts["depth"], "solver": variant.name, "iterations": iterations, **info,
           "leaf_calls": r.leaf_calls, **timing, "nash_conv": ev["nash_conv"], "value": ev["value"], "pot": tree.pot}
    if save_path:
        save_policy(r.policy, save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    c = console()
    if continual:
        c.print(f"{g.id}: continual re-solving, {opts['depth']} round(s) deep, {opts['leaf']} leaf values, "
                f"{variant.name} x {iterations} per re-solve; both seats the agent", markup=False)
    else:
        c.print(f"{g.id}: depth-limited solving, {opts['depth']} round(s) deep, {opts['leaf']} leaf values, "
                f"{variant.name} x {iterations}; each leaf re-solved with CFR-D's gadget", markup=False)
    if "network" in info and "held_out_mae" in info["network"]:
        n = info["network"]
        c.print(f"  value network: {n['samples']:,} solved subgames ({n['sample_s']:.1f} s), trained in "
                f"{n['train_s']:.1f} s, held-out error {n['held_out_mae']:.4f} chips")
    if continual:
        c.print(f"  {sum(r.resolves):,} re-solves ({r.resolves[0]} / {r.resolves[1]} per seat), {r.leaf_calls:,} leaf "
                f"evaluations, {r.seconds:.2f} s")
    else:
        c.print(f"  {r.leaf_calls:,} leaf evaluations, solved in {r.solve_s:.2f} s, leaves re-solved in "
                f"{r.finish_s:.2f} s")
    c.print(f"  NashConv of the whole profile:  {ev['nash_conv']:.6f}  (value {ev['value']:.6f})")
    if save_path:
        c.print(f"  saved the policy to {save_path}")


def _state_outputs(out: dict, states: list, meta: dict, state_path, resume_path) -> None:
    """Write ``--save-state`` and note ``resumed`` / ``state`` in the JSON object ``out``."""
    if resume_path:
        out["resumed"] = resume_path
    if state_path:
        save_resolve_state(state_path, meta, states)
        out["state"] = state_path


def _resolve_node(g, tree, blueprint, iterations: int, opts: dict, variant, bias: float, save_path, as_json,
                  states=None, state_path=None, resume_path=None, meta=None) -> None:
    """-a resolve --option node=LABEL on the public tree (see :func:`solve_depth_limited`)."""
    from ..public_tree.passes import nash_conv_public
    from ..resolving.resolve import METHODS, resolve_public

    method = str(opts.get("method", "resolve"))
    if method not in METHODS:
        raise ZerosumError(f"unknown re-solving method {method!r}; choose from {', '.join(METHODS)} "
                           f"(--option method=resolve)")
    with progress_status(f"re-solving {g.id} at {opts['node']}", enabled=not as_json):
        r = resolve_public(tree, blueprint, str(opts["node"]), method, iterations, variant, opts.get("depth"),
                           opts["continuations"], bias, opts.get("dtype"), states=states)
    base = nash_conv_public(tree, blueprint.probs)
    ev = nash_conv_public(tree, r.policy.probs)
    out = {"game": g.id, "algorithm": "resolve", "form": "public-tree", "blueprint": str(opts["blueprint"]),
           "solver": variant.name, **r.to_dict(), "blueprint_nash_conv": base["nash_conv"],
           "nash_conv": ev["nash_conv"], "value": ev["value"], "pot": tree.pot}
    _state_outputs(out, r.states, meta, state_path, resume_path)
    if save_path:
        save_policy(r.policy, save_path)
        out["saved"] = save_path
    if as_json:
        emit_json(out)
        return
    c = console()
    cut = "" if r.depth is None else f", {r.depth} round(s) deep, {r.continuations} continuation(s)"
    c.print(f"{g.id}: re-solving blueprint {opts['blueprint']} at public node {r.label!r} by {method}{cut}, "
            f"{variant.name} x {iterations} (public tree)", markup=False)
    for sub in r.solves:
        who = " and ".join(f"player {p}" for p in sub["players"])
        margin = "" if sub["min_margin"] is None else f", min root margin {sub['min_margin']:.6f}"
        c.print(f"  subgame for {who}: {sub['public_nodes']:,} public nodes, {sub['leaves']} leaves{margin}")
    c.print(f"  NashConv of the blueprint:         {base['nash_conv']:.6f}")
    c.print(f"  NashConv of the combined profile:  {ev['nash_conv']:.6f}  (value {ev['value']:.6f})")
    if save_path:
        c.print(f"  saved the combined policy to {save_path}")


def _is_cfr_family(cls) -> bool:
    """Solvers that run on a compiled game from its arrays alone (the CFR driver, the LP, MMD...):
    the network and sampling solvers need more than the subgame gives."""
    return not getattr(cls, "needs_deep", False) and cls.__module__.rsplit(".", 1)[-1] in (
        "cfr", "lcfr", "dcfr", "pcfr", "pdcfr_plus", "hs", "lp")


def print_lbr(lbr: dict) -> None:
    """The text lines of ``zerosum evaluate --lbr``."""
    c = console()
    c.print(f"  local best response, {lbr['hands']:,} hands per seat (seed {lbr['seed']}):")
    for p in (0, 1):
        c.print(f"    seat {p}: LBR gets {lbr['values'][p]:.6f} +- {lbr['half_widths'][p]:.6f} "
                f"(exact {lbr['exact_values'][p]:.6f}), gain {lbr['gains'][p]:.6f}")
    c.print(f"    LBR NashConv estimate:            {lbr['nash_conv']:.6f} +- {lbr['nash_conv_half_width']:.6f} "
            f"(a lower bound of NashConv)")


__all__ = ["DEPTH_OPTIONS", "DESCRIPTION", "OPTIONS", "RESOLVE_STATE", "load_resolve_state", "print_lbr", "save_resolve_state",
           "solve_depth_limited", "solve_resolve"]
