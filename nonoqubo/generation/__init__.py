"""Making puzzles: random families drawn by seed, and hard cores repaired from random pictures.

* :mod:`~nonoqubo.generation.families`: a family ``SIZES:DENSITY:COUNT[:SEED]`` and its members, each drawn
  the same way on every machine (optionally until unique, line-solvable or a hard core);
* :mod:`~nonoqubo.generation.repair`: a random picture changed cell by cell until its puzzle is a hard core
  (unique, not settled by one-cell probing), CP-SAT's uniqueness proof kept.

They make :class:`~nonoqubo.model.puzzle.Puzzle` values and nothing else: ``nonoqubo suite --random`` writes
them into an instance library (:mod:`nonoqubo.campaign.suite`), and the benchmarks and tests draw their
puzzles here.  This package imports none of its modules for their side effects.
"""
