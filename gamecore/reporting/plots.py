"""Figures the reports share. Each returns a matplotlib Figure; notebooks only show it.

Figures are built with ``matplotlib.figure.Figure`` rather than pyplot: no global state and no
GUI backend, so they render the same headless, in CI and in Jupyter.
"""

from __future__ import annotations

import matplotlib as mpl
import pandas as pd
from matplotlib.figure import Figure

COLOURS = mpl.rcParams["axes.prop_cycle"].by_key()["color"]


def house_edge_by_decks(sweep: pd.DataFrame, title: str):
    """Plot every ``<bet> house edge`` column of a deck sweep against the number of decks.

    The finite deck counts are drawn as points joined by lines; the infinite-deck limit (a
    row whose ``Decks`` is ``"infinite"``) as a dashed horizontal line of the same colour.

    Parameters
    ----------
    sweep : pandas.DataFrame
        A deck sweep: ``Decks`` and one ``<bet> house edge`` column per bet.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    finite = sweep[sweep["Decks"] != "infinite"]
    limit = sweep[sweep["Decks"] == "infinite"]
    columns = [c for c in sweep.columns if c.endswith("house edge")]
    figure = Figure(figsize=(7, 2.2 * len(columns)))
    axes = figure.subplots(len(columns), 1, sharex=True, squeeze=False)
    decks = finite["Decks"].astype(int)
    for axis, column, colour in zip(axes[:, 0], columns, COLOURS, strict=False):
        axis.plot(decks, 100 * finite[column], "o-", color=colour, label="exact")
        if not limit.empty:
            axis.axhline(
                100 * float(limit[column].iloc[0]), ls="--", color=colour, label="infinite decks"
            )
        axis.set_ylabel("edge (%)")
        axis.set_title(column.replace(" house edge", ""), fontsize=10, loc="left")
        axis.grid(alpha=0.3)
        axis.legend(fontsize=8, loc="best")
    axes[-1, 0].set_xlabel("decks")
    axes[-1, 0].set_xticks(list(decks))
    figure.suptitle(title)
    figure.tight_layout()
    return figure


def effects_of_removal_bars(effects: pd.DataFrame, columns: list[str], title: str):
    """Bar chart of effects of removal by rank (one group of bars per rank).

    Parameters
    ----------
    effects : pandas.DataFrame
        ``Rank`` and a column of EV changes per card removed per bet.
    columns : list of str
        The columns drawn, a bar each in every group.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    figure = Figure(figsize=(8, 3.5))
    axis = figure.subplots()
    width = 0.8 / len(columns)
    positions = range(len(effects))
    for i, column in enumerate(columns):
        axis.bar([p + i * width for p in positions], 100 * effects[column], width, label=column)
    axis.set_xticks([p + width * (len(columns) - 1) / 2 for p in positions], effects["Rank"])
    axis.axhline(0, color="black", lw=0.8)
    axis.set_ylabel("EV change per card removed (%)")
    axis.set_xlabel("rank removed")
    axis.set_title(title)
    axis.legend()
    axis.grid(alpha=0.3, axis="y")
    figure.tight_layout()
    return figure


def ev_by_true_count(
    exact_by_count: dict[str, pd.DataFrame], simulated: pd.DataFrame | None, title: str
):
    """Mean exact EV of the remaining shoe against the true count, per count; optionally the
    simulated EV of the bet by true count with 2-SE bars.

    Parameters
    ----------
    exact_by_count : dict of str to pandas.DataFrame
        Count's name -> ``Bin low`` and ``Mean exact EV`` by true-count bin.
    simulated : pandas.DataFrame or None
        ``Bin low``, ``Simulated EV`` and ``SE`` by bin; ``None`` draws none.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    figure = Figure(figsize=(8, 4))
    axis = figure.subplots()
    for name, frame in exact_by_count.items():
        axis.plot(
            frame["Bin low"] + 0.5,
            100 * frame["Mean exact EV"],
            "o-",
            ms=3,
            label=f"mean exact EV, {name}",
        )
    if simulated is not None:
        axis.errorbar(
            simulated["Bin low"] + 0.5,
            100 * simulated["Simulated EV"],
            yerr=200 * simulated["SE"],
            fmt=".",
            color="grey",
            alpha=0.7,
            label="simulated EV (counter's count), 2 SE",
        )
    axis.axhline(0, color="black", lw=0.8)
    axis.set_xlabel("true count (bin centre; end bins hold the tails)")
    axis.set_ylabel("EV per unit bet (%)")
    axis.set_title(title)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


def win_by_trigger(tables: dict[str, pd.DataFrame], title: str):
    """Side-bet units won per shoe against the trigger, with 2-SE bars, per count.

    Parameters
    ----------
    tables : dict of str to pandas.DataFrame
        Count's name -> ``Trigger (true count ≥)``, ``Side bet units won per shoe``
        and ``SE (per shoe)``.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    figure = Figure(figsize=(7, 3.5))
    axis = figure.subplots()
    for name, table in tables.items():
        axis.errorbar(
            table["Trigger (true count ≥)"],
            table["Side bet units won per shoe"],
            yerr=2 * table["SE (per shoe)"],
            fmt="o-",
            capsize=3,
            label=name,
        )
    axis.axhline(0, color="black", lw=0.8)
    axis.set_xlabel("trigger: bet when the true count is at least")
    axis.set_ylabel("units won per shoe")
    axis.set_title(title)
    axis.grid(alpha=0.3)
    axis.legend(fontsize=8)
    figure.tight_layout()
    return figure


