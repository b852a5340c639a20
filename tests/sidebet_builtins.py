"""The built-in side bets for the simulator's and the removal tests: read by the package's
reader where it exists (``gamecore.sidebets.definition.load``), else by the small stand-in
below, which normalises the YAML files as the definition's docstrings say (the reader is
tested on its own; this only spares these tests from waiting for it)."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import yaml

from gamecore.sidebets import definition
from gamecore.sidebets.definition import Condition, Outcome, SideBet

FOLDER = Path(definition.__file__).resolve().parent / "definitions"


def _listed(value) -> tuple:
    return tuple(value) if isinstance(value, list) else (value,)


def _conditions(kind: str, value) -> list[Condition]:
    if kind.startswith("same_"):
        return [Condition(kind, cards=tuple(value))]
    if kind in ("rank", "suit", "colour"):
        return [
            Condition(kind, cards=(card,), values=tuple(str(v) for v in _listed(values)))
            for card, values in value.items()
        ]
    if kind in ("total", "hand_cards"):
        return [Condition(kind, hands=(hand,), values=_listed(v)) for hand, v in value.items()]
    if kind == "poker_hand":
        return [Condition(kind, cards=tuple(value["cards"]), values=_listed(value["class"]))]
    return [Condition(kind, values=_listed(value))]


def _pays(text: str) -> Fraction:
    if text == "push":
        return Fraction(0)
    to, by = text.split(" to ")
    return Fraction(to) / Fraction(by)


def builtin(name: str) -> SideBet:
    """The built-in definition ``name``."""
    load = getattr(definition, "load", None)
    if load is not None:
        return load(name)
    data = yaml.safe_load((FOLDER / f"{name}.yaml").read_text())
    outcomes = tuple(
        Outcome(
            o["name"],
            _pays(o["pays"]),
            o["pays"],
            tuple(c for kind, v in o["when"].items() for c in _conditions(kind, v)),
        )
        for o in data["outcomes"]
    )
    return SideBet(
        data["bet"],
        data["title"],
        data["game"],
        data["decks"],
        data.get("description", ""),
        data.get("source", ""),
        outcomes,
        "built-in",
        "",
    )
