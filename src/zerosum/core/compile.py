"""The compiled form every solver runs on: each player's treeplex plus a sparse payoff matrix.

A game's rules are walked once (:func:`compile_game`); the result holds only NumPy arrays and
SciPy sparse matrices, so that an iteration of any full-width solver is a fixed, short list of
array operations: ``g = A @ y`` collects player 0's values under each sequence in one sparse
product, and one upward pass over a treeplex gives every counterfactual value (OpenSpiel walks
``State`` objects one history at a time on every iteration instead: ``benchmarks/bench_core.py``
measured 7.6 ms of C++ per CFR+ iteration on its Leduc against 41 us here).

Sequence form, per player p:

* a *sequence* is an (information set, action) pair; sequence 0 is the empty sequence;
* information sets are numbered by treeplex depth (the number of the player's own earlier
  decisions), so each depth is a contiguous block of information sets, and, since an
  information set's sequences are contiguous, a contiguous block of sequences too;
* ``infoset_parent[p][I]`` is the player's last sequence before reaching I.

``payoff`` is the matrix A with A[s0, s1] = sum over terminal histories z whose last sequences
are s0 and s1 of chance(z) * u0(z).  ``x @ A @ y`` is player 0's expected payoff.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import numpy as np
import scipy.sparse as sp

from ..errors import ZerosumError
from .game import CHANCE, TERMINAL, Game
from .memory import COMPILE_BYTES_PER_HISTORY, memory_limit


@dataclass(frozen=True)
class Level:
    """One treeplex depth: information sets [i0, i1) owning sequences [s0, s1)."""

    i0: int
    i1: int
    s0: int
    s1: int
    #: start of each information set's sequences, relative to s0 (for np.add.reduceat)
    offsets: np.ndarray
    #: information set of each sequence, relative to i0
    local_infoset: np.ndarray


@dataclass(frozen=True)
class Treeplex:
    """One player's decision structure in sequence form."""

    player: int
    infoset_labels: tuple[str, ...]
    action_labels: tuple[tuple[str, ...], ...]
    infoset_parent: np.ndarray  # parent sequence of each information set
    infoset_first: np.ndarray  # first sequence of each information set
    infoset_size: np.ndarray  # number of actions of each information set
    infoset_depth: np.ndarray
    seq_infoset: np.ndarray  # information set of each sequence, -1 for the empty one
    seq_parent: np.ndarray  # parent sequence of each sequence's information set, -1 for empty
    levels: tuple[Level, ...]
    index: dict = field(repr=False)  # label -> information set
    seq_uniform: np.ndarray = field(repr=False)  # 1 / (actions of the sequence's infoset); 1 at 0
    segment_starts: np.ndarray = field(repr=False)  # infoset_first - 1: reduceat over seqs 1..n

    @property
    def n_infosets(self) -> int:
        return len(self.infoset_labels)

    @property
    def n_sequences(self) -> int:
        return len(self.seq_infoset)

    def uniform(self) -> np.ndarray:
        """Behavioral probabilities per sequence of the uniform strategy (1 on the empty sequence)."""
        return self.seq_uniform.copy()


@dataclass(frozen=True)
class HistoryTree:
    """The game tree in flat arrays (history 0 is the root).

    ``player[h]`` is 0, 1, CHANCE or TERMINAL; ``infoset[h]`` the acting player's information set
    (-1 elsewhere); the children of h are ``first_child[h] .. first_child[h] + n_children[h] - 1``,
    in the order of the information set's actions (so child k of a decision plays sequence
    ``infoset_first[infoset[h]] + k``); ``edge_prob[c]`` is the chance probability of reaching c
    from its parent when the parent is a chance node (1 otherwise); ``payoff[h]`` is player 0's
    payoff at a terminal; ``chance_reach[h]`` the product of chance probabilities down to h.
    """

    player: np.ndarray
    infoset: np.ndarray
    first_child: np.ndarray
    n_children: np.ndarray
    edge_prob: np.ndarray
    payoff: np.ndarray
    chance_reach: np.ndarray

    def __len__(self) -> int:
        return len(self.player)


