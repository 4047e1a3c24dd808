"""CFR-family solvers on the public tree, running the variant objects of :mod:`zerosum.solvers.rules`.

:class:`PublicTreeSolver` takes a tree (or a game that has one), a variant (``CFRPlus()``,
``DCFR(alpha=2.0)``, ...; one copy of each rule, shared with the history tree's
:class:`zerosum.solvers.cfr.CFRSolver`) and the dtype of its sums.  Per player, ``regrets[p]`` and
``average[p]`` are flat arrays of [decision node x action x hand] (see
:mod:`zerosum.public_tree.form`), which saved states and policies keep too.  The current strategy
is regret matching on ``regrets``, never stored; a predictive variant (PCFR+, PDCFR+) stores its
strategies and rebuilds them inside the depth-first pass.  Updates alternate
(player 0, then player 1 against player 0's new strategy), as on the history tree.
:class:`PublicChanceSampling` (PCS-MCCFR) adds the sampling of public chance.

:func:`public_solver` and :func:`public_solver_class` take a variant's name, as ``zerosum solve -a``
does; the class they give takes the game and that variant's parameters as keywords.
"""

from __future__ import annotations

import inspect
import json
from collections.abc import Mapping

import numpy as np

from ..errors import ZerosumError
from ..solvers import rules
from ..solvers.base import IterativeSolver, check_state
from ..solvers.capabilities import ALGORITHMS, require
from ..solvers.rules import CFR, CFRPlus, Variant, check_variant
from . import kernels
from .arrays import pass_step
from .form import PublicTree
from .memory import make_resident, release_freed, resident_zeros
from .passes import Workspace, is_raked, nash_conv_public
from .policy import normalized
from .terminals import SWEEP

DTYPES = ("float64", "float32", "int16", "avg16")

#: ``dtype="int16"``: 16-bit storage, as the best poker solvers keep their sums (postflop-solver's
#: compression): regrets as int16 and the average's sums as uint16, one float32 scale per node for
#: each, the depth-first pass in float32 (see :func:`zerosum.public_tree.kernels.dfs_from`)
COMPRESSED = "int16"
#: ``dtype="avg16"``: the average's sums alone in 16 bits (uint16 with a float32 scale per node), the
#: regrets in float32: the float32 run's regrets and strategies bit for bit, with three quarters
#: of its memory (the average is only read by the checks and the policy)
AVERAGE16 = "avg16"


def as_public_tree(game) -> PublicTree:
    if isinstance(game, PublicTree):
        return game
    from .compile import public_tree

    return public_tree(game)


#: a hold'em tree with more information-set-action entries than this (both players) solves in
#: float32 unless asked otherwise (its two arrays pass 16 MB in float64): every spot people solve
#: (postflop-solver's example turn spot is 1.76 M entries, 28 -> 14 MB and 16.3 -> 15.7 ms an
#: iteration; the limit turn subgame Ks7d2c9h 7.6 M, 123 -> 62 MB), not the small spots that tests
#: compare with the history tree to 1e-9 (docs/public-tree.md)
FLOAT32_FROM = 1 << 20

#: a hold'em tree with more entries than this (a flop: TexasSolver's is 148 M) keeps the average's
#: sums in 16 bits (dtype avg16) where the run can: its regrets, strategies and iterations are
#: float32's, an iteration takes the same time, and the solver's memory is a quarter smaller
#: (TexasSolver's flop: 1,186 -> 912 MiB, the whole process 1,346 -> 1,079 MiB peak; docs/benchmarks.md)
AVG16_FROM = 1 << 25


