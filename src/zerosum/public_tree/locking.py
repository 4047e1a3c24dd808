"""Node locking on the public tree: one player's strategy fixed at chosen public nodes (for the
whole range or some hands), the rest solved against it.

A lock is ``{public label: {hand label or "*": [one probability per action]}}`` (``"*"``: every
hand of the locked player's range not named at that node), for one player: the acting player of
every locked node (:class:`NodeLocks` refuses a node of the other player, a label that does not
exist, a hand outside the player's range, and probabilities of the wrong count, negative or not
summing to 1, each in one line).  A JSON file holds ``{"player": 1, "nodes": {...}}`` (``player``
optional: then the nodes' acting player).

How it is solved exactly (:func:`lock_solver`): after each update of the locked player L, L's
regrets at the locked slots are set to the locked probabilities (and, for a predictive variant,
its stored strategies there too).  Regret matching of a non-negative vector summing to 1 returns
that vector, so the next pass of either player reads exactly the lock there; the regrets L's
update wrote at those slots are thrown away, so L's free slots learn against L's own lock
(their counterfactual values come up through the locked nodes as sum_a lock(a) v(a)).  This
holds for every variant's regret rule: CFR+'s flooring leaves a non-negative vector unchanged,
and DCFR's discounting, applied at the next update of those slots, scales the positive entries
by one factor, which normalization removes (the reset follows every update anyway).  Updates
alternate, so the lock is set once more when the solver is attached: at iteration 1 player 0's
pass already sees L = 1's lock.  L's average sums at the locked slots are set to the lock as well,
so the average policy equals the lock there even at nodes the average never reached.  The
solver's depth-first pass runs one player at a time, so the lock is set between the two
players' passes.  A saved state records the locks
(:meth:`NodeLocks.to_json`); resuming restores or checks them (:func:`restore_locks`).

Exploitability under locks (:func:`zerosum.solutions.analysis.locked_exploitability`, with
the other readings of a solution): the free player F's gain, its
best-response value against L's profile minus its value, and L's gain when it may change only its
free slots (a best response that keeps the lock).  Their sum is the NashConv of the locked game,
zero at its equilibrium.  The usual NashConv (both players unrestricted) stays positive there: it
counts what L would win by leaving its lock, which the lock forbids.
"""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from ..errors import ZerosumError
from ..solvers.capabilities import require, require_apart
from .form import DECISION, PublicTree

#: probabilities of a lock must sum to 1 within this
SUM_TOLERANCE = 1e-6


