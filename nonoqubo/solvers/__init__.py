"""Local solvers: one table of samplers (dwave-samplers, dimod's ExactSolver, QUBO++, OpenJij).

The package owns local sampling; its modules, from the bottom up:

* :mod:`~nonoqubo.solvers.base`: :class:`SampleOptions`, the progress callback, the model as a BQM;
* :mod:`~nonoqubo.solvers.dwave` (``sa``, ``tabu``, ``exact``), :mod:`~nonoqubo.solvers.qbpp`
  (``qbpp``, with its ``--qbpp-worker`` child process), :mod:`~nonoqubo.solvers.openjij`
  (``openjij-sa``, ``openjij-sqa``), :mod:`~nonoqubo.solvers.cpsat` (``cpsat``), :mod:`~nonoqubo.solvers.qpu`
  (``mock-dwave``, ``dwave``: the table's entries of the QPU road, :mod:`nonoqubo.qpu.sampler`): one module
  per sampler family, none importing another;
* :mod:`~nonoqubo.solvers.samplers`: the sampler table (each sampler's facts: deterministic, on a QPU,
  what times it) and the one place that checks options;
* :mod:`~nonoqubo.solvers.options`: every option of a solve defined once (name, value, help);
* :mod:`~nonoqubo.solvers.request`: :class:`SolveRequest`, the one value a solve is asked;
* :mod:`~nonoqubo.solvers.sampling`: :func:`prepare`, :func:`sample` and :func:`solve` (``nonoqubo.solve``).

The package binds no names of its own, so no function hides a module.
"""
