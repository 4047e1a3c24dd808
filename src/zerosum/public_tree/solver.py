"""CFR-family solvers on the public tree, with the variant rules of :mod:`zerosum.solvers`.

A public-tree solver is the history-tree variant class (CFR+, LCFR, DCFR, ...) with the driver
below mixed in underneath it: the variant keeps its own :meth:`regret_rule` and
:meth:`average_weight` (one copy of each rule, used by both forms); the driver replaces the
arrays and the pass.  Per player, ``regrets[p]`` and ``average[p]`` are flat arrays of
[decision node x action x hand] (see :mod:`zerosum.public_tree.form`); the current strategy is
regret matching on ``regrets`` and is never stored.  Updates alternate (player 0, then player 1
against player 0's new strategy), as on the history tree.
"""

from __future__ import annotations

import json

import numpy as np

from ..errors import ZerosumError
from ..solvers.base import check_state
from ..solvers.cfr import CFRPlusSolver, CFRSolver
from ..solvers.dcfr import DCFRSolver, check_params, save_params
from ..solvers.lcfr import LCFRSolver
from ..solvers.pcfr import PREDICTIONS, PCFRPlusSolver, PredictiveMixin
from ..solvers.pdcfr_plus import PDCFRPlusSolver
from . import kernels, shape_kernels
from .form import FOLD, PublicTree
from .policy import normalized
from .shapes import rank_rows, shape_tree
from .terminals import RANKS

DTYPES = ("float64", "float32")


def as_public_tree(game) -> PublicTree:
    if isinstance(game, PublicTree):
        return game
    from .compile import public_tree

    return public_tree(game)


class Workspace:
    """What one pass needs besides the solver's arrays.  ``per_node=True`` keeps a value vector per
    public node (breadth-order traversal, ``val[node, hand]`` readable after a pass); the default
    depth-first traversal keeps vectors per depth only."""

    def __init__(self, tree: PublicTree, dtype, updates: bool = True, per_node: bool = False):
        width = max(tree.n_hands)
        self.per_node = per_node
        if per_node:
            # one buffer holds the opponent's reach on the way down and the values on the way up
            self.opp = self.val = np.zeros((tree.n_nodes, width), dtype=dtype)
            self.own = np.zeros((tree.n_nodes if updates else 1, width), dtype=dtype)
        self.max_depth = int(kernels.tree_depth(tree.parent))
        self.max_actions = int(tree.n_children.max())
        self.width = width
        self.dtype = np.dtype(dtype)
        self.cs = np.zeros(52, dtype=dtype)
        self.tree = tree
        self.args = (tree.kind, tree.player, tree.first_child, tree.n_children, tree.board, tree.stake, tree.offset,
                     *tree.terminals.kernel_args())
        self.ranges = tuple(np.asarray(r, dtype=dtype) for r in tree.ranges)
        self.empty = np.zeros(0, dtype=dtype)
        self.no_sample = np.zeros(0, dtype=np.int64)
        self.active = np.zeros(0, dtype=np.int8)
        self.iw = np.zeros(0, dtype=np.float64)
        self.visited = 0

    def nbytes(self) -> int:
        """Working memory of a pass: per node (per_node) or per depth."""
        if self.per_node:
            return self.val.nbytes + self.own.nbytes
        per_depth = (4 + self.max_actions) * self.width * self.dtype.itemsize
        return (self.max_depth + 1) * per_depth

    def walk(self, p: int, src_p, src_o, mode: int, avg_p=None, weight=0.0, rule=None, sample=None,
             regrets_p=None, predict: int = 0, pscale: float = 1.0) -> float:
        pre, pos, neg, floor = (1.0, 1.0, 1.0, False) if rule is None else rule
        n_p, n_o = self.tree.n_hands[p], self.tree.n_hands[1 - p]
        avg = self.empty if avg_p is None else avg_p
        sample = self.no_sample if sample is None else sample
        if not self.per_node:
            value, self.visited = kernels.walk_dfs(
                *self.args, p, self.ranges[p], self.ranges[1 - p], src_p, src_o, mode, avg, float(weight), float(pre),
                float(pos), float(neg), bool(floor), self.max_depth, self.max_actions, self.cs, sample,
                src_p if regrets_p is None else regrets_p, int(predict), float(pscale))
            return value
        if predict:
            raise AssertionError("predictive updates run on the depth-first pass")
        if len(sample) and len(self.active) != self.tree.n_nodes:
            self.active = np.zeros(self.tree.n_nodes, dtype=np.int8)
            self.iw = np.zeros(self.tree.n_nodes, dtype=np.float64)
        value = kernels.walk(*self.args, p, self.ranges[p], self.ranges[1 - p], src_p, src_o, mode, avg, float(weight),
                             float(pre), float(pos), float(neg), bool(floor), self.opp[:, :n_o], self.own[:, :n_p],
                             self.val[:, :n_p], self.cs, sample, self.active, self.iw)
        self.visited = int(self.active.sum()) if len(sample) else self.tree.n_nodes
        return value


    def best_response_and_value(self, p: int, src_p, src_o) -> tuple[float, float]:
        """The BEST_RESPONSE and EXPECT passes of player p in one per-node pass (see the kernel)."""
        if self.own.shape[0] != self.tree.n_nodes:  # an evaluation-only workspace: a second buffer once
            self.own = np.zeros_like(self.val)
        n_p, n_o = self.tree.n_hands[p], self.tree.n_hands[1 - p]
        br, value = kernels.best_response_and_value(*self.args, p, self.ranges[p], self.ranges[1 - p], src_p, src_o,
                                                    self.opp[:, :n_o], self.val[:, :n_p], self.own[:, :n_p], self.cs)
        self.visited = 2 * self.tree.n_nodes
        return br, value


    def nash_conv_passes(self, src0, src1) -> tuple[float, float, float]:
        """Both best responses and player 0's value in one per-node traversal (see the kernel; a
        third per-node buffer, made once)."""
        if self.own.shape[0] != self.tree.n_nodes:
            self.own = np.zeros_like(self.val)
        if getattr(self, "third", None) is None:
            self.third = np.zeros_like(self.val)
        n = self.tree.n_hands[0]
        br0, br1, value = kernels.nash_conv_passes(*self.args, self.ranges[0], self.ranges[1], src0, src1,
                                                   self.val[:, :n], self.own[:, :n], self.third[:, :n], self.cs)
        self.visited = self.tree.n_nodes
        return br0, br1, value


