"""Commands for perfect-information games: ``search``, ``tournament`` and ``play``."""

from __future__ import annotations

import click

from ..errors import ZerosumError
from .common import compact_moves, console, emit_json, parse_params, progress_bar, progress_status

param_option = click.option("--param", "params", multiple=True, metavar="KEY=VALUE",
                            help="Game parameter (repeatable), e.g. --param width=5; VALUE read as JSON.")
json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of tables.")

DEFAULT_SEARCHES = ("minimax", "negamax", "alphabeta", "negamax_alphabeta", "alphabeta_ordered",
                    "alphabeta_tt", "alphabeta_tt_ordered", "iterative_deepening")


def _game(name, params):
    from ..perfect import load_perfect_game

    return load_perfect_game(name, **parse_params(params))


def state_from_moves(game, text: str | None):
    """The state after moves given on the command line: a Connect Four string such as ``4453``,
    or moves separated by spaces or commas (``5 1 9`` at tic-tac-toe, ``1:2 3:1`` at Nim)."""
    state = game.initial_state()
    if not text:
        return state
    if hasattr(game, "from_moves"):  # Connect Four: "4453", "4 4 5 3" or "4,4,5,3"
        return game.from_moves(compact_moves(text))
    for i, token in enumerate(text.replace(",", " ").split()):
        try:
            state = game.result(state, game.parse_move(state, token))
        except ZerosumError as e:
            raise ZerosumError(f"move {i + 1} of {text!r}: {e}") from None
    return state


#: searches that visit the whole tree below the state (no pruning, no table)
FULL_TREE = ("minimax", "negamax")


def _run_search(name, game, state, depth, time_budget, max_nodes):
    """One search; ``None`` when it would visit more than ``max_nodes`` nodes (0: no limit)."""
    from ..perfect.search import (
        ALGORITHMS,
        NaiveTable,
        NodeBudget,
        SearchBudgetExceeded,
        alphabeta_tt,
        iterative_deepening,
    )

    if name == "iterative_deepening":  # bounded by its time budget
        return iterative_deepening(game, state, time_budget, max_depth=depth)
    g = NodeBudget(game, max_nodes) if max_nodes else game
    try:
        if name == "alphabeta_tt_naive":
            r = alphabeta_tt(g, state, depth, table=NaiveTable(), order=False)
        else:
            fn, kwargs = ALGORITHMS[name]
            r = fn(g, state, depth, **kwargs)
    except SearchBudgetExceeded:
        return None
    r.algorithm = name
    return r


def _skipped(name, nodes, reason):
    return {"algorithm": name, "nodes": nodes, "reason": reason}


@click.command()
@click.argument("game", default="tictactoe")
@click.option("--moves", default=None, help="Search from the position after these moves (e.g. '5 1' or '4453').")
@click.option("--algorithm", "-a", "algorithms", multiple=True,
              help=f"Algorithm (repeatable; default all of {', '.join(DEFAULT_SEARCHES)}; "
                   "also alphabeta_tt_naive, the table that stores every result as exact).")
@click.option("--depth", type=int, default=None, help="Depth limit with the game's heuristic (default: to the end).")
@click.option("--time", "time_budget", type=float, default=10.0, show_default=True,
              help="Time budget of iterative deepening, seconds.")
@click.option("--max-nodes", type=int, default=1_000_000, show_default=True,
              help="Skip a search (and say so) past this many nodes; 0: no limit.")
