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
from . import kernels
from .form import PublicTree
from .passes import ShapeWorkspace, Workspace, nash_conv_public, per_node_fits
from .policy import normalized

DTYPES = ("float64", "float32")


def as_public_tree(game) -> PublicTree:
    if isinstance(game, PublicTree):
        return game
    from .compile import public_tree

    return public_tree(game)


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
