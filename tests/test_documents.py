"""The documents a lab files: one number style (gamecore.reporting.numbers) in the PDFs and
the HTML tables, the par sheet's front matter (game, rule card and its SHA-256, rule set,
version, commit, date, parameters, glossary, attestation), a provenance that is not empty,
and rule cards shown as their authors wrote them."""

import datetime
import hashlib
import json
import math
import re
from fractions import Fraction

import pandas as pd
import pytest
from helpers import pdf_pages

import gamecore
from gamecore import games
from gamecore.reporting import document, layout, numbers
from gamecore.reporting.report import Report, rule_card

# --- rule cards ------------------------------------------------------------------------

#: Windows-1252's curly quotes, bullet and dashes (bytes 0x91-0x97) as Mac Roman reads
#: those bytes, written out by hand; and UTF-8 read as Windows-1252 (``â€™``, ``Ã©``).
MAC_ROMAN_MOJIBAKE = "ëíìîïñó"
UTF8_AS_CP1252 = ("â€", "Ã")


def test_the_mojibake_is_windows_1252_punctuation_read_as_mac_roman():
    # The card's "Dealerís" and "ìactionî": the bytes 0x92, 0x93, 0x94 of Windows-1252.
    assert "’“”".encode("cp1252") == b"\x92\x93\x94"
    assert b"\x92\x93\x94".decode("mac_roman") == "íìî"


@pytest.mark.parametrize("game", games.rule_cards())
def test_no_rule_card_holds_mojibake(game):
    text = rule_card(game)
    assert not [c for c in MAC_ROMAN_MOJIBAKE if c in text], game
    assert not [s for s in UTF8_AS_CP1252 if s in text], game


def test_the_c21_baccarat_card_reads_as_written_and_the_file_is_as_received():
    text = rule_card("c21_baccarat")
    assert "the Player/Dealer’s position is always 1, 9 or 17" in text
    assert "can only receive “action” on the total amount" in text
    received = rule_card("c21_baccarat", as_received=True)
    assert "Player/Dealerís position" in received and "ìactionî" in received


# --- the number style ------------------------------------------------------------------


def test_payouts_print_as_odds():
    cells, align = numbers.format_column("Pays", ["0.95", "0.0", "-1.0", "", "8", "40 to 1"])
    assert cells == ["19 to 20", "push", "loses", "", "8 to 1", "40 to 1"]
    assert align == "right"


def test_percentages_probabilities_and_integers():
    assert numbers.format_column("House edge", ["0.0101174829", "-6.9e-18"])[0] == [
        "1.0117%",
        "0.0000%",  # float rounding of an exact zero: no sign, no exponent
    ]
    assert numbers.format_column("Probability", ["0.45962416", "5.4e-18", "0.0"])[0] == [
        "0.45962416",
        "< 0.00000001",  # not zero: too small for the column's resolution
        "0.00000000",
    ]
    assert numbers.format_column("Combinations", ["6737232640", "4046"])[0] == [
        "6,737,232,640",
        "4,046",
    ]
    assert numbers.format_column("Rounds", ["4046.0", "12.0"])[0] == ["4,046", "12"]
    assert numbers.format_column("z", ["-1.2345", "0.5"])[0] == ["-1.23", "0.50"]
    # An EV gain of 4.1e-7 is 0.000041 percent: not printed as 0.0000%.
    assert numbers.format_column("EV gain", ["4.1015759617846204e-07"])[0] == ["0.000041%"]
    # Money and correlations are not shares, whatever else their names say.
    assert numbers.kind_of("Expected units per 100 rounds (exact EV of the round)") == "number"
    assert numbers.kind_of("Correlation of true count with exact EV") == "number"
    # A share named as a percentage of something: 0.1 of a wager is 10%.
    assert numbers.format_column("Collection as % of wager", ["0.1"])[0] == ["10.0000%"]


def test_float_noise_is_rounded_to_the_columns_decimals():
    cells, _ = numbers.format_column("Mean", ["-59.000099999999996", "1.5"])
    assert cells == ["-59.0001", "1.5000"]


