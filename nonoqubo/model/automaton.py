"""The automaton of a line's clue: which rows of cell colours a clue accepts.

This module owns :func:`line_automaton`, the deterministic finite automaton of one
clue, as the Gecode chapter on nonograms writes it with ``REG``:
``0* 1^a 0+ 1^b ... 0*`` in black and white.  In colour the symbols are the
colour indices (``0`` the background, ``1..C`` the block colours) and two
blocks of *different* colours may touch (``0*`` between them, not ``0+``).
The CP exports and solvers (MiniZinc's ``regular``, CP-SAT's ``AddAutomaton``)
take the same table.

States are numbered from 1 (``0`` is no state: a missing transition).  State 1
reads the background before the first block; block ``k`` has one state per cell;
after its last cell a gap state reads background until block ``k + 1`` starts.

Examples:
    >>> a = line_automaton([2, 1], [1, 1])
    >>> a.states, a.start, a.finals
    (6, 1, (5, 6))
    >>> a.accepts([0, 1, 1, 0, 1]), a.accepts([1, 1, 1, 0, 0]), a.accepts([1, 1, 0, 0, 1, 0])
    (True, False, True)
    >>> line_automaton([1, 1], [1, 2]).accepts([1, 2])  # different colours touch
    True
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

__all__ = ["Automaton", "line_automaton"]


@dataclass(frozen=True)
class Automaton:
    """A DFA over colour indices ``0 .. symbols - 1``.

    Attributes:
        states: the number of states (``1 .. states``).
        symbols: the number of symbols (the background and every block colour).
        start: the first state (1).
        finals: the accepting states, ascending.
        transitions: ``(state, symbol, next state)`` for every transition that exists.
    """

    states: int
    symbols: int
    start: int
    finals: tuple[int, ...]
    transitions: tuple[tuple[int, int, int], ...]

    def table(self) -> list[list[int]]:
        """``table[q - 1][s]``: the next state from state *q* on symbol *s*, 0 where there is none."""
        out = [[0] * self.symbols for _ in range(self.states)]
        for q, s, r in self.transitions:
            out[q - 1][s] = r
        return out

    def accepts(self, cells: Sequence[int]) -> bool:
        """Whether the automaton accepts the row of colour indices *cells*."""
        step = {(q, s): r for q, s, r in self.transitions}
        q = self.start
        for s in cells:
            q = step.get((q, int(s)), 0)
            if not q:
                return False
        return q in self.finals


def line_automaton(lengths: Sequence[int], colours: Sequence[int], num_colours: int = 1) -> Automaton:
    """The automaton of a clue: block *lengths* with their *colours* (1-based), over ``0 .. num_colours``."""
    lengths, colours = [int(v) for v in lengths], [int(c) for c in colours]
    symbols = max([num_colours, *colours]) + 1
    trans: list[tuple[int, int, int]] = [(1, 0, 1)]  # state 1: the background before the first block
    gap = 1  # the background state before the current block
    state = 1
    last_full = 0  # the state after the previous block's last cell (0: no previous block)
    for k, (length, colour) in enumerate(zip(lengths, colours)):
        first = state + 1
        trans.append((gap, colour, first))
        if last_full and colours[k - 1] != colour:
            trans.append((last_full, colour, first))  # blocks of different colours may touch
        for t in range(first, first + length - 1):
            trans.append((t, colour, t + 1))
        last_full = first + length - 1
        gap = last_full + 1
        trans.append((last_full, 0, gap))
        trans.append((gap, 0, gap))
        state = gap
    finals = (1,) if not lengths else (last_full, gap)
    return Automaton(state, symbols, 1, finals, tuple(sorted(trans)))
