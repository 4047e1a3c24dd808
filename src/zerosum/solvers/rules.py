"""The CFR variants as small objects: each one's rules, written once, for both compiled forms.

A variant is what changes between CFR, CFR+, LCFR, DCFR, PCFR+ and PDCFR+: how the cumulative
regrets are updated after iteration t (:meth:`Variant.regret_rule`, four numbers, a
:class:`RegretRule`), how much iteration t's strategy weighs in the average
(:meth:`Variant.average_weight`) and, for the predictive ones, the factor on the regrets that the
prediction is added to (:meth:`Predictive.prediction_scale`) and the kind of prediction.  A
variant holds only its parameters; the drivers that run it hold the arrays and the pass:

* the history tree: :class:`zerosum.solvers.cfr.CFRSolver` (``CFRSolver(game, variant=DCFR())``;
  ``DCFRSolver(game, alpha=...)`` and the other named classes build their variant for you);
* the public tree: :class:`zerosum.public_tree.solver.PublicTreeSolver`
  (``PublicTreeSolver(tree, DCFR(), "float32")``), and its split over Ray,
  :class:`zerosum.public_tree.split.SplitDriver`.

Both forms apply a rule with the same scalar kernel, :func:`regret_update`, so a variant's run is
the same on either (up to the summation order of each form's pass).
"""

from __future__ import annotations

import math
from typing import ClassVar, NamedTuple

import numpy as np
from numba import njit

from ..errors import ZerosumError

#: the predictions of PCFR+ and PDCFR+ (see :class:`Predictive`)
PREDICTIONS = ("tree", "local")


class RegretRule(NamedTuple):
    """How a variant turns the cumulative regrets R and this pass's instantaneous regrets r into
    the new R, in four numbers: ``R <- pre * R + r``, then ``R *= pos`` where R >= 0 and
    ``R *= neg`` where R < 0, then ``R <- max(R, 0)`` if ``floor``.  Every CFR variant here is one
    setting (CFR: 1, 1, 1, no floor; CFR+: floor; LCFR: pos = neg = t / (t + 1); DCFR: pos and neg
    by sign; PDCFR+: pre = d(t - 1), floor), and both compiled forms (history tree, public tree)
    apply it with the same :func:`regret_update`."""

    pre: float = 1.0
    pos: float = 1.0
    neg: float = 1.0
    floor: bool = False


@njit(cache=True, inline="always")
def regret_update(r, instant, pre, pos, neg, floor):
    """One cumulative regret after one pass under a :class:`RegretRule` (scalar, for the kernels)."""
    if pre != 1.0:
        r = r * pre
    r = r + instant
    if r >= 0.0:
        if pos != 1.0:
            r = r * pos
    elif neg != 1.0:
        r = r * neg
    if floor and r < 0.0:
        r = 0.0
    return r


@njit(cache=True)
def _apply_regret_rule(regrets, instant, pre, pos, neg, floor):
    for k in range(len(regrets)):
        regrets[k] = regret_update(regrets[k], instant[k], pre, pos, neg, floor)


def apply_regret_rule(regrets: np.ndarray, instant: np.ndarray, rule: RegretRule) -> None:
    """Update ``regrets`` in place from ``instant`` under ``rule``."""
    _apply_regret_rule(regrets, np.ascontiguousarray(instant, dtype=regrets.dtype), float(rule.pre),
                       float(rule.pos), float(rule.neg), bool(rule.floor))


