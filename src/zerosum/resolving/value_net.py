"""Counterfactual values at the depth limit from the subgame's solution or from a value network
(DeepStack's counterfactual value network; issue 30, 3c), on the public tree.

At a leaf L of a tree cut after ``depth`` rounds (:mod:`.depth_limited`), DeepStack's leaf value is
the value of the subgame below L *solved for the ranges that reach it*: ``v0, v1 = V_L(r0, r1)``, the
counterfactual values of both players' hands at L when both play an equilibrium of the subgame
entered with those ranges.  Unlike a blueprint continuation it is not bilinear: it moves with the
ranges, which is what makes the cut game's solution sound (Moravcik et al. 2017).

* :func:`subgame_values` computes V_L exactly: the subtree of L as a public tree of its own with the
  given ranges (:func:`leaf_tree`), solved by the compiled public-tree solver (DCFR x ``iterations``,
  about 14 ms for a Leduc flop at 300 iterations here).  As a leaf function it is the *exact-leaf*
  version of depth-limited solving: every iteration of the cut game solves every leaf again.
* :class:`ValueNetwork` is an MLP fitted to samples of V_L (:func:`train_value_network`): inputs the
  two normalized reaches and the leaf (one-hot), outputs each player's values divided by the
  opponent's reach mass (V_L is homogeneous: scaling r_o scales v_p, scaling r_p changes nothing, and
  the subgame's equilibrium depends on the normalized ranges only).  Trained with JAX (the ``deep``
  extra); predicting is NumPy, so a trained network, saved as ``.npz``, solves without JAX.

:func:`solve_with_leaf_values` solves the cut game with either leaf function and then re-solves each
leaf's subgame with CFR-D's gadget, as DeepStack does when play reaches it (every leaf once, so the
result is a profile of the whole tree and its NashConv is exact); :func:`continual_resolving` is
DeepStack's whole agent, re-solving at every public node it reaches, tabulated over both seats.
"""

from __future__ import annotations

import dataclasses
import time
from dataclasses import dataclass

import numpy as np

from ..errors import ZerosumError
from ..public_tree.form import DECISION, Hands, Nodes, PublicTree, assemble
from ..public_tree.terminals import SWEEP
from ..solutions.analysis import node_values, path_reach, subtree
from .depth_limited import TruncatedGame, TruncatedSolver, combined, cut

#: DCFR iterations of each subgame solve (targets and the exact-leaf version)
SUBGAME_ITERATIONS = 300


def leaf_tree(tree: PublicTree, node: int, ranges) -> PublicTree:
    """The subtree of ``node`` as a public tree of its own whose ranges are ``ranges`` (both players'
    reaches at ``node``): the same boards and terminal data, nodes renumbered parents first."""
    nodes = subtree(tree, node)
    new = {int(n): k for k, n in enumerate(nodes)}
    parent = np.array([-1] + [new[int(tree.parent[n])] for n in nodes[1:]], dtype=np.int64)
    terminals = tree.terminals
    ranges = (np.asarray(ranges[0], dtype=np.float64), np.asarray(ranges[1], dtype=np.float64))
    if terminals.kind == SWEEP:  # its per-player hand lists follow the ranges' support (masks on the shared list)
        players = np.zeros((2, len(terminals.cards)), dtype=bool)
        for q in (0, 1):
            players[q, tree.hand_window(q)] = ranges[q] > 0
        terminals = dataclasses.replace(terminals, players=players, prefix=None)
    below = Nodes(tree.kind[nodes], tree.player[nodes], parent, tree.board[nodes], tree.stake[nodes],
                  [tree.labels[n] for n in nodes], [tree.action_labels[n] for n in nodes])
    return assemble(f"{tree.game_id}@{tree.labels[node]}", below, Hands(tree.hand_labels, ranges), terminals, 0,
                    tree.pot)