def default_dtype(tree: PublicTree, algorithm: str | None = None, floats: bool = False) -> str:
    """The dtype when none is asked for: float32 for a hold'em tree past :data:`FLOAT32_FROM`
    entries (memory halves, the time per iteration does not change, NashConv is still computed
    in float64), float64 otherwise (every small game, and the poker family).  Past
    :data:`AVG16_FROM` entries, ``avg16`` for a run of ``algorithm`` where the variant runs with
    16-bit storage and the run needs no float sums (``floats``: node locks, a card abstraction);
    float32 where ``algorithm`` is not given."""
    if tree.terminals.kind == SWEEP:
        entries = sum(tree.infoset_actions())
        if entries > AVG16_FROM and algorithm in ALGORITHMS and ALGORITHMS[algorithm].runs_with("int16") \
                and not floats:
            return AVERAGE16
        if entries > FLOAT32_FROM:
            return "float32"
    return "float64"


def check_threads(threads) -> int:
    """The depth-first pass's threads (a whole number >= 1), or a one-line refusal."""
    if isinstance(threads, bool) or not isinstance(threads, (int, np.integer)) or threads < 1:
        raise ZerosumError(f"threads must be a whole number >= 1, got {threads!r}; e.g. --option threads=2")
    return int(threads)


def check_prune(prune) -> bool:
    """``--option prune``: 1/true or 0/false, or a one-line refusal."""
    if isinstance(prune, str) and prune.lower() in ("true", "false"):
        return prune.lower() == "true"
    if isinstance(prune, (bool, np.bool_)) or (isinstance(prune, (int, np.integer)) and prune in (0, 1)):
        return bool(prune)
    raise ZerosumError(f"prune must be 1 or 0 (true or false), got {prune!r}; e.g. --option prune=1")


def check_dtype(dtype) -> str:
    """The dtype of a public-tree solver's sums, or a one-line refusal."""
    if dtype not in DTYPES:
        raise ZerosumError(f"dtype must be float64, float32, int16 (16-bit storage) or avg16 (the average in 16 bits), "
                           f"got {dtype!r}")
    return str(dtype)


# --- the state file, shared by the single-process solver and the split one ----------------------------
def public_state(solver, regrets, average) -> dict:
    """A public-tree run's state: counters, the whole tree's sums in the form's layout and the
    variant's parameters (either form of the run, one process or split over Ray, resumes it)."""
    state = {"solver": np.array(solver.name), "game": np.array(solver.tree.game_id), "form": np.array(solver.form),
             "dtype": np.array(solver.dtype), "iteration": np.array(solver.iteration),
             "nodes_touched": np.array(solver.nodes_touched), "alternating": np.array(True)}
    if solver.tree.iso is not None:  # the sums are the suit-isomorphic tree's (fewer nodes)
        state["isomorphism"] = np.array(True)
    for p in (0, 1):
        state[f"regrets{p}"] = regrets[p]
        state[f"average{p}"] = average[p]
        if getattr(solver, "scales", None) is not None:  # 16-bit storage: each node's two scales
            state[f"scales{p}"] = solver.scales[p]
    return solver.variant.save(state)


def check_public_state(solver, state: dict) -> None:
    """Refuse a state saved by another solver, for another game, form or dtype."""
    check_state(state, solver.name, solver.tree.game_id)
    if "locks" in state and not isinstance(solver, PublicTreeSolver):  # the split driver has no locks
        raise ZerosumError("the saved state was solved with node locks, which run in one process; resume it "
                           "without --ray")
    if str(state.get("form", "history-tree")) != solver.form:
        raise ZerosumError(f"the saved state is for the {state.get('form', 'history-tree')} form, not {solver.form}")
    saved_iso, iso = bool(state.get("isomorphism", False)), solver.tree.iso is not None
    if saved_iso != iso:
        raise ZerosumError(f"the saved state was solved {'with' if saved_iso else 'without'} suit isomorphism; "
                           f"pass --option isomorphism={'true' if saved_iso else 'false'}")
    if str(state.get("dtype")) != solver.dtype:
        raise ZerosumError(f"the saved state holds {state.get('dtype')}, not {solver.dtype}; "
                           f"pass --option dtype={state.get('dtype')}")


