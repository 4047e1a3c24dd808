"""The play view: poker hands against a solved policy, Connect Four against the exact solver.

Routes (all JSON; bad input answers one line through :class:`~zerosum.errors.ZerosumError`):

* ``POST /api/play/new`` ``{game: "kuhn" | "leduc" | "holdem", seat: 0 | 1, seed, policy}``: a match
  of hands against the bot, the first hand dealt.  The bot plays the average policy of CFR+ on Kuhn
  and Leduc (:data:`ITERATIONS` iterations on the history tree) or of DCFR on the hold'em river
  (:data:`ITERATIONS` on the public tree), solved on first use in a worker thread and kept per
  game, or with ``policy`` the id of a table policy loaded in the explore view (of Kuhn,
  Leduc or another member of the poker family; with ``game`` one of the three, the policy must be
  of that game, or one line refuses it: it is not played in the chosen game's place).  Hold'em
  adds ``table`` (``street``, ``pot``, ``your_stack``, ``bot_stack``, ``to_call``, in chips) and,
  to each legal action and each action of the log, ``words``: the action in chips
  (``"bet 4 (40 % pot)"``, ``"call 4"``), as the explorer writes them;
* ``POST /api/play/ID/act`` ``{action}``: the player's action; the bot answers at once (each of its
  actions with the probability its policy gave it), and at the end of the hand comes the payoff,
  the bot's cards and the running score (total, mean and standard error over the hands);
* ``POST /api/play/ID/next``: the next hand, the seats swapped; ``GET /api/play/ID``: the state;
* ``POST /api/connect4/new`` ``{first: "you" | "solver", width, height, moves}``: a game of Connect
  Four (7x6 by default, any board :class:`~zerosum.perfect.connect4.ConnectFour` takes), from the
  empty board or after ``moves`` (1-based columns, e.g. ``"4453"``); ``first`` says who moves next;
* ``POST /api/connect4/ID/move`` ``{column}`` (1-based): the player's move and the solver's reply;
* ``GET /api/connect4/ID/scores``: the exact score of every column for the player to move (the
  convention of ``zerosum analyze connect4``).

The deals are sampled on the server with a seeded :class:`numpy.random.Generator` (``seed``, by
default a fresh one), and so are the bot's actions; the player sees only their own card(s), the
public card and the betting until the hand ends.

Early in a 7x6 game the exact solver can think for minutes (it scores every column); a reply is
given :data:`THINK_SECONDS` and, past them, the move comes from iterative-deepening alpha-beta
(:data:`FALLBACK`) and says so (``exact: false``).  The scores are given :data:`SCORES_SECONDS`.
From about ten stones on (and on every smaller board from the start) the solver answers within a
second.  One solver per board size is kept (its transposition table helps the next moves), used
by one request at a time, always in a worker thread.
"""

from __future__ import annotations

import itertools
import math
import threading
import time
from collections import OrderedDict

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..core.game import CHANCE, TERMINAL
from ..errors import ZerosumError
from .common import read_json

#: CFR+ iterations of the bot's policy (Kuhn: NashConv ~1e-4; Leduc: ~1e-3, a few tenths of a second)
ITERATIONS = 1000
#: the games a bot is solved for; a policy loaded in the explore view may be of any poker-family game
POKER_GAMES = {"kuhn": "Kuhn poker", "leduc": "Leduc hold'em", "holdem": "Hold'em river Ks7d2c9h5s"}
#: the hold'em spot the bot plays: a river, limit bets of 4 into 10, two raises, narrow ranges
#: (its public tree: 15 nodes; DCFR's 1,000 iterations take a few hundredths of a second)
HOLDEM_SPOT = {"board": "Ks7d2c9h5s", "bets": [4], "raises": 2, "range0": "AA,KK,QQ,AK,A5s,76s,98s",
               "range1": "AA,KK,JJ,AQ,T9s,K9s,55"}
#: sessions of each kind kept per server; the oldest is dropped past this
MAX_SESSIONS = 256
#: seconds the exact solver gets for a reply, and for the scores of every column
THINK_SECONDS = 10.0
SCORES_SECONDS = 20.0
#: the agent that replies when the exact solver runs out of time
FALLBACK = "id:1"