@param_option
@json_option
def search(game, moves, algorithms, depth, time_budget, max_nodes, params, as_json):
    """Search GAME (tic-tac-toe by default) with each algorithm: value, best move, nodes, table hits.

    At tic-tac-toe every algorithm finds the value 0; alpha-beta visits far fewer nodes than
    minimax, and a transposition table fewer still.
    """
    from ..perfect.search import ALGORITHMS

    g = _game(game, params)
    state = state_from_moves(g, moves)
    known = set(ALGORITHMS) | {"iterative_deepening", "alphabeta_tt_naive"}
    names = list(algorithms) or list(DEFAULT_SEARCHES)
    for n in names:
        if n not in known:
            raise ZerosumError(f"unknown algorithm {n!r}; choose from {', '.join(sorted(known))}")
    if depth is not None and depth < 0:
        raise ZerosumError(f"--depth must be non-negative, got {depth}")
    if not time_budget > 0:
        raise ZerosumError(f"--time must be positive seconds, got {time_budget}")
    if max_nodes < 0:
        raise ZerosumError(f"--max-nodes must be non-negative, got {max_nodes}")
    size = None
    if depth is None:  # measured, not guessed from the moves left
        from ..perfect.search import measure_tree

        size = measure_tree(g, state)
        left = g.max_remaining_moves(state)
        if size.nodes is None and (left is None or left > 24):
            hint = " (or `zerosum analyze connect4 MOVES` for the exact solver)" if g.name == "connect4" else ""
            raise ZerosumError(f"more than 100,000 positions and up to {left} moves remain: too many for a "
                               f"full search; give --depth D{hint}")
    rows, skipped = [], []
    with progress_bar(len(names), f"searching {g.id}", enabled=not as_json, unit="searches") as advance:
        for n in names:
            if n in FULL_TREE and size is not None and size.nodes is not None and max_nodes \
                    and size.nodes > max_nodes:
                skipped.append(_skipped(n, size.nodes, f"the full tree has {size.nodes:,} nodes"))
            else:
                r = _run_search(n, g, state, depth, time_budget, max_nodes)
                if r is None:
                    skipped.append(_skipped(n, max_nodes, f"stopped after {max_nodes:,} nodes"))
                else:
                    rows.append(r.to_dict(g))
            advance(1)
    if not rows:
        raise ZerosumError(f"every search would visit more than {max_nodes:,} nodes "
                           f"({'; '.join(s['algorithm'] + ': ' + s['reason'] for s in skipped)}); "
                           f"give --depth D or a larger --max-nodes")
    over = g.is_terminal(state)
    out = {"game": g.id, "moves": moves or "", "player": g.player(state), "depth": depth,
           "game_over": over, "winner": g.winner(state) if over else None, "results": rows,
           "skipped": skipped, "positions": size.positions if size else None,
           "tree_nodes": size.nodes if size else None}
    if as_json:
        emit_json(out)
        return
    from rich.table import Table

    c = console()
    c.print(g.render(state))
    who = "the first player" if g.player(state) == 0 else "the second player"
    if over:  # no move to search: say who won rather than print "move None" rows
        w = out["winner"]
        c.print("game over: " + ("a draw" if w is None else f"{'the first' if w == 0 else 'the second'} "
                                 f"player won") + f"; values are for {who} (the player who would move next)")
    else:
        c.print(f"values are for {who} (to move); depth {'to the end' if depth is None else depth}")
    t = Table(title=f"search on {g.id}")
    for col in ("algorithm", "value", "move", "nodes", "TT hits", "TT misses", "depth", "seconds"):
        t.add_column(col, justify="left" if col == "algorithm" else "right", no_wrap=True)
    for r in rows:
        tt = r["tt_hits"] + r["tt_misses"] > 0
        t.add_row(r["algorithm"], f"{r['value']:.4g}", "-" if r["move"] is None else str(r["move"]),
                  f"{r['nodes']:,}",
                  f"{r['tt_hits']:,}" if tt else "-", f"{r['tt_misses']:,}" if tt else "-",
                  "end" if r["depth"] is None else str(r["depth"]), f"{r['seconds']:.4f}")
    c.print(t)
    for sk in skipped:
        c.print(f"{sk['algorithm']} skipped: {sk['reason']} (--max-nodes {max_nodes:,})")


def _agent_seed(seed, i):
    return None if seed is None else [seed, i]


@click.command()
@click.argument("game")
@click.option("--agents", "agent_specs", default=None,
              help="Comma-separated agents: random, alphabeta[:DEPTH], id:SECONDS, mcts:PLAYOUTS, solver "
                   "(default: random,alphabeta,mcts:200 at tic-tac-toe and Nim, random,alphabeta:4,mcts:200 "
                   "elsewhere).")
@click.option("--games", "-n", "n_games", type=int, default=10, show_default=True,
              help="Games per pair of agents (who moves first alternates).")
