"""Subgame re-solving on the history tree: unsafe, re-solve (CFR-D's gadget), max-margin and reach.

Given a game, a blueprint :class:`~zerosum.core.policy.TabularPolicy` and a *public state*, the
subgame below that public state is built as a :class:`~zerosum.core.game.Game` of its own (so the
generic compiler and every CFR variant of :data:`zerosum.solvers.SOLVERS` solve it unchanged), solved,
and its strategy written back into the blueprint: the combined profile (blueprint outside, re-solved
inside) is a profile of the whole game and gets the exact NashConv like any other.

**Public states** are named by the public part of the information-set labels: the bundled poker
games (kuhn, leduc, the poker family) put the private card first, so the public part of ``KQ:cc/r``
is ``Q:cc/r`` (Leduc after the public card Q, check-check in round one, a bet in round two) and of
Kuhn's ``Qp`` is ``p``.  A game can name them otherwise with a method ``public_state(label)``.
The subgame's roots are the decision histories whose label has that public part; every history
below them is in the subgame, and (for these games: the public part only grows) every information
set below them lies wholly inside it.

**Ranges.**  A walk of the full game under the blueprint gives each root history h its chance
probability c(h) and both players' reaches pi_0(h), pi_1(h).  The opponent's information set at the
root (needed by the gadgets) is its own label where it acts at h, else its last sequence in the full
game: right wherever private information arrives before the player's first decision (cards dealt
first), as in the poker games.

**Methods** (the re-solving player p, its opponent o):

* ``unsafe``: a chance root over the root histories with probability c * pi_0 * pi_1 (normalised):
  both ranges fixed at the blueprint's; both players' strategies are taken from one solve.
* ``resolve`` (Burch, Johanson, Bowling 2014, CFR-D's re-solving gadget): a chance root with
  probability c * pi_p (o's own reach left out: o chooses), then at each of o's root information
  sets I a gadget decision of o: ``T`` ends the game with o's blueprint value of I, ``F`` enters.
  The value of ``T`` is o's *counterfactual best-response value* CBV(I) against the blueprint
  (divided by I's weight N(I) = sum over h in I of c * pi_p, so that the infoset's value of ``T`` is
  CBV(I) exactly), as in Brown and Sandholm 2017: with o's counterfactual value under its own blueprint
  play instead, the blueprint itself would not meet the gadget's constraints and nothing is
  guaranteed.  Then an exact solve never lets o gain at any root infoset, so p's exploitability does
  not grow.
* ``maxmargin`` (Moravcik, Schmid, Ha, Hladik, Gaukrodger 2016): maximise the minimum over o's root
  information sets of the margin M(I) = CBV_blueprint(I) - CBV_new(I).  Gadget: the root is a
  decision of o that picks I (the chance choice among o's infosets replaced by o's choice); chance
  then picks h in I with probability c * pi_p / N(I), and o's payoffs below are N(I) * u_o - CBV(I),
  so that o's value of picking I is exactly -M(I) (margins in counterfactual units, unnormalised,
  as in the paper).  The game's value is minus the best minimum margin.
* ``reach`` (Brown and Sandholm 2017, reach-maxmargin): the max-margin gadget with each alternative
  CBV(I) raised by the *gifts* o gave up on its way to I: the sum over o's earlier sequences (I', a')
  on its path of CBV(I') - CBV(I', a') (o's best-response value at I' less that of the action it
  took, exact, against the blueprint).  The full gift of every earlier sequence is used, which is
  safe because one public state is re-solved at a time (the theorem needs the gifts split among the
  subgames sharing a path when several are re-solved at once) and, in the poker games, no two root
  infosets of one public state share an earlier sequence of o.  Margins may then be negative by up to
  the gift: the margin reported is against CBV(I) + gifts.

**Who is re-solved.**  ``resolve``, ``maxmargin`` and ``reach`` solve two subgames: player 0's
strategy from the gadget for player 1, and player 1's from the gadget for player 0 (both players
replaced, each re-solved against the other's blueprint range, the usual evaluation).  A player who
never reaches the public state under the blueprint keeps its blueprint there (it cannot matter).

Cost: the walk visits every history of the full game once in Python (poker(ranks=13), 166,349
histories: 0.2 s here); each subgame is
compiled with :func:`zerosum.core.compile.compile_game` (never the id-keyed cache: subgames of
different blueprints share names).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from ..core.compile import compile_game
from ..core.evaluation import evaluate
from ..core.game import CHANCE, TERMINAL, Game
from ..core.policy import TabularPolicy, policy_for
from ..core.sequence_form import best_response, collected_values, counterfactual_values, realization_plan
from ..errors import ZerosumError

METHODS = ("unsafe", "resolve", "maxmargin", "reach")


def public_state(game, label: str) -> str:
    """The public part of an information-set label (see the module docstring)."""
    own = getattr(game, "public_state", None)
    return own(label) if own is not None else str(label)[1:]


@dataclass
class Root:
    """One history at the root of the subgame, with what the blueprint says about it."""

    history: object
    chance: float
    reach: tuple[float, float]  # each player's blueprint reach
    last: tuple[int, int]  # each player's last sequence in the full game (0: none yet)
    label: str  # the acting player's information set


def find_roots(game: Game, cg, blueprint: TabularPolicy, node: str) -> list[Root]:
    """The decision histories whose public state is ``node``, with chance, reaches and last sequences;
    a ZerosumError listing some public states where none is."""
    return find_roots_many(game, cg, blueprint, [node])[node]


def find_roots_many(game: Game, cg, blueprint: TabularPolicy, nodes) -> dict[str, list[Root]]:
    """:func:`find_roots` for several public states in one walk of the game (the walk is the cost:
    poker(ranks=13), 166,349 histories: 0.2 s here, its compile 1.8 s)."""
    trees = cg.treeplexes
    probs = blueprint.probs
    wanted = set(nodes)
    found: dict[str, list[Root]] = {n: [] for n in wanted}
    seen: list[str] = []
    seen_set: set[str] = set()
    stack = [(game.root(), 1.0, (1.0, 1.0), (0, 0))]
    while stack:
        h, c, reach, last = stack.pop()
        p = game.player(h)
        if p == TERMINAL:
            continue
        if p == CHANCE:
            for a, q in game.chance_outcomes(h):
                if q > 0:
                    stack.append((game.child(h, a), c * q, reach, last))
            continue
        label = str(game.infoset(h))
        public = public_state(game, label)
        if public in wanted:
            found[public].append(Root(h, c, reach, last, label))
            continue
        if public not in seen_set:
            seen_set.add(public)
            seen.append(public)
        tree = trees[p]
        i = tree.index[label]
        f = int(tree.infoset_first[i])
        for k, a in enumerate(tree.action_labels[i]):
            r = list(reach)
            r[p] *= float(probs[p][f + k])
            nl = list(last)
            nl[p] = f + k
            stack.append((game.child(h, a), c, tuple(r), tuple(nl)))
    for node in nodes:
        if not found[node]:
            later = sorted([s for s in seen if "/" in s] or seen, key=lambda s: (len(s), s))  # poker: round two
            examples = ", ".join(repr(s) for s in later[:6])
            raise ZerosumError(f"no public state {node!r} in {game.id}; public states are named by the public "
                               f"part of the information-set labels, e.g. {examples} (zerosum solve {game.name} "
                               f"-a resolve --option node={later[0]!r} ...)")
    return found


def _opponent_key(game, cg, root: Root, o: int) -> str:
    """A readable key of o's information set at a root history (see the module docstring)."""
    if game.player(root.history) == o:
        return root.label
    s = root.last[o]
    if s == 0:
        raise ZerosumError("the opponent has neither acted before this public state nor acts at it: its "
                           "information there is unknown to the gadget; re-solve at a later public state")
    tree = cg.treeplexes[o]
    i = int(tree.seq_infoset[s])
    return f"{tree.infoset_labels[i]}>{tree.action_labels[i][s - int(tree.infoset_first[i])]}"