class Sessions:
    """Sessions by id (the newest :data:`MAX_SESSIONS`), ``prefix`` + a counter."""

    def __init__(self, prefix: str, what: str, route: str):
        self._items: OrderedDict[str, object] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self.prefix, self.what, self.route = prefix, what, route

    def add(self, make):
        """``make(id)`` under a new id, kept (the oldest dropped past :data:`MAX_SESSIONS`); returned."""
        with self._lock:
            sid = f"{self.prefix}{next(self._ids)}"
        item = make(sid)
        with self._lock:
            self._items[sid] = item
            while len(self._items) > MAX_SESSIONS:
                self._items.popitem(last=False)
        return item

    def get(self, sid: str):
        """The session ``sid``, or a one-line refusal naming the route that starts one."""
        with self._lock:
            item = self._items.get(sid)
        if item is None:
            raise ZerosumError(f"no {self.what} {sid!r}; start one with POST {self.route} "
                               f"(the server keeps the newest {MAX_SESSIONS})")
        return item


# --------------------------------------------------------------------------- poker


class PolicyCache:
    """The bot's policy per game (CFR+, DCFR for hold'em) solved once, on first use, by one thread."""

    def __init__(self):
        self._policies: dict[str, tuple[object, object, dict]] = {}
        self._lock = threading.Lock()

    def get(self, name: str):
        """(game, TabularPolicy, description) of the bot of ``name``, solving it the first time."""
        with self._lock:  # one solve per game even when two first requests come together
            if name not in self._policies:
                self._policies[name] = _solve(name)
            return self._policies[name]


class PublicTreeBot:
    """A hold'em policy of the public tree as the sessions read a bot's policy: the probabilities of
    an information set (hand label + public label) from its node's [actions x hands] table."""

    def __init__(self, policy):
        self.policy = policy
        tree = policy.tree
        self._node = {label: n for n, label in enumerate(tree.labels)}
        self._hand = [{h: i for i, h in enumerate(tree.hand_labels[p])} for p in (0, 1)]

    def action_probabilities(self, label: str, player: int | None = None) -> dict[str, float]:
        """``{action: probability}`` at the information set ``label`` of ``player``."""
        tree = self.policy.tree
        hand, public = label[:4], label[4:]
        node = self._node[public]
        p = int(tree.player[node]) if player is None else int(player)
        column = self.policy.table(node)[:, self._hand[p][hand]]
        return {a: float(x) for a, x in zip(tree.action_labels[node], column)}


def _solve_holdem():
    from ..games import load_game
    from ..public_tree.compile import public_tree
    from ..public_tree.solver import PublicTreeSolver
    from ..solvers.rules import DCFR

    game = load_game("holdem", **HOLDEM_SPOT)
    start = time.perf_counter()
    solver = PublicTreeSolver(public_tree(game), DCFR())
    solver.iterate(ITERATIONS)
    policy = solver.average_policy()
    about = {"source": f"DCFR on the public tree, {ITERATIONS} iterations",
             "nash_conv": float(policy.evaluate()["nash_conv"]), "seconds": time.perf_counter() - start}
    return game, PublicTreeBot(policy), about


def _solve(name: str):
    from ..core.compile import compiled
    from ..core.evaluation import evaluate
    from ..games import load_game
    from ..solvers import SOLVERS

    if name == "holdem":
        return _solve_holdem()
    game = load_game(name)
    start = time.perf_counter()
    solver = SOLVERS["cfr+"](compiled(game))
    solver.run(ITERATIONS)
    policy = solver.average_policy()
    nash_conv = float(evaluate(policy.game, policy).nash_conv)
    about = {"source": f"CFR+, {ITERATIONS} iterations", "nash_conv": nash_conv,
             "seconds": time.perf_counter() - start}
    return game, policy, about


def _faces_bet(betting: str, bet: str) -> bool:
    return betting.endswith(bet)


