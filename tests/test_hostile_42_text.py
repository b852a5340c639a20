"""Issue 42, item 1: text a user wrote reaches no document as markup or a formula.

Written from the attacker's side: a side-bet definition whose title, description and
outcome names are a spreadsheet formula, HTML that runs script, Markdown and Typst markup,
read and reported the way the side bets notebook does it (its tables through
:class:`gamecore.reporting.Report`, the folder made a workbook), then each document is read
back as its reader would: the workbook's cells, the page's HTML, the terminal's bytes.
"""

from __future__ import annotations

import html
import json
import re
import zipfile
from importlib import resources

import pandas as pd
import pytest

from gamecore import GamecoreError, terminal
from gamecore.reporting import Report, escaping
from gamecore.reporting.workbook import write_workbook
from gamecore.sidebets import definition, study
from gamecore.sidebets.parsheet import par_sheet

FORMULA = '=HYPERLINK("http://x","y")'
SCRIPT = "<script>alert(1)</script>"
IMAGE = "<img src=x onerror=alert(1)>"
AT_FORMULA = "@SUM(1)"
PLUS_FORMULA = "+1+1"
TYPST = '#eval("1") *bold*'
TITLE = f"{FORMULA} {SCRIPT}"
HOSTILE = (FORMULA, SCRIPT, IMAGE, AT_FORMULA, PLUS_FORMULA)

DEFINITION = f"""\
bet: hostile
title: '{TITLE}'
game: baccarat
decks: 1
description: '{IMAGE} {TYPST}'
outcomes:
  - name: '{FORMULA}'
    when:
      same_rank: [banker_1, banker_2]
    pays: 11 to 1
  - name: '{SCRIPT}'
    when:
      same_rank: [player_1, player_2]
    pays: 11 to 1
  - name: '{AT_FORMULA}'
    when:
      natural: [player]
    pays: 1 to 1
  - name: '{IMAGE}'
    when:
      winner: tie
    pays: 2 to 1
  - name: '{PLUS_FORMULA}'
    when:
      winner: banker
    pays: 1 to 2
"""


@pytest.fixture(scope="module")
def hostile_report(tmp_path_factory):
    """A side bets report folder of the hostile bet's tables (as the notebook writes them),
    its summary.json titled and parametrised by hostile text, and its workbook written; the
    Styler of the bet's table, for its HTML."""
    folder = tmp_path_factory.mktemp("hostile")
    path = folder / "hostile.yaml"
    path.write_text(DEFINITION, "utf-8")
    bet = definition.load(str(path))
    report = Report(folder / "side_bets", "side_bets", {"side_bets": [str(path)]})
    sheet = par_sheet(bet, 1)
    styled = report.table(sheet.analysis.table(), f"bet_{bet.bet}")
    report.table(study.definitions_table([bet]), "definitions_read")
    summary = {"title": TITLE, "parameters": {"note": AT_FORMULA, "side_bets": [FORMULA]}}
    (report.output_dir / "summary.json").write_text(json.dumps(summary), "utf-8")
    return bet, report.output_dir, write_workbook(report.output_dir, "side_bets"), styled


def test_the_definition_is_read_as_written(hostile_report):
    """The attack reaches the reports: the bet's title and outcome names are the text."""
    bet, *_ = hostile_report
    assert bet.title == TITLE
    assert [o.name for o in bet.outcomes] == [FORMULA, SCRIPT, AT_FORMULA, IMAGE, PLUS_FORMULA]


def test_no_workbook_cell_is_a_formula(hostile_report):
    """Every hostile text is a text cell holding exactly the text, quote-prefixed (editing it
    keeps it text); no cell anywhere is a formula, in openpyxl's reading or the file's XML."""
    from openpyxl import load_workbook

    _, _, path, _ = hostile_report
    book = load_workbook(path)
    cells = [cell for sheet in book.worksheets for row in sheet.iter_rows() for cell in row]
    assert not [c.coordinate for c in cells if c.data_type == "f"]
    found = {text: [c for c in cells if c.value == text] for text in HOSTILE}
    for text, holding in found.items():
        assert holding, f"{text} is in no cell"
        assert all(c.data_type == "s" for c in holding), text
        prefixed = text.startswith(("=", "+", "-", "@"))
        assert all(c.quotePrefix == prefixed for c in holding), text
    assert [c for c in cells if c.value == TITLE and c.data_type == "s"]  # the front title
    with zipfile.ZipFile(path) as archive:
        sheets = [n for n in archive.namelist() if n.startswith("xl/worksheets/")]
        assert not any("<f>" in archive.read(n).decode("utf-8") for n in sheets)


def test_numbers_stay_numbers_beside_hostile_text(hostile_report):
    """Escaping touches text only: the bet's counts are still numbers."""
    from openpyxl import load_workbook

    _, folder, path, _ = hostile_report
    sheet = load_workbook(path)["bet_hostile"]
    header = [c.value for c in sheet[1]]
    combinations = [row[header.index("Combinations")] for row in sheet.iter_rows(min_row=2)]
    counts = pd.read_csv(folder / "bet_hostile.csv")["Combinations"].tolist()
    assert [c.value for c in combinations] == counts
    assert all(c.data_type == "n" and not c.quotePrefix for c in combinations)


