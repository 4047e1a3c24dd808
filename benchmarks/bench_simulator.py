"""Hands per second with random play on OpenSpiel's leduc_poker: zerosum's simulator against
OpenSpiel's ``rl_environment`` and RLCard's ``leduc-holdem`` environment, same run.

* ours, batched kernel: both players uniform, hands drawn by :meth:`Simulator.play_profile`;
* ours, environment API: :class:`Environment` with a batch of hands, player 0's random legal
  action chosen in NumPy every step (what a Python learner sees), player 1 uniform inside;
* OpenSpiel: ``rl_environment.Environment("leduc_poker")``, a random legal action per step;
* RLCard: ``rlcard.make("leduc-holdem")`` with two ``RandomAgent`` s, ``env.run()`` per hand.

CPU seconds (process time), median over repeats; the speed-ups are against the faster peer.
RLCard comes with the ``bench`` extra; a missing peer is reported, not fatal.

    .venv/bin/python benchmarks/bench_simulator.py [--json] [--hands 3000] [--repeats 5]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
from common import cpu_median, emit

import zerosum
from zerosum.core.compile import compiled
from zerosum.learning.simulator import Environment, Simulator


def ours_kernel(cg, hands):
    sim = Simulator(cg)
    u = [t.uniform() for t in cg.treeplexes]
    sim.play_profile(u, hands=10)  # compile / load the cache
    return lambda: sim.play_profile(u, seed=1, hands=hands)


def ours_env(cg, hands, batch):
    env = Environment(cg, 0, batch=batch, seed=1)
    rng = np.random.default_rng(0)

    def run():
        ts = env.reset()
        start = env.hands_played
        while env.hands_played - start < hands:
            n = ts.legal.sum(1)
            ts = env.step((rng.random(batch) * n).astype(np.int64))
        return env.hands_played - start

    run()
    return run


def openspiel_env(hands):
    from open_spiel.python import rl_environment

    env = rl_environment.Environment("leduc_poker", chance_event_sampler=rl_environment.ChanceEventSampler(seed=0))
    rng = np.random.default_rng(0)

    def run():
        for _ in range(hands):
            ts = env.reset()
            while not ts.last():
                legal = ts.observations["legal_actions"][ts.observations["current_player"]]
                ts = env.step([legal[rng.integers(len(legal))]])

    return run


def rlcard_env(hands):
    import rlcard
    from rlcard.agents import RandomAgent

    env = rlcard.make("leduc-holdem", config={"seed": 0})
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(2)])

    def run():
        for _ in range(hands):
            env.run(is_training=False)

    return run


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--hands", type=int, default=3000, help="hands per timed batch for the peers")
    ap.add_argument("--repeats", type=int, default=5)
    ap.add_argument("--batch", type=int, default=4096, help="hands in flight in our environment")
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args(argv)
    cg = compiled(zerosum.load_game("openspiel:leduc_poker"))
    rates = {}
    ours_hands = 1_000_000
    rates["ours: batched kernel"] = ours_hands / cpu_median(ours_kernel(cg, ours_hands), args.repeats)
    env_hands = 200_000
    rates["ours: environment API"] = env_hands / cpu_median(ours_env(cg, env_hands, args.batch), args.repeats)
    peers = {}
    for name, make in (("OpenSpiel rl_environment", openspiel_env), ("RLCard leduc-holdem", rlcard_env)):
        try:
            fn = make(args.hands)
        except ImportError as e:
            peers[name] = f"not installed ({e.name})"
            continue
        fn()
        rates[name] = args.hands / cpu_median(fn, args.repeats)
    peer_rates = [v for k, v in rates.items() if not k.startswith("ours")]
    best_peer = max(peer_rates) if peer_rates else None
    rows = [{"simulator": k, "hands_per_s": v, **({"speedup_vs_faster_peer": v / best_peer}
                                                  if best_peer and k.startswith("ours") else {})}
            for k, v in rates.items()]
    emit(rows, "random play on leduc_poker: hands per CPU second (median)", args.json,
         {"missing_peers": peers} if peers else None)


if __name__ == "__main__":
    main()