class Subgame(Game):
    """The subgame below a public state, as a Game (``mode``: ``fixed``, ``gadget`` or ``margin``).

    Histories: ``("root",)``; ``("gate", j)`` o's gadget decision of its root infoset j and
    ``("alt", j)`` its terminal alternative; ``("pick", j)`` chance inside o's pick of infoset j;
    ``("in", k, h)`` the full game's history h below root k, with the full game's labels.
    """

    name = "subgame"

    def __init__(self, game: Game, node: str, roots: list[Root], mode: str, opponent: int | None = None,
                 groups=None, alternatives=None, weights=None):
        self.game, self.node, self.roots, self.mode, self.o = game, node, roots, mode, opponent
        self.groups = groups or []  # (key, [root indices]) per opponent root infoset
        self.alternatives = alternatives or [0.0] * len(self.groups)
        self.group_of = {k: j for j, (_, ks) in enumerate(self.groups) for k in ks}
        w = np.asarray(weights, dtype=float)
        self.weights = w
        if mode == "margin":
            self.norm = [float(sum(w[k] for k in ks)) for _, ks in self.groups]

    def params(self):
        return {"game": self.game.id, "node": self.node, "mode": self.mode, "opponent": self.o}

    def root(self):
        return ("root",)

    def player(self, h):
        kind = h[0]
        if kind == "root":
            return self.o if self.mode == "margin" else CHANCE
        if kind == "gate":
            return self.o
        if kind == "alt":
            return TERMINAL
        if kind == "pick":
            return CHANCE
        return self.game.player(h[2])

    def actions(self, h):
        if h[0] == "root":
            return tuple(key for key, _ in self.groups)
        if h[0] == "gate":
            return ("T", "F")
        return tuple(self.game.actions(h[2]))

    def _spread(self, ks):
        total = float(sum(self.weights[k] for k in ks))
        return [(str(k), float(self.weights[k]) / total) for k in ks]

    def chance_outcomes(self, h):
        if h[0] == "root":
            return self._spread([k for k in range(len(self.roots)) if self.weights[k] > 0])
        if h[0] == "pick":
            return self._spread([k for k in self.groups[h[1]][1] if self.weights[k] > 0])
        return self.game.chance_outcomes(h[2])

    def child(self, h, action):
        kind = h[0]
        if kind == "root":
            if self.mode == "margin":
                return ("pick", [key for key, _ in self.groups].index(action))
            k = int(action)
            return ("gate", self.group_of[k], k) if self.mode == "gadget" else ("in", k, self.roots[k].history)
        if kind == "gate":
            return ("alt", h[1]) if action == "T" else ("in", h[2], self.roots[h[2]].history)
        if kind == "pick":
            k = int(action)
            return ("in", k, self.roots[k].history)
        return ("in", h[1], self.game.child(h[2], action))

    def payoff(self, h):
        if h[0] == "alt":  # o's alternative, as player 0's payoff
            v = self.alternatives[h[1]]
            return v if self.o == 0 else -v
        u = float(self.game.payoff(h[2]))
        if self.mode != "margin":
            return u
        j = self.group_of[h[1]]
        u_o = u if self.o == 0 else -u
        shifted = self.norm[j] * u_o - self.alternatives[j]
        return shifted if self.o == 0 else -shifted

    def infoset(self, h):
        if h[0] == "root":
            return "#pick"
        if h[0] == "gate":
            return "#gadget " + self.groups[h[1]][0]
        return self.game.infoset(h[2])


