"""How the project chose its network library: small MLPs on CPU, JAX + Optax against PyTorch.

The learned oracles' networks are small (a feature vector of a few dozen numbers, one or two
hidden layers of 64) and train on small batches, so what matters is the fixed cost of a call:
one Adam step on a batch of 128 (forward, backward, update) and one forward pass on a batch of
256 (choosing actions for a batch of hands), in CPU microseconds, median over repeats, one
thread each.  Also the import time.  Whichever of the two libraries is installed is measured.

    python benchmarks/bench_network_libraries.py [--json]
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("XLA_FLAGS", "--xla_cpu_multi_thread_eigen=false intra_op_parallelism_threads=1")
sys.path.insert(0, str(Path(__file__).parent))
import numpy as np
from common import cpu_median, emit

IN, HIDDEN, OUT, TRAIN_BATCH, ACT_BATCH = 30, 64, 3, 128, 256


def bench_jax():
    t0 = time.perf_counter()
    import jax
    import jax.numpy as jnp
    import optax
    imported = time.perf_counter() - t0

    def init(key):
        k1, k2, k3 = jax.random.split(key, 3)
        return {"w1": jax.random.normal(k1, (IN, HIDDEN)) * 0.1, "b1": jnp.zeros(HIDDEN),
                "w2": jax.random.normal(k2, (HIDDEN, HIDDEN)) * 0.1, "b2": jnp.zeros(HIDDEN),
                "w3": jax.random.normal(k3, (HIDDEN, OUT)) * 0.1, "b3": jnp.zeros(OUT)}

    def apply(p, x):
        h = jax.nn.relu(x @ p["w1"] + p["b1"])
        h = jax.nn.relu(h @ p["w2"] + p["b2"])
        return h @ p["w3"] + p["b3"]

    opt = optax.adam(1e-3)
    params = init(jax.random.PRNGKey(0))
    state = opt.init(params)

    @jax.jit
    def step(params, state, x, a, y):
        def loss(p):
            q = jnp.take_along_axis(apply(p, x), a[:, None], axis=1)[:, 0]
            return jnp.mean((q - y) ** 2)
        g = jax.grad(loss)(params)
        updates, state = opt.update(g, state)
        return optax.apply_updates(params, updates), state

    act = jax.jit(apply)
    rng = np.random.default_rng(0)
    x = rng.random((TRAIN_BATCH, IN), dtype=np.float32)
    a = rng.integers(0, OUT, TRAIN_BATCH)
    y = rng.random(TRAIN_BATCH, dtype=np.float32)
    xs = rng.random((ACT_BATCH, IN), dtype=np.float32)
    box = [params, state]

    def train():
        box[0], box[1] = step(box[0], box[1], x, a, y)
        jax.block_until_ready(box[0])

    def forward():
        np.asarray(act(box[0], xs))

    train()
    forward()
    return {"library": f"jax {jax.__version__} + optax {optax.__version__}", "import_s": imported,
            "train_step_us": cpu_median(train, 9, 200) * 1e6, "forward_us": cpu_median(forward, 9, 200) * 1e6}


def bench_torch():
    t0 = time.perf_counter()
    import torch
    imported = time.perf_counter() - t0
    torch.set_num_threads(1)
    torch.manual_seed(0)
    net = torch.nn.Sequential(torch.nn.Linear(IN, HIDDEN), torch.nn.ReLU(), torch.nn.Linear(HIDDEN, HIDDEN),
                              torch.nn.ReLU(), torch.nn.Linear(HIDDEN, OUT))
    opt = torch.optim.Adam(net.parameters(), lr=1e-3)
    rng = np.random.default_rng(0)
    x = torch.from_numpy(rng.random((TRAIN_BATCH, IN), dtype=np.float32))
    a = torch.from_numpy(rng.integers(0, OUT, TRAIN_BATCH))
    y = torch.from_numpy(rng.random(TRAIN_BATCH, dtype=np.float32))
    xs = rng.random((ACT_BATCH, IN), dtype=np.float32)

    def train():
        q = net(x).gather(1, a[:, None])[:, 0]
        loss = ((q - y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()

    def forward():
        with torch.no_grad():
            net(torch.from_numpy(xs)).numpy()

    train()
    forward()
    return {"library": f"torch {torch.__version__}", "import_s": imported,
            "train_step_us": cpu_median(train, 9, 200) * 1e6, "forward_us": cpu_median(forward, 9, 200) * 1e6}


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    rows, missing = [], []
    for name, fn in (("jax", bench_jax), ("torch", bench_torch)):
        try:
            rows.append(fn())
        except ImportError:
            missing.append(name)
    emit(rows, f"MLP {IN}-{HIDDEN}-{HIDDEN}-{OUT} on CPU, one thread: Adam step (batch {TRAIN_BATCH}), "
               f"forward (batch {ACT_BATCH})", args.json, {"not_installed": missing} if missing else None)


if __name__ == "__main__":
    main()
