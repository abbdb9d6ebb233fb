"""webpbn XML clue format (pbn 0.3 DTD), the richest of the clue formats.

Grammar (the elements nonoqubo reads; anything else is ignored)::

    <?xml version="1.0"?>
    <!DOCTYPE pbn SYSTEM "http://webpbn.com/pbn-0.3.dtd">     (optional)
    <puzzleset>                         (or a lone <puzzle> as the root)
      <puzzle type="grid" defaultcolor="black" backgroundcolor="white">
        <source>..</source> <id>..</id> <title>..</title> <author>..</author>
        <copyright>&copy; ..</copyright> <description>..</description>
        <color name="white" char=".">fff</color>
        <color name="black" char="X">000</color>
        <clues type="columns"> <line><count>2</count><count>1</count></line> ...</clues>
        <clues type="rows"> <line/> (an empty line) ...</clues>
        <solution type="goal"><image>
          |.XX..|                       one row a line, one char a cell, mapped
          ...                           through the <color char="..."> table
        </image></solution>
      </puzzle>
    </puzzleset>

A ``puzzleset`` may hold several puzzles: the ``index`` option (1-based, the
CLI's ``--index``) picks one, the first by default; :func:`puzzles` reads them
all in one parse (``suite``).  A count takes its
``color`` attribute or the puzzle's ``defaultcolor`` (default ``black``); the
background is ``backgroundcolor`` (default ``white``).  Colour puzzles are
read in full: the palette is the ``<color>`` elements (name, ``char``, RGB
as the text) minus the background, kept in file order and limited to the
colours the clues use.  A count whose colour is not declared (or, with no
``<color>`` at all, any colour but black), or that uses the background
colour, is an error naming its line.  Any ``type`` other than ``grid``
(triddlers) is refused.  The ``goal`` solution (else a ``solution`` of type
``solution``; ``saved`` states are partial and ignored) becomes the puzzle's
known solution, its characters mapped through the ``<color char>`` table.

Safety: the file is parsed with defusedxml.  The DOCTYPE of real exports is
tolerated but never fetched; any entity declaration (a "billion laughs" bomb,
an external ``SYSTEM`` entity) is refused before anything is expanded.  HTML
named entities of real exports (``&copy;``), which only the never-read DTD
would define, are replaced by their characters before parsing.

Origin: Jan Wolter's webpbn.com XML export and ``pbn-0.3.dtd``, read by
pbnsolve (native), nonogrid, number-loom (which leaves the DOCTYPE out; so do
nonoqubo's files), php-nonogram.

Examples:
    >>> xml = ('<puzzleset><puzzle><title>T &copy;</title><clues type="columns">'
    ...        '<line><count>1</count></line><line/></clues><clues type="rows">'
    ...        '<line><count>1</count></line></clues></puzzle></puzzleset>')
    >>> p = loads(xml)
    >>> p.name, p.rows, p.cols
    ('T ©', ((1,),), ((1,), ()))
    >>> loads(dumps(p.with_solution(["#."]))).solution
    ('#.',)
    >>> c = loads('<puzzle><color name="white" char=".">fff</color><color name="red" char="r">f00</color>'
    ...           '<color name="blue" char="b">00f</color><clues type="rows"><line><count color="red">1</count>'
    ...           '<count color="blue">1</count></line></clues><clues type="columns"><line><count color="red">1'
    ...           '</count></line><line><count color="blue">1</count></line></clues></puzzle>')
    >>> c.rows, c.row_colours, c.palette.names
    (((1, 1),), ((1, 2),), ('white', 'red', 'blue'))
"""

from __future__ import annotations

import html.entities
import re
import xml.etree.ElementTree as ET
from collections.abc import Callable, Iterator
from functools import partial
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from ._defaults import BINARY, KIND, LEGACY_ENCODING
from ._lines import Read, attempt, check_options, make_puzzle, meta_text, pick_index
from .._util.guard import integer
from .._util.text import head_text
from ..errors import FormatError, PuzzleError, located
from ..model.palette import Palette
from ..model.puzzle import Puzzle

NAME = "xml"
TITLE = "webpbn XML (pbn 0.3), the goal solution included"
EXTENSIONS = ("xml", "pbn")
SOLUTION = True
COLOUR = True
ALIASES = ("webpbn", "pbn")
ORDER = 30
HEURISTIC = False

