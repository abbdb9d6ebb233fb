"""A Sphinx directive that runs a small real campaign at build time and shows its report's figures.

In a MyST page::

    ```{nonoqubo-campaign-figures}
    ```

builds three random 6x6 puzzles (``suite``'s random family, seed 1), samples each with simulated
annealing (20 reads of 100 sweeps, seed 1), judges them with
:func:`nonoqubo.campaign.evaluate.evaluate` and draws :func:`nonoqubo.campaign.plots.all_plots`,
the figures ``evaluate --report`` embeds.  The SVGs go to ``docs/_generated/`` (not in git) and
each appears with its title and the first sentence of the report's caption (:func:`short_caption`;
the report's whole caption runs to 20 lines, which the page says in prose), left-aligned by
``docs/_static/nonoqubo.css``, so the page shows what the code draws today.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from docutils import nodes
from docutils.parsers.rst import Directive


def campaign_plots(work: Path) -> list[Any]:
    """Run the small campaign in *work* and return its plots."""
    from nonoqubo.campaign.evaluate import evaluate
    from nonoqubo.campaign.plots import all_plots

    def cli(*args: object) -> None:
        subprocess.run([sys.executable, "-m", "nonoqubo", *map(str, args)], check=True, capture_output=True)

    cli("suite", "--random", "6x6:0.5:3:1", "-o", work / "suite", "-f", "bqm", "-j", 1)
    runs = work / "runs" / "sa-100"
    runs.mkdir(parents=True)
    for model in sorted((work / "suite").glob("*.bqm")):
        cli("solve", model, "--seed", 1, "--reads", 20, "--sweeps", 100, "-q", "-o", runs / f"{model.stem}.json")
    return all_plots(evaluate(str(work / "suite"), [str(work / "runs")], jobs=1))


def short_caption(title: str, caption: str) -> str:
    """*title* and the first sentence of *caption*: what a figure on the site says under it.

    Examples:
        >>> short_caption("Success", "The share of runs that end at 0 (a valid picture). Bold markers: medians.")
        'Success. The share of runs that end at 0 (a valid picture).'
    """
    first = re.match(r"(.+?[.)])\s+(?=[A-Z])", caption + " X")
    return f"{title}. {first.group(1) if first else caption}"


class CampaignFigures(Directive):
    """``{nonoqubo-campaign-figures}``: the figures of a small campaign, drawn now."""

    has_content = False

    def run(self) -> list[nodes.Node]:
        from nonoqubo.campaign.plots import figure_bytes

        env = self.state.document.settings.env
        out = Path(env.srcdir) / "_generated"
        out.mkdir(exist_ok=True)
        with tempfile.TemporaryDirectory() as tmp:
            plots = campaign_plots(Path(tmp))
        result: list[nodes.Node] = []
        for plot in plots:
            name = f"campaign-{plot.name}.svg"
            (out / name).write_bytes(figure_bytes(plot, "svg"))
            figure = nodes.figure(classes=["nonoqubo-figure"])
            figure += nodes.image(uri=f"/_generated/{name}", alt=plot.alt)
            figure += nodes.caption(text=short_caption(plot.title, plot.caption))
            result.append(figure)
        return result


def setup(app: Any) -> dict[str, Any]:
    app.add_directive("nonoqubo-campaign-figures", CampaignFigures)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
