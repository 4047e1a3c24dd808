"""Continual re-solving (Moravcik et al. 2017, DeepStack) on the history tree, tabulated and evaluated exactly.

The agent plays the whole game.  At the start it solves the whole game (``solver`` x ``root_iterations``,
or a given ``root_policy``: the LP's equilibrium in the tests); from then on, at every public state where
it must act, it re-solves the subgame below that public state with CFR-D's re-solving gadget
(:mod:`zerosum.solvers.resolve`, mode ``gadget``) and acts by the re-solved strategy.  What it carries
from one of its decisions to the next is DeepStack's pair:

* **its own range**: its reach of each history of the next public state, the product of its own
  re-solved strategies along the way (chance included), the gadget's chance weights;
* **the opponent's counterfactual values**: at each of the opponent's information sets at the next
  public state, the opponent's counterfactual *best-response* value against the agent's strategy in
  the *last re-solve* (never a blueprint's, except the root solve's before the agent's first re-solve),
  normalised by the agent's range there: the values of the gadget's ``T``.  Best-response values
  rather than the opponent's values under its own re-solved play, for the reason given in
  :mod:`zerosum.solvers.resolve` (with the latter, the strategy being re-solved need not meet the
  gadget's constraints, at opponent information sets the re-solved play leaves unreached).

The re-solves go to the end of the game (no depth limit, no value network): the leaves are exact.

**Tabulation.**  In the poker games (and Kuhn) the agent's range and the opponent's values at a public
state are functions of the public history alone, so one re-solve per public state per seat gives the
agent's strategy at all its information sets there: a walk of the public states in the order play
reaches them (a re-solve's results feed the states below it) tabulates the policy the agent induces
over its whole treeplex.  Seat 0's tabulated strategy and seat 1's make a profile of the whole game
(both players are the agent), evaluated with :func:`zerosum.core.evaluation.evaluate` like any other.
A public state that the agent's own range never reaches (its earlier re-solves never play into it)
keeps the root solve's strategy: it cannot change any value.

**Compute** is counted as CFR iterations x histories of the game solved (the root solve's plus each
re-solve's); ``cost`` / histories of the whole game is the number of whole-game CFR iterations that
cost the same, the comparison used by ``zerosum experiment subgames``.  Each public state's subgame is
compiled twice (the probe that measures the opponent's values, then the gadget with them as ``T``);
on Leduc (1,939 histories, 95 re-solves) the compiles are most of the time, and of each compile most
is :func:`zerosum.core.compile.estimate_histories` (1,000 random paths; under the profiler 18.6 s of
20.8 s in compiles, CFR+ x 3), which is why the time hardly grows with the iterations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ..core.compile import compile_game, compiled
from ..core.evaluation import evaluate
from ..core.game import CHANCE, TERMINAL, Game
from ..core.policy import TabularPolicy, policy_for
from ..errors import ZerosumError
from .resolve import Root, Subgame, _solve, gadget_cbvs, public_state


@dataclass
class Continual:
    """The tabulated agent and what was measured on it."""

    policy: TabularPolicy
    solver: str
    iterations: int
    root_iterations: int
    nash_conv: float
    value: float  # player 0's expected value of the profile
    resolves: list[int]  # re-solves per seat (public states where the seat acts and its range reaches)
    unreached: list[int]  # public states per seat where it acts but its range never gets there
    cost: int  # CFR iterations x histories, root solve included (both seats: the root solve counted once)
    full_histories: int
    #: per re-solve: seat, public state, ``from`` (the public state of the re-solve whose strategy gave the
    #: range and the opponent's values; None: the root solve), roots, subgame histories, its own NashConv
    states: list[dict] = field(default_factory=list, repr=False)

    @property
    def equivalent_iterations(self) -> float:
        """Whole-game CFR iterations at the same cost."""
        return self.cost / self.full_histories

    def to_dict(self) -> dict:
        """The fields of ``zerosum solve GAME -a continual --json`` (less the game)."""
        return {"solver": self.solver, "iterations": self.iterations, "root_iterations": self.root_iterations,
                "nash_conv": self.nash_conv, "exploitability": self.nash_conv / 2, "value": self.value,
                "resolves": self.resolves, "unreached_states": self.unreached, "cost": self.cost,
                "equivalent_iterations": self.equivalent_iterations}


class _Gadget(Subgame):
    """CFR-D's gadget subgame (:class:`~zerosum.solvers.resolve.Subgame`, mode ``gadget``) with its root's
    chance distribution computed once: the compiler's size estimate asks for it on each of its 1,000
    random paths, and each answer sums the weights of every root (Leduc, CFR+ x 4 per re-solve, on a
    loaded machine: 4.9 s a run, 5.4 s without; the rest is mostly that estimate, see the module
    docstring)."""

    def chance_outcomes(self, h):
        if h[0] != "root":
            return super().chance_outcomes(h)
        cached = getattr(self, "_root_outcomes", None)
        if cached is None:
            cached = self._root_outcomes = super().chance_outcomes(h)
        return cached


def _walk(game: Game, starts, p: int, current, tree, pi) -> dict[str, list]:
    """From ``starts`` ((history, chance, p's reach, o's last sequence key)), follow the game down to the
    next histories where p acts at a public state other than ``current``; p's choices at ``current``
    by ``pi`` on ``tree`` (labels of the full game).  Grouped by public state, in the order met."""
    out: dict[str, list] = {}
    stack = list(reversed(starts))
    while stack:
        h, c, r, last = stack.pop()
        q = game.player(h)
        if q == TERMINAL:
            continue
        if q == CHANCE:
            for a, prob in reversed(list(game.chance_outcomes(h))):
                if prob > 0:
                    stack.append((game.child(h, a), c * prob, r, last))
            continue
        label = str(game.infoset(h))
        if q != p:
            for a in reversed(list(game.actions(h))):
                stack.append((game.child(h, a), c, r, f"{label}>{a}"))
            continue
        s = public_state(game, label)
        if s != current:
            out.setdefault(s, []).append((h, c, r, last, label))
            continue
        i = tree.index[label]
        f = int(tree.infoset_first[i])
        for k, a in reversed(list(enumerate(tree.action_labels[i]))):
            stack.append((game.child(h, a), c, r * float(pi[f + k]), last))
    return out


def _gadget(game, state, rows, p):
    """The gadget subgame's pieces at ``state``: roots, opponent groups (key, root indices), weights."""
    o = 1 - p
    roots = [Root(h, c, (r, r), (0, 0), label) for h, c, r, _, label in rows]
    w = [c * r for _, c, r, _, _ in rows]
    groups: dict[str, list[int]] = {}
    for k, (_, _, _, last, _) in enumerate(rows):
        if w[k] > 0:
            if last is None:
                raise ZerosumError(f"at public state {state!r} the opponent has not acted yet: its information is "
                                   f"unknown to the gadget (continual re-solving starts with a whole-game solve)")
            groups.setdefault(last, []).append(k)
    return roots, list(groups.items()), w, o