def load_sums(state: dict, regrets, average) -> None:
    """Copy the saved sums (the form's layout) into ``regrets`` and ``average``."""
    for p in (0, 1):
        for key, arrs in (("regrets", regrets), ("average", average)):
            saved = np.asarray(state[f"{key}{p}"])
            if saved.shape != arrs[p].shape:
                raise ZerosumError(f"the saved state's {key} do not match this game's public tree")
            arrs[p][:] = saved


class PublicTreeSolver(IterativeSolver):
    """A CFR variant (``variant``, an object of :mod:`zerosum.solvers.rules`; vanilla CFR by
    default) on the public tree of ``game``, its sums in ``dtype`` (float64 or float32).

    The pass: the one depth-first pass, :func:`~zerosum.public_tree.kernels.dfs_from`, for every
    variant (a predictive one's strategies are stored and rebuilt by predictive regret matching+
    inside it), dtype and tree.  ``threads``: the depth-first pass's (and its NashConv's)
    threads, the same figures bit for bit with any number (see
    :class:`~zerosum.public_tree.passes.Workspace`); default 1 (docs/public-tree.md says why).
    ``prune``: skip the work below an opponent's reach that is zero for its whole range (exact:
    the same figures; :func:`~zerosum.public_tree.kernels.dfs_from`), on the depth-first pass;
    :attr:`pruned_fraction` is the share of node visits it skipped."""

    form = "public-tree"

    def __init__(self, game, variant: Variant | None = None, dtype: str = "float64", alternating: bool = True,
                 threads: int = 1, prune: bool = False):
        if not alternating:
            raise ZerosumError("the public tree runs alternating updates only")
        self.variant = CFR() if variant is None else check_variant(variant)
        self.dtype = check_dtype(dtype)
        self.threads = check_threads(threads)
        self.prune = check_prune(prune)
        #: this process's node visits of the update passes, and those pruned (``prune``)
        self.visits = [0, 0]
        self.alternating = True
        self.tree = as_public_tree(game)
        self.game = self.tree
        self.iteration = 0
        self.nodes_touched = 0
        ia = self.tree.infoset_actions()
        #: 16-bit storage: per player, float32 [2, nodes], each node's regret and average scales (avg16:
        #: the regrets' row unused)
        self.scales = None
        if self.dtype in (COMPRESSED, AVERAGE16):
            require(self.name, "int16", "use dtype=float32")
            dt = np.dtype(np.float32)  # the passes' vectors
            self.regrets = resident_zeros(ia, np.int16 if self.dtype == COMPRESSED else dt, now=False)
            self.average = resident_zeros(ia, np.uint16, now=False)
            self.scales = [np.zeros((2, self.tree.n_nodes), dtype=np.float32) for _ in (0, 1)]
        else:
            dt = np.dtype(self.dtype)
            sums = resident_zeros([*ia, *ia], dt, now=False)  # (made resident below: .memory)
            self.regrets, self.average = sums[:2], sums[2:]
        if self.variant.predictive:  # the depth-first pass carries the prediction: strategies stored
            self.strategy = [normalized(self.tree, p, np.zeros(len(r))).astype(r.dtype) for p, r in enumerate(self.regrets)]
        self.workspace = Workspace(self.tree, dt, threads=self.threads)
        if not self.workspace.has_chance:
            self.threads = 1  # no public chance (a river spot): nothing to split, one thread runs
        self._eval_workspace = None
        release_freed()  # the set-up's temporaries (the showdown lists', the batches' plan): .memory
        make_resident(self.regrets + self.average)  # the sums' pages, on this thread, before the passes' threads
        #: node locks (:func:`zerosum.public_tree.locking.lock_solver` sets them; they need the
        #: depth-first pass, which has a point between the two players' updates)
        self.locks = None

    @property
    def name(self) -> str:
        """The variant's name (``zerosum solve -a NAME``), what a saved state is checked against."""
        return self.variant.name

    def iterate(self, n: int = 1) -> None:
        ws, v = self.workspace, self.variant
        for _ in range(n):
            self.iteration += 1
            t = self.iteration
            w, rule = v.average_weight(t), v.regret_rule(t)
            if v.restarts_average(t):  # DCFR's restart=B: the average's sums emptied (restart_keep=f: times f)
                self._restart_average(v.restart_keep)
            if v.predictive:
                predict, pscale = (1 if v.prediction == "tree" else 2), v.prediction_scale(t)
                for p in (0, 1):
                    ws.walk(pass_step(p, kernels.UPDATE, w, rule, predict, pscale, self.prune), self.strategy[p],
                            self.strategy[1 - p], self.average[p], regrets_p=self.regrets[p])
                    self._count(ws)
                    if self.locks is not None:  # node locking (zerosum.public_tree.locking)
                        self.locks.apply(self, p)
            else:
                for p in (0, 1):
                    ws.walk(pass_step(p, kernels.UPDATE, w, rule, prune=self.prune), self.regrets[p], self.regrets[1 - p],
                            self.average[p], scales=None if self.scales is None else self.scales[p])
                    self._count(ws)
                    if self.locks is not None:
                        self.locks.apply(self, p)
                    if self.ties is not None:  # a card abstraction's tied hands (public_tree.abstraction)
                        self.ties.apply(self, p)

    def _restart_average(self, keep: float) -> None:
        """DCFR's restart: the average's sums multiplied by ``keep`` (0: emptied).  16-bit sums
        through their scales (avg16: its first row too, each block's largest value, the next
        update's bound)."""
        for p in (0, 1):
            if self.scales is not None:
                self.scales[p][1] *= keep
                if self.dtype == AVERAGE16:
                    self.scales[p][0] *= keep
                if not keep:
                    self.average[p][:] = 0
            elif keep:
                self.average[p] *= self.average[p].dtype.type(keep)
            else:
                self.average[p][:] = 0

    def _count(self, ws) -> None:
        """A depth-first update pass's node visits (and those pruned) into the counters."""
        self.nodes_touched += ws.visited
        self.visits[0] += ws.visited
        self.visits[1] += ws.pruned

    @property
    def pruned_fraction(self) -> float:
        """The share of this process's update passes' node visits that pruning skipped (the
        work below an all-zero opponent reach); 0.0 without ``prune``."""
        return self.visits[1] / self.visits[0] if self.visits[0] else 0.0

    # --- results -------------------------------------------------------------------------------
    def _evaluate(self, src, value: bool = True, known: dict | None = None) -> dict:
        if self._eval_workspace is None:
            self._eval_workspace = self.workspace if self.workspace.dtype == np.float64 else \
                Workspace(self.tree, np.float64, threads=self.threads, like=self.workspace)
        # float32 sums are read as they are (no float64 copies); the passes accumulate in float64
        return nash_conv_public(self.tree, src, self._eval_workspace, value=value, known=known)

    def average_source(self):
        """What the average strategy is read from (the average sums; uniform before any iteration)."""
        return self.average

    def current_source(self):
        """What the current strategy is read from: regrets (regret matching), or a predictive
        variant's stored strategies."""
        return self.strategy if self.variant.predictive else self.regrets

    #: a card abstraction (:class:`zerosum.public_tree.abstraction.Abstraction`) tying the hands of
    #: each abstract information set after every pass, or None
    ties = None

    #: ``--option checks=average``: a checkpoint computes the average's NashConv only (its two best
    #: responses: what a target needs, as postflop-solver's check), not its value nor the current
    #: strategy's NashConv (three more passes); the CLI makes the last row a full one
    light_checks = False
    #: the last light check's evaluation of the average, and when (iteration, nodes touched): a full
    #: check at the same point takes its best responses (the CLI's last row: one pass, not three)
    _light = None

    def checkpoint(self, full: bool = False) -> dict:
        when = (self.iteration, self.nodes_touched)
        if self.light_checks and not full:
            avg = self._evaluate(self.average_source(), value=False)
            self._light = (when, avg)
            return {"iteration": self.iteration, "nash_conv_average": avg["nash_conv"], "nash_conv_current": None,
                    "value_average": None, "nodes": self.nodes_touched}
        known = self._light[1] if self._light is not None and self._light[0] == when else None
        avg = self._evaluate(self.average_source(), known=known)
        src = self.current_source()
        cur = self._evaluate(src, value=False)  # the current strategy's two best responses only
        out = {"iteration": self.iteration, "nash_conv_average": avg["nash_conv"],
               "nash_conv_current": cur["nash_conv"], "value_average": avg["value"], "nodes": self.nodes_touched}
        if is_raked(self.tree):  # general-sum: player 1's value is not minus player 0's
            out["values_average"] = avg["values"]
        return out

    def average_policy(self):
        from .policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.average_source())

    def current_policy(self):
        from .policy import PublicPolicy

        return PublicPolicy.from_sums(self.tree, self.current_source())

    def nbytes(self) -> int:
        """Solver state (regrets, average, 16-bit scales) plus the pass's vectors."""
        scales = sum(a.nbytes for a in self.scales) if self.scales is not None else 0
        return sum(a.nbytes for a in self.regrets + self.average) + scales + self.workspace.nbytes()

    # --- saving and resuming ------------------------------------------------------------------
    def state_dict(self) -> dict:
        state = public_state(self, self.regrets, self.average)
        if self.variant.predictive:
            for p in (0, 1):
                state[f"strategy{p}"] = self.strategy[p]
        if self.locks is not None:  # resuming restores them (public_tree.locking.restore_locks)
            state["locks"] = np.array(self.locks.to_json())
        return state

    def load_state_dict(self, state: dict) -> None:
        check_public_state(self, state)
        self._light = None  # (other sums, perhaps at the same iteration)
        if "locks" in state or self.locks is not None:  # before the sums: refusals change nothing
            from .locking import restore_locks

            restore_locks(self, str(state["locks"]) if "locks" in state else None)
        load_sums(state, self.regrets, self.average)
        if self.scales is not None:
            for p in (0, 1):
                saved = np.asarray(state[f"scales{p}"])
                if saved.shape != self.scales[p].shape:
                    raise ZerosumError("the saved state's scales do not match this game's public tree")
                self.scales[p][:] = saved
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])
        self.variant.check(state)
        if self.variant.predictive:
            for p in (0, 1):
                self.strategy[p][:] = np.asarray(state[f"strategy{p}"])
        if self.locks is not None:
            self.locks.apply(self, self.locks.player)


