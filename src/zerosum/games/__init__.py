"""Games and the registry behind :func:`zerosum.load_game`.

* :mod:`.kuhn`, :mod:`.leduc` -- Kuhn poker and Lab 15's Leduc hold'em, as the textbooks write them
  (Leduc shares the poker family's betting arithmetic);
* :mod:`.matrix` -- any payoff matrix (rock-paper-scissors among them);
* :mod:`.openspiel` -- any two-player zero-sum turn-based OpenSpiel game (``openspiel:NAME``);
* :mod:`.efg` -- Gambit ``.efg`` files, read and written;
* the registry here: :func:`load_game`, :func:`known_games`, :func:`register`; and
  :func:`load_user_game`, a game class or instance from a Python file or module
  (``FILE.py:NAME``, ``module:NAME``: what ``zerosum solve`` takes for your own game).

The rules API every game implements is :class:`zerosum.core.game.Game` (re-exported here as
``Game``); the poker family and hold'em subgames are in :mod:`zerosum.poker`.

May import: :mod:`zerosum.core` (the rules API, policies for .efg output), :mod:`zerosum.poker`
(the registry lists its games), :mod:`zerosum.errors`, :mod:`zerosum.params`; pyspiel and pygambit
inside functions.  Never a solver, the public tree or the command line.
"""


from __future__ import annotations

from collections.abc import Callable

from ..core.game import CHANCE, TERMINAL, Game
from ..errors import ZerosumError
from ..params import call_with_params
from ..poker.family import PokerGame
from ..poker.holdem import HoldemGame
from .kuhn import KuhnPoker
from .leduc import LeducPoker
from .matrix import MatrixGame, rock_paper_scissors

#: name -> (factory, one-line description)
REGISTRY: dict[str, tuple[Callable[..., Game], str]] = {
    "kuhn": (KuhnPoker, "Kuhn poker: 3 cards, one bet; value -1/18"),
    "leduc": (LeducPoker, "Leduc hold'em as Lab 15 defines it: ranks only, 144 infosets per player"),
    "rps": (rock_paper_scissors, "rock-paper-scissors as a one-shot game"),
    "poker": (PokerGame, "poker family: ranks, copies, rounds, raises, bets, ante (default = Leduc)"),
    "holdem": (HoldemGame, "hold'em subgame: board, pot, stack, range0, range1; limit bets, raises or no-limit betting (--spot FILE.json) (public tree)"),
    "matrix": (MatrixGame, "any payoff matrix for player 0: load_game('matrix', payoffs=[[...]])"),
}

#: a sample value of a required parameter, for the message that asks for it
EXAMPLES = {"payoffs": "'[[1,-1],[-1,1]]'", "board": "Ks7d2c9h"}


def register(name: str, factory: Callable[..., Game], description: str) -> None:
    """Add a game family to the registry (used by modules that define more games)."""
    REGISTRY[name] = (factory, description)


def known_games() -> list[str]:
    return sorted(REGISTRY) + ["openspiel:NAME"]


def load_game(name: str, **params) -> Game:
    """A game by name: a registered one, or ``openspiel:NAME`` for any pyspiel game."""
    if not isinstance(name, str):
        raise ZerosumError(f"a game name is a string, got {type(name).__name__}")
    if name.startswith("openspiel:"):
        from .openspiel import openspiel_game

        if params:
            raise ZerosumError("give OpenSpiel parameters in the name, e.g. openspiel:leduc_poker(players=2)")
        return openspiel_game(name[len("openspiel:"):])
    if name not in REGISTRY:
        from ..perfect.games import PERFECT_GAMES  # only on this error path: the perfect package is not light

        if name in PERFECT_GAMES:  # solve/evaluate take imperfect-information games only
            # full 7x6 Connect Four is too deep for `search` without --depth (depth 4: 0.6 s here)
            how = ("`zerosum search connect4 --depth 4`, or score moves exactly with `zerosum analyze connect4 "
                   "4453`" if name == "connect4" else f"`zerosum search {name}`")
            raise ZerosumError(f"{name} is a perfect-information game: search it with {how} (solve and "
                               f"evaluate take {', '.join(known_games())})")
        raise ZerosumError(f"unknown game {name!r}; known games: {', '.join(known_games())}")
    factory, _ = REGISTRY[name]
    return call_with_params(name, factory, params, hidden=("name", "max_bytes"), examples=EXAMPLES)


def is_user_game(spec: str) -> bool:
    """Whether ``spec`` names a game in Python code: ``FILE.py:NAME`` (or ``FILE.py``) or ``module:NAME``
    (a dotted module name), as ``zerosum solve`` takes it.  ``openspiel:NAME`` is not one."""
    import re

    if not isinstance(spec, str) or spec.startswith("openspiel:"):
        return False
    path, _, name = spec.rpartition(":") if ":" in spec else (spec, "", "")
    if path.lower().endswith(".py"):
        return True
    return bool(re.fullmatch(r"[A-Za-z_]\w*(\.[A-Za-z_]\w*)*", path) and re.fullmatch(r"[A-Za-z_]\w*", name))


def _games_in(module) -> list[str]:
    """The names of the game classes and instances defined in ``module`` (not imported into it)."""
    out = []
    for key, value in vars(module).items():
        if key.startswith("_"):
            continue
        defined_here = isinstance(value, type) and issubclass(value, Game) and value.__module__ == module.__name__
        if defined_here or isinstance(value, Game):
            out.append(key)
    return out


