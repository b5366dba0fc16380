"""Fantasy Draft: two-player hex tactics - hero draft with mana, secret deployment of face-down
tokens, capture the enemy flag.

Options of `new_state`: `turn_cap` (turns of both players after which the game is a stalemate;
default from the content's rules).
"""
from __future__ import annotations

import random
from dataclasses import fields

from engine.core.api import GameSpec
from engine.core.bots import RandomBot
from engine.fantasy_draft.bots import HeuristicBot, evaluate
from engine.fantasy_draft.effects import EFFECT_KINDS
from engine.fantasy_draft.model import Model, build_model
from engine.fantasy_draft.scenario import probe, scenario_state
from engine.fantasy_draft.state import FDState


def new_state(model: Model, players: int, options: dict) -> FDState:
    if players != 2:
        raise ValueError("Fantasy Draft is for 2 players")
    st = FDState(model, options)
    st._advance()
    return st


def _random(seat: int, rng: random.Random) -> RandomBot:
    return RandomBot(seat, rng)


def _heuristic(seat: int, rng: random.Random) -> HeuristicBot:
    return HeuristicBot(seat, rng)


_DECLARATION = {
    "kinds": {"rules": True, "terrain": True, "board": True, "hero": True, "basic-unit": True,
              "power-token": True},
    "choice_events": frozenset({"drafted", "left-out"}),
    "information": "imperfect",
    "simultaneous": True,
    "evaluate": evaluate,
}
_KNOWN = {f.name for f in fields(GameSpec)}

SPEC = GameSpec(
    id="fantasy-draft",
    min_players=2,
    max_players=2,
    build_model=build_model,
    new_state=new_state,
    bots={"random": _random, "heuristic": _heuristic} if "evaluate" not in _KNOWN else {"heuristic": _heuristic},
    effect_kinds=EFFECT_KINDS,
    text_kinds=EFFECT_KINDS,
    scenario_state=scenario_state,
    probe=probe,
    **{k: v for k, v in _DECLARATION.items() if k in _KNOWN},
)
