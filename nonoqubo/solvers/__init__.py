"""Local solvers: one table of samplers (dwave-samplers, dimod's ExactSolver, QUBO++, OpenJij).

The package owns local sampling; its modules, from the bottom up:

* :mod:`~nonoqubo.solvers.base`: :class:`SampleOptions`, the progress callback, the model as a BQM;
* :mod:`~nonoqubo.solvers.dwave` (``sa``, ``tabu``, ``exact``), :mod:`~nonoqubo.solvers.qbpp`
  (``qbpp``, with its ``--qbpp-worker`` child process), :mod:`~nonoqubo.solvers.openjij`
  (``openjij-sa``, ``openjij-sqa``): one module per sampler family, none importing another;
* :mod:`~nonoqubo.solvers.samplers`: the sampler table and the one place that checks options;
* :mod:`~nonoqubo.solvers.sampling`: :func:`sample` and :func:`solve` (``nonoqubo.solve``).

The package binds no names of its own, so no function hides a module.
"""
