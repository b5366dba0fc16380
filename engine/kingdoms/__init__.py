"""Kingdoms: kingdom building on a grid against spawning hordes, 1-6 players, 20 rounds.

Options of `new_state` (the variants, by content id or short name): `player-versus-player` /
`pvp`, `horde-player` (the last seat plays the hordes), `advanced-tiles`, `wizard-towers`; also
`rounds` (a shorter game) and `max_actions` (the stalemate guard).
"""
from __future__ import annotations

import random

from engine.core.api import GameSpec
from engine.kingdoms.bots import ExploreBot, HeuristicBot, HordeBot
from engine.kingdoms.checks import content_problems
from engine.kingdoms.effects import EFFECT_KINDS
from engine.kingdoms.evaluate import evaluate
from engine.kingdoms.model import Model, build_model, unchoosable
from engine.kingdoms.scenario import probe, scenario_state
from engine.kingdoms.state import KState


def new_state(model: Model, players: int, options: dict) -> KState:
    return KState(model, players, options)


def _explore(seat: int, rng: random.Random) -> ExploreBot:
    return ExploreBot(seat, rng)


SPEC = GameSpec(
    id="kingdoms",
    min_players=1,
    max_players=6,
    build_model=build_model,
    new_state=new_state,
    bots={"heuristic": HeuristicBot, "explore": _explore, "horde": HordeBot},
    effect_kinds=EFFECT_KINDS,
    kinds={**{k: True for k in ("rules", "phase", "round-segment", "event", "ability", "kingdom", "structure",
                               "resource", "horde-counter", "terrain")},
           **{k: False for k in ("variant", "advanced-tile", "hit-counter", "victory-token", "army-token",
                                "settlement-marker", "castle-marker", "wizard-tower-marker", "resource-chit")}},
    choice_events=frozenset({"played", "picked", "used", "settled"}),
    unchoosable=unchoosable,
    unchosen_kinds=frozenset({"horde-counter"}),  # spawned by the game; "used" is a seat fighting one
    solo_scored=True,  # the rulebook gives a solo game a start, not a way to win or lose it
    information="perfect",
    evaluate=evaluate,
    check_content=content_problems,
    playout_bot="heuristic",
    scenario_state=scenario_state,
    probe=probe,
)
