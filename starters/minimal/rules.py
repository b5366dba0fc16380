"""The rules of this game, played by `hordekit smoke` and checked by `hordekit scenario`.

This file is Python code: hordekit runs it when it validates or plays the game, so it holds
only rules you wrote or trust. The manifest (game.yaml, `rules: rules.py`) names it explicitly.

The game: every player holds two path cards. On your turn play one, move its steps along the
track, do what its effects say, and refill your hand to two. The first to reach GOAL wins.
Drawing a card is a chance decision, so a scenario can script the draw and a smoke run is
repeatable from its seed. The cards themselves (names, steps, copies, effects) are content in
cards.yaml: change them there, not here.
"""

from __future__ import annotations

import random
from collections import Counter
from dataclasses import dataclass, field
from typing import Any, Callable

from engine.core.api import CHANCE, Decision, GameResult, GameSpec
from engine.core.scenario import SetupError

GOAL = 10
HAND = 2
TURN_CAP = 80


@dataclass(frozen=True)
class Card:
    id: str
    name: str
    steps: int
    effects: tuple[dict[str, Any], ...]


def build_model(content: dict[str, list[dict]]) -> dict[str, Any]:
    """Cards by id and the deck (one id per copy), from the validated content."""
    cards = {c["id"]: Card(c["id"], c["name"], int(c["steps"]), tuple(c.get("effects", ())))
             for c in content.get("card", [])}
    deck = [c["id"] for c in content.get("card", []) for _ in range(int(c.get("quantity", 1)))]
    return {"cards": cards, "deck": deck}


# -- effects: one handler per effect kind; text.yaml has the printed sentence of each ---------

def _draw(state: "PathRace", effect: dict[str, Any]) -> None:
    state.pending += [state.current] * int(effect.get("amount", 1))


EFFECTS: dict[str, Callable[["PathRace", dict[str, Any]], None]] = {"draw": _draw}


@dataclass
class PathRace:
    model: dict[str, Any]
    players: int
    pile: list[str] = field(default_factory=list)
    discard: list[str] = field(default_factory=list)
    hands: list[list[str]] = field(default_factory=list)
    positions: list[int] = field(default_factory=list)
    current: int = 0
    turn: int = 0
    pending: list[int] = field(default_factory=list)  # seats that still draw a card, in order
    turn_ending: bool = False
    actions: list[int] = field(default_factory=list)
    played: dict[str, list[int]] = field(default_factory=dict)  # card id -> plays per seat

    def __post_init__(self) -> None:
        self.positions = self.positions or [0] * self.players
        self.hands = self.hands or [[] for _ in range(self.players)]
        self._settle()

    # -- the step API: one pending decision, its options, apply(index) -----------------------
    def is_over(self) -> bool:
        return max(self.positions) >= GOAL or self.turn >= TURN_CAP

    def decision(self) -> Decision | None:
        if self.is_over():
            return None
        if self.pending:
            counts = Counter(self.pile)
            ids = sorted(counts)
            return Decision(CHANCE, "Draw a card", tuple(self.model["cards"][i].name for i in ids),
                            tuple(float(counts[i]) for i in ids))
        hand = sorted(set(self.hands[self.current]))
        return Decision(self.current, "Play a card",
                        tuple(f"Play {self.model['cards'][i].name}" for i in hand) or ("Pass",))

    def apply(self, action: int) -> None:
        d = self.decision()
        if d is None or not 0 <= action < len(d.options):
            raise ValueError(f"illegal action {action}")
        self.actions.append(action)
        if d.player == CHANCE:
            card = sorted(set(self.pile))[action]
            self.pile.remove(card)
            self.hands[self.pending.pop(0)].append(card)
        else:
            hand = sorted(set(self.hands[self.current]))
            if hand:
                self._play(hand[action])
            missing = HAND - len(self.hands[self.current]) - self.pending.count(self.current)
            self.pending += [self.current] * max(0, missing)
            self.turn_ending = True
        self._settle()

    def _play(self, card_id: str) -> None:
        card = self.model["cards"][card_id]
        self.hands[self.current].remove(card_id)
        self.discard.append(card_id)
        self.positions[self.current] += card.steps
        self.played.setdefault(card_id, [0] * self.players)[self.current] += 1
        for effect in card.effects:
            EFFECTS[effect["kind"]](self, effect)

    def _settle(self) -> None:
        """After every action: reshuffle when the pile is empty, drop draws nothing can satisfy,
        and pass the turn once its draws are done."""
        if self.pending and not self.pile:
            self.pile, self.discard = self.discard, []
            if not self.pile:
                self.pending.clear()
        if not self.pending and self.turn_ending:
            self.turn_ending = False
            self.current = (self.current + 1) % self.players
            self.turn += 1

    # -- results and checks -----------------------------------------------------------------
    def result(self) -> GameResult:
        best = max(self.positions)
        winners = [i for i, p in enumerate(self.positions) if p == best] if best >= GOAL else []
        return GameResult(scores=list(self.positions), winners=winners,
                          end_reason="goal" if best >= GOAL else "turn cap", turns=self.turn,
                          usage={cid: {"played": self.played.get(cid, [0] * self.players)}
                                 for cid in self.model["cards"]})

    def check_invariants(self) -> list[str]:
        held = len(self.pile) + len(self.discard) + sum(len(h) for h in self.hands)
        total = len(self.model["deck"])
        problems = [f"{held} cards in play, the deck has {total}"] if held != total else []
        return problems + [f"seat {i} is below 0" for i, p in enumerate(self.positions) if p < 0]

    def clone(self) -> "PathRace":
        twin = new_state(self.model, self.players, {})
        for a in self.actions:
            twin.apply(a)
        return twin