@click.option("--seed", type=int, default=None, help="Random seed (agents' tie-breaking, random moves, playouts).")
@param_option
@json_option
def tournament(game, agent_specs, n_games, seed, params, as_json):
    """Round robin between agents at GAME: wins, draws, losses, time per move and Elo ratings."""
    from ..perfect.agents import make_agent
    from ..perfect.tournament import round_robin

    g = _game(game, params)
    if agent_specs is None:  # `zerosum tournament GAME` as the README shows it: a quick, telling field
        agent_specs = _default_agents(g)
    specs = [s.strip() for s in agent_specs.split(",") if s.strip()]
    agents = [make_agent(s, seed=_agent_seed(seed, i)) for i, s in enumerate(specs)]
    if len(agents) < 2:
        raise ZerosumError("--agents needs at least two agents, e.g. --agents random,alphabeta:4")
    if n_games < 1:
        raise ZerosumError(f"--games must be positive, got {n_games}")
    counts: dict[str, int] = {}
    for a in agents:        # the same spec twice: random, random#2
        counts[a.name] = counts.get(a.name, 0) + 1
        if counts[a.name] > 1:
            a.name = f"{a.name}#{counts[a.name]}"
    for a in agents:        # fail early (e.g. the solver on another game) rather than mid-tournament
        a.reset(g)
    total = n_games * len(agents) * (len(agents) - 1) // 2
    with progress_bar(total, f"tournament on {g.id}", enabled=not as_json, unit="games") as advance:
        res = round_robin(g, agents, n_games, progress=advance)
    out = {"game": g.id, "games_per_pair": n_games, "seed": seed, **res}
    if as_json:
        emit_json(out)
        return
    from rich.table import Table

    c = console()
    t = Table(title=f"tournament on {g.id}: {n_games} game{'' if n_games == 1 else 's'} per pair, first move alternating")
    for col in ("agent", "games", "wins", "draws", "losses", "ms / move", "Elo"):
        t.add_column(col, justify="left" if col == "agent" else "right")
    for r in sorted(res["agents"], key=lambda r: -r["rating"]):
        ms = "-" if r["mean_seconds_per_move"] is None else f"{1000 * r['mean_seconds_per_move']:.2f}"
        t.add_row(r["agent"], str(r["games"]), str(r["wins"]), str(r["draws"]), str(r["losses"]), ms,
                  f"{r['rating']:.0f}")
    c.print(t)
    p = Table(title="pairs (wins-draws-losses of the first named)")
    for col in ("agent", "opponent", "W-D-L"):
        p.add_column(col)
    for r in res["pairs"]:
        p.add_row(r["agent"], r["opponent"], f"{r['wins']}-{r['draws']}-{r['losses']}")
    c.print(p)
    c.print("Elo: Bradley-Terry maximum likelihood, draws as half wins, one virtual draw per pair, mean 1500")


def _default_agents(game) -> str:
    # a weak, a strong and a sampling agent; depth 4 keeps a Connect Four game under a second
    return "random,alphabeta,mcts:200" if game.name in ("tictactoe", "nim") else "random,alphabeta:4,mcts:200"


def _default_agent(game) -> str:
    # the exact solver is perfect but can think for minutes over an early 7x6 move: not a default
    if game.name in ("tictactoe", "nim"):
        return "alphabeta"
    return "id:1"


@click.command()
@click.argument("game", default="connect4")
@click.option("--agent", "agent_spec", default=None,
              help="Opponent: random, alphabeta[:DEPTH], id:SECONDS, mcts:PLAYOUTS, solver "
                   "(default: id:1 at Connect Four, perfect alphabeta at tic-tac-toe and Nim).")
@click.option("--first", is_flag=True, help="Move first (by default the agent does).")
@click.option("--seed", type=int, default=None, help="Random seed of the agent.")
@param_option
def play(game, agent_spec, first, seed, params):
    """Play GAME (Connect Four by default) against an agent in the terminal; 'q' quits."""
    from ..perfect.agents import make_agent

    g = _game(game, params)
    agent = make_agent(agent_spec or _default_agent(g), seed=seed)
    agent.reset(g)
    me = 0 if first else 1
    marks = ("X", "O")
    click.echo(f"{g.id}: you are {marks[me]} ({'first' if me == 0 else 'second'}), "
               f"the agent {agent.name} is {marks[1 - me]}. Type a move, or q to quit.")
    if agent.name == "solver" and g.name == "connect4" and g.width * g.height >= 42:
        click.echo("(the exact solver can think for minutes over its first moves on a full-size board)")
    state = g.initial_state()
    while not g.is_terminal(state):
        if g.player(state) == me:           # the board is drawn when it is the person's turn
            click.echo("")
            click.echo(g.render(state))
            labels = ", ".join(g.move_label(m) for m in g.legal_moves(state))
            while True:
                try:
                    text = click.prompt(f"your move ({labels})", prompt_suffix=" > ", default="",
                                        show_default=False)
                except click.Abort:
                    click.echo("\nbye")
                    return
                if text.strip().lower() in ("q", "quit", "exit"):
                    click.echo("bye")
                    return
                if not text.strip():
                    continue
                try:
                    move = g.parse_move(state, text)
                    break
                except ZerosumError as e:
                    click.echo(f"illegal: {e}; try again")
            state = g.result(state, move)
        else:
            with progress_status(f"{agent.name} is thinking"):
                move = agent.choose(g, state)
            state = g.result(state, move)
            info = ""
            if agent.last is not None:
                info = f" (its evaluation {agent.last.value:+.3g}, {agent.last.stats.nodes:,} nodes)"
            click.echo(f"{agent.name} plays {g.move_label(move)}{info}")
    click.echo("")
    click.echo(g.render(state))
    winner = g.winner(state)
    click.echo("draw" if winner is None else "you win" if winner == me else f"{agent.name} wins")