class ShapeWorkspace:
    """Buffers of the shape-tree pass (:mod:`zerosum.public_tree.shape_kernels`): a vector per
    public node, as the per-node pass, grouped by shape node; the solver's arrays are in the
    kernel layout of :mod:`zerosum.public_tree.shapes`."""

    per_node = True

    def __init__(self, tree: PublicTree, dtype):
        self.tree = tree
        self.shapes = sh = shape_tree(tree)
        self.dtype = np.dtype(dtype)
        self.width = width = max(tree.n_hands)
        rows = max(sh.inner_rows, 1)
        self.opp, self.own, self.val = (np.zeros(rows * width, dtype=dtype) for _ in range(3))
        # every block is an inner node's (a terminal is evaluated at its parent, on the parent's rows)
        self.inner_mult = m = int(sh.mult[sh.kind < FOLD].max(initial=1))
        self.den = np.zeros(2 * m * width)
        block = m * width
        self.ty = np.zeros(block, dtype=dtype)  # a terminal's reach and its values per action
        self.tv = np.zeros(int(sh.n_children.max()) * block, dtype=dtype)
        self.at = np.zeros(2 * sh.n_shapes, dtype=np.int64)
        self.cs = np.zeros(52, dtype=dtype)
        self.rin, self.rout = np.zeros((1, width), dtype=dtype), np.zeros((1, width), dtype=dtype)
        self.tt = np.zeros(5 * m)  # the rank sweep's per-row sums (float64 as the per-node pass's)
        self.args = (sh.kind, sh.player, sh.n_children, sh.first_edge, sh.edge_child, sh.edge_row, sh.entries, sh.mult,
                     sh.row, sh.vrow, sh.koff, sh.row_board, sh.row_stake, sh.row_player, *tree.terminals.kernel_args(),
                     rank_rows(sh, tree.terminals) if tree.terminals.kind == RANKS else np.zeros(4))
        self.ranges = tuple(np.asarray(r, dtype=dtype) for r in tree.ranges)
        self.visited = tree.n_nodes
        self._eval = None

    def nbytes(self) -> int:
        return self.opp.nbytes + self.own.nbytes + self.val.nbytes

    def strategy(self, q: int, src, out=None) -> np.ndarray:
        """Regret matching (normalization) of ``src`` (kernel layout) at player q's nodes, in float64
        whatever the solver's dtype (the per-node pass's strategies are float64 too, so a float32
        run is the same run on either pass); into ``out`` if given."""
        sh = self.shapes
        out = np.zeros(len(src)) if out is None else out
        shape_kernels.shape_strategy(sh.kind, sh.player, sh.n_children, sh.mult, sh.koff, q, self.tree.n_hands[q],
                                     src, out, self.den)
        return out

    def iteration(self, regrets, strategies, average, weight: float, rule) -> None:
        """One iteration, both players' passes (:func:`~zerosum.public_tree.shape_kernels.shape_iteration`):
        the regrets, the stored strategies and the average sums of both players (kernel layout)."""
        pre, pos, neg, floor = rule
        shape_kernels.shape_iteration(*self.args, self.ranges[0], self.ranges[1], regrets[0], regrets[1], strategies[0],
                                      strategies[1], average[0], average[1], float(weight), float(pre), float(pos),
                                      float(neg), bool(floor), self.width, self.opp, self.own, self.val, self.den,
                                      self.cs, self.rin, self.rout, self.ty, self.tv, self.at, self.tt)

    def nash_conv(self, src, strategies=None) -> dict:
        """:func:`nash_conv_public` of the sums ``src`` (kernel layout), in float64; ``strategies``:
        their normalization where the caller has it (the solver's stored current strategy)."""
        tree = self.tree
        if tree.n_hands[0] != tree.n_hands[1]:
            sh = self.shapes
            return nash_conv_public(tree, [sh.to_form(p, src[p]) for p in (0, 1)])
        if self._eval is None:
            sh = self.shapes
            n = max(sh.inner_rows, 1) * self.width
            block = self.inner_mult * self.width
            self._eval = (tuple(np.asarray(r, dtype=np.float64) for r in tree.ranges),
                          *(np.zeros(n) for _ in range(5)), np.zeros(52), np.zeros((1, self.width)),
                          np.zeros((1, self.width)), np.zeros(block), np.zeros(3 * int(sh.n_children.max()) * block),
                          np.zeros(2 * sh.n_shapes, dtype=np.int64), [np.zeros(len(a)) for a in src])
        ranges, r0, r1, v0, v1, e0, cs, rin, rout, ty, tv, at, strats = self._eval
        if strategies is None:
            strategies = [self.strategy(p, src[p], strats[p]) for p in (0, 1)]
        br0, br1, value = shape_kernels.shape_nash_conv(*self.args, ranges[0], ranges[1], strategies[0], strategies[1],
                                                        self.width, r0, r1, v0, v1, e0, cs, rin, rout, self.tt, ty, tv,
                                                        at)
        return {"value": float(value), "best_response_values": [float(br0), float(br1)],
                "nash_conv": max(float(br0 + br1), 0.0)}


