"""The registry of powers: effect kind -> handler. Content names the kind and its parameters;
the rules call the handler of each power at the point of the round its category belongs to:

- offensive handlers return dice to add to the player's card,
- defensive handlers return dice to remove from the opposing card,
- support handlers change the board (heal) or the round's rules (cancel, ignore armour).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from engine.dice_battles.model import Card, Effect, Model

if TYPE_CHECKING:
    from engine.dice_battles.state import DBState


@dataclass(frozen=True, slots=True)
class Handler:
    category: str        # offensive, defensive, support
    run: Callable[..., int]


def _extra_dice(st: "DBState", seat: int, b: int, card: Card, eff: Effect, opp: Card | None) -> int:
    """+amount when the opposing card's class is named (if any) and enough units match (if asked)."""
    if eff.vs_class and (opp is None or opp.cls not in eff.vs_class):
        return 0
    if eff.min_matching and st.matching(seat, b, card.unit) < eff.min_matching:
        return 0
    return eff.amount


def _dice_per_unit(st: "DBState", seat: int, b: int, card: Card, eff: Effect, opp: Card | None) -> int:
    """Goblins Frenzy (v2.0): one die per unit of the folks named, in the zones named, leaving out
    the units named (archers) and those whose card has a class named."""
    units, cards = st.model.units, st.model.cards
    uids: list[int] = []
    if "battalion" in eff.zones:
        uids += [u for u in st.board[seat][b] if u >= 0]
    if "reinforcements" in eff.zones:
        uids += st.reinf[seat]
    if "fleeing" in eff.zones:
        uids += st.fleeing[seat]
    n = 0
    for uid in uids:
        u = units[st.utype[uid]]
        if u.folk in eff.folk and cards[u.card].cls not in eff.except_class and u.id not in eff.except_units:
            n += 1
    return n


def _remove_dice(st: "DBState", seat: int, b: int, card: Card, eff: Effect, opp: Card | None) -> int:
    """Dice removed from the opposing card when its class is one the power names."""
    return eff.amount if opp is not None and opp.cls in eff.classes else 0


def _heal_each(most: int) -> Callable[..., int]:
    """A heal that takes up to `most` dice (poison first) off each tile of the battalion."""

    def heal(st: "DBState", seat: int, b: int, card: Card, eff: Effect, opp: Card | None) -> int:
        return sum(st.heal_unit(uid, most) for uid in st.board[seat][b] if uid >= 0)

    return heal


def _flag(st: "DBState", seat: int, b: int, card: Card, eff: Effect, opp: Card | None) -> int:
    """Rule changes read by the rules where they apply (cancel-powers, ignore-armour)."""
    return 1


HANDLERS: dict[str, Handler] = {
    "extra-dice": Handler("offensive", _extra_dice),
    "dice-per-unit": Handler("offensive", _dice_per_unit),
    "remove-dice": Handler("defensive", _remove_dice),
    "heal": Handler("support", _heal_each(1)),          # Heal (v2.0): one die off each tile
    "global-heal": Handler("support", _heal_each(99)),  # Global Heal (v2.0): every die off each tile
    "cancel-powers": Handler("support", _flag),
    "ignore-armour": Handler("support", _flag),
}
EFFECT_KINDS = frozenset(HANDLERS)


@dataclass(frozen=True, slots=True)
class Powers:
    """One card's powers grouped by the point of the round that runs them, each with its handler."""

    cancels: bool                                  # cancels the opposing card's powers
    ignores_armour: bool
    offensive: tuple[tuple[Callable[..., int], Effect], ...]
    defensive: tuple[tuple[Callable[..., int], Effect], ...]
    heals: tuple[tuple[Callable[..., int], Effect], ...]


def powers(model: Model) -> tuple[Powers, ...]:
    """Per card, its grouped powers: built once per model, since the rules read them every round."""
    table = model.derived.get("powers")
    if table is None:
        table = model.derived["powers"] = tuple(_group(c) for c in model.cards)
    return table


def _group(card: Card) -> Powers:
    def of(test: Callable[[Effect], bool]) -> tuple[tuple[Callable[..., int], Effect], ...]:
        return tuple((HANDLERS[e.kind].run, e) for e in card.effects if test(e))

    return Powers(cancels=any(e.kind == "cancel-powers" for e in card.effects),
                  ignores_armour=any(e.kind == "ignore-armour" for e in card.effects),
                  offensive=of(lambda e: HANDLERS[e.kind].category == "offensive"),
                  defensive=of(lambda e: HANDLERS[e.kind].category == "defensive"),
                  heals=of(lambda e: e.kind in ("heal", "global-heal")))
