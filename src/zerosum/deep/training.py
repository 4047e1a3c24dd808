"""Fitting a small MLP to samples of information sets: the one training loop every deep method uses.

Samples are stored as information-set ids (rows of the player's feature table), a target row per
sample and a weight per sample; a fit draws ``steps`` minibatches of ``batch`` samples uniformly
from the first ``size`` entries and takes one Adam step on each, all inside one jit-compiled
``lax.scan`` (so a fit is one call, not a Python loop of steps).  Losses:

* ``mse``: weighted squared error over the legal actions (Deep CFR's advantages, linear-CFR
  weights t);
* ``xent``: weighted cross-entropy of the masked softmax against target probabilities
  (distillation, Deep CFR's average strategy, NFSP's average policy): its minimizer at an
  information set is the weighted mean of the targets there, the average strategy.

With ``decay=True`` Adam's step size falls along a cosine to zero over the ``steps`` of a fit
(measured on Kuhn: SD-CFR ends worse with it, so the default is a constant step).  The
weighted mean in a batch is sum(w * loss) / sum(w).  Random numbers are explicit JAX keys: the
same key gives the same network bit for bit on CPU.  Needs the ``deep`` extra.
"""

from __future__ import annotations

import numpy as np

_TRAINERS: dict = {}


def fit_trainer(loss: str, learning_rate: float, batch: int, steps: int, decay: bool = True, full: bool = False):
    """The jitted fitting loop for these settings, built once per key and reused."""
    key = (loss, learning_rate, batch, steps, decay, full)
    if key in _TRAINERS:
        return _TRAINERS[key]
    from ..learning.networks import mlp_apply, require_jax

    jax, jnp, optax = require_jax()
    # the step size falls to zero along a cosine over the fit: the last steps settle the network
    # instead of leaving it wherever the last minibatches' noise put it
    opt = optax.adam(optax.cosine_decay_schedule(learning_rate, steps) if decay else learning_rate)

    def batch_loss(params, x, y, w, m):
        out = mlp_apply(params, x)
        if loss == "mse":
            per = jnp.sum(jnp.where(m, (out - y) ** 2, 0.0), axis=1)
        else:
            logp = jax.nn.log_softmax(jnp.where(m, out, -1e9), axis=1)
            per = -jnp.sum(jnp.where(m, y * logp, 0.0), axis=1)
        return jnp.sum(w * per) / jnp.maximum(jnp.sum(w), 1e-12)

    @jax.jit
    def fit(params, opt_state, feats, legal, ids, targets, weights, size, key):
        def one(carry, k):
            params, opt_state = carry
            idx = jnp.arange(ids.shape[0]) if full else jax.random.randint(k, (batch,), 0, size)
            i = ids[idx]
            value, grads = jax.value_and_grad(batch_loss)(params, feats[i], targets[idx], weights[idx], legal[i])
            updates, opt_state = opt.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), value

        (params, opt_state), losses = jax.lax.scan(one, (params, opt_state), jax.random.split(key, steps))
        return params, opt_state, losses[-1]

    _TRAINERS[key] = (opt, fit)
    return _TRAINERS[key]


def fit_network(key, sizes, feats, legal, ids, targets, weights, size, *, loss="mse", steps=100, batch=256,
                learning_rate=1e-3, params=None, decay=False, full=False):
    """Train an MLP of layer widths ``sizes`` (from scratch unless ``params`` is given) on the
    samples ``ids[:size]`` (see the module docstring); returns (params, last batch loss).
    ``full``: every step uses all of ``ids`` (``batch`` unused), for :func:`aggregate`'s rows."""
    from ..learning.networks import mlp_init, require_jax

    jax, jnp, _ = require_jax()
    init_key, train_key = jax.random.split(key)
    if params is None:
        params = mlp_init(init_key, list(sizes))
    if size <= 0:
        return params, float("nan")
    opt, fit = fit_trainer(loss, float(learning_rate), int(batch), int(steps), bool(decay), bool(full))
    params, _, last = fit(params, opt.init(params), jnp.asarray(feats), jnp.asarray(legal), jnp.asarray(ids),
                          jnp.asarray(targets), jnp.asarray(weights), jnp.int32(size), train_key)
    return params, float(last)


def aggregate(ids, targets, weights, size, n_rows):
    """The samples ``ids[:size]`` summed by row: (all row ids, weighted mean target per row, total
    weight per row; 0 where a row has no sample).  Both losses are linear in the sample weights
    and, up to a constant, in the target (squared error: sum_s w_s |f - y_s|^2 = W |f - ybar|^2 +
    const; cross-entropy is linear in y), so a full-batch fit on these rows minimizes exactly the
    objective that minibatches of the samples estimate -- without their sampling noise.  Worth it
    when the information sets are few enough to enumerate (compiled games)."""
    ids = np.asarray(ids[:size], dtype=np.int64)
    w = np.asarray(weights[:size], dtype=np.float64)
    total = np.bincount(ids, weights=w, minlength=n_rows)
    t = np.asarray(targets[:size], dtype=np.float64)
    sums = np.stack([np.bincount(ids, weights=w * t[:, k], minlength=n_rows) for k in range(t.shape[1])], axis=1)
    mean = sums / np.where(total > 0, total, 1.0)[:, None]
    return np.arange(n_rows, dtype=np.int32), mean.astype(np.float32), total.astype(np.float32)


_STEPPERS: dict = {}


def batch_steps(loss: str, learning_rate: float):
    """(optimizer, jitted ``step(params, opt_state, x, y, mask)``): one Adam step per leading
    index of the stacked minibatches x (U, B, d), y and mask (U, B, width), unweighted; for
    learners that train as they play (NFSP) and draw their minibatches themselves."""
    key = (loss, learning_rate)
    if key in _STEPPERS:
        return _STEPPERS[key]
    from ..learning.networks import mlp_apply, require_jax

    jax, jnp, optax = require_jax()
    opt = optax.adam(learning_rate)

    def batch_loss(params, x, y, m):
        out = mlp_apply(params, x)
        if loss == "mse":
            return jnp.mean(jnp.sum(jnp.where(m, (out - y) ** 2, 0.0), axis=1))
        logp = jax.nn.log_softmax(jnp.where(m, out, -1e9), axis=1)
        return jnp.mean(-jnp.sum(jnp.where(m, y * logp, 0.0), axis=1))

    @jax.jit
    def step(params, opt_state, x, y, m):
        def one(carry, batch):
            params, opt_state = carry
            grads = jax.grad(batch_loss)(params, *batch)
            updates, opt_state = opt.update(grads, opt_state, params)
            return (optax.apply_updates(params, updates), opt_state), None

        (params, opt_state), _ = jax.lax.scan(one, (params, opt_state), (x, y, m))
        return params, opt_state

    _STEPPERS[key] = (opt, step)
    return _STEPPERS[key]


def numpy_params(params) -> list:
    """JAX parameters as a list of (W, b) float32 NumPy arrays."""
    return [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32)) for w, b in params]