def finite(name: str, value) -> float:
    """A real parameter from the CLI (``--option alpha=1.5``), refused with one line if it is not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise ZerosumError(f"{name} must be a finite number, got {value!r}")
    return float(value)


class Variant:
    """The base of every variant, with vanilla CFR's rules.  ``params`` names the real parameters
    a run saves (``param_NAME`` in its state file) and refuses to resume with other values."""

    name = "cfr"
    params: tuple[str, ...] = ()
    #: whether the next strategy is built by predictive regret matching+ (see :class:`Predictive`)
    predictive = False

    def regret_rule(self, t: int) -> RegretRule:
        """How iteration t's pass updates the cumulative regrets."""
        return RegretRule()

    def average_weight(self, t: int) -> float:
        """Weight of iteration t's strategy in the average."""
        return 1.0

    #: whether the average is ever restarted (:meth:`restarts_average`); drivers that cannot
    #: restart theirs refuse such a variant in one line
    restarts = False

    def restarts_average(self, t: int) -> bool:
        """Whether the average's sums are emptied before iteration t's strategy is added."""
        return False

    #: values a state saved before a parameter existed is read with (so it still resumes)
    defaults: ClassVar[dict] = {}

    def save(self, state: dict) -> dict:
        """Add the parameters to a run's saved state (so a resumed run keeps them)."""
        for name in self.params:
            state[f"param_{name}"] = np.array(getattr(self, name))
        return state

    def check(self, state: dict) -> None:
        """Refuse to resume a run saved with other parameters."""
        for name in self.params:
            saved = state.get(f"param_{name}", self.defaults.get(name))
            if saved is None or float(saved) != getattr(self, name):
                raise ZerosumError(f"the saved run used {name}={None if saved is None else float(saved)}, "
                                   f"not {getattr(self, name)}; pass the same --option {name}=...")

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and vars(other) == vars(self)

    def __hash__(self) -> int:
        return hash((type(self), tuple(sorted(vars(self).items()))))

    def __repr__(self) -> str:
        args = ", ".join(f"{k}={v!r}" for k, v in vars(self).items())
        return f"{type(self).__name__}({args})"


class CFR(Variant):
    """Vanilla CFR (Zinkevich, Johanson, Bowling and Piccione 2007, "Regret Minimization in Games
    with Incomplete Information", NeurIPS): R <- R + r, every iteration weighs 1 in the average."""


class CFRPlus(Variant):
    """CFR+ (Tammelin 2014, "Solving Large Imperfect Information Games Using CFR+"): regrets
    floored at zero after each pass (regret matching+), iteration t weighted by t."""

    name = "cfr+"

    def regret_rule(self, t: int) -> RegretRule:
        return RegretRule(floor=True)

    def average_weight(self, t: int) -> float:
        return float(t)


class LCFR(Variant):
    """Linear CFR (Brown and Sandholm 2019, "Solving Imperfect-Information Games via Discounted
    Regret Minimization", AAAI): iteration t's regrets and strategy both count with weight t;
    DCFR(1, 1, 1).

    Why: early iterations are played with poor strategies; weighting iteration t by t lets them
    fade away at no cost.  Weighting every instantaneous regret by t is the same, for regret
    matching, as multiplying the cumulative regrets by t / (t + 1) after each iteration (a positive
    factor per information set does not change the normalized positive part); we do the latter, as
    OpenSpiel's ``LCFRSolver`` does, so the two agree step by step.  The average weights iteration
    t by t."""

    name = "lcfr"

    def regret_rule(self, t: int) -> RegretRule:
        return RegretRule(pos=t / (t + 1.0), neg=t / (t + 1.0))

    def average_weight(self, t: int) -> float:
        return float(t)