def strategy_on(sub_tree, full_tree, pi_full) -> np.ndarray:
    """A full-game behavioral strategy carried onto a subgame treeplex by labels (gadget infosets,
    absent from the full game, uniform)."""
    pi = sub_tree.uniform()
    for i, label in enumerate(sub_tree.infoset_labels):
        j = full_tree.index.get(label)
        if j is None:
            continue
        fj, fi = int(full_tree.infoset_first[j]), int(sub_tree.infoset_first[i])
        pos = {a: k for k, a in enumerate(full_tree.action_labels[j])}
        for k, a in enumerate(sub_tree.action_labels[i]):
            pi[fi + k] = pi_full[fj + pos[a]]
    return pi


def gadget_cbvs(sub_cg, full_cg, o: int, pi_p_full, z: float) -> dict[str, float]:
    """o's counterfactual best-response value CBV(I) of each root infoset (gate order) against the
    resolver's full-game strategy ``pi_p_full`` played in the subgame, from a ``gadget``-mode subgame's
    compiled form (the value under ``F``: what entering is worth to a best response), unnormalised."""
    p = 1 - o
    x_p = realization_plan(sub_cg.treeplexes[p], strategy_on(sub_cg.treeplexes[p], full_cg.treeplexes[p],
                                                               pi_p_full))
    tree = sub_cg.treeplexes[o]
    g = collected_values(sub_cg, o, x_p)
    _, choice = best_response(tree, g, with_policy=True)
    cfv, _ = counterfactual_values(tree, g, choice)
    out = []
    for i, label in enumerate(tree.infoset_labels):
        if label.startswith("#gadget "):
            out.append((label[len("#gadget "):], z * float(cfv[int(tree.infoset_first[i]) + 1])))
    return dict(out)


