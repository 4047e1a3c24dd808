"""Which games have a public-tree form, and the cache of compiled trees."""

from __future__ import annotations

from ..errors import ZerosumError
from .form import PublicTree
from .memory import release_freed

_CACHE: dict[tuple[str, bool], PublicTree] = {}


def has_public_tree(game) -> bool:
    """Whether ``game`` implements the public-tree protocol: a class attribute
    ``public_tree_builder``, ``"module:function"`` naming the function that builds its
    :class:`~zerosum.public_tree.form.PublicTree` (``builder(game, progress=None, **options)``),
    and ``public_tree_options``, the build options it takes (``("isomorphism",)`` for hold'em).
    A string, not the function: a game's module need not import this package (docs/game-api.md)."""
    spec = getattr(game, "public_tree_builder", None)
    return isinstance(spec, str) and ":" in spec


def _builder(game):
    import importlib

    module, name = game.public_tree_builder.split(":", 1)
    try:
        return getattr(importlib.import_module(module), name)
    except (ImportError, AttributeError) as e:
        raise ZerosumError(f"{game.id}: its public_tree_builder {game.public_tree_builder!r} cannot be loaded "
                           f"({type(e).__name__}: {e})") from None


def _options(game) -> tuple:
    return tuple(getattr(game, "public_tree_options", ()))


def public_tree(game, progress=None, isomorphism: bool = False) -> PublicTree:
    """The public tree of ``game``, built once per game id by the function its protocol names
    (:func:`has_public_tree`).  ``progress(public nodes so far)`` is called about four times a
    second while it is built (not at all when it is cached).  The size was checked when the game
    was made (its constructor counts the public nodes exactly and refuses a game that would not
    fit), so nothing here can run out of memory for minutes first.  ``isomorphism``: hold'em deals
    list one card per class of suit-isomorphic cards
    (:func:`~zerosum.public_tree.holdem_build.holdem_public_tree`); ignored by a game whose
    builder does not take it (the poker family has no suits)."""
    isomorphism = bool(isomorphism) and "isomorphism" in _options(game)
    found = _CACHE.get((game.id, isomorphism))
    if found is not None:
        return found
    if not has_public_tree(game):
        raise ZerosumError(f"{game.id} has no public-tree form; use --form history-tree")
    options = {"isomorphism": isomorphism} if "isomorphism" in _options(game) else {}
    found = _builder(game)(game, progress=progress, **options)
    if not isinstance(found, PublicTree):
        raise ZerosumError(f"{game.id}: its public_tree_builder returned {type(found).__name__}, not a PublicTree")
    _CACHE[(game.id, isomorphism)] = found
    release_freed()  # the build's temporaries, before the solver's sums are touched (.memory)
    return found


def built(game, isomorphism: bool = False) -> PublicTree | None:
    """The public tree of ``game`` if it has been built in this process, else None."""
    return _CACHE.get((game.id, bool(isomorphism) and "isomorphism" in _options(game)))
