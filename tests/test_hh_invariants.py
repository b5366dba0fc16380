"""Invariants of Hordes & Heroes: each one, broken on a real game in progress, is named by the
check. The check runs once on the sound state first; each break then marks the areas it changed,
as the rules do (areas.py), and the very next check must name it. A separate audit proves that the
rules mark every change they make, step by step, over whole games."""
from __future__ import annotations

import functools
import random

import pytest

from engine.core.api import CHANCE
from engine.core.driver import bot_choice, derive_seed, make_bots, play_game, replay, sample_chance
from engine.hordes_and_heroes import SPEC
from engine.hordes_and_heroes.areas import CARDS, DICE, HORDE, LIMITS, TOKENS, TOWNS, TREASURES
from engine.hordes_and_heroes.invariants import inputs, unmarked
from engine.hordes_and_heroes.state import HIDDEN_L1, HHState, PartyHero, Stack
from test_hh_support import model


@functools.lru_cache(maxsize=None)
def _log() -> tuple[int, ...]:
    rec = play_game(SPEC, model(), 4, derive_seed(21, 0), ["heuristic"])
    assert rec.error is None and len(rec.actions) > 400
    return tuple(rec.actions)


def _state() -> HHState:
    """A four-player game well under way (parties formed, monsters won), found sound."""
    st = replay(SPEC, model(), 4, list(_log()[:400]))
    assert st.check_invariants() == []
    return st


def _broken(st: HHState, areas: int, words: str) -> None:
    """The break marked `areas`, as a rule that changed them would; the next check names it."""
    st.dirty |= areas
    problems = st.check_invariants()
    assert any(words in p for p in problems), problems


def _other(st: HHState) -> int:
    """A seat whose turn it is not."""
    return (st.current + 1) % st.n


def _take_from_deck(st: HHState) -> int:
    """A hero card taken out of the hero deck (so moving it elsewhere keeps the count)."""
    card = next(i for i, c in enumerate(st.deck_counts) if c and not st.model.deck[i].is_action)
    st.deck_counts[card] -= 1
    st.deck_size -= 1
    return card


def test_a_hero_deck_card_cannot_appear_from_nowhere() -> None:
    st = _state()
    st.hands[st.current].append(0)
    _broken(st, CARDS, "copies in play, expected")


def test_a_hero_deck_card_cannot_vanish() -> None:
    st = _state()
    _take_from_deck(st)
    _broken(st, CARDS, "copies in play, expected")


def test_the_hero_deck_size_follows_its_cards() -> None:
    st = _state()
    st.discard_size += 1
    _broken(st, CARDS, "hero deck or discard size out of step")


def test_an_empty_stack_leaves_the_line() -> None:
    st = _state()
    st.line.append(Stack("stack Z", [], False, False))
    _broken(st, HORDE, "stack Z is empty but still in the line")


def test_a_face_up_stack_shows_a_known_monster() -> None:
    st = _state()
    s = st.line[0]
    st.pool[s.cards[-1]] += 1       # the top monster goes back to the hidden pool...
    s.cards[-1] = HIDDEN_L1          # ...and its slot is hidden, yet the stack stays face up
    s.up = True
    _broken(st, HORDE, f"{s.name} shows a hidden card face up")


def test_a_monster_cannot_be_won_twice() -> None:
    st = _state()
    st.victory[0].append(st.victory[0][0] if st.victory[0] else st.line[0].cards[-1])
    _broken(st, HORDE, "copies, expected")


def test_hidden_level_1_slots_match_the_unrevealed_level_1_monsters() -> None:
    st = _state()
    st.pool[st.l1_ids[0]] += 1
    _broken(st, HORDE, "hidden level 1 slots differ")


def test_hidden_level_2_slots_match_the_unrevealed_level_2_monsters_and_bosses() -> None:
    st = _state()
    st.pool[st.boss_ids[0]] += 1
    _broken(st, HORDE, "hidden level 2 slots differ")


def test_a_treasure_shows_level_1_or_2() -> None:
    st = _state()
    t = next(i for i, c in enumerate(st.treasure_counts) if c)
    st.treasure_counts[t] -= 1
    hero = st.parties[0][0]
    if hero.treasure >= 0:
        st.box.append(hero.treasure)
    hero.treasure, hero.tlevel = t, 3
    _broken(st, TREASURES, "shows level 3")


def test_a_treasure_cannot_appear_from_nowhere() -> None:
    st = _state()
    st.treasure_discard.append(0)
    _broken(st, TREASURES, f"{st.model.treasures[0].id}: ")


def test_a_town_card_cannot_be_destroyed_twice() -> None:
    st = _state()
    st.towns_won[0].append(0)
    _broken(st, TOWNS, f"{st.model.towns[0].id}: ")


def test_a_party_holds_at_most_the_party_limit() -> None:
    st = _state()
    party = st.parties[st.current]
    while len(party) <= st.model.rules.party_limit:
        party.append(PartyHero(_take_from_deck(st)))
    _broken(st, CARDS | LIMITS, f"player {st.current + 1} has {len(party)} heroes in the party")