class PokerRules:
    """What a player sees of a history and how actions are named, for Kuhn's strings (``KQpb``)
    and the poker family's (cards, rounds) histories (Leduc and its relatives)."""

    def __init__(self, game):
        self.game = game
        self.kuhn = game.name == "kuhn"
        self.holdem = game.name == "holdem"  # (hands, dealt, rounds) histories: both hands dealt at once

    def private(self, h, player: int) -> str:
        """``player``'s private card at ``h`` ("" before it is dealt; hold'em: its two cards)."""
        if self.holdem:
            return self.game.hand_labels[h.hands[player]] if h.hands else ""
        cards = h[:2] if self.kuhn else h.cards[:2]
        return cards[player] if len(cards) > player else ""

    def public(self, h) -> str:
        """The public cards at ``h`` (none in Kuhn)."""
        if self.holdem:
            from ..poker.cards import cards_str

            return cards_str(tuple(self.game.board) + tuple(h.dealt))
        return "" if self.kuhn else h.cards[2:]

    def betting(self, h) -> str:
        """The current round's betting at ``h``."""
        return h[2:] if self.kuhn else h.rounds[-1]

    def rounds(self, h) -> list[str]:
        """The betting of every round so far."""
        return [h[2:]] if self.kuhn else list(h.rounds)

    def text(self, h) -> str:
        """The whole history, as the game's information-set labels write it."""
        if self.holdem:
            return ":".join((self.private(h, 0), self.private(h, 1), self.public(h), "/".join(h.rounds)))
        return h if self.kuhn else h.cards + ":" + "/".join(h.rounds)

    def table(self, h, actions=()) -> dict | None:
        """Hold'em, once the hands are dealt: the betting at ``h`` in chips, as the explorer gives it
        (:func:`zerosum.web.explore.betting_at`: ``street``, ``pot``, ``stacks``, ``to_call``, and
        per action of ``actions`` its ``text``, e.g. ``"bet 4 (40 % pot)"``); None elsewhere."""
        if not self.holdem or not h.hands:
            return None
        from .explore import betting_at

        return betting_at(self.game, "::" + "/".join(h.rounds), tuple(actions))

    def words(self, h, action: str) -> str | None:
        """Hold'em: ``action`` at ``h`` in words and chips (``"raise to 8 (27 % pot)"``); else None."""
        table = self.table(h, (action,))
        return None if table is None else table["actions"][0]["text"]

    def name(self, h, action: str) -> str:
        """A person's name of ``action`` at ``h``: check, bet, call, raise or fold."""
        betting = self.betting(h)
        if self.kuhn:
            facing = _faces_bet(betting, "b")
            return {"p": "fold" if facing else "check", "b": "call" if facing else "bet"}[action]
        facing = _faces_bet(betting, "r")
        return {"f": "fold", "c": "call" if facing else "check", "r": "raise" if facing else "bet"}.get(action, action)


