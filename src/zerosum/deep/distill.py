"""Distillation: a small network imitating a tabular average strategy, and what that costs.

Lab 15's question ("Approximate averages"): train a small network to imitate CFR+'s average
strategy from *sampled* information sets, as Deep CFR and NFSP do, and measure the
exploitability the approximation costs.  Here:

1. hands are played with both players following the tabular profile (Numba, over the compiled
   history tree); every decision met is one sample (information set, the profile's action
   probabilities there), so information sets appear as often as the profile reaches them.
   Played purely, the profile never reaches the information sets it avoids, where the network
   then plays arbitrarily and a best response exploits it (on Lab 15's Leduc about a third of
   the information sets; NashConv 1.3 to 2.3 whatever the network's size).  So each player mixes
   in ``explore`` (default 0.5) of the uniform strategy while sampling; the targets stay the
   profile's probabilities;
2. one MLP per player is fitted to its samples by cross-entropy (the reach weighting is the
   sampling itself) -- :mod:`.training`;
3. the networks are tabulated over all information sets (:mod:`.network_policy`) and the
   resulting policy's NashConv is computed exactly: its excess over the tabular profile's is the
   cost of the approximation.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from numba import njit

from ..core.evaluation import nash_conv
from ..core.game import CHANCE, TERMINAL
from ..core.policy import TabularPolicy, as_compiled
from ..core.sampling import sample, sample_chance, seed_iteration
from ..errors import ZerosumError
from .network_policy import Network, legal_mask, tabulate


@njit(cache=True)
def _sample_decisions(player, infoset, seq0, first_child, n_children, edge_prob, probs, seed, stream, hands,
                      out_player, out_infoset):
    """Play ``hands`` hands with both players following ``probs`` (per global sequence); write the
    (player, information set) of every decision met; return how many were written (stops when the
    output is full)."""
    state = np.zeros(1, dtype=np.uint64)
    seed_iteration(state, seed, stream)
    count = 0
    cap = len(out_player)
    for _ in range(hands):
        h = 0
        while player[h] != TERMINAL:
            p = player[h]
            if p == CHANCE:
                h = sample_chance(first_child[h], n_children[h], edge_prob, state)
                continue
            if count < cap:
                out_player[count] = p
                out_infoset[count] = infoset[h]
                count += 1
            h = first_child[h] + sample(probs, seq0[h], n_children[h], state)
        if count >= cap:
            break
    return count


def global_sequences(game):
    """(seq0 per history: first global sequence of the acting information set, offsets): both
    players' sequences side by side, as in :mod:`zerosum.solvers.mccfr`."""
    g = as_compiled(game)
    tree = g.tree
    offsets = (0, g.treeplexes[0].n_sequences)
    seq0 = np.full(len(tree), -1, dtype=np.int64)
    for p in (0, 1):
        mine = tree.player == p
        seq0[mine] = offsets[p] + g.treeplexes[p].infoset_first[tree.infoset[mine]]
    return seq0, offsets


def sample_infosets(game, policy: TabularPolicy, samples: int, seed: int = 0, explore: float = 0.0):
    """``samples`` decisions met while ``policy`` plays itself, each player mixing in ``explore``
    of the uniform strategy: per player, the information-set ids."""
    g = as_compiled(game)
    seq0, _ = global_sequences(g)
    tree = g.tree
    probs = np.concatenate([(1 - explore) * pi + explore * t.seq_uniform for pi, t in zip(policy.probs,
                                                                                         g.treeplexes)])
    out_p = np.zeros(samples, dtype=np.int64)
    out_i = np.zeros(samples, dtype=np.int64)
    count, stream = 0, 0
    while count < samples:
        stream += 1
        count += _sample_decisions(tree.player, tree.infoset, seq0, tree.first_child, tree.n_children,
                                   tree.edge_prob, probs, seed, stream, samples, out_p[count:], out_i[count:])
    return [out_i[out_p == p] for p in (0, 1)]


def target_table(game, player: int, pi: np.ndarray, width: int) -> np.ndarray:
    """(n_infosets, width) action probabilities of a behavioral strategy per sequence (0-padded)."""
    tree = as_compiled(game).treeplexes[player]
    out = np.zeros((tree.n_infosets, width), dtype=np.float32)
    seq = np.arange(1, tree.n_sequences)
    inf = tree.seq_infoset[1:]
    out[inf, seq - tree.infoset_first[inf]] = pi[1:]
    return out


@dataclass
class Distilled:
    """A distillation's result: the networks, their exact policy and what it costs."""

    networks: list
    policy: TabularPolicy
    nash_conv: float  # of the tabulated network policy
    target_nash_conv: float  # of the profile imitated
    samples: int
    seconds: float

    @property
    def cost(self) -> float:
        """NashConv of the network policy minus the tabular profile's."""
        return self.nash_conv - self.target_nash_conv


def distill(game, target: TabularPolicy, hidden=(64, 64), samples: int = 100000, steps: int = 16000,
            batch: int = 512, learning_rate: float = 1e-3, seed: int = 0, features: str = "auto",
            explore: float = 0.5) -> Distilled:
    """Fit one MLP per player (hidden widths ``hidden``) to ``samples`` sampled decisions of
    ``target`` playing itself (mixed with ``explore`` of uniform play, so that information sets off
    the profile's path are seen too), tabulate them and measure their exact NashConv."""
    from ..learning.features import infoset_features
    from ..learning.networks import seed_key
    from .training import fit_network, numpy_params

    g = as_compiled(game)
    if isinstance(samples, bool) or int(samples) != samples or samples <= 0:
        raise ZerosumError(f"samples must be a positive integer, got {samples!r}")
    hidden = [int(h) for h in hidden]
    if any(h <= 0 for h in hidden):
        raise ZerosumError(f"hidden layer widths must be positive, got {hidden}")
    if not 0.0 <= float(explore) <= 1.0:
        raise ZerosumError(f"explore must be in [0, 1], got {explore!r}")
    t0 = time.process_time()
    ids = sample_infosets(g, target, int(samples), seed, float(explore))
    feats = [infoset_features(g, p, features) for p in (0, 1)]
    nets = []
    for p in (0, 1):
        width = int(g.treeplexes[p].infoset_size.max())
        legal = legal_mask(g, p, width)
        table = target_table(g, p, target.probs[p], width)
        params, _ = fit_network(seed_key(seed, 100 + p), [feats[p].shape[1], *hidden, width], feats[p], legal,
                                ids[p], table[ids[p]], np.ones(len(ids[p]), dtype=np.float32), len(ids[p]),
                                loss="xent", steps=steps, batch=batch, learning_rate=learning_rate)
        nets.append(Network(g.game_id, p, "softmax", numpy_params(params), features))
    policy = tabulate(g, nets, feats)
    return Distilled(nets, policy, nash_conv(g, policy), nash_conv(g, target), int(samples),
                     time.process_time() - t0)