class DCFR(Variant):
    """Discounted CFR, DCFR(alpha, beta, gamma) (Brown and Sandholm 2019, "Solving
    Imperfect-Information Games via Discounted Regret Minimization", AAAI).

    Why: CFR+ floors negative regrets at zero and LCFR weights iterations linearly; DCFR
    interpolates.  After iteration t, positive cumulative regrets are multiplied by
    t^alpha / (t^alpha + 1) and negative ones by t^beta / (t^beta + 1); iteration t's strategy
    enters the average with weight t^gamma (the paper's factor (t / (t + 1))^gamma on the running
    average, unrolled).  The paper's recommended setting (1.5, 0, 2) is the default.  Same step
    order as OpenSpiel's ``DCFRSolver``: add the instantaneous regrets, then discount by sign.

    ``restart=B`` (a whole number >= 2; 0, the default, never): the average starts again at
    iterations B, B^2, B^3, ... (its sums emptied), iteration t weighing (t - s + 1)^gamma where s
    is the last restart, as postflop-solver averages (B = 4).  The early iterates it drops are the
    poor ones: on hold'em spots it reaches 0.1 % of the pot in fewer iterations (limit turn
    Ks7d2c9h 100 against 110, postflop-solver's example turn 245 against 265, checked every 5
    iterations; 0.5 % at the same iterations), but just after a restart the average is a few
    iterates, and on Kuhn and Leduc it is worse at every checkpoint (Leduc at 300 / 1,000
    iterations: 1.1e-2 / 3.5e-4 against 2.1e-3 / 3.2e-4), so it is an option, not the default.
    ``restart_keep=f`` (0 <= f < 1; 0, the default, the restart above): at a restart the average's
    sums are multiplied by f instead of emptied (a softer restart; no gain on the hold'em spots).
    ``restart_until=M`` (0, the default: no last): no restart after iteration M (``restart=4
    restart_until=64``: at 4, 16 and 64 only), so a run is ``restart``'s up to the next power and
    its average keeps growing after: the restart at 256 threw away a damped run's average at
    0.054 % of the pot (example turn) and it was back under that only at 350.

    ``beta_scale=tau`` (> 0; 1, the default, the paper's rule): the negative regrets' factor is
    (t / tau)^beta / ((t / tau)^beta + 1), t counted in units of tau.  With beta = 0.5 and tau = 20
    it is 1/3 at iteration 5, 1/2 at 20, 2/3 at 80: the negative regrets forgotten as fast as
    beta = 0 (1/2) early and remembered longer later, which damps the oscillation of the current
    strategies that beta = 0 runs into on the hold'em turns (their exploitability up to 16 % of the
    pot for 20 iterations, the average's from 0.3 % back to 0.65 %): docs/lp-and-variants.md,
    "Iterations to a share of the pot on the hold'em spots"."""

    name = "dcfr"
    params = ("alpha", "beta", "gamma", "restart", "restart_keep", "beta_scale", "restart_until")
    defaults: ClassVar[dict] = {"restart": 0.0, "restart_keep": 0.0, "beta_scale": 1.0, "restart_until": 0.0}

    def __init__(self, alpha: float = 1.5, beta: float = 0.0, gamma: float = 2.0, restart: int = 0,
                 restart_keep: float = 0.0, beta_scale: float = 1.0, restart_until: int = 0):
        self.alpha = finite("alpha", alpha)
        self.beta = finite("beta", beta)
        self.gamma = finite("gamma", gamma)
        if self.gamma < 0:
            raise ZerosumError(f"dcfr: gamma must be >= 0 (older iterations may not weigh more), got {gamma}")
        if isinstance(restart, bool) or not isinstance(restart, (int, np.integer)) or restart < 0 or restart == 1:
            raise ZerosumError(f"dcfr: restart must be a whole number >= 2 (the average restarts at its powers), "
                               f"or 0 (never), got {restart!r}")
        self.restart = int(restart)
        self.restart_keep = finite("restart_keep", restart_keep)
        if not 0.0 <= self.restart_keep < 1.0:
            raise ZerosumError(f"dcfr: restart_keep must be in [0, 1) (the share of the average kept at a restart), "
                               f"got {restart_keep}")
        self.beta_scale = finite("beta_scale", beta_scale)
        if self.beta_scale <= 0:
            raise ZerosumError(f"dcfr: beta_scale must be > 0 (t / beta_scale in the negative regrets' factor), "
                               f"got {beta_scale}")
        if isinstance(restart_until, bool) or not isinstance(restart_until, (int, np.integer)) or restart_until < 0:
            raise ZerosumError(f"dcfr: restart_until must be a whole number >= 0 (the last iteration a restart may "
                               f"fall on; 0: no last), got {restart_until!r}")
        self.restart_until = int(restart_until)

    @property
    def restarts(self) -> bool:
        """Whether ``restart`` is set."""
        return self.restart > 0

    def regret_rule(self, t: int) -> RegretRule:
        t = float(t)
        u = t if self.beta_scale == 1.0 else t / self.beta_scale
        return RegretRule(pos=t ** self.alpha / (t ** self.alpha + 1.0), neg=u ** self.beta / (u ** self.beta + 1.0))

    def _last_restart(self, t: int) -> int:
        s = 1
        last = self.restart_until or t
        while s * self.restart <= min(t, last):
            s *= self.restart
        return s

    def average_weight(self, t: int) -> float:
        if self.restart:
            return float(t - self._last_restart(t) + 1) ** self.gamma
        return float(t) ** self.gamma

    def restarts_average(self, t: int) -> bool:
        return self.restart > 0 and t > 1 and self._last_restart(t) == t


