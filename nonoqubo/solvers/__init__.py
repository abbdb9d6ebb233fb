"""Local solvers: one table of samplers (dwave-samplers, dimod's ExactSolver, QUBO++, OpenJij)."""
