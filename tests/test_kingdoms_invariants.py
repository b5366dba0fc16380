"""Kingdoms invariants: each one, broken by hand in a real game halfway through, is reported by
`check_invariants`, also right after a check that found nothing (the checks remember what they
last saw, and must notice any change). Real content under content/kingdoms."""
from __future__ import annotations

import dataclasses
import functools
from pathlib import Path
from typing import Callable

import pytest
from ruamel.yaml import YAML

from engine.core.driver import derive_seed, play_game, replay
from engine.kingdoms import SPEC
from engine.kingdoms.invariants import _horde_problems, _player_problems, _unit_problems
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


def units_without_owner(st: KState) -> None:
    st.arm[empty_space(st)] = 1


def stack_over_limit(st: KState) -> None:
    sp = own_space(st)
    extra = st.mods[0].stack_limit + 1 - st.arm[sp]
    st.arm[sp] += extra
    st.n_arm[0] += extra


def two_settlements(st: KState) -> None:
    sp = own_space(st)
    st.sett[sp] += st.mods[0].settlements_per_space
    st.n_set[0] += st.mods[0].settlements_per_space


def two_castles(st: KState) -> None:
    sp = own_space(st)
    extra = st.mods[0].castles_per_space + 1 - st.cast[sp]
    st.cast[sp] += extra
    st.n_cast[0] += extra
    st.castle_free -= extra


def castle_and_tower(st: KState) -> None:
    sp = own_space(st)
    if not st.cast[sp]:
        st.cast[sp] = 1
        st.n_cast[0] += 1
        st.castle_free -= 1
    st.tower[sp] = 1
    st.n_tow[0] += 1
    st.tower_free -= 1


def units_where_nothing_may_enter(st: KState) -> None:
    st.no_enter[own_space(st)] = True


def invaders_without_rival(st: KState) -> None:
    st.inv[empty_space(st)] = 1


def invaders_over_limit(st: KState) -> None:
    sp = own_space(st, 0)
    st.inv[sp] = st.mods[1].stack_limit + 1
    st.inv_owner[sp] = 1
    st.n_arm[1] += st.inv[sp]


def counts_out_of_step(st: KState) -> None:
    st.n_arm[0] += 1


def more_than_the_colour_set(st: KState) -> None:
    st.limited = True
    st.model = dataclasses.replace(st.model, colour_supply={"army": 0, "settlement": 0})


def castle_marker_lost(st: KState) -> None:
    st.castle_free -= 1


def tower_marker_made(st: KState) -> None:
    st.tower_free += 1


def horde_without_hits(st: KState) -> None:
    sp = horde_space(st)
    st.hit_free += st.hits[sp]
    st.hits[sp] = 0


def horde_twice(st: KState) -> None:
    sp, dst = horde_space(st), empty_space(st)
    st.horde[dst] = st.horde[sp]
    st.hits[dst] = 1
    st.hit_free -= 1


def horde_in_the_pool(st: KState) -> None:
    st.pool[st.horde[horde_space(st)]] = True


def hits_without_horde(st: KState) -> None:
    st.hits[empty_space(st)] = 1
    st.hit_free -= 1


def hit_counter_made(st: KState) -> None:
    st.hit_free += 1


def negative_resources(st: KState) -> None:
    st.chit_free[0] += st.res[0][0] + 1
    st.res[0][0] = -1


def negative_victory_tokens(st: KState) -> None:
    st.vt_free += st.vt[0] + 1
    st.vt[0] = -1


def victory_token_made(st: KState) -> None:
    st.vt_free += 1


def chit_made(st: KState) -> None:
    st.chit_free[0] += 1


def over_the_cap(st: KState) -> None:
    st.cap_broken[0] = True


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
    st.hit_free += 1
    assert st.check_invariants()
    st.hit_free -= 1
    assert st.check_invariants() == []


@pytest.mark.parametrize("players,options", [(2, {}), (4, {}), (3, {"horde-player": True}),
                                             (2, {"pvp": True, "advanced-tiles": True, "wizard-towers": True,
                                                  "physical-supply": True})])
def test_checked_games_hold_every_invariant_at_every_step(players: int, options: dict) -> None:
    for i in range(3):
        rec = play_game(SPEC, model(), players, derive_seed(5, i), ["heuristic"], options=options, check=True)
        assert rec.error is None, rec.error
