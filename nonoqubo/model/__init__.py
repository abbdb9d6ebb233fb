"""The model layer: a puzzle, its variables and the QUBO and constrained models built from them.

``puzzle`` (clues, no I/O) and ``palette`` (colours) describe the nonogram;
``encoding`` holds the domain-wall layout and all of its geometry (which slots a
variable touches, which pairs are wall and order pairs, the left-aligned
picture); ``build`` expands the QUBO from that geometry, ``qubo`` is the model
object, ``constrained`` the 0-1 integer program and ``estimate`` the size of a
model before it is built.  Nothing here reads or writes files.
"""
