"""Loaded policies: information-set tables for small games, hold'em trees and hand grids.

Routes (all JSON; bad input answers one line through :class:`~zerosum.errors.ZerosumError`):

* ``POST /api/policies`` ``{game, params, policy}``: ``policy`` is the object ``zerosum solve
  --save`` writes, a history-tree table (``zerosum.policy``) or a public-tree policy
  (``zerosum.public-policy``); it is checked against the game by the loaders of
  :mod:`zerosum.core.policy` and :mod:`zerosum.public_tree.policy` (never unpickled) and answers
  ``{id, kind: "table" | "holdem", game, ...}`` with the exact NashConv and value;
* ``POST /api/policies`` ``{run: RUN_ID}``: the average policy of a run of the solve view (hold'em:
  on the whole tree where the run's is suit-isomorphic), taken from its solver under the run's
  lock, never through a file;
* ``POST /api/policies/upload?game=NAME&param=k=v...``: the same with the saved file as the raw
  body, under :data:`~zerosum.web.common.MAX_BODY` (64 MiB, the app's cap);
* ``GET /api/policies/ID/infosets?filter=&player=&offset=&limit=`` (tables): rows of information
  sets with their action probabilities, filtered by substring and paged;
* ``GET /api/policies/ID/node?label=`` (public-tree policies): the node's children and the report
  of :func:`zerosum.solutions.analysis.node_analysis` (strategy, reach, EV, equity, 13x13 grid,
  categories), reused as is, never recomputed here; on hold'em with the betting in chips (pot,
  stacks, each action's amount and share of the pot: :func:`betting_at`) and each hand's EQR;
  each player's ``range_ev`` (:func:`range_ev`);
* ``GET /api/policies/ID/cards?node=`` (public-tree policies, a chance node): per card dealt, the
  acting range's action frequencies and both players' range EVs at the node after it
  (:func:`card_summary`), the figures the node's own report gives.

The evaluation is exact and done once, at upload: a Leduc table evaluates in milliseconds, and a
public-tree policy through the compiled kernels of :meth:`PublicPolicy.evaluate`.

A node's report and a chance node's card summary are kept per policy once made (the newest
:data:`MAX_CACHED`), and one analysis runs at a time (the compiled pass reuses one workspace per
tree).  On a tree of :data:`WARM_NODES` public nodes or more (a flop), a node of the first street
costs a pass over its whole subtree and the flop's equity (0.5 to 3 s each on the flop of
``../shared/data/poker-spots``), so a thread computes those nodes' reports and card summaries
after loading, the root first; the summary's ``warm: {done, total}`` says how far it is.
"""

from __future__ import annotations

import itertools
import threading
from collections import OrderedDict

import numpy as np
from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.responses import JSONResponse
from starlette.routing import Route

from ..errors import ZerosumError
from .common import read_json
from .games import _param_names, split_params
from .games import game_from_page as _game

#: policies kept per server; the oldest is dropped past this (a hold'em tree can weigh 100s of MB)
MAX_POLICIES = 8
#: the most infoset rows one page answers
MAX_ROWS = 500
#: node reports and card summaries kept per loaded policy
MAX_CACHED = 256
#: hold'em trees from this many public nodes get their first street's reports made after loading
WARM_NODES = 100_000
#: one analysis at a time: :func:`zerosum.solutions.analysis.node_analysis` reuses one workspace
#: per tree (its compiled pass's vectors), which two threads must not share
_ANALYSIS = threading.Lock()

TABLE_FORMAT = "zerosum.policy"
PUBLIC_FORMAT = "zerosum.public-policy"


class LoadedPolicy:
    """One policy with its game: ``kind`` "table" (history tree) or "holdem" (public tree)."""

    def __init__(self, pid: str, kind: str, game, policy, summary: dict):
        self.id, self.kind, self.game, self.policy, self.summary = pid, kind, game, policy, summary
        self.index = None  # public label -> node (hold'em), made on first use
        self.cache: OrderedDict = OrderedDict()  # ("node" | "cards", label) -> the answer, newest last
        self.cache_lock = threading.Lock()