#: per-node vectors are used (the breadth-order pass: faster when hands are few) while they take
#: at most this much; beyond it the depth-first pass keeps O(depth x hands)
PER_NODE_BYTES = 32 * 2 ** 20


def per_node_fits(tree: PublicTree, dtype) -> bool:
    return 2 * tree.n_nodes * max(tree.n_hands) * np.dtype(dtype).itemsize <= PER_NODE_BYTES


def nash_conv_public(tree: PublicTree, src, workspace: Workspace | None = None) -> dict:
    """Best-response values of both players against the strategies read from ``src`` (regrets or
    average sums, normalized per hand), the profile's value, and NashConv: three passes."""
    ws = workspace or Workspace(tree, np.float64, updates=False)
    if ws.per_node and tree.n_hands[0] == tree.n_hands[1]:  # one traversal for the three passes
        br0, br1, value = ws.nash_conv_passes(src[0], src[1])
    elif ws.per_node:  # player 0's best response and the profile's value share one pass
        br1 = ws.walk(1, src[1], src[0], kernels.BEST_RESPONSE)
        br0, value = ws.best_response_and_value(0, src[0], src[1])
    else:
        br1 = ws.walk(1, src[1], src[0], kernels.BEST_RESPONSE)
        br0 = ws.walk(0, src[0], src[1], kernels.BEST_RESPONSE)
        value = ws.walk(0, src[0], src[1], kernels.EXPECT)
    return {"value": float(value), "best_response_values": [float(br0), float(br1)],
            "nash_conv": max(float(br0 + br1), 0.0)}