class Predictive(Variant):
    """What PCFR+ and PDCFR+ share: the next strategy is built by predictive regret matching+ on
    ``prediction_scale(t) * R`` with the last utilities as prediction.

    ``prediction="tree"`` (the default): an information set's predicted counterfactual utilities
    value the information sets below it under *their new* strategies, so the next strategy is
    built bottom-up; ``prediction="local"`` uses the last instantaneous counterfactual regret as
    is (children's old strategies), the simplification of some reference code.  Where it is
    computed is the driver's: :func:`zerosum.solvers.cfr.predictive_strategy` on the history
    tree, the depth-first pass's ``predict`` on the public tree."""

    predictive = True

    def _init_prediction(self, prediction: str) -> None:
        if prediction not in PREDICTIONS:
            raise ZerosumError(f"{self.name}: prediction must be one of {', '.join(PREDICTIONS)}, got {prediction!r}")
        self.prediction = prediction

    def prediction_scale(self, t: int) -> float:
        """Factor on the cumulative regrets the prediction is added to after iteration t."""
        return 1.0

    def save(self, state: dict) -> dict:
        state["param_prediction"] = np.array(self.prediction)
        return super().save(state)

    def check(self, state: dict) -> None:
        super().check(state)
        if str(state.get("param_prediction")) != self.prediction:
            raise ZerosumError(f"the saved run used prediction={state.get('param_prediction')}, "
                               f"not {self.prediction}")


class PCFRPlus(Predictive):
    """Predictive CFR+ (Farina, Kroer and Sandholm 2021, "Faster Game Solving via Predictive
    Blackwell Approachability: Connecting Regret Matching and Mirror Descent", AAAI).

    Why: regret matching+ is a Blackwell-approachability algorithm, and like online mirror descent
    it can be made *optimistic*: play as if the next loss were known in advance.  Predictive regret
    matching+ (PRM+) at a decision point keeps ``R_t = max(0, R_{t-1} + r_t)`` and plays
    ``x_{t+1}`` proportional to ``[R_t + m - <m, x_t>]^+`` for a predicted utility vector m.  PCFR+
    runs PRM+ at every information set of CFR's decomposition with the last utilities as
    prediction (``g_t``, the values collected under each sequence this iteration).  In the
    decomposition the prediction of an information set's counterfactual utilities includes the
    values of the information sets below it under *their new* strategies, so the next strategy is
    built bottom-up (``prediction="tree"``, the default; ``"local"``: see :class:`Predictive`).
    Iterates are averaged with quadratic weights t^2 (``gamma=2``)."""

    name = "pcfr+"
    params = ("gamma",)

    def __init__(self, gamma: float = 2.0, prediction: str = "tree"):
        self.gamma = finite("gamma", gamma)
        if self.gamma < 0:
            raise ZerosumError(f"pcfr+: gamma must be >= 0, got {gamma}")
        self._init_prediction(prediction)

    def regret_rule(self, t: int) -> RegretRule:
        return RegretRule(floor=True)

    def prediction_scale(self, t: int) -> float:
        """1: the prediction is added to the floored regrets as they are."""
        return 1.0

    def average_weight(self, t: int) -> float:
        return float(t) ** self.gamma