__all__ = ["dumps", "loads", "puzzles"]

_XML_ENTITIES = {"amp", "lt", "gt", "quot", "apos"}
_ENTITY = re.compile(r"&([A-Za-z][A-Za-z0-9]*);")
_ENCODING = re.compile(r"""(<\?xml[^>]*?)\s+encoding\s*=\s*["'][^"']*["']""")
_META = ("source", "id", "author", "copyright", "description")


def detect(head: bytes) -> bool:
    """True for XML whose root is ``puzzleset`` or ``puzzle``."""
    text = head_text(head)
    start = text.lstrip("\ufeff \t\r\n")[:4096]
    return start.startswith("<") and re.search(r"<puzzle(set)?[\s>]", start) is not None


class _Builder(ET.TreeBuilder):
    """A tree builder that remembers the source line of every element."""

    def __init__(self) -> None:
        super().__init__()
        self.lines: dict[int, int] = {}
        self.parser: Any = None

    def start(self, tag: str, attrs: dict[str, str]) -> ET.Element:  # type: ignore[override]
        elem = super().start(tag, attrs)
        self.lines[id(elem)] = self.parser.parser.CurrentLineNumber
        return elem


def _parse(text: str, source: str) -> tuple[ET.Element, dict[int, int]]:
    from defusedxml import DefusedXmlException
    from defusedxml.ElementTree import DefusedXMLParser

    def named(m: re.Match[str]) -> str:
        name = m.group(1)
        if name in _XML_ENTITIES or name not in html.entities.name2codepoint:
            return m.group(0)
        return f"&#{html.entities.name2codepoint[name]};"

    text = _ENCODING.sub(r"\1", _ENTITY.sub(named, text.lstrip("\ufeff")), count=1)
    builder = _Builder()
    parser = DefusedXMLParser(target=builder, forbid_dtd=False, forbid_entities=True, forbid_external=True)
    builder.parser = parser
    try:
        parser.feed(text)
        root = parser.close()
    except ET.ParseError as exc:
        line_no, col = exc.position
        message = re.sub(r": line \d+, column \d+$", "", str(exc))
        raise FormatError(f"{source}:{line_no}:{col + 1}: not well-formed XML: {message}") from None
    except DefusedXmlException as exc:
        m = re.search(r"<!ENTITY", text)
        line = text.count("\n", 0, m.start()) + 1 if m else None
        raise FormatError(located(
            source, line, f"entity declarations are refused (XML bomb or external entity: {exc}); "
            "nonoqubo never expands or fetches entities")) from None
    return root, builder.lines


def loads(text: str, *, source: str = "<string>", index: int | None = None, **options: Any) -> Puzzle:
    """Read one puzzle of a webpbn XML file (see the module docstring).

    Args:
        text: the XML document.
        source: the file name used in error messages.
        index: which puzzle of a ``puzzleset`` (1-based; default the first).

    Raises:
        FormatError: not well-formed XML, an entity declaration, a missing or
            bad element, a colour puzzle, or clues that do not make a puzzle;
            the message names the source and line.
    """
    check_options(options, NAME)
    elements, line_of = _puzzle_elements(text, source)
    return _read(elements[pick_index(len(elements), index, source)], line_of, source)


def puzzles(text: str, *, source: str = "<string>") -> Iterator[Read]:
    """Every ``<puzzle>`` of the file, parsed once, numbered from 1; a broken one is its located error.

    Raises:
        FormatError: the file is not well-formed XML, or its root holds no puzzle.

    Examples:
        >>> xml = ('<puzzleset><puzzle><clues type="rows"><line><count>1</count></line></clues>'
        ...        '<clues type="columns"><line><count>1</count></line></clues></puzzle><puzzle/></puzzleset>')
        >>> [(r.index, r.puzzle.rows if r.puzzle else str(r.error)) for r in puzzles(xml)]
        [(1, ((1,),)), (2, "<string>:1: the puzzle has no <clues type='rows'>")]
    """
    elements, line_of = _puzzle_elements(text, source)
    for k, element in enumerate(elements, start=1):
        yield attempt(k, None, partial(_read, element, line_of, source))