class PolicyStore:
    """The policies loaded into this server, by id (the newest :data:`MAX_POLICIES`)."""

    def __init__(self):
        self._items: OrderedDict[str, LoadedPolicy] = OrderedDict()
        self._ids = itertools.count(1)
        self._lock = threading.Lock()

    def add(self, game, data, source: str = "the policy") -> LoadedPolicy:
        """Check ``data`` (a parsed policy file) against ``game``, evaluate it, keep it."""
        kind, policy, ev = _load(game, data, source)
        return self.keep(game, kind, policy, ev)

    def keep(self, game, kind: str, policy, ev: dict, **extra) -> LoadedPolicy:
        """Keep an evaluated policy (``extra`` goes into its summary)."""
        with self._lock:
            pid = f"p{next(self._ids)}"
        summary = {"id": pid, "kind": kind, "game": game.id, "name": game.name, **ev}
        if kind == "table":
            summary["infosets"] = [len(t.infoset_labels) for t in policy.game.treeplexes]
        else:
            tree = policy.tree
            summary.update(root=tree.labels[0], public_nodes=tree.n_nodes, hands=list(tree.n_hands))
            if _is_holdem(game):
                summary.update(board=game.board_text, pot=float(game.pot), stack=float(game.stack))
        summary.update(extra)
        item = LoadedPolicy(pid, kind, game, policy, summary)
        with self._lock:
            self._items[pid] = item
            while len(self._items) > MAX_POLICIES:
                self._items.popitem(last=False)
        if kind == "holdem" and policy.tree.n_nodes >= WARM_NODES:
            jobs = _first_street(policy.tree)
            summary["warm"] = {"done": 0, "total": len(jobs)}  # before the summary is answered
            threading.Thread(target=_warm, args=(self, item, jobs), name=f"warm-{pid}", daemon=True).start()
        return item

    def holds(self, item: LoadedPolicy) -> bool:
        """Whether ``item`` is still kept (not dropped for newer ones)."""
        with self._lock:
            return self._items.get(item.id) is item

    def get(self, pid: str, kind: str | None = None) -> LoadedPolicy:
        """The loaded policy ``pid`` (of ``kind`` if given), or a one-line error naming the right route."""
        with self._lock:
            item = self._items.get(pid)
        if item is None:
            raise ZerosumError(f"no loaded policy {pid!r}; upload one with POST /api/policies "
                               f"(the server keeps the newest {MAX_POLICIES})")
        if kind is not None and item.kind != kind:
            other = "infosets" if item.kind == "table" else "node"
            raise ZerosumError(f"policy {pid} is a {item.kind} policy; read it with GET /api/policies/{pid}/{other}")
        return item


def _load(game, data, source: str):
    """(kind, policy, evaluation dict) of a parsed policy file on ``game``."""
    if not isinstance(data, dict):
        raise ZerosumError(f"{source} is not a zerosum policy file (a JSON object written by zerosum solve --save)")
    fmt = data.get("format")
    if fmt == TABLE_FORMAT:
        from ..core.compile import compiled
        from ..core.evaluation import evaluate
        from ..core.policy import TabularPolicy

        policy = TabularPolicy.from_dict(compiled(game), data, source=source)
        ev = evaluate(policy.game, policy).to_dict()
        return "table", policy, ev
    if fmt == PUBLIC_FORMAT:
        from ..public_tree.compile import has_public_tree, public_tree
        from ..public_tree.policy import PublicPolicy

        if not has_public_tree(game):
            raise ZerosumError(f"{source} is a public-tree policy and {game.name} has no public tree; "
                               f"load it with its own game (e.g. holdem with its board and ranges)")
        policy = PublicPolicy.from_dict(public_tree(game), data, source=source)
        return "holdem", policy, _public_ev(policy)
    raise ZerosumError(f"{source} is not a zerosum policy file (format {fmt!r}; zerosum solve GAME --save "
                       f"POLICY.json writes one)")


def _public_ev(policy) -> dict:
    """The exact evaluation of a public-tree policy (its compiled best responses)."""
    ev = policy.evaluate()
    nc = float(ev["nash_conv"])
    return {"value": float(ev["value"]), "best_response_values": [float(v) for v in ev["best_response_values"]],
            "nash_conv": nc, "exploitability": nc / 2}


def _is_holdem(game) -> bool:
    """A hold'em subgame (betting rules, pot and stacks in chips), not another public-tree game."""
    return all(hasattr(game, k) for k in ("rules", "pot", "stack", "board_text"))


