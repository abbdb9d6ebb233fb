"""Campaigns: instance libraries (suite), random families, and the figures and report of many runs."""