class PublicTreeCFR(CFRSolver):
    """Vanilla CFR on the public tree; the base of every public-tree variant."""

    name = "cfr"
    form = "public-tree"
    dtype = "float64"
    #: the shape-tree pass (arrays in its kernel layout, strategies stored) where per-node vectors fit
    shape_pass = True

    def __init__(self, game, alternating: bool = True):
        if not alternating:
            raise ZerosumError("the public tree runs alternating updates only")
        self.alternating = True
        self.tree = as_public_tree(game)
        self.game = self.tree
        self.iteration = 0
        self.nodes_touched = 0
        dt = np.dtype(self.dtype)
        ia = self.tree.infoset_actions()
        self.regrets = [np.zeros(n, dtype=dt) for n in ia]
        self.average = [np.zeros(n, dtype=dt) for n in ia]
        self.shapes = None
        if self.shape_pass and per_node_fits(self.tree, dt):
            self.workspace = ShapeWorkspace(self.tree, dt)
            self.shapes = self.workspace.shapes
            self.stored = [self.workspace.strategy(p, self.regrets[p]) for p in (0, 1)]
        else:
            self.workspace = Workspace(self.tree, dt, per_node=per_node_fits(self.tree, dt))
        self._eval_workspace = None

    # the history tree's per-sequence attributes do not exist here
    strategy = plan = average_plan = trees = None

    def iterate(self, n: int = 1) -> None:
        ws = self.workspace
        for _ in range(n):
            self.iteration += 1
            self.begin_iteration()
            w = self.average_weight()
            if self.shapes is not None:  # both passes in one call; player 1's average grows in player 0's pass
                ws.iteration(self.regrets, self.stored, self.average, w, self.regret_rule())
                self.nodes_touched += 2 * ws.visited
                continue
            for p in (0, 1):
                ws.walk(p, self.regrets[p], self.regrets[1 - p], kernels.UPDATE, self.average[p], w, self.regret_rule())
                self.nodes_touched += ws.visited

    def in_form_layout(self, arrays) -> list:
        """Per-player arrays of this solver in the form's layout (``tree.offset``), what policies
        and saved states hold; the shape-tree pass keeps its own layout."""
        if self.shapes is None:
            return list(arrays)
        return [self.shapes.to_form(p, arrays[p]) for p in (0, 1)]

    # --- results -------------------------------------------------------------------------------
    def _evaluate(self, src, strategies=None) -> dict:
        if self.shapes is not None:
            return self.workspace.nash_conv(src, strategies)
        if self._eval_workspace is None:
            self._eval_workspace = self.workspace if self.workspace.dtype == np.float64 else \
                Workspace(self.tree, np.float64, updates=False)
        # float32 sums are read as they are (no float64 copies); the passes accumulate in float64
        return nash_conv_public(self.tree, src, self._eval_workspace)

    def average_source(self):
        """What the average strategy is read from (the average sums; uniform before any iteration)."""
        return self.average

    def current_source(self):
        """What the current strategy is read from (regrets: regret matching)."""
        return self.regrets

    def checkpoint(self) -> dict:
        avg = self._evaluate(self.average_source())
        src = self.current_source()
        # regret matching on the regrets is the stored strategy of the shape pass (the same figures)
        cur = self._evaluate(src, self.stored if self.shapes is not None and src is self.regrets else None)
        return {"iteration": self.iteration, "nash_conv_average": avg["nash_conv"],
                "nash_conv_current": cur["nash_conv"], "value_average": avg["value"], "nodes": self.nodes_touched}

    def average_policy(self):
        from .policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.in_form_layout(self.average_source()))

    def current_policy(self):
        from .policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.in_form_layout(self.current_source()))

    def nbytes(self) -> int:
        """Solver state (regrets, average, stored strategies) plus the pass's per-node vectors."""
        stored = sum(a.nbytes for a in self.stored) if self.shapes is not None else 0
        return sum(a.nbytes for a in self.regrets + self.average) + stored + self.workspace.nbytes()

    # --- saving and resuming ------------------------------------------------------------------
    def state_dict(self) -> dict:
        state = {"solver": np.array(self.name), "game": np.array(self.tree.game_id), "form": np.array(self.form),
                 "dtype": np.array(self.dtype), "iteration": np.array(self.iteration),
                 "nodes_touched": np.array(self.nodes_touched), "alternating": np.array(True)}
        regrets, average = self.in_form_layout(self.regrets), self.in_form_layout(self.average)
        for p in (0, 1):
            state[f"regrets{p}"] = regrets[p]
            state[f"average{p}"] = average[p]
        return state

    def load_state_dict(self, state: dict) -> None:
        check_state(state, self.name, self.tree.game_id)
        if str(state.get("form", "history-tree")) != self.form:
            raise ZerosumError(f"the saved state is for the {state.get('form', 'history-tree')} form, not {self.form}")
        if str(state.get("dtype")) != self.dtype:
            raise ZerosumError(f"the saved state holds {state.get('dtype')}, not {self.dtype}; "
                               f"pass --option dtype={state.get('dtype')}")
        for p in (0, 1):
            for key, arrs in (("regrets", self.regrets), ("average", self.average)):
                saved = np.asarray(state[f"{key}{p}"])
                if saved.shape != arrs[p].shape:
                    raise ZerosumError(f"the saved state's {key} do not match this game's public tree")
                arrs[p][:] = saved if self.shapes is None else self.shapes.to_kernel(p, saved)
        if self.shapes is not None:
            self.stored = [self.workspace.strategy(p, self.regrets[p]) for p in (0, 1)]
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])


