"""Kingdoms invariants: each one, broken by hand in a real game halfway through, is reported by
`check_invariants` right after a check that found nothing. Each break marks the areas it changed,
as the rules do (areas.py); a separate audit proves that the rules mark every change they make,
step by step, over whole games. Real content under content/kingdoms."""
from __future__ import annotations

import dataclasses
import functools
import random
from pathlib import Path
from typing import Callable

import pytest
from ruamel.yaml import YAML

from engine.core.api import CHANCE
from engine.core.driver import derive_seed, make_bots, play_game, replay, sample_chance
from engine.kingdoms import SPEC
from engine.kingdoms.areas import ALL, HORDES, MOVED, PLAYERS, UNITS
from engine.kingdoms.invariants import _horde_problems, _player_problems, _unit_problems, inputs, unmarked
from engine.kingdoms.state import KState

CONTENT = Path(__file__).resolve().parent.parent / "content" / "kingdoms"


@functools.lru_cache(maxsize=None)
def model():
    def load(path: Path):
        return YAML(typ="safe").load(path.read_text(encoding="utf-8"))
    data = {kind: load(CONTENT / comp["file"])["items"]
            for kind, comp in load(CONTENT / "game.yaml")["components"].items()}
    return SPEC.build_model(data)


def halfway(players: int = 2, seed: int = 7, options: dict | None = None) -> KState:
    """A real game stopped halfway, with hordes and pieces on the board and no problem yet."""
    rec = play_game(SPEC, model(), players, seed, ["heuristic"], options=options)
    assert rec.error is None
    st = replay(SPEC, model(), players, rec.actions[: len(rec.actions) // 2], options)
    assert st.check_invariants() == []
    return st


def own_space(st: KState, p: int = 0) -> int:
    return next(sp for sp in range(st.board.size) if st.owner[sp] == p and st.sett[sp])


def empty_space(st: KState) -> int:
    return next(sp for sp in range(st.board.size)
                if st.owner[sp] < 0 and st.horde[sp] < 0 and not st.inv[sp] and not st.no_enter[sp])


def horde_space(st: KState) -> int:
    return next(sp for sp in range(st.board.size) if st.horde[sp] >= 0)


def negative_count(st: KState) -> None:
    st.moved[empty_space(st)] = -1
    st.dirty |= MOVED


def units_without_owner(st: KState) -> None:
    st.arm[empty_space(st)] = 1
    st.dirty |= UNITS


def stack_over_limit(st: KState) -> None:
    sp = own_space(st)
    extra = st.mods[0].stack_limit + 1 - st.arm[sp]
    st.arm[sp] += extra
    st.n_arm[0] += extra
    st.dirty |= UNITS


def two_settlements(st: KState) -> None:
    sp = own_space(st)
    st.sett[sp] += st.mods[0].settlements_per_space
    st.n_set[0] += st.mods[0].settlements_per_space
    st.dirty |= UNITS


def two_castles(st: KState) -> None:
    sp = own_space(st)
    extra = st.mods[0].castles_per_space + 1 - st.cast[sp]
    st.cast[sp] += extra
    st.n_cast[0] += extra
    st.castle_free -= extra
    st.dirty |= UNITS


def castle_and_tower(st: KState) -> None:
    sp = own_space(st)
    if not st.cast[sp]:
        st.cast[sp] = 1
        st.n_cast[0] += 1
        st.castle_free -= 1
    st.tower[sp] = 1
    st.n_tow[0] += 1
    st.tower_free -= 1
    st.dirty |= UNITS


def units_where_nothing_may_enter(st: KState) -> None:
    st.no_enter[own_space(st)] = True
    st.dirty |= UNITS


def invaders_without_rival(st: KState) -> None:
    st.inv[empty_space(st)] = 1
    st.dirty |= UNITS


def invaders_over_limit(st: KState) -> None:
    sp = own_space(st, 0)
    st.inv[sp] = st.mods[1].stack_limit + 1
    st.inv_owner[sp] = 1
    st.n_arm[1] += st.inv[sp]
    st.dirty |= UNITS


def counts_out_of_step(st: KState) -> None:
    st.n_arm[0] += 1
    st.dirty |= UNITS


def more_than_the_colour_set(st: KState) -> None:
    st.limited = True
    st.model = dataclasses.replace(st.model, colour_supply={"army": 0, "settlement": 0})
    st.dirty |= ALL


def castle_marker_lost(st: KState) -> None:
    st.castle_free -= 1
    st.dirty |= UNITS


def tower_marker_made(st: KState) -> None:
    st.tower_free += 1
    st.dirty |= UNITS


def horde_without_hits(st: KState) -> None:
    sp = horde_space(st)
    st.hit_free += st.hits[sp]
    st.hits[sp] = 0
    st.dirty |= HORDES


def horde_twice(st: KState) -> None:
    sp, dst = horde_space(st), empty_space(st)
    st.horde[dst] = st.horde[sp]
    st.hits[dst] = 1
    st.hit_free -= 1
    st.dirty |= HORDES


def horde_in_the_pool(st: KState) -> None:
    st.pool[st.horde[horde_space(st)]] = True
    st.dirty |= HORDES


def hits_without_horde(st: KState) -> None:
    st.hits[empty_space(st)] = 1
    st.hit_free -= 1
    st.dirty |= HORDES


def hit_counter_made(st: KState) -> None:
    st.hit_free += 1
    st.dirty |= HORDES


def negative_resources(st: KState) -> None:
    st.chit_free[0] += st.res[0][0] + 1
    st.res[0][0] = -1
    st.dirty |= PLAYERS


def negative_victory_tokens(st: KState) -> None:
    st.vt_free += st.vt[0] + 1
    st.vt[0] = -1
    st.dirty |= PLAYERS


def victory_token_made(st: KState) -> None:
    st.vt_free += 1
    st.dirty |= PLAYERS


def chit_made(st: KState) -> None:
    st.chit_free[0] += 1
    st.dirty |= PLAYERS


def over_the_cap(st: KState) -> None:
    st.cap_broken[0] = True
    st.dirty |= PLAYERS


BREAKS: dict[str, tuple[Callable[[KState], None], str]] = {
    "no negative unit counts": (negative_count, "a negative unit count"),
    "every unit has an owner": (units_without_owner, "units without an owner"),
    "armies within the stacking limit": (stack_over_limit, "over the stacking limit"),
    "settlements per space": (two_settlements, "settlements in one space"),
    "castles per space": (two_castles, "castles in one space"),
    "no castle and tower together": (castle_and_tower, "a castle and a wizard tower in one space"),
    "no units where nothing may enter": (units_where_nothing_may_enter, "units in a space nothing may enter"),
    "invaders belong to a rival": (invaders_without_rival, "invaders without a rival owner"),
    "invading stack within the limit": (invaders_over_limit, "invading stack over the stacking limit"),
    "unit counts match the board": (counts_out_of_step, "unit counts out of step with the board"),
    "colour set not exceeded": (more_than_the_colour_set, "more armies or settlements than the colour set has"),
    "castle markers conserved": (castle_marker_lost, "castle markers not conserved"),
    "tower markers conserved": (tower_marker_made, "wizard tower markers not conserved"),
    "a horde has hit counters": (horde_without_hits, "horde with 0 hit counters"),
    "a horde is on the board once": (horde_twice, "is on the board twice"),
    "a horde on the board is not in the pool": (horde_in_the_pool, "both on the board and in the pool"),
    "no hit counters without a horde": (hits_without_horde, "hit counters without a horde"),
    "hit counters conserved": (hit_counter_made, "hit counters:"),
    "no negative resources": (negative_resources, "negative resources"),
    "no negative victory tokens": (negative_victory_tokens, "negative victory tokens"),
    "victory tokens conserved": (victory_token_made, "victory tokens not conserved"),
    "chits conserved": (chit_made, "chits not conserved"),
    "no turn ends above the resource cap": (over_the_cap, "ended a turn above the resource cap"),
}


@pytest.mark.parametrize("name", list(BREAKS))
def test_a_broken_invariant_is_reported_right_after_a_clean_check(name: str) -> None:
    st = halfway()
    breaker, message = BREAKS[name]
    breaker(st)
    problems = st.check_invariants()
    assert any(message in p for p in problems), problems


@pytest.mark.parametrize("name", list(BREAKS))
def test_the_quick_checks_agree_with_the_detailed_ones(name: str) -> None:
    """The quick tests decide alone only when they find nothing; then the detailed walks, which
    name every problem, must find nothing either."""
    st = halfway(seed=11)
    BREAKS[name][0](st)
    detailed = _unit_problems(st) + _horde_problems(st) + _player_problems(st)
    assert sorted(st.check_invariants()) == sorted(detailed)
    assert detailed


def test_a_repaired_state_is_clean_again() -> None:
    st = halfway()
    hit_counter_made(st)
    assert st.check_invariants()
    st.hit_free -= 1
    st.dirty |= HORDES
    assert st.check_invariants() == []


@pytest.mark.parametrize("players,options", [(2, {}), (4, {}), (3, {"horde-player": True}),
                                             (2, {"pvp": True, "advanced-tiles": True, "wizard-towers": True,
                                                  "physical-supply": True})])
def test_checked_games_hold_every_invariant_at_every_step(players: int, options: dict) -> None:
    for i in range(3):
        rec = play_game(SPEC, model(), players, derive_seed(5, i), ["heuristic"], options=options, check=True)
        assert rec.error is None, rec.error


@pytest.mark.parametrize("players,options", [(2, {}), (4, {}), (3, {"horde-player": True}),
                                             (4, {"pvp": True, "advanced-tiles": True, "wizard-towers": True,
                                                  "physical-supply": True})])
def test_the_rules_mark_every_change_they_make(players: int, options: dict) -> None:
    """Whole games with heuristic and random bots, checked after every step: what each area's
    invariants read changes only in steps that mark the area, so checking marked areas misses nothing."""
    for bot in ("heuristic", "random"):
        seed = derive_seed(29, players)
        bots = make_bots(SPEC, players, seed, [bot])
        rng = random.Random(seed)
        st = SPEC.new_state(model(), players, options)
        while (d := st.decision()) is not None:
            assert st.check_invariants() == []
            before = inputs(st)
            st.apply(sample_chance(rng, d) if d.player == CHANCE else bots[d.player].choose(st, d))
            assert unmarked(before, st) == [], f"{bot} bots, step {len(st.actions)}: {st.dkind}"


def test_a_change_left_unmarked_is_caught_by_the_audit() -> None:
    st = halfway()
    before = inputs(st)
    st.chit_free[0] += 1
    assert unmarked(before, st) == ["players"]


def test_a_rule_that_makes_a_hit_counter_is_caught_at_the_step_it_does_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A faulty rule, marking what it changes as the rules do, puts one hit counter too many on a
    new horde: the smoke game fails at that very step, naming the broken count."""
    real = KState.place_horde
    first: list[int] = []

    def one_too_many(self: KState, h: int, sp: int) -> bool:
        placed = real(self, h, sp)
        if placed:
            self.hits[sp] += 1
            first.append(len(self.actions))
        return placed

    monkeypatch.setattr(KState, "place_horde", one_too_many)
    rec = play_game(SPEC, model(), 2, 7, ["heuristic"], invariants=True)
    assert first and rec.error is not None
    assert rec.error.startswith(f"step {first[0]}: AssertionError: invariant broken:"), rec.error
    assert "hit counters:" in rec.error
