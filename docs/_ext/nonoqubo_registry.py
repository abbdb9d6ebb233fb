"""A Sphinx directive that writes nonoqubo's format and encoding tables from the registries at build time.

In a MyST page::

    ```{nonoqubo-registry} clues
    ```

``clues``, ``exports`` and ``samples`` list the format modules that :mod:`nonoqubo.clues`,
:mod:`nonoqubo.exports` and :mod:`nonoqubo.samples` discover (the same facts ``nonoqubo formats``
prints: name, extensions, title, capabilities, module); ``encodings`` lists
:mod:`nonoqubo.model.encodings`' registry.  A new format module appears in the next build with
no page edited.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive, directives

Row = Sequence[str]


def _exts(module: Any) -> str:
    return " ".join(f".{e}" for e in module.EXTENSIONS) or "(by content)"


def _yes(flag: Any) -> str:
    return "yes" if flag else ""


def clue_rows() -> tuple[Row, list[Row]]:
    from nonoqubo import clues

    head = ("name", "extensions", "colour", "solution", "module", "what it is")
    rows = [(m.NAME, _exts(m), _yes(m.COLOUR), _yes(m.SOLUTION), m.__name__, m.TITLE) for m in clues.formats()]
    return head, rows


def export_rows() -> tuple[Row, list[Row]]:
    from nonoqubo import exports

    head = ("name", "extensions", "model", "Ising", "offset", "module", "what it is")
    rows = [(m.NAME, _exts(m), m.KIND, _yes(m.ISING), str(getattr(m, "OFFSET", "")), m.__name__, m.TITLE)
            for m in exports.formats()]
    return head, rows


def sample_rows() -> tuple[Row, list[Row]]:
    from nonoqubo import samples

    head = ("name", "extensions", "other names", "bytes", "module", "what it reads")
    rows = [(m.NAME, _exts(m), ", ".join(m.ALIASES), _yes(m.BINARY), m.__name__, m.TITLE)
            for m in samples.formats().values()]
    return head, rows


def encoding_rows() -> tuple[Row, list[Row]]:
    from nonoqubo.model.encodings import DEFAULT, encodings

    head = ("name", "default", "colour", "constrained form", "labels", "what it is")
    rows = [(e.name, _yes(e is DEFAULT), _yes(e.colour), _yes(e.constrained), f"{e.row_letter}/{e.column_letter}", e.title)
            for e in encodings()]
    return head, rows


TABLES: dict[str, Callable[[], tuple[Row, list[Row]]]] = {
    "clues": clue_rows, "exports": export_rows, "samples": sample_rows, "encodings": encoding_rows,
}


def _cell(text: str, literal: bool) -> nodes.entry:
    entry = nodes.entry()
    para = nodes.paragraph()
    para += nodes.literal(text, text) if literal and text else nodes.Text(text)
    entry += para
    return entry


def table(head: Row, rows: list[Row], caption: str) -> nodes.table:
    """A docutils table of *rows* under *head*; the name and module columns are set as code."""
    literal = {i for i, h in enumerate(head) if h in ("name", "module", "extensions", "other names", "labels")}
    tab = nodes.table(classes=["nonoqubo-registry"])
    tab += nodes.title(caption, caption)
    group = nodes.tgroup(cols=len(head))
    tab += group
    for _ in head:
        group += nodes.colspec(colwidth=1)
    thead = nodes.thead()
    row = nodes.row()
    for h in head:
        row += _cell(h, False)
    thead += row
    group += thead
    body = nodes.tbody()
    for values in rows:
        row = nodes.row()
        for i, v in enumerate(values):
            row += _cell(v, i in literal)
        body += row
    group += body
    return tab


class RegistryTable(Directive):
    """``{nonoqubo-registry} clues|exports|samples|encodings``: the registry's table, made now."""

    required_arguments = 1
    has_content = False
    option_spec = {"caption": directives.unchanged}

    def run(self) -> list[nodes.Node]:
        which = self.arguments[0]
        if which not in TABLES:
            raise self.error(f"nonoqubo-registry: unknown registry {which!r}; one of {', '.join(TABLES)}")
        head, rows = TABLES[which]()
        caption = self.options.get("caption", f"{len(rows)} {which}, from the registry")
        return [table(head, rows, caption)]


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("nonoqubo-registry", RegistryTable)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
