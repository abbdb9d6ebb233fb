"""The WCAG 2.x contrast ratio, written from the standard for the tests (independent of
:func:`nonoqubo.answers.render.contrast`): the report's CSS and the SVG pictures are checked
against AA's 4.5:1 with it."""

from __future__ import annotations


def luminance(rgb: str) -> float:
    """The relative luminance of a ``#rrggbb`` colour (sRGB channels linearised)."""
    def channel(c: int) -> float:
        s = c / 255
        return s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4
    r, g, b = (int(rgb.lstrip("#")[k:k + 2], 16) for k in (0, 2, 4))
    return 0.2126 * channel(r) + 0.7152 * channel(g) + 0.0722 * channel(b)


def contrast(a: str, b: str) -> float:
    """The contrast ratio of two ``#rrggbb`` colours, 1 to 21."""
    hi, lo = sorted((luminance(a), luminance(b)), reverse=True)
    return (hi + 0.05) / (lo + 0.05)
