"""The effect registry: effect kind -> (handler, allowed).

A handler is called as `handler(state, ctx, effect)` when an ability works (its d10 roll, if any,
fell inside the printed range); `allowed(state, ctx, effect)` says whether a special action may
be offered at all with this target (a hero at the power cap is not offered a power token, a swap
partner must be able to stand in the hero's hex). Content, rules and printed text share this one
list of kinds.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Callable

from engine.fantasy_draft.model import Effect

if TYPE_CHECKING:
    from engine.fantasy_draft.state import FDState


@dataclass(slots=True)
class Ctx:
    """One use of an ability: whose, from which hex, which hero, aimed at which hex."""

    seat: int
    src: int
    unit: int
    target: int
    evaded: bool = False


Handler = Callable[["FDState", Ctx, Effect], None]
Allowed = Callable[["FDState", Ctx, Effect], bool]


def always(st: "FDState", ctx: Ctx, e: Effect) -> bool:
    """The `allowed` of effects that fit any target (the rules skip calling it)."""
    return True


def boost(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.add_bonus(ctx.target, e.amount)


def weaken(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.reveal(ctx.target)
    st.add_bonus(ctx.target, -e.amount)


def destroy(st: "FDState", ctx: Ctx, e: Effect) -> None:
    """The target is revealed; it leaves the game only if it is weak enough."""
    st.reveal(ctx.target)
    if e.max_strength < 0 or st.strength(ctx.target) <= e.max_strength:
        st.remove(ctx.target)


def power(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.add_power(ctx.unit, e.amount)


def power_allowed(st: "FDState", ctx: Ctx, e: Effect) -> bool:
    return st.power_room(ctx.unit) > 0


def reveal(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.reveal(ctx.target)


def reveal_allowed(st: "FDState", ctx: Ctx, e: Effect) -> bool:
    return not st.is_revealed(ctx.target)


def swap(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.swap(ctx.src, ctx.target)
    ctx.src = ctx.target


def swap_allowed(st: "FDState", ctx: Ctx, e: Effect) -> bool:
    return st.can_stand(st.unit_at(ctx.target), ctx.src) and st.can_stand(ctx.unit, ctx.target)


def teleport(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.relocate(ctx.src, ctx.target)
    ctx.src = ctx.target


def teleport_allowed(st: "FDState", ctx: Ctx, e: Effect) -> bool:
    return st.can_stand(ctx.unit, ctx.target)


def freeze(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.reveal(ctx.target)
    st.freeze(ctx.target)


def evade(st: "FDState", ctx: Ctx, e: Effect) -> None:
    ctx.evaded = True


def extra_actions(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.actions_left += e.amount


def refresh(st: "FDState", ctx: Ctx, e: Effect) -> None:
    st.add_activations(ctx.src, e.amount)


HANDLERS: dict[str, tuple[Handler, Allowed]] = {
    "boost": (boost, always),
    "weaken": (weaken, always),
    "destroy": (destroy, always),
    "power": (power, power_allowed),
    "reveal": (reveal, reveal_allowed),
    "swap": (swap, swap_allowed),
    "teleport": (teleport, teleport_allowed),
    "freeze": (freeze, always),
    "evade": (evade, always),
    "extra-actions": (extra_actions, always),
    "refresh": (refresh, always),
}

EFFECT_KINDS: frozenset[str] = frozenset(HANDLERS)

NEAR_ONLY: frozenset[Allowed] = frozenset({always, reveal_allowed, teleport_allowed, swap_allowed})
"""The `allowed` checks that read only the acting unit and the tokens near it (whose, face up or
not, which unit): no count of the turn or of the supply. A special action whose checks are all
among them keeps the same targets until a token within its range arrives, leaves or turns face
up, or the units under face-down tokens are changed in place (a redaction or a resample, which
drop every kept target list)."""
