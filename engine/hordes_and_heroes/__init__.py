"""Hordes & Heroes: dice-activated heroes against five horde stacks, 2-5 players."""
from __future__ import annotations

import random

from engine.core.api import GameSpec
from engine.hordes_and_heroes.bots import ExploreBot, HeuristicBot
from engine.hordes_and_heroes.effects import EFFECT_KINDS
from engine.hordes_and_heroes.hidden import evaluate
from engine.hordes_and_heroes.model import Model, build_model, impossible
from engine.hordes_and_heroes.scenario import probe, scenario_state
from engine.hordes_and_heroes.setup import check_options
from engine.hordes_and_heroes.state import HHState


def new_state(model: Model, players: int, options: dict) -> HHState:
    return HHState(model, players, check_options(options))


def _explore(seat: int, rng: random.Random) -> ExploreBot:
    return ExploreBot(seat, rng)


SPEC = GameSpec(
    id="hordes-and-heroes",
    min_players=2,
    max_players=5,
    build_model=build_model,
    new_state=new_state,
    bots={"heuristic": HeuristicBot, "explore": _explore},
    effect_kinds=EFFECT_KINDS,
    kinds={"rules": True, "hero": True, "action": True, "monster": True, "treasure": True, "town": True,
           "die": False, "token": False},
    choice_events=frozenset({"recruited", "played", "activated", "used"}),
    impossible=impossible,
    information="imperfect",
    evaluate=evaluate,
    playout_bot="heuristic",
    scenario_state=scenario_state,
    probe=probe,
)