class PublicChanceSampling(PublicTreeSolver):
    """PCS-MCCFR (Johanson, Bard, Lanctot, Gibson and Bowling 2012, "Efficient Nash Equilibrium
    Approximation through Monte Carlo Counterfactual Regret Minimization", AAMAS): each iteration
    draws one card at every public chance node and walks only that public subtree, keeping the hand
    vectors (the private cards stay full width).  Values are importance-weighted, so the regrets are
    unbiased; regret matching+ (regrets floored at zero) with linear averaging, the CFR+ rules.
    The same draw serves both players' passes of an iteration."""

    name = "pcs-mccfr"

    def __init__(self, game, seed: int | None = 0, dtype: str = "float64"):
        super().__init__(game, CFRPlus(), dtype)
        if self.tree.iso is not None:
            require(self.name, "isomorphism", "drop --option isomorphism")
        self.seed = seed
        self.rng = np.random.default_rng(seed)
        self._chance = np.flatnonzero(self.tree.kind == 1)
        self._sample = np.zeros(self.tree.n_nodes, dtype=np.int64)

    def iterate(self, n: int = 1) -> None:
        ws, v = self.workspace, self.variant
        for _ in range(n):
            self.iteration += 1
            w, rule = v.average_weight(self.iteration), v.regret_rule(self.iteration)
            counts = self.tree.n_children[self._chance]
            self._sample[self._chance] = (self.rng.random(len(counts)) * counts).astype(np.int64)
            for p in (0, 1):
                ws.walk(pass_step(p, kernels.UPDATE, w, rule), self.regrets[p], self.regrets[1 - p],
                        self.average[p], sample=self._sample)
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
        if "param_seed" in state:  # the run's seed, for resume()'s check of a --seed given again
            saved = int(state["param_seed"])
            self.seed = None if saved == -1 else saved