def _puzzle_elements(text: str, source: str) -> tuple[list[ET.Element], Callable[[ET.Element], int | None]]:
    """The ``<puzzle>`` elements of the document and the function giving an element's source line."""
    root, lines = _parse(text, source)

    def line_of(elem: ET.Element) -> int | None:
        return lines.get(id(elem))

    if root.tag == "puzzleset":
        elements = root.findall("puzzle")
    elif root.tag == "puzzle":
        elements = [root]
    else:
        raise FormatError(located(source, line_of(root), f"the root element is <{root.tag}>, expected <puzzleset> or <puzzle>"))
    if not elements:
        raise FormatError(located(source, line_of(root), "the puzzleset holds no <puzzle>"))
    return elements, line_of


def _read(puzzle: ET.Element, line_of: Callable[[ET.Element], int | None], source: str) -> Puzzle:
    """One ``<puzzle>`` element as a Puzzle (see the module docstring)."""
    kind = puzzle.get("type", "grid")
    if kind != "grid":
        raise FormatError(located(source, line_of(puzzle), f"puzzle type {kind!r} is not a rectangular grid"))
    default = puzzle.get("defaultcolor", "black")
    background = puzzle.get("backgroundcolor", "white")

    sections: dict[str, ET.Element] = {}
    for clues in puzzle.findall("clues"):
        ctype = clues.get("type", "")
        if ctype not in ("rows", "columns"):
            raise FormatError(located(source, line_of(clues), f"<clues type={ctype!r}>: expected 'rows' or 'columns'"))
        if ctype in sections:
            raise FormatError(located(source, line_of(clues), f"a second <clues type={ctype!r}>"))
        sections[ctype] = clues
    declared: dict[str, tuple[str, str]] = {}  # name -> (rgb, char), file order
    for element in puzzle.findall("color"):
        if element.get("name"):
            declared[element.get("name", "")] = ((element.text or "").strip(), element.get("char", ""))
    used: dict[str, None] = {}
    read: dict[str, tuple[list[list[tuple[int, str]]], list[int | None]]] = {}
    for ctype, kind_name in (("rows", "row"), ("columns", "column")):
        if ctype not in sections:
            raise FormatError(located(source, line_of(puzzle), f"the puzzle has no <clues type={ctype!r}>"))
        found, where = [], []
        for k, line in enumerate(sections[ctype].findall("line")):
            clue = []
            for b, count in enumerate(line.findall("count"), start=1):
                value = (count.text or "").strip()
                if not value.isascii() or not value.isdigit():
                    raise FormatError(located(source, line_of(count), f"{kind_name} {k + 1}: count {value!r} is not a number"))
                colour = count.get("color", default)
                what = f"{kind_name} {k + 1}, block {b}"
                if colour == background:
                    raise FormatError(located(source, line_of(count), f"{what}: the background colour {colour!r} cannot colour a block"))
                if colour not in declared and (declared or colour != "black"):
                    why = (f"is not a declared <color> ({', '.join(declared)})" if declared
                           else "is used but the puzzle declares no <color> palette")
                    raise FormatError(located(source, line_of(count), f"{what}: colour {colour!r} {why}"))
                used[colour] = None
                clue.append((integer(value, source, line_of(count), what), colour))
            found.append(clue)
            where.append(line_of(line))
        if not found:
            raise FormatError(located(source, line_of(sections[ctype]), f"<clues type={ctype!r}> has no <line>"))
        read[ctype] = (found, where)
    order = [name for name in declared if name in used] + [name for name in used if name not in declared]
    several = len(order) > 1
    try:
        palette = Palette.of([(name, declared.get(name, ("", ""))[0] or None, declared.get(name, ("", ""))[1] if several else "")
                              for name in order] or ["black"],
                             (background, declared.get(background, ("", ""))[0] or None))
    except PuzzleError as exc:
        raise FormatError(located(source, line_of(puzzle), str(exc))) from None
    solution, solution_line = _solution(puzzle, declared, palette, background, line_of, source)
    meta = {key: _text(puzzle, key) for key in _META if _text(puzzle, key)}
    name = _text(puzzle, "title") or None
    return make_puzzle(
        read["rows"][0], read["columns"][0], source=source,
        row_lines=read["rows"][1], col_lines=read["columns"][1],  # type: ignore[arg-type]
        solution_line=solution_line, name=name, solution=solution, meta=meta, palette=palette,
    )


