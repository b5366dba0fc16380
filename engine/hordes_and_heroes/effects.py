"""The effect registry: effect kind -> handler.

A handler is called as `handler(state, seat, effect, source)` and returns an iterable of
Decisions (a generator when the effect needs a choice, `()` when it does not); the rules
`yield from` it. `source` is the activated hero (a PartyHero) or None for actions, monsters,
town cards. Content, rules and printed text share this one list of kinds.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Callable, Iterable

from engine.core.api import Decision
from engine.hordes_and_heroes.areas import DICE, TOKENS
from engine.hordes_and_heroes.model import Effect

if TYPE_CHECKING:
    from engine.hordes_and_heroes.state import HHState, PartyHero

Handler = Callable[["HHState", int, Effect, "PartyHero | None"], Iterable[Decision]]
NOTHING: tuple[Decision, ...] = ()


def extra_dice(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    """Before the Dice Phase the dice join the first roll; during it they join the next roll.
    Whether a roll is left is known only once the activation has fired all its abilities (an
    Alchemist adds dice, then a reroll), so the Roll step throws them then if none is left."""
    if not st.in_roll:
        st.start_dice += e.amount
        return NOTHING
    st.faces.extend([0] * e.amount)
    st.locked.extend([False] * e.amount)
    st.kept.extend([False] * e.amount)
    st.dirty |= DICE
    return NOTHING


def extra_reroll(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    st.rerolls += e.amount
    st.dirty |= TOKENS
    return NOTHING


def steam(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    st.steam += e.amount
    st.dirty |= TOKENS
    return NOTHING


def shield(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    """Shield gained stays for the whole turn, even if its hero falls later (rulebook)."""
    st.shield += e.amount
    st.dirty |= TOKENS
    return NOTHING


def strength(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    st.bonus_strength += e.amount
    st.dirty |= TOKENS
    return NOTHING


def strength_per_active(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    """Counted when the attack begins, so heroes activated later in the roll step count too."""
    own = src is not None and st.model.deck[src.card].cls == e.cls
    st.class_bonus.append((e.cls, e.amount, own))
    return NOTHING


def reduce_cost(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    st.discounts.append(e.amount)
    return NOTHING


def activate_hero(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    limit = e.max_strength if e.max_strength >= 0 else (st.model.deck[src.card].strength if src else 0)
    return st.free_activation(seat, limit, src)


def capture(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.choose_capture(seat, e.max_strength, e.other_stack)


def set_die(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.choose_set_die(seat, e.count)


def draw_cards(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.draw_many(seat, e.amount)


def hand_size(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    """Passive: the hand limit reads it from the party (DeckCard.hand_bonus); activation adds nothing."""
    return NOTHING


def extra_recruit(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    st.recruits_left += e.amount
    return NOTHING


def move_stack(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.choose_move_stack(seat)


def discard_cards(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.discard_from_hand(seat, e.amount, "discard")


def discard_hero(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.discard_from_party(seat, e.amount)


def damage(st: "HHState", seat: int, e: Effect, src: "PartyHero | None") -> Iterable[Decision]:
    return st.take_damage(seat, e.amount - st.shield)


HANDLERS: dict[str, Handler] = {
    "extra-dice": extra_dice,
    "extra-reroll": extra_reroll,
    "steam": steam,
    "shield": shield,
    "strength": strength,
    "strength-per-active": strength_per_active,
    "reduce-cost": reduce_cost,
    "activate-hero": activate_hero,
    "capture": capture,
    "set-die": set_die,
    "draw-cards": draw_cards,
    "hand-size": hand_size,
    "extra-recruit": extra_recruit,
    "move-stack": move_stack,
    "discard-cards": discard_cards,
    "discard-hero": discard_hero,
    "damage": damage,
}

EFFECT_KINDS: frozenset[str] = frozenset(HANDLERS)
