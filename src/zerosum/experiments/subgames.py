"""``zerosum experiment subgames``: subgame re-solving and local best response, measured exactly.

1. On Leduc (and the larger poker-family member poker(ranks=13)), a coarse blueprint (CFR+ for a few
   iterations), then each re-solving method of :mod:`zerosum.solvers.resolve` at every public state
   that opens the second round (one state at a time: the rest of the game stays the blueprint's), and
   at all of them at once (the re-solved subgames are disjoint, so their strategies combine; not for
   reach, whose gifts would count once per subgame sharing a path).  Exact NashConv of each combined
   profile against the blueprint's.  On poker(ranks=13) only the check-check states (13 of 65), for
   time: each re-solve there takes about 0.9 s.
2. A constructed case where unsafe re-solving is worse than the blueprint: an equilibrium (the LP)
   except that player 0 plays one hand deliberately badly into the subgame (Kuhn: always bet the jack;
   Leduc: always raise a queen in the first round), re-solved at the subgame it enters.
3. Local best response (:mod:`zerosum.core.lbr`) against the exact best-response gain, for the uniform
   policy, the blueprint, CFR+ with more iterations and the blueprint re-solved everywhere.
4. Continual re-solving (:mod:`zerosum.solvers.continual`, DeepStack's agent with exact leaves) on Leduc:
   the tabulated agent's exact NashConv for a few re-solve iteration counts N, against CFR+ on the whole
   game at the same compute (CFR iterations x histories solved), random play and CFR+ x 1,000
   (``--quick``: Kuhn, N = 5 and 20).
5. ``zerosum experiment depth-limited`` (:func:`depth_limited`): depth-limited solving on the public tree
   (:mod:`zerosum.resolving.depth_limited`), Leduc and the limit hold'em turn subgame cut at the river.
"""

from __future__ import annotations

import numpy as np

from ..errors import ZerosumError
from .report import Report, Table

METHODS = ("unsafe", "resolve", "maxmargin", "reach")


def _flop_states(game) -> list[str]:
    """The public states that open the second round (poker labels: ``CARD:BETTING/``)."""
    from ..solvers.resolve import public_states

    return [s for s in public_states(game) if s.endswith("/") and s.count("/") == 1]


def _merge(game, cg, base, parts):
    """The blueprint with each re-solved state's strategy written in: per (state, policy), every
    information set whose public part lies below the state (poker labels: its prefix)."""
    from ..core.policy import TabularPolicy
    from ..solvers.resolve import public_state

    probs = [pi.copy() for pi in base.probs]
    for state, pol in parts:
        for p, tree in enumerate(cg.treeplexes):
            for i, label in enumerate(tree.infoset_labels):
                if public_state(game, label).startswith(state):
                    f, n = int(tree.infoset_first[i]), int(tree.infoset_size[i])
                    probs[p][f:f + n] = pol.probs[p][f:f + n]
    return TabularPolicy(cg, probs)


def _resolve_table(game, blueprint_iterations: int, iterations: int, advance, only_cc: bool, max_states=None):
    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..solvers import SOLVERS
    from ..solvers.resolve import find_roots_many, resolve

    cg = compiled(game)
    s = SOLVERS["cfr+"](cg)
    s.run(blueprint_iterations)
    bp = s.average_policy()
    base = evaluate(cg, bp).nash_conv
    states = _flop_states(game)
    if only_cc:
        states = [x for x in states if x.endswith(":cc/")]
    if max_states is not None:
        states = states[:max_states]
    roots = find_roots_many(game, cg, bp, states)
    t = Table(f"{game.id}: NashConv after re-solving one public state (blueprint: CFR+ x {blueprint_iterations}, "
              f"NashConv {base:.6f}; each subgame CFR+ x {iterations})",
              ["public state", "root histories", "blueprint", *METHODS], digits=[None, 0, 6, 6, 6, 6, 6])
    parts = {m: [] for m in METHODS}
    worse = {m: 0 for m in METHODS}
    better = {m: 0 for m in METHODS}
    for state in states:
        row = [state, len(roots[state]), base]
        for m in METHODS:
            r = resolve(game, bp, state, m, "cfr+", iterations, roots[state])
            parts[m].append((state, r.policy))
            row.append(r.nash_conv)
            worse[m] += r.nash_conv > base + 1e-9
            better[m] += r.nash_conv < base - 1e-9
            advance(1)
        t.add(*row)
    t.add("states improved", len(states), None, *[f"{better[m]} of {len(states)}" for m in METHODS])
    t.add("states made worse", len(states), None, *[f"{worse[m]} of {len(states)}" for m in METHODS])
    merged = {m: _merge(game, cg, bp, parts[m]) for m in METHODS if m != "reach"}
    t.add("all at once", sum(len(roots[x]) for x in states), base,
          *[evaluate(cg, merged[m]).nash_conv if m in merged else None for m in METHODS])
    return t, cg, bp, merged


