"""Neural Fictitious Self-Play (Heinrich and Silver 2016) over the compiled history tree.

Each player has two networks on its information sets' feature vectors: a DQN whose epsilon-greedy
policy approximates a best response to the other's average, and an *average-policy* network
fitted by cross-entropy to its best-response decisions (all of them summed per information set,
or the paper's reservoir sample of them, so that the fit is the time average of the best
responses: fictitious play).  In every hand each player
follows its best response with probability ``anticipatory`` (eta) and its average otherwise.

One iteration plays ``hands`` hands of self-play (Numba, over the compiled tree) and then takes
``updates`` Adam steps on each of the four networks.  The networks do not change during a batch
of hands, so they are tabulated over all information sets once per iteration
(:mod:`.network_policy`) and the hands read the tables -- the same actions querying the networks
would give.  The DQN part reuses :mod:`zerosum.learning.dqn`'s jit-compiled step
(target ``r + max_a' Q_target``, or Double DQN's, rewards scaled by the largest payoff); the target network is
copied every ``target_every`` gradient steps; epsilon falls linearly from ``epsilon_start`` to
``epsilon_end`` over ``epsilon_decay`` iterations.

The defaults differ from the paper's NFSP settings (zerosum's defaults until they were measured
on Kuhn, docs/deep.md): with them NFSP reaches NashConv <= 0.01 on Kuhn from 12.3 M hands on
(0.0098 / 0.0091 / 0.0087 for seeds 1-3 at 12.3 M, 110-128 CPU s; 0.0078 / 0.0058 / 0.0044 at
16.4 M; 0.0073-0.0116 at 4.1 M), where the paper's settings stall at 0.07-0.09; on OpenSpiel's
``leduc_poker`` (the size rule's features, [128,128] and one average-network step per iteration)
0.173 / 0.205 / 0.162 for seeds 1-3 after 28.7 M hands (686-719 CPU s; mean 0.180), where
one-hot inputs stayed at 1.3-1.8, 16 average-network steps per iteration reached 0.31 (mean) in
the same CPU, and OpenSpiel's NFSP is at about 0.8 after 16 M.

* ``rl_loss="squared"``: the DQN's loss is half the squared error, not the Huber loss.  Rewards
  are scaled by the largest payoff, so a showdown is worth +-1 and the targets at one action
  spread by 2; the Huber loss (linear beyond 1) is then minimized between the mean and the
  median, not at the mean: on Kuhn it put calling with a queen at -1.20 where its value was
  -0.87, and the greedy responses were 0.05-0.09 worse than best responses for good.
* ``sl_fit="aggregate"``: the average network is fitted, ``sl_updates`` full-batch Adam steps per
  iteration, to *every* best-response target so far summed per information set (weighted by
  the sums), instead of to minibatches of a reservoir.  The cross-entropy is linear in the
  targets, so this is the objective the reservoir's minibatches estimate, over the whole
  history and without their sampling noise (a compiled game's information sets are few enough
  to enumerate).  With exact best responses in place of the DQN, the reservoir fit stays at
  NashConv 0.03-0.05 on Kuhn and the aggregate one reaches 0.001-0.004.  ``sl_fit="reservoir"``
  is the paper's (then ``reservoir`` is its size).
* ``sl_target="greedy"``: a best-response decision adds the greedy response's row (without the
  epsilon exploration) rather than the action taken (``action``, the paper's); ``softmax``
  adds the softmax of the action values over ``temperature`` (smooth fictitious play).
* ``sl_weight="uniform"`` (the paper's) weighs every target alike; ``linear`` weighs iteration
  t's by t (the first iterations' responses, from untrained networks, fade as 1/t^2 instead of
  1/t), but then the last quarter of a run carries 44 % of the average and a late stretch of
  wrong responses moves it (Kuhn seed 1: 0.009 at 12 M hands, 0.049 at 16 M; uniform: 0.012,
  0.010), so it is not the default.
* ``double=True``, ``rl_decay=20``: Double DQN targets, the DQN's Adam steps scaled by
  1 / sqrt(1 + t / rl_decay) at iteration t (0: constant);
* ``features`` and ``hidden`` by the game's size (:func:`resolve_defaults`, the rule of Deep CFR's:
  fewer than 100 information sets, both players together, or more): one-hot information-set
  inputs and one layer of 64 on small games (Kuhn); the game's own features (OpenSpiel's
  information-state tensor, or the card encoding) and two layers of 128 on larger ones
  (``leduc_poker``: with one-hot inputs the DQN's greedy responses stayed 0.2-0.9 worse than
  exact best responses, because each of the many rarely reached information sets has its own
  input row, updated by a few large, Adam-normalized steps, and its action values stayed near
  what the shared layers give every information set; docs/deep.md).  ``features="by_size"`` and
  ``hidden="auto"`` ask for the rule; the resolved values are reported and stored;
* ``sl_updates`` by the game's size: 16 on small games (Kuhn's runs), 1 on larger ones, where
  16 full-batch steps on 468 information sets took 42 of an iteration's 53 ms on ``leduc_poker``
  and ended worse (seed 3 at 12.3 M hands: 0.442 against 0.196 with 2 steps, 0.191 with 1): the
  targets' mean moves slowly, and 16 steps at 0.01 moved the network, and the mixture the DQNs
  answer, more than it (mean of seeds 1-3 at 28.7 M hands: 0.197 with 2, 0.180 with 1);
* ``replay`` and ``anticipatory`` by the game's size too: 50,000 transitions and eta 0.05 on
  small games (Kuhn), 200,000 and 0.1 (the former defaults) on larger ones.  On Kuhn the ring of
  200,000 (about 130 iterations of transitions) made the DQN answer a stale mixture while the
  average still moved fast: NashConv 0.14 at 1 M hands (seed 1) against 0.02 with 50,000; a
  smaller eta leaves less of the opponent's flipping best response in the mixture the DQN must
  track (4.1 M hands, seeds 1-3: 0.0106 / 0.0101 / 0.0124 with the ring of 50,000 at eta 0.1,
  0.0116 / 0.0089 / 0.0073 at 0.05; 0.02 gave too few best-response targets: 0.030 at 3 M);
* ``hands=1024``, ``updates=16``: iterations eight times as long as the paper's 128 hands with
  2 steps (the same steps per hand), which costs a fifth of the CPU per hand (fewer tabulations
  and calls) and measured about as well per hand.

The policy evaluated at checkpoints is the average-policy networks' (tabulated: exact NashConv).
Random numbers: splitmix64 streams and NumPy generators from (seed, iteration), JAX keys from the
same, so a resumed run is the uninterrupted one.  Needs the ``deep`` extra.
"""

