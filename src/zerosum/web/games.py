"""The game a page names: a registered name with its parameters as a dict, "key=value" strings or
the text of a params box, or a saved policy's full game id.  Shared by the runs and the explorer.

May import: :mod:`zerosum.games`, :mod:`zerosum.errors`.
"""

from __future__ import annotations

from ..errors import ZerosumError


def _param_names(name: str) -> list[str]:
    """The parameters the registry's game ``name`` takes (empty where it is not known here)."""
    import inspect

    from ..games import REGISTRY

    if name not in REGISTRY:
        return []
    try:
        sig = inspect.signature(REGISTRY[name][0])
    except (TypeError, ValueError):
        return []
    return [p.name for p in sig.parameters.values()
            if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name not in ("self", "max_bytes")]


def split_params(text: str, keys) -> list[str]:
    """``"k=v k=v"`` (or the inside of a game id, ``k=v,k=v``) into ``k=v`` items, cut only where one
    of the game's parameter names ``keys`` starts (after a space or a comma, outside brackets), so
    that values keep their spaces and commas: ``betting=river bet=60%,a raise=2.5x range0=AA,KK``
    is two items.  Without ``keys`` (a game not in the registry) the cuts are at spaces."""
    import re

    text = text.strip()
    if not text:
        return []
    if not keys:
        return text.split()
    names = "|".join(map(re.escape, sorted(keys, key=len, reverse=True)))
    starts, depth, last = [], 0, 0
    for m in re.finditer(rf"(?:^|(?<=[\s,]))(?:{names})=", text):
        for ch in text[last:m.start()]:
            depth += {"[": 1, "(": 1, "{": 1, "]": -1, ")": -1, "}": -1}.get(ch, 0)
        last = m.start()
        if depth <= 0:
            starts.append(m.start())
    if not starts or starts[0] != 0:
        head = text[:starts[0]] if starts else text
        raise ZerosumError(f"a parameter is KEY=VALUE with KEY one of {', '.join(keys)}; got {head.strip()!r}")
    return [text[a:b].strip().rstrip(",").strip() for a, b in zip(starts, [*starts[1:], len(text)])]


def game_from_page(name, params):
    """The game named ``name`` with ``params``: a dict, a list of "key=value" strings, or the text of
    the page's params box (``key=value key=value``; values may hold spaces).  ``name`` may be the
    game's full id as a saved policy names it (``holdem(betting=[river bet=60%],board=...)``); the
    params given beside it override the id's."""
    import json

    from ..games import load_game

    if not isinstance(name, str) or not name.strip():
        raise ZerosumError("give the game's name, e.g. {\"game\": \"leduc\", \"params\": {}, \"policy\": {...}}")
    name = name.strip()
    if name.lower().endswith(".efg"):
        raise ZerosumError("the web app reads registered games only (zerosum games lists them)")
    items: list = []
    if "(" in name and name.endswith(")") and not name.startswith("openspiel:"):
        name, inner = name[:name.index("(")], name[name.index("(") + 1:-1]
        items = split_params(inner, _param_names(name))
    if params is None:
        params = {}
    if isinstance(params, str):
        params = split_params(params, _param_names(name))
    if isinstance(params, list):
        items = [*items, *params]
        params = {}
    if not isinstance(params, dict):
        raise ZerosumError("params must be an object, e.g. {\"board\": \"Ks7d2c9h5s\"}")
    out = {}
    for item in items:
        if not isinstance(item, str) or "=" not in item or not item.split("=", 1)[0].strip():
            raise ZerosumError(f"a parameter is KEY=VALUE, got {item!r}")
        key, value = item.split("=", 1)
        try:
            out[key.strip()] = json.loads(value)
        except json.JSONDecodeError:
            out[key.strip()] = value
    return load_game(name, **{**out, **params})
