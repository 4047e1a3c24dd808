"""DQN (Mnih et al. 2015) over information-set feature vectors as a best-response oracle.

It plays through the batched :class:`~zerosum.learning.simulator.Environment` like any RL
agent: a batch of hands in flight, epsilon-greedy actions (epsilon falling linearly from 1 to
``epsilon_end``) from an MLP's action values on the observed feature vectors (illegal actions
masked), transitions into a replay buffer, and every ``train_every`` environment steps a few
jit-compiled Adam steps (one ``lax.scan``) on the Huber loss to the target
``r + max_a' Q_target(next information set)`` (no discount: hands are short and end with the
only reward; no bootstrap when the hand ended).  The target network is copied every
``target_every`` gradient steps.  Rewards are divided by the game's largest payoff.

Options against the errors of the greedy choice at information sets whose best actions differ
by a few cents, all off by default (the defaults are those the PSRO measurements used):
``lr_end`` scales the Adam steps down linearly to that fraction of ``learning_rate`` over the
budget (1 = constant); ``average`` reads the response from the plain average of the networks over
that last fraction of the budget (0 = the final network); ``double`` uses Double DQN's target
(the online network picks the next action, the target network values it), against the upward
bias of the max over noisy values.  The oracle-sanity table uses a large-budget setting
(:data:`~zerosum.learning.oracle.SANITY_OPTIONS`: one-hot inputs, a million-transition buffer,
``double``, ``lr_end=0.05``), which is under a cent against both the uniform opponent and CFR+'s
average on Kuhn and on Leduc at 10^6 hands; with the card features the network keeps a bias of
about 0.1 chip at a few information sets reached in a sixth to a third of the hands (Leduc ``K:``
and ``K:r``, where raising looks better than it is) and stays at 0.01-0.03 (docs/learned-oracles.md).

The response is greedy in the network's action values, tabulated over every information set of
the learner (so it can be evaluated exactly).  Random numbers: JAX keys and a NumPy generator
seeded from (seed, stream), and the simulator's stream: the same seed gives the same network
bit for bit on CPU.  Needs the ``deep`` extra.
"""

from __future__ import annotations

from typing import ClassVar

import numpy as np

from .features import infoset_features
from .oracle import LearnedOracle, Response, choice, positive_float, unit_float
from .simulator import Environment


def _positive_int(name):
    from ..errors import ZerosumError

    def check(v):
        if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
            raise ZerosumError(f"{name} must be a positive integer, got {v!r}")
        return v
    return check


def _boolean(name):
    from ..errors import ZerosumError

    def check(v):
        if not isinstance(v, bool):
            raise ZerosumError(f"{name} must be true or false, got {v!r}")
        return v
    return check


_FUNCTIONS: dict = {}


def q_functions(learning_rate: float):
    """(optimizer, jitted masked action values, jitted training scan), built once per learning rate
    so that every oracle call reuses the compiled code."""
    if learning_rate in _FUNCTIONS:
        return _FUNCTIONS[learning_rate]
    from .networks import mlp_apply, require_jax

    jax, jnp, optax = require_jax()
    opt = optax.adam(learning_rate)

    @jax.jit
    def values(params, x, legal):
        return jnp.where(legal, mlp_apply(params, x), -jnp.inf)

    def loss(params, target, x, a, r, x2, legal2, live):
        q = jnp.take_along_axis(mlp_apply(params, x), a[:, None], axis=1)[:, 0]
        nxt = jnp.max(jnp.where(legal2, mlp_apply(target, x2), -jnp.inf), axis=1)
        y = r + jnp.where(live, nxt, 0.0)
        return jnp.mean(optax.huber_loss(q, jax.lax.stop_gradient(y)))

    @jax.jit
    def train(params, opt_state, target, batches):
        def one(carry, batch):
            params, opt_state = carry
            grads = jax.grad(loss)(params, target, *batch)
            updates, opt_state = opt.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), None

        (params, opt_state), _ = jax.lax.scan(one, (params, opt_state), batches)
        return params, opt_state

    _FUNCTIONS[learning_rate] = (opt, values, train)
    return _FUNCTIONS[learning_rate]


_TRAINERS: dict = {}


def q_trainer(learning_rate: float, double: bool, squared: bool = False):
    """The oracle's jitted training scan, built once per (learning rate, double, squared): like
    :func:`q_functions`' but its Adam steps are multiplied by a scale given per call (the step-size
    schedule), and with ``double`` the target is Double DQN's (van Hasselt et al. 2016: the online
    network picks the next action, the target network values it).  With ``squared`` the loss is
    half the squared error instead of the Huber loss (equal for errors below 1): the Huber loss's
    minimizer is not the mean of the targets when they spread by more than 1 (a showdown worth
    +-1 after scaling: its minimizer moves toward the median), so the action values are biased."""
    key = (learning_rate, double, squared)
    if key in _TRAINERS:
        return _TRAINERS[key]
    from .networks import mlp_apply, require_jax

    jax, jnp, optax = require_jax()
    opt = q_functions(learning_rate)[0]

    def loss(params, target, x, a, r, x2, legal2, live):
        q = jnp.take_along_axis(mlp_apply(params, x), a[:, None], axis=1)[:, 0]
        q2 = jnp.where(legal2, mlp_apply(target, x2), -jnp.inf)
        if double:
            pick = jnp.argmax(jnp.where(legal2, mlp_apply(params, x2), -jnp.inf), axis=1)
            nxt = jnp.take_along_axis(q2, pick[:, None], axis=1)[:, 0]
        else:
            nxt = jnp.max(q2, axis=1)
        y = r + jnp.where(live, nxt, 0.0)
        if squared:
            return jnp.mean(0.5 * (q - jax.lax.stop_gradient(y)) ** 2)
        return jnp.mean(optax.huber_loss(q, jax.lax.stop_gradient(y)))

    @jax.jit
    def train(params, opt_state, target, batches, scale):
        def one(carry, batch):
            params, opt_state = carry
            grads = jax.grad(loss)(params, target, *batch)
            updates, opt_state = opt.update(grads, opt_state, params)
            updates = jax.tree_util.tree_map(lambda u: u * scale, updates)
            return (optax.apply_updates(params, updates), opt_state), None

        (params, opt_state), _ = jax.lax.scan(one, (params, opt_state), batches)
        return params, opt_state

    _TRAINERS[key] = train
    return train