from __future__ import annotations

import json
import time

import numpy as np
from numba import njit

from ..core.evaluation import evaluate
from ..core.game import CHANCE, TERMINAL
from ..core.policy import TabularPolicy, as_compiled
from ..core.sampling import sample, sample_chance, seed_iteration, uniform
from ..deep.distill import global_sequences
from ..deep.network_policy import Network, legal_mask, strategy_from_outputs, tabulate
from ..errors import ZerosumError
from .base import IterativeSolver, check_state
from .deep_cfr import AUTO, LARGE_GAME_INFOSETS, _reservoir_slot, layer_widths, positive_int


@njit(cache=True)
def _self_play(player, infoset, seq0, first_child, n_children, edge_prob, payoff, scale, br_probs, avg_probs,
               sl_probs, sl_w, eta, seed, stream, hands, rl_ids, rl_act, rl_rew, rl_next, rl_live, rl_pos, rl_size,
               sl_ids, sl_targets, sl_seen, sl_sum):
    """Play ``hands`` hands of NFSP self-play; transitions into each player's replay ring, the
    best-response decisions into each player's reservoir: the action taken (one-hot) when
    ``sl_probs`` is empty, else ``sl_probs``' row of the information set (the greedy response,
    without the exploration).  Every such target, times ``sl_w``, is also added to ``sl_sum[p, i]``
    (all of them, not a reservoir's subsample).  Returns the nodes touched."""
    state = np.zeros(1, dtype=np.uint64)
    seed_iteration(state, seed, stream)
    rl_cap = rl_ids.shape[1]
    sl_cap = sl_ids.shape[1]
    width = sl_targets.shape[2]
    pend_i = np.zeros(2, dtype=np.int64)
    pend_a = np.zeros(2, dtype=np.int64)
    br = np.zeros(2, dtype=np.bool_)
    nodes = 0
    for _ in range(hands):
        for p in range(2):
            br[p] = uniform(state) < eta
            pend_i[p] = -1
        h = 0
        while player[h] != TERMINAL:
            p = player[h]
            if p == CHANCE:
                h = sample_chance(first_child[h], n_children[h], edge_prob, state)
                continue
            nodes += 1
            i = infoset[h]
            g = seq0[h]
            n = n_children[h]
            if pend_i[p] >= 0:
                k = rl_pos[p]
                rl_ids[p, k] = pend_i[p]
                rl_act[p, k] = pend_a[p]
                rl_rew[p, k] = 0.0
                rl_next[p, k] = i
                rl_live[p, k] = True
                rl_pos[p] = (k + 1) % rl_cap
                rl_size[p] = min(rl_size[p] + 1, rl_cap)
            if br[p]:
                a = sample(br_probs, g, n, state)
                for k in range(n):
                    if len(sl_probs) == 0:
                        sl_sum[p, i, k] += sl_w if k == a else 0.0
                    else:
                        sl_sum[p, i, k] += sl_w * sl_probs[g + k]
                sl_seen[p] += 1
                slot = _reservoir_slot(sl_seen[p], sl_cap, state)
                if slot >= 0:
                    sl_ids[p, slot] = i
                    for k in range(width):
                        if len(sl_probs) == 0:
                            sl_targets[p, slot, k] = 1.0 if k == a else 0.0
                        else:
                            sl_targets[p, slot, k] = sl_probs[g + k] if k < n else 0.0
            else:
                a = sample(avg_probs, g, n, state)
            pend_i[p] = i
            pend_a[p] = a
            h = first_child[h] + a
        nodes += 1
        for p in range(2):
            if pend_i[p] >= 0:
                k = rl_pos[p]
                rl_ids[p, k] = pend_i[p]
                rl_act[p, k] = pend_a[p]
                rl_rew[p, k] = (payoff[h] if p == 0 else -payoff[h]) / scale
                rl_next[p, k] = 0
                rl_live[p, k] = False
                rl_pos[p] = (k + 1) % rl_cap
                rl_size[p] = min(rl_size[p] + 1, rl_cap)
    return nodes