@dataclass(frozen=True)
class CompiledGame:
    """A game as arrays: two treeplexes, the payoff matrix, and per-infoset chance weights."""

    game_id: str
    treeplexes: tuple[Treeplex, Treeplex]
    payoff: sp.csr_matrix  # n_sequences[0] x n_sequences[1], player 0's payoff
    payoff_t: sp.csr_matrix  # its transpose, kept in CSR for fast products
    #: per player p, n_infosets[p] x n_sequences[1-p]: chance probability of the histories in
    #: each information set, by the opponent's last sequence (the weights of action values)
    infoset_reach: tuple[sp.csr_matrix, sp.csr_matrix]
    n_histories: int
    n_decision_nodes: int
    n_chance_nodes: int
    n_terminals: int
    #: the game tree itself, one entry per history, for algorithms that follow single paths
    #: (sampling, search); children of a history have consecutive ids
    tree: HistoryTree = field(repr=False)

    def sizes(self) -> dict:
        """Sizes as reported by ``zerosum games``."""
        t0, t1 = self.treeplexes
        return {
            "histories": self.n_histories,
            "terminals": self.n_terminals,
            "decision_nodes": self.n_decision_nodes,
            "chance_nodes": self.n_chance_nodes,
            "infosets": [t0.n_infosets, t1.n_infosets],
            "sequences": [t0.n_sequences, t1.n_sequences],
            "payoff_nonzeros": int(self.payoff.nnz),
        }

    def nbytes(self) -> int:
        """Memory held by the compiled arrays."""
        total = 0
        for m in (self.payoff, self.payoff_t, *self.infoset_reach):
            total += m.data.nbytes + m.indices.nbytes + m.indptr.nbytes
        for t in self.treeplexes:
            for a in (t.infoset_parent, t.infoset_first, t.infoset_size, t.infoset_depth, t.seq_infoset,
                      t.seq_parent):
                total += a.nbytes
        tree = self.tree
        return total + sum(a.nbytes for a in (tree.player, tree.infoset, tree.first_child, tree.n_children,
                                              tree.edge_prob, tree.payoff, tree.chance_reach))