def from_run(store: PolicyStore, runs, rid) -> LoadedPolicy:
    """The average policy of the solve view's run ``rid``, loaded into ``store``: a hold'em run's
    from its solver under the run's lock (on the whole tree where the run's is suit-isomorphic, as
    its download is), another run's through the file it downloads; evaluated exactly as a file."""
    from .runs import HoldemRun, _policy

    if not isinstance(rid, str) or not rid:
        raise ZerosumError("send {\"run\": RUN_ID} (an id of GET /api/runs)")
    run = runs.get(rid)
    if run.solver is None or run.iteration == 0:
        raise ZerosumError(f"run {run.id} has no iteration yet: no policy to explore")
    if not isinstance(run, HoldemRun):
        data = _policy(run)
        kind, policy, ev = _load(run.game, data, f"run {run.id}'s policy")
    else:
        with run.lock:
            policy = run.solver.average_policy()
        if policy.tree.iso is not None:
            from ..public_tree.holdem_build import holdem_public_tree

            policy = policy.on_full_tree(holdem_public_tree(run.game))
        # as its downloaded file holds it (probabilities to 9 decimals, renormalized as a file's on
        # loading), so that the figures here are those of ``zerosum evaluate`` on that file
        from ..public_tree.policy import PublicPolicy

        policy = PublicPolicy.from_sums(policy.tree, [np.round(p, 9) for p in policy.probs], in_place=True)
        kind, ev = "holdem", _public_ev(policy)
    return store.keep(run.game, kind, policy, ev, run=run.id, iteration=run.iteration,
                      params=getattr(run, "params", None))


def cached(item: LoadedPolicy, what: str, label) -> dict:
    """:func:`node_report` (``what`` "node") or :func:`card_summary` ("cards") at ``label``, made
    once per policy (one analysis at a time: see :data:`_ANALYSIS`)."""
    label = item.policy.tree.labels[0] if label in (None, "") else label
    key = (what, label)
    with item.cache_lock:
        hit = item.cache.get(key)
        if hit is not None:
            item.cache.move_to_end(key)
            return hit
    with _ANALYSIS:
        with item.cache_lock:  # made meanwhile (the warming thread)
            hit = item.cache.get(key)
        if hit is None:
            hit = (node_report if what == "node" else card_summary)(item, label)
    with item.cache_lock:
        item.cache[key] = hit
        while len(item.cache) > MAX_CACHED:
            item.cache.popitem(last=False)
    return hit


def _first_street(tree) -> list[tuple[str, str]]:
    """("node", label) of the first street's nodes (up to and including the chance nodes that deal
    the next card), the root first, then ("cards", label) of those chance nodes."""
    from ..public_tree.form import CHANCE_NODE, DECISION

    todo, level = [], [0]
    while level:
        todo.extend(level)
        nxt = []
        for n in level:
            if int(tree.kind[n]) == DECISION:
                first = int(tree.first_child[n])
                nxt.extend(c for c in range(first, first + int(tree.n_children[n]))
                           if int(tree.kind[c]) in (DECISION, CHANCE_NODE))
        level = nxt
    return [("node", tree.labels[n]) for n in todo] + \
        [("cards", tree.labels[n]) for n in todo if int(tree.kind[n]) == CHANCE_NODE]


def _warm(store: PolicyStore, item: LoadedPolicy, jobs: list) -> None:
    """Make the answers of ``jobs`` (:func:`_first_street`) while ``item`` is kept."""
    for k, (what, label) in enumerate(jobs):
        item.summary["warm"] = {"done": k, "total": len(jobs)}
        if not store.holds(item):  # dropped from the store: let it go
            return
        try:
            cached(item, what, label)
        except Exception:  # noqa: BLE001, S110 - a node the analysis refuses answers its error when clicked
            pass
    item.summary["warm"] = {"done": len(jobs), "total": len(jobs)}


def infoset_rows(item: LoadedPolicy, text: str = "", player=None, offset=0, limit=100) -> dict:
    """The page of information-set rows whose label contains ``text`` (of ``player`` if given)."""
    offset, limit = _int(offset, "offset", 0), _int(limit, "limit", 1)
    limit = min(limit, MAX_ROWS)
    if player not in (None, ""):
        player = _int(player, "player", 0)
        if player > 1:
            raise ZerosumError(f"player is 0 or 1, got {player}")
    else:
        player = None
    text = text or ""
    matched = [(p, label, probs) for p, label, probs in item.policy.rows()
               if (player is None or p == player) and text in label]
    rows = [{"infoset": label, "player": p, "actions": list(probs), "probabilities": list(probs.values())}
            for p, label, probs in matched[offset:offset + limit]]
    return {"id": item.id, "total": len(matched), "offset": offset, "limit": limit, "rows": rows}


def _int(value, name: str, low: int) -> int:
    try:
        out = int(value)
    except (TypeError, ValueError):
        raise ZerosumError(f"{name} must be a whole number, got {value!r}") from None
    if out < low:
        raise ZerosumError(f"{name} must be at least {low}, got {out}")
    return out