#: ``features``, ``hidden``, ``replay`` and ``anticipatory`` left at their defaults are chosen by the
#: game's size (both players' information sets together, the rule of
#: :func:`.deep_cfr.resolve_defaults`): Kuhn's settings below ``LARGE_GAME_INFOSETS``, the ones
#: measured on ``leduc_poker`` from there on
BY_SIZE = "by_size"
SMALL_DEFAULTS = {"features": "onehot", "hidden": (64,), "replay": 50000, "anticipatory": 0.05, "sl_updates": 16}
LARGE_DEFAULTS = {"features": "auto", "hidden": (128, 128), "replay": 200000, "anticipatory": 0.1, "sl_updates": 1}


def resolve_defaults(game, features=BY_SIZE, hidden=AUTO, replay=AUTO, anticipatory=AUTO, sl_updates=AUTO) -> dict:
    """``features`` (when ``"by_size"``), ``hidden``, ``replay``, ``anticipatory`` and
    ``sl_updates`` (when ``"auto"``) from the game's size: fewer than ``LARGE_GAME_INFOSETS``
    information sets take ``SMALL_DEFAULTS`` (one-hot inputs, one layer of 64, a ring of 50,000
    transitions, eta 0.05, 16 steps of the average network per iteration: Kuhn's), more take
    ``LARGE_DEFAULTS`` (the game's own features, OpenSpiel's information-state tensor or the card
    encoding, two layers of 128: measured on ``leduc_poker``, where one-hot inputs left the DQN's
    action values wrong at the many rarely reached information sets; a ring of 200,000 and eta
    0.1, as before; one full-batch step of the average network per iteration, where 16 took 80 %
    of an iteration's CPU and ended worse); any other value is kept."""
    g = as_compiled(game)
    large = sum(t.n_infosets for t in g.treeplexes) >= LARGE_GAME_INFOSETS
    table = LARGE_DEFAULTS if large else SMALL_DEFAULTS
    return {"features": table["features"] if features == BY_SIZE else features,
            "hidden": table["hidden"] if isinstance(hidden, str) and hidden == AUTO else hidden,
            **{k: table[k] if isinstance(v, str) and v == AUTO else v
               for k, v in (("replay", replay), ("anticipatory", anticipatory), ("sl_updates", sl_updates))}}


def _float(name, value, low, high):
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
        raise ZerosumError(f"{name} must be a number in [{low}, {high}], got {value!r}")
    return float(value)


