"""Game-agnostic engine core: the step API, a generator-driven state base, the driver and scenarios."""
from engine.core.api import CHANCE, Bot, Decision, GameResult, GameSpec, State
from engine.core.driver import GameRecord, derive_seed, play_game, replay
from engine.core.registry import load_spec

__all__ = ["CHANCE", "Bot", "Decision", "GameResult", "GameSpec", "State", "GameRecord",
           "derive_seed", "play_game", "replay", "load_spec"]