def _constructed(advance, quick: bool = False):
    """Equilibrium but one deliberately bad hand of player 0 into the subgame (``quick``: Kuhn only)."""
    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..core.policy import TabularPolicy
    from ..games import load_game
    from ..solvers import SOLVERS
    from ..solvers.resolve import resolve

    t = Table("unsafe re-solving worse than the blueprint: an equilibrium (LP) with one bad hand of player 0 into "
              "the subgame, re-solved there exactly (LP); NashConv",
              ["game", "deviation", "public state", "blueprint", *METHODS], digits=[None, None, None, 6, 6, 6, 6, 6])
    cases = (("kuhn", "J", "b", "b"), ("leduc", "Q:", "r", "Q:rc/"))
    for name, label, act, state in cases[:1] if quick else cases:
        g = load_game(name)
        cg = compiled(g)
        lp = SOLVERS["lp"](cg)
        lp.run(1, [1])
        d = lp.average_policy().to_dict()
        d["players"][0][label] = {a: float(a == act) for a in d["players"][0][label]}
        bp = TabularPolicy.from_dict(cg, d)
        row = [g.id, f"player 0 at {label!r} always {act!r}", state, evaluate(cg, bp).nash_conv]
        for m in METHODS:
            row.append(resolve(g, bp, state, m, "lp").nash_conv)
            advance(1)
        t.add(*row)
    return t


def _lbr_table(cg, policies, hands: int, seed: int, advance):
    from ..core.evaluation import evaluate
    from ..core.lbr import local_best_response

    t = Table(f"{cg.game_id}: local best response ({hands:,} hands per seat, seed {seed}) against the exact best "
              f"response; LBR is a lower bound",
              ["policy", "NashConv (exact BR)", "LBR estimate", "+- 95 %", "LBR exact", "LBR / BR"],
              digits=[None, 6, 6, 6, 6, 3])
    for name, pol in policies:
        ev = evaluate(cg, pol)
        r = local_best_response(cg, pol, hands, seed)
        exact = float(sum(r.exact_values))
        t.add(name, ev.nash_conv, r.nash_conv, r.half_width, exact,
              exact / ev.nash_conv if ev.nash_conv > 0 else None)
        advance(1)
    return t