def test_a_value_column_prints_each_value_as_itself_and_literals_as_words():
    cells, align = numbers.format_column(
        "Value", ["8", "0.05", "True", "False", "None", "face_value", "[1, 2, 4]"]
    )
    assert cells == ["8", "0.05", "yes", "no", numbers.DASH, "face_value", "1, 2, 4"]
    assert align == "left"
    assert numbers.plain_text("dealer_hits_soft_17=False") == "dealer_hits_soft_17=no"
    assert numbers.plain_text("the `decks` parameter, **exact**") == "the decks parameter, exact"


def test_a_twin_table_prints_each_row_in_the_kind_of_its_figure():
    rows, _ = numbers.format_table(
        ["Figure", "Exact", "Simulated", "SE", "z"],
        [
            ["Banker house edge", "0.0101174829", "0.0102", "0.0021", "0.04"],
            ["P(tie)", "0.0953", "0.0951", "0.00065", "-0.3"],
        ],
    )
    assert rows[0] == ["Banker house edge", "1.0117%", "1.0200%", "0.2100%", "0.04"]
    assert rows[1] == ["P(tie)", "0.09530000", "0.09510000", "0.00065000", "-0.30"]


def _csv(path, columns, rows):
    pd.DataFrame(rows, columns=columns).to_csv(path, index=False)
    return document.table_data(path)


def test_a_long_text_cell_wraps_on_a_portrait_page_but_numbers_never_wrap(tmp_path):
    """The typesetter sets a table too wide for the page by giving each of its widest
    columns an equal share of the room left, wrapping their text: a long label wraps (into
    three lines at most) and keeps the table portrait at full size; a number never wraps, so
    a wide block of numbers takes smaller type, and landscape past the smallest."""
    label = "not shown either way (within four standard errors of zero)"
    text = _csv(tmp_path / "text.csv", ["Verdict", "Edge"], [[label, "0.01"], ["countable", "0"]])
    assert not text["wide"] and text["size"] == layout.TYPE_PT
    # Fourteen columns of "0.12345679" (ten characters): an equal share of a portrait page is
    # 500 / 14 pt, which holds ten characters of 4.3 pt x size / 8 and half the 7 pt padding
    # up to 5.99 pt type: 5.9 pt, the largest size tried at or below it.
    columns = [f"P{k}" for k in range(14)]
    numbers_only = _csv(tmp_path / "numbers.csv", columns, [["0.123456789"] * 14] * 2)
    assert numbers_only["rows"][0][0] == "0.12345679"
    largest = (500 / 14 - 7 / 2) / (10 * 4.3 / 8)
    assert 5.9 <= largest < 6.0
    assert not numbers_only["wide"] and numbers_only["size"] == 5.9
    wider = _csv(tmp_path / "wider.csv", columns * 2, [["0.123456789"] * 28] * 2)
    assert wider["wide"]


def test_tables_around_a_wide_one_fill_its_landscape_page_and_no_further():
    """A landscape page holding one short wide table would be near empty, and so would the
    portrait page before it holding only a short table: a short table just before a wide one
    goes on its landscape page, and the tables after it join that page while they fit its
    rows; a figure, or a table past them, goes back to portrait pages."""

    def table(name, rows, wide=False):
        return {"kind": "table", "title": name, "rows": [["x"]] * rows, "wide": wide}

    figure = {"kind": "figure", "title": "plot", "file": "plot.png"}
    body = [table("a", 20), table("b", 5), table("wide", 10, True), table("c", 6), table("d", 9)]
    groups = layout.grouped([*body, figure])
    assert [g.get("title") for g in groups] == ["a", None, "d", "plot"]
    # 5 + 3 rows (title and header), 10 + 3 and 6 + 3: 30 rows, a landscape page's.
    assert [t["title"] for t in groups[1]["items"]] == ["b", "wide", "c"]
    assert 3 * layout.TITLE_ROWS + 5 + 10 + 6 == layout.LANDSCAPE_ROWS
    # A run of wide tables shares landscape pages; a figure ends the run.
    body = [figure, table("w1", 40, True), table("w2", 3, True), figure, table("e", 2)]
    groups = layout.grouped(body)
    assert groups[0] == figure and [t["title"] for t in groups[1]["items"]] == ["w1", "w2"]
    assert groups[2:] == [figure, body[4]]