class NodeLocks:
    """Locks of one player on ``tree``, checked: ``slots`` (flat indices into that player's arrays,
    the form's layout) and ``values`` (the locked probabilities there); ``masks`` per node, the
    locked hands (what :func:`~zerosum.solutions.analysis.best_response_value` keeps fixed)."""

    def __init__(self, tree: PublicTree, spec: dict, player: int | None = None, source: str = "locks"):
        if not isinstance(spec, dict) or not spec:
            raise ZerosumError(f"{source}: locks are {{public label: {{hand or \"*\": [probabilities]}}}}, "
                               f"got {type(spec).__name__ if not isinstance(spec, dict) else 'nothing'}")
        index = {lab: k for k, lab in enumerate(tree.labels)}
        self.tree = tree
        slots, values, self.masks = [], [], {}
        #: the locks as given (probabilities as floats, before normalization): what a saved state
        #: records (:meth:`to_json`), rebuilt to the same slots and values bit for bit
        self.spec = {}
        for label, hands in spec.items():
            node = index.get(label)
            if node is None:
                from .form import find_node

                try:
                    find_node(tree, label)
                except ZerosumError as e:
                    raise ZerosumError(f"{source}: {e}") from None
            if tree.kind[node] != DECISION:
                raise ZerosumError(f"{source}: node {label!r} is a {('decision', 'chance', 'fold', 'showdown')[tree.kind[node]]} "
                                   f"node; only decision nodes can be locked")
            q = int(tree.player[node])
            if player is None:
                player = q
            if q != player:
                raise ZerosumError(f"{source}: node {label!r} is player {q}'s, but the locks are player {player}'s; "
                                   f"lock one player (a second solve can lock the other)")
            if not isinstance(hands, dict) or not hands:
                raise ZerosumError(f"{source}: node {label!r} needs {{hand or \"*\": [probabilities]}}")
            na, n, o = int(tree.n_children[node]), tree.n_hands[q], int(tree.offset[node])
            held = np.asarray(tree.ranges[q]) > 0
            hand_index = {h: i for i, h in enumerate(tree.hand_labels[q])}
            table, by_class = {}, {}
            for hand, probs in hands.items():
                raw = probs
                probs = self._probs(probs, na, label, hand, tree.action_labels[node], source)
                self.spec.setdefault(label, {})[hand] = [float(v) for v in raw]
                if hand == "*":
                    continue
                i = hand_index.get(hand)
                if i is None and isinstance(hand, str) and len(hand) == 4:  # "JcJd" for "JdJc"
                    i = hand_index.get(hand[2:] + hand[:2])
                if i is None:  # range notation ("99", "AKs", "AK", "QQ+"): the combos of it the player holds
                    combos = _range_hands(tree, q, hand, hand_index, held)
                    if combos is not None:
                        if not combos:
                            raise ZerosumError(f"{source}: {hand!r} names no hand of player {q}'s range at {label!r} "
                                               f"(none held, or its cards are on the board); the range holds e.g. "
                                               f"{_range_examples(tree, q, held)}")
                        for k in combos:
                            if k in by_class:
                                raise ZerosumError(f"{source}: {by_class[k][0]!r} and {hand!r} both name "
                                                   f"{tree.hand_labels[q][k]} at {label!r}; name each hand once "
                                                   f"(an exact combo may override a class)")
                            by_class[k] = (hand, probs)
                        continue
                if i is None or not held[i]:
                    raise ZerosumError(f"{source}: {hand!r} is not a hand of player {q}'s range at {label!r} "
                                       f"(hands look like {tree.hand_labels[q][int(np.argmax(held))]!r} or classes like "
                                       f"'99', 'AKs', 'QQ+', or \"*\" for all)")
                table[i] = probs
            for k, (_, probs) in by_class.items():  # an exact combo overrides its class
                table.setdefault(k, probs)
            if "*" in hands:
                star = self._probs(hands["*"], na, label, "*", tree.action_labels[node], source)
                for i in np.flatnonzero(held):
                    table.setdefault(int(i), star)
            mask = np.zeros(n, dtype=bool)
            for i, probs in table.items():
                mask[i] = True
                slots.extend(o + a * n + i for a in range(na))
                values.extend(probs)
            self.masks[node] = mask
        self.player = int(player)
        order = np.argsort(slots, kind="stable")
        self.slots = np.asarray(slots, dtype=np.int64)[order]
        self.values = np.asarray(values, dtype=np.float64)[order]
        if len(np.unique(self.slots)) != len(self.slots):
            raise ZerosumError(f"{source}: a hand is locked twice at one node")

    @staticmethod
    def _probs(probs, na, label, hand, actions, source) -> list[float]:
        try:
            x = [float(v) for v in probs]
        except (TypeError, ValueError):
            x = None
        if x is None or len(x) != na:
            raise ZerosumError(f"{source}: {hand!r} at {label!r} needs {na} probabilities, one per action "
                               f"({', '.join(actions)}), got {probs!r}")
        if any(not np.isfinite(v) or v < 0 for v in x) or abs(sum(x) - 1.0) > SUM_TOLERANCE:
            raise ZerosumError(f"{source}: the probabilities of {hand!r} at {label!r} must be non-negative and "
                               f"sum to 1, got {probs!r}")
        total = sum(x)
        return [v / total for v in x]  # exactly what regret matching returns for them

    def to_json(self) -> str:
        """``{"player": p, "nodes": {...}}`` as JSON text (what ``--save-state`` records)."""
        return json.dumps({"player": self.player, "nodes": self.spec}, separators=(",", ":"))

    @classmethod
    def from_json(cls, tree: PublicTree, text: str, source: str = "the saved state's locks") -> NodeLocks:
        try:
            data = json.loads(text)
            nodes, player = data["nodes"], data["player"]
        except (json.JSONDecodeError, TypeError, KeyError):
            raise ZerosumError(f"{source} are not {{\"player\": p, \"nodes\": {{...}}}} JSON; start the run "
                               f"afresh (without --resume)") from None
        return cls(tree, nodes, player, source=source)

    def same(self, other: NodeLocks) -> bool:
        """The same locks (player, slots and probabilities), however each was written."""
        return self.player == other.player and np.array_equal(self.slots, other.slots) and \
            np.array_equal(self.values, other.values)

    def describe(self) -> str:
        s = self.summary()
        return f"player {s['player']} at {s['nodes']} nodes, {s['hands']} hand locks"

    @property
    def free_player(self) -> int:
        return 1 - self.player

    def summary(self) -> dict:
        return {"player": self.player, "nodes": len(self.masks),
                "hands": sum(int(m.sum()) for m in self.masks.values()), "slots": len(self.slots)}

    def apply(self, solver, p: int) -> None:
        """After player p's update: put the lock back into the locked player's arrays."""
        if p != self.player:
            return
        solver.regrets[p][self.slots] = self.values
        solver.average[p][self.slots] = self.values
        if solver.variant.predictive:
            solver.strategy[p][self.slots] = self.values

    def policy(self, policy):
        """``policy`` with the lock written over the locked player's slots (a copy of that
        player's probabilities; the other player's are shared)."""
        from .policy import PublicPolicy

        probs = list(policy.probs)
        probs[self.player] = probs[self.player].copy()
        probs[self.player][self.slots] = self.values
        return PublicPolicy(policy.tree, probs)