def gifts(full_cg, o: int, pi_p_full) -> np.ndarray:
    """Per sequence of o in the full game, the gift CBV(I') - CBV(I', a') against ``pi_p_full``,
    accumulated down o's path (each sequence's value: the sum of the gifts of it and its ancestors)."""
    tree = full_cg.treeplexes[o]
    x_p = realization_plan(full_cg.treeplexes[1 - o], pi_p_full)
    g = collected_values(full_cg, o, x_p)
    _, choice = best_response(tree, g, with_policy=True)
    cfv, v = counterfactual_values(tree, g, choice)
    total = np.zeros(tree.n_sequences)
    for s in range(1, tree.n_sequences):  # parents come first in sequence order
        gift = max(float(v[int(tree.seq_infoset[s])] - cfv[s]), 0.0)
        total[s] = total[int(tree.seq_parent[s])] + gift
    return total


@dataclass
class SubgameSolve:
    """One subgame solved: who was re-solved in it, its size, its own NashConv and the root margins."""

    players: tuple[int, ...]
    mode: str
    sizes: dict
    nash_conv: float  # of the subgame (gadget included), the solve's accuracy
    policy: TabularPolicy = field(repr=False)
    #: o's root infosets: blueprint CBV, alternative (CBV + gifts for reach), CBV after re-solving
    roots: list[dict] = field(default_factory=list)

    def to_dict(self) -> dict:
        """One entry of ``subgames`` in ``zerosum solve -a resolve --json``."""
        margins = [r["alternative"] - r["cbv_new"] for r in self.roots]
        return {"players": list(self.players), "mode": self.mode, "histories": self.sizes["histories"],
                "infosets": self.sizes["infosets"], "subgame_nash_conv": self.nash_conv,
                "opponent_root_infosets": len(self.roots), "min_margin": min(margins) if margins else None}


@dataclass
class Resolved:
    """The combined profile and what was measured on it."""

    policy: TabularPolicy
    node: str
    method: str
    solver: str
    iterations: int
    root_histories: int
    blueprint_nash_conv: float
    nash_conv: float
    subgames: list[SubgameSolve]
    #: each subgame solver's state (its ``state_dict()``, None for a one-shot solver), in solve order,
    #: where asked for (``keep_states``)
    states: list = field(default_factory=list, repr=False)

    def to_dict(self) -> dict:
        """The fields of ``zerosum solve -a resolve --json`` (less the game and the file)."""
        return {"node": self.node, "method": self.method, "solver": self.solver, "iterations": self.iterations,
                "root_histories": self.root_histories, "blueprint_nash_conv": self.blueprint_nash_conv,
                "nash_conv": self.nash_conv, "subgames": [s.to_dict() for s in self.subgames]}


def _solve(sub_cg, solver: str, iterations: int) -> TabularPolicy:
    """The subgame's policy solved by ``solver`` for ``iterations`` (see :func:`_solve_from`)."""
    return _solve_from(sub_cg, solver, iterations)[0]