class NFSPSolver(IterativeSolver):
    """Neural Fictitious Self-Play: DQN best responses and supervised average policies."""

    name = "nfsp"
    progress_step = 50

    def __init__(self, game, seed: int = 0, hands: int = 1024, updates: int = 16, hidden=AUTO,
                 anticipatory=AUTO, rl_learning_rate: float = 0.01, sl_learning_rate: float = 0.01,
                 batch: int = 128, replay=AUTO, reservoir: int = 2000000, target_every: int = 300,
                 epsilon_start: float = 0.06, epsilon_end: float = 0.001, epsilon_decay: int = 20000,
                 features: str = BY_SIZE, double: bool = True, rl_decay: int = 20, sl_target: str = "greedy",
                 sl_fit: str = "aggregate", temperature: float = 0.01, sl_weight: str = "uniform",
                 rl_loss: str = "squared", sl_updates=AUTO):
        from ..learning.features import infoset_features
        from ..learning.networks import require_jax

        require_jax()
        auto = resolve_defaults(game, features=features, hidden=hidden, replay=replay, anticipatory=anticipatory,
                                sl_updates=sl_updates)
        features, hidden, replay, anticipatory = (auto[k] for k in ("features", "hidden", "replay", "anticipatory"))
        if isinstance(seed, bool) or int(seed) != seed or not 0 <= int(seed) < 2 ** 31:
            raise ZerosumError(f"seed must be a non-negative integer below 2**31, got {seed}")
        self.seed = int(seed)
        self.hands = positive_int("hands", hands)
        self.updates = positive_int("updates", updates)
        self.sl_updates = positive_int("sl_updates", auto["sl_updates"])
        self.hidden = layer_widths("hidden", hidden)
        self.anticipatory = _float("anticipatory", anticipatory, 0.0, 1.0)
        self.rl_learning_rate = _float("rl_learning_rate", rl_learning_rate, 1e-9, 1.0)
        self.sl_learning_rate = _float("sl_learning_rate", sl_learning_rate, 1e-9, 1.0)
        self.batch = positive_int("batch", batch)
        self.replay = positive_int("replay", replay)
        self.reservoir = positive_int("reservoir", reservoir)
        self.target_every = positive_int("target_every", target_every)
        self.epsilon_start = _float("epsilon_start", epsilon_start, 0.0, 1.0)
        self.epsilon_end = _float("epsilon_end", epsilon_end, 0.0, 1.0)
        self.epsilon_decay = positive_int("epsilon_decay", epsilon_decay)
        self.features = features
        if not isinstance(double, bool):
            raise ZerosumError(f"double must be true or false, got {double!r}")
        self.double = double
        if isinstance(rl_decay, bool) or not isinstance(rl_decay, int) or rl_decay < 0:
            raise ZerosumError(f"rl_decay must be a non-negative integer, got {rl_decay!r}")
        self.rl_decay = rl_decay
        if sl_target not in ("action", "greedy", "softmax"):
            raise ZerosumError(f"sl_target must be action, greedy or softmax, got {sl_target!r}")
        self.temperature = _float("temperature", temperature, 1e-6, 1e6)
        self.sl_target = sl_target
        if sl_weight not in ("uniform", "linear"):
            raise ZerosumError(f"sl_weight must be uniform or linear, got {sl_weight!r}")
        self.sl_weight = sl_weight
        if rl_loss not in ("huber", "squared"):
            raise ZerosumError(f"rl_loss must be huber or squared, got {rl_loss!r}")
        self.rl_loss = rl_loss
        if sl_fit not in ("reservoir", "aggregate"):
            raise ZerosumError(f"sl_fit must be reservoir or aggregate, got {sl_fit!r}")
        self.sl_fit = sl_fit
        g = self.game = as_compiled(game)
        self.trees = g.treeplexes
        self.seq0, self.offsets = global_sequences(g)
        self.width = max(int(t.infoset_size.max()) for t in self.trees)
        self.feats = [infoset_features(g, p, features) for p in (0, 1)]
        self.legal = [legal_mask(g, p, self.width) for p in (0, 1)]
        self.scale = float(np.abs(g.tree.payoff).max()) or 1.0
        self.rl = {"ids": np.zeros((2, self.replay), np.int64), "act": np.zeros((2, self.replay), np.int64),
                   "rew": np.zeros((2, self.replay), np.float32), "next": np.zeros((2, self.replay), np.int64),
                   "live": np.zeros((2, self.replay), np.bool_), "pos": np.zeros(2, np.int64),
                   "size": np.zeros(2, np.int64)}
        cap = 0 if self.sl_fit == "aggregate" else self.reservoir  # the aggregate needs no reservoir
        self.sl = {"ids": np.zeros((2, cap), np.int32),
                   "targets": np.zeros((2, cap, self.width), np.float32), "seen": np.zeros(2, np.int64),
                   "sum": np.zeros((2, max(t.n_infosets for t in self.trees), self.width))}
        self.iteration = 0
        self.nodes_touched = 0
        self.grad_steps = 0
        self.cpu_seconds = 0.0
        self._init_networks()

    def _init_networks(self):
        from ..learning.networks import mlp_init, seed_key

        self.q_params, self.q_target, self.avg_params = [], [], []
        for p in (0, 1):
            sizes = [self.feats[p].shape[1], *self.hidden, self.width]
            self.q_params.append(mlp_init(seed_key(self.seed, 10 + p), sizes))
            self.avg_params.append(mlp_init(seed_key(self.seed, 20 + p), sizes))
        self.q_target = list(self.q_params)
        self.q_opt = [None, None]
        self.avg_opt = [None, None]

    def _options(self) -> dict:
        return {k: (list(v) if isinstance(v, tuple) else v) for k, v in (
            ("hands", self.hands), ("updates", self.updates), ("sl_updates", self.sl_updates), ("hidden", self.hidden),
            ("anticipatory", self.anticipatory), ("rl_learning_rate", self.rl_learning_rate),
            ("sl_learning_rate", self.sl_learning_rate), ("batch", self.batch), ("replay", self.replay),
            ("reservoir", self.reservoir), ("target_every", self.target_every),
            ("epsilon_start", self.epsilon_start), ("epsilon_end", self.epsilon_end),
            ("epsilon_decay", self.epsilon_decay), ("features", self.features), ("double", self.double),
            ("rl_decay", self.rl_decay), ("sl_target", self.sl_target), ("sl_fit", self.sl_fit),
            ("temperature", self.temperature), ("sl_weight", self.sl_weight),
            ("rl_loss", self.rl_loss))}

    def extra_info(self) -> dict:
        """The options this run uses, size-dependent ones resolved (``solve --json`` reports them)."""
        return {"options": self._options()}

    # --- networks as tables ---------------------------------------------------------------------
    def _net(self, p, params, rule) -> Network:
        from ..deep.training import numpy_params

        return Network(self.game.game_id, p, rule, numpy_params(params), self.features)

    def _tables(self, epsilon):
        """(epsilon-greedy best responses, averages, the average's targets: greedy best responses, or
        with ``sl_target="softmax"`` the softmax of the action values over ``temperature``), per
        global sequence."""
        br, avg, greedy = [], [], []
        for p in (0, 1):
            tree = self.trees[p]
            q = self._net(p, self.q_params[p], "greedy").outputs(self.feats[p])
            greedy.append(strategy_from_outputs(self.game, p, q, "greedy"))
            br.append(epsilon * tree.seq_uniform + (1 - epsilon) * greedy[-1])
            avg.append(strategy_from_outputs(self.game, p, self._net(p, self.avg_params[p], "softmax").outputs(
                self.feats[p]), "softmax"))
            if self.sl_target == "softmax":
                greedy[-1] = strategy_from_outputs(self.game, p, q / self.temperature, "softmax")
        return np.concatenate(br), np.concatenate(avg), np.concatenate(greedy)

    def rl_scale(self, iteration: int) -> float:
        """The factor on the DQN's Adam steps at ``iteration``: 1 / sqrt(1 + iteration / rl_decay)
        (1 when ``rl_decay`` is 0)."""
        return 1.0 / np.sqrt(1.0 + iteration / self.rl_decay) if self.rl_decay else 1.0

    def epsilon(self, iteration: int) -> float:
        """The best responses' exploration rate at ``iteration``."""
        frac = min(1.0, iteration / self.epsilon_decay)
        return self.epsilon_start + (self.epsilon_end - self.epsilon_start) * frac

    # --- one iteration --------------------------------------------------------------------------
    def iterate(self, n: int = 1) -> None:
        """Run ``n`` iterations (a batch of hands, then a few steps on each network)."""
        from ..deep.training import batch_steps, fit_trainer
        from ..learning.dqn import q_functions, q_trainer

        t0 = time.process_time()
        opt = q_functions(self.rl_learning_rate)[0]
        train_q = q_trainer(self.rl_learning_rate, self.double, self.rl_loss == "squared")
        none = np.zeros(0)
        sl_opt, sl_step = batch_steps("xent", self.sl_learning_rate)
        agg_fit = fit_trainer("xent", self.sl_learning_rate, 1, self.sl_updates, False, True)[1]
        tree = self.game.tree
        rl, sl = self.rl, self.sl
        for _ in range(n):
            t = self.iteration + 1
            br, avg, greedy = self._tables(self.epsilon(self.iteration))
            self.nodes_touched += int(_self_play(
                tree.player, tree.infoset, self.seq0, tree.first_child, tree.n_children, tree.edge_prob, tree.payoff,
                self.scale, br, avg, none if self.sl_target == "action" else greedy,
                float(t) if self.sl_weight == "linear" else 1.0, self.anticipatory, self.seed, t, self.hands,
                rl["ids"], rl["act"], rl["rew"], rl["next"], rl["live"], rl["pos"], rl["size"], sl["ids"],
                sl["targets"], sl["seen"], sl["sum"]))
            rng = np.random.default_rng([self.seed, t, 0x4F5])
            lr_scale = np.float32(self.rl_scale(self.iteration))
            for p in (0, 1):
                size = int(rl["size"][p])
                if size >= self.batch:
                    idx = rng.integers(0, size, (self.updates, self.batch))
                    f = self.feats[p]
                    batch = (f[rl["ids"][p][idx]], rl["act"][p][idx], rl["rew"][p][idx], f[rl["next"][p][idx]],
                             self.legal[p][rl["next"][p][idx]], rl["live"][p][idx])
                    if self.q_opt[p] is None:
                        self.q_opt[p] = opt.init(self.q_params[p])
                    self.q_params[p], self.q_opt[p] = train_q(self.q_params[p], self.q_opt[p], self.q_target[p],
                                                              batch, lr_scale)
                if self.sl_fit == "aggregate":
                    self._fit_aggregate(p, agg_fit)
                    continue
                size = int(min(sl["seen"][p], self.reservoir))
                if size >= self.batch:
                    idx = rng.integers(0, size, (self.updates, self.batch))
                    ids = sl["ids"][p][idx]
                    if self.avg_opt[p] is None:
                        self.avg_opt[p] = sl_opt.init(self.avg_params[p])
                    self.avg_params[p], self.avg_opt[p] = sl_step(self.avg_params[p], self.avg_opt[p],
                                                                  self.feats[p][ids], sl["targets"][p][idx],
                                                                  self.legal[p][ids])
            before = self.grad_steps
            self.grad_steps += self.updates
            if self.grad_steps // self.target_every != before // self.target_every:
                self.q_target = list(self.q_params)
            self.iteration = t
        self.cpu_seconds += time.process_time() - t0

    def _fit_aggregate(self, p, fit):
        """``sl_updates`` full-batch Adam steps of player ``p``'s average network on every best-response
        target so far, summed per information set: the cross-entropy that the reservoir's
        minibatches estimate, over all of the history instead of a sample of it, without sampling
        noise (the compiled game's information sets are few enough to enumerate)."""
        from ..deep.training import batch_steps
        from ..learning.networks import require_jax

        jax, jnp, _ = require_jax()
        n = self.trees[p].n_infosets
        sums = self.sl["sum"][p, :n]
        total = sums.sum(axis=1)
        if not total.any():
            return
        mean = sums / np.where(total > 0, total, 1.0)[:, None]
        if self.avg_opt[p] is None:
            self.avg_opt[p] = batch_steps("xent", self.sl_learning_rate)[0].init(self.avg_params[p])
        self.avg_params[p], self.avg_opt[p], _ = fit(
            self.avg_params[p], self.avg_opt[p], jnp.asarray(self.feats[p]), jnp.asarray(self.legal[p]),
            jnp.arange(n, dtype=jnp.int32), jnp.asarray(mean, dtype=jnp.float32),
            jnp.asarray(total, dtype=jnp.float32), jnp.int32(n), jax.random.PRNGKey(0))

    # --- results --------------------------------------------------------------------------------
    def networks(self) -> list[Network]:
        """The average-policy networks (the policy NFSP plays in the end)."""
        return [self._net(p, self.avg_params[p], "softmax") for p in (0, 1)]

    def average_policy(self) -> TabularPolicy:
        """The average-policy networks, tabulated (exact)."""
        return tabulate(self.game, self.networks(), self.feats)

    def current_policy(self) -> TabularPolicy:
        """The greedy best responses of the Q-networks."""
        return TabularPolicy(self.game, [strategy_from_outputs(self.game, p, self._net(
            p, self.q_params[p], "greedy").outputs(self.feats[p]), "greedy") for p in (0, 1)])

    def samples(self) -> int:
        """Best-response actions offered to the reservoirs so far."""
        return int(self.sl["seen"].sum())

    def checkpoint(self) -> dict:
        """Exact NashConv of the average and greedy policies, nodes, episodes, samples, CPU seconds."""
        avg = evaluate(self.game, self.average_policy())
        cur = evaluate(self.game, self.current_policy())
        return {"iteration": self.iteration, "nash_conv_average": avg.nash_conv,
                "nash_conv_current": cur.nash_conv, "value_average": avg.value, "nodes": self.nodes_touched,
                "episodes": self.iteration * self.hands, "samples": self.samples(), "cpu_seconds": self.cpu_seconds}

    # --- saving and resuming --------------------------------------------------------------------
    def _trees(self):
        return {"q": self.q_params, "q_target": self.q_target, "avg": self.avg_params, "q_opt": self.q_opt,
                "avg_opt": self.avg_opt}

    def state_dict(self) -> dict:
        """Buffers, networks, optimizer states and counters as arrays."""
        from ..learning.networks import require_jax

        jax, _, _ = require_jax()
        state = {"solver": np.array(self.name), "game": np.array(self.game.game_id),
                 "iteration": np.array(self.iteration), "nodes_touched": np.array(self.nodes_touched),
                 "grad_steps": np.array(self.grad_steps), "seed": np.array(self.seed),
                 "cpu_seconds": np.array(self.cpu_seconds), "options": np.array(json.dumps(self._options()))}
        for k, v in self.rl.items():
            state[f"rl_{k}"] = v
        for k, v in self.sl.items():
            state[f"sl_{k}"] = v
        for name, per_player in self._trees().items():
            for p in (0, 1):
                if per_player[p] is None:
                    continue
                for j, leaf in enumerate(jax.tree_util.tree_leaves(per_player[p])):
                    state[f"{name}{p}_{j}"] = np.asarray(leaf)
        return state

    def load_state_dict(self, state: dict) -> None:
        """Continue from :meth:`state_dict`'s arrays (refused if made with other options)."""
        from ..deep.training import batch_steps
        from ..learning.dqn import q_functions
        from ..learning.networks import require_jax

        jax, jnp, _ = require_jax()
        check_state(state, self.name, self.game.game_id)
        saved = json.loads(str(state["options"]))
        saved.setdefault("sl_updates", saved.get("updates"))  # states saved before sl_updates: the same steps
        for key, value in self._options().items():
            if saved.get(key) != value:
                raise ZerosumError(f"the saved run used {key}={saved.get(key)!r}, not {value!r}")
        for k in self.rl:
            self.rl[k][...] = state[f"rl_{k}"]
        for k in self.sl:
            self.sl[k][...] = state[f"sl_{k}"]
        self.seed = int(state["seed"])
        self.iteration = int(state["iteration"])
        self.nodes_touched = int(state["nodes_touched"])
        self.grad_steps = int(state["grad_steps"])
        self.cpu_seconds = float(state["cpu_seconds"])
        q_opt = q_functions(self.rl_learning_rate)[0]
        sl_opt = batch_steps("xent", self.sl_learning_rate)[0]
        templates = {"q": self.q_params, "q_target": self.q_params, "avg": self.avg_params,
                     "q_opt": [q_opt.init(x) for x in self.q_params], "avg_opt": [sl_opt.init(x) for x in self.avg_params]}
        restored = {}
        for name, per_player in templates.items():
            restored[name] = []
            for p in (0, 1):
                leaves, treedef = jax.tree_util.tree_flatten(per_player[p])
                if f"{name}{p}_0" not in state:
                    restored[name].append(None)
                    continue
                restored[name].append(jax.tree_util.tree_unflatten(
                    treedef, [jnp.asarray(state[f"{name}{p}_{j}"]) for j in range(len(leaves))]))
        self.q_params, self.q_target, self.avg_params = restored["q"], restored["q_target"], restored["avg"]
        self.q_opt, self.avg_opt = restored["q_opt"], restored["avg_opt"]