def test_one_row_too_wide_for_the_page_reads_down_it(tmp_path):
    columns = [f"Probability {k}" for k in range(14)]
    table = _csv(tmp_path / "one.csv", ["Bettor", *columns], [["perfect", *["0.5"] * 14]])
    assert table["columns"] == ["Column", "Value"] and not table["wide"]
    assert table["rows"][0] == ["Bettor", "perfect"]
    assert table["rows"][1] == ["Probability 0", "0.50000000"]
    assert len(table["rows"]) == 15 and table["size"] == layout.TYPE_PT
    # Two such rows stay a table of rows: each column's figures side by side compare.
    two = _csv(tmp_path / "two.csv", ["Bettor", *columns], [["a", *["0.5"] * 14]] * 2)
    assert two["columns"] == ["Bettor", *columns]


def test_the_html_tables_use_the_same_style(tmp_path):
    frame = pd.DataFrame(
        {
            "Outcome": ["Banker wins", "Tie"],
            "Pays": [0.95, 0.0],
            "Combinations": [6_737_232_640, 1_372_227_328],
            "Return": [0.436642947, -6.9e-18],
            "Split": [True, False],
        }
    )
    html = Report(tmp_path, "test", {}).table(frame, "table").to_html()
    for shown in ("19 to 20", "push", "6,737,232,640", "43.6643%", "0.0000%", "yes", "no"):
        assert shown in html, shown
    assert "True" not in html and "e-18" not in html


# --- a built report's documents ---------------------------------------------------------

#: What a page's text must not hold: Python's literals (as a value, not "True count"), float
#: noise, scientific notation, Markdown source.
FORBIDDEN = {
    "a Python literal": r"(?<![\w-])(True|False|None)(?![\w-]| count)",
    "float noise": r"\d\.\d{9,}",
    "an exponent": r"\de[-+]\d",
    "Markdown": r"##|`|\*\*",
}


@pytest.fixture(scope="module")
def report(baccarat_reports):
    """The punto banco report test_notebooks reads too (conftest.baccarat_reports)."""
    return baccarat_reports / "punto_banco"


def _text(path):
    return pdf_pages(path)


def test_no_page_holds_literals_noise_or_markdown(report):
    for name in ("punto_banco.pdf", "punto_banco_par_sheet.pdf"):
        for number, text in enumerate(_text(report / name), start=1):
            for what, pattern in FORBIDDEN.items():
                found = re.search(pattern, text)
                assert not found, (name, number, what, text[found.start() - 40 : found.end() + 40])


def test_the_par_sheet_states_what_it_is_for_and_can_be_signed(report):
    [sheet] = _text(report / "punto_banco_par_sheet.pdf")
    provenance = pd.read_csv(report / "provenance.csv").set_index("Item")["Value"]
    received = (games.game("punto_banco").rule_card, rule_card("punto_banco", as_received=True))
    digest = hashlib.sha256(received[1].encode("utf-8")).hexdigest()
    flat = re.sub(r"\s+", "", sheet)
    for field in ("Game", "High Limit Baccarat", "Rule card", "Rule set", "Report parameters",
                  "Build date", "Glossary", "Attestation", "Prepared by", "Reviewed by",
                  "Signature", "Date", gamecore.__version__):  # fmt: skip
        assert field in sheet, field
    assert digest in flat  # the card's SHA-256, however the line wraps
    assert provenance["git commit"] in flat
    started = datetime.datetime.fromisoformat(provenance["started (UTC)"])
    assert started.astimezone(datetime.UTC).strftime("%Y-%m-%d %H:%M UTC") in sheet
    assert "19 to 20" in sheet  # the Banker's payout as odds
    # the rule set (in words) and the report's other parameters
    assert "decks 1 deck" in sheet and "rounds 200,000" in sheet
    summary = json.loads((report / "summary.json").read_text("utf-8"))
    for label, figure in summary["figures"].items():  # as the index quotes them
        assert f"{label} {figure}" in " ".join(sheet.split()), label