class _PlayerBuilder:
    """Collects one player's information sets in discovery order while walking the tree."""

    def __init__(self, player: int):
        self.player = player
        self.index: dict[str, int] = {}
        self.labels: list[str] = []
        self.actions: list[tuple[str, ...]] = []
        self.parent: list[tuple[int, int] | None] = []  # (infoset, action) or None for empty
        self.depth: list[int] = []

    def visit(self, label: str, actions: tuple[str, ...], parent, depth: int) -> int:
        i = self.index.get(label)
        if i is None:
            if len(actions) == 0:
                raise ZerosumError(f"information set {label!r} of player {self.player} has no legal action")
            if len(set(actions)) != len(actions):
                raise ZerosumError(f"information set {label!r} repeats an action label: {actions}")
            i = len(self.labels)
            self.index[label] = i
            self.labels.append(label)
            self.actions.append(actions)
            self.parent.append(parent)
            self.depth.append(depth)
        elif self.actions[i] != actions:
            raise ZerosumError(
                f"information set {label!r} of player {self.player} has different legal actions in "
                f"two of its histories: {self.actions[i]} and {actions}")
        elif self.parent[i] != parent:
            raise ZerosumError(
                f"the game does not have perfect recall: player {self.player} reaches information set "
                f"{label!r} after different sequences of its own actions")
        return i

    def finish(self):
        """Renumber by depth, number the sequences; return the treeplex, the old->new sequence map
        and the old->new information-set map."""
        n = len(self.labels)
        order = sorted(range(n), key=lambda i: (self.depth[i], i))
        new_of_old = np.empty(n, dtype=np.int64)
        new_of_old[order] = np.arange(n)
        sizes = np.array([len(self.actions[i]) for i in order], dtype=np.int64)
        first = np.ones(n, dtype=np.int64)
        if n:
            first[1:] = 1 + np.cumsum(sizes)[:-1]
        n_seq = 1 + int(sizes.sum())

        def seq_of(old_pair):
            if old_pair is None:
                return 0
            old_i, a = old_pair
            return int(first[new_of_old[old_i]] + a)

        parent = np.array([seq_of(self.parent[i]) for i in order], dtype=np.int64)
        depth = np.array([self.depth[i] for i in order], dtype=np.int64)
        seq_infoset = np.full(n_seq, -1, dtype=np.int64)
        if n:
            seq_infoset[1:] = np.repeat(np.arange(n), sizes)
        seq_parent = np.full(n_seq, -1, dtype=np.int64)
        seq_parent[1:] = parent[seq_infoset[1:]]

        levels = []
        for d in np.unique(depth):
            members = np.flatnonzero(depth == d)
            i0, i1 = int(members[0]), int(members[-1]) + 1
            s0, s1 = int(first[i0]), int(first[i1 - 1] + sizes[i1 - 1])
            levels.append(Level(i0, i1, s0, s1, first[i0:i1] - s0, seq_infoset[s0:s1] - i0))

        labels = tuple(self.labels[i] for i in order)
        tree = Treeplex(
            player=self.player,
            infoset_labels=labels,
            action_labels=tuple(self.actions[i] for i in order),
            infoset_parent=parent,
            infoset_first=first,
            infoset_size=sizes,
            infoset_depth=depth,
            seq_infoset=seq_infoset,
            seq_parent=seq_parent,
            levels=tuple(levels),
            index={label: k for k, label in enumerate(labels)},
            seq_uniform=np.concatenate(([1.0], 1.0 / sizes[seq_infoset[1:]])),
            segment_starts=first - 1,
        )
        return tree, seq_of, new_of_old


#: peak bytes per history of the walk below (the measured figure the poker family refuses by)
BYTES_PER_HISTORY = COMPILE_BYTES_PER_HISTORY
#: random root-to-leaf paths of the size estimate, in batches (the median of the batch means is
#: robust to the rare path that overestimates by far)
_PROBES, _BATCHES = 1000, 10
#: after this many seconds the estimate stops at the end of the current batch
_ESTIMATE_SECONDS = 1.0


