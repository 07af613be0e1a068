"""The README and the pages under docs/: every relative link (and its #anchor) resolves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", ROOT / "bench" / "README.md", *sorted((ROOT / "docs").glob("**/*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^(```|~~~).*?^\1", re.M | re.S)


def links(page: Path) -> list[str]:
    """The link targets of a Markdown page, outside code blocks and code spans."""
    text = FENCE.sub("", page.read_text())
    text = re.sub(r"`[^`\n]*`", "", text)
    return LINK.findall(text)


def anchors(page: Path) -> set[str]:
    """The anchors GitHub gives a page's headings."""
    found = set()
    for line in FENCE.sub("", page.read_text()).splitlines():
        if line.startswith("#"):
            title = line.lstrip("#").strip().lower()
            title = re.sub(r"[^\w\- ]", "", title)
            found.add(title.replace(" ", "-"))
    return found


def test_there_are_pages_with_links():
    assert len(PAGES) > 5 and sum(len(links(page)) for page in PAGES) > 20


def resolves(page: Path, target: str) -> bool:
    """Whether a relative link of a page names a file of the repository (and its heading)."""
    path, _, anchor = target.partition("#")
    found = (page.parent / path).resolve() if path else page
    if not found.exists() or ROOT not in (found, *found.parents):
        return False
    return not anchor or found.suffix != ".md" or anchor in anchors(found)


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_resolves(page: Path):
    relative = [target for target in links(page) if not re.match(r"[a-z]+:", target)]
    broken = [target for target in relative if not resolves(page, target)]
    assert not broken, f"{page.relative_to(ROOT)}: {broken}"


def test_a_broken_link_or_anchor_is_caught():
    readme = ROOT / "README.md"
    assert resolves(readme, "docs/hosting.md#the-environment")
    assert not resolves(readme, "docs/hosting.md#no-such-heading")
    assert not resolves(readme, "docs/no-such-page.md")
    assert not resolves(readme, "../outside.md")


def test_the_readme_is_a_front_door():
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) < 90, "a screen or two: the rest belongs under docs/"


def test_the_readme_runs_the_tests_as_ci_does():
    """The README's test command ends in the very pytest line `.ci/run` runs."""
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    pytest_line = next(line.strip() for line in ci if line.strip().startswith(".venv/bin/python"))
    readme = (ROOT / "README.md").read_text()
    section = readme[readme.index("## Run the tests") :]
    command = re.search(r"```sh\n(.*?)\n```", section, re.S)
    assert command is not None
    assert command[1].startswith("python3 -m venv .venv && .venv/bin/pip install -e '.[dev]'")
    assert command[1].endswith(" && " + pytest_line), (command[1], pytest_line)