def subgames(plot=None, progress=False, blueprint_iterations: int = 20, iterations: int = 500, hands: int = 20000,
             seed: int = 0, larger: bool = True, quick: bool = False) -> Report:
    """Re-solving methods at the flop of Leduc (and poker(ranks=13)), the constructed unsafe case, LBR."""
    from ..games import load_game
    from ..progress import counted
    from ..solvers import SOLVERS

    for key, v in (("--blueprint-iterations", blueprint_iterations), ("--iterations", iterations),
                   ("--hands", hands)):
        if v < 1 or (key == "--hands" and v < 2):
            raise ZerosumError(f"{key} must be at least {2 if key == '--hands' else 1}, got {v}")
    max_states = None
    if quick:  # for tests: two states, short solves, few hands, no larger game
        blueprint_iterations, iterations, hands, larger, max_states = 10, 50, 500, False, 2
    leduc = load_game("leduc")
    n_states = max_states or len(_flop_states(leduc))
    steps = n_states * 4 + 8 + 4 + (13 * 4 if larger else 0) + (3 if quick else 5)
    report = Report("subgames")
    with counted(steps, "subgames", enabled=progress) as advance:
        t, cg, bp, merged = _resolve_table(leduc, blueprint_iterations, iterations, advance, False, max_states)
        report.tables.append(t)
        if larger:
            report.tables.append(_resolve_table(load_game("poker", ranks=13), blueprint_iterations, iterations,
                                                advance, True)[0])
        report.tables.append(_constructed(advance, quick))
        s = SOLVERS["cfr+"](cg)
        s.run(100)
        report.tables.append(_lbr_table(cg, [
            ("uniform", _uniform(cg)), (f"blueprint (CFR+ x {blueprint_iterations})", bp),
            ("CFR+ x 100", s.average_policy()), ("blueprint re-solved everywhere (maxmargin)", merged["maxmargin"]),
        ], hands, seed, advance))
        report.tables.append(_continual_table(advance, "kuhn" if quick else "leduc",
                                              (5, 20) if quick else (10, 30, 100, 300), 100 if quick else 1000))
    report.notes.append("re-solving: each method solves two subgames (player 0's strategy from the gadget for player "
                        "1, player 1's from the gadget for player 0; unsafe: one subgame, both); gadget alternatives "
                        "are the opponent's counterfactual best-response values against the blueprint; reach adds "
                        "the exact gifts of the opponent's earlier sequences (reach-maxmargin)")
    return report


def _continual_table(advance, game_name: str, counts, reference: int = 1000):
    """Continual re-solving (:mod:`zerosum.solvers.continual`) against CFR+ on the whole game at the same
    compute (CFR iterations x histories solved), random play and CFR+ x ``reference``: DeepStack's Leduc
    comparison in zerosum's units (NashConv in chips per hand, and as a fraction of random play's)."""
    import time

    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..games import load_game
    from ..solvers import SOLVERS
    from ..solvers.continual import continual

    g = load_game(game_name)
    cg = compiled(g)
    uniform = evaluate(cg, _uniform(cg)).nash_conv
    t = Table(f"{g.id}: continual re-solving (CFR+ x N for the root solve and for every re-solve, CFR-D gadget, "
              f"both seats the agent) against CFR+ on the whole game at the same compute (CFR iterations x "
              f"histories); exact NashConv in chips per hand",
              ["agent", "N", "re-solves", "compute (iter x hist)", "NashConv", "/ random", "seconds",
               "root solve alone", "CFR+ same compute: iterations", "CFR+ NashConv", "CFR+ / random"],
              digits=[None, 0, 0, 0, 6, 5, 2, 6, 0, 6, 5])
    t.add("random play (uniform)", None, None, None, uniform, 1.0, None, None, None, None, None)

    def cfr_plus(n):
        s = SOLVERS["cfr+"](cg)
        s.run(max(n, 1))
        return evaluate(cg, s.average_policy()).nash_conv

    ref = cfr_plus(reference)
    t.add(f"CFR+ x {reference} on the whole game", None, None, reference * cg.sizes()["histories"], ref,
          ref / uniform, None, None, None, None, None)
    advance(1)
    for n in counts:
        t0 = time.perf_counter()
        r = continual(g, "cfr+", n)
        secs = time.perf_counter() - t0
        m = round(r.equivalent_iterations)
        c = cfr_plus(m)
        t.add("continual re-solving", n, sum(r.resolves), r.cost, r.nash_conv, r.nash_conv / uniform, secs,
              cfr_plus(n), m, c, c / uniform)
        advance(1)
    return t


def _uniform(cg):
    from ..core.policy import TabularPolicy

    return TabularPolicy.uniform(cg)