def estimate_histories(game: Game, seed: int = 0) -> float | None:
    """The number of histories of ``game``, estimated before walking it by Knuth's method
    ("Estimating the efficiency of backtrack programs", 1975): along a random path the product of
    the branching factors above depth d is an unbiased estimate of the number of nodes at depth d.
    None if a path meets rules the compiler would refuse (it then says why)."""
    import random

    rng = random.Random(seed)
    means = []
    stop = time.monotonic() + _ESTIMATE_SECONDS
    try:
        for _ in range(_BATCHES):
            if means and time.monotonic() > stop:  # long games (chess): the batches done will do
                break
            total = 0.0
            for _ in range(_PROBES // _BATCHES):
                h, weight, count = game.root(), 1.0, 1.0
                while True:
                    p = game.player(h)
                    if p == CHANCE:
                        choices = [label for label, q in game.chance_outcomes(h) if q > 0]
                    elif p in (0, 1):
                        choices = list(game.actions(h))
                    else:
                        break
                    if not choices:
                        return None
                    weight *= len(choices)
                    count += weight
                    if count > 1e18:  # far past any memory already: the rest of the path adds nothing
                        break
                    h = game.child(h, choices[rng.randrange(len(choices))])
                total += count
            means.append(total / (_PROBES // _BATCHES))
    except (ZerosumError, ValueError, TypeError, KeyError, IndexError, AttributeError):
        return None
    return float(np.median(means)) if means else None


#: histories expanded between two looks at the clock (progress) and at the memory guard
_CHECK_EVERY = 4096


def compile_game(game: Game, progress=None, max_bytes: int | None = None, estimate: bool = True) -> CompiledGame:
    """Walk the rules once and build the sequence form.  Raises ZerosumError on malformed rules.

    The size of a game is unknown until it has been walked, so the walk watches itself:
    ``progress(histories)`` is called about four times a second, and as soon as the histories
    found so far would need more than ``max_bytes`` (default: 70 % of the memory available now)
    the walk stops with a ZerosumError rather than running the machine out of memory.
    ``estimate=False`` skips the up-front estimate (the walk still watches itself): for games
    built from a game already compiled and no larger, such as the subgames of re-solving, where
    the estimate's random paths cost more than the walk (continual re-solving on Leduc: 18.6 of
    20.8 s of compiling went to the estimate).
    """
    limit = memory_limit(max_bytes)
    max_histories = max(1, limit // BYTES_PER_HISTORY)
    estimate = estimate_histories(game) if estimate else None
    if estimate is not None and estimate > 2 * max_histories:
        raise ZerosumError(
            f"{game.id} is too large to compile: about {estimate:.2g} histories or more (estimated from "
            f"random paths down its tree) would need about {estimate * BYTES_PER_HISTORY / 1e9:.2g} GB, "
            f"more than the {limit / 1e9:.1f} GB available")
    next_look = time.monotonic() + 0.25
    expanded = 0
    builders = (_PlayerBuilder(0), _PlayerBuilder(1))
    terminals: list[tuple] = []  # (seq pair p0, seq pair p1, chance prob, payoff)
    reach: list[tuple] = []  # (player, infoset(old), opponent seq pair, chance prob)
    # the history tree, filled as histories are expanded (children get consecutive ids)
    node_player, node_infoset, node_first, node_count, node_edge, node_payoff, node_reach = \
        [0], [-1], [0], [0], [1.0], [0.0], [1.0]
    n_dec = n_chance = 0
    # Each stack entry: history, its id, chance probability, last sequence and depth of each player
    stack = [(game.root(), 0, 1.0, (None, None), (0, 0))]

    def new_children(parent: int, edges: list[float], prob: float) -> int:
        first = len(node_player)
        node_first[parent], node_count[parent] = first, len(edges)
        for q in edges:
            node_player.append(TERMINAL)
            node_infoset.append(-1)
            node_first.append(0)
            node_count.append(0)
            node_edge.append(q)
            node_payoff.append(0.0)
            node_reach.append(prob * q)
        return first

    while stack:
        expanded += 1
        if expanded % _CHECK_EVERY == 0:
            if len(node_player) > max_histories:
                raise ZerosumError(
                    f"{game.id} is too large to compile: the {len(node_player):,} histories found so far "
                    f"(and counting) already need about {len(node_player) * BYTES_PER_HISTORY / 1e9:.1f} GB, "
                    f"more than the {limit / 1e9:.1f} GB available")
            if progress is not None and time.monotonic() >= next_look:
                next_look = time.monotonic() + 0.25
                progress(len(node_player))
        h, hid, prob, last, depth = stack.pop()
        p = game.player(h)
        node_player[hid] = p
        if p == TERMINAL:
            payoff = float(game.payoff(h))
            node_payoff[hid] = payoff
            terminals.append((last[0], last[1], prob, payoff))
        elif p == CHANCE:
            n_chance += 1
            outcomes = [(label, float(q)) for label, q in game.chance_outcomes(h)]
            total = sum(q for _, q in outcomes)
            if not outcomes or abs(total - 1.0) > 1e-9 or any(q < 0 for _, q in outcomes):
                raise ZerosumError(f"chance probabilities at {h!r} must be non-negative and sum to 1, "
                                   f"got {outcomes}")
            outcomes = [(label, q) for label, q in outcomes if q > 0]
            first = new_children(hid, [q for _, q in outcomes], prob)
            for k in reversed(range(len(outcomes))):
                label, q = outcomes[k]
                stack.append((game.child(h, label), first + k, prob * q, last, depth))
        elif p in (0, 1):
            n_dec += 1
            actions = tuple(game.actions(h))
            i = builders[p].visit(str(game.infoset(h)), actions, last[p], depth[p])
            node_infoset[hid] = i
            reach.append((p, i, last[1 - p], prob))
            first = new_children(hid, [1.0] * len(actions), prob)
            for a in reversed(range(len(actions))):
                new_last = (last[0], (i, a)) if p == 1 else ((i, a), last[1])
                new_depth = (depth[0], depth[1] + 1) if p == 1 else (depth[0] + 1, depth[1])
                stack.append((game.child(h, actions[a]), first + a, prob, new_last, new_depth))
        else:
            raise ZerosumError(f"player() returned {p!r} at {h!r}; expected 0, 1, CHANCE or TERMINAL")
    if not terminals:
        raise ZerosumError("the game has no terminal history")

    finished = [b.finish() for b in builders]
    trees = (finished[0][0], finished[1][0])
    seq_of = (finished[0][1], finished[1][1])
    new_of_old = (finished[0][2], finished[1][2])
    n_seq = (trees[0].n_sequences, trees[1].n_sequences)

    tseq = np.array([(seq_of[0](s0), seq_of[1](s1)) for s0, s1, _, _ in terminals], dtype=np.int64)
    tprob = np.array([t[2] for t in terminals])
    tpay = np.array([t[3] for t in terminals])
    a = sp.csr_matrix((tprob * tpay, (tseq[:, 0], tseq[:, 1])), shape=n_seq)
    a.sum_duplicates()
    a.eliminate_zeros()
    infoset_reach = []
    for p in (0, 1):
        rows = [(int(new_of_old[p][i]), seq_of[1 - p](opp), q) for pp, i, opp, q in reach if pp == p]
        r = np.array([r[0] for r in rows], dtype=np.int64)
        c = np.array([r[1] for r in rows], dtype=np.int64)
        v = np.array([r[2] for r in rows], dtype=float)
        m = sp.csr_matrix((v, (r, c)), shape=(trees[p].n_infosets, n_seq[1 - p]))
        m.sum_duplicates()
        infoset_reach.append(m)

    player = np.array(node_player, dtype=np.int64)
    infoset = np.array(node_infoset, dtype=np.int64)
    for p in (0, 1):
        mine = player == p
        infoset[mine] = new_of_old[p][infoset[mine]]
    history_tree = HistoryTree(
        player=player, infoset=infoset, first_child=np.array(node_first, dtype=np.int64),
        n_children=np.array(node_count, dtype=np.int64), edge_prob=np.array(node_edge),
        payoff=np.array(node_payoff), chance_reach=np.array(node_reach))
    return CompiledGame(
        game_id=game.id,
        treeplexes=trees,
        payoff=a,
        payoff_t=a.T.tocsr(),
        infoset_reach=tuple(infoset_reach),
        n_histories=len(player),
        n_decision_nodes=n_dec,
        n_chance_nodes=n_chance,
        n_terminals=len(terminals),
        tree=history_tree,
    )


_CACHE: dict[str, CompiledGame] = {}


def compiled(game: Game, progress=None) -> CompiledGame:
    """The compiled form of ``game``, built once per game id and kept for the process
    (``progress``: see :func:`compile_game`)."""
    found = _CACHE.get(game.id)
    if found is None:
        check = getattr(game, "check_history_tree", None)  # games that count their histories exactly
        if check is not None:
            check()
        found = _CACHE[game.id] = compile_game(game, progress=progress)
    return found