def test_the_page_table_shows_the_text_and_runs_nothing(hostile_report):
    """The HTML of the bet's table (as nbconvert puts it in the page): the names escaped,
    no tag of theirs."""
    _, _, _, styled = hostile_report
    page = styled.to_html()
    assert "<script" not in page and "<img" not in page
    for text in (SCRIPT, IMAGE):
        assert html.escape(text, quote=False) in page


def test_a_hostile_header_is_escaped_on_the_page(tmp_path):
    """A table's header a user wrote (a deck sweep names outcomes) is escaped too."""
    report = Report(tmp_path, "side_bets", {})
    page = report.table(pd.DataFrame({SCRIPT: ["x"], "Probability": [0.5]}), "t").to_html()
    assert "<script" not in page and html.escape(SCRIPT) in page


def test_the_notebook_headings_render_as_text():
    """A bet's title and description as the notebook's Markdown headings show them, rendered
    by nbconvert's Markdown filter (the page's): no tag, link or emphasis made of them."""
    from nbconvert.filters.markdown_mistune import markdown2html_mistune

    rendered = markdown2html_mistune(
        f"### {escaping.markdown_text(TITLE)}\n\n{escaping.markdown_text(IMAGE + ' ' + TYPST)}"
    )
    assert "<script" not in rendered and "<img" not in rendered
    assert '<a href="http' not in rendered and "<em>" not in rendered
    assert html.escape(SCRIPT) in rendered and "*bold*" in rendered


def test_the_side_bets_notebook_escapes_every_markdown_it_displays():
    """No f-string of the side bets notebook (its Markdown headings) puts a bet's title or
    description in unescaped: each goes through ``md``
    (:func:`gamecore.reporting.escaping.markdown_text`)."""
    import ast

    from gamecore.reporting.report import NOTEBOOK_DIR

    cells = json.loads((NOTEBOOK_DIR / "side_bets.ipynb").read_text("utf-8"))["cells"]
    trees = [ast.parse("".join(c["source"])) for c in cells if c["cell_type"] == "code"]
    headings = [  # the f-strings that make a Markdown heading
        node
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr) and "###" in ast.unparse(node)
    ]
    placed = [v.value for h in headings for v in h.values if isinstance(v, ast.FormattedValue)]
    assert len(headings) >= 5  # a heading per section showing each bet, at least
    written = re.compile(r"\bbet\.(title|description|source)\b")  # a bet's code, game: checked
    bets_text = [ast.unparse(v) for v in placed if written.search(ast.unparse(v))]
    assert bets_text and all(t.startswith("md(") for t in bets_text), bets_text
    markdown = [
        ast.unparse(node)
        for tree in trees
        for node in ast.walk(tree)
        if isinstance(node, ast.Call) and ast.unparse(node.func) == "Markdown"
    ]
    assert markdown and all(not written.search(m) or "md(" in m for m in markdown), markdown


def test_the_terminal_table_sends_no_control_character():
    """A cell or header holding ESC (a colour, a cursor move) is printed as its escape."""
    frame = pd.DataFrame({"\x1b[2JName": ["\x1b[31mred\x1b[0m", "\u202eevil"], "Pays": [1, 2]})
    text = terminal.table(frame, columns=80)
    assert "\x1b" not in text and "\u202e" not in text
    assert "\\x1b[31mred\\x1b[0m" in text and "\\x1b[2JName" in text and "\\u202eevil" in text


def test_a_definition_with_a_control_character_is_refused(tmp_path):
    """The definition itself refuses ESC in its text (the terminal's escape is the second
    line of defence, for parameters and manifests)."""
    path = tmp_path / "esc.yaml"
    path.write_text(DEFINITION.replace("title: '", "title: '\x1b[31m"), "utf-8")
    with pytest.raises(GamecoreError, match="U\\+001B"):
        definition.load(str(path))


def test_typst_sets_a_string_as_text_and_the_template_evaluates_none(tmp_path):
    """The PDFs' data reach Typst as JSON (``sys.inputs``): a string placed in the page is
    set as text, its markup printed as typed; the template never evaluates a string."""
    import io

    import pypdf
    import typst

    from gamecore.reporting.document import TEMPLATE

    template = resources.files("gamecore.reporting").joinpath(TEMPLATE).read_text("utf-8")
    assert "eval(" not in template and "json(bytes(sys.inputs.data))" in template
    source = tmp_path / "t.typ"
    source.write_text("#let data = json(bytes(sys.inputs.data))\n#data.title\n", "utf-8")
    title = f"{TYPST} $x$ <label> @ref {SCRIPT}"
    pdf = typst.compile(str(source), sys_inputs={"data": json.dumps({"title": title})})
    text = pypdf.PdfReader(io.BytesIO(pdf)).pages[0].extract_text()
    assert " ".join(text.split()) == title