def with_variant(driver: type, variant_class: type, prefix: str, **fixed) -> type:
    """``driver`` (:class:`PublicTreeSolver`, :class:`zerosum.public_tree.split.SplitDriver`) with
    the variant ``variant_class`` and the keywords ``fixed`` (``dtype``, ...) bound: a class
    called with the game and the variant's own parameters as keywords, whose ``__init__``
    signature lists them (what the CLI checks ``--option KEY=VALUE`` against)."""

    class Bound(driver):
        name = variant_class.name

        def __init__(self, game, alternating: bool = True, **params):
            fixed_here = dict(fixed)
            for key in own_keys:  # the driver's keywords (threads, prune), not the variant's
                if key in params:
                    fixed_here[key] = params.pop(key)
            super().__init__(game, variant_class(**params), alternating=alternating, **fixed_here)

    own = list(inspect.signature(Bound.__init__).parameters.values())[:3]  # self, game, alternating
    # a driver that runs threads (PublicTreeSolver's depth-first pass) takes the keyword threads too
    own_keys = [k for k in ("threads", "prune") if k in inspect.signature(driver.__init__).parameters
                and k not in fixed]
    takes = [] if variant_class.__init__ is object.__init__ else \
        list(inspect.signature(variant_class.__init__).parameters.values())[1:]
    Bound.__init__.__signature__ = inspect.Signature(own + takes)  # threads, prune: not a variant's parameters
    Bound.__name__ = Bound.__qualname__ = prefix + variant_class.__name__
    Bound.dtype = fixed.get("dtype", "float64")
    return Bound


