"""Gambit interoperability: read a Gambit ``.efg`` file as a zerosum game and write any zerosum
game as ``.efg``, through pygambit's own reader and writer (optional extra ``gambit``).

Reading walks pygambit's tree once into flat tables (node id -> player, information set,
actions, chance probabilities, payoff), so the compiler never touches pygambit objects twice.
Payoffs collected along a path (Gambit allows outcomes at inner nodes) are summed.  A
constant-sum game is shifted to zero-sum as in the OpenSpiel adapter: player 0 gets
(u0 - u1) / 2.  Refused with one line: not two players, not constant-sum, a malformed file.
"""

from __future__ import annotations

import hashlib
from fractions import Fraction
from pathlib import Path

from ..core.game import CHANCE, TERMINAL, Game
from ..errors import ZerosumError


def _gambit():
    try:
        import pygambit
    except ImportError:  # pragma: no cover - depends on the environment
        raise ZerosumError("Gambit files need the optional extra 'gambit': pip install -e '.[gambit]' in a clone of zerosum") from None
    return pygambit


def _unique(labels) -> tuple[str, ...]:
    """Action labels as given, numbered where Gambit leaves them empty or repeats them."""
    out, seen = [], set()
    for k, label in enumerate(labels):
        text = str(label) if label else str(k)
        while text in seen:
            text = f"{text}#{k}"
        seen.add(text)
        out.append(text)
    return tuple(out)


def _outcome(node, players):
    """The payoffs of the outcome attached to a node (exact), or None."""
    try:
        outcome = node.outcome
        return tuple(Fraction(str(outcome[p])) for p in players)
    except (KeyError, AttributeError, TypeError):
        return None


class GambitGame(Game):
    """A two-player constant-sum extensive game read from a Gambit ``.efg`` file.

    Histories are node numbers (0 is the root).  Information-set labels are Gambit's where they
    are unique for the player, else ``"P<player>:<number>"``.
    """

    name = "efg"

    def __init__(self, path):
        gbt = _gambit()
        self.path = Path(path)
        try:
            data = self.path.read_bytes()
        except OSError as e:
            raise ZerosumError(f"cannot read {str(self.path)!r}: {e.strerror}") from None
        try:
            g = gbt.read_efg(self.path)
        except Exception as e:  # noqa: BLE001 - pygambit raises ValueError, RuntimeError, ...
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise ZerosumError(f"{str(self.path)!r} is not a valid Gambit .efg file: {first}") from None
        self._digest = hashlib.sha1(data).hexdigest()[:10]
        self._load(g)

    def params(self) -> dict:
        return {"file": self.path.name, "sha1": self._digest}

    def _load(self, g) -> None:
        players = list(g.players)
        if len(players) != 2:
            raise ZerosumError(f"{self.path.name} has {len(players)} players; zerosum needs 2")
        self.title = g.title
        self._player, self._infoset, self._actions, self._children, self._payoff = [], [], [], [], []
        self._chance = []
        totals = set()
        # an information set's label is Gambit's when unique for its player, else "P<player>:<number>"
        infoset_labels: dict = {}
        for p, player in enumerate(players):
            names = [i.label for i in player.infosets]
            for i in player.infosets:
                unique = i.label and names.count(i.label) == 1
                infoset_labels[(p, i.number)] = i.label if unique else f"P{p + 1}:{i.number}"

        def label_of(infoset):
            return infoset_labels[(players.index(infoset.player), infoset.number)]

        # iterative walk: (node, id, accumulated payoffs)
        self._new_node()
        stack = [(g.root, 0, (Fraction(0), Fraction(0)))]
        while stack:
            node, nid, acc = stack.pop()
            payoffs = _outcome(node, players)
            if payoffs is not None:
                acc = (acc[0] + payoffs[0], acc[1] + payoffs[1])
            if node.is_terminal:
                self._player[nid] = TERMINAL
                totals.add(acc[0] + acc[1])
                self._payoff[nid] = float((acc[0] - acc[1]) / 2)
                continue
            infoset = node.infoset
            actions = _unique(a.label for a in infoset.actions)
            self._actions[nid] = actions
            if infoset.is_chance:
                self._player[nid] = CHANCE
                self._chance[nid] = [float(Fraction(str(a.prob))) for a in infoset.actions]
            else:
                self._player[nid] = players.index(infoset.player)
                self._infoset[nid] = label_of(infoset)
            kids = []
            for child in node.children:
                cid = self._new_node()
                kids.append(cid)
                stack.append((child, cid, acc))
            self._children[nid] = dict(zip(actions, kids))
        if len(totals) > 1:
            raise ZerosumError(f"{self.path.name} is not zero-sum (nor constant-sum): the payoffs of the two "
                               f"players add up to {len(totals)} different totals")

    def _new_node(self) -> int:
        self._player.append(TERMINAL)
        self._infoset.append(None)
        self._actions.append(())
        self._children.append({})
        self._payoff.append(0.0)
        self._chance.append(None)
        return len(self._player) - 1

    def root(self):
        return 0

    def player(self, h):
        return self._player[h]

    def actions(self, h):
        return self._actions[h]

    def chance_outcomes(self, h):
        return list(zip(self._actions[h], self._chance[h]))

    def child(self, h, action):
        try:
            return self._children[h][action]
        except KeyError:
            raise ZerosumError(f"no action {action!r} at node {h} of {self.path.name}") from None

    def payoff(self, h):
        return self._payoff[h]

    def infoset(self, h):
        return self._infoset[h]


