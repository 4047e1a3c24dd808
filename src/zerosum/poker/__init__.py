"""Poker rules that both compiled forms read: cards, ranges, hand strength, and the games.

* :mod:`.cards` -- the 52 cards, hole pairs, boards and their text forms (hand classes like
  ``AKs``, the 13x13 grid);
* :mod:`.ranges` -- ranges in the usual notation (``AA,KQs,T9o+,AhKh:0.5``) as weights per hole pair;
* :mod:`.strength` -- hand strength of 5 to 7 cards, vectorized over hands and boards;
* :mod:`.equity` -- showdown equity of hole pairs against a weighted range, over every runout;
* :mod:`.family` -- the poker family (Kuhn and Lab 15's Leduc are members): rules and exact sizes;
* :mod:`.betting` -- bet sizes in the poker solvers' notation (``60%``, ``2.5x``, ``4c2r``, ``e``, ``a``) and
  the legal actions (labels, chips) at any state of a street;
* :mod:`.holdem` -- Texas hold'em subgames (limit or no-limit) from the flop, turn or river: rules
  and exact sizes;
* :mod:`.spots` -- a hold'em spot in one JSON file, read into ``holdem``'s parameters;
* :mod:`.abstraction` -- card abstraction of the poker family: hands bucketed by E[HS], the abstract
  game and the abstract policy lifted back to the real game.

The games implement :class:`zerosum.core.game.Game` (so the history tree compiles them) and count
their sizes before anything is built; their public trees are built by :mod:`zerosum.public_tree`.

May import: numpy, phevaluator, :mod:`zerosum.core` (the rules API, the memory limit),
:mod:`zerosum.errors`.  Nothing here builds a tree or runs a solver.
"""