def test_outside_their_turn_a_player_keeps_the_hand_limit() -> None:
    st = _state()
    seat = _other(st)
    while len(st.hands[seat]) <= st.hand_limit(seat):
        st.hands[seat].append(_take_from_deck(st))
    _broken(st, CARDS | LIMITS, f"player {seat + 1} holds {len(st.hands[seat])} cards outside their turn")


def test_outside_their_turn_no_hero_is_active() -> None:
    st = _state()
    seat = next(q for q in range(st.n) if q != st.current and st.parties[q])
    st.parties[seat][0].active = True
    _broken(st, LIMITS, f"player {seat + 1} has active heroes outside their turn")


@pytest.mark.parametrize("token", ["steam", "shield", "rerolls", "doom", "bonus_strength"])
def test_no_token_count_goes_negative(token: str) -> None:
    st = _state()
    setattr(st, token, -1)
    _broken(st, TOKENS, f"{token} is negative")


AREA_OF = {"deck_counts": CARDS, "discard_counts": CARDS, "pool": HORDE, "town_counts": TOWNS,
           "treasure_counts": TREASURES}


@pytest.mark.parametrize("counts", list(AREA_OF))
def test_no_card_count_goes_negative(counts: str) -> None:
    st = _state()
    getattr(st, counts)[0] = -1
    _broken(st, AREA_OF[counts], "a negative card count")


def test_a_die_shows_a_face_from_1_to_6() -> None:
    st = _state()
    st.faces, st.locked, st.kept = [7, 3], [False, False], [False, False]
    _broken(st, DICE, "dice in an impossible state")


def test_a_die_is_never_both_locked_and_kept() -> None:
    st = _state()
    st.faces, st.locked, st.kept = [4, 3], [True, False], [True, False]
    _broken(st, DICE, "dice in an impossible state")


def test_a_sound_game_stays_sound_at_every_step() -> None:
    for players in (2, 5):
        rec = play_game(SPEC, model(), players, derive_seed(22, players), ["heuristic"], check=True)
        assert rec.error is None


@pytest.mark.parametrize("players", [2, 3, 4, 5])
def test_the_rules_mark_every_change_they_make(players: int) -> None:
    """Whole games with every bot, checked after every step: what each area's invariants read
    changes only in steps that mark the area, so a check that tests marked areas misses nothing."""
    for bot in ("heuristic", "random", "explore"):
        seed = derive_seed(23, players)
        bots = make_bots(SPEC, players, seed, [bot])
        rng = random.Random(seed)
        st = SPEC.new_state(model(), players, {})
        while (d := st.decision()) is not None:
            assert st.check_invariants() == []
            before = inputs(st)
            st.apply(sample_chance(rng, d) if d.player == CHANCE else bot_choice(st, bots[d.player], d, True))
            assert unmarked(before, st) == [], f"{bot} bots, step {len(st.actions)}: {st.dkind}"


def test_a_change_left_unmarked_is_caught_by_the_audit() -> None:
    st = _state()
    before = inputs(st)
    st.hands[_other(st)].append(0)
    assert unmarked(before, st) == ["cards", "limits"]


def test_a_rule_that_loses_a_card_is_caught_at_the_step_it_does_so(monkeypatch: pytest.MonkeyPatch) -> None:
    """A faulty rule, marking what it changes as the rules do, sends a discarded hero nowhere:
    the smoke game fails at that very step, naming the lost card."""
    real = HHState.discard_hero
    first: list[int] = []

    def loses_the_hero(self: HHState, seat: int, h: PartyHero) -> None:
        real(self, seat, h)
        self.discard_counts[h.card] -= 1
        self.discard_size -= 1
        first.append(len(self.actions))

    monkeypatch.setattr(HHState, "discard_hero", loses_the_hero)
    rec = play_game(SPEC, model(), 4, derive_seed(21, 0), ["heuristic"], invariants=True)
    assert first and rec.error is not None
    assert rec.error.startswith(f"step {first[0]}: AssertionError: invariant broken:"), rec.error
    assert "copies in play, expected" in rec.error


def test_a_checked_game_catches_a_change_the_rules_forgot_to_mark(monkeypatch: pytest.MonkeyPatch) -> None:
    """A faulty rule that loses a card and leaves no mark slips past the quick check, which tests
    only marked areas; a checked game (one smoke game in 20, or --check) tests every area after
    every step and fails at that very step."""
    real = HHState.discard_hero
    first: list[int] = []

    def loses_the_hero_unmarked(self: HHState, seat: int, h: PartyHero) -> None:
        real(self, seat, h)
        self.discard_counts[h.card] -= 1
        self.discard_size -= 1
        self.dirty &= ~CARDS  # the change is left unmarked
        first.append(len(self.actions))

    monkeypatch.setattr(HHState, "discard_hero", loses_the_hero_unmarked)
    quick = play_game(SPEC, model(), 4, derive_seed(21, 0), ["heuristic"], invariants=True)
    at_quick, first[:] = list(first), []
    checked = play_game(SPEC, model(), 4, derive_seed(21, 0), ["heuristic"], check=True)
    assert first and at_quick and first[0] == at_quick[0]
    assert checked.error is not None and checked.error.startswith(f"step {first[0]}: AssertionError: invariant broken:")
    assert quick.error is None or not quick.error.startswith(f"step {first[0]}:")
