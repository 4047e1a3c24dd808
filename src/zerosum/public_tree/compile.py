"""Which games have a public-tree form, and the cache of compiled trees."""

from __future__ import annotations

from ..errors import ZerosumError
from .form import PublicTree

_CACHE: dict[str, PublicTree] = {}


def has_public_tree(game) -> bool:
    from ..games.poker import PokerGame

    if isinstance(game, PokerGame):
        return True
    try:
        from ..games.holdem import HoldemGame
    except ImportError:
        return False
    return isinstance(game, HoldemGame)


def public_tree(game) -> PublicTree:
    """The public tree of ``game``, built once per game id."""
    found = _CACHE.get(game.id)
    if found is not None:
        return found
    from ..games.poker import PokerGame

    if isinstance(game, PokerGame):
        from .build import poker_public_tree

        found = poker_public_tree(game)
    elif has_public_tree(game):
        found = game.public_tree()
    else:
        raise ZerosumError(f"{game.id} has no public-tree form; use --form history-tree")
    _CACHE[game.id] = found
    return found
