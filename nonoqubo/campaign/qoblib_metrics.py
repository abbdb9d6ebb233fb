"""QOBLIB's model metrics: the ``metrics.csv`` and ``README.md`` table of a ``qs_files`` or ``lp_files`` folder.

QOBLIB describes every model folder by one row per file (its ``misc/get_metrics.py``
makes them; these are the same definitions, computed without SCIP):

* ``qs_files``: ``file, num_variables, density, min_coeff, max_coeff``.  ``num_variables`` is
  the ``n`` of the file's ``n m`` line, ``density`` the entry lines with a non-zero value over
  the ``n (n + 1) / 2`` entries of an upper triangle, and the coefficients are the values *as
  the file writes them* (an off-diagonal line holds half the pair coefficient, see
  :mod:`nonoqubo.exports.qs`).  They are read back from the text written, so the row says
  what the file holds.
* ``lp_files``: ``file, num_binary_vars, num_integer_vars, num_continuous_vars, num_vars,
  num_linear_constraints, num_quadratic_constraints, num_constraints, density, min_coeff,
  max_coeff``: the density is the constraint matrix's non-zeros over ``num_vars *
  num_linear_constraints``, the coefficients those of the constraints (not the objective),
  as SCIP reports them.  nonoqubo's constrained model (:mod:`nonoqubo.model.constrained`) is
  linear in binary variables only.

Numbers are written as Python writes them (``0.1158095238095238``, ``-1.0``), as QOBLIB's
CSVs hold them; the README table gives floats with six decimals and links each file
(``[NAME.qs](NAME.qs.xz)`` when compressed), as QOBLIB's READMEs do.

Examples:
    >>> qs_metrics("a.qs", "# ObjectiveOffset 1\\n2 2\\n1 1 -2\\n1 2 0.5\\n")
    {'file': 'a.qs', 'num_variables': 2, 'density': 0.6666666666666666, 'min_coeff': -2.0, 'max_coeff': 0.5}
    >>> print(readme_table([{"file": "a.qs", "num_variables": 2, "density": 0.5}], {"a.qs": "a.qs.xz"}), end="")
    # Instance Metrics
    <BLANKLINE>
    The metrics are also available in CSV format: [metrics.csv](metrics.csv)
    <BLANKLINE>
    | file | num_variables | density |
    | --- | --- | --- |
    | [a.qs](a.qs.xz) | 2 | 0.500000 |
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from ..errors import FormatError
from ..model.constrained import ConstrainedModel
from .aggregate import csv_table

__all__ = ["LP_COLUMNS", "QS_COLUMNS", "lp_metrics", "metrics_csv", "qs_metrics", "readme_table"]

QS_COLUMNS = ("file", "num_variables", "density", "min_coeff", "max_coeff")
LP_COLUMNS = ("file", "num_binary_vars", "num_integer_vars", "num_continuous_vars", "num_vars",
              "num_linear_constraints", "num_quadratic_constraints", "num_constraints", "density",
              "min_coeff", "max_coeff")


def qs_metrics(name: str, text: str) -> dict[str, Any]:
    """The metrics row of the ``.qs`` text *text*, listed as *name* (see the module docstring).

    Raises:
        FormatError: no ``n m`` line, or entry lines that are not three numbers.
    """
    body = [line for line in text.splitlines() if line.strip() and not line.lstrip().startswith("#")]
    if not body or len(body[0].split()) != 2:
        raise FormatError(f"{name}: no 'n m' line in the .qs text")
    n = int(body[0].split()[0])
    values = np.array(" ".join(body[1:]).split(), dtype=np.float64)
    if values.size % 3:
        raise FormatError(f"{name}: the entry lines of the .qs text are not 'i j value' triples")
    coeffs = values.reshape(-1, 3)[:, 2]
    nonzero = int(np.count_nonzero(coeffs))
    total = n * (n + 1) / 2
    return {"file": name, "num_variables": n, "density": nonzero / total if total else 0.0,
            "min_coeff": float(coeffs.min()) if coeffs.size else None,
            "max_coeff": float(coeffs.max()) if coeffs.size else None}


def lp_metrics(name: str, model: ConstrainedModel) -> dict[str, Any]:
    """The metrics row of the LP file *name* that holds *model* (see the module docstring)."""
    n, m = int(model.num_vars), int(model.num_constraints)
    coefs = np.asarray(model.coefs)
    nonzero = int(np.count_nonzero(coefs))
    return {"file": name, "num_binary_vars": n, "num_integer_vars": 0, "num_continuous_vars": 0, "num_vars": n,
            "num_linear_constraints": m, "num_quadratic_constraints": 0, "num_constraints": m,
            "density": nonzero / (n * m) if n and m else 0.0,
            "min_coeff": float(coefs.min()) if coefs.size else None,
            "max_coeff": float(coefs.max()) if coefs.size else None}


def metrics_csv(rows: Sequence[Mapping[str, Any]], columns: Sequence[str]) -> str:
    """``metrics.csv``: a header of *columns*, one row per file (None as an empty cell)."""
    return csv_table(columns, ([row.get(c) for c in columns] for row in rows))


def readme_table(rows: Sequence[Mapping[str, Any]], links: Mapping[str, str]) -> str:
    """The folder's ``README.md``: the metrics as a Markdown table, each file linked to *links[file]*."""
    if not rows:
        return "# Instance Metrics\n\nNo model in this folder.\n"
    keys = list(rows[0])
    out = ["# Instance Metrics", "", "The metrics are also available in CSV format: [metrics.csv](metrics.csv)", "",
           "| " + " | ".join(keys) + " |", "| " + " | ".join("---" for _ in keys) + " |"]
    for row in rows:
        cells = []
        for key in keys:
            value = row.get(key)
            if key == "file":
                cells.append(f"[{value}]({links.get(str(value), value)})")
            elif isinstance(value, float):
                cells.append(f"{value:.6f}")
            else:
                cells.append("" if value is None else str(value))
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"