def strategy_grid(
    chart: pd.DataFrame,
    rows: str,
    columns: str,
    value: str,
    better: str,
    rule: str,
    title: str,
    row_order: list | None = None,
):
    """A colour-coded strategy card: one cell per (row, column), coloured by ``value`` (the
    EV gain of hitting over standing: green where hitting is better, red where standing is),
    lettered H or S by ``better``; cells whose action the rules force are drawn pale. A
    colour bar beside it reads the colour as the gain, in % of the wager.

    Parameters
    ----------
    chart : pandas.DataFrame
        A row per cell.
    rows, columns, value, better, rule : str
        The columns holding each cell's row label, column label, EV gain of hitting,
        better action (``"Hit"`` or another), and rule (``"option"`` unless forced).
    title : str
        The figure's title.
    row_order : list, optional
        The rows' order, top down (default: as first seen).

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    import numpy as np

    row_labels = row_order or list(dict.fromkeys(chart[rows]))
    column_labels = list(dict.fromkeys(chart[columns]))
    grid = np.full((len(row_labels), len(column_labels)), np.nan)
    figure = Figure(figsize=(2.2 + 0.62 * len(column_labels), 0.9 + 0.42 * len(row_labels)))
    axis = figure.subplots()
    limit = float(np.nanmax(np.abs(chart[value].astype(float)))) or 1.0
    for _, cell in chart.iterrows():
        i = row_labels.index(cell[rows])
        j = column_labels.index(cell[columns])
        amount = cell[value]
        grid[i, j] = float(amount) if amount is not None and amount == amount else np.nan
        forced = cell[rule] != "option"
        axis.text(
            j,
            i,
            ("H" if cell[better] == "Hit" else "S"),
            ha="center",
            va="center",
            fontsize=9,
            fontweight="normal" if forced else "bold",
            color="#555555" if forced else "black",
        )
        if forced:
            axis.add_patch(_pale_cell(j, i))
    image = axis.imshow(grid, cmap="RdYlGn", vmin=-limit, vmax=limit, aspect="auto")
    _colour_bar(figure, image, axis, f"{value}: EV gain of hitting over standing (% of the wager)")
    axis.set_xticks(range(len(column_labels)), [str(c) for c in column_labels])
    axis.set_yticks(range(len(row_labels)), [str(r) for r in row_labels])
    axis.set_xlabel(columns)
    axis.set_ylabel(rows)
    axis.set_title(title, fontsize=10)
    figure.tight_layout()
    return figure


def _colour_bar(figure: Figure, image, axis, label: str, ticks: list[float] | None = None):
    """A colour bar beside ``axis`` reading ``image``'s colours, labelled ``label``, its ticks
    (``ticks``, else matplotlib's) in percent: the data are fractions of the wager."""
    from matplotlib.ticker import FuncFormatter, NullFormatter

    bar = figure.colorbar(image, ax=axis, label=label, fraction=0.08, pad=0.03, ticks=ticks)
    bar.ax.yaxis.set_major_formatter(
        FuncFormatter(lambda v, _: f"{100 * v:g}%".replace("-", "\u2212"))
    )
    if ticks is not None:
        bar.ax.yaxis.set_minor_formatter(NullFormatter())
    bar.ax.yaxis.label.set_size(8)
    bar.ax.tick_params(labelsize=7)
    return bar


def _pale_cell(x: float, y: float):
    from matplotlib.patches import Rectangle

    return Rectangle((x - 0.5, y - 0.5), 1, 1, facecolor="white", alpha=0.55, edgecolor="none")


#: Colours of a blackjack strategy card, by the action's first letter.
ACTION_COLOURS = {"H": "#f4e66c", "S": "#e07b6a", "D": "#7cc47c", "P": "#7aa6d8", "R": "#c9c9c9"}
#: What each first letter of a chart's cell means (the colour bar's ticks).
ACTION_NAMES = {"H": "hit", "S": "stand", "D": "double", "P": "split", "R": "surrender"}


def action_grid(chart: pd.DataFrame, title: str):
    """A blackjack strategy card: rows are hands, columns up cards, each cell coloured by its
    action (H hit, S stand, D double, P split, R surrender; a second letter is the fallback),
    the colours read by a colour bar beside it (the actions the chart holds).

    Parameters
    ----------
    chart : pandas.DataFrame
        A chart's table (:meth:`StrategyChart.to_frame`): hands, then a column per up card.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    import numpy as np
    from matplotlib.colors import to_rgb

    hands = chart.iloc[:, 0].tolist()
    ups = [str(c) for c in chart.columns[1:]]
    image = np.ones((len(hands), len(ups), 3))
    figure = Figure(figsize=(2.4 + 0.5 * len(ups), 0.8 + 0.26 * len(hands)))
    axis = figure.subplots()
    for i, row in enumerate(chart.itertuples(index=False)):
        for j, cell in enumerate(row[1:]):
            action = str(cell)
            image[i, j] = to_rgb(ACTION_COLOURS.get(action[:1], "#ffffff"))
            axis.text(j, i, action, ha="center", va="center", fontsize=7)
    axis.imshow(image, aspect="auto")
    held = {str(cell)[:1] for cell in chart.iloc[:, 1:].to_numpy().ravel()}
    _action_bar(figure, axis, [a for a in ACTION_COLOURS if a in held])
    axis.set_xticks(range(len(ups)), ups)
    axis.set_yticks(range(len(hands)), hands, fontsize=7)
    axis.set_xlabel("P/D up card")
    axis.set_title(title, fontsize=10)
    figure.tight_layout()
    return figure


def _action_bar(figure: Figure, axis, actions: list[str]):
    """A colour bar of the ``actions``' colours, one step each, ticked with their names."""
    from matplotlib.cm import ScalarMappable
    from matplotlib.colors import BoundaryNorm, ListedColormap

    actions = actions or list(ACTION_COLOURS)
    colours = ListedColormap([ACTION_COLOURS[a] for a in actions])
    norm = BoundaryNorm(range(len(actions) + 1), len(actions))
    bar = figure.colorbar(
        ScalarMappable(norm=norm, cmap=colours), ax=axis, fraction=0.08, pad=0.03,
        label="action (the cell's first letter; a second is the fallback)",
    )  # fmt: skip
    bar.set_ticks([i + 0.5 for i in range(len(actions))], labels=[
        f"{a} {ACTION_NAMES[a]}" for a in actions
    ])  # fmt: skip
    bar.ax.tick_params(length=0, labelsize=7)
    bar.ax.yaxis.label.set_size(8)
    bar.ax.invert_yaxis()  # top down in the order of ACTION_COLOURS
    return bar


def margin_grid(cells: pd.DataFrame, title: str):
    """A blackjack strategy card coloured by how much the chart's action beats the next best.

    ``cells`` has columns hand, up_card, chart (the letter printed) and margin (EV of the
    chart's action minus the best other action's, per unit on a hand of the cell). Pale cells
    are close calls; a white cell has no alternative (one action allowed) or is never played.
    A colour bar reads the colour as the margin, in % of the wager, on a log scale.

    Parameters
    ----------
    cells : pandas.DataFrame
        A row per cell, as above.
    title : str
        The figure's title.

    Returns
    -------
    matplotlib.figure.Figure
        Not shown: a notebook displays it (:meth:`gamecore.reporting.report.Report.figure`).
    """
    import numpy as np
    from matplotlib.colors import LogNorm

    hands = list(dict.fromkeys(cells["hand"]))
    ups = list(dict.fromkeys(cells["up_card"]))
    grid = np.full((len(hands), len(ups)), np.nan)
    figure = Figure(figsize=(1.6 + 0.5 * len(ups), 0.8 + 0.26 * len(hands)))
    axis = figure.subplots()
    for cell in cells.itertuples(index=False):
        i, j = hands.index(cell.hand), ups.index(cell.up_card)
        if cell.margin == cell.margin and cell.margin > 0:
            grid[i, j] = cell.margin
        axis.text(j, i, str(cell.chart), ha="center", va="center", fontsize=7)
    image = axis.imshow(
        np.clip(grid, 1e-4, 1.0), cmap="YlGnBu", norm=LogNorm(1e-4, 1.0), aspect="auto"
    )
    _colour_bar(
        figure, image, axis, "EV margin over the next best action (% of the wager, log scale)",
        ticks=[1e-4, 1e-3, 1e-2, 1e-1, 1.0],
    )  # fmt: skip
    axis.set_xticks(range(len(ups)), ups)
    axis.set_yticks(range(len(hands)), hands, fontsize=7)
    axis.set_xlabel("P/D up card")
    axis.set_title(title, fontsize=10)
    figure.tight_layout()
    return figure