def abstraction(plot=None, progress=False, iterations: int = 200, resolve_iterations: int = 200,
                quick: bool = False) -> Report:
    """Card abstraction (:mod:`zerosum.poker.abstraction`): on Leduc and poker(ranks=13), k buckets per
    round, CFR+ x ``iterations`` on the abstract game, the lifted policy's exact NashConv in the real game
    against CFR+ x ``iterations`` unabstracted; then the lifted blueprint re-solved at every flop state
    at once (resolve and maxmargin, CFR+ x ``resolve_iterations`` per subgame): the combined profile's
    exact NashConv.  On poker(ranks=13) only its 13 check-check flop states, for time (each re-solve
    takes about 0.9 s; all 65 for 2 methods and 5 rows would be 10 minutes).  Then hold'em on the public
    tree (:mod:`zerosum.public_tree.abstraction`): the limit turn subgame, k E[HS] buckets a street,
    LCFR x 100, the lifted policy's exact NashConv.  ``quick``: Leduc, k = 1 and 3, 20 iterations, and a
    narrow-range turn spot."""
    import time

    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..games import load_game
    from ..poker.abstraction import AbstractPokerGame, lift
    from ..progress import counted
    from ..solvers import SOLVERS
    from ..solvers.resolve import find_roots_many, resolve

    if iterations < 1 or resolve_iterations < 1:
        raise ZerosumError("iterations must be at least 1")
    cases = [("leduc", {}, (1, 2, 3, 5), "all"), ("poker", {"ranks": 13}, (3, 6, 13, 40), "cc")]
    if quick:
        cases, iterations, resolve_iterations = [("leduc", {}, (1, 3), "all")], 20, 20
    methods = ("resolve", "maxmargin")
    t = Table(f"card abstraction (E[HS] buckets per round): CFR+ x {iterations} on the abstract game, the lifted "
              f"policy's exact NashConv in the real game; the lifted blueprint re-solved at every flop state at once "
              f"(poker(ranks=13): the 13 check-check ones; CFR+ x {resolve_iterations} per subgame)",
              ["game", "buckets k", "abstract infosets", "solve s", "NashConv lifted",
               *[f"re-solved ({m})" for m in methods]], digits=[None, None, 0, 3, 6, 6, 6])
    holdem_ks = (1, 4) if quick else (3, 10, 30)
    steps = sum(len(ks) + 1 for *_, ks, _ in cases) + len(holdem_ks) + 1
    with counted(steps, "abstraction", enabled=progress) as advance:
        for name, params, ks, with_resolve in cases:  # with_resolve: which flop states ("all" or "cc")
            g = load_game(name, **params)
            rcg = compiled(g)
            states = [x for x in _flop_states(g) if with_resolve == "all" or x.endswith(":cc/")]
            SOLVERS["cfr+"](rcg).run(1)  # untimed: the first solve of a run also compiles the kernels (0.4 s)
            for k in (*ks, None):
                t0 = time.perf_counter()
                if k is None:  # the unabstracted solve
                    s = SOLVERS["cfr+"](rcg)
                    s.run(iterations)
                    pol, size = s.average_policy(), rcg.sizes()["infosets"]
                else:
                    a = AbstractPokerGame(g, k)
                    acg = compiled(a)
                    t0 = time.perf_counter()  # the solve alone: compiling is not the abstraction's saving
                    s = SOLVERS["cfr+"](acg)
                    s.run(iterations)
                    pol, size = lift(rcg, a, s.average_policy()), acg.sizes()["infosets"]
                secs = time.perf_counter() - t0
                row = [g.id, "none (real game)" if k is None else str(k), sum(size), secs, evaluate(rcg, pol).nash_conv]
                if states:
                    roots = find_roots_many(g, rcg, pol, states)
                    for m in methods:
                        parts = [(x, resolve(g, pol, x, m, "cfr+", resolve_iterations, roots[x]).policy)
                                 for x in states]
                        row.append(evaluate(rcg, _merge(g, rcg, pol, parts)).nash_conv)
                else:
                    row += [None] * len(methods)
                t.add(*row)
                advance(1)
        holdem = _holdem_abstraction_table(holdem_ks, 20 if quick else 100, quick, advance)
    report = Report("subgames-abstraction")
    report.tables.append(t)
    report.tables.append(holdem)
    report.notes.append("abstract infosets: both players together; k buckets in each round (the flop label keeps "
                        "the preflop bucket, for perfect recall); with k at least the distinct hands (Leduc: 3 "
                        "preflop, 9 flop) the abstraction is the real game relabelled")
    return report


