"""A par sheet reads alone (issue 41, item 5): every page numbered "Page x of y" under a
header naming the game, the report, gamecore's version and the build date; a document
revision that moves with its figures; an attestation statement a reviewer signs; each rule
once, in words; a glossary of the terms the sheet uses, as its game means them; headings that
are titles, not file names; a rule card laid out as its text reads, its words unchanged."""

import re
import shutil

import pandas as pd
import pytest
from helpers import pdf_pages
from hypothesis import given
from hypothesis import strategies as st

import gamecore
from gamecore import games
from gamecore.reporting import cardlayout, document, glossary, titles
from gamecore.reporting.report import rule_card

# --- the rule card, laid out ----------------------------------------------------------------


@pytest.mark.parametrize("game", games.rule_cards())
def test_a_laid_out_card_holds_the_received_words_in_order(game):
    text = rule_card(game)
    lines = cardlayout.card_lines(text)
    assert " ".join(lines).split() == text.split()
    assert "" not in (lines[0], lines[-1])
    assert all(a or b for a, b in zip(lines, lines[1:], strict=False))  # no two blanks


def test_the_punto_banco_card_is_a_table_row_a_line_not_a_cell_a_line():
    lines = cardlayout.card_lines(rule_card("punto_banco"))
    assert "| King | 0 |" in lines
    row = "| 6 | Stand | Stand | Stand | Stand | Stand | Stand | Yes | Yes | Stand | Stand |"
    assert row in lines
    # 212 lines as received, a third of them single cells.
    assert len(lines) < len(rule_card("punto_banco").splitlines()) / 2


@given(st.lists(st.text(alphabet="ab |\n\u00a0X.", max_size=12), max_size=12))
def test_any_text_keeps_its_words(pieces):
    text = "\n".join(pieces)
    assert " ".join(cardlayout.card_lines(text)).split() == text.split()


# --- titles ----------------------------------------------------------------------------------


def test_titles_are_words_never_file_names():
    assert titles.title("table_pd") == "The full table: the P/D's result per round"
    assert titles.title("bet_dragon7") == "Dragon 7: each outcome"
    assert titles.title("ev_by_true_count") == "EV by true count"
    assert titles.title("cross_check_deck_sweep") == "Cross-check: the deck sweep"
    assert not titles.is_titled("made_up_table")
    assert titles.title("made_up_table") == "Made up table"  # the fallback a test catches


def test_every_table_and_figure_of_the_built_reports_has_a_title(
    baccarat_reports, dragon_tiger_reports
):
    untitled = []
    for folder in _reports(baccarat_reports, dragon_tiger_reports):
        for path in sorted(folder.glob("*.csv")) + sorted(folder.glob("*.png")):
            if not titles.is_titled(path.stem):
                untitled.append(f"{folder.name}/{path.name}")
    assert not untitled, untitled


# --- the glossary ----------------------------------------------------------------------------


def _terms(entries):
    return {entry["term"]: entry["text"] for entry in entries}


def test_the_glossary_explains_odds_by_the_sheets_own_payout():
    baccarat = _terms(glossary.glossary(["punto_banco"], ["Pays"], ["19 to 20", "push", "loses"]))
    assert "19 to 20: 19 won for every 20 wagered" in baccarat["Pays"]
    blackjack = _terms(glossary.glossary(["c21_blackjack"], [], ["6 to 5", "loses"]))
    assert "19 to 20" not in " ".join(blackjack.values())
    assert "6 to 5: 6 won for every 5 wagered" in blackjack["Pays"]
    assert "P/D" in blackjack and "player/dealer" in blackjack["P/D"]
    assert "Net result" in blackjack
    assert "P/D" not in baccarat and "Net result" not in baccarat


def test_every_payout_word_a_sheet_prints_is_defined():
    pays = ["1 to 1", "loses 1/2", "push", "loses"]
    text = _terms(glossary.glossary(["dragon_tiger"], ["Pays"], pays))["Pays"]
    for word in ("loses 1/2:", "push:", "loses:"):
        assert word in text, word


