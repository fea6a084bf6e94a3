"""docs/rulings.md travels with the code: every ruling cited anywhere in the repository (as ``RULINGS`` followed by
an id, in code, tests, templates and docs) has its section there, and, where the rulebooks sit beside the clone
(../shared/rules/, as on CI and on the team's machines), the page has exactly the ids of their RULINGS.md and every
rulebook line it quotes is still that line."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "rulings.md"
RULES = ROOT.parent / "shared" / "rules"
SCANNED = {".py", ".html", ".md", ".txt", ".toml", ".js", ".css", ".json", ".cfg", ".ini", ""}
SKIPPED = {
    ".git",
    ".venv",
    "venv",
    "node_modules",
    "staticfiles",
    "out",
    "__pycache__",
    ".mypy_cache",
    ".ruff_cache",
}

ID = r"[ROE]\d{1,2}"
#: A citation: the word, then one id or several joined by commas, slashes, "and", dashes or spaces ("R12, R13").
CITATION = re.compile(rf"RULINGS\s+((?:{ID})(?:(?:\s*[,/]\s*|\s*[-–]\s*|\s+and\s+|\s+)(?:{ID})\b)*)")
ANCHOR = re.compile(rf'^<a id="({ID})"></a>$', re.MULTILINE)
QUOTE = re.compile(r"^> `([\w.-]+\.txt):(\d+)` (.+)$", re.MULTILINE)


def page_ids() -> list[str]:
    return ANCHOR.findall(PAGE.read_text(encoding="utf-8"))


def cited_ids() -> dict[str, set[str]]:
    """Every id cited, with the files citing it."""
    cited: dict[str, set[str]] = {}
    for path in ROOT.rglob("*"):
        relative = path.relative_to(ROOT)
        if (
            any(part in SKIPPED for part in relative.parts)
            or not path.is_file()
            or path.suffix not in SCANNED
        ):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        for run in CITATION.findall(text):
            for ruling in re.findall(ID, run):
                cited.setdefault(ruling, set()).add(str(relative))
    return cited


def test_each_ruling_has_one_section_with_an_anchor() -> None:
    ids = page_ids()
    assert len(ids) == len(set(ids)), "an id has two sections"
    text = PAGE.read_text(encoding="utf-8")
    for ruling in ids:
        assert re.search(rf'<a id="{ruling}"></a>\n### {ruling} \S', text), (
            f"{ruling}: anchor not followed by its title"
        )
    assert {"R1", "R7", "R29", "O1", "O8", "E1", "E5"} <= set(ids)


def test_every_cited_ruling_resolves_in_the_clone() -> None:
    cited = cited_ids()
    assert "R7" in cited, "the scan found no citation: the pattern or the walk is broken"
    missing = {ruling: sorted(files) for ruling, files in cited.items() if ruling not in set(page_ids())}
    assert not missing, f"cited but not in docs/rulings.md: {missing}"


def test_the_citation_pattern_reads_lists() -> None:
    found = CITATION.findall(
        "see RULINGS R12, R13 and RULINGS O2/O7; RULINGS E4 - E5 (2015). RULINGS is silent."
    )
    assert [re.findall(ID, run) for run in found] == [["R12", "R13"], ["O2", "O7"], ["E4", "E5"]]


@pytest.mark.skipif(not (RULES / "RULINGS.md").exists(), reason="../shared/rules/ is not beside this clone")
def test_the_page_has_exactly_the_ids_of_rulings_md() -> None:
    normative = set(re.findall(rf"\b({ID})\b", (RULES / "RULINGS.md").read_text(encoding="utf-8")))
    assert len(normative) >= 42
    assert set(page_ids()) == normative


@pytest.mark.skipif(not (RULES / "RULINGS.md").exists(), reason="../shared/rules/ is not beside this clone")
def test_every_quote_is_the_rulebook_line_it_names() -> None:
    quotes = QUOTE.findall(PAGE.read_text(encoding="utf-8"))
    assert len(quotes) > 100
    for name, line, text in quotes:
        lines = (RULES / name).read_text(encoding="utf-8").splitlines()
        assert lines[int(line) - 1].strip() == text, f"{name}:{line} no longer reads {text!r}"
