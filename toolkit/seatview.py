"""`hordekit replay LOG --as SEAT`: a logged game told as one seat lived it.

What the seat sees is, by definition, its observation (`state.observation(seat)` for a game with
hidden information), so the story is built from that and from the choices it made: its own
decisions in full, the other seats' open choices, a secret choice as "(secret)" until the step
at which the rules reveal it, and after every step whatever changed in its observation. Chance
outcomes are printed only in games where everyone sees everything.
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterator

from engine.core.api import CHANCE, check_action


def _short(value: Any, width: int = 160) -> str:
    text = json.dumps(value, sort_keys=True, default=str)
    return text if len(text) <= width else text[: width - 1] + "…"


class IllegalAction(ValueError):
    """Action `index` of the log is not one of the options of the decision it meets (or the game
    is over); the message says only what the seat whose story is told may know."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index = index


def seat_story(state: Any, actions: list[int], seat: int, hidden: bool) -> Iterator[str]:
    """Lines telling the game from `seat`'s chair; `state` is a fresh game to replay onto."""
    labels: dict[int, str] = {}
    secret_pos: set[int] = set()
    seen = state.observation(seat) if hidden else None
    if seen is not None:
        yield f"start: {_short(seen, 400)}"
    for i, action in enumerate(actions):
        d = state.decision()
        try:
            check_action(d, action)   # before any label is read: -1 would name the last option
        except ValueError as exc:
            if d is not None and d.player != seat and hidden:
                # how many options another seat had is no part of what this seat sees (in Fantasy
                # Draft it counts the special actions of the heroes under face-down tokens), nor
                # how many a hidden draw had (in Hordes & Heroes the kinds of card left in the
                # hero deck, which tells what the other hands hold)
                whose = "a chance event" if d.player == CHANCE else f"player {d.player + 1}'s decision"
                raise IllegalAction(i, f"illegal action {action!r} for '{d.prompt}' ({whose})") from None
            raise IllegalAction(i, str(exc)) from None
        label = d.options[action]
        labels[i] = label
        who = "chance" if d.player == CHANCE else f"player {d.player + 1}"
        if d.player == seat:
            yield f"step {i}: you, '{d.prompt}' ({len(d.options)} options): {label}"
        elif d.player == CHANCE:
            yield f"step {i}: chance, '{d.prompt}'" + ("" if hidden else f": {label}")
        elif d.secret:
            secret_pos.add(i)
            yield f"step {i}: {who}, '{d.prompt}': (secret)"
        else:
            yield f"step {i}: {who}, '{d.prompt}': {label}"
        state.apply(action)
        for at, positions in getattr(state, "reveals", []):
            if at == i + 1:
                shown = [f"step {p}: {labels.get(p, '?')}" for p in positions if p in secret_pos or p in labels]
                if shown:
                    yield "  revealed: " + "; ".join(shown)
        if hidden:
            now = state.observation(seat)
            changed = {k: v for k, v in now.items() if seen.get(k) != v}
            if changed:
                yield "  you now see: " + _short(changed)
            seen = now


def print_story(make_state: Callable[[], Any], actions: list[int], seat: int, hidden: bool,
                echo: Callable[[str], None]) -> None:
    for line in seat_story(make_state(), actions, seat, hidden):
        echo(line)