def load_efg(path) -> GambitGame:
    """Read a Gambit .efg file (``zerosum solve path/to/game.efg`` calls this)."""
    return GambitGame(path)


def _exact(x: float):
    """A float as Gambit's exact number: the simplest fraction that is the same double."""
    f = Fraction(x).limit_denominator(10 ** 9)
    return f if float(f) == x else Fraction(x)


def to_gambit(game: Game, title: str | None = None):
    """A pygambit Game with the same tree, information sets, chance and payoffs."""
    gbt = _gambit()
    g = gbt.Game.new_tree(players=["Player 1", "Player 2"], title=title or f"zerosum {game.id}")
    players = list(g.players)
    infosets: dict = {}
    outcomes: dict = {}
    stack = [(game.root(), g.root)]
    while stack:
        h, node = stack.pop()
        p = game.player(h)
        if p == TERMINAL:
            u = _exact(float(game.payoff(h)))
            if u not in outcomes:
                outcomes[u] = g.add_outcome(str(u), [gbt.Rational(u.numerator, u.denominator),
                                                     gbt.Rational(-u.numerator, u.denominator)])
            g.set_outcome(node, outcomes[u])
            continue
        if p == CHANCE:
            pairs = [(a, q) for a, q in game.chance_outcomes(h) if q > 0]
            labels = [str(a) for a, _ in pairs]
            g.append_move(node, g.players.chance, labels)
            probs = [_exact(float(q)) for _, q in pairs]
            probs[-1] = 1 - sum(probs[:-1])  # exact sum 1, as Gambit requires
            g.set_chance_probs(node.infoset, [gbt.Rational(q.numerator, q.denominator) for q in probs])
            edges = list(pairs)
        elif p in (0, 1):
            label = str(game.infoset(h))
            actions = [str(a) for a in game.actions(h)]
            key = (p, label)
            if key in infosets:
                g.append_infoset(node, infosets[key])
            else:
                g.append_move(node, players[p], actions)
                node.infoset.label = label
                infosets[key] = node.infoset
            edges = [(a, None) for a in game.actions(h)]
        else:
            raise ZerosumError(f"player() returned {p!r}; expected 0, 1, CHANCE or TERMINAL")
        for (a, _), child in zip(edges, node.children):
            stack.append((game.child(h, a), child))
    return g


def write_efg(game: Game, path, title: str | None = None) -> None:
    """Write ``game`` as a Gambit .efg file with pygambit's writer (atomically)."""
    from ..core.policy import write_text_atomic

    write_text_atomic(path, to_gambit(game, title).to_efg())