#: the hold'em turn subgame of ``zerosum experiment depth-limited`` (the limit spot of issue 28)
LIMIT_TURN = {"board": "Ks7d2c9h", "raises": 3}
#: ``--quick``: the same board with narrow ranges and two bets a street
QUICK_TURN = {"board": "Ks7d2c9h", "raises": 2, "range0": "AA,KQs,77,T9s,A5s", "range1": "QQ,AK,98s,KJo"}


def depth_limited(plot=None, progress=False, blueprints=(10, 100), iterations=(100, 300), quick: bool = False,
                  resolve_iterations: int = 100) -> Report:
    """Depth-limited solving (:mod:`zerosum.resolving.depth_limited`) on Leduc and the limit hold'em
    turn subgame cut at the river: for each blueprint (DCFR x B on the whole tree), the first round
    solved by DCFR x N against one continuation (the blueprint's) and against four (multi-valued
    states), the combined profile's exact NashConv and seconds, beside DCFR on the whole tree for N
    iterations and for the depth-limited solve's time; on Leduc the same cut with DeepStack's leaf
    values (:mod:`zerosum.resolving.value_net`: a value network, and the subgames solved at each
    call), each leaf then re-solved with CFR-D's gadget.  Then re-solving on the public tree
    (:mod:`zerosum.resolving.resolve`) of the same turn subgame's first blueprint: each method at
    two rivers after check-check and at all of them at once (DCFR x ``resolve_iterations`` a
    subgame).  ``quick``: a narrow-range turn spot."""
    import time

    from ..games import load_game
    from ..progress import counted
    from ..public_tree.compile import public_tree
    from ..public_tree.passes import nash_conv_public
    from ..public_tree.solver import public_solver
    from ..resolving.depth_limited import depth_limited_solve
    from ..solvers.rules import DCFR

    if any(b < 1 for b in blueprints) or any(n < 1 for n in iterations):
        raise ZerosumError("blueprint and solve iterations must be at least 1")
    cases = [("poker", {}), ("holdem", QUICK_TURN if quick else LIMIT_TURN)]
    if quick:
        blueprints, iterations = (5,), (50,)
    report = Report("depth-limited")
    steps = len(cases) * len(blueprints) * (1 + 3 * len(iterations)) + 3 + 1 + 4 * (1 if quick else len(iterations))
    with counted(steps, "depth-limited", enabled=progress) as advance:
        for name, params in cases:
            tree = public_tree(load_game(name, **params))
            nc0 = nash_conv_public(tree, [np.full(n, 0.0) for n in tree.infoset_actions()])["nash_conv"]
            t = Table(f"{tree.game_id}: depth-limited solving, the first betting round solved against the blueprint's "
                      f"continuations below the cut (DCFR, exact NashConv of the combined profile; uniform play "
                      f"{nc0:.4f}, pot {tree.pot:g})",
                      ["blueprint", "method", "iterations", "build s", "solve s", "total s", "NashConv",
                       "% of pot"], digits=[None, None, 0, 2, 2, 2, 6, 3])
            public_solver("dcfr", tree).iterate(1)  # untimed: compiles the kernels
            for b in blueprints:
                t0 = time.perf_counter()
                s = public_solver("dcfr", tree)
                s.iterate(b)
                bp = s.average_policy()
                secs = time.perf_counter() - t0
                nc = nash_conv_public(tree, bp.probs)["nash_conv"]
                t.add(f"DCFR x {b}", "blueprint", b, None, secs, secs, nc, 100 * nc / tree.pot)
                advance(1)
                for n in iterations:
                    spent = 0.0
                    for k, label in ((1, "depth-limited, 1 continuation"), (4, "depth-limited, 4 continuations")):
                        r = depth_limited_solve(tree, bp, 1, n, DCFR(), continuations=k)
                        nc = nash_conv_public(tree, r.policy.probs)["nash_conv"]
                        spent = max(spent, r.build_s + r.solve_s)
                        t.add(f"DCFR x {b}", label, n, r.build_s, r.solve_s, r.build_s + r.solve_s, nc,
                              100 * nc / tree.pot)
                        advance(1)
                    for m, label in ((n, "whole tree, same iterations"), (None, "whole tree, same time")):
                        t0 = time.perf_counter()
                        s = public_solver("dcfr", tree)
                        while (m is not None and s.iteration < m) or (m is None and time.perf_counter() - t0 < spent):
                            s.iterate(1)
                        secs = time.perf_counter() - t0
                        nc = s.checkpoint()["nash_conv_average"]
                        t.add("-", label, s.iteration, None, secs, secs, nc, 100 * nc / tree.pot)
                    advance(1)
            report.tables.append(t)
        report.tables.append(_public_resolve_table(tree, blueprints[0], 20 if quick else resolve_iterations,
                                                   2 if quick else None, advance))
        report.tables.append(_leaf_values_table(iterations, quick, advance))
    report.notes.append("depth-limited: the blueprint below the cut for both players; '4 continuations': to solve each "
                        "player the opponent picks per hand at each leaf among its blueprint and the blueprint with "
                        "fold, call or raise x 5 (Brown, Sandholm and Amos 2018), one solve per player; 'same time': "
                        "DCFR on the whole tree for as long as the slower depth-limited solve of that row took")
    return report