class PDCFRPlus(Predictive):
    """Predictive discounted CFR+, PDCFR+ (Xu, Li, Liu, Fu, Fu, Xing and Cheng 2024, "Minimizing
    Weighted Counterfactual Regret with Optimistic Online Mirror Descent", IJCAI).

    Why: DCFR's discounting and PCFR+'s prediction help in different games (discounting when
    early mistakes are costly, prediction when play is smooth); PDCFR+ uses both.  With
    d(s) = s^alpha / (s^alpha + 1) (so d(0) = 0), at each information set and iteration t:

    * cumulative regrets ``R_t = max(0, d(t-1) * R_{t-1} + r_t)`` (discounted, floored as in CFR+);
    * next strategy by predictive regret matching+ on ``d(t) * R_t`` (the regrets the next update
      starts from) with the last utilities as prediction, bottom-up as in :class:`PCFRPlus`
      (``prediction="local"``: ``[d(t) * R_t + r_t]^+``, the form of the paper's own code);
    * iteration t's strategy weighs t^gamma in the average.

    The paper's defaults are alpha = 2.3, gamma = 5, with alternating updates."""

    name = "pdcfr+"
    params = ("alpha", "gamma")

    def __init__(self, alpha: float = 2.3, gamma: float = 5.0, prediction: str = "tree"):
        self.alpha = finite("alpha", alpha)
        self.gamma = finite("gamma", gamma)
        if self.alpha < 0 or self.gamma < 0:
            raise ZerosumError(f"pdcfr+: alpha and gamma must be >= 0, got alpha={alpha}, gamma={gamma}")
        self._init_prediction(prediction)

    def discount(self, s: int) -> float:
        """d(s) = s^alpha / (s^alpha + 1), d(0) = 0."""
        s = float(s)
        return s ** self.alpha / (s ** self.alpha + 1.0) if s > 0 else 0.0

    def regret_rule(self, t: int) -> RegretRule:
        return RegretRule(pre=self.discount(t - 1), floor=True)

    def prediction_scale(self, t: int) -> float:
        """d(t): the prediction is added to the regrets the next update starts from."""
        return self.discount(t)

    def average_weight(self, t: int) -> float:
        return float(t) ** self.gamma


_LOG_WEIGHTS: dict = {}


def schedule_progress(t: int, horizon: int) -> float:
    """u(t) = min(t, T) / T, how far iteration t is through a schedule of horizon T (held at 1
    after the horizon, so a run longer than T keeps the schedule's final values)."""
    return min(float(t), float(horizon)) / float(horizon)


def _log_weight(gamma_start: float, horizon: int, t: int) -> float:
    """L(t) = sum over s = 1 .. t-1 of gamma(s) * log((s + 1) / s), gamma(s) = gamma_start - 5 u(s),
    cached per schedule as an array grown by doubling (one numpy pass, not one per iteration)."""
    key = (gamma_start, horizon)
    table = _LOG_WEIGHTS.get(key)
    if table is None or len(table) <= t:
        n = max(2 * t, horizon + 2, 16)
        s = np.arange(1, n, dtype=np.float64)
        gam = gamma_start - 5.0 * np.minimum(s, horizon) / horizon
        table = np.concatenate(([0.0, 0.0], np.cumsum(gam * np.log1p(1.0 / s))))
        _LOG_WEIGHTS[key] = table
    return float(table[t])


class _GammaSchedule:
    """What HS-DCFR and HS-PCFR+ share: the averaging exponent follows a schedule gamma(t), and
    the average is DCFR's running discount, after iteration s the sum so far times
    (s / (s + 1))^gamma(s).  Unrolled, iteration t weighs prod over s >= t of (s / (s+1))^gamma(s),
    which is exp(L(t) - L(T)) up to one factor common to all iterations (:func:`_log_weight`).

    Why unrolled relative to the horizon T: with gamma near 30 the raw weight t^gamma reaches
    1e90 at t = 1,000, past float32 (the public tree's ``float32`` sums); relative to T it is
    at most 1 up to T (early iterations underflow to 0, which is what their weight rounds to),
    and (t / T)^25 after it (1e25 at t = 10 T)."""

    def gamma_at(self, t: int) -> float:
        """gamma(t) = gamma_start - 5 u(t)."""
        return self.gamma_start - 5.0 * schedule_progress(t, self.horizon)

    def average_weight(self, t: int) -> float:
        t = int(t)
        return math.exp(_log_weight(self.gamma_start, self.horizon, t)
                        - _log_weight(self.gamma_start, self.horizon, self.horizon))


def _check_schedule(name: str, gamma_start, horizon) -> tuple[float, int]:
    gamma_start = finite("gamma_start", gamma_start)
    if gamma_start < 5:
        raise ZerosumError(f"{name}: gamma_start must be >= 5 (gamma falls by 5 over the schedule and may "
                           f"not go negative), got {gamma_start}; the paper's settings are 30 and 15")
    if isinstance(horizon, bool) or not isinstance(horizon, (int, float)) or horizon != int(horizon) \
            or horizon < 1:
        raise ZerosumError(f"{name}: horizon must be a whole number of iterations >= 1, got {horizon!r}; "
                           f"try --option horizon=1000")
    return gamma_start, int(horizon)


