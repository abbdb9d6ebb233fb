"""Campaigns: instance libraries (suite), random families, and the figures and report of many runs."""

# the notebook picture of evaluate's result (nonoqubo._util.notebook); matplotlib waits for a figure
from . import report_html as report_html  # noqa: E402
