"""Deep CFR (Brown, Lerer, Gross and Sandholm 2019) over the compiled history tree.

Each iteration t, for each player p in turn:

1. ``traversals`` external-sampling traversals for p (Numba, one compiled call for all of them):
   chance and the opponent sample their actions, p explores all of its own; at each of p's
   decisions the sampled regrets ``v(a) - v`` go into p's *advantage* reservoir with the
   iteration t, and at each opponent decision the opponent's current strategy goes into the
   opponent's *strategy* reservoir with t;
2. p's advantage network is trained from scratch on its reservoir, squared error weighted by t
   (linear CFR).  p's next strategy is regret matching on its predicted advantages (the
   largest advantage played with probability 1 where none is positive).

The networks are small and the games compiled, so a network's strategy is tabulated over all of
its player's information sets once after each training (:mod:`.network_policy`); the
traversals then read that table -- exactly what querying the network at every visited
information set would give, at the cost of one batched forward pass.  The average strategy is a
network per player fitted to the strategy reservoir (cross-entropy weighted by t), trained at
each checkpoint; its tabulation is evaluated exactly.

Defaults depend on the game's size (:func:`resolve_defaults`): the options ``traversals``,
``hidden``, ``policy_hidden``, ``memory`` and ``aggregate`` default to ``"auto"``, resolved from
the compiled game's number of information sets (both players).  Games with fewer than
``LARGE_GAME_INFOSETS`` (100; Kuhn has 12) get the small settings below; larger ones (the
Leduc variants: 288 and 936) get the settings measured on OpenSpiel's ``leduc_poker``: 10,000
traversals, reservoirs of 2,000,000, two hidden layers of 128 for every network, aggregate fits.
An explicit value overrides the rule; the resolved values are what the state file stores and
what ``extra_info`` reports.

Small-game defaults follow OpenSpiel's PyTorch example for Kuhn (``deep_cfr_pytorch.py``: one hidden
layer of 64, 375 traversals, 2,500 policy steps, Adam 1e-3, reservoirs of 100,000) except the
advantage fits: 1,500 steps of 1,024 with the step size decaying along a cosine instead of 375
of 256 at a constant step, which measured better on Kuhn (SD-CFR at 100 iterations: 0.008
against 0.012-0.017; the advantage networks' fitting error sets the floor).  Random numbers: the traversals' splitmix64 stream from (seed, iteration, player),
JAX keys from the same; a resumed run is the uninterrupted one.  Needs the ``deep`` extra.

Two options change how the networks are fitted: ``warm_start`` starts each advantage fit from the
player's last network; ``aggregate`` fits full-batch on one row per information set (the
reservoir's weighted mean target and total weight: the samples' own objective up to a constant,
without minibatch noise -- what a compiled game, whose information sets can be enumerated,
allows).  On Leduc the fitting noise, not the traversals, is what held SD-CFR back.
"""

from __future__ import annotations

import json
import time

import numpy as np
from numba import njit

from ..core.evaluation import evaluate
from ..core.policy import TabularPolicy, as_compiled
from ..core.sampling import max_depth
from ..core.sequence_form import realization_plan
from ..deep.distill import global_sequences
from ..deep.network_policy import Network, legal_mask, strategy_from_outputs, tabulate
from ..errors import ZerosumError
from .base import IterativeSolver, check_state
from .sampling_traversal import RESERVOIRS, external_sampling_traversal
from .sampling_traversal import reservoir_slot as _reservoir_slot  # noqa: F401 (NFSP's)