def test_the_document_opens_with_the_par_sheet_and_ends_with_its_provenance(report):
    pages = _text(report / "punto_banco.pdf")
    assert "Attestation" in pages[1]  # the cover, then the par sheet
    last = pages[-1][pages[-1].index("Provenance") :]
    for item in ("gamecore version", "git commit", "parameter decks", "random seed"):
        assert item in last, item


def test_no_page_holds_a_heading_alone(report):
    import pypdf

    document = pypdf.PdfReader(report / "punto_banco.pdf")
    pages = pdf_pages(report / "punto_banco.pdf")
    total = len(pages)
    for number, page in enumerate(document.pages[1:], start=2):
        text = pages[number - 1].replace(f"Page {number} of {total}", "")
        lines = [line for line in text.splitlines()[2:] if line.strip()]  # the running header
        assert len(lines) > 2 or page.images, (number, lines)


def test_the_pdf_states_each_cross_check_with_its_criterion_and_verdict(report):
    from test_cross_checks import assert_each_cross_check_is_stated

    assert_each_cross_check_is_stated(report)


# --- the Cross-checks section's rule-variant tables ---------------------------------------


def _family_wise(n):
    """The |z| whose upper normal tail is 4's divided by ``n`` (scipy's normal)."""
    from scipy.stats import norm

    return 4.0 if n <= 1 else float(norm.isf(norm.sf(4.0) / n))


def _percent(value):
    return f"{100 * float(value):.4f}%"


def test_a_sweep_gets_a_table_with_a_verdict_per_variant(tmp_path):
    from gamecore.reporting.document import document_data

    pd.DataFrame(
        {
            "Figure": [
                "Banker EV, 1 deck",
                "P(tie), 1 deck",
                "Banker EV, 2 decks",
                "P(tie), 2 decks",
            ],
            "Exact": [-0.01, 0.09, -0.011, 0.094],
            "Simulated": [-0.0097, 0.0898, -0.0022, 0.0941],
            "SE": [0.003, 0.001, 0.002, 0.001],
            "z": [0.1, -0.2, 4.4, 0.1],
            "Decks": [1, 1, 2, 2],
        }
    ).to_csv(tmp_path / "cross_check_deck_sweep.csv", index=False)
    pd.DataFrame(
        {"Decks": ["1", "2", "infinite"], "banker house edge": [0.01, 0.011, 0.0106]}
    ).to_csv(tmp_path / "deck_sweep.csv", index=False)
    [table] = document_data(tmp_path, "none")["variants"]
    threshold = _family_wise(4)
    assert 4.1 < threshold < 4.4  # 4.4 is beyond the family-wise threshold of four twins
    assert table["columns"] == ["Variant", "Figure", "Exact", "Simulated", "SE", "z", "Verdict"]
    assert [row[:2] for row in table["rows"]] == [
        ["1 deck", "Banker EV"], ["1 deck", "P(tie)"],
        ["2 decks", "Banker EV"], ["2 decks", "P(tie)"],
    ]  # fmt: skip
    assert [row[-1] for row in table["rows"]] == ["PASS", "PASS", "FAIL", "PASS"]
    assert table["rows"][2][2:6] == ["-1.1000%", "-0.2200%", "0.2000%", "4.40"]
    assert table["rows"][1][2] == "0.09000000"  # a probability, as its twin table prints it
    assert f"|z| ≤ {threshold:.2f}" in table["note"]
    assert "Not simulated (no twin): infinite decks" in table["note"]


def test_only_sweeps_get_a_variant_table_and_approximate_twins_are_not_ruled(tmp_path):
    from gamecore.reporting.document import document_data

    frame = pd.DataFrame(
        {"Figure": ["EV, as given", "EV, 3:2"], "Exact": [0.1, 0.2], "Simulated": [0.1, 0.9],
         "SE": [0.01, 0.01], "z": [0.0, 70.0], "Approximate": [False, True]}
    )  # fmt: skip
    frame.drop(columns="Approximate").to_csv(tmp_path / "cross_check_bets.csv", index=False)
    frame.assign(Variant=["as given", "3:2"]).to_csv(
        tmp_path / "costs_cross_check.csv", index=False
    )
    [table] = document_data(tmp_path, "none")["variants"]  # no variant column: no table
    assert table["title"] == "Cross-check: costs, variant by variant"
    assert [row[:2] + row[-1:] for row in table["rows"]] == [
        ["as given", "EV", "PASS"], ["3:2", "EV", "approximate, not ruled"],
    ]  # fmt: skip
    assert "|z| ≤ 4.00 (4 SE)" in table["note"]


