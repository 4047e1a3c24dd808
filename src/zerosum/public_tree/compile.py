"""Which games have a public-tree form, and the cache of compiled trees."""

from __future__ import annotations

from ..errors import ZerosumError
from .form import PublicTree

_CACHE: dict[tuple[str, bool], PublicTree] = {}


def has_public_tree(game) -> bool:
    from ..poker.family import PokerGame

    if isinstance(game, PokerGame):
        return True
    try:
        from ..poker.holdem import HoldemGame
    except ImportError:
        return False
    return isinstance(game, HoldemGame)


def public_tree(game, progress=None, isomorphism: bool = False) -> PublicTree:
    """The public tree of ``game``, built once per game id.  ``progress(public nodes so far)`` is
    called about four times a second while it is built (not at all when it is cached).  The size
    was checked when the game was made (its constructor counts the public nodes exactly and
    refuses a game that would not fit), so nothing here can run out of memory for minutes first.
    ``isomorphism``: hold'em deals list one card per class of suit-isomorphic cards
    (:func:`~zerosum.public_tree.holdem_build.holdem_public_tree`); the poker family has no suits."""
    isomorphism = bool(isomorphism) and not _is_family(game)
    found = _CACHE.get((game.id, isomorphism))
    if found is not None:
        return found
    from ..poker.family import PokerGame

    if isinstance(game, PokerGame):
        from .build import poker_public_tree

        found = poker_public_tree(game, progress=progress)
    elif has_public_tree(game):
        from .holdem_build import holdem_public_tree

        found = holdem_public_tree(game, progress=progress, isomorphism=isomorphism)
    else:
        raise ZerosumError(f"{game.id} has no public-tree form; use --form history-tree")
    _CACHE[(game.id, isomorphism)] = found
    return found


def _is_family(game) -> bool:
    from ..poker.family import PokerGame

    return isinstance(game, PokerGame)


def built(game, isomorphism: bool = False) -> PublicTree | None:
    """The public tree of ``game`` if it has been built in this process, else None."""
    return _CACHE.get((game.id, bool(isomorphism) and not _is_family(game)))