def subgame_values(tree: PublicTree, node: int, r0, r1, iterations: int = SUBGAME_ITERATIONS):
    """(v0, v1, policy): both players' counterfactual values at ``node`` in the subgame below it,
    entered with reaches r0 and r1 and solved by DCFR x ``iterations`` (each player's best-response
    values against the other's average: at an equilibrium, the values of the hands it plays), and
    that policy (on :func:`leaf_tree`'s tree)."""
    from ..public_tree.solver import PublicTreeSolver
    from ..solvers.rules import DCFR

    if not (np.any(r0 > 0) and np.any(r1 > 0)):  # nobody reaches it: nothing to solve, no value
        return np.zeros(tree.n_hands[0]), np.zeros(tree.n_hands[1]), None
    sub = leaf_tree(tree, node, (r0, r1))
    solver = PublicTreeSolver(sub, DCFR())
    solver.iterate(iterations)
    policy = solver.average_policy()
    # each player's best-response values against the other's average: where a hand has reach 0 the
    # average plays it uniformly, and its value under the average would say too little (measured on
    # Leduc: the cut game then learns never to enter such states, NashConv 1.0 instead of 0.25)
    v0 = node_values(sub, policy, 0, best_response=0)["cfv"][0]
    v1 = node_values(sub, policy, 0, best_response=1)["cfv"][1]
    return v0, v1, policy


def _features(n_leaves: int, k: int, r0: np.ndarray, r1: np.ndarray) -> np.ndarray:
    m0, m1 = r0.sum(), r1.sum()
    onehot = np.zeros(n_leaves)
    onehot[k] = 1.0
    return np.concatenate([r0 / (m0 if m0 > 0 else 1.0), r1 / (m1 if m1 > 0 else 1.0), onehot])


@dataclass
class ValueNetwork:
    """An MLP from (normalized r0, normalized r1, leaf one-hot) to (v0 / |r1|, v1 / |r0|) at the
    leaves of ``tree`` cut after ``depth`` rounds.  ``params``: [(W, b)] float32, ReLU hidden layers."""

    tree: PublicTree
    depth: int
    leaves: list
    params: list
    stats: dict = dataclasses.field(default_factory=dict)

    def predict(self, node: int, r0, r1):
        """(v0, v1) at leaf ``node`` for reaches r0, r1 (NumPy forward pass)."""
        k = self.leaves.index(int(node))
        x = _features(len(self.leaves), k, np.asarray(r0), np.asarray(r1))
        for w, b in self.params[:-1]:
            x = np.maximum(x @ w + b, 0.0)
        w, b = self.params[-1]
        out = (x @ w + b).astype(np.float64)
        n0 = self.tree.n_hands[0]
        return out[:n0] * float(np.sum(r1)), out[n0:] * float(np.sum(r0))

    def __call__(self, node, r0, r1):
        return self.predict(node, r0, r1)

    def save(self, path) -> None:
        """The network as ``.npz`` of arrays (no pickle): the layers, the leaves, the tree's id, depth."""
        from ..files import write_atomic

        arrays = {f"w{i}": w for i, (w, _) in enumerate(self.params)}
        arrays.update({f"b{i}": b for i, (_, b) in enumerate(self.params)})

        def write(tmp):
            with open(tmp, "wb") as f:
                np.savez(f, leaves=np.array(self.leaves), depth=np.array(self.depth),
                         game=np.array(self.tree.game_id), **arrays)

        write_atomic(str(path), write)

    @classmethod
    def load(cls, tree: PublicTree, path) -> ValueNetwork:
        """A network saved by :meth:`save`, for ``tree`` (refused in one line for another game)."""
        try:
            with np.load(str(path), allow_pickle=False) as data:
                game, depth, leaves = str(data["game"]), int(data["depth"]), [int(x) for x in data["leaves"]]
                layers = len([k for k in data.files if k.startswith("w")])
                params = [(data[f"w{i}"], data[f"b{i}"]) for i in range(layers)]
        except (OSError, KeyError, ValueError):
            raise ZerosumError(f"{str(path)!r} is not a value network file (zerosum's .npz)") from None
        if game != tree.game_id:
            raise ZerosumError(f"{str(path)!r} is a value network of {game!r}, not of {tree.game_id!r}")
        return cls(tree, depth, leaves, params)