class PublicChanceSampling(PublicTreeCFR):
    """PCS-MCCFR (Johanson, Bard, Lanctot, Gibson and Bowling 2012, "Efficient Nash Equilibrium
    Approximation through Monte Carlo Counterfactual Regret Minimization", AAMAS): each iteration
    draws one card at every public chance node and walks only that public subtree, keeping the hand
    vectors (the private cards stay full width).  Values are importance-weighted, so the regrets are
    unbiased; regret matching+ (regrets floored at zero) with linear averaging, the CFR+ rules.
    The same draw serves both players' passes of an iteration."""

    name = "pcs-mccfr"
    shape_pass = False  # samples one public subtree per chance node: the per-node pass

    def __init__(self, game, seed: int | None = 0):
        super().__init__(game)
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self._chance = np.flatnonzero(self.tree.kind == 1)
        self._sample = np.zeros(self.tree.n_nodes, dtype=np.int64)

    def regret_rule(self):
        return CFRPlusSolver.regret_rule(self)

    def average_weight(self) -> float:
        return float(self.iteration)

    def iterate(self, n: int = 1) -> None:
        ws = self.workspace
        for _ in range(n):
            self.iteration += 1
            w = self.average_weight()
            counts = self.tree.n_children[self._chance]
            self._sample[self._chance] = (self.rng.random(len(counts)) * counts).astype(np.int64)
            for p in (0, 1):
                ws.walk(p, self.regrets[p], self.regrets[1 - p], kernels.UPDATE, self.average[p], w,
                        self.regret_rule(), sample=self._sample)
                self.nodes_touched += ws.visited

    def state_dict(self) -> dict:
        state = super().state_dict()
        state["rng"] = np.array(json.dumps(self.rng.bit_generator.state))
        state["param_seed"] = np.array(-1 if self.seed is None else self.seed)
        return state

    def load_state_dict(self, state: dict) -> None:
        super().load_state_dict(state)
        if "rng" not in state:
            raise ZerosumError("the saved pcs-mccfr state has no random generator state")
        self.rng.bit_generator.state = json.loads(str(state["rng"]))


