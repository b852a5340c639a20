"""The documentation keeps up with the code (issue 28): the README stays a short front door,
every relative link in it and in docs/ leads to a file (and a heading) that exists, every
command it shows is one the parser has, with options it takes, and every game or report the
documentation names is registered. Reads text and the parser only: nothing is analysed.
"""

import argparse
import re
import shlex
from pathlib import Path

import pytest

from gamecore import games
from gamecore.arguments import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
DOCS = sorted((ROOT / "docs").glob("*.md"))
PAGES = [README, *DOCS]
MAX_README_LINES = 200

#: A Markdown link's target: [text](target).
LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")
#: Fenced code blocks (language, body) and inline code spans, where commands are shown.
FENCED = re.compile(r"^```([^\n]*)\n(.*?)^```", re.S | re.M)
INLINE = re.compile(r"`([^`\n]+)`")
#: A command shown: `gamecore COMMAND`, also as .venv/bin/gamecore.
COMMAND = re.compile(r"(?:^|[\s/(])gamecore ([a-z][a-z_-]*)")
#: A game command shown with its game: `gamecore exact punto_banco`.
GAME_COMMAND = re.compile(r"(?:^|[\s/(])gamecore (exact|simulate|count|hand|rules) (\S+)")
#: Where a report is named: make's ONLY=, the build's and verify's --only.
REPORT = re.compile(r"(?:ONLY=|--only )([a-z][a-z0-9_]*)")
#: A game named through the registry in Python: games.game("ez_baccarat").
REGISTRY_CALL = re.compile(r"games\.game\(\"([^\"]+)\"\)")


def shell_blocks(text: str) -> list[str]:
    """The fenced code blocks of ``text`` that are not Python, their comments cut."""
    return [
        "\n".join(re.sub(r"(^|\s)#.*$", "", line) for line in body.splitlines())
        for language, body in FENCED.findall(text)
        if language.strip() != "python"
    ]


def code(text: str) -> list[str]:
    """Every fenced code block but Python's, and every inline code span, of ``text``."""
    return [*shell_blocks(text), *INLINE.findall(FENCED.sub("", text))]


def command_lines(text: str) -> list[str]:
    """Every command line shown in a fenced block that runs gamecore, its arguments as
    typed."""
    lines = []
    for block in shell_blocks(text):
        for line in block.splitlines():
            match = re.match(r"^(?:\.venv/bin/)?gamecore\s+(.*)$", line.strip())
            if match:
                lines.append(match.group(1).strip())
    return lines


def slug(heading: str) -> str:
    """A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to
    hyphens."""
    text = heading.strip().lower()
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCED.sub("", path.read_text(encoding="utf-8"))
    return {slug(h) for h in re.findall(r"^#+ (.+)$", text, re.M)}


def subcommands() -> dict[str, argparse.ArgumentParser]:
    parser = build_parser()
    action = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    return dict(action.choices)


def test_the_readme_is_a_front_door_under_200_lines():
    lines = len(README.read_text(encoding="utf-8").splitlines())
    assert lines < MAX_README_LINES, f"README.md has {lines} lines; move reference to docs/"


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(ROOT).as_posix())
def test_every_relative_link_leads_to_a_file_and_heading_that_exist(page):
    problems = []
    for target in LINK.findall(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z+.-]*:", target):  # https:, mailto:
            continue
        path, _, anchor = target.partition("#")
        linked = (page.parent / path).resolve() if path else page
        if not linked.exists():
            problems.append(f"{target}: no file {linked.relative_to(ROOT)}")
        elif anchor and linked.suffix == ".md" and anchor not in anchors(linked):
            problems.append(f"{target}: no heading #{anchor} in {linked.name}")
    assert not problems, problems


def test_every_command_the_docs_show_is_in_the_parser():
    known = subcommands()
    shown = {
        command
        for page in PAGES
        for snippet in code(page.read_text(encoding="utf-8"))
        for command in COMMAND.findall(snippet)
    }
    assert shown, "no `gamecore COMMAND` found: the pattern no longer matches the docs"
    assert shown <= set(known), sorted(shown - set(known))
    readme = {c for s in code(README.read_text(encoding="utf-8")) for c in COMMAND.findall(s)}
    assert set(known) <= readme, f"the README shows no example of {sorted(set(known) - readme)}"


@pytest.mark.parametrize("page", [README, ROOT / "docs" / "cli.md"], ids=lambda p: p.name)
def test_every_command_line_shown_parses(page):
    parser = build_parser()
    problems = []
    for line in command_lines(page.read_text(encoding="utf-8")):
        if "--help" in line or "--version" in line:
            continue
        try:
            parser.parse_args(shlex.split(line))
        except SystemExit:
            problems.append(line)
    assert not problems, f"not accepted by the parser: {problems}"


def test_every_game_and_report_the_docs_name_is_registered():
    reports = set(games.reports())
    problems = []
    for page in PAGES:
        text = page.read_text(encoding="utf-8")
        for snippet in code(text):
            for command, game in GAME_COMMAND.findall(snippet):
                if game not in games.NAMES and not game.isupper():  # GAME: a placeholder
                    problems.append(f"{page.name}: gamecore {command} {game}")
            for report in REPORT.findall(snippet):
                if report not in reports and not report.isupper():
                    problems.append(f"{page.name}: report {report}")
            for game in REGISTRY_CALL.findall(snippet):
                if game not in games.NAMES:
                    problems.append(f"{page.name}: games.game({game!r})")
    assert not problems, problems


def test_the_games_and_reports_tables_name_registered_games_and_reports():
    """The first column of docs/games.md's table names each game by its code name, and
    that of docs/reports.md's table each report."""
    rows = {
        "games.md": (set(games.NAMES), r"^\| [^|]*?\(`([a-z0-9_]+)`\)"),
        "reports.md": (set(games.reports()), r"^\| `([a-z0-9_]+)` \|"),
    }
    for name, (registered, pattern) in rows.items():
        text = (ROOT / "docs" / name).read_text(encoding="utf-8")
        named = set(re.findall(pattern, text, re.M))
        assert named, f"no table rows found in {name}: the pattern no longer matches"
        assert named <= registered, f"{name}: {sorted(named - registered)} not registered"
