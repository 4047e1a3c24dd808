"""Keyword parameters given to a game factory by name (``--param KEY=VALUE``), checked against
its signature first, so that a misspelt or missing key is answered with the keys the game takes
rather than with a Python ``TypeError``."""

from __future__ import annotations

import inspect

from .errors import ZerosumError


def _describe(params) -> str:
    if not params:
        return "it takes no parameters"
    return "it takes " + ", ".join(
        p.name if p.default is inspect.Parameter.empty else f"{p.name} (default {_show(p.default)})"
        for p in params)


def _show(default) -> str:
    if isinstance(default, tuple):
        default = list(default)
    return str(default).replace(" ", "")


def call_with_params(name: str, factory, params: dict, hidden=(), examples: dict | None = None):
    """``factory(**params)`` after checking the keys; ``hidden`` names keyword arguments meant for
    programs, not people (left out of the list of keys the message shows); ``examples`` gives a
    sample value per key for the message about a missing one."""
    try:
        sig = inspect.signature(factory)
    except (TypeError, ValueError):  # a builtin without a signature: let it speak
        return factory(**params)
    named = [p for p in sig.parameters.values()
             if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]
    takes_any = any(p.kind is p.VAR_KEYWORD for p in sig.parameters.values())
    shown = [p for p in named if p.name not in hidden]
    known = {p.name for p in named}
    unknown = sorted(k for k in params if k not in known)
    if unknown and not takes_any:
        keys = ", ".join(repr(k) for k in unknown)
        raise ZerosumError(f"invalid parameters for {name}: no parameter {keys}; {_describe(shown)}")
    missing = [p.name for p in named if p.default is inspect.Parameter.empty and p.name not in params]
    if missing:
        example = f" (e.g. --param {missing[0]}={(examples or {}).get(missing[0], '...')})"
        raise ZerosumError(f"invalid parameters for {name}: {', '.join(missing)} is required{example}; "
                          f"{_describe(shown)}")
    return factory(**params)