def test_the_pdf_states_the_deck_sweep_by_variant_with_a_pass_per_row(report):
    sweep = pd.read_csv(report / "cross_check_deck_sweep.csv")
    assert sorted(set(sweep["Decks"])) == [1, 2]  # BACCARAT_SMALL's sweep_decks
    threshold = _family_wise(len(sweep))
    pages = [" ".join(text.split()) for text in _text(report / "punto_banco.pdf")]
    start = next(i for i, p in enumerate(pages) if re.search(r"\d Cross-checks Each", p))
    end = next(i for i, p in enumerate(pages) if re.search(r"\d The rule set", p) and i >= start)
    section = " ".join(pages[start : end + 1])
    section = section[section.index("Cross-checks Each") : section.rindex("The rule set")]
    assert "Cross-check: the deck sweep, variant by variant" in section
    assert f"Each row PASS when |z| ≤ {threshold:.2f}" in section
    assert "Not simulated (no twin): infinite decks" in section
    for row in sweep.itertuples(index=False):
        decks = f"{row.Decks} deck{'s' if row.Decks != 1 else ''}"
        figure = re.sub(r", \d+ decks?$", "", row.Figure)
        assert abs(row.z) <= threshold
        shown = (
            f"{decks} {figure} {_percent(row.Exact)} {_percent(row.Simulated)} "
            f"{_percent(row.SE)} {row.z:.2f} PASS"
        )
        assert shown in section, shown


# --- heat maps: each with a colour bar saying what the colour is ---------------------------


def _drawn(figure):
    """The figure rendered as a report saves it (the colour bars' ticks are set on drawing),
    and its colour bars."""
    import io

    figure.savefig(io.BytesIO(), format="png", dpi=50)
    return [axis for axis in figure.axes if axis.get_label() == "<colorbar>"]


def _beside(bar, axis):
    """The colour bar is drawn to the right of the heat map, not over it."""
    return bar.get_position().x0 > axis.get_position().x1


def _cells(hands, ups, value):
    return pd.DataFrame(
        [
            {"hand": h, "up": u, **value(i, j)}
            for i, h in enumerate(hands)
            for j, u in enumerate(ups)
        ]
    )


def test_the_hit_or_stand_grid_reads_its_colour_as_the_gain_in_percent():
    from gamecore.reporting import plots

    chart = _cells(["12", "13"], ["2", "3"], lambda i, j: {
        "gain": 0.3 * (i - j) + 0.05, "better": "Hit" if i >= j else "Stand",
        "rule": "option" if j else "must draw"})  # fmt: skip
    figure = plots.strategy_grid(chart, "hand", "up", "gain", "better", "rule", "chart")
    [bar] = _drawn(figure)
    [image] = figure.axes[0].images
    assert image.colorbar is not None and image.colorbar.ax is bar  # it reads the cells' colours
    assert "gain of hitting over standing" in bar.get_ylabel()
    assert "% of the wager" in bar.get_ylabel()
    # The gains are fractions of the wager: a tick at 0.2 reads 20%.
    shown = {t.get_text(): v for t, v in zip(bar.get_yticklabels(), bar.get_yticks(), strict=True)}
    assert {"\u221220%", "0%", "20%"} <= set(shown), shown
    for text, value in shown.items():
        assert text.replace("\u2212", "-") == f"{round(100 * value)}%", (text, value)
    assert _beside(bar, figure.axes[0])


def test_the_margin_grid_reads_its_colour_as_the_margin_in_percent_on_a_log_scale():
    from gamecore.reporting import plots

    cells = _cells(["hard 12", "hard 13"], ["2", "3"], lambda i, j: {
        "chart": "H", "margin": 10.0 ** -(1 + i + 2 * j)})  # fmt: skip
    cells = cells.rename(columns={"up": "up_card"})
    figure = plots.margin_grid(cells, "margins")
    [bar] = _drawn(figure)
    [image] = figure.axes[0].images
    assert image.colorbar.ax is bar
    assert "% of the wager, log scale" in bar.get_ylabel()
    low, high = bar.get_ylim()
    ticks = [
        t.get_text()
        for t, y in zip(bar.get_yticklabels(), bar.get_yticks(), strict=True)
        if low <= y <= high
    ]
    assert ticks == ["0.01%", "0.1%", "1%", "10%", "100%"], ticks  # each decade, 1e-4 to 1
    assert _beside(bar, figure.axes[0])