def _solve_from(sub_cg, solver: str, iterations: int, state: dict | None = None):
    """The subgame solved by ``solver`` to ``iterations`` in all (from ``state``, a saved state of
    the same subgame solve, where given): its policy and the solver (for its state)."""
    from . import SOLVERS

    if solver not in SOLVERS:
        raise ZerosumError(f"unknown solver {solver!r} for the subgame; choose from {', '.join(sorted(SOLVERS))}")
    s = SOLVERS[solver](sub_cg)
    if state is not None:
        if not hasattr(s, "load_state_dict"):
            raise ZerosumError(f"the subgame solver {solver} has no state to resume")
        s.load_state_dict(state)
        if s.iteration > iterations:
            raise ZerosumError(f"the saved re-solve ran {s.iteration} iterations, more than -n {iterations}; "
                               f"resume with -n {s.iteration} or more")
    s.run(1 if not hasattr(s, "iterate") else iterations, [])
    if getattr(s, "result_strategy", "average") == "current":
        return s.current_policy(), s
    return s.average_policy(), s


def _state_of(solver) -> dict | None:
    """A subgame solver's state, or None where it has none (the LP, one-shot solvers)."""
    try:
        return solver.state_dict() if hasattr(solver, "state_dict") else None
    except ZerosumError:
        return None


def blueprint_digest(blueprint: TabularPolicy) -> str:
    """A fingerprint of a blueprint's probabilities (SHA-256 of the arrays): a saved re-solve
    resumes only on the blueprint it was made from (another one changes the subgame's ranges and
    gadget values, not its shape, so nothing else would notice)."""
    import hashlib

    h = hashlib.sha256()
    for pi in blueprint.probs:
        h.update(np.ascontiguousarray(pi, dtype=np.float64).tobytes())
    return h.hexdigest()


def build_subgame(game: Game, blueprint: TabularPolicy, node: str, method: str, resolver: int | None = None,
                  roots: list[Root] | None = None):
    """The subgame Game for ``method`` (``resolver``: the re-solved player, for the gadgets) and, for
    the gadgets, the blueprint's CBV of each of the opponent's root infosets (key -> value)."""
    cg = policy_for(game, blueprint)
    roots = find_roots(game, cg, blueprint, node) if roots is None else roots
    if method == "unsafe":
        w = [r.chance * r.reach[0] * r.reach[1] for r in roots]
        if sum(w) <= 0:
            raise ZerosumError(f"the blueprint never reaches public state {node!r}: unsafe re-solving needs both "
                               f"ranges; use --option method=resolve")
        return Subgame(game, node, roots, "fixed", weights=w), {}
    if method not in METHODS:
        raise ZerosumError(f"unknown re-solving method {method!r}; choose from {', '.join(METHODS)}")
    p = resolver
    o = 1 - p
    w = [r.chance * r.reach[p] for r in roots]
    z = float(sum(w))
    groups: dict[str, list[int]] = {}
    for k, r in enumerate(roots):
        if w[k] > 0:
            groups.setdefault(_opponent_key(game, cg, r, o), []).append(k)
    group_list = list(groups.items())
    probe = Subgame(game, node, roots, "gadget", o, group_list, None, w)
    cbv = gadget_cbvs(compile_game(probe, estimate=False), cg, o, blueprint.probs[p], z)
    alts = [cbv[key] for key, _ in group_list]
    if method == "reach":
        gift = gifts(cg, o, blueprint.probs[p])
        for j, (key, ks) in enumerate(group_list):
            alts[j] += float(gift[roots[ks[0]].last[o]])
    if method == "resolve":
        norm = [sum(w[k] for k in ks) for _, ks in group_list]
        sub = Subgame(game, node, roots, "gadget", o, group_list, [a / n for a, n in zip(alts, norm)], w)
    else:
        sub = Subgame(game, node, roots, "margin", o, group_list, alts, w)
    return sub, {"cbv": cbv, "alternatives": dict(zip([k for k, _ in group_list], alts)), "z": z,
                 "probe": probe}