def _sampling_class(dtype: str) -> type:
    class PublicTreePCS(PublicChanceSampling):
        def __init__(self, game, seed: int | None = 0):
            super().__init__(game, seed=seed, dtype=dtype)

    PublicTreePCS.dtype = dtype
    return PublicTreePCS


class _PublicVariants(Mapping):
    """What runs on the public tree: each CFR variant's rules class (every one of
    :data:`zerosum.solvers.rules.VARIANTS`, read each time: a variant registered later runs
    here too), and PCS-MCCFR's solver class."""

    def _all(self) -> dict:
        return {**rules.VARIANTS, "pcs-mccfr": PublicChanceSampling}

    def __getitem__(self, name):
        return self._all()[name]

    def __iter__(self):
        return iter(self._all())

    def __len__(self) -> int:
        return len(rules.VARIANTS) + 1


VARIANTS = _PublicVariants()
_CLASSES: dict = {}


def public_solver_class(name: str, dtype: str = "float64"):
    """The public-tree class of variant ``name`` with sums in ``dtype``: called with the game and
    the variant's parameters as keywords (``public_solver_class("dcfr")(tree, alpha=2.0)``); it
    has the ``name``, ``form`` and ``dtype`` of its runs."""
    if name not in VARIANTS:
        raise ZerosumError(f"{name} does not run on the public tree; use one of {', '.join(VARIANTS)} "
                           f"or --form history-tree")
    check_dtype(dtype)
    key = (name, dtype)
    if key not in _CLASSES:
        _CLASSES[key] = _sampling_class(dtype) if name == "pcs-mccfr" else \
            with_variant(PublicTreeSolver, VARIANTS[name], "PublicTree", dtype=dtype)
    return _CLASSES[key]


def public_solver(name: str, game, dtype: str = "float64", **options):
    """A public-tree solver of variant ``name`` on ``game`` (a PublicTree or a game that has one)."""
    return public_solver_class(name, dtype)(game, **options)