def node_report(item: LoadedPolicy, label: str | None) -> dict:
    """The analysis report at the public node ``label`` (the root when empty), with its children
    (label and action: the action's name, or the card(s) a chance node deals) and its path."""
    from ..poker.cards import cards_str
    from ..solutions.analysis import node_analysis, node_board, to_json

    tree = item.policy.tree
    index = node_report_index(item)
    label = tree.labels[0] if label in (None, "") else label
    if not isinstance(label, str) or label not in index:
        raise ZerosumError(_bad_label(tree, str(label)))
    node = index[label]
    raw = node_analysis(tree, item.policy, node)
    for entry in raw["players"]:
        entry["range_ev"] = range_ev(entry)
    report = to_json(raw)
    report["id"] = item.id
    report["children"] = [{"label": tree.labels[c], "action": _step(tree, c, node_board, cards_str),
                           "kind": ("decision", "chance", "fold", "showdown")[int(tree.kind[c])]}
                          for c in range(int(tree.first_child[node]), int(tree.first_child[node] + tree.n_children[node]))]
    path = []
    n = node
    while n >= 0:
        path.append(n)
        n = int(tree.parent[n])
    report["path"] = [{"label": tree.labels[n], "action": _step(tree, n, node_board, cards_str)} for n in reversed(path)]
    if _is_holdem(item.game):
        game = item.game
        here = betting_at(game, label, report["actions"])
        report["betting"] = here
        for step in report["path"]:
            step.update(_step_words(game, step["label"], step["action"]))
        # the children's words beside them (each child keeps its {label, action, kind})
        here["children"] = [{"label": c["label"], **_step_words(game, c["label"], c["action"])}
                            for c in report["children"]]
        for entry in report["players"]:
            entry["eqr"] = _eqr(entry, here["contributions"][entry["player"]], here["pot"])
    return report


def range_ev(entry: dict) -> float | None:
    """A player's range EV at a node (chips): the per-hand EVs averaged with weight P(hand | node),
    as the node's report has them (None where no hand reaches the node)."""
    w, ev = np.asarray(entry["weight"], dtype=float), np.asarray(entry["ev"], dtype=float)
    ok = np.isfinite(ev) & (w > 0)
    return float(ev[ok] @ w[ok]) if ok.any() else None


def card_summary(item: LoadedPolicy, label: str | None) -> dict:
    """Per card that the chance node ``label`` deals: the node after it (``label``, ``card``,
    ``kind``), its acting ``player`` (None at a node where nobody acts), ``actions`` (with their
    words on hold'em: ``texts``), the acting range's ``action_mix`` and each player's range EV
    (``ev``, chips), the very figures :func:`node_report` gives at that node (equity left out)."""
    from ..poker.cards import cards_str
    from ..public_tree.form import CHANCE_NODE
    from ..solutions.analysis import node_analysis, node_board

    tree = item.policy.tree
    node_report_index(item)
    label = tree.labels[0] if label in (None, "") else label
    if not isinstance(label, str) or label not in item.index:
        raise ZerosumError(_bad_label(tree, str(label)))
    node = item.index[label]
    if int(tree.kind[node]) != CHANCE_NODE:
        raise ZerosumError(f"node {label!r} is not a chance node; the per-card summary is for the node that "
                           f"deals the turn or the river")
    first = int(tree.first_child[node])
    cards = []
    for c in range(first, first + int(tree.n_children[node])):
        raw = node_analysis(tree, item.policy, c, with_equity=False)
        actor = raw["player"]
        entry = {"label": tree.labels[c], "card": _step(tree, c, node_board, cards_str), "kind": raw["kind"],
                 "player": actor, "actions": raw["actions"], "action_mix": None,
                 "ev": [range_ev(e) for e in raw["players"]]}
        if actor is not None:
            entry["action_mix"] = [float(x) for x in raw["players"][actor]["action_mix"]]
        if _is_holdem(item.game):
            entry["texts"] = [a["text"] for a in betting_at(item.game, entry["label"], entry["actions"])["actions"]]
        cards.append(entry)
    return {"id": item.id, "label": label, "cards": cards}


def node_report_index(item: LoadedPolicy) -> dict:
    """The policy's public label -> node index, made once (tuple.index is a scan per call)."""
    if item.index is None:
        item.index = {lab: k for k, lab in enumerate(item.policy.tree.labels)}
    return item.index