class PublicPredictive:
    """Put before PCFR+ / PDCFR+ (and the public driver): the strategies are stored and rebuilt by
    predictive regret matching+ inside the pass (the kernel's ``predict``), with the variant's own
    regret rule, average weight and ``prediction_scale()``."""

    shape_pass = False  # the depth-first pass carries the prediction

    def _init_prediction(self, prediction: str) -> None:
        if prediction not in PREDICTIONS:
            raise ZerosumError(f"{self.name}: prediction must be one of {', '.join(PREDICTIONS)}, got {prediction!r}")
        self.prediction = prediction
        self.strategy = [normalized(self.tree, p, np.zeros(len(r))).astype(r.dtype) for p, r in enumerate(self.regrets)]
        if self.workspace.per_node:
            self.workspace = Workspace(self.tree, self.workspace.dtype)

    def current_source(self):
        return self.strategy

    def iterate(self, n: int = 1) -> None:
        ws = self.workspace
        predict = 1 if self.prediction == "tree" else 2
        for _ in range(n):
            self.iteration += 1
            self.begin_iteration()
            w = self.average_weight()
            for p in (0, 1):
                ws.walk(p, self.strategy[p], self.strategy[1 - p], kernels.UPDATE, self.average[p], w,
                        self.regret_rule(), regrets_p=self.regrets[p], predict=predict, pscale=self.prediction_scale())
                self.nodes_touched += ws.visited

    def _save_prediction(self, state: dict, names) -> dict:
        for p in (0, 1):
            state[f"strategy{p}"] = self.strategy[p]
        state["param_prediction"] = np.array(self.prediction)
        return save_params(self, state, names)

    def _load_prediction(self, state: dict, names) -> None:
        check_params(self, state, names)
        if str(state.get("param_prediction")) != self.prediction:
            raise ZerosumError(f"the saved run used prediction={state.get('param_prediction')}, not {self.prediction}")
        for p in (0, 1):
            self.strategy[p][:] = np.asarray(state[f"strategy{p}"])


#: variants available on the public tree
VARIANTS = {"cfr": None, "cfr+": CFRPlusSolver, "lcfr": LCFRSolver, "dcfr": DCFRSolver,
            "pcfr+": PCFRPlusSolver, "pdcfr+": PDCFRPlusSolver, "pcs-mccfr": PublicChanceSampling}
_CLASSES: dict = {}


def public_solver_class(name: str, dtype: str = "float64"):
    """The public-tree class of variant ``name``: (variant, driver) so the variant's rules win."""
    if name not in VARIANTS:
        raise ZerosumError(f"{name} does not run on the public tree; use one of {', '.join(VARIANTS)} "
                           f"or --form history-tree")
    if dtype not in DTYPES:
        raise ZerosumError(f"dtype must be float64 or float32, got {dtype!r}")
    key = (name, dtype)
    if key not in _CLASSES:
        variant = VARIANTS[name]
        if variant is PublicChanceSampling:
            bases = (PublicChanceSampling,)
        elif variant is not None and issubclass(variant, PredictiveMixin):
            bases = (PublicPredictive, variant, PublicTreeCFR)
        else:
            bases = (PublicTreeCFR,) if variant is None else (variant, PublicTreeCFR)
        _CLASSES[key] = type(f"PublicTree{'' if variant is None else variant.__name__}", bases, {"dtype": dtype})
    return _CLASSES[key]


def public_solver(name: str, game, dtype: str = "float64", **options):
    """A public-tree solver of variant ``name`` on ``game`` (a PublicTree or a game that has one)."""
    return public_solver_class(name, dtype)(game, **options)