def test_the_action_grid_names_each_colour_it_draws():
    import numpy as np
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    from gamecore.reporting import plots

    cells = ["Dh", "Dh", "H", "S", "Rh", "H", "P", "P", "Rs", "Ds"]  # a chart's rows, as tall
    chart = pd.DataFrame(
        [[f"hard {4 + i}", *[cells[(i + j) % len(cells)] for j in range(3)]] for i in range(18)],
        columns=["Hand", "2", "3", "A"],
    )
    figure = plots.action_grid(chart, "chart")
    [bar] = _drawn(figure)
    heat = figure.axes[0]
    assert _beside(bar, heat)
    assert "action" in bar.get_ylabel()
    names = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}
    ticks = {t.get_text(): y for t, y in zip(bar.get_yticklabels(), bar.get_yticks(), strict=True)}
    assert set(ticks) == {f"{a} {n}" for a, n in names.items()}  # the letters the chart holds
    # As a reader sees it: each cell's colour (off its letter, at a corner) is the colour the
    # bar shows beside that letter's name.
    canvas = FigureCanvasAgg(figure)
    canvas.draw()
    pixels = np.asarray(canvas.buffer_rgba())[:, :, :3].astype(int)

    def colour(axis, x, y):
        column, row = axis.transData.transform((x, y))
        return pixels[pixels.shape[0] - int(round(row)), int(round(column))]

    left = bar.get_xlim()[0] * 0.5 + bar.get_xlim()[1] * 0.5
    for i, row in enumerate(chart.itertuples(index=False)):
        for j, cell in enumerate(row[1:]):
            legend = colour(bar, left, ticks[f"{cell[0]} {names[cell[0]]}"])
            seen = colour(heat, j - 0.4, i - 0.4)
            assert np.abs(seen - legend).max() <= 2, (cell, seen, legend)


def test_a_report_quotes_its_game_s_card_and_its_reading(tmp_path):
    # Dragon Tiger came with no rule card: it quotes gamecore's own reading of the rules,
    # and RULES.md's section on it (docs/games.md).
    data = document.document_data(tmp_path, "dragon_tiger")
    assert [card["game"] for card in data["cards"]] == ["dragon_tiger"]
    assert [reading["game"] for reading in data["readings"]] == ["dragon_tiger"]
    seed_game = document.document_data(tmp_path, "punto_banco")
    assert [card["game"] for card in seed_game["cards"]] == ["punto_banco"]
    assert [reading["game"] for reading in seed_game["readings"]] == ["punto_banco"]


# --- what every report's PDF must state (run on each test module's own build) -----------


def _flat(pages: list[str]) -> str:
    """A PDF's text in one line, its whitespace (line breaks, wraps) as single spaces."""
    return " ".join(" ".join(pages).split())


def _in_order(words: list[str], text: str) -> bool:
    """Whether ``words`` appear in ``text``'s words in their order (a table cell's wrapped
    lines interleave with the other cells of its row in the extracted text)."""
    tokens = iter(text.split())
    return all(any(token == word for token in tokens) for word in words)


def assert_key_figures_stated(folder):
    """Every figure the index quotes for the report in ``folder`` appears verbatim, in the
    same form and sign, in its PDF and its par sheet: each key figure with its label
    (``summary.json``, the index's text), and each wager's house edge, SD and hit frequency
    as the index's wager table prints them."""
    from gamecore.reporting import index

    name = folder.name
    summary = json.loads((folder / "summary.json").read_text("utf-8"))
    quoted = [f"{label} {figure}" for label, figure in summary["figures"].items()]
    cells = []
    for row in index.wager_rows(folder, summary, {}):
        numbers_of_row = re.findall(r"<td class='n'>([^<]*)</td>", row)
        cells.append(" ".join(numbers_of_row[-3:]))  # edge, SD, hit frequency
    assert quoted, name
    for pdf in (f"{name}.pdf", f"{name}_par_sheet.pdf"):
        text = _flat(_text(folder / pdf))
        for figure in quoted + cells:
            assert figure in text, (pdf, figure)