def _chips(x: float) -> str:
    """Chips as a player reads them: 50, 12.5."""
    x = round(float(x), 2)
    return str(int(x)) if x.is_integer() else f"{x:g}"


def _rounds(label: str) -> tuple[str, ...]:
    """The betting per street of a hold'em public label (``":5s:cc/b50"`` -> ``("cc", "b50")``)."""
    parts = label.split(":", 2)
    return tuple(parts[2].split("/")) if len(parts) == 3 else ("",)


def betting_at(game, label: str, actions=()) -> dict:
    """The betting at the hold'em public node ``label``, in chips, replayed from its label with the
    game's own rules (:func:`zerosum.poker.betting.replay`): ``pot`` (both players' chips in it,
    the starting pot included), ``contributions`` (each player's, the starting pot's halves
    included), ``stacks`` (each player's chips behind), ``effective_stack``, ``to_call`` (what the
    player to act must add to call; 0 when not facing a bet), ``street`` and, per action in
    ``actions``, ``{label, kind, name, chips, street_chips, pot_pct, text}``: ``chips`` what the
    action adds to the pot, ``street_chips`` the player's total on this street after it (a bet's or
    raise's size as the label counts it), ``pot_pct`` a bet's size in % of the pot before it, a
    raise's increment over the call in % of the pot after the call, and ``text`` the words
    (``"bet 50 (75 % pot)"``, ``"raise to 150 (83 % pot)"``, ``"call 50"``, ``"check"``,
    ``"fold"``, ``"all-in 900 (450 % pot)"``); :func:`node_report` adds ``children``: per child
    ``{label, text, pot}`` (the step in words, the pot after it; a dealt card: ``"deal 5s"``)."""
    from ..poker.betting import STREET_NAMES, replay

    rounds = _rounds(label)
    st = replay(game.rules, game.pot, game.stack, rounds)
    put = [float(x) for x in st.put]
    full = game.pot / 2 + game.stack  # what each player started the subgame with, in the pot or behind
    me = st.actions % 2
    to_call = max(put[1 - me] - put[me], 0.0) if st.facing else 0.0
    pot = put[0] + put[1]
    out = {"street": STREET_NAMES[min(len(game.board) - 3 + len(rounds) - 1, 2)],
           "pot": pot, "contributions": put, "stacks": [full - x for x in put],
           "effective_stack": min(full - x for x in put), "to_call": to_call, "actions": []}
    for a in actions:
        after = replay(game.rules, game.pot, game.stack, rounds[:-1] + (rounds[-1] + a,))
        added = float(after.put[me]) - put[me]
        street = float(after.put[me]) - float(st.start)
        if a == "f":
            kind, text, pct = "fold", "fold", None
        elif a == "c":
            kind = "call" if st.facing else "check"
            text, pct = (f"call {_chips(added)}", None) if st.facing else ("check", None)
        else:
            allin = after.allin and not st.allin
            if st.facing:
                pot_after_call = 2 * max(put)
                pct = 100 * (added - to_call) / pot_after_call
                kind = "all-in" if allin else "raise"
                text = f"{'all-in' if allin else 'raise to'} {_chips(street)} ({pct:.0f} % pot)"
            else:
                pct = 100 * added / pot
                kind = "all-in" if allin else "bet"
                text = f"{'all-in' if allin else 'bet'} {_chips(street)} ({pct:.0f} % pot)"
        out["actions"].append({"label": a, "kind": kind, "chips": added, "street_chips": street,
                               "pot_pct": pct, "text": text})
    return out


def _step_words(game, label: str, step: str) -> dict:
    """``text`` (the step in words and chips) and ``pot`` (after it) of a path entry or a child."""
    words = "root"
    if step != "root":
        rounds = _rounds(label)
        if rounds[-1] and step == _last_token(rounds[-1]):
            before = rounds[:-1] + (rounds[-1][: -len(step)],)
            parent = ":".join(label.split(":", 2)[:2]) + ":" + "/".join(before)
            words = betting_at(game, parent, (step,))["actions"][0]["text"]
        else:
            words = f"deal {step}"
    return {"text": words, "pot": betting_at(game, label)["pot"]}


def _last_token(betting: str) -> str:
    from ..poker.betting import tokens

    toks = tokens(betting)
    return toks[-1] if toks else ""