def _random_reach(rng, n: int) -> np.ndarray:
    """A random range: each hand's weight uniform squared (skewed to small), some hands at 0."""
    r = rng.random(n) ** 2
    r[rng.random(n) < 0.2] = 0.0
    if not r.any():
        r[rng.integers(n)] = 1.0
    return r


def train_value_network(tree: PublicTree, depth: int = 1, samples: int = 4000, iterations: int = SUBGAME_ITERATIONS,
                        hidden=(128, 128), steps: int = 10000, seed: int = 0, progress=None) -> ValueNetwork:
    """Fit a :class:`ValueNetwork` to ``samples`` solved subgames (a leaf drawn uniformly, random
    reaches of both players, DCFR x ``iterations``); 10 % held out: ``stats`` holds the held-out
    mean absolute error of the values (in chips, as the solver reads them), the seconds spent
    sampling and training.  ``progress(done, total)`` while sampling.  Defaults measured on Leduc
    (one run): 2,000 samples and [64, 64] x 4,000 steps, held-out error 0.032 chips and the cut
    game's NashConv 0.236 at 100 iterations; 4,000 samples and [128, 128] x 10,000 steps (27 s),
    0.024 and 0.095 (the exact leaves: 0.060)."""
    from ..deep.training import fit_network, numpy_params
    from ..learning.networks import require_jax, seed_key

    if samples < 10:
        raise ZerosumError(f"a value network needs at least 10 samples, got {samples}")
    require_jax()  # a one-line error without the deep extra, before any sampling
    _, leaves = cut(tree, depth)
    leaves = [int(x) for x in leaves]
    if not leaves:
        raise ZerosumError(f"{tree.game_id} has no public chance node {depth} round(s) deep: nothing to learn")
    rng = np.random.default_rng(seed)
    n0, n1 = tree.n_hands
    x, y, raw = [], [], []
    t0 = time.perf_counter()
    for s in range(samples):
        k = int(rng.integers(len(leaves)))
        r0, r1 = _random_reach(rng, n0), _random_reach(rng, n1)
        v0, v1, _ = subgame_values(tree, leaves[k], r0, r1, iterations)
        x.append(_features(len(leaves), k, r0, r1))
        y.append(np.concatenate([v0 / r1.sum(), v1 / r0.sum()]))
        raw.append((k, r0, r1, v0, v1))
        if progress is not None and (s + 1) % 50 == 0:
            progress(s + 1, samples)
    sample_s = time.perf_counter() - t0
    x, y = np.array(x, dtype=np.float32), np.array(y, dtype=np.float32)
    held = max(1, samples // 10)
    train = slice(held, None)
    t0 = time.perf_counter()
    m = len(x) - held
    params, loss = fit_network(seed_key(seed, 30), [x.shape[1], *hidden, y.shape[1]], x[train],
                               np.ones((m, y.shape[1]), dtype=bool), np.arange(m, dtype=np.int32), y[train],
                               np.ones(m, dtype=np.float32), m, loss="mse", steps=steps, batch=min(256, m),
                               learning_rate=1e-3, decay=True)
    net = ValueNetwork(tree, depth, leaves, numpy_params(params))
    errors = []
    for k, r0, r1, v0, v1 in raw[:held]:
        p0, p1 = net.predict(leaves[k], r0, r1)
        errors.append(np.concatenate([np.abs(p0 - v0), np.abs(p1 - v1)]).mean())
    net.stats = {"samples": samples, "held_out": held, "held_out_mae": float(np.mean(errors)),
                 "train_loss": float(loss), "sample_s": sample_s, "train_s": time.perf_counter() - t0,
                 "subgame_iterations": iterations, "hidden": list(hidden), "steps": steps, "seed": seed}
    return net


@dataclass
class LeafValueResult:
    policy: object  # PublicPolicy of the whole tree
    iterations: int
    solve_s: float
    finish_s: float
    leaf_calls: int


def solve_with_leaf_values(tree: PublicTree, depth: int, function, iterations: int = 100, variant=None,
                           finish_iterations: int = SUBGAME_ITERATIONS) -> LeafValueResult:
    """Solve ``tree`` cut after ``depth`` rounds with ``function(leaf, r0, r1) -> (v0, v1)`` at its
    leaves (a :class:`ValueNetwork`, or :func:`exact_leaf_values`), then re-solve each leaf's
    subgame as DeepStack does when play reaches it: for each player P, CFR-D's gadget with P's reach
    under the cut game's average and, as the opponent's alternatives, the opponent's leaf values
    averaged over the iterations with the average strategy's weights (CFR-D: against the average
    strategy above the cut, those are the opponent's counterfactual values there); DCFR x
    ``finish_iterations`` each.  The result is a profile of the whole tree."""
    from ..public_tree.policy import PublicPolicy
    from ..solvers.rules import DCFR
    from .depth_limited import Gadget

    variant = variant or DCFR()
    calls = [0]
    sums: dict = {}  # leaf -> [weighted v0 sum, weighted v1 sum, [weight 0, weight 1]]
    game = TruncatedGame.with_values(tree, depth, None)
    solver = TruncatedSolver(game, variant)

    def recorded(node, r0, r1):
        calls[0] += 1
        out = function(node, r0, r1)
        p = game.pass_player
        entry = sums.setdefault(node, [np.zeros(len(r0)), np.zeros(len(r1)), [0.0, 0.0]])
        w = variant.average_weight(solver.iteration)
        entry[p] += w * np.asarray(out[p], dtype=np.float64)  # the player's value in its own pass
        entry[2][p] += w
        return out

    for leaf in game.leaves.values():
        leaf.function = recorded
    solver.iterate(iterations)
    top = combined(PublicPolicy(tree, [np.full(n, 1.0) for n in tree.infoset_actions()]), solver.average_strategy())
    probs = [p.copy() for p in top.probs]  # the cut game's average above, each leaf's re-solve below
    t0 = time.perf_counter()
    for leaf in game.leaves:
        reach = path_reach(tree, top, leaf)
        nodes = subtree(tree, leaf)
        for p in (0, 1):
            o = 1 - p
            mine = nodes[(tree.kind[nodes] == DECISION) & (tree.player[nodes] == p)]
            entry = sums.get(leaf)
            if not reach[p].any() or entry is None or entry[2][o] == 0:  # unreached: uniform, no value depends on it
                for n in mine.tolist():
                    o_, size = int(tree.offset[n]), int(tree.n_children[n]) * tree.n_hands[p]
                    probs[p][o_:o_ + size] = 1.0 / int(tree.n_children[n])
                continue
            alt = entry[o] / entry[2][o]
            sub = TruncatedGame(tree, nodes, {}, -1, root=int(leaf), top=tuple(reach))
            gsolver = TruncatedSolver(sub, DCFR(), Gadget("gate", o, alt))
            gsolver.iterate(finish_iterations)
            avg = gsolver.average_strategy()
            for n in mine.tolist():
                o_, size = int(tree.offset[n]), int(tree.n_children[n]) * tree.n_hands[p]
                probs[p][o_:o_ + size] = avg[n].reshape(-1)
    return LeafValueResult(PublicPolicy(tree, probs), iterations, solver.solve_s, time.perf_counter() - t0, calls[0])


def exact_leaf_values(tree: PublicTree, iterations: int = SUBGAME_ITERATIONS):
    """The leaf function that solves the subgame below the leaf for the reaches there (DCFR x
    ``iterations``) at every call: the exact-leaf version the value network approximates."""

    def function(node, r0, r1):
        v0, v1, _ = subgame_values(tree, node, r0, r1, iterations)
        return v0, v1

    return function


@dataclass
class ContinualResult:
    policy: object  # PublicPolicy of the whole tree: both seats the agent
    resolves: list  # per seat, the re-solves run
    seconds: float
    leaf_calls: int


def continual_resolving(tree: PublicTree, function, iterations: int = 100, variant=None, depth: int = 1) -> ContinualResult:
    """DeepStack's continual re-solving on the public tree, tabulated: in each seat q the agent solves the
    game from the root cut after ``depth`` rounds (``function`` at the leaves: a :class:`ValueNetwork` or
    :func:`exact_leaf_values`), then re-solves at every public node where it acts and at every public
    chance node (the start of a round; the re-solve then reaches to the end of that round), each with
    CFR-D's gadget, cut ``depth`` rounds below.  From one re-solve to the next it carries its own range
    (its reach under the re-solve's average) and the opponent's counterfactual values at each node of
    that re-solve, averaged over the opponent's passes with the average strategy's weights (CFR-D:
    the values of the average; recomputing them at the end, as best responses against the average with
    the leaves re-evaluated there, made the agent unstable in the iterations, Leduc exact leaves
    0.34 / 0.12 / 0.39 at 30 / 100 / 300, where the averages give 0.23 / 0.056 / 0.022).  The agent's
    strategy at a node is the average of the re-solve rooted there, or of the last one covering it
    until it re-solves there; nodes its range never reaches play uniformly (no value depends on them).
    Both seats make a profile of the whole tree, whose NashConv is exact.  Leduc, DCFR x N per
    re-solve, 107 re-solves: exact leaves 0.231 / 0.056 / 0.022 (N = 30 / 100 / 300; 8, 25, 71 s), a
    4,000-subgame network 0.220 / 0.099 / 0.077 (1, 3, 10 s)."""
    from ..public_tree.policy import PublicPolicy
    from ..solvers.rules import DCFR
    from .depth_limited import CHANCE_NODE, Gadget

    variant = variant or DCFR()
    t0 = time.perf_counter()
    calls = [0]

    def counted(node, r0, r1):
        calls[0] += 1
        return function(node, r0, r1)

    probs = [np.full(n, 0.0) for n in tree.infoset_actions()]
    resolves = [0, 0]
    for q in (0, 1):
        o = 1 - q
        carried: dict = {}  # node -> (q's reach, o's alternative values)
        points = [n for n in range(tree.n_nodes)
                  if (tree.kind[n] == DECISION and int(tree.player[n]) == q) or tree.kind[n] == CHANCE_NODE]
        for n in [0, *[m for m in points if m != 0]]:
            if n == 0:
                top = tuple(np.asarray(r, dtype=np.float64) for r in tree.ranges)
                gadget = None
            else:
                if n not in carried:
                    continue
                reach, alt = carried[n]
                if not reach.any():
                    continue
                top = (reach, np.ones(tree.n_hands[o])) if q == 0 else (np.ones(tree.n_hands[o]), reach)
                gadget = Gadget("gate", o, alt)
            cut_at = depth + 1 if tree.kind[n] == CHANCE_NODE else depth
            game = TruncatedGame.with_values(tree, cut_at, counted, root=n, top=top)
            solver = TruncatedSolver(game, variant, gadget, record=o)
            solver.iterate(iterations)
            resolves[q] += 1
            avg = solver.average_strategy()
            for m, table in avg.items():
                if int(tree.player[m]) == q:
                    off, size = int(tree.offset[m]), table.size
                    probs[q][off:off + size] = table.reshape(-1)
            r = game.reaches(avg, top)  # q's reach under its average (o's part unused)
            for m, total in solver.recorded.items():
                if m != n:
                    carried[m] = (r[q][m], total / solver.recorded_weight)
    for p in (0, 1):
        for n in tree.decision_nodes(p).tolist():
            off, size = int(tree.offset[n]), int(tree.n_children[n]) * tree.n_hands[p]
            block = probs[p][off:off + size]
            if not block.any():
                block[:] = 1.0 / int(tree.n_children[n])
    return ContinualResult(PublicPolicy(tree, probs), resolves, time.perf_counter() - t0, calls[0])