class PokerSession:
    """A match of hands against the bot: the current hand's history and everyone's results."""

    def __init__(self, sid, name, game, policy, about, seat, seed):
        self.id, self.name, self.game, self.policy, self.about = sid, name, game, policy, about
        self.rules = PokerRules(game)
        self.rng = np.random.default_rng(seed)
        self.seat = seat          # the person's seat in the current hand
        self.results: list[float] = []
        self.hand = 0
        self.opening = self.new_hand()   # the bot's actions before the person's first turn

    # -- the hand ----------------------------------------------------------------------------
    def new_hand(self) -> list[dict]:
        """Deal the next hand; the bot's actions before the person's first turn."""
        self.hand += 1
        self.h = self.game.root()
        self.log: list[dict] = []
        self.bot_log: list[dict] = []   # the bot's actions with its infosets, shown at the end
        self.over = False
        self.payoff = None
        return self._advance()

    def _advance(self) -> list[dict]:
        """Deal and let the bot act until the person is to act or the hand is over; the bot's actions."""
        game, rules = self.game, self.rules
        bot_actions = []
        while True:
            who = game.player(self.h)
            if who == TERMINAL:
                self._finish()
                return bot_actions
            if who == CHANCE:
                outcomes = game.chance_outcomes(self.h)
                probs = np.array([p for _, p in outcomes], dtype=float)
                k = int(self.rng.choice(len(outcomes), p=probs / probs.sum()))
                before = self.h
                self.h = game.child(self.h, outcomes[k][0])
                self.log.append(self._deal_event(before))
                continue
            if who == self.seat:
                return bot_actions
            infoset = game.infoset(self.h)
            probs = self.policy.action_probabilities(infoset, who)
            actions = list(probs)
            p = np.array([probs[a] for a in actions], dtype=float)
            k = int(self.rng.choice(len(actions), p=p / p.sum()))
            action = actions[k]
            event = {"by": "bot", "action": action, "name": rules.name(self.h, action),
                     "probability": probs[action], "round": len(rules.rounds(self.h))}
            if rules.holdem:
                event["words"] = rules.words(self.h, action)
            self.bot_log.append({"infoset": infoset, "action": action, "probabilities": probs})
            self.log.append(event)
            bot_actions.append(event)
            self.h = game.child(self.h, action)

    def _deal_event(self, before) -> dict:
        rules = self.rules
        if rules.holdem:  # both hands at once, from the two ranges
            return {"by": "chance", "text": f"you are dealt {rules.private(self.h, self.seat)}; the bot gets its hand"}
        n_private = sum(bool(rules.private(before, p)) for p in (0, 1))
        if n_private < 2:  # a private card: the person's own is shown
            if n_private == self.seat:
                return {"by": "chance", "text": f"you are dealt {rules.private(self.h, self.seat)}"}
            return {"by": "chance", "text": "the bot is dealt a card"}
        return {"by": "chance", "text": f"the public card is {rules.public(self.h)[-1]}"}

    def _finish(self) -> None:
        self.over = True
        u0 = float(self.game.payoff(self.h))
        self.payoff = u0 if self.seat == 0 else -u0
        self.results.append(self.payoff)

    def act(self, action) -> list[dict]:
        """The person plays ``action`` (a one-line refusal when illegal, out of turn or after the
        end); the bot's replies until the person is to act again or the hand ends."""
        if self.over:
            raise ZerosumError(f"hand {self.hand} is over; deal the next one with POST /api/play/{self.id}/next")
        if self.game.player(self.h) != self.seat:
            raise ZerosumError("it is not your turn")
        legal = list(self.game.actions(self.h))
        if not isinstance(action, str) or action not in legal:
            named = ", ".join(f"{a} ({self.rules.name(self.h, a)})" for a in legal)
            raise ZerosumError(f"illegal action {action!r}; the legal actions are {named}")
        event = {"by": "you", "action": action, "name": self.rules.name(self.h, action),
                 "round": len(self.rules.rounds(self.h))}
        if self.rules.holdem:
            event["words"] = self.rules.words(self.h, action)
        self.log.append(event)
        self.h = self.game.child(self.h, action)
        return self._advance()

    def next_hand(self) -> list[dict]:
        """After a finished hand: swap seats and deal the next one."""
        if not self.over:
            raise ZerosumError(f"hand {self.hand} is not over yet; act with POST /api/play/{self.id}/act")
        self.seat = 1 - self.seat
        return self.new_hand()

    # -- what the person sees -----------------------------------------------------------------
    def score(self) -> dict:
        """The person's results so far: hands, total, mean and its standard error."""
        n = len(self.results)
        total = float(sum(self.results))
        mean = total / n if n else None
        stderr = float(np.std(self.results, ddof=1) / math.sqrt(n)) if n >= 2 else None
        return {"hands": n, "total": total, "mean": mean, "stderr": stderr}

    def view(self, bot_actions=None) -> dict:
        """What the page shows (JSON): cards the person may see, betting, legal actions, score."""
        rules, game = self.rules, self.game
        to_move = None if self.over else ("you" if game.player(self.h) == self.seat else "bot")
        out = {"id": self.id, "game": self.game.id, "name": POKER_GAMES.get(self.name, POKER_GAMES.get(self.game.id, self.game.id)),
               "bot": self.about, "hand": self.hand, "seat": self.seat,
               "your_cards": rules.private(self.h, self.seat), "public_cards": rules.public(self.h),
               "betting": rules.rounds(self.h), "log": self.log, "to_move": to_move, "over": self.over,
               "bot_actions": bot_actions or [], "score": self.score()}
        legal = list(game.actions(self.h)) if to_move == "you" else []
        out["legal_actions"] = [{"action": a, "name": rules.name(self.h, a)} for a in legal]
        table = rules.table(self.h, legal)
        if table is not None:  # hold'em: the pot, the stacks and the sizes in chips
            for entry, words in zip(out["legal_actions"], table["actions"]):
                entry["words"] = words["text"]
            out["table"] = {"street": table["street"], "pot": table["pot"], "your_stack": table["stacks"][self.seat],
                            "bot_stack": table["stacks"][1 - self.seat],
                            "to_call": table["to_call"] if to_move == "you" else 0.0}
        if self.over:
            out.update(payoff=self.payoff, bot_cards=rules.private(self.h, 1 - self.seat),
                       history=rules.text(self.h), bot_infosets=self.bot_log)
        return out