def _range_hands(tree: PublicTree, q: int, text, hand_index: dict, held: np.ndarray) -> list[int] | None:
    """The indices of player q's held hands that range notation ``text`` names (``"99"``, ``"AKs"``,
    ``"AK"``, ``"QQ+"``, ``"JJ-88"``, comma-separated: :func:`zerosum.poker.ranges.parse_range`
    without weights), or None where the tree has no card hands or ``text`` is not range notation."""
    from ..poker.cards import cards_str, hole_pairs
    from ..poker.ranges import is_combo, parse_range

    if not isinstance(text, str) or ":" in text or is_combo(text.strip()) or tree.hand_cards(q) is None:
        return None  # an exact combo ("KcQc") is looked up as it is
    try:
        weights = parse_range(text)
    except ZerosumError:
        return None
    pairs = hole_pairs()
    out = []
    for k in np.flatnonzero(weights > 0):
        c0, c1 = (int(c) for c in pairs[k])
        i = hand_index.get(cards_str((c1, c0)), hand_index.get(cards_str((c0, c1))))
        if i is not None and held[i]:
            out.append(int(i))
    return out


def _range_examples(tree: PublicTree, q: int, held: np.ndarray) -> str:
    """A few hand classes of player q's range (``'AKs', 'QQ', 'T9s'``) for a refusal."""
    from ..poker.cards import hand_class

    seen = []
    for i in np.flatnonzero(held):
        c = hand_class(tree.hand_labels[q][int(i)])
        if c not in seen:
            seen.append(c)
    return ", ".join(repr(c) for c in seen[:4]) + (" ..." if len(seen) > 4 else "")


def load_locks(tree: PublicTree, path) -> NodeLocks:
    """The locks in a JSON file: ``{"player": 1, "nodes": {label: {hand or "*": [probs]}}}`` or the
    ``nodes`` object alone."""
    src = repr(str(path))
    try:
        data = json.loads(Path(path).read_text())
    except FileNotFoundError:
        raise ZerosumError(f"cannot read the lock file {src}: no such file") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ZerosumError(f"the lock file {src} is not JSON ({e.__class__.__name__}); it holds "
                           f'{{"player": 1, "nodes": {{"::r": {{"*": [0, 1, 0]}}}}}}') from None
    player = None
    if isinstance(data, dict) and "nodes" in data:
        player = data.get("player")
        if player not in (0, 1, None):
            raise ZerosumError(f"{src}: player must be 0 or 1, got {player!r}")
        data = data["nodes"]
    return NodeLocks(tree, data, player, source=src)


def lock_solver(solver, locks: NodeLocks):
    """Attach ``locks`` to a :class:`~zerosum.public_tree.solver.PublicTreeSolver` (before or after
    loading a state) and set the lock (see the module docstring)."""
    from .passes import is_raked

    if getattr(solver, "scales", None) is not None:
        require_apart("locks", "int16", f"drop --option dtype={solver.dtype} to lock nodes")
    if is_raked(solver.tree):
        require_apart("locks", "rake", "drop the rake to lock nodes")
    if locks.tree is not solver.tree and locks.tree.labels != solver.tree.labels:
        raise ZerosumError("the locks were made for another public tree")
    if not hasattr(solver, "regrets"):
        raise ZerosumError("node locking runs on the public tree's CFR variants, in one process")
    require(solver.name, "locks", "use -a dcfr or another of them")
    solver.locks = locks
    locks.apply(solver, locks.player)
    return solver


def restore_locks(solver, saved: str | None) -> None:
    """On resuming ``solver`` from a state whose locks are ``saved`` (JSON text, None: an unlocked
    run): put them on a solver given none, keep them where the same locks were given, refuse
    other locks (or locks on an unlocked run) in one line: either would silently change the game
    being solved halfway through."""
    given = getattr(solver, "locks", None)
    if saved is None:
        if given is not None:
            raise ZerosumError("the saved state was solved without node locks; resume it without --option lock, "
                               "or start the locked run afresh (without --resume)")
        return
    locks = NodeLocks.from_json(solver.tree, saved)
    if given is None:
        lock_solver(solver, locks)
    elif not given.same(locks):
        raise ZerosumError(f"the saved state was solved with other node locks ({locks.describe()}); resume it "
                           f"with the same --option lock file, or without --option lock (the saved locks are kept)")