def test_a_term_is_defined_only_where_the_sheet_uses_it():
    plain = _terms(glossary.glossary(["punto_banco"], [], []))
    assert not {"Combinations", "Pays", "Verdict", "Limit", "How obtained"} & set(plain)
    full = _terms(glossary.glossary(["punto_banco"], ["Combinations", "Limit", "How obtained",
                                                      "Verdict (4 SE)"], ["8 to 1"]))  # fmt: skip
    assert {"Combinations", "Pays", "Verdict", "Limit", "How obtained"} <= set(full)


# --- the par sheet, as printed ---------------------------------------------------------------


@pytest.fixture(scope="module")
def punto_banco(baccarat_reports):
    return baccarat_reports / "punto_banco"


def test_every_page_of_every_par_sheet_and_document_is_numbered_under_its_header(
    baccarat_reports,
):
    for folder in sorted(p for p in baccarat_reports.iterdir() if p.is_dir()):
        for pdf in (f"{folder.name}_par_sheet.pdf", f"{folder.name}.pdf"):
            pages = pdf_pages(folder / pdf)
            for number, text in enumerate(pages, start=1):
                flat = " ".join(text.split())
                assert f"Page {number} of {len(pages)}" in flat, (pdf, number)
                if pdf.endswith("_par_sheet.pdf") or number > 1:  # the cover has no header
                    head = " ".join(text.split("\n")[:3])
                    assert f"report {folder.name}" in head, (pdf, number, head)
                    assert f"gamecore {gamecore.__version__}" in head, (pdf, number)
                    assert "built 20" in head and "revision " in head, (pdf, number)


def test_the_par_sheet_can_be_signed_and_states_its_revision(punto_banco):
    [sheet] = pdf_pages(punto_banco / "punto_banco_par_sheet.pdf")
    flat = " ".join(sheet.split())
    assert "I have reviewed the par sheet of High Limit Baccarat" in flat
    data = document.document_data(punto_banco, "punto_banco")
    assert f"revision {data['revision']}" in flat
    assert re.fullmatch(r"[0-9a-f]{12}", data["revision"])


def test_the_revision_moves_with_a_figure_and_only_with_what_the_sheet_states(
    punto_banco, tmp_path
):
    copy = tmp_path / "punto_banco"
    shutil.copytree(punto_banco, copy)
    first = document.document_data(copy, "punto_banco")["revision"]
    provenance = pd.read_csv(copy / "provenance.csv", dtype=str)
    provenance.loc[provenance["Item"] == "run time (s)", "Value"] = "999.99"
    provenance.to_csv(copy / "provenance.csv", index=False)
    assert document.document_data(copy, "punto_banco")["revision"] == first
    bet = pd.read_csv(copy / "bet_banker.csv", dtype=str)
    bet.loc[0, "Probability"] = "0.5"
    bet.to_csv(copy / "bet_banker.csv", index=False)
    assert document.document_data(copy, "punto_banco")["revision"] != first


def test_each_rule_is_stated_once_in_words(punto_banco):
    data = document.document_data(punto_banco, "punto_banco")
    front = data["front_matter"]
    rules = pd.read_csv(punto_banco / "rules.csv", dtype=str, keep_default_na=False)
    named_in_parameters = {row[i] for row in front["parameters"]["rows"] for i in (0, 2, 4)}
    assert not set(rules["Parameter"]) & named_in_parameters
    [sheet] = pdf_pages(punto_banco / "punto_banco_par_sheet.pdf")
    flat = " ".join(sheet.split())
    for row in rules.itertuples(index=False):
        assert row[rules.columns.get_loc("In words")] in flat, row


def test_the_par_sheet_glossary_is_the_games(punto_banco):
    data = document.document_data(punto_banco, "punto_banco")
    terms = _terms(data["front_matter"]["glossary"])
    assert "19 to 20" in terms["Pays"] and "P/D" not in terms


# --- the text a reviewer reads ---------------------------------------------------------------

#: Beyond test_documents.FORBIDDEN: what print writes as a symbol, written in ASCII, and a
#: word said twice.
ASCII_FOR_SYMBOLS = {
    "<= for ≤": r"<=",
    ">= for ≥": r">=",
    "+/- for ±": r"\+/-",
    "^ for a power": r"\d\^-?\d",
    # A sentence's word said twice ("Shown shown"), not a table's cells side by side.
    "a word twice": r"\b([A-Z])([a-z]{2,}) (?=[a-z])(?i:\1)\2\b",
}