def _seat(value) -> int:
    if value in (None, ""):
        return 0
    if isinstance(value, bool) or value not in (0, 1, "0", "1"):
        raise ZerosumError(f"seat is 0 (you act first) or 1, got {value!r}")
    return int(value)


def _seed(value):
    if value in (None, ""):
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ZerosumError(f"seed must be a whole number >= 0, got {value!r}")
    return value


# --------------------------------------------------------------------------- Connect Four


class SolverEntry:
    """One exact solver per board size, used by one request at a time."""

    def __init__(self, width: int, height: int):
        from ..perfect.connect4_solver import Connect4Solver

        log2 = 23 if width * height >= 42 else 20
        self.solver = Connect4Solver(width, height, table_size_log2=log2)
        self.lock = threading.Lock()


class Solvers:
    """One :class:`SolverEntry` per board size, made on first use (its tables are kept)."""

    def __init__(self):
        self._items: dict[tuple[int, int], SolverEntry] = {}
        self._lock = threading.Lock()

    def get(self, width: int, height: int) -> SolverEntry:
        """The solver of that board size."""
        with self._lock:
            key = (width, height)
            if key not in self._items:
                self._items[key] = SolverEntry(width, height)
            return self._items[key]


def _scores(entry: SolverEntry, moves: str, seconds: float) -> list[int | None]:
    with entry.lock:
        return entry.solver.analyze(moves, deadline=time.monotonic() + seconds)


def _best(entry: SolverEntry, scores: list) -> int:
    """The 0-based column of the best score, the most central among equals."""
    top = max(s for s in scores if s is not None)
    return next(int(c) for c in entry.solver.order if scores[c] == top)


def solver_reply(game, entry: SolverEntry, state, seconds: float | None = None) -> dict:
    """The solver's move at ``state`` (a dict: 0-based ``move``, ``exact``, ``score``, ``how``), given
    ``seconds`` (default :data:`THINK_SECONDS`) before :data:`FALLBACK` chooses instead."""
    from ..perfect.connect4_solver import SolverTimeout

    seconds = THINK_SECONDS if seconds is None else seconds
    start = time.perf_counter()
    try:
        scores = _scores(entry, state.moves, seconds)
    except SolverTimeout:
        from ..perfect.agents import make_agent

        agent = make_agent(FALLBACK, seed=0)  # a fresh one: its table is of no use to the next move
        agent.reset(game)
        move = agent.choose(game, state)
        return {"move": move, "exact": False, "score": None, "seconds": time.perf_counter() - start,
                "how": f"the exact solver needs more than {seconds:g} s this early; alpha-beta search ({agent.name}) chose"}
    move = _best(entry, scores)
    return {"move": move, "exact": True, "score": scores[move], "seconds": time.perf_counter() - start,
            "how": "the exact solver"}


