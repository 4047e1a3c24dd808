"""What a solved public tree says: the readings of a policy, apart from the engine that solves.

* :mod:`.analysis`: per hand at a public node, the strategy, reach, EV and equity, the 13x13 grid
  and made hand / draw categories; the values at a node (compiled pass or NumPy), the game value,
  best responses (with locked hands: :func:`~.analysis.locked_exploitability`);
* :mod:`.lbr`: local best response on the public tree, a lower bound on exploitability where the
  exact best response is out of reach;
* :mod:`.solution_file`: the compact ``.zsp`` format (a zip of ``.npy`` members, no pickle), its
  writer and reader;
* :mod:`.saved`: a policy saved as a solution file and read back one block at a time
  (:func:`~.saved.open_solution`), and :func:`~.saved.save_policy` (``.zsp`` or JSON by the path).

Built on the public tree's form, passes and policies (:mod:`zerosum.public_tree`), which never
import this package: the solver and its policies know nothing of reports or files beyond JSON.

May import: numpy, :mod:`zerosum.public_tree`, :mod:`zerosum.poker` (cards, strength, equity),
:mod:`zerosum.core` (memory limits), :mod:`zerosum.files`, :mod:`zerosum.errors`.  Never the
command line, nor :mod:`zerosum.resolving`.
"""