def resolve(game: Game, blueprint: TabularPolicy, node: str, method: str = "resolve", solver: str = "cfr+",
            iterations: int = 1000, roots: list[Root] | None = None, states: list | None = None,
            keep_states: bool = False) -> Resolved:
    """Re-solve ``blueprint`` at public state ``node`` by ``method`` with ``solver`` for ``iterations``;
    the combined profile with both NashConvs (see the module docstring).  ``roots``: the state's
    roots if already found (:func:`find_roots_many`), to save the walk.  ``states``: the subgame
    solvers' saved states (``Resolved.states`` of an earlier call with the same arguments but
    fewer iterations), to resume them: the same figures as one run of ``iterations``;
    ``keep_states``: put the solvers' states in ``Resolved.states`` (None for a one-shot solver)."""
    if method not in METHODS:
        raise ZerosumError(f"unknown re-solving method {method!r}; choose from {', '.join(METHODS)}")
    cg = policy_for(game, blueprint)
    roots = find_roots(game, cg, blueprint, node) if roots is None else roots
    probs = [pi.copy() for pi in blueprint.probs]
    solves, saved = [], []
    plans = [((0, 1), None)] if method == "unsafe" else [((0,), 0), ((1,), 1)]
    for players, resolver in plans:
        if resolver is not None and sum(r.chance * r.reach[resolver] for r in roots) <= 0:
            continue  # this player never gets here: its blueprint stays
        sub, info = build_subgame(game, blueprint, node, method, resolver, roots)
        sub_cg = compile_game(sub, estimate=False)
        if states is not None and len(states) <= len(saved):
            raise ZerosumError("the saved re-solve holds fewer subgame solves than this one makes")
        pol, sub_solver = _solve_from(sub_cg, solver, iterations, None if states is None else states[len(saved)])
        saved.append(_state_of(sub_solver) if keep_states else None)
        for p in players:
            _write_back(cg.treeplexes[p], sub_cg.treeplexes[p], probs[p], pol.probs[p])
        rows = []
        if resolver is not None:
            new = gadget_cbvs(compile_game(info["probe"], estimate=False), cg, 1 - resolver, probs[resolver], info["z"])
            rows = [{"infoset": key, "cbv_blueprint": info["cbv"][key], "alternative": info["alternatives"][key],
                     "cbv_new": new[key]} for key in info["cbv"]]
        solves.append(SubgameSolve(players, sub.mode, sub_cg.sizes(), evaluate(sub_cg, pol).nash_conv, pol, rows))
    combined = TabularPolicy(cg, probs)
    return Resolved(combined, node, method, solver, iterations, len(roots), evaluate(cg, blueprint).nash_conv,
                    evaluate(cg, combined).nash_conv, solves, saved)


def _write_back(full_tree, sub_tree, pi_full: np.ndarray, pi_sub: np.ndarray) -> None:
    """The subgame's strategy at every full-game information set it holds, in place."""
    for i, label in enumerate(sub_tree.infoset_labels):
        j = full_tree.index.get(label)
        if j is None:
            continue
        fj, fi = int(full_tree.infoset_first[j]), int(sub_tree.infoset_first[i])
        pos = {a: k for k, a in enumerate(sub_tree.action_labels[i])}
        for k, a in enumerate(full_tree.action_labels[j]):
            pi_full[fj + k] = pi_sub[fi + pos[a]]


def public_states(game: Game) -> list[str]:
    """Every public state of ``game`` with a decision (for listings and experiments), in walk order."""
    out, seen = [], set()
    stack = [game.root()]
    while stack:
        h = stack.pop()
        p = game.player(h)
        if p == TERMINAL:
            continue
        if p == CHANCE:
            stack.extend(game.child(h, a) for a, q in reversed(list(game.chance_outcomes(h))) if q > 0)
            continue
        s = public_state(game, str(game.infoset(h)))
        if s not in seen:
            seen.add(s)
            out.append(s)
        stack.extend(game.child(h, a) for a in reversed(list(game.actions(h))))
    return out


__all__ = ["METHODS", "Resolved", "Subgame", "blueprint_digest", "build_subgame", "find_roots", "find_roots_many", "gadget_cbvs", "gifts", "public_state",
           "public_states", "resolve", "strategy_on"]