class HSDCFR(_GammaSchedule, Variant):
    """HS-DCFR, DCFR with hyperparameter schedules (Zhang, McAleer and Sandholm, "Faster Game
    Solving via Hyperparameter Schedules", arXiv 2404.09097).

    Why: DCFR's fixed (1.5, 0, 2) trades early against late iterations once for the whole run;
    the schedules discount early iterations hard (gamma near 30) and relax as the run matures.
    With u = min(t, T) / T for a planned horizon T (``horizon``, default 1,000, the paper's
    stopping point): alpha(t) = 1 + 3 u, beta(t) = -1 - 2 u, gamma(t) = gamma_start - 5 u
    (``gamma_start`` 30, "HS-DCFR(30)"; 15 is the paper's other setting).  The regrets are
    discounted as DCFR's with alpha(t), beta(t); the average as :class:`_GammaSchedule`.

    Source of the forms: the paper's text could not be read from this workplace's search
    tools (only its abstract); the forms are those a public third-party implementation cites
    as the paper's eq. (4), labelled so until checked against the paper."""

    name = "hs-dcfr"
    params = ("gamma_start", "horizon")

    def __init__(self, gamma_start: float = 30.0, horizon: int = 1000):
        self.gamma_start, self.horizon = _check_schedule(self.name, gamma_start, horizon)

    def alpha_at(self, t: int) -> float:
        """alpha(t) = 1 + 3 u(t)."""
        return 1.0 + 3.0 * schedule_progress(t, self.horizon)

    def beta_at(self, t: int) -> float:
        """beta(t) = -1 - 2 u(t)."""
        return -1.0 - 2.0 * schedule_progress(t, self.horizon)

    def regret_rule(self, t: int) -> RegretRule:
        a, b, t = self.alpha_at(t), self.beta_at(t), float(t)
        return RegretRule(pos=t ** a / (t ** a + 1.0), neg=t ** b / (t ** b + 1.0))


class HSPCFRPlus(_GammaSchedule, Predictive):
    """HS-PCFR+, PCFR+ with a hyperparameter schedule (same paper as :class:`HSDCFR`): gamma is
    PCFR+'s only hyperparameter, and it follows gamma(t) = gamma_start - 5 u(t) (default
    "HS-PCFR+(30)", horizon 1,000); regrets and prediction as :class:`PCFRPlus`.  Same source
    caveat as :class:`HSDCFR`."""

    name = "hs-pcfr+"
    params = ("gamma_start", "horizon")

    def __init__(self, gamma_start: float = 30.0, horizon: int = 1000, prediction: str = "tree"):
        self.gamma_start, self.horizon = _check_schedule(self.name, gamma_start, horizon)
        self._init_prediction(prediction)

    def regret_rule(self, t: int) -> RegretRule:
        return RegretRule(floor=True)


#: every variant by the name ``zerosum solve -a NAME`` takes: adding one here (or with
#: :func:`register_variant`) runs it on both forms, in the CLI, the web app and the registry of
#: features (:mod:`zerosum.solvers.capabilities`), with nothing else to edit
VARIANTS = {v.name: v for v in (CFR, CFRPlus, LCFR, DCFR, PCFRPlus, PDCFRPlus, HSDCFR, HSPCFRPlus)}


def register_variant(cls: type) -> type:
    """Add the variant class ``cls`` (a :class:`Variant` with a new ``name``) to :data:`VARIANTS`;
    returns it (usable as a class decorator)."""
    if not (isinstance(cls, type) and issubclass(cls, Variant)):
        raise ZerosumError(f"a variant is a subclass of zerosum.solvers.rules.Variant, got {cls!r}")
    if not isinstance(cls.name, str) or not cls.name or cls.name in VARIANTS:
        raise ZerosumError(f"a new variant needs a name of its own, got {cls.name!r}")
    VARIANTS[cls.name] = cls
    return cls


def check_variant(variant) -> Variant:
    """``variant`` if it is a variant object, else a one-line refusal."""
    if not isinstance(variant, Variant):
        raise ZerosumError(f"expected a CFR variant object ({', '.join(c.__name__ + '()' for c in VARIANTS.values())} "
                           f"of zerosum.solvers.rules), got {variant!r}")
    return variant
