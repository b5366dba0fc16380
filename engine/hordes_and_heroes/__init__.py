"""Hordes & Heroes: dice-activated heroes against five horde stacks, 2-5 players."""
from __future__ import annotations

import random

from engine.core.api import GameSpec
from engine.core.bots import RandomBot
from engine.hordes_and_heroes.bots import HeuristicBot
from engine.hordes_and_heroes.effects import EFFECT_KINDS
from engine.hordes_and_heroes.model import Model, build_model
from engine.hordes_and_heroes.scenario import probe, scenario_state
from engine.hordes_and_heroes.state import HHState


def new_state(model: Model, players: int, options: dict) -> HHState:
    if not 2 <= players <= 5:
        raise ValueError("Hordes & Heroes is for 2 to 5 players")
    return HHState(model, players, options)


def _random(seat: int, rng: random.Random) -> RandomBot:
    return RandomBot(seat, rng)


def _heuristic(seat: int, rng: random.Random) -> HeuristicBot:
    return HeuristicBot(seat, rng)


SPEC = GameSpec(
    id="hordes-and-heroes",
    min_players=2,
    max_players=5,
    build_model=build_model,
    new_state=new_state,
    bots={"random": _random, "heuristic": _heuristic},
    effect_kinds=EFFECT_KINDS,
    text_kinds=EFFECT_KINDS,
    scenario_state=scenario_state,
    probe=probe,
)
