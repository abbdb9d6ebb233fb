"""The model layer: a puzzle, its variables and the QUBO and constrained models built from them.

``puzzle`` (clues, no I/O) and ``palette`` (colours) describe the nonogram;
``encoding`` holds the layout (lines, blocks, variables, labels, shifts <->
grids) and ``Completion`` (a reduced assignment filled with its fixings);
``geometry`` answers, once, every question about where a variable lands and
which pairs it penalises (slot entries with their signs, the left-aligned
pictures, the wall-shape and block-order families) for the domain wall, and
``onehot`` the same for the one-hot encoding; ``weights`` the penalty weights;
``encodings`` registers every encoding as one object (geometry, builder, size
counters, label letters, report words) and looks a name up once;
``build`` builds the QUBO in any of them (``build_domainwall``, ``build_onehot``: the builders),
``qubo`` is the model object, ``constrained`` the 0-1 integer program and
``estimate`` the size of a model before it is built.  Nothing here reads or
writes files.
"""