def _eqr(entry: dict, put: float, pot: float) -> list:
    """Each hand's equity realization at the node: (EV + the chips the player already has in the
    pot) / (equity x pot), the share of its equity in the pot that the hand's EV realizes (1 when
    the hand checks down to showdown); None where equity or EV is unknown or the equity is 0."""
    out = []
    for ev, eq in zip(entry.get("ev") or [], entry.get("equity") or [None] * len(entry.get("ev") or [])):
        out.append(None if ev is None or eq is None or eq <= 0 else (ev + put) / (eq * pot))
    return out


def _step(tree, node: int, node_board, cards_str) -> str:
    """What led from the parent to ``node``: an action name or the card(s) dealt."""
    parent = int(tree.parent[node])
    if parent < 0:
        return "root"
    acts = tree.action_labels[parent]
    k = node - int(tree.first_child[parent])
    if acts and 0 <= k < len(acts):
        return acts[k]
    before, after = node_board(tree, parent), node_board(tree, node)
    if before is not None and after is not None:
        return cards_str(tuple(c for c in after if c not in before))
    return tree.labels[node]


def _bad_label(tree, label: str) -> str:
    """One line naming the valid children of the deepest node that ``label`` extends."""
    parent = 0
    best = ""
    for k, lab in enumerate(tree.labels):
        if label.startswith(lab) and len(lab) > len(best):
            parent, best = k, lab
    first, n = int(tree.first_child[parent]), int(tree.n_children[parent])
    children = [tree.labels[first + k] for k in range(n)]
    shown = ", ".join(map(repr, children[:12])) + (f" and {len(children) - 12} more" if len(children) > 12 else "")
    return (f"no public node {label!r} in {tree.game_id}; the children of {tree.labels[parent]!r} are "
            f"{shown or 'none (a terminal)'}")


def routes(state) -> list:
    """The explore view's routes, on the server's ``state["policies"]`` store."""
    store: PolicyStore = state["policies"]

    async def post_policy(request: Request):
        body = await read_json(request)
        if isinstance(body, dict) and "run" in body and "policy" not in body:
            item = await run_in_threadpool(from_run, store, state["runs"], body["run"])
            return JSONResponse(item.summary)
        if not isinstance(body, dict) or "policy" not in body:
            raise ZerosumError("send {\"game\": NAME, \"params\": {...}, \"policy\": {the saved policy JSON}}, "
                               "{\"run\": RUN_ID}, or the file itself to POST /api/policies/upload?game=NAME")
        game = _game(body.get("game"), body.get("params"))
        item = await run_in_threadpool(store.add, game, body["policy"])
        return JSONResponse(item.summary)

    async def upload(request: Request):
        data = await read_json(request)
        # the game: ?game= (a name or a full id), else the id the saved file names
        name = request.query_params.get("game") or (data.get("game") if isinstance(data, dict) else None)
        if not name:
            raise ZerosumError("name the policy's game: POST /api/policies/upload?game=NAME (the file names none)")
        name = name.strip()
        saved = data.get("game") if isinstance(data, dict) else None
        if "(" not in name and isinstance(saved, str) and saved.startswith(name + "("):
            name = saved  # a short name defers to the file's full id of the same game; params below override it
        items = request.query_params.getlist("param")
        text = request.query_params.get("params", "")
        if text.strip():
            items = [*items, *split_params(text, _param_names(name.split("(")[0]))]
        game = _game(name, items)
        item = await run_in_threadpool(store.add, game, data, "the uploaded file")
        return JSONResponse(item.summary)

    async def get_policy(request: Request):
        return JSONResponse(store.get(request.path_params["pid"]).summary)

    async def infosets(request: Request):
        item = store.get(request.path_params["pid"], "table")
        q = request.query_params
        return JSONResponse(infoset_rows(item, q.get("filter", ""), q.get("player"), q.get("offset", 0),
                                         q.get("limit", 100)))

    async def cards(request: Request):
        item = store.get(request.path_params["pid"], "holdem")
        return JSONResponse(await run_in_threadpool(cached, item, "cards", request.query_params.get("node")))

    async def node(request: Request):
        item = store.get(request.path_params["pid"], "holdem")
        report = await run_in_threadpool(cached, item, "node", request.query_params.get("label"))
        return JSONResponse(report)

    return [Route("/api/policies", post_policy, methods=["POST"]),
            Route("/api/policies/upload", upload, methods=["POST"]),
            Route("/api/policies/{pid}", get_policy, methods=["GET"]),
            Route("/api/policies/{pid}/infosets", infosets, methods=["GET"]),
            Route("/api/policies/{pid}/node", node, methods=["GET"]),
            Route("/api/policies/{pid}/cards", cards, methods=["GET"])]