@njit(cache=True)
def _traverse(traverser, player, infoset, seq0, first_child, n_children, edge_prob, payoff, sigma, values,
              stack_node, stack_k, seed, stream, traversals, iteration, adv_ids, adv_iter, adv_targets, adv_seen,
              strat_ids, strat_iter, strat_targets, strat_seen, record_strategy):
    """``traversals`` external-sampling traversals for ``traverser`` with the strategy table
    ``sigma`` (per global sequence), all from one stream ``(seed, stream)``: the shared traversal
    (:func:`.sampling_traversal.external_sampling_traversal`, mode ``RESERVOIRS``) puts regret
    samples into the advantage reservoir, the opponent's strategies into its strategy reservoir.
    Returns the nodes touched."""
    # regrets and avg (sigma passed) are unused in this mode
    return external_sampling_traversal(RESERVOIRS, traverser, traversals, seed, stream, player, infoset, seq0,
                                       first_child, n_children, edge_prob, payoff, sigma, values, stack_node,
                                       stack_k, sigma, sigma, iteration, adv_ids, adv_iter, adv_targets, adv_seen,
                                       strat_ids, strat_iter, strat_targets, strat_seen, record_strategy)


def positive_int(name, value) -> int:
    """``value`` as an int, or a one-line error naming ``name``."""
    if isinstance(value, bool) or not isinstance(value, (int, np.integer)) or value <= 0:
        raise ZerosumError(f"{name} must be a positive integer, got {value!r}")
    return int(value)


def layer_widths(name, value) -> tuple[int, ...]:
    """Hidden widths from an int or a list of ints (``--option hidden=[64,64]``)."""
    if isinstance(value, (int, np.integer)) and not isinstance(value, bool):
        value = [value]
    if not isinstance(value, (list, tuple)) or not value or \
            any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v <= 0 for v in value):
        raise ZerosumError(f"{name} must be a positive integer or a list of them, got {value!r}")
    return tuple(int(v) for v in value)


AUTO = "auto"
LARGE_GAME_INFOSETS = 100
SMALL_DEFAULTS = {"traversals": 375, "hidden": (64,), "policy_hidden": (64,), "memory": 100000, "aggregate": False}
LARGE_DEFAULTS = {"traversals": 10000, "hidden": (128, 128), "policy_hidden": (128, 128), "memory": 2000000,
                  "aggregate": True}


def resolve_defaults(game, **options) -> dict:
    """The options left at ``"auto"`` resolved from the game's size: fewer than
    ``LARGE_GAME_INFOSETS`` information sets (both players together) take ``SMALL_DEFAULTS``
    (Kuhn's settings), more take ``LARGE_DEFAULTS`` (measured on ``leduc_poker``); any other value
    is kept as given."""
    g = as_compiled(game)
    large = sum(t.n_infosets for t in g.treeplexes) >= LARGE_GAME_INFOSETS
    table = LARGE_DEFAULTS if large else SMALL_DEFAULTS
    return {k: (table[k] if isinstance(v, str) and v == AUTO else v) for k, v in options.items()}


class Reservoir:
    """Samples of one player's information sets: ids, iterations, target rows, and how many were offered."""

    def __init__(self, capacity: int, width: int):
        self.ids = np.zeros(capacity, dtype=np.int32)
        self.iters = np.zeros(capacity, dtype=np.float32)
        self.targets = np.zeros((capacity, width), dtype=np.float32)
        self.seen = np.zeros(1, dtype=np.int64)

    @property
    def size(self) -> int:
        """How many samples the reservoir holds."""
        return int(min(self.seen[0], len(self.ids)))

    def arrays(self, prefix: str) -> dict:
        """The reservoir's arrays for a state file, named with ``prefix``."""
        return {f"{prefix}_ids": self.ids, f"{prefix}_iters": self.iters, f"{prefix}_targets": self.targets,
                f"{prefix}_seen": self.seen}

    def load(self, state: dict, prefix: str) -> None:
        """Restore the arrays written by :meth:`arrays`."""
        for name in ("ids", "iters", "targets", "seen"):
            a = np.asarray(state[f"{prefix}_{name}"])
            mine = getattr(self, name)
            if a.shape != mine.shape:
                raise ZerosumError("the saved state's buffers do not match these options (memory?)")
            mine[...] = a