class Connect4Session:
    """A Connect Four game of a person against the exact solver."""

    def __init__(self, sid, game, entry, state, you: int):
        self.id, self.game, self.entry, self.state, self.you = sid, game, entry, state, you
        self.replies: list[dict] = []

    def over(self) -> bool:
        """Whether the game has ended."""
        return self.game.is_terminal(self.state)

    def solver_turn(self) -> dict | None:
        """Let the solver move if it is to move (called in a worker thread)."""
        if self.over() or self.game.player(self.state) == self.you:
            return None
        reply = solver_reply(self.game, self.entry, self.state)
        self.state = self.game.result(self.state, reply["move"])
        reply = {**reply, "column": reply["move"] + 1}
        del reply["move"]
        self.replies.append(reply)
        return reply

    def check_move(self, column) -> int:
        """The 0-based column of the person's move ``column`` (1-based), or a one-line refusal."""
        g = self.game
        if self.over():
            raise ZerosumError(f"the game is over ({self.result()}); start a new one with POST /api/connect4/new")
        if g.player(self.state) != self.you:
            raise ZerosumError("it is not your turn: the solver is to move")
        if isinstance(column, bool) or not isinstance(column, int):
            raise ZerosumError(f"column must be a whole number 1..{g.width}, got {column!r}")
        if not 1 <= column <= g.width:
            raise ZerosumError(f"column {column} is out of range 1..{g.width}")
        if not g.can_play(self.state, column - 1):
            raise ZerosumError(f"column {column} is full")
        return column - 1

    def result(self) -> str | None:
        """"you win", "the solver wins", "draw", or None while it runs."""
        if not self.over():
            return None
        if self.state.winner is None:
            return "draw"
        return "you win" if self.state.winner == self.you else "the solver wins"

    def view(self, reply=None) -> dict:
        """What the page shows (JSON): the board as rows of X, O and ., whose turn, legal columns."""
        g, s = self.game, self.state
        marks = ("X", "O")
        rows = []
        for r in range(g.height - 1, -1, -1):
            row = ""
            for c in range(g.width):
                bit = 1 << (c * g.h1 + r)
                row += marks[0] if g.stones_of(s, 0) & bit else marks[1] if g.stones_of(s, 1) & bit else "."
            rows.append(row)
        over = self.over()
        winner = None
        if over and s.winner is not None:
            winner = "you" if s.winner == self.you else "solver"
        return {"id": self.id, "width": g.width, "height": g.height, "moves": s.moves, "board": rows,
                "you": marks[self.you], "solver": marks[1 - self.you],
                "to_move": None if over else ("you" if g.player(s) == self.you else "solver"),
                "legal": [c + 1 for c in g.legal_moves(s)], "over": over, "winner": winner,
                "draw": over and s.winner is None, "result": self.result(), "reply": reply}


def _c4_game(body: dict):
    from ..perfect.connect4 import ConnectFour

    width, height = body.get("width", 7), body.get("height", 6)
    for name, v in (("width", width), ("height", height)):
        if isinstance(v, bool) or not isinstance(v, int):
            raise ZerosumError(f"{name} must be a whole number, got {v!r}")
    game = ConnectFour(width, height)
    if width * (height + 1) > 62:
        raise ZerosumError(f"the exact solver takes boards with width*(height+1) <= 62, not {width}x{height}")
    return game


# --------------------------------------------------------------------------- routes