def assert_c21_baccarat_par_sheet(folder):
    """The c21 baccarat par sheet: the player's wager under House Way as Outcome | Pays |
    Combinations | Probability | Return with its Total row, each count from the independent
    enumeration (tests/naive_c21.py), and the P/D's edge and the collection as a share of
    the table minimum and maximum."""
    import naive_c21

    parameters = json.loads((folder / "summary.json").read_text("utf-8"))["parameters"]
    decks, jokers = parameters["decks"], parameters["jokers_per_deck"]
    assert decks * jokers < 2  # no Natural: the reference does not split wins by kind
    reference = naive_c21.ev_by_class(
        naive_c21.c21_composition(decks, jokers),
        naive_c21.house_way_player,
        naive_c21.house_way_dealer,
    )
    total, tie0 = reference["total"], reference["tie_on_zero"]
    assert total == math.perm((52 + jokers) * decks, 6)  # N P 6: every deal to six cards
    rows = [
        ("player Natural wins", "1 to 1", 0),
        ("Naturals push", "push", 0),
        ("P/D Natural wins", "loses", 0),
        ("player higher total wins", "1 to 1", reference["win"]),
        ("equal totals push", "push", reference["push"]),
        ("tie on zero: P/D wins", "loses", tie0),
        ("P/D higher total wins", "loses", reference["loss"] - tie0),
    ]
    ev = Fraction(reference["win"] - reference["loss"], total)
    sheet = _flat(_text(folder / "c21_baccarat_par_sheet.pdf"))
    assert "Player, House Way against House Way (heads-up)" in sheet
    assert "Outcome Pays Combinations Probability Return" in sheet
    for outcome, pays, ways in rows:
        p = Fraction(ways, total)
        net = {"1 to 1": 1, "push": 0, "loses": -1}[pays]
        line = f"{outcome} {pays} {ways:,} {float(p):.8f} {float(p * net):.4%}"
        assert line in sheet, line
    assert f"Total {total:,} 1.00000000 {float(ev):.4%}" in sheet
    assert "The P/D's edge and the collection" in sheet
    for bet in (parameters["table_minimum"], parameters["table_maximum"]):
        share = Fraction(str(parameters["collection"])) / Fraction(str(bet))
        figures = [ev, -ev, bet, parameters["collection"], share, ev - share]
        line = " ".join(f"{float(f):.4%}" if isinstance(f, Fraction) else f"{f:g}" for f in figures)
        assert line in sheet, line


def assert_countability_stated(folder):
    """A counting study's par sheet states each counter's verdict: what is counted, its gain
    and SE as printed, and countable or not at four standard errors (the verdict checked
    here against the gain and SE of its CSV row)."""
    summary = json.loads((folder / "summary.json").read_text("utf-8"))
    threshold = summary["parameters"].get("threshold", 0.0)
    table = pd.read_csv(folder / "countability.csv")
    what, gain, se, verdict, power = table.columns
    assert verdict == "Verdict (4 SE)" and se.startswith("SE") and power.startswith("Power")
    table = table[[what, gain, se, verdict]]
    sheet = _flat(_text(folder / f"{folder.name}_par_sheet.pdf"))
    assert "Countable? Each counter's gain against 4 standard errors" in sheet
    gains, _ = numbers.format_column(gain, table[gain].astype(str).tolist())
    ses, _ = numbers.format_column(se, table[se].astype(str).tolist())
    for row, gain_text, se_text in zip(table.itertuples(index=False), gains, ses, strict=True):
        counted, g, s, stated = row
        if g - 4 * s > threshold:
            assert stated == "countable", row
        elif g + 4 * s < threshold:
            assert stated == "not countable", row
        else:  # the one rule's third word (gamecore.verdict.decide)
            assert stated.startswith("undecided after "), row
        assert _in_order(counted.split() + [gain_text, se_text] + stated.split(), sheet), row
