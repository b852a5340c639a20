"""Hostile input, round four (issue 42, items 1 and 14), as properties over any text: what
a user wrote (a side bet's title or outcome name, a file name) reaches a notebook's
Markdown, a workbook cell and a terminal as the text it is, never as markup, a formula or
a control sequence. ``make fuzz`` runs these with many more examples; the fixed cases of
each class are in tests/test_hostile_42_*.py.

The renderer is mistune, the Markdown renderer Jupyter's nbconvert uses (independent of
gamecore's escaping); the workbook is read back by openpyxl from the saved file.
"""

import html
import io
import unicodedata

import mistune
import openpyxl
from hypothesis import given
from hypothesis import strategies as st

from gamecore.errors import one_line
from gamecore.reporting.escaping import (
    FORMULA_PREFIXES,
    markdown_text,
    terminal_text,
    workbook_without_formulas,
)

#: Text as a definition's title could hold it: letters, digits, punctuation and symbols of
#: any script (markup's and formulas' characters among them), single spaces between.
WORDS = st.lists(
    st.text(
        alphabet=st.characters(whitelist_categories=("L", "N", "P", "S")),
        min_size=1,
        max_size=12,
    ),
    min_size=1,
    max_size=5,
).map(" ".join)

#: Markup a hostile title would try, mixed into the words.
MARKUP = st.sampled_from(
    ["<script>alert(1)</script>", "<img src=x onerror=alert(1)>", "*bold*", "[a](javascript:x)",
     "# heading", "`code`", "&amp;", "=HYPERLINK(\"http://x\")", "+1+1", "-2", "@SUM(A1)"]
)
HOSTILE = st.lists(st.one_of(WORDS, MARKUP), min_size=1, max_size=4).map(" ".join)

#: Unicode's categories a terminal acts on, hides or shows as blank (the space alone kept).
HIDDEN = ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp", "Zs")


@given(text=HOSTILE)
def test_a_markdown_heading_shows_the_text_as_typed(text):
    rendered = mistune.html(markdown_text(text)).strip()
    assert rendered.startswith("<p>") and rendered.endswith("</p>"), rendered
    inner = rendered[len("<p>") : -len("</p>")]
    assert "<" not in inner  # no element made: every < of the text is &lt;
    assert html.unescape(inner) == text


@given(text=HOSTILE)
def test_a_workbook_cell_holds_the_text_never_a_formula(text):
    book = openpyxl.Workbook()
    book.active["A1"] = text
    buffer = io.BytesIO()
    workbook_without_formulas(book).save(buffer)
    cell = openpyxl.load_workbook(io.BytesIO(buffer.getvalue())).active["A1"]
    assert cell.data_type == "s" and cell.value == text
    assert cell.quotePrefix == text.startswith(FORMULA_PREFIXES)


@given(text=st.text())
def test_an_error_line_holds_nothing_a_terminal_acts_on(text):
    line = one_line(f"file {text}: not found")
    assert "\n" not in line and "\r" not in line
    assert not [c for c in line if unicodedata.category(c) in HIDDEN and c != " "], line


@given(text=st.text())
def test_terminal_text_escapes_every_control_character_and_keeps_the_rest(text):
    shown = terminal_text(text)
    assert not [c for c in shown if unicodedata.category(c) in ("Cc", "Cf") and c not in "\n\t"]
    if all(unicodedata.category(c) not in ("Cc", "Cf") or c in "\n\t" for c in text):
        assert shown == text  # nothing to escape: the text as it is
