"""Network policies evaluated exactly: tabulate a network over every information set of a game.

A network trained on sampled information sets is a policy nobody can evaluate by sampling alone
(OpenSpiel issues #772, #878).  On a game zerosum can compile it is cheap to do exactly: run the
network once on the feature vectors of *all* of a player's information sets (one batched forward
pass), turn each row of outputs into action probabilities, and the result is an ordinary
:class:`~zerosum.core.policy.TabularPolicy` whose NashConv, exploitability and value are exact.

Outputs become probabilities by one of three rules:

* ``softmax``: logits (average-strategy and distilled networks), illegal actions masked;
* ``regret-matching``: predicted advantages (Deep CFR's value networks): positive parts
  normalized, and where none is positive the action with the largest advantage (Brown et al.);
* ``greedy``: action values (DQN): the best legal action with probability 1.

Networks are saved as ``.npz`` of plain arrays (``np.load(..., allow_pickle=False)`` reads them,
so loading never executes code) with a JSON header naming the game, player, layer sizes, feature
kind and output rule; :func:`save_network_policy` writes the tabulated JSON policy next to them.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np

from ..core.policy import TabularPolicy, as_compiled
from ..errors import ZerosumError

RULES = ("softmax", "regret-matching", "greedy")
FORMAT = "zerosum.network"
VERSION = 1


@dataclass
class Network:
    """One player's MLP as NumPy arrays: ``params`` is a list of (W, b), ReLU between layers."""

    game_id: str
    player: int
    rule: str
    params: list = field(repr=False)
    features: str = "auto"

    @property
    def sizes(self) -> list[int]:
        """Layer widths, input first."""
        return [int(self.params[0][0].shape[0])] + [int(w.shape[1]) for w, _ in self.params]

    @classmethod
    def from_jax(cls, game_id, player, rule, params, features="auto") -> Network:
        """A network from JAX parameters (copied to float32 NumPy arrays)."""
        return cls(game_id, player, rule, [(np.asarray(w, dtype=np.float32), np.asarray(b, dtype=np.float32))
                                           for w, b in params], features)

    def outputs(self, x: np.ndarray) -> np.ndarray:
        """The network's outputs on a batch of feature vectors (NumPy, float32)."""
        h = np.asarray(x, dtype=np.float32)
        for w, b in self.params[:-1]:
            h = np.maximum(h @ w + b, 0.0)
        w, b = self.params[-1]
        return h @ w + b


def legal_mask(game, player: int, width: int | None = None) -> np.ndarray:
    """(n_infosets, width) booleans: action k is legal at information set I iff k < |A(I)|."""
    tree = as_compiled(game).treeplexes[player]
    if width is None:
        width = int(tree.infoset_size.max()) if tree.n_infosets else 1
    return np.arange(width)[None, :] < tree.infoset_size[:, None]


def strategy_from_outputs(game, player: int, outputs: np.ndarray, rule: str) -> np.ndarray:
    """Behavioral strategy per sequence (1 on the empty sequence) from one row of outputs per
    information set, by ``rule`` (see the module docstring)."""
    if rule not in RULES:
        raise ZerosumError(f"unknown output rule {rule!r}; choose from {', '.join(RULES)}")
    g = as_compiled(game)
    tree = g.treeplexes[player]
    out = np.asarray(outputs, dtype=np.float64)
    if out.ndim != 2 or out.shape[0] != tree.n_infosets or out.shape[1] < int(tree.infoset_size.max()):
        raise ZerosumError(f"outputs of shape {out.shape} do not fit player {player}'s {tree.n_infosets} "
                           f"information sets of {g.game_id}")
    legal = legal_mask(g, player, out.shape[1])
    if rule == "softmax":
        z = np.where(legal, out, -np.inf)
        z = np.exp(z - z.max(axis=1, keepdims=True))
        probs = z / z.sum(axis=1, keepdims=True)
    elif rule == "regret-matching":
        pos = np.where(legal, np.maximum(out, 0.0), 0.0)
        total = pos.sum(axis=1, keepdims=True)
        best = np.where(legal, out, -np.inf).argmax(axis=1)
        probs = np.where(total > 0, pos / np.where(total > 0, total, 1.0), 0.0)
        none = total[:, 0] <= 0
        probs[none, best[none]] = 1.0
    else:
        probs = np.zeros_like(out)
        probs[np.arange(len(out)), np.where(legal, out, -np.inf).argmax(axis=1)] = 1.0
    pi = np.empty(tree.n_sequences)
    pi[0] = 1.0
    seq = np.arange(1, tree.n_sequences)
    inf = tree.seq_infoset[1:]
    pi[1:] = probs[inf, seq - tree.infoset_first[inf]]
    return pi