class DeepCFRSolver(IterativeSolver):
    """Deep CFR: advantage networks retrained each iteration, an average-strategy network."""

    name = "deep-cfr"
    progress_step = 1
    #: the CLI's default -n: the documented figures use 100; the general 1,000 ran about 18 minutes
    #: on Kuhn (issue 27)
    default_iterations = 100
    record_strategy = True

    def __init__(self, game, seed: int = 0, traversals=AUTO, hidden=AUTO, policy_hidden=AUTO,
                 learning_rate: float = 1e-3, batch: int = 1024, advantage_steps: int = 1500,
                 policy_steps: int = 2500, memory=AUTO, features: str = "auto", decay: bool = True,
                 warm_start: bool = False, aggregate=AUTO):
        from ..learning.features import infoset_features
        from ..learning.networks import require_jax

        require_jax()
        g = self.game = as_compiled(game)
        auto = resolve_defaults(g, traversals=traversals, hidden=hidden, policy_hidden=policy_hidden, memory=memory,
                                aggregate=aggregate)
        traversals, hidden, policy_hidden, memory, aggregate = (
            auto[k] for k in ("traversals", "hidden", "policy_hidden", "memory", "aggregate"))
        if isinstance(seed, bool) or int(seed) != seed or not 0 <= int(seed) < 2 ** 31:
            raise ZerosumError(f"seed must be a non-negative integer below 2**31, got {seed}")
        self.seed = int(seed)
        self.traversals = positive_int("traversals", traversals)
        self.hidden = layer_widths("hidden", hidden)
        self.policy_hidden = layer_widths("policy_hidden", policy_hidden)
        if isinstance(learning_rate, bool) or not isinstance(learning_rate, (int, float)) or \
                not 0 < learning_rate < 1:
            raise ZerosumError(f"learning_rate must be in (0, 1), got {learning_rate!r}")
        self.learning_rate = float(learning_rate)
        self.batch = positive_int("batch", batch)
        self.advantage_steps = positive_int("advantage_steps", advantage_steps)
        self.policy_steps = positive_int("policy_steps", policy_steps)
        self.memory = positive_int("memory", memory)
        self.features = features
        if not isinstance(decay, bool):
            raise ZerosumError(f"decay must be true or false, got {decay!r}")
        self.decay = decay
        if not isinstance(warm_start, bool):
            raise ZerosumError(f"warm_start must be true or false, got {warm_start!r}")
        self.warm_start = warm_start
        if not isinstance(aggregate, bool):
            raise ZerosumError(f"aggregate must be true or false, got {aggregate!r}")
        self.aggregate = aggregate
        self.trees = g.treeplexes
        self.seq0, self.offsets = global_sequences(g)
        self.widths = [int(t.infoset_size.max()) for t in self.trees]
        self.feats = [infoset_features(g, p, features) for p in (0, 1)]
        self.legal = [legal_mask(g, p, self.widths[p]) for p in (0, 1)]
        self.sigma = np.concatenate([t.uniform() for t in self.trees])
        self._values = np.zeros_like(self.sigma)
        depth = max_depth(g.tree.first_child, g.tree.n_children) + 2
        self._stack = (np.zeros(depth, dtype=np.int64), np.zeros(depth, dtype=np.int64))
        self.advantage = [Reservoir(self.memory, w) for w in self.widths]
        self.strategy = [Reservoir(self.memory if self.record_strategy else 1, w) for w in self.widths]
        self.advantage_params = [None, None]
        self.iteration = 0
        self.nodes_touched = 0
        self.cpu_seconds = 0.0
        self._average = None  # (iteration, policy networks)

    # --- one iteration --------------------------------------------------------------------------
    def _options(self) -> dict:
        return {"traversals": self.traversals, "hidden": list(self.hidden), "policy_hidden": list(self.policy_hidden),
                "learning_rate": self.learning_rate, "batch": self.batch, "advantage_steps": self.advantage_steps,
                "policy_steps": self.policy_steps, "memory": self.memory, "features": self.features,
                "decay": self.decay, "warm_start": self.warm_start, "aggregate": self.aggregate}

    def extra_info(self) -> dict:
        """The options this run uses, ``"auto"`` ones resolved (``solve --json`` reports them)."""
        return {"options": self._options()}

    def _key(self, stream: int):
        from ..learning.networks import seed_key

        return seed_key(self.seed, stream)

    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (traversals and an advantage network per player each)."""
        for _ in range(n):
            t0 = time.process_time()
            t = self.iteration + 1
            for p in (0, 1):
                self.nodes_touched += self.traverse(p, t)
                self._train_advantage(p, t)
            self.iteration = t
            self.cpu_seconds += time.process_time() - t0

    def traverse(self, p: int, t: int) -> int:
        """Iteration t's traversals for player p with the current strategy table, into the
        reservoirs; returns the nodes touched."""
        tree = self.game.tree
        adv, strat = self.advantage[p], self.strategy[1 - p]
        return int(_traverse(p, tree.player, tree.infoset, self.seq0, tree.first_child, tree.n_children,
                             tree.edge_prob, tree.payoff, self.sigma, self._values, *self._stack, self.seed, 2 * t + p,
                             self.traversals, t, adv.ids, adv.iters, adv.targets, adv.seen, strat.ids, strat.iters,
                             strat.targets, strat.seen, self.record_strategy))

    def _train_advantage(self, p: int, t: int) -> None:
        from ..deep.training import fit_network, numpy_params

        start = self.advantage_params[p] if self.warm_start else None
        params, _ = fit_network(self._key(2 * t + p), [self.feats[p].shape[1], *self.hidden, self.widths[p]],
                                self.feats[p], self.legal[p], *self._samples(self.advantage[p], p), loss="mse",
                                steps=self.advantage_steps, batch=self.batch, learning_rate=self.learning_rate,
                                decay=self.decay, params=start, full=self.aggregate)
        self.advantage_params[p] = numpy_params(params)
        self._set_sigma(p)
        self._trained(p, t)

    def _samples(self, buf: Reservoir, p: int):
        """(ids, targets, weights, size) to fit: the reservoir's samples, or with ``aggregate`` one
        row per information set (weighted mean target, total weight; see training.aggregate)."""
        from ..deep.training import aggregate

        if not self.aggregate:
            return buf.ids, buf.targets, buf.iters, buf.size
        n = self.trees[p].n_infosets
        return (*aggregate(buf.ids, buf.targets, buf.iters, buf.size, n), n if buf.size else 0)

    def _set_sigma(self, p: int) -> None:
        net = self.advantage_network(p)
        pi = strategy_from_outputs(self.game, p, net.outputs(self.feats[p]), "regret-matching")
        o = self.offsets[p]
        self.sigma[o:o + len(pi)] = pi

    def _trained(self, p: int, t: int) -> None:
        """Hook after player p's advantage network of iteration t is trained (SD-CFR keeps it)."""

    def advantage_network(self, p: int) -> Network:
        """Player p's latest advantage network."""
        return Network(self.game.game_id, p, "regret-matching", self.advantage_params[p], self.features)

    # --- results --------------------------------------------------------------------------------
    def current_policy(self) -> TabularPolicy:
        """The profile the advantage networks play now (regret matching on their advantages)."""
        o = self.offsets[1]
        return TabularPolicy(self.game, (self.sigma[:o].copy(), self.sigma[o:].copy()))

    def policy_networks(self) -> list[Network]:
        """The average-strategy networks, trained on the strategy reservoirs at this iteration."""
        from ..deep.training import fit_network, numpy_params

        if self._average is not None and self._average[0] == self.iteration:
            return self._average[1]
        t0 = time.process_time()
        nets = []
        for p in (0, 1):
            params, _ = fit_network(self._key(1_000_003 + 2 * self.iteration + p),
                                    [self.feats[p].shape[1], *self.policy_hidden, self.widths[p]], self.feats[p],
                                    self.legal[p], *self._samples(self.strategy[p], p), loss="xent",
                                    steps=self.policy_steps, batch=self.batch, learning_rate=self.learning_rate,
                                    decay=self.decay, full=self.aggregate)
            nets.append(Network(self.game.game_id, p, "softmax", numpy_params(params), self.features))
        self.cpu_seconds += time.process_time() - t0
        self._average = (self.iteration, nets)
        return nets

    def networks(self) -> list[Network]:
        """The networks that define the average policy (saved next to it by ``--save``)."""
        return self.policy_networks()

    def average_policy(self) -> TabularPolicy:
        """The average-strategy networks, tabulated (exact)."""
        return tabulate(self.game, self.policy_networks(), self.feats)

    def samples(self) -> int:
        """Samples offered to the reservoirs so far."""
        return int(sum(b.seen[0] for b in self.advantage) + sum(b.seen[0] for b in self.strategy))

    def checkpoint(self) -> dict:
        """Exact NashConv of the average and current policies, nodes, samples, CPU seconds."""
        avg = evaluate(self.game, self.average_policy())
        cur = evaluate(self.game, self.current_policy())
        return {"iteration": self.iteration, "nash_conv_average": avg.nash_conv,
                "nash_conv_current": cur.nash_conv, "value_average": avg.value, "nodes": self.nodes_touched,
                "samples": self.samples(), "cpu_seconds": self.cpu_seconds}

    # --- saving and resuming --------------------------------------------------------------------
    def state_dict(self) -> dict:
        """Reservoirs, networks and counters as arrays (the random streams need only seed and iteration)."""
        state = {"solver": np.array(self.name), "game": np.array(self.game.game_id),
                 "iteration": np.array(self.iteration), "nodes_touched": np.array(self.nodes_touched),
                 "seed": np.array(self.seed), "cpu_seconds": np.array(self.cpu_seconds),
                 "options": np.array(json.dumps(self._options()))}
        for p in (0, 1):
            state.update(self.advantage[p].arrays(f"advantage{p}"))
            if self.record_strategy:
                state.update(self.strategy[p].arrays(f"strategy{p}"))
            if self.advantage_params[p] is not None:
                for j, (w, b) in enumerate(self.advantage_params[p]):
                    state[f"adv{p}_w{j}"], state[f"adv{p}_b{j}"] = w, b
        return state

    def load_state_dict(self, state: dict) -> None:
        """Continue from :meth:`state_dict`'s arrays (refused if made with other options)."""
        check_state(state, self.name, self.game.game_id)
        saved = {"warm_start": False, "aggregate": False, **json.loads(str(state["options"]))}  # states from before the option
        for key, value in self._options().items():
            if saved.get(key) != value:
                raise ZerosumError(f"the saved run used {key}={saved.get(key)!r}, not {value!r}")
        self.seed = int(state["seed"])
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])
        self.cpu_seconds = float(state["cpu_seconds"])
        self._average = None
        for p in (0, 1):
            self.advantage[p].load(state, f"advantage{p}")
            if self.record_strategy:
                self.strategy[p].load(state, f"strategy{p}")
            layers = len(self.hidden) + 1
            if f"adv{p}_w0" in state:
                self.advantage_params[p] = [(np.asarray(state[f"adv{p}_w{j}"], dtype=np.float32),
                                             np.asarray(state[f"adv{p}_b{j}"], dtype=np.float32))
                                            for j in range(layers)]
                self._set_sigma(p)