def new_state(model: dict[str, Any], players: int, options: dict) -> PathRace:
    """A fresh game: the whole deck in the pile, every seat draws its hand (chance decisions)."""
    if options.get("variants"):  # `hordekit smoke --variant NAME`: this game has none yet
        raise ValueError(f"this game has no variants (asked for: {', '.join(map(str, options['variants']))}); "
                         "a variant is an option new_state reads in rules.py")
    return PathRace(model, players, pile=list(model["deck"]),
                    pending=[seat for seat in range(players) for _ in range(HAND)])


SETUP_KEYS = ("hands", "positions", "current")


def scenario_state(model: dict[str, Any], players: int, setup: dict) -> PathRace:
    """A game from a scenario's `setup`: `hands`, `positions`, `current`; the rest is the pile.

    A setup it cannot lay out raises SetupError with the keys that lead to the fault, so
    `hordekit scenario` reports it at that line and column of the scenario file."""
    for key in setup:
        if key not in SETUP_KEYS:
            raise SetupError(f"no setup key '{key}' (this game knows {', '.join(SETUP_KEYS)})", (key,))
    hands = setup.get("hands", [[] for _ in range(players)])
    if not isinstance(hands, list) or len(hands) != players or not all(isinstance(h, list) for h in hands):
        raise SetupError(f"hands must be a list of {players} lists of card ids, one per seat", ("hands",))
    pile = list(model["deck"])
    for seat, hand in enumerate(hands):
        for i, card in enumerate(hand):
            if card not in model["cards"]:
                known = ", ".join(sorted(model["cards"]))
                raise SetupError(f"no card '{card}' in this game (its cards: {known})", ("hands", seat, i))
            if card not in pile:
                raise SetupError(f"no copy of '{card}' left in the deck for this hand", ("hands", seat, i))
            pile.remove(card)
    positions = setup.get("positions", [0] * players)
    if (not isinstance(positions, list) or len(positions) != players
            or not all(isinstance(p, int) and p >= 0 for p in positions)):
        raise SetupError(f"positions must be {players} whole numbers from 0, one per seat", ("positions",))
    current = setup.get("current", 0)
    if not isinstance(current, int) or not 0 <= current < players:
        raise SetupError(f"current must be a seat from 0 to {players - 1}", ("current",))
    return PathRace(model, players, pile=pile, hands=[list(h) for h in hands], positions=list(positions),
                    current=current)


def probe(state: PathRace) -> dict[str, Any]:
    """Values a scenario's `expect` can check."""
    return {"positions": tuple(state.positions), "hands": [list(h) for h in state.hands],
            "current": state.current, "turn": state.turn, "pile": len(state.pile)}


class FurthestBot:
    """Plays the card that moves furthest: a baseline to compare the random bot with."""

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat

    def choose(self, state: PathRace, decision: Decision) -> int:
        hand = sorted(set(state.hands[self.seat]))
        if not hand:
            return 0
        return max(range(len(hand)), key=lambda i: state.model["cards"][hand[i]].steps)


# The game's one declaration: its id, player range, the content kinds the model reads (True:
# required), its effect vocabulary, which usage events are a player's own choice, and what each
# seat may see. Hands here are played face up, so every seat sees everything ("perfect"); a game
# with hidden hands declares "imperfect" and implements observation/redact/restore/resample
# (docs/engine.md). Every game also gets the "random" and "search" bots from hordekit.
SPEC = GameSpec(
    id="starter", min_players=2, max_players=4,
    build_model=build_model, new_state=new_state,
    bots={"heuristic": FurthestBot},
    effect_kinds=frozenset(EFFECTS),
    kinds={"card": True},
    choice_events=frozenset({"played"}),
    information="perfect",
    scenario_state=scenario_state, probe=probe,
)