def tabulate(game, networks, features=None) -> TabularPolicy:
    """Both players' networks as one exact :class:`TabularPolicy` (each network run once on all of
    its player's information sets).  ``features``: the two feature tables, else built here."""
    from ..learning.features import infoset_features

    g = as_compiled(game)
    if len(networks) != 2:
        raise ZerosumError("tabulate needs one network per player")
    probs = []
    for p, net in enumerate(networks):
        check_network(g, net, p)
        x = features[p] if features is not None else infoset_features(g, p, net.features)
        if x.shape[1] != net.sizes[0]:
            raise ZerosumError(f"player {p}'s network takes {net.sizes[0]} inputs; {g.game_id}'s feature "
                               f"vectors have {x.shape[1]}")
        probs.append(strategy_from_outputs(g, p, net.outputs(x), net.rule))
    return TabularPolicy(g, probs)


def check_network(game, net: Network, player: int) -> None:
    """A one-line error unless ``net`` was made for ``player`` of this game."""
    g = as_compiled(game)
    if net.game_id != g.game_id:
        raise ZerosumError(f"the network was trained on {net.game_id!r}, not {g.game_id!r}")
    if net.player != player:
        raise ZerosumError(f"the network is player {net.player}'s, not player {player}'s")
    width = int(g.treeplexes[player].infoset_size.max())
    if net.sizes[-1] < width:
        raise ZerosumError(f"the network has {net.sizes[-1]} outputs; player {player} of {g.game_id} "
                           f"needs {width}")


# --- files --------------------------------------------------------------------------------------
def save_networks(path, networks, extra: dict | None = None) -> None:
    """Write networks as one ``.npz`` of arrays plus a JSON header (never pickle), atomically."""
    from ..files import write_atomic

    arrays = {}
    header = {"format": FORMAT, "version": VERSION, "networks": [], **(extra or {})}
    for k, net in enumerate(networks):
        header["networks"].append({"game": net.game_id, "player": net.player, "rule": net.rule,
                                   "features": net.features, "sizes": net.sizes})
        for j, (w, b) in enumerate(net.params):
            arrays[f"n{k}_w{j}"] = np.asarray(w, dtype=np.float32)
            arrays[f"n{k}_b{j}"] = np.asarray(b, dtype=np.float32)
    arrays["header"] = np.array(json.dumps(header))

    def write(tmp):
        with open(tmp, "wb") as f:
            np.savez(f, **arrays)

    write_atomic(path, write, "network file")


def load_networks(path, game=None) -> list[Network]:
    """Networks written by :func:`save_networks`; with ``game``, checked against it."""
    import zipfile

    src = repr(str(path))
    try:
        with np.load(path, allow_pickle=False) as data:
            arrays = {k: data[k] for k in data.files}
    except OSError as e:
        raise ZerosumError(f"cannot read network file {src}: {e.strerror or e}") from None
    except (ValueError, zipfile.BadZipFile):
        raise ZerosumError(f"{src} is not a zerosum network file") from None
    try:
        header = json.loads(str(arrays["header"]))
        assert header["format"] == FORMAT
    except (KeyError, ValueError, AssertionError, TypeError):
        raise ZerosumError(f"{src} is not a zerosum network file") from None
    if header.get("version") != VERSION:
        raise ZerosumError(f"{src} has network format version {header.get('version')!r}; this zerosum reads "
                           f"version {VERSION}")
    nets = []
    for k, meta in enumerate(header["networks"]):
        sizes = meta["sizes"]
        params = []
        for j in range(len(sizes) - 1):
            w, b = arrays.get(f"n{k}_w{j}"), arrays.get(f"n{k}_b{j}")
            if w is None or b is None or w.shape != (sizes[j], sizes[j + 1]) or b.shape != (sizes[j + 1],):
                raise ZerosumError(f"{src}: network {k}'s layer {j} does not match its header")
            params.append((w, b))
        nets.append(Network(meta["game"], int(meta["player"]), meta["rule"], params, meta.get("features", "auto")))
    if game is not None:
        g = as_compiled(game)
        for p, net in enumerate(nets[:2]):
            check_network(g, net, p)
    return nets


def save_network_policy(path, game, networks, features=None) -> TabularPolicy:
    """Tabulate ``networks``, write the policy JSON at ``path`` and the networks next to it
    (same name, ``.npz``); return the policy."""
    policy = tabulate(game, networks, features)
    policy.save(path)
    save_networks(network_path(path), networks)
    return policy


def network_path(policy_path) -> Path:
    """Where the networks behind a policy JSON live: the same name with ``.npz``."""
    p = Path(policy_path)
    return p.with_suffix(".npz") if p.suffix == ".json" else p.with_name(p.name + ".npz")