def _public_resolve_table(tree, blueprint_iterations: int, iterations: int, limit, advance):
    """Each re-solving method on the public tree at two rivers after check-check of ``tree`` (the first
    and the middle one) and at all of them at once (``limit``: only that many rivers, for --quick),
    against a DCFR blueprint; a row's seconds are its four re-solves' and their evaluations (the
    first row's include the best responses of the turn's nodes that reach's gifts read, kept for
    the other rows), the last row's the whole table's."""
    import time

    from ..public_tree.form import CHANCE_NODE, DECISION
    from ..public_tree.passes import nash_conv_public
    from ..public_tree.policy import PublicPolicy
    from ..public_tree.solver import public_solver
    from ..resolving.resolve import resolve_public
    from ..solutions.analysis import subtree
    from ..solvers.rules import DCFR

    s = public_solver("dcfr", tree)
    s.iterate(blueprint_iterations)
    bp = s.average_policy()
    base = nash_conv_public(tree, bp.probs)["nash_conv"]
    chance = next(n for n in range(tree.n_nodes) if tree.kind[n] == CHANCE_NODE and tree.labels[n].endswith("cc"))
    f = int(tree.first_child[chance])
    rivers = list(range(f, f + int(tree.n_children[chance])))[:limit]
    t = Table(f"{tree.game_id}: re-solving rivers after check-check on the public tree (blueprint DCFR x "
              f"{blueprint_iterations}, NashConv {base:.6f}; DCFR x {iterations} per subgame); exact NashConv",
              ["public node", "rivers", *METHODS, "seconds"], digits=[None, 0, 6, 6, 6, 6, 1])
    cache: dict = {}
    merged = {m: [np.array(p) for p in bp.probs] for m in METHODS}
    shown = {0, len(rivers) // 2}
    start = time.perf_counter()
    for k, node in enumerate(rivers):
        t0 = time.perf_counter()
        row = []
        for m in METHODS:
            r = resolve_public(tree, bp, node, m, iterations, DCFR(), cache=cache)
            for x in subtree(tree, node):  # the subgames are disjoint: their strategies combine
                if tree.kind[x] == DECISION:
                    q, o, size = int(tree.player[x]), int(tree.offset[x]), int(tree.n_children[x]) * tree.n_hands[
                        int(tree.player[x])]
                    merged[m][q][o:o + size] = r.policy.probs[q][o:o + size]
            row.append(nash_conv_public(tree, r.policy.probs)["nash_conv"])
        if k in shown:
            t.add(tree.labels[node], 1, *row, time.perf_counter() - t0)
            advance(1)
    t.add("all at once", len(rivers), *[nash_conv_public(tree, PublicPolicy(tree, merged[m]).probs)["nash_conv"]
                                        if m != "reach" else None for m in METHODS], time.perf_counter() - start)
    advance(1)
    return t


def _leaf_values_table(iterations, quick: bool, advance):
    """Leduc cut after the first round with DeepStack's leaf values: a value network trained on solved
    subgames, and the exact version (each leaf's subgame solved at every call), N iterations each; the
    cut game with every leaf then re-solved with CFR-D's gadget, and DeepStack's continual re-solving
    agent (both seats); exact NashConv of the whole profile."""
    from ..games import load_game
    from ..public_tree.compile import public_tree
    from ..public_tree.passes import nash_conv_public
    from ..public_tree.solver import public_solver
    from ..resolving.value_net import (
        continual_resolving,
        exact_leaf_values,
        solve_with_leaf_values,
        train_value_network,
    )

    tree = public_tree(load_game("poker"))
    uniform = nash_conv_public(tree, [np.zeros(n) for n in tree.infoset_actions()])["nash_conv"]
    t = Table(f"{tree.game_id}: DeepStack's leaf values at the end of the first round (DCFR x N a solve): the cut game "
              f"with each leaf then re-solved by CFR-D's gadget, and the continual re-solving agent in both seats; "
              f"exact NashConv, random play {uniform:.4f}",
              ["leaf values", "agent", "iterations", "training s", "solve s", "re-solve s", "NashConv", "/ random",
               "whole tree DCFR x N"], digits=[None, None, 0, 1, 2, 2, 6, 5, 6])
    samples = 100 if quick else 4000
    finish = 50 if quick else 300
    net = train_value_network(tree, 1, samples, iterations=100 if quick else 300, steps=500 if quick else 10000)
    exact = exact_leaf_values(tree, 100 if quick else 300)
    advance(1)
    stats = net.stats
    for n in ((20,) if quick else iterations):
        s = public_solver("dcfr", tree)
        s.iterate(n)
        whole = s.checkpoint()["nash_conv_average"]
        network = f"value network ({samples:,} subgames, held-out error {stats['held_out_mae']:.3f})"
        for label, function, train in ((network, net, stats["sample_s"] + stats["train_s"]),
                                       ("exact (each leaf's subgame solved at every call)", exact, None)):
            r = solve_with_leaf_values(tree, 1, function, n, finish_iterations=finish)
            nc = nash_conv_public(tree, r.policy.probs)["nash_conv"]
            t.add(label, "cut game, leaves re-solved", n, train, r.solve_s, r.finish_s, nc, nc / uniform, whole)
            advance(1)
            c = continual_resolving(tree, function, n)
            nc = nash_conv_public(tree, c.policy.probs)["nash_conv"]
            t.add(label, f"continual ({sum(c.resolves)} re-solves)", n, train, c.seconds, None, nc, nc / uniform, whole)
            advance(1)
    return t


def _holdem_abstraction_table(ks, iterations: int, quick: bool, advance):
    """The limit hold'em turn subgame (``quick``: a narrow-range spot) solved by LCFR on its k-bucket
    abstractions (public tree, perfect recall) and unabstracted: the lifted policy's exact NashConv."""
    import time

    from ..games import load_game
    from ..public_tree.abstraction import abstract_solver
    from ..public_tree.compile import public_tree
    from ..public_tree.solver import public_solver

    tree = public_tree(load_game("holdem", **(QUICK_TURN if quick else LIMIT_TURN)))
    t = Table(f"{tree.game_id}: card abstraction on the public tree (k E[HS] buckets a street, perfect recall), "
              f"LCFR x {iterations}; exact NashConv of the lifted policy (pot {tree.pot:g})",
              ["buckets k", "abstract infosets", "solve s", "NashConv lifted", "% of pot"], digits=[None, 0, 2, 6, 3])
    public_solver("lcfr", tree).iterate(1)  # untimed: the kernels compile
    for k in (*ks, None):
        t0 = time.perf_counter()
        if k is None:
            s = public_solver("lcfr", tree)
            size = None  # filled below: a bucket per live hand counts the real information sets
        else:
            s, a = abstract_solver(tree, k, "lcfr")
            size = sum(a.infosets)
        s.iterate(iterations)
        secs = time.perf_counter() - t0
        nc = s.checkpoint()["nash_conv_average"]
        if size is None:
            from ..public_tree.abstraction import Abstraction

            size = sum(Abstraction(tree, 10**9).infosets)
        t.add("none (real game)" if k is None else str(k), size, secs, nc, 100 * nc / tree.pot)
        advance(1)
    return t