def _import_file(path: str):
    """The Python file ``path`` imported as a module of its own (its folder first on sys.path while
    it runs, as ``python FILE.py`` would have it)."""
    import hashlib
    import importlib.util
    import sys
    from pathlib import Path

    p = Path(path)
    if not p.exists():
        raise ZerosumError(f"cannot read {path!r}: no such file")
    if p.is_dir():
        raise ZerosumError(f"cannot read {path!r}: it is a directory")
    full = p.resolve()
    module_name = f"zerosum_user_{p.stem if p.stem.isidentifier() else 'game'}_" \
                  f"{hashlib.sha1(str(full).encode()).hexdigest()[:8]}"
    if module_name in sys.modules:
        return sys.modules[module_name]
    spec = importlib.util.spec_from_file_location(module_name, full)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module  # dataclasses and pickling look the module up by name
    sys.path.insert(0, str(full.parent))
    try:
        spec.loader.exec_module(module)
    except BaseException as e:
        del sys.modules[module_name]
        if isinstance(e, (KeyboardInterrupt, SystemExit)):
            raise
        raise ZerosumError(f"cannot load {path}: {_where(e, full)}{type(e).__name__}: {_first_line(e)}") from None
    finally:
        try:
            sys.path.remove(str(full.parent))
        except ValueError:
            pass
    return module


def _first_line(e: BaseException) -> str:
    text = str(e).strip()
    return text.splitlines()[0] if text else "(no message)"


def _where(e: BaseException, full) -> str:
    """``line N: `` of the user's file where ``e`` was raised or found (a SyntaxError's own line)."""
    import traceback

    if isinstance(e, SyntaxError) and e.lineno:
        return f"line {e.lineno}: "
    lines = [f.lineno for f in traceback.extract_tb(e.__traceback__) if f.filename == str(full)]
    return f"line {lines[-1]}: " if lines else ""


def load_user_game(spec: str, **params) -> Game:
    """A game defined in Python code: ``FILE.py:NAME`` or ``module:NAME`` (an importable module),
    where NAME is a :class:`Game` subclass (made with ``params``), a function returning a game
    (called with ``params``) or a game instance (taken as it is, without ``params``).  Bad input
    (no such file or name, not a game, an error while importing) is a one-line :class:`ZerosumError`.

    Importing runs the file's code: the command line calls this for the name a user typed; the web
    app never does."""
    import importlib

    if ":" in spec:
        where, _, attr = spec.rpartition(":")
    else:
        where, attr = spec, ""
    if where.lower().endswith(".py"):
        module = _import_file(where)
        shown = where
    else:
        import os
        import sys

        shown = where
        cwd = os.getcwd()
        added = cwd not in sys.path  # a module beside the user, as `python -m` would find it
        if added:
            sys.path.insert(0, cwd)
        try:
            module = importlib.import_module(where)
        except ModuleNotFoundError as e:
            if e.name and (where == e.name or where.startswith(e.name + ".")):
                raise ZerosumError(f"cannot import module {where!r}: no module named {e.name!r} (a file is "
                                   f"named FILE.py:NAME)") from None
            raise ZerosumError(f"cannot load {where}: {type(e).__name__}: {_first_line(e)}") from None
        except Exception as e:  # noqa: BLE001 -- an error inside the user's module, told in one line
            raise ZerosumError(f"cannot load {where}: {type(e).__name__}: {_first_line(e)}") from None
        finally:
            if added:
                try:
                    sys.path.remove(cwd)
                except ValueError:
                    pass
    found = _games_in(module)
    if not attr:
        hint = f"games in it: {', '.join(found)}" if found else "it defines no game (a subclass of zerosum.Game)"
        raise ZerosumError(f"name the game in {shown}: {shown}:NAME ({hint})")
    if not hasattr(module, attr):
        hint = f"games in it: {', '.join(found)}" if found else "it defines no game (a subclass of zerosum.Game)"
        raise ZerosumError(f"{shown} has no {attr!r} ({hint})")
    obj = getattr(module, attr)
    what = f"{shown}:{attr}"
    if isinstance(obj, Game):
        if params:
            raise ZerosumError(f"{what} is a game instance and takes no --param (name its class to set parameters)")
        return obj
    if isinstance(obj, type) and not issubclass(obj, Game) or not callable(obj):
        kind = "a class, not a subclass of zerosum.Game" if isinstance(obj, type) else type(obj).__name__
        raise ZerosumError(f"{what} is not a game ({kind}): name a subclass of zerosum.Game, an instance of one "
                           f"or a function returning one")
    try:
        game = call_with_params(what, obj, params)
    except ZerosumError:
        raise
    except Exception as e:  # noqa: BLE001 -- an error inside the user's class, told in one line
        raise ZerosumError(f"{what}({', '.join(f'{k}={v!r}' for k, v in params.items())}) failed: "
                           f"{type(e).__name__}: {_first_line(e)}") from None
    if not isinstance(game, Game):
        raise ZerosumError(f"{what} returned a {type(game).__name__}, not a game (a subclass of zerosum.Game)")
    return game


__all__ = [
    "CHANCE",
    "REGISTRY",
    "TERMINAL",
    "Game",
    "KuhnPoker",
    "LeducPoker",
    "MatrixGame",
    "is_user_game",
    "known_games",
    "load_game",
    "load_user_game",
    "register",
    "rock_paper_scissors",
]
