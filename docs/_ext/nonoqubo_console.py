"""The ``console`` blocks of the docs highlighted as the tests read them (:mod:`tests.support.console`).

Pygments' ``console`` lexer takes a line that starts with ``#`` (root's prompt), ``%`` or ``❯`` for
a command, so a YAML comment a command prints (``head -n 4 examples/qbpp-logo.yaml``) was drawn as
a prompt and highlighted as shell.  Here the only prompt is ``$ ``, and ``> `` continues a command
(bash's second prompt), exactly the lines the tests run; everything else is output.
"""

from __future__ import annotations

import re
from typing import Any

from pygments.lexers.shell import BashSessionLexer


class ConsoleLexer(BashSessionLexer):
    """A bash session whose prompts are ``$ `` and, continuing a command, ``> ``; other lines are output.

    Examples:
        >>> from pygments.token import Generic
        >>> tokens = list(ConsoleLexer().get_tokens("$ head -n 1 a.yaml\\n# a comment\\n"))
        >>> [t for t in tokens if t[0] is Generic.Prompt], (Generic.Output, "# a comment\\n") in tokens
        ([(Token.Generic.Prompt, '$ ')], True)
    """

    name = "nonoqubo console"
    aliases = ["console"]
    _ps1rgx = re.compile(r"^(\$ )(.*\n?)")
    _ps2 = "> "
    _bare_continuation = True
    _venv = re.compile(r"(?!)")  # no virtual environment prompt: "(3 s)" at a line's start is output


def setup(app: Any) -> dict[str, Any]:
    app.add_lexer("console", ConsoleLexer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