def _text(parent: ET.Element, tag: str) -> str:
    """The stripped text of *parent*'s first <tag> child ("" when there is none)."""
    elem = parent.find(tag)
    return "" if elem is None else (elem.text or "").strip()


def _solution(puzzle: ET.Element, declared: dict[str, tuple[str, str]], palette: Palette, background: str,
              line_of: Any, source: str) -> tuple[tuple[str, ...] | None, int | None]:
    chosen = None
    for wanted in ("goal", "solution"):
        chosen = next((s for s in puzzle.findall("solution") if s.get("type", "goal") == wanted), None)
        if chosen is not None:
            break
    image = chosen.find("image") if chosen is not None else None
    if image is None:
        return None, None
    chars = {".": background, "X": palette.colours[0].name}
    for name, (_, char) in declared.items():
        if char:
            chars[char] = name
    start = line_of(image) or 0
    # every file char -> the palette's picture char, one translate per row; \x00 marks a char
    # whose colour is no colour of the puzzle
    ours = dict(zip(palette.names, palette.chars))
    table = str.maketrans({ch: ours.get(name, "\x00") for ch, name in chars.items()})
    rows = []
    for offset, raw in enumerate((image.text or "").split("\n")):
        m = re.search(r"\|(.*)\|", raw)
        body = m.group(1) if m else raw.strip()
        if not body:
            continue
        cells = body.translate(table)
        bad = next((j for j, ch in enumerate(body) if ch not in chars or cells[j] == "\x00"), None)
        if bad is not None:
            ch = body[bad]
            what = (f"colour {chars[ch]!r}, which no clue uses" if ch in chars
                    else "no colour in the <color> table")
            raise FormatError(located(source, start + offset, f"solution image: {ch!r} has {what}"))
        rows.append(cells)
    return (tuple(rows) if rows else None), start


def dumps(puzzle: Puzzle) -> str:
    """The puzzle as a webpbn XML puzzleset (no DOCTYPE), with the goal when known."""
    meta = dict(puzzle.meta)
    if "copyright" not in meta and "license" in meta:
        meta["copyright"] = meta["license"]
    if "source" not in meta and "catalogue" in meta:
        meta["source"] = meta["catalogue"]
    out = ['<?xml version="1.0" encoding="UTF-8"?>', "<puzzleset>",
           f'<puzzle type="grid" defaultcolor={quoteattr(puzzle.palette.colours[0].name)}'
           + ("" if puzzle.palette.background.name == "white" else
              f' backgroundcolor={quoteattr(puzzle.palette.background.name)}') + ">"]
    for key in _META[:2]:
        if key in meta:
            out.append(f"<{key}>{escape(meta_text(meta[key]))}</{key}>")
    if puzzle.name:
        out.append(f"<title>{escape(puzzle.name)}</title>")
    for key in _META[2:]:
        if key in meta:
            out.append(f"<{key}>{escape(meta_text(meta[key]))}</{key}>")
    pal = puzzle.palette
    default = pal.colours[0].name
    # webpbn writes black as "X": the picture's "#" becomes "X" when no other colour has it
    table = str.maketrans({"#": "X"} if "X" not in pal.chars else {})
    for colour in (pal.background, *pal.colours):
        char = colour.char.translate(table)
        out.append(f"<color name={quoteattr(colour.name)} char={quoteattr(char)}>{colour.rgb or ''}</color>")
    names = pal.names
    for ctype, clues, colours in (("columns", puzzle.cols, puzzle.col_colours), ("rows", puzzle.rows, puzzle.row_colours)):
        out.append(f"<clues type={quoteattr(ctype)}>")
        out += ["<line>" + "".join(
            f"<count>{n}</count>" if names[c] == default else f"<count color={quoteattr(names[c])}>{n}</count>"
            for n, c in zip(clue, cc)) + "</line>" for clue, cc in zip(clues, colours)]  # type: ignore[arg-type]
        out.append("</clues>")
    if puzzle.solution is not None:
        out.append('<solution type="goal">')
        out.append("<image>")
        out += ["|" + row.translate(table) + "|" for row in puzzle.solution]
        out.append("</image>")
        out.append("</solution>")
    out.append("</puzzle>")
    out.append("</puzzleset>")
    return "\n".join(out) + "\n"