def _average(avg, params, w):
    from .networks import require_jax

    jax = require_jax()[0]
    return jax.tree_util.tree_map(lambda a, p: a + w * (p - a), avg, params)


class DQNOracle(LearnedOracle):
    """Deep Q-network best response over feature vectors (see the module docstring)."""

    name = "dqn"
    options: ClassVar[dict] = {"hidden": (64, _positive_int("hidden")), "layers": (2, _positive_int("layers")),
               "learning_rate": (1e-3, positive_float("learning_rate")),
               "batch": (128, _positive_int("batch")), "envs": (64, _positive_int("envs")),
               "train_every": (1, _positive_int("train_every")), "updates": (2, _positive_int("updates")),
               "target_every": (50, _positive_int("target_every")),
               "buffer": (20000, _positive_int("buffer")), "epsilon_end": (0.02, unit_float("epsilon_end")),
               "lr_end": (1.0, unit_float("lr_end")), "average": (0.0, unit_float("average")),
               "double": (False, _boolean("double")),
               "features": ("auto", choice("features", ("auto", "cards", "openspiel", "onehot")))}

    def __init__(self, game, hands: int = 10000, seed: int = 0, **options):
        from .networks import require_jax

        require_jax()  # fail at once, with the extra to install
        super().__init__(game, hands, seed, **options)
        self._features = [infoset_features(self.game, p, self.settings["features"]) for p in (0, 1)]

    def respond(self, player, opponent, stream=0):
        from .networks import mlp_init, seed_key

        s = self.settings
        feats = self._features[player]
        tree = self.game.treeplexes[player]
        opt, values, _ = q_functions(s["learning_rate"])
        train = q_trainer(s["learning_rate"], s["double"])
        params = mlp_init(seed_key(self.seed, stream), [feats.shape[1]] + [s["hidden"]] * s["layers"]
                          + [self.sim.max_actions])
        opt_state = opt.init(params)
        target = params
        rng = np.random.default_rng([self.seed, stream, 0xD9])
        env = Environment(self.sim, player, opponent, batch=s["envs"], seed=self.seed, stream=stream)
        legal_table = env.legal_table
        cap = s["buffer"]
        buf_i = np.zeros(cap, dtype=np.int64)  # information set
        buf_a = np.zeros(cap, dtype=np.int64)
        buf_r = np.zeros(cap, dtype=np.float32)
        buf_n = np.zeros(cap, dtype=np.int64)  # next information set (when the hand goes on)
        buf_live = np.zeros(cap, dtype=bool)
        size = pos = steps = grad_steps = n_avg = 0
        avg = None
        scale = self.sim.payoff_scale
        ts = env.reset()
        while env.hands_played < self.hands:  # hands dealt, those in flight included
            done = env.hands_played / self.hands
            eps = 1.0 + (s["epsilon_end"] - 1.0) * done
            q = np.asarray(values(params, feats[ts.infoset], ts.legal))
            greedy = q.argmax(axis=1)
            n_legal = ts.legal.sum(axis=1)
            explore = rng.random(env.batch) < eps
            acts = np.where(explore, (rng.random(env.batch) * n_legal).astype(np.int64), greedy)
            before = ts.infoset
            ts = env.step(acts)
            k = np.arange(pos, pos + env.batch) % cap
            buf_i[k], buf_a[k] = before, acts
            buf_r[k] = ts.reward / scale
            buf_live[k] = ~ts.done
            buf_n[k] = ts.infoset
            pos = (pos + env.batch) % cap
            size = min(size + env.batch, cap)
            steps += 1
            if steps % s["train_every"] == 0 and size >= s["batch"]:
                idx = rng.integers(0, size, (s["updates"], s["batch"]))
                batch = (feats[buf_i[idx]], buf_a[idx], buf_r[idx], feats[buf_n[idx]], legal_table[buf_n[idx]],
                         buf_live[idx])
                lr_scale = np.float32(1.0 + (s["lr_end"] - 1.0) * done)
                params, opt_state = train(params, opt_state, target, batch, lr_scale)
                grad_steps += s["updates"]
                if grad_steps % s["target_every"] < s["updates"]:
                    target = params
                if done >= 1.0 - s["average"]:  # the plain average of the networks of the last part
                    n_avg += 1
                    avg = params if avg is None else _average(avg, params, 1.0 / n_avg)
        if avg is not None:
            params = avg
        all_q = np.asarray(values(params, feats, legal_table[np.arange(tree.n_infosets)]))
        pi = np.zeros(tree.n_sequences)
        pi[0] = 1.0
        pi[tree.infoset_first + all_q.argmax(axis=1)] = 1.0
        self.params = params
        return Response(pi, env.hands_played)
