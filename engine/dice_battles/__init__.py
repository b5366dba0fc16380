"""Dice Battles (online edition, rules v2.0): two armies of three battalions, order cards placed
face down, attack dice assigned by the face they show; 2 players.

Options of `new_state`: `armies` (per seat: an army id, "custom", "custom:<faction>" or "random"),
`factions` (the factions chance may field), `custom_share` (the chance of a custom army when
armies are drawn, default 0.5) and `max_rounds` (the stalemate guard, default from rules.yaml).
"""
from __future__ import annotations


from engine.core.api import GameSpec
from engine.dice_battles.checks import content_problems
from engine.dice_battles.bots import HeuristicBot, evaluate
from engine.dice_battles.effects import EFFECT_KINDS
from engine.dice_battles.model import Model, build_model
from engine.dice_battles.scenario import probe, scenario_state
from engine.dice_battles.state import DBState


def new_state(model: Model, players: int, options: dict) -> DBState:
    return DBState(model, players, options)


SPEC = GameSpec(
    id="dice-battles",
    min_players=2,
    max_players=2,
    build_model=build_model,
    new_state=new_state,
    bots={"heuristic": HeuristicBot},
    effect_kinds=EFFECT_KINDS,
    kinds={"rules": True, "army-rules": True, "faction": True, "unit": True, "order-card": True,
           "battle-mat": True, "army": False},
    choice_events=frozenset({"picked", "played"}),
    information="imperfect",
    simultaneous=True,
    evaluate=evaluate,
    playout_bot="heuristic",
    check_content=content_problems,
    scenario_state=scenario_state,
    probe=probe,
)
