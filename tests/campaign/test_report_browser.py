"""The report and a ``decode --image`` SVG opened in a real browser: headless Chromium at 1280 and 390 px.

Playwright (the ``dev`` extra) drives the system's Chromium (Debian's ``chromium``, which
``.ci/run`` installs; ``NONOQUBO_CHROMIUM`` names another).  Each page must load with no console
error and no request leaving the file, no horizontal scroll (``scrollWidth <= innerWidth``),
every image decoded (``naturalWidth > 0``) and every figure present.  Full-page screenshots of
both widths are saved under ``tests/artifacts/`` (git-ignored; ``NONOQUBO_ARTIFACTS`` moves
them), the CI artifacts a person looks at.

The campaign is made as a new user makes one: ``suite`` with a random family and two shared
puzzles, ``solve -o`` at two settings, ``evaluate --report --figures``.
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import numpy as np
import pytest

from tests.support import ROOT, run_cli as run

PUZZLES = ROOT / "tests" / "data" / "puzzles"
WIDTHS = (1280, 390)


def _chromium() -> str | None:
    """A Chromium executable: $NONOQUBO_CHROMIUM, the system's, or Playwright's own download."""
    named = os.environ.get("NONOQUBO_CHROMIUM")
    if named:
        return named
    for name in ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable"):
        found = shutil.which(name)
        if found:
            return found
    try:
        from playwright.sync_api import sync_playwright

        with sync_playwright() as p:
            path = p.chromium.executable_path
        return path if path and os.path.exists(path) else None
    except Exception:  # no Playwright browser downloaded
        return None


def _artifacts() -> Path:
    folder = Path(os.environ.get("NONOQUBO_ARTIFACTS") or ROOT / "tests" / "artifacts")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser():
    executable = _chromium()
    if executable is None:
        pytest.skip("no Chromium executable found (install Debian's chromium, or set NONOQUBO_CHROMIUM)")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=executable, args=["--no-sandbox"])
        yield chromium
        chromium.close()


@pytest.fixture(scope="module")
def made(tmp_path_factory):
    """A campaign from the CLI alone: suite, solve -o at two settings, evaluate --report --figures."""
    root = tmp_path_factory.mktemp("browser")
    heart, nin = PUZZLES / "json" / "gecode-heart.json", PUZZLES / "json" / "dejoue-note-nin.json"
    status, _, err = run("suite", heart, nin, "--random", "6x6:0.5:3:2", "-o", root / "suite", "-j", "1", "-q")
    assert status == 0, err
    for setting, sweeps in (("sa-20", 20), ("sa-400", 400)):
        (root / "runs" / setting).mkdir(parents=True)
        for model in sorted((root / "suite").glob("*.qubo.json")):  # solve samples the suite's models as written
            name = model.name[: -len(".qubo.json")]
            status, _, err = run("solve", model, "--reads", "16", "--sweeps", sweeps, "--seed", "3", "-q",
                                 "-o", root / "runs" / setting / f"{name}.json")
            assert status in (0, 1), err
    report, figures = root / "report.html", root / "figures"
    status, _, err = run("evaluate", root / "suite", root / "runs", "--polish", "--report", report,
                         "--figures", figures, "-j", "1", "-q")
    assert status == 0, err
    # decode --image: a wrong sample of the heart (conflicts and failing lines drawn) and a colour puzzle
    from nonoqubo.clues import load
    from nonoqubo.model.encoding import Layout

    puzzle = load(heart)
    bits = Layout.of(puzzle).encode(puzzle.solution_grid())
    bits[np.random.default_rng(4).choice(bits.size, 4, replace=False)] ^= 1
    (root / "wrong.txt").write_text("".join(map(str, bits)) + "\n")
    status, _, err = run("decode", heart, root / "wrong.txt", "--image", root / "heart.svg")
    assert status == 1 and (root / "heart.svg").exists(), err
    acorn = PUZZLES / "colour" / "olsak-acorn.json"
    status, _, err = run("solve", acorn, "--reads", "4", "--sweeps", "300", "--seed", "1", "-q",
                         "--image", root / "acorn.svg")
    assert status in (0, 1) and (root / "acorn.svg").exists(), err
    return {"root": root, "report": report, "figures": sorted(p.stem for p in figures.glob("*.csv"))}


def _open(browser, url: str, width: int):
    page = browser.new_page(viewport={"width": width, "height": 900})
    problems: list[str] = []
    page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
    page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
    page.on("requestfailed", lambda r: problems.append(f"request failed: {r.url}"))
    page.on("request", lambda r: problems.append(f"fetched {r.url}")
            if not r.url.startswith(("file:", "data:", "about:")) else None)
    page.goto(url)
    page.wait_for_load_state("load")
    return page, problems


_STATE = """() => ({
  scroll: document.documentElement.scrollWidth, inner: window.innerWidth,
  images: [...document.images].map(i => ({complete: i.complete, width: i.naturalWidth, alt: i.alt})),
  figures: [...document.querySelectorAll('figure')].map(f => f.id),
  captions: [...document.querySelectorAll('figure figcaption')].length,
  table: document.querySelector('.scroll') && [document.querySelector('.scroll').scrollWidth,
                                                document.querySelector('.scroll').clientWidth],
})"""


@pytest.mark.parametrize("width", WIDTHS)
def test_report_in_chromium(browser, made, width: int) -> None:
    page, problems = _open(browser, made["report"].as_uri(), width)
    state = page.evaluate(_STATE)
    page.screenshot(path=str(_artifacts() / f"report-{width}.png"), full_page=True)
    page.close()
    assert not problems, problems
    assert state["scroll"] <= state["inner"], state  # the page never scrolls sideways; the table does
    assert state["images"] and all(i["complete"] and i["width"] > 0 for i in state["images"]), state["images"]
    assert sorted(state["figures"]) == made["figures"] and state["captions"] == len(made["figures"])
    assert all(len(i["alt"]) > 60 for i in state["images"])
    sw, cw = state["table"]
    assert cw <= state["inner"] and (width < 1000 or sw <= cw)  # at 1280 px the table fits its column


@pytest.mark.parametrize("width", WIDTHS)
def test_decode_svg_in_chromium(browser, made, width: int) -> None:
    root = made["root"]
    for name in ("heart", "acorn"):
        page, problems = _open(browser, (root / f"{name}.svg").as_uri(), width)  # the file itself
        tag = page.evaluate("() => document.documentElement.tagName.toLowerCase()")
        page.close()
        assert tag == "svg" and not problems, (name, problems)
    wrapper = root / "svg.html"  # the files as a page shows them
    wrapper.write_text(
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" '
        'content="width=device-width, initial-scale=1"><title>decode --image</title>'
        "<style>img { max-width: 100%; height: auto; display: block; margin: 1rem 0; }</style></head><body>"
        '<img src="heart.svg" alt="the heart with wrong cells"><img src="acorn.svg" alt="the acorn"></body></html>')
    page, problems = _open(browser, wrapper.as_uri(), width)
    state = page.evaluate(_STATE)
    page.screenshot(path=str(_artifacts() / f"decode-{width}.png"), full_page=True)
    page.close()
    assert not problems, problems
    assert len(state["images"]) == 2 and all(i["complete"] and i["width"] > 0 for i in state["images"]), state
    assert state["scroll"] <= state["inner"], state


def _svg_texts(report: Path) -> list[tuple[float, float]]:
    """Per image of the page, in order: (its SVG's width in points, its smallest font size in the same units)."""
    import base64
    import re

    out = []
    for data in re.findall(r'src="data:image/svg\+xml;base64,([^"]+)"', report.read_text()):
        svg = base64.b64decode(data)
        sizes = [float(v) for v in re.findall(rb"font-size: ?([0-9.]+)px", svg)]
        out.append((float(re.search(rb'width="([0-9.]+)pt"', svg).group(1)), min(sizes)))
    return out


@pytest.mark.parametrize("width", WIDTHS)
def test_figure_text_is_readable_and_phone_figures_stacked(browser, made, width: int) -> None:
    """Every figure's smallest text renders at 9 CSS px or more; at 390 px the size plots stand one under the other."""
    texts = _svg_texts(made["report"])
    page, problems = _open(browser, made["report"].as_uri(), width)
    shown = page.evaluate("() => [...document.images].map(i => i.getBoundingClientRect().width)")
    boxes = page.evaluate("() => [...document.querySelectorAll('figure')].map(f => {"
                          "const r = f.getBoundingClientRect(); return [f.id, r.top, r.bottom, r.left]; })")
    scroll = page.evaluate("() => [document.documentElement.scrollWidth, window.innerWidth]")
    page.close()
    assert not problems and len(shown) == len(texts) > 0
    rendered = [font * px / points for (points, font), px in zip(texts, shown)]
    assert min(rendered) >= 9.0, list(zip([b[0] for b in boxes], rendered))
    assert scroll[0] <= scroll[1]  # a wide figure scrolls in its own frame, never the page
    if width < 500:
        size = [b for b in boxes if b[0].endswith("vs-size")]
        assert len(size) == 2 and size[1][1] >= size[0][2] and size[0][3] == size[1][3]  # stacked, not side by side
