"""Fantasy Draft: two-player hex tactics - hero draft with mana, secret deployment of face-down
tokens, capture the enemy flag.

Options of `new_state`: `turn_cap` (turns of both players after which the game is a stalemate;
default from the content's rules).
"""
from __future__ import annotations


from engine.core.api import GameSpec
from engine.core.scenario import SetupError
from engine.fantasy_draft.bots import HeuristicBot, evaluate
from engine.fantasy_draft.checks import content_problems
from engine.fantasy_draft.effects import EFFECT_KINDS
from engine.fantasy_draft.model import Model, build_model
from engine.fantasy_draft.scenario import probe, scenario_state
from engine.fantasy_draft.state import FDState


def new_state(model: Model, players: int, options: dict) -> FDState:
    if options.get("variants"):  # none in the rulebook: refused, not played as the plain game under its name
        raise SetupError(f"Fantasy Draft has no variants (asked for: {', '.join(map(str, options['variants']))})",
                         ("options", "variants"))
    st = FDState(model, options)
    st._advance()
    return st


SPEC = GameSpec(
    id="fantasy-draft",
    min_players=2,
    max_players=2,
    build_model=build_model,
    new_state=new_state,
    bots={"heuristic": HeuristicBot},
    effect_kinds=EFFECT_KINDS,
    kinds={**{k: True for k in ("rules", "terrain", "board", "hero", "basic-unit")},
           **{k: False for k in ("power-token", "reference-card", "unit-token", "slot-in", "die")}},
    choice_events=frozenset({"drafted"}),  # basic units fill the army: leaving one out is no pick
    information="imperfect",
    simultaneous=True,
    evaluate=evaluate,
    playout_bot="heuristic",
    check_content=content_problems,
    scenario_state=scenario_state,
    probe=probe,
)
