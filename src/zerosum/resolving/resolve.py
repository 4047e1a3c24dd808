"""Subgame re-solving on the public tree: unsafe, re-solve (CFR-D's gadget), max-margin and reach, at
any public node, optionally depth-limited.

The methods are those of :mod:`zerosum.solvers.resolve` (read there what each one guarantees and why
the gadgets take counterfactual *best-response* values), on hand vectors instead of histories:

* the subgame is the subtree of a public node n (a river deal of a turn subgame, Leduc's flop), cut
  after ``depth`` rounds when asked (its leaves valued by the blueprint's continuations, as
  :mod:`.depth_limited`: depth-limited re-solving);
* the entry ranges are each player's reach at n under the blueprint (range x its own probabilities
  along the path, :func:`~zerosum.solutions.analysis.path_reach`); chance and card removal are in
  the terminals as everywhere on this form;
* the opponent o's information sets at n are its hands there, so the alternative of the gadget for
  hand j is o's counterfactual best-response value at n against the blueprint,
  ``CBV(j) = sum_i W(i, j) r_p(i) ...`` (:func:`~zerosum.solutions.analysis.node_values` with
  ``best_response=o``), in the units of the subgame's root values;
* ``unsafe``: both ranges fixed, one solve gives both players' strategies; ``resolve``: per hand j, o
  takes CBV(j) or enters (o's reach at n is its probability of entering); ``maxmargin``: o picks one
  of its hands that can be at n (D(j) > 0) and gets the subgame's value less CBV(j); ``reach``: as
  maxmargin with CBV(j) raised by o's gifts along the path to n, the sum over o's decision nodes a
  above n of BR_a(j) - BR_(a, child towards n)(j), both o's counterfactual best-response values.
  The gadget methods solve twice, once per re-solved player.

Same scale as the history tree: a re-solve here runs the same iterates as
:func:`zerosum.solvers.resolve.resolve` on the same game (the per-hand factors between the two forms'
values change no regret matching step), so the combined profiles agree (tests: Leduc, 1e-9).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np

from ..errors import ZerosumError
from ..public_tree.form import DECISION, FOLD, PublicTree, find_node
from ..solutions.analysis import node_values, path_reach
from ..solvers.rules import Variant
from .depth_limited import BIAS, Gadget, TruncatedSolver, combined, default_dtype, truncate

METHODS = ("unsafe", "resolve", "maxmargin", "reach")


def best_response_values(tree: PublicTree, blueprint, node: int, o: int, cache: dict | None = None) -> dict:
    """:func:`~zerosum.solutions.analysis.node_values` at ``node`` with o best-responding, kept in
    ``cache`` by (node, o) (re-solving several nodes of one blueprint shares the ancestors' passes)."""
    if cache is None:
        return node_values(tree, blueprint, node, best_response=o)
    key = (int(node), int(o))
    if key not in cache:
        cache[key] = node_values(tree, blueprint, node, best_response=o)
    return cache[key]


def gifts(tree: PublicTree, blueprint, node: int, o: int, cache: dict | None = None) -> np.ndarray:
    """o's gifts per hand on the path to ``node``: the sum over o's decision nodes a above it of o's
    best-response value at a less that of the child of a towards ``node`` (counterfactual, >= 0)."""
    out = np.zeros(tree.n_hands[o])
    child = node
    while child > 0:
        a = int(tree.parent[child])
        if tree.kind[a] == DECISION and int(tree.player[a]) == o:
            at = best_response_values(tree, blueprint, a, o, cache)["cfv"][o]
            taken = best_response_values(tree, blueprint, child, o, cache)["cfv"][o]
            out += at - taken
        child = a
    return out


@dataclass
class PublicResolved:
    """The outcome of :func:`resolve_public`: the combined policy and what was measured."""

    policy: object  # PublicPolicy of the whole tree
    node: int
    label: str
    method: str
    iterations: int
    depth: int | None
    continuations: int
    solves: list  # per solve: {players, mode, public_nodes, leaves, min_margin}
    build_s: float
    solve_s: float
    #: each solve's state (:meth:`~zerosum.resolving.depth_limited.TruncatedSolver.state_dict`)
    states: list = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """The re-solve's node, method, sizes and times, as ``--json`` reports them."""
        return {"node": self.label, "method": self.method, "iterations": self.iterations, "depth": self.depth,
                "continuations": self.continuations, "subgames": self.solves, "build_s": self.build_s,
                "solve_s": self.solve_s}


def resolve_public(tree: PublicTree, blueprint, node, method: str = "resolve", iterations: int = 100,
                   variant: Variant | None = None, depth: int | None = None, continuations: int = 1,
                   bias: float = BIAS, dtype: str | None = None, cache: dict | None = None,
                   states: list | None = None) -> PublicResolved:
    """Re-solve ``blueprint`` (a PublicPolicy of ``tree``) at public node ``node`` (a label or an index)
    by ``method``, with ``variant`` x ``iterations`` per subgame; the blueprint elsewhere.  ``cache``: a
    dict kept between calls on the same blueprint (the best-response passes of the gadgets).
    ``states``: the solves' saved states (``PublicResolved.states`` of an earlier call with the same
    arguments), resumed to ``iterations`` in all: the same figures as one run."""
    if method not in METHODS:
        raise ZerosumError(f"unknown re-solving method {method!r}; choose from {', '.join(METHODS)}")
    if isinstance(iterations, bool) or not isinstance(iterations, (int, np.integer)) or iterations < 1:
        raise ZerosumError(f"iterations must be a positive integer, got {iterations!r}")
    n = find_node(tree, node) if isinstance(node, str) else int(node)
    if not 0 <= n < tree.n_nodes or tree.kind[n] >= FOLD:
        raise ZerosumError(f"node {node!r} is not a decision or chance node of {tree.game_id}")
    if n == 0 and method != "unsafe":
        raise ZerosumError(f"{method} re-solves below the root; at the root the ranges are the game's: use "
                           f"method=unsafe (or -a resolve --option depth=N without node)")
    if blueprint.tree.game_id != tree.game_id or blueprint.tree.n_nodes != tree.n_nodes:
        raise ZerosumError(f"the blueprint is a policy of {blueprint.tree.game_id!r}, not of {tree.game_id!r}")
    dtype = dtype or default_dtype(tree)
    top = tuple(path_reach(tree, blueprint, n))
    matrices: dict = {}
    strategies, solves, build, solve, saved = {}, [], 0.0, 0.0, []
    plans = [(None, (0, 1))] if method == "unsafe" else [(0, (0,)), (1, (1,))]
    for p, keep in plans:
        if p is not None and not top[p].any():
            continue  # p never reaches the node: its strategy there cannot matter
        player = p if continuations > 1 else None
        if method == "unsafe" and continuations > 1:
            raise ZerosumError("unsafe re-solving solves both players at once; several continuations need a "
                               "gadget method (resolve, maxmargin, reach)")
        game = truncate(tree, blueprint, depth, continuations, player, bias, dtype, matrices, root=n, top=top)
        gadget = None
        if p is not None:
            o = 1 - p
            vals = best_response_values(tree, blueprint, n, o, cache)
            alt = np.array(vals["cfv"][o])
            if method == "reach":
                alt = alt + gifts(tree, blueprint, n, o, cache)
            mask = np.asarray(vals["denominator"][o]) > 0
            gadget = Gadget("gate" if method == "resolve" else "margin", o, alt, mask)
        solver = TruncatedSolver(game, variant, gadget)
        if states is not None:
            if len(states) <= len(saved):
                raise ZerosumError("the saved re-solve holds fewer subgame solves than this one makes")
            solver.load_state_dict(states[len(saved)])
        solver.run_to(iterations)
        saved.append(solver.state_dict())
        avg = solver.average_strategy()
        strategies.update({k: s for k, s in avg.items() if int(tree.player[k]) in keep})
        entry = {"players": list(keep), "mode": "fixed" if gadget is None else gadget.mode,
                 "public_nodes": len(game.nodes), "leaves": len(game.leaves), "min_margin": None}
        if gadget is not None:
            entry["min_margin"] = _min_margin(game, solver, gadget)
        solves.append(entry)
        build += game.build_s
        solve += solver.solve_s
    return PublicResolved(combined(blueprint, strategies), n, tree.labels[n], method, iterations, depth,
                          continuations, solves, build, solve, saved)


def _min_margin(game, solver: TruncatedSolver, gadget: Gadget) -> float:
    """The smallest margin alt(j) - BR_o(j) over o's hands that can be at the root, against the
    re-solved player's average strategy (o best-responding in the subgame)."""
    t0 = time.perf_counter()
    strat = solver.average_strategy()
    top = list(game.top)
    top[gadget.o] = np.ones(len(gadget.alt))
    r = game.reaches(strat, top)
    br = game.values(gadget.o, strat, r, solver.average_choice() or None, respond=True)
    solver.solve_s += time.perf_counter() - t0
    return float(np.min((gadget.alt - br)[gadget.mask])) if gadget.mask.any() else 0.0