class SingleDeepCFRSolver(DeepCFRSolver):
    """Single Deep CFR (Steinberger 2019): no average network; the average strategy is recovered
    exactly from the value networks of every iteration, weighted by t (linear CFR) and by each
    network's own reach (realization plans)."""

    name = "sd-cfr"
    record_strategy = False

    def __init__(self, game, seed: int = 0, traversals=AUTO, hidden=AUTO, learning_rate: float = 1e-3,
                 batch: int = 1024, advantage_steps: int = 1500, memory=AUTO, features: str = "auto",
                 decay: bool = True, warm_start: bool = False, aggregate=AUTO):
        super().__init__(game, seed, traversals, hidden, (1,), learning_rate, batch, advantage_steps, 1, memory,
                         features, decay, warm_start, aggregate)
        self.value_networks = [[], []]  # per player, the params trained at iterations 1, 2, ...
        self.plan_sums = [np.zeros(t.n_sequences) for t in self.trees]  # sum of t * realization plan

    def _options(self) -> dict:
        o = super()._options()
        for k in ("policy_hidden", "policy_steps"):
            o.pop(k)
        return o

    def _trained(self, p: int, t: int) -> None:
        self.value_networks[p].append(self.advantage_params[p])
        o = self.offsets[p]
        pi = self.sigma[o:o + self.trees[p].n_sequences]
        self.plan_sums[p] += t * realization_plan(self.trees[p], pi)

    def average_policy(self) -> TabularPolicy:
        """The linear average of every iteration's value-network strategy (exact)."""
        from ..core.sequence_form import behavioral_from_realization

        if self.iteration == 0:
            return TabularPolicy.uniform(self.game)
        return TabularPolicy(self.game, [behavioral_from_realization(t, s) for t, s in zip(self.trees, self.plan_sums)])

    def average_from_networks(self) -> TabularPolicy:
        """The average recomputed from the stored value networks alone (tabulate each, weight its
        realization plan by its iteration): equal to :meth:`average_policy`."""
        from ..core.sequence_form import behavioral_from_realization

        sums = [np.zeros(t.n_sequences) for t in self.trees]
        for p in (0, 1):
            for t, params in enumerate(self.value_networks[p], start=1):
                net = Network(self.game.game_id, p, "regret-matching", params, self.features)
                pi = strategy_from_outputs(self.game, p, net.outputs(self.feats[p]), "regret-matching")
                sums[p] += t * realization_plan(self.trees[p], pi)
        return TabularPolicy(self.game, [behavioral_from_realization(t, s) for t, s in zip(self.trees, sums)])

    def networks(self) -> list[Network]:
        """The last value networks (the average needs them all: see :meth:`save_networks`)."""
        return [self.advantage_network(p) for p in (0, 1)]

    def samples(self) -> int:
        """Samples offered to the advantage reservoirs so far."""
        return int(sum(b.seen[0] for b in self.advantage))

    def state_dict(self) -> dict:
        """Deep CFR's state plus every iteration's value networks and the plan sums."""
        state = super().state_dict()
        for p in (0, 1):
            state[f"plan_sums{p}"] = self.plan_sums[p]
            for j in range(len(self.hidden) + 1):
                nets = self.value_networks[p]
                state[f"val{p}_w{j}"] = np.stack([n[j][0] for n in nets]) if nets else np.zeros(0, np.float32)
                state[f"val{p}_b{j}"] = np.stack([n[j][1] for n in nets]) if nets else np.zeros(0, np.float32)
        return state

    def load_state_dict(self, state: dict) -> None:
        """Continue from :meth:`state_dict`'s arrays."""
        super().load_state_dict(state)
        for p in (0, 1):
            self.plan_sums[p] = np.array(state[f"plan_sums{p}"], dtype=float)
            layers = len(self.hidden) + 1
            count = len(state[f"val{p}_w0"])
            self.value_networks[p] = [[(np.asarray(state[f"val{p}_w{j}"][k]), np.asarray(state[f"val{p}_b{j}"][k]))
                                       for j in range(layers)] for k in range(count)]
