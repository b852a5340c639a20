"""Figures the reports share. Each returns a matplotlib Figure; notebooks only show it."""

from __future__ import annotations

import matplotlib

matplotlib.use("Agg")  # reports are written headless; Jupyter still displays the figure
import matplotlib.pyplot as plt  # noqa: E402
import pandas as pd  # noqa: E402


def house_edge_by_decks(sweep: pd.DataFrame, title: str):
    """Plot every ``<bet> house edge`` column of a deck sweep against the number of decks.

    The finite deck counts are drawn as points joined by lines; the infinite-deck limit (a
    row whose ``Decks`` is ``"infinite"``) as a dashed horizontal line of the same colour.
    """
    finite = sweep[sweep["Decks"] != "infinite"]
    limit = sweep[sweep["Decks"] == "infinite"]
    columns = [c for c in sweep.columns if c.endswith("house edge")]
    figure, axes = plt.subplots(
        len(columns), 1, figsize=(7, 2.2 * len(columns)), sharex=True, squeeze=False
    )
    decks = finite["Decks"].astype(int)
    for axis, column, colour in zip(
        axes[:, 0], columns, plt.rcParams["axes.prop_cycle"].by_key()["color"], strict=False
    ):
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