def _tabulate_seat(game, cg, p, root_policy, solver, iterations, states):
    """Seat p's tabulated strategy (a copy of the root solve's, overwritten by each re-solve)."""
    full = cg.treeplexes[p]
    probs = root_policy.probs[p].copy()
    first = public_state(game, str(_first_label(game)))
    current = first if _first_player(game) == p else None
    pending = [(_walk(game, [(game.root(), 1.0, 1.0, None)], p, current, full, root_policy.probs[p]), cg,
                root_policy.probs[p], None)]
    count = unreached = cost = 0
    while pending:
        found, src_cg, src_pi, parent = pending.pop(0)
        for state, rows in found.items():
            roots, groups, w, o = _gadget(game, state, rows, p)
            z = float(sum(w))
            if z <= 0:
                unreached += 1
                continue
            probe = _Gadget(game, state, roots, "gadget", o, groups, None, w)
            cbv = gadget_cbvs(compile_game(probe, estimate=False), src_cg, o, src_pi, z)
            alts = [cbv[key] / sum(w[k] for k in ks) for key, ks in groups]
            sub_cg = compile_game(_Gadget(game, state, roots, "gadget", o, groups, alts, w), estimate=False)
            pol = _solve(sub_cg, solver, iterations)
            count += 1
            cost += iterations * sub_cg.sizes()["histories"]
            tree = sub_cg.treeplexes[p]
            for i, label in enumerate(tree.infoset_labels):
                if public_state(game, label) != state or label not in full.index:
                    continue
                j = full.index[label]
                fj, fi = int(full.infoset_first[j]), int(tree.infoset_first[i])
                pos = {a: k for k, a in enumerate(tree.action_labels[i])}
                for k, a in enumerate(full.action_labels[j]):
                    probs[fj + k] = pol.probs[p][fi + pos[a]]
            states.append({"seat": p, "state": state, "from": parent, "roots": len(roots),
                           "histories": sub_cg.sizes()["histories"], "subgame_nash_conv": evaluate(sub_cg, pol).nash_conv})
            starts = [(h, c, r, last) for h, c, r, last, _ in rows]
            pending.append((_walk(game, starts, p, state, tree, pol.probs[p]), sub_cg, pol.probs[p], state))
    return probs, count, unreached, cost


def _first_label(game):
    h = game.root()
    while game.player(h) == CHANCE:
        h = game.child(h, next(a for a, q in game.chance_outcomes(h) if q > 0))
    return game.infoset(h)


def _first_player(game) -> int:
    h = game.root()
    while game.player(h) == CHANCE:
        h = game.child(h, next(a for a, q in game.chance_outcomes(h) if q > 0))
    return int(game.player(h))


def continual(game: Game, solver: str = "cfr+", iterations: int = 100, root_iterations: int | None = None,
              root_policy: TabularPolicy | None = None) -> Continual:
    """Tabulate the continual re-solving agent in both seats and evaluate the profile exactly (see the
    module docstring): the root solve is ``root_policy`` if given, else ``solver`` x ``root_iterations``
    (default: ``iterations``) on the whole game; every re-solve ``solver`` x ``iterations``."""
    from . import SOLVERS

    if solver not in SOLVERS:
        raise ZerosumError(f"unknown solver {solver!r}; choose from {', '.join(sorted(SOLVERS))}")
    if iterations < 1:
        raise ZerosumError(f"iterations must be at least 1, got {iterations}")
    root_iterations = iterations if root_iterations is None else root_iterations
    if root_iterations < 1:
        raise ZerosumError(f"root_iterations must be at least 1, got {root_iterations}")
    cg = compiled(game)
    n = cg.sizes()["histories"]
    cost = 0
    if root_policy is None:
        root_policy = _solve(cg, solver, root_iterations)
        cost += root_iterations * n
    else:
        cg = policy_for(game, root_policy)
        root_iterations = 0
    probs, counts, unreached, states = [], [], [], []
    for p in (0, 1):
        pi, k, u, c = _tabulate_seat(game, cg, p, root_policy, solver, iterations, states)
        probs.append(pi)
        counts.append(k)
        unreached.append(u)
        cost += c
    pol = TabularPolicy(cg, probs)
    ev = evaluate(cg, pol)
    return Continual(pol, solver, iterations, root_iterations, ev.nash_conv, ev.value, counts, unreached, cost, n,
                     states)


__all__ = ["Continual", "continual"]
