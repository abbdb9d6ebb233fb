"""Campaigns: instance libraries (suite), random families, plans and their runner, and the figures and
report of many runs.

The package imports none of its modules: ``import nonoqubo.campaign.plan`` loads the plan alone.  The
notebook picture of ``evaluate``'s result is drawn by :mod:`nonoqubo.campaign.report_html`, named
here to :func:`nonoqubo._util.notebook.renderers` (imported when a notebook first asks for a picture
it has no drawing for, as ``nonoqubo/__init__`` names :mod:`nonoqubo.answers.render`).
"""

from .._util import notebook as _notebook

_notebook.renderers(f"{__name__}.report_html")