def _reports(*folders):
    return [p for folder in folders for p in sorted(folder.iterdir()) if p.is_dir()]


def test_no_pdf_writes_a_symbol_in_ascii_or_a_word_twice(baccarat_reports, dragon_tiger_reports):
    from test_documents import FORBIDDEN

    patterns = {**FORBIDDEN, **ASCII_FOR_SYMBOLS}
    for folder in _reports(baccarat_reports, dragon_tiger_reports):
        for pdf in (f"{folder.name}.pdf", f"{folder.name}_par_sheet.pdf"):
            for number, text in enumerate(pdf_pages(folder / pdf), start=1):
                # a word twice is looked for in prose: lines without a figure (a table's row
                # puts a wager's title beside its key, "Player player 1.2864%")
                prose = "\n".join(line for line in text.splitlines() if not re.search(r"\d", line))
                for what, pattern in patterns.items():
                    found = re.search(pattern, prose if what == "a word twice" else text)
                    context = found and found.string[max(0, found.start() - 40) : found.end() + 40]
                    assert not found, (pdf, number, what, context)


def test_no_par_sheet_states_a_rule_value_by_its_code(baccarat_reports, dragon_tiger_reports):
    for folder in _reports(baccarat_reports, dragon_tiger_reports):
        words = " ".join(" ".join(pdf_pages(folder / f"{folder.name}_par_sheet.pdf")).split())
        for path in folder.glob("rules*.csv"):
            rules = pd.read_csv(path, dtype=str, keep_default_na=False)
            for value, in_words in zip(rules["Value"], rules["In words"], strict=True):
                assert in_words in words, (folder.name, in_words)
                if value != in_words and not re.fullmatch(r"[\d.]+", value):
                    assert not re.search(rf"\b{re.escape(value)}\b", words), (folder.name, value)


def test_a_blackjack_table_says_its_figures_are_a_float_recursion(tmp_path):
    import json

    frame = pd.DataFrame({"Up card": ["10"], "Player EV": [-0.1]})
    for name in ("by_up_card", "table_seats", "table_bank"):
        frame.to_csv(tmp_path / f"{name}.csv", index=False)
    marks = {"by_up_card.csv": [], "table_seats.csv": ["Player EV"], "table_bank.csv": []}
    summary = {"files_in_order": list(marks), "tables": {"simulated_columns": marks}}
    (tmp_path / "summary.json").write_text(json.dumps(summary), "utf-8")
    notes = {
        t["title"]: t.get("note", "")
        for t in document.document_data(tmp_path, "c21_blackjack")["body"]
    }
    assert "float64" in notes[titles.title("by_up_card")]  # exact, but not integer counts
    assert notes[titles.title("table_seats")] == ""  # simulated: its SE says how
    assert notes[titles.title("table_bank")] == ""  # settings: nothing obtained
    baccarat = document.document_data(tmp_path, "punto_banco")["body"]
    assert all(not t.get("note") for t in baccarat)  # integer counts: the glossary says so


def test_a_par_sheet_table_keeps_a_column_of_hashes_at_its_width():
    # The side bets' definitions: bet, file (words that wrap), SHA-256 (one word of 64
    # characters). Measured with the others, the hashes were set narrower than themselves
    # and ran past the page once the built-ins' file names grew; now that column keeps its
    # width (0: auto in the template) and the text columns share the rest.
    from gamecore.reporting import layout

    rows = [
        ["player_pair", "gamecore/sidebets/definitions/player_pair.yaml, built-in", "ab" * 32],
        ["mine", "bets/mine.yaml", "cd" * 32],
    ]
    assert layout.page_widths(rows, ["left", "left", "left"], 40) == [3, 3, 0]
    # A long first column alone: text three shares to a number's one, nothing kept.
    verdicts = [["Dragon 7, 8 decks, cut card 14 cards from the end, bet at true count", "1.5"]]
    assert layout.page_widths(verdicts, ["left", "right"], 40) == [3, 1]
    # Neither: the typesetter's own measure.
    assert layout.page_widths([["Pair", "11 to 1"]], ["left", "right"], 40) is None
    assert layout.page_widths([], ["left"], 40) is None
