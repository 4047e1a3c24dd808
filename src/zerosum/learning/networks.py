"""Small multilayer perceptrons in JAX, for the learners that generalize over feature vectors.

The project's network library is JAX with Optax (the optional extra ``deep``), chosen by
measurement (``benchmarks/bench_network_libraries.py``, docs/learned-oracles.md): on CPU with
small networks a jit-compiled Adam step costs about a third of PyTorch's, the wheels come from
PyPI without GPU libraries, and random numbers are explicit keys, so a seed fixes a run bit for
bit.  Only code that uses a network imports this module, and it imports JAX only when called.
"""

from __future__ import annotations

from itertools import pairwise

from ..errors import ZerosumError


def require_jax():
    """(jax, jax.numpy, optax), or a one-line error naming the extra to install."""
    try:
        import jax
        import jax.numpy as jnp
        import optax
    except ImportError:
        raise ZerosumError("networks need the optional extra: pip install 'zerosum[deep]' (JAX and Optax)") from None
    return jax, jnp, optax


def mlp_init(key, sizes):
    """Parameters of an MLP with layer widths ``sizes`` (input first): a list of (W, b), He-scaled."""
    jax, jnp, _ = require_jax()
    params = []
    keys = jax.random.split(key, len(sizes) - 1)
    for k, (m, n) in zip(keys, pairwise(sizes)):
        params.append((jax.random.normal(k, (m, n)) * jnp.sqrt(2.0 / m), jnp.zeros(n)))
    return params


def mlp_apply(params, x):
    """ReLU hidden layers, linear output."""
    jax, _, _ = require_jax()
    for w, b in params[:-1]:
        x = jax.nn.relu(x @ w + b)
    w, b = params[-1]
    return x @ w + b


def seed_key(seed: int, stream: int):
    """A JAX key that depends on both the run's seed and the stream (e.g. PSRO's oracle call)."""
    jax, _, _ = require_jax()
    return jax.random.fold_in(jax.random.PRNGKey(seed & 0x7FFFFFFF), stream & 0x7FFFFFFF)
