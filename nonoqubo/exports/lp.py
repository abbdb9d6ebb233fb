r"""CPLEX LP text of the constrained model, for MIP solvers (HiGHS, SCIP, CBC, Gurobi, CPLEX).

The constrained form (:mod:`nonoqubo.model.constrained`) written in the CPLEX LP
grammar (IBM CPLEX *File Formats Reference*, "LP file format"; the same
dialect HiGHS, SCIP, CBC, Gurobi and ``dimod.lp`` read)::

    \ comment lines (anything after a backslash)
    Minimize
     obj: 0 y0_0_0
    Subject To
     cell_0_0: - 1 y0_0_0 + 1 z0_0_0 = 0
     wall_y0_k0_p0: + 1 y0_0_0 - 1 y0_0_1 >= 0
     order_y0_k0_p0: - 1 y0_0_0 + 1 y0_1_0 >= 0
    Binary
     y0_0_0 y0_0_1 y0_1_0 z0_0_0
    End

* The objective is zero (any feasible point is a solution); it names one
  variable with a zero coefficient, the form every reader accepts.
* LP names may not contain ``[`` or ``]``: variable ``y3[1][2]`` is written
  ``y3_1_2`` (:func:`~nonoqubo.model.encoding.flat_name`; HiGHS solution files and
  the sample readers map it back with :func:`~nonoqubo.model.encoding.bracket_name`).
  Constraint names say what each row is: ``cell_i_j``, ``wall_y3_k1_p2``,
  ``order_z5_k0_p4`` (0-based, see :mod:`nonoqubo.model.constrained`).
* Lines stay under 255 characters (CPLEX reads at most 560, some versions
  510): long rows continue on lines that start with a space; a row's name and
  colon, and its sense and right-hand side, stay on one line, as the grammar asks.
* Self-describing: the leading ``\`` comment lines carry the clues, the
  counts, the fixed variables and the known solution (see :func:`metadata_lines`),
  so ``nonoqubo decode model.lp highs.sol`` needs nothing else.  Variables fixed
  by presolve are left out of the model and listed in ``\ fixed:`` lines; a
  ``\ presolve: probe`` line says probing fixed them (none: line logic did).

Examples:
    >>> from nonoqubo.model.puzzle import Puzzle
    >>> from nonoqubo.model.constrained import build_constrained
    >>> m = build_constrained(Puzzle(rows=[[1], [1]], cols=[[1], [1]]))
    >>> text = dumps(m)
    >>> print(text[text.index("Minimize"):])
    Minimize
     obj: 0 y0_0_0
    Subject To
     cell_0_0: - 1 y0_0_0 + 1 z0_0_0 = 0
     cell_0_1: + 1 y0_0_0 + 1 z1_0_0 = 1
     cell_1_0: - 1 y1_0_0 - 1 z0_0_0 = -1
     cell_1_1: + 1 y1_0_0 - 1 z1_0_0 = 0
    Binary
     y0_0_0 y1_0_0 z0_0_0 z1_0_0
    End
    <BLANKLINE>
    >>> loads(text, source="x.lp").same_model(m)
    True
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from typing import IO, Any

import numpy as np

from .._util.guard import json_loads
from ..model.constrained import SENSES, ConstrainedModel, build_constrained
from ..model.encoding import bracket_name, flat_name
from .._util.text import decode
from ..errors import FormatError, UnsupportedFormat, located
from ..model.puzzle import Puzzle
from . import _metadata
from ._metadata import constrained_meta
from ._defaults import ALIASES, BINARY, HEURISTIC, ISING, LEGACY_ENCODING, OFFSET

__all__ = ["dump", "dumps", "loads", "metadata_lines", "parse_metadata", "read_metadata"]

NAME = "lp"
TITLE = "CPLEX LP: the constrained model as a 0-1 integer program (HiGHS, SCIP, CBC, Gurobi)"
EXTENSIONS = ("lp",)
KIND = "constrained"
ORDER = 100
WRITE_BYTES_PER_TERM = 50  # peak RSS of build -o on the 512x512 cauldron (48 M terms): 2.16 GB, rounded up

#: the first comment line; its presence marks a nonoqubo file
MAGIC = "nonoqubo constrained model"
FORMAT_VERSION = 1
#: longest line written (CPLEX: 560, older readers 510)
MAX_LINE = 250
#: payload characters per metadata comment line
_CHUNK = 200
_LP_SENSE = {"==": "=", "<=": "<=", ">=": ">="}


# -- self-describing comment lines (shared with the MPS writer) -------------------------------
def _chunks(key: str, text: str, prefix: str) -> list[str]:
    """``prefix key: text`` split into lines of at most _CHUNK payload characters."""
    if not text:
        return [f"{prefix} {key}:"]
    return [f"{prefix} {key}: {text[i:i + _CHUNK]}" for i in range(0, len(text), _CHUNK)]


def _token_lines(key: str, tokens: Iterable[str], prefix: str) -> list[str]:
    """``prefix key: t1 t2 ...`` wrapped at token boundaries."""
    out: list[str] = []
    cur: list[str] = []
    size = 0
    for tok in tokens:
        if cur and size + len(tok) + 1 > _CHUNK:
            out.append(f"{prefix} {key}: {' '.join(cur)}")
            cur, size = [], 0
        cur.append(tok)
        size += len(tok) + 1
    out.append(f"{prefix} {key}: {' '.join(cur)}".rstrip())
    return out


def metadata_lines(model: ConstrainedModel, prefix: str = "\\") -> list[str]:
    r"""The comment lines that make a file self-describing: the clue metadata in LP's syntax.

    The dict is :func:`._metadata.constrained_meta`'s; its keys are written
    (a key may repeat; its values are concatenated): ``name`` (a JSON string),
    ``size`` (height width: the lengths of ``rows`` and ``cols``), ``palette``
    (compact JSON, colour only), ``row i`` / ``col j`` (0-based; the clue's
    block lengths, a block of colour c > 1 written ``length/c``, nothing for an
    empty line), ``presolve`` (``probe`` when probing fixed the variables; absent for line
    logic), ``fixed`` (``flatname=value`` tokens), ``solution i`` (row i
    of the known answer, ``#``/``.``).  The ``counts`` line and the prose lines
    are for people.

    Args:
        model: the model written.
        prefix: the comment marker (``\`` for LP, ``*`` for MPS).
    """
    meta = constrained_meta(model, NAME)
    counts = meta["counts"]
    out = [
        f"{prefix} {MAGIC}, format {FORMAT_VERSION}: a 0-1 integer linear program, zero objective",
        f"{prefix} (the domain-wall model of the QUBO++ Nonogram case study, in its constrained form)",
        f"{prefix} labels: variable y3_1_2 is the QUBO++ label y3[1][2] (row 3, block 1, wall position 2),",
        f"{prefix}   z for columns; all indices 0-based; 1 = the block is shifted right by more than p",
        f"{prefix} constraints: cell_i_j: row colour - column colour = 0 (constant part on the right);",
        f"{prefix}   wall_y3_k1_p2: y3_1_2 - y3_1_3 >= 0; order_y3_k1_p2: y3_2_2 - y3_1_2 >= 0",
        f"{prefix} decode: nonoqubo decode THIS_FILE SOLUTION (HiGHS .sol, dimod SampleSet, label maps)",
        f"{prefix} counts: variables {meta['variables']} fixed {len(meta['fixed'])} constraints "
        f"{meta['constraints']} cell {counts['cell']} wall {counts['wall']} order {counts['order']} "
        f"nonzeros {counts['nonzeros']}",
    ]
    if meta["name"] is not None:
        out += _chunks("name", json.dumps(meta["name"]), prefix)
    out.append(f"{prefix} size: {len(meta['rows'])} {len(meta['cols'])}")
    index = {}  # colour name -> its index; colour 1 is written bare
    if "palette" in meta:
        out += _chunks("palette", json.dumps(meta["palette"], separators=(",", ":")), prefix)
        pal = meta["palette"]
        index = {c["name"]: i for i, c in enumerate([pal["background"], *pal["colours"]]) if i > 0}
    for kind, clues in (("row", meta["rows"]), ("col", meta["cols"])):
        for i, clue in enumerate(clues):
            out += _token_lines(f"{kind} {i}", (_block_token(b, index) for b in clue), prefix)
    if "presolve" in meta:
        out.append(f"{prefix} presolve: {meta['presolve']}")
    if meta["fixed"]:
        out += _token_lines("fixed", (f"{flat_name(k)}={v}" for k, v in meta["fixed"].items()), prefix)
    for i, line in enumerate(meta.get("solution", ())):
        out += _chunks(f"solution {i}", line, prefix)
    return out


def _block_token(block: Any, index: dict[str, int]) -> str:
    """``3`` for a length (or a block of the first colour), ``3/c`` for a block of colour *c* > 1."""
    if not isinstance(block, list):
        return str(block)
    length, colour = block
    c = index.get(colour, 1)
    return str(length) if c == 1 else f"{length}/{c}"


_META = re.compile(r"^(name|palette|size|presolve|fixed|counts|(?:row|col|solution) \d+):\s?(.*)$")


def parse_metadata(comments: Iterable[tuple[int, str]], source: str) -> tuple[dict[str, Any], dict[str, int]]:
    """The clue metadata dict (see :mod:`._metadata`) of a file's comment lines, and each key's first line.

    Only the syntax is read here (tokens, JSON); :func:`._metadata.read` checks the values.

    Args:
        comments: ``(line number, text after the comment marker)`` pairs.
        source: the file name, for messages.

    Raises:
        FormatError: no nonoqubo header, or tokens that are not integers or JSON.
    """
    fields: dict[str, list[str]] = {}
    first: dict[str, int] = {}
    magic = False
    for lineno, text in comments:
        text = text.strip()
        if text.startswith(MAGIC):
            magic = True
            continue
        m = _META.match(text)
        if m:
            fields.setdefault(m.group(1), []).append(m.group(2))
            first.setdefault(m.group(1), lineno)
    if not magic or "size" not in fields:
        raise FormatError(located(source, None, f"no '{MAGIC}' header with the clues: not written "
                                  "by nonoqubo, so its variables cannot be decoded"))

    def tokens(key: str) -> list[str]:
        return " ".join(fields.get(key, [])).split()

    try:
        size = [int(t) for t in tokens("size")]
    except ValueError:
        raise FormatError(located(source, first["size"], "'size' must list integers")) from None
    if len(size) != 2:
        raise FormatError(located(source, first["size"], "'size' must be 'height width'"))
    height, width = size
    given = {kind: sum(1 for key in fields if key.startswith(f"{kind} ")) for kind in ("row", "col")}
    if not 0 <= height <= given["row"] or not 0 <= width <= given["col"]:  # before looping over the size
        raise FormatError(located(source, first["size"], f"'size: {height} {width}' but the header has "
                                  f"{given['row']} row and {given['col']} column clues"))

    def blocks(key: str) -> list[int | list[int]]:
        """``3`` or, for a block of colour c, ``3/c`` (kept as ``[3, c]``: the colour's index)."""
        try:
            return [int(t) if "/" not in t else [int(t.split("/")[0]), int(t.split("/")[1])] for t in tokens(key)]
        except ValueError:
            raise FormatError(located(source, first[key], f"'{key}' must list integers (length/colour in colour)")) from None

    meta: dict[str, Any] = {}
    lines: dict[str, int] = {key: first[key] for key in ("name", "palette", "presolve", "fixed") if key in first}
    for key in ("name", "palette"):
        if key in fields:
            meta[key] = json_loads("".join(fields[key]), source, first[key])
    meta["rows"] = [blocks(f"row {i}") for i in range(height)]
    meta["cols"] = [blocks(f"col {j}") for j in range(width)]
    lines["rows"] = lines["cols"] = first["size"]
    if "solution 0" in fields:
        meta["solution"] = ["".join(fields.get(f"solution {i}", [])) for i in range(height)]
    fixed: dict[str, Any] = {}
    for tok in tokens("fixed"):
        label, _, value = tok.partition("=")
        fixed[bracket_name(label)] = int(value) if value in ("0", "1") else value
    meta["fixed"] = fixed
    if "presolve" in fields:
        meta["presolve"] = " ".join(fields["presolve"]).strip()
    meta["labels"] = "layout"
    return meta, lines


def read_metadata(comments: Iterable[tuple[int, str]], source: str) -> tuple[Puzzle, dict[str, int], str | None]:
    """The puzzle, the fixed variables and the presolve that fixed them (``"probe"`` or None) from a
    file's comment lines (parsed, then checked by the one reader).

    Raises:
        FormatError: no nonoqubo header, tokens that are not integers, or values that
            :func:`._metadata.read` refuses (the message names the key and its line).
    """
    meta, lines = parse_metadata(comments, source)
    clues = _metadata.read(meta, source, spell="header '{}'", lines=lines)
    assert clues.puzzle is not None  # parse_metadata always gives rows and cols
    return clues.puzzle, clues.fixed, clues.presolve


def model_from_metadata(comments: Iterable[tuple[int, str]], source: str) -> ConstrainedModel:
    """Rebuild the model a file describes (clues and fixings from its comment lines)."""
    puzzle, fixed, presolve = read_metadata(comments, source)
    try:
        return build_constrained(puzzle, fixed, presolve=presolve)
    except ValueError as exc:
        raise FormatError(located(source, None, f"the header's clues and fixed values: {exc}")) from None


# -- writing ----------------------------------------------------------------------------------
def _wrap(head: str, terms: list[str], tail: str) -> str:
    """One LP row, continued on indented lines when longer than MAX_LINE."""
    line = f"{head} {' '.join(terms)} {tail}"
    if len(line) <= MAX_LINE:
        return line
    lines, cur = [], head
    for term in terms:
        if len(cur) + len(term) + 1 > MAX_LINE - 2:
            lines.append(cur)
            cur = "  " + term
        else:
            cur = f"{cur} {term}"
    if len(cur) + len(tail) + 1 > MAX_LINE:
        lines.append(cur)
        cur = " "
    lines.append(f"{cur} {tail}")
    return "\n".join(lines)


def row_texts(model: ConstrainedModel) -> list[str]:
    """The text of every constraint row, in model order (wrapped, no newline at the end)."""
    names = model.flat_labels
    plus = [f"+ 1 {v}" for v in names]
    minus = [f"- 1 {v}" for v in names]
    coefs = model.coefs
    if coefs.size and np.all(np.abs(coefs) == 1):
        terms = [(plus if c > 0 else minus)[v] for c, v in zip(coefs.tolist(), model.indices.tolist())]
    else:
        terms = [f"{'+' if c >= 0 else '-'} {abs(c)} {names[v]}"
                 for c, v in zip(coefs.tolist(), model.indices.tolist())]
    ptr = model.indptr.tolist()
    rhs = model.rhs.tolist()
    sense = [_LP_SENSE[s] for s in SENSES]
    out = []
    for c, name in enumerate(model.names):
        out.append(_wrap(f" {name}:", terms[ptr[c]:ptr[c + 1]], f"{sense[model.sense[c]]} {rhs[c]}"))
    return out


def dumps(model: ConstrainedModel, *, ising: bool = False) -> str:
    """The LP text of *model* (see the module docstring).

    Args:
        model: a constrained model (:func:`~nonoqubo.model.constrained.build_constrained`).
        ising: must be False (the LP form is over 0/1 variables).

    Returns:
        The whole file, ending with ``End`` and a newline.

    Raises:
        UnsupportedFormat: ``ising=True``.
    """
    if ising:
        raise UnsupportedFormat("the LP export is a 0-1 program; it has no Ising form")
    return "\n".join(metadata_lines(model, "\\")) + "\n" + _body(model)


def _body(model: ConstrainedModel) -> str:
    """Everything after the comment lines, from ``Minimize`` to ``End`` and its newline."""
    parts = ["Minimize", f" obj: 0 {model.flat_labels[0]}" if model.num_vars else " obj:", "Subject To"]
    parts += row_texts(model)
    parts.append("Binary")
    parts += _name_lines(model.flat_labels)
    parts.append("End")
    return "\n".join(parts) + "\n"


def _name_lines(names: list[str]) -> list[str]:
    """The Binary section's names, several to a line."""
    out, cur = [], ""
    for name in names:
        if len(cur) + len(name) + 1 > MAX_LINE:
            out.append(cur)
            cur = ""
        cur = f"{cur} {name}"
    if cur:
        out.append(cur)
    return out


def dump(model: ConstrainedModel, fp: IO[str], *, ising: bool = False) -> None:
    """Write :func:`dumps` to a text file object."""
    fp.write(dumps(model, ising=ising))


# -- reading ----------------------------------------------------------------------------------
_SECTION = re.compile(
    r"^(minimi[sz]e|maximi[sz]e|min|max|minimum|maximum|subject to|such that|st|s\.t\.|bounds?|"
    r"binary|binaries|bin|generals?|gen|integers?|semi-continuous|semis?|sos|end)$",
    re.IGNORECASE,
)


def _sections(text: str) -> tuple[list[tuple[int, str]], dict[str, list[tuple[int, str]]]]:
    """Comment lines and the lines of each section, with line numbers."""
    comments: list[tuple[int, str]] = []
    sections: dict[str, list[tuple[int, str]]] = {}
    current = "start"
    for lineno, raw in enumerate(text.splitlines(), start=1):
        body, bs, comment = raw.partition("\\")
        if bs:
            comments.append((lineno, comment))
        line = body.strip()
        if not line:
            continue
        key = line.lower()
        if _SECTION.match(key):
            current = {"st": "subject to", "s.t.": "subject to", "such that": "subject to",
                       "binaries": "binary", "bin": "binary"}.get(key, key)
            if current.startswith("min") or current.startswith("max"):
                current = "objective"
            sections.setdefault(current, [])
            if current == "end":
                break
            continue
        sections.setdefault(current, []).append((lineno, line))
    return comments, sections


_SENSE_TOKENS = {"=": 0, "==": 0, "<=": 1, "=<": 1, "<": 1, ">=": 2, "=>": 2, ">": 2}


def _parse_rows(lines: list[tuple[int, str]], source: str) -> dict[str, tuple[int, dict[str, int], int, int]]:
    """``name -> (line, {variable: coefficient}, sense code, rhs)`` of a Subject To section."""
    rows: dict[str, tuple[int, dict[str, int], int, int]] = {}
    stmt: list[str] = []
    start = 0
    for lineno, line in lines:
        if not stmt:
            start = lineno
        stmt.append(line)
        toks = line.split()
        if len(toks) >= 2 and toks[-2] in _SENSE_TOKENS:  # the sense and rhs end a row
            name, colon, body = " ".join(stmt).partition(":")
            if not colon:
                raise FormatError(located(source, start, "a constraint without a name"))
            rows[name.strip()] = _parse_row(body.split(), start, source)
            stmt = []
    if stmt:
        raise FormatError(located(source, start, "a constraint without a sense and right-hand side"))
    return rows


def _parse_row(toks: list[str], lineno: int, source: str) -> tuple[int, dict[str, int], int, int]:
    terms: dict[str, int] = {}
    sign, coef = 1, None
    try:
        for t in toks[:-2]:
            if t in "+-":
                sign = -1 if t == "-" else 1
            elif re.fullmatch(r"[+-]?\d+(\.0*)?", t):
                coef = int(float(t))
            else:
                terms[t] = terms.get(t, 0) + sign * (1 if coef is None else coef)
                sign, coef = 1, None
        rhs = float(toks[-1])
    except (ValueError, OverflowError):  # OverflowError: a 400-digit coefficient is an infinite float
        raise FormatError(located(source, lineno, f"cannot read the row {' '.join(toks)!r}")) from None
    if not rhs.is_integer():
        raise FormatError(located(source, lineno, f"right-hand side {toks[-1]} is not an integer"))
    return lineno, terms, _SENSE_TOKENS[toks[-2]], int(rhs)


def loads(data: str | bytes, *, source: str = "<lp>") -> ConstrainedModel:
    """Read an LP file written by :func:`dumps` back into the model.

    The model is rebuilt from the clues and fixed values in the header, then
    checked against the file's variables and every constraint row, so a file
    whose body does not match its header is refused.

    Args:
        data: the LP text.
        source: the file name, for messages.

    Returns:
        The :class:`~nonoqubo.model.constrained.ConstrainedModel`.

    Raises:
        FormatError: no nonoqubo header, or a body that differs from the model
            of the header's clues (the message names the first differing row).
    """
    data = decode(data, source, what="QUBO text file")
    start = data.find("\nMinimize\n")
    if start >= 0:  # the header ends where the model starts
        head = data[:start].splitlines()
        model = model_from_metadata([(i, ln.partition("\\")[2]) for i, ln in enumerate(head, 1)], source)
        if data[start + 1:] == _body(model):
            return model  # byte for byte what this module writes: nothing more to check
    comments, sections = _sections(data)
    model = model_from_metadata(comments, source)
    binaries = " ".join(line for _, line in sections.get("binary", [])).split()
    if binaries != model.flat_labels:
        where = sections["binary"][0][0] if sections.get("binary") else None
        raise FormatError(located(source, where, f"the Binary section lists {len(binaries)} variables but the "
                                  f"header's model has {model.num_vars} (or in another order)"))
    rows = _parse_rows(sections.get("subject to", []), source)
    names = model.names
    if len(rows) != len(names):
        raise FormatError(located(source, None, f"{len(rows)} constraints but the header's model has {len(names)}"))
    flat = model.flat_labels
    ptr = model.indptr.tolist()
    idx = model.indices.tolist()
    cof = model.coefs.tolist()
    for c, name in enumerate(names):
        got = rows.get(name)
        if got is None:
            raise FormatError(located(source, None, f"constraint {name} of the header's model is missing"))
        lineno, terms, sense, rhs = got
        want = {flat[v]: a for v, a in zip(idx[ptr[c]:ptr[c + 1]], cof[ptr[c]:ptr[c + 1]])}
        if terms != want or sense != int(model.sense[c]) or rhs != int(model.rhs[c]):
            raise FormatError(located(source, lineno, f"constraint {name} differs from the model of the "
                                      "clues in the header"))
    return model



def detect(head: bytes) -> bool:
    """A nonoqubo LP file starts with its ``\\ nonoqubo constrained model`` comment."""
    return head.lstrip().startswith(b"\\ " + MAGIC.encode())