def routes(state) -> list:
    """The play view's routes, on ``state["play"]`` (made here) and the explore view's policies."""
    play = state.setdefault("play", {"policies": PolicyCache(), "hands": Sessions("h", "play session", "/api/play/new"),
                                     "connect4": Sessions("c", "Connect Four game", "/api/connect4/new"),
                                     "solvers": Solvers()})
    policies: PolicyCache = play["policies"]
    hands: Sessions = play["hands"]
    games: Sessions = play["connect4"]
    solvers: Solvers = play["solvers"]

    async def body_of(request) -> dict:
        body = await read_json(request)
        if not isinstance(body, dict):
            raise ZerosumError("send a JSON object")
        return body

    async def new_hand(request: Request):
        body = await body_of(request)
        seat, seed = _seat(body.get("seat")), _seed(body.get("seed"))
        pid = body.get("policy")
        if pid not in (None, ""):
            item = state["policies"].get(str(pid), "table")
            game, policy = item.game, item.policy
            if not (game.name == "kuhn" or hasattr(game.root(), "cards")):
                raise ZerosumError(f"policy {pid} is of {game.id}; the bot plays Kuhn and poker-family games "
                                   f"(Leduc) only")
            chosen = body.get("game")
            if chosen in POKER_GAMES and chosen != game.name:
                # the page sends the game chosen in its list: a policy of another game is refused,
                # not played in its place
                raise ZerosumError(f"policy {pid} is of {game.id}, not {POKER_GAMES[chosen]}; choose "
                                   f"{POKER_GAMES.get(game.name, game.id)} in the game list, or clear the policy id")
            name = game.id
            about = {"source": f"loaded policy {pid}", "nash_conv": item.summary.get("nash_conv")}
        else:
            name = body.get("game", "kuhn")
            if not isinstance(name, str) or name not in POKER_GAMES:
                raise ZerosumError(f"play {name!r}? the bot plays {', '.join(POKER_GAMES)} (Connect Four: "
                                   f"POST /api/connect4/new)")
            game, policy, about = await run_in_threadpool(policies.get, name)
        session = hands.add(lambda sid: PokerSession(sid, name, game, policy, about, seat, seed))
        return JSONResponse(session.view(session.opening))

    async def act(request: Request):
        session = hands.get(request.path_params["sid"])
        body = await body_of(request)
        if "action" not in body:
            raise ZerosumError("send {\"action\": LABEL}, one of legal_actions")
        return JSONResponse(session.view(session.act(body["action"])))

    async def next_hand(request: Request):
        session = hands.get(request.path_params["sid"])
        return JSONResponse(session.view(session.next_hand()))

    async def get_hand(request: Request):
        return JSONResponse(hands.get(request.path_params["sid"]).view())

    async def c4_new(request: Request):
        body = await body_of(request)
        first = body.get("first", "you")
        if first not in ("you", "solver"):
            raise ZerosumError(f"first is \"you\" or \"solver\", got {first!r}")
        game = _c4_game(body)
        moves = body.get("moves", "") or ""
        start = game.from_moves(moves)
        if game.is_terminal(start):
            raise ZerosumError(f"the game after {moves!r} is already over")
        to_move = game.player(start)
        you = to_move if first == "you" else 1 - to_move
        entry = solvers.get(game.width, game.height)
        session = games.add(lambda sid: Connect4Session(sid, game, entry, start, you))
        reply = await run_in_threadpool(session.solver_turn)
        return JSONResponse(session.view(reply))

    async def c4_move(request: Request):
        session = games.get(request.path_params["sid"])
        body = await body_of(request)
        if "column" not in body:
            raise ZerosumError("send {\"column\": N}, a column 1..width")
        col = session.check_move(body["column"])
        session.state = session.game.result(session.state, col)
        reply = await run_in_threadpool(session.solver_turn)
        return JSONResponse(session.view(reply))

    async def c4_scores(request: Request):
        from ..perfect.connect4_solver import SolverTimeout

        session = games.get(request.path_params["sid"])
        if session.over():
            raise ZerosumError(f"the game is over ({session.result()}): no move to score")
        moves = session.state.moves
        try:
            scores = await run_in_threadpool(_scores, session.entry, moves, SCORES_SECONDS)
        except SolverTimeout:
            raise ZerosumError(f"the exact solver needs more than {SCORES_SECONDS:g} s for the scores this early "
                               f"in the game; ask again after a few more moves") from None
        return JSONResponse({"id": session.id, "moves": moves, "scores": scores,
                             "best": max(s for s in scores if s is not None)})

    async def c4_get(request: Request):
        return JSONResponse(games.get(request.path_params["sid"]).view())

    return [Route("/api/play/new", new_hand, methods=["POST"]),
            Route("/api/play/{sid}", get_hand, methods=["GET"]),
            Route("/api/play/{sid}/act", act, methods=["POST"]),
            Route("/api/play/{sid}/next", next_hand, methods=["POST"]),
            Route("/api/connect4/new", c4_new, methods=["POST"]),
            Route("/api/connect4/{sid}", c4_get, methods=["GET"]),
            Route("/api/connect4/{sid}/move", c4_move, methods=["POST"]),
            Route("/api/connect4/{sid}/scores", c4_scores, methods=["GET"])]
