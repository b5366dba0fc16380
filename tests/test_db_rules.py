"""Dice Battles rules, one test per rule: every rulebook scenario holds, plus the rules that need
a look inside the state (draws, reshuffles, invariants, clones, armies)."""
from __future__ import annotations

import json
import re
import subprocess
import sys
from pathlib import Path

import pytest
from ruamel.yaml import YAML

from engine.core.driver import derive_seed, play_game, replay
from engine.core.scenario import run_scenario
from engine.dice_battles import SPEC
from engine.dice_battles.armies import CUSTOM_VARIANTS, custom
from engine.dice_battles.checks import army_problems
from engine.dice_battles.model import SPACES
from engine.dice_battles.state import DBState
from test_db_support import (GOBLINS_B1, HAND_0, HAND_1, SCENARIOS, SERPENTS_B1, choose, content, load_yaml, model,
                             scenario_state, table)

FILES = sorted(SCENARIOS.glob("*.yaml"))


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_rulebook_scenario_holds(path: Path) -> None:
    assert run_scenario(load_yaml(path), content(), SPEC, model()) == []


def test_a_wrong_expectation_is_reported() -> None:
    data = load_yaml(SCENARIOS / "die-to-the-hero.yaml")
    data["steps"][-1]["expect"]["players.1.tiles.b1-hero.wounds"] = 3
    assert any("expected 3" in f for f in run_scenario(data, content(), SPEC, model()))


def _quiet_round(st) -> None:
    """Both sides play orders that cannot be activated, so nobody rolls."""
    for label in ("Wolf Charge", "Troll Smash", "No order", "No regrouping order",
                  "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order"):
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))


def test_played_cards_are_discarded_and_the_hand_drawn_back_to_seven() -> None:
    st = scenario_state(table())
    _quiet_round(st)
    while st.decision() is not None and st.decision().player == -1:
        st.apply(0)
    assert [len(h) for h in st.hand] == [7, 7]
    assert sum(st.discard[0]) == 2 and sum(st.discard[1]) == 2
    assert st.check_invariants() == []


def test_an_empty_deck_is_refilled_by_shuffling_the_discard_pile() -> None:
    st = scenario_state(table())
    p = 0
    for c, k in enumerate(st.deck[p]):   # move the whole deck to the discard pile
        st.discard[p][c] += k
        st.deck[p][c] = 0
    st.deck_size[p] = 0
    _quiet_round(st)
    while st.decision() is not None and st.decision().player == -1:
        st.apply(0)
    assert len(st.hand[p]) == 7 and st.stats["reshuffles"] == 1
    assert st.check_invariants() == []


def test_with_deck_and_discard_both_empty_the_hand_stays_short() -> None:
    st = scenario_state(table())
    p = 0
    for c in range(len(st.deck[p])):     # cards gone from the game altogether (a test-only situation)
        st.owned[p][c] -= st.deck[p][c]
        st.deck[p][c] = 0
    st.deck_size[p] = 0
    for c in [st.model.card("goblin-spearmen-order").idx] * 2 + [st.model.card("goblin-archers-order").idx]:
        st.hand[p].remove(c)
        st.owned[p][c] -= 1
    _quiet_round(st)
    while st.decision() is not None and st.decision().player == -1:
        st.apply(0)
    # four cards left in the game: two kept in hand, two played, discarded and drawn again
    assert len(st.hand[p]) == 4 and st.round == 2 and st.deck_size[p] == 0 and sum(st.discard[p]) == 0
    assert st.check_invariants() == []


def test_orders_and_reinforcements_are_secret_decisions_revealed_together() -> None:
    st = scenario_state(table(p0={"reinforcements": ["goblin-mob"]}))
    first = len(st.actions)
    assert st.decision().secret
    _quiet_round(st)
    assert st.decision().secret and "reinforce" in st.decision().prompt
    st.apply(0)
    step, positions = st.reveals[-1]
    assert positions == tuple(range(first, first + 9)) and step == first + 9


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_checked_games_keep_every_invariant_and_replay_identically(bot: str) -> None:
    for i in range(12):
        rec = play_game(SPEC, model(), 2, derive_seed(3, i), [bot], check=True)
        assert rec.error is None, rec.error
        assert rec.result.end_reason in ("two-heroes-lost", "round-limit")


def test_invariants_catch_a_tile_in_two_places_and_a_lost_card() -> None:
    st = scenario_state(table())
    st.reinf[0].append(st.board[0][0][0])
    st.hand[1].pop()
    problems = "; ".join(st.check_invariants())
    assert "in 2 places" in problems and "created or lost" in problems


def test_invariants_catch_a_card_changed_for_another() -> None:
    """The same number of cards everywhere, but one card became another: caught in the hand, the
    deck and the discard pile alike."""
    for where in ("hand", "deck", "discard"):
        st = scenario_state(table())
        if where == "discard":             # a sound start with a card in the discard pile
            card = next(c for c, k in enumerate(st.deck[1]) if k)
            st.deck[1][card] -= 1
            st.deck_size[1] -= 1
            st.discard[1][card] += 1
        assert st.check_invariants() == []
        if where == "hand":
            st.hand[1][0] = next(c for c in range(len(st.model.cards)) if c not in st.hand[1])
        else:
            pile = getattr(st, where)[1]
            card = next(c for c, k in enumerate(pile) if k)
            pile[card] -= 1
            pile[(card + 1) % len(pile)] += 1
        assert "order cards created or lost" in "; ".join(st.check_invariants()), where


def test_invariants_catch_two_poison_dice_and_wounds_above_morale() -> None:
    st = scenario_state(table())
    uid = st.board[0][0][0]
    st.poison[uid] = 2
    st.wounds[uid] = 5
    problems = "; ".join(st.check_invariants())
    assert "2 poison" in problems and "5 wounds on 2 morale" in problems


def _checked_game_error(monkeypatch: pytest.MonkeyPatch, name: str, broken) -> str:
    """Play checked games with one rule of DBState replaced by a broken one; the first error."""
    real = getattr(DBState, name)
    monkeypatch.setattr(DBState, name, lambda self, *a: broken(self, real, *a))
    for i in range(6):
        rec = play_game(SPEC, model(), 2, derive_seed(8, i), ["heuristic"], check=True)
        if rec.error:
            return rec.error
    return ""


def test_checked_play_catches_a_draw_that_loses_a_card(monkeypatch: pytest.MonkeyPatch) -> None:
    def lossy(self, real, p, card):
        real(self, p, card)
        if self.round == 3:
            self.hand[p].pop()      # the drawn card vanishes
    assert "order cards created or lost" in _checked_game_error(monkeypatch, "_draw", lossy)


def test_checked_play_catches_an_order_that_changes_the_deck_size(monkeypatch: pytest.MonkeyPatch) -> None:
    def sloppy(self, real, action):
        if self.dkind == "order" and self.round == 2:
            self.deck_size[self.seat] += 1
        real(self, action)
    assert "deck size" in _checked_game_error(monkeypatch, "apply", sloppy)


def test_checked_play_catches_a_die_that_marks_a_tile_wrongly(monkeypatch: pytest.MonkeyPatch) -> None:
    def double_poison(self, real, uid, colour, ignore=False):
        out = real(self, uid, colour, ignore)
        self.poison[uid] = 2
        return out
    assert "2 poison dice" in _checked_game_error(monkeypatch, "hit", double_poison)


def test_checked_play_catches_a_heal_that_leaves_wounds_below_zero(monkeypatch: pytest.MonkeyPatch) -> None:
    def overheal(self, real, uid, amount):
        done = real(self, uid, amount)
        self.wounds[uid] = -1
        return done
    assert "-1 wounds" in _checked_game_error(monkeypatch, "heal_unit", overheal)


def test_checked_play_catches_poison_that_turns_into_too_many_wounds_at_that_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    broken_at = []

    def heavy(self, real):
        poisoned = [uid for uid, pz in enumerate(self.poison) if pz]
        real(self)
        if poisoned and not broken_at:
            self.wounds[poisoned[0]] += 9   # the poison die became nine wounds
            broken_at.append(len(self.actions))
    error = _checked_game_error(monkeypatch, "_poison_to_wounds", heavy)
    assert error.startswith(f"step {broken_at[0]}:") and "wounds on" in error


def test_checked_play_catches_a_regrouped_tile_with_wounds_beyond_its_morale_at_that_step(
        monkeypatch: pytest.MonkeyPatch) -> None:
    broken_at = []

    def sticky(self, real, p, source, where, units):
        before = len(self.reinf[p])
        real(self, p, source, where, units)
        for uid in self.reinf[p][before:]:
            if not broken_at:
                self.wounds[uid] = 9        # its wounds ride along to the reinforcements, and grow
                broken_at.append(len(self.actions))
    error = _checked_game_error(monkeypatch, "_move_regrouped", sticky)
    assert error.startswith(f"step {broken_at[0]}:") and "9 wounds on" in error


def test_checked_play_catches_a_defeated_tile_left_on_the_mat(monkeypatch: pytest.MonkeyPatch) -> None:
    def duplicate(self, real):
        real(self)
        if self.gone[0]:
            self.board[0][0][0] = self.gone[0][0]   # a lost tile is back on the mat as well
    assert "in 2 places" in _checked_game_error(monkeypatch, "_check_defeated", duplicate)


def test_checked_play_catches_a_fleeing_zone_overflow(monkeypatch: pytest.MonkeyPatch) -> None:
    def keep_all(self, real, p, uid):
        self.fleeing[p].insert(0, uid)          # nobody is pushed off the last space
        self.fleeing_at[p][:] = range(len(self.fleeing[p]))
    assert "tiles fleeing" in _checked_game_error(monkeypatch, "_flee", keep_all)


def test_checked_play_catches_a_fleeing_tile_that_is_not_pushed_out_of_the_first_space(
        monkeypatch: pytest.MonkeyPatch) -> None:
    def crowded(self, real, p, uid):
        real(self, p, uid)
        at = self.fleeing_at[p]
        if len(at) > 1:
            at[1] = at[0]                       # the tile in the first space stays there
    assert "fleeing tiles in spaces [0, 0" in _checked_game_error(monkeypatch, "_flee", crowded)


def test_a_clone_copies_plain_data_and_plays_on_independently() -> None:
    rec = play_game(SPEC, model(), 2, 5, ["heuristic"])
    st = replay(SPEC, model(), 2, rec.actions[: len(rec.actions) // 2])
    twin = st.clone()
    assert twin.fingerprint() == st.fingerprint()
    before = st.fingerprint()
    while twin.decision() is not None:
        twin.apply(0)
    assert st.fingerprint() == before and twin.is_over()


def test_a_clone_does_not_replay_the_log() -> None:
    st = replay(SPEC, model(), 2, play_game(SPEC, model(), 2, 9, ["heuristic"]).actions[:300])
    st.actions[0] = 10_000          # a replay from this log would fail at once
    assert st.clone().fingerprint()[1:] == st.fingerprint()[1:]


def test_custom_armies_keep_the_army_rules() -> None:
    m = model()
    units = {u["id"]: u for u in content()["unit"]}
    rules = content()["army-rules"][0]
    for faction in m.factions:
        for k in range(CUSTOM_VARIANTS):
            sheet = custom(m, faction, k)
            army = {"faction": faction,
                    "battalions": [{s: m.units[u].id for s, u in zip(SPACES, b)} for b in sheet.battalions],
                    "reinforcements": [m.units[u].id for u in sheet.reinforcements]}
            assert army_problems(army, units, rules, m.setup_reinforcements_max) == [], (faction, k)
            assert all(u >= 0 for b in sheet.battalions for u in b), ("every battalion filled", faction, k)


def test_armies_can_be_fixed_by_options() -> None:
    st = SPEC.new_state(model(), 2, {"armies": ["wolf-pack", "custom:serpent-children"]})
    while st.decision().player == -1 and st.phase == "army":
        st.apply(0)
    assert st.sheet_ids == ["wolf-pack", "custom-army"] and st.factions == ["goblins", "serpent-children"]


def test_dice_battles_is_for_two_players() -> None:
    with pytest.raises(ValueError):
        SPEC.new_state(model(), 3, {})


def _with_rules(**changes) -> tuple[dict, object]:
    """The real content with some rulings of rules.yaml changed, and its model."""
    data = {kind: list(items) for kind, items in content().items()}
    data["rules"] = [{**data["rules"][0], **changes}]
    return data, SPEC.build_model(data)


def _three_spear_dice_on_a_wounded_spawn() -> dict:
    """Spear Rush (2 dice, +1 for two Spearmen) lands three dice on a Serpent Spawn with 1 wound."""
    setup = table(p1={"marks": {"b1-fl": {"wounds": 1}}})
    return {"name": "excess dice", "game": "dice-battles", "setup": setup, "steps": [
        {"choose": ["Spear Rush", "Troll Smash", "No order", "No regrouping order",
                    "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order"]},
        {"roll": ["1", "1", "1"]}]}


def test_dice_on_a_full_tile_count_toward_annihilation_by_default() -> None:
    scenario = _three_spear_dice_on_a_wounded_spawn()
    scenario["steps"].append({"expect": {"players.1.gone": ["serpent-spawn"], "players.1.fleeing": []}})
    assert run_scenario(scenario, content(), SPEC, model()) == []


def test_excess_dice_lost_discards_dice_on_a_full_tile() -> None:
    data, m = _with_rules(**{"excess-dice": "lost"})
    scenario = _three_spear_dice_on_a_wounded_spawn()
    scenario["steps"].append({"expect": {"players.1.gone": [], "players.1.fleeing": ["serpent-spawn"]}})
    assert run_scenario(scenario, data, SPEC, m) == []


def test_cancel_all_regrouping_counts_each_fleeing_tile_once() -> None:
    """Spear Rush regroups two Spearmen pictures, but only one Spearman flees: with one free space
    in reinforcements everything that can move fits, so `cancel-all` does not cancel."""
    data, m = _with_rules(**{"regroup-when-zone-fills": "cancel-all"})
    setup = table(p0={"reinforcements": ["goblin-mob", "goblin-mob"], "fleeing": ["goblin-spearmen"]})
    scenario = {"name": "cancel-all", "game": "dice-battles", "setup": setup, "steps": [
        {"choose": ["Wolf Charge", "Troll Smash", "No order", "Spear Rush",
                    "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order", "No reinforcement"]},
        {"expect": {"players.0.reinforcements": ["goblin-mob", "goblin-mob", "goblin-spearmen"],
                    "players.0.fleeing": []}}]}
    assert run_scenario(scenario, data, SPEC, m) == []


def _shield_wall_regroups_with_one_space_free(setup_changes: dict | None = None) -> dict:
    """Shield Wall on the regrouping orders (it shows Shield Goblins, then Spearmen), both fleeing,
    one reinforcement space free."""
    p0 = {"reinforcements": ["goblin-mob", "goblin-mob"],
          "fleeing": ["shield-goblins", "goblin-archers", "goblin-spearmen"], **(setup_changes or {})}
    return {"name": "shield wall", "game": "dice-battles", "setup": table(p0=p0), "steps": [
        {"choose": ["Wolf Charge", "Troll Smash", "No order", "Shield Wall",
                    "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order", "No reinforcement"]}]}


def test_cancel_all_regrouping_asks_nothing_and_cancels_when_not_all_fit() -> None:
    """With `regroup-when-zone-fills: cancel-all` a regrouping that does not fit is cancelled
    whole, so there is nothing for the player to choose: no decision, nobody moves."""
    data, m = _with_rules(**{"regroup-when-zone-fills": "cancel-all"})
    scenario = _shield_wall_regroups_with_one_space_free()
    scenario["steps"].append({"expect": {
        "players.0.reinforcements": ["goblin-mob", "goblin-mob"],
        "players.0.fleeing": ["shield-goblins", "goblin-archers", "goblin-spearmen"],
        "log": ["player 1: Wolf Charge on the first battalion (active) cannot be activated",
                "player 1: Troll Smash on the second battalion (active) cannot be activated",
                "player 1: regrouping with Shield Wall cancelled: not enough room",
                "player 2: Marsh Charge on the first battalion (active) cannot be activated",
                "player 2: Petrifying Gaze on the second battalion (active) cannot be activated"]}})
    assert run_scenario(scenario, data, SPEC, m) == []


def test_a_regrouping_asks_only_when_the_units_that_could_come_back_differ() -> None:
    """Two Spearmen side by side in the fleeing zone under Spear Rush (two Spearmen pictures) with
    one space: whichever moves, a Spearman comes back and the zone left is Spearmen then Archers,
    so nobody is asked. Shield Goblins and Spearmen under Shield Wall: the player is asked, and
    each answer moves its own unit."""
    st = scenario_state(table(p0={"reinforcements": ["goblin-mob", "goblin-mob"],
                                  "fleeing": ["goblin-spearmen", "goblin-spearmen", "goblin-archers"]}))
    choose(st, "Wolf Charge", "Troll Smash", "No order", "Spear Rush",
           "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order", "No reinforcement")
    assert st.dkind != "regroup" and st.phase != "activate"
    ids = [model().units[st.utype[u]].id for u in st.reinf[0] + st.fleeing[0]]
    assert ids == ["goblin-mob", "goblin-mob", "goblin-spearmen", "goblin-spearmen", "goblin-archers"]
    for answer, back, left in (("Shield Goblins", "shield-goblins", ["goblin-archers", "goblin-spearmen"]),
                               ("Goblin Spearmen", "goblin-spearmen", ["shield-goblins", "goblin-archers"])):
        scenario = _shield_wall_regroups_with_one_space_free()
        scenario["steps"] += [
            {"expect": {"decision": {"player": 0, "options": ["Shield Goblins", "Goblin Spearmen"]}, "phase": "activate"}},
            {"choose": [answer]},
            {"expect": {"players.0.reinforcements": ["goblin-mob", "goblin-mob", back], "players.0.fleeing": left}}]
        assert run_scenario(scenario, content(), SPEC, model()) == []


def _with_fleeing_spaces(n: int) -> tuple[dict, object]:
    """The real content with a battle mat whose fleeing zone has n spaces, and its model."""
    data = {kind: list(items) for kind, items in content().items()}
    mat = dict(data["battle-mat"][0])
    mat["zones"] = [{**z, "spaces": n} if z["id"] == "fleeing" else z for z in mat["zones"]]
    data["battle-mat"] = [mat]
    return data, SPEC.build_model(data)


def test_a_fleeing_space_in_a_regrouping_label_is_the_printed_space_even_after_a_gap() -> None:
    """On a mat with four fleeing spaces, Spearmen, Archers, Frenzied Mob and Archers flee. In
    the first round Spear Rush brings back the Spearmen from the first space, which stays empty:
    the others keep their spaces (second, third, fourth). In the second round Arrow Rain can bring
    back either Archers, and the options name the spaces those tiles sit in on the mat."""
    data, m = _with_fleeing_spaces(4)
    setup = table(p0={"fleeing": ["goblin-spearmen", "goblin-archers", "goblin-mob", "goblin-archers"]})
    scenario = {"name": "gap", "game": "dice-battles", "seed": 1, "setup": setup, "steps": [
        {"choose": ["Wolf Charge", "Troll Smash", "No order", "Spear Rush",
                    "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order"]},
        {"expect": {"players.0.fleeing": ["goblin-archers", "goblin-mob", "goblin-archers"],
                    "players.0.reinforcements": ["goblin-spearmen"]}},
        {"choose": ["Shield Wall", "Howling Charge", "No order", "Arrow Rain",
                    "Coiling Strike", "Swarm", "No order", "No regrouping order", "No reinforcement"]},
        {"expect": {"decision": {
            "player": 0, "prompt": "Arrow Rain regroups from the fleeing units",
            "options": ["Goblin Archers from the fourth fleeing space", "Goblin Archers from the second fleeing space"]}}},
        {"choose": ["Goblin Archers from the second fleeing space"]},
        {"expect": {"players.0.fleeing": ["goblin-mob", "goblin-archers"],
                    "players.0.reinforcements": ["goblin-spearmen", "goblin-archers"]}}]}
    assert run_scenario(scenario, data, SPEC, m) == []


def test_a_unit_fleeing_pushes_only_the_units_up_to_the_first_empty_space() -> None:
    """On a mat with four fleeing spaces: with the second space emptied, a unit fleeing pushes
    the one in the first space into it and nothing beyond; a unit pushed out leaves only when the
    zone is full, and the zone keeps the printed space of every tile."""
    _, m = _with_fleeing_spaces(4)
    st = SPEC.scenario_state(m, 2, table(p0={"fleeing": ["goblin-spearmen", "goblin-archers", "goblin-mob",
                                                        "goblin-archers"]}))
    zone, at = st.fleeing[0], st.fleeing_at[0]
    assert at == [0, 1, 2, 3]
    st._move_regrouped(0, zone, "fleeing units", (1,))
    assert at == [0, 2, 3]
    mob = m.unit("goblin-mob").idx
    st._flee(0, st.new_tile(0, mob))
    assert at == [0, 1, 2, 3] and len(zone) == 4 and st.gone[0] == []
    st._move_regrouped(0, zone, "fleeing units", (0, 2))
    assert at == [1, 3]
    st._flee(0, st.new_tile(0, mob))
    assert at == [0, 1, 3] and st.gone[0] == []
    st._flee(0, st.new_tile(0, mob))
    assert at == [0, 1, 2, 3] and st.gone[0] == []
    last = zone[-1]
    st._flee(0, st.new_tile(0, mob))
    assert at == [0, 1, 2, 3] and st.gone[0] == [last]
    assert st.check_invariants() == []


def _what_a_seat_keeps(st, p: int) -> tuple:
    """What tells two regroupings of seat p apart: its fleeing units in order, the units in its
    reinforcements, and per battalion its tiles' units and marks (not their spaces)."""
    utype = st.utype
    marks = lambda u: (utype[u], st.wounds[u], st.poison[u], st.excess[u])  # noqa: E731
    return (tuple(utype[u] for u in st.fleeing[p]), sorted(utype[u] for u in st.reinf[p]),
            [sorted(marks(u) for u in bat if u >= 0) for bat in st.board[p]])


def test_every_regrouping_decision_in_play_offers_different_outcomes() -> None:
    """In whole games of random bots (which play many regrouping orders), each regrouping
    decision has at least two options with different labels, each moves as many tiles (no more
    than the free spaces), and taking each leaves its player with something different; the
    games do reach such decisions."""
    m = model()
    asked = 0
    for i in range(40):
        rec = play_game(SPEC, m, 2, derive_seed(5, i), ["random"])
        st = SPEC.new_state(m, 2, {})
        for action in rec.actions:
            if st.dkind == "regroup":
                d = st.decision()
                asked += 1
                assert d.n >= 2 and len(set(d.options)) == d.n and not d.secret
                room = m.reinforcement_spaces - len(st.reinf[d.player])
                assert len({len(places) for places in st.moves}) == 1 and 0 < len(st.moves[0]) <= room
                kept = []
                for k in range(d.n):
                    twin = st.clone()
                    twin.apply(k)
                    kept.append(repr(_what_a_seat_keeps(twin, d.player)))
                assert len(set(kept)) == d.n
            st.apply(action)
        assert st.is_over()
    assert asked > 0


def test_set_up_one_order_card_per_tile_shuffled_into_the_deck_and_seven_drawn() -> None:
    """Set-up: for every tile placed (battalions and reinforcements) its order card goes into the
    deck; each player then draws seven cards."""
    st = SPEC.new_state(model(), 2, {"armies": ["goblin-warband", "venom-coil"]})
    while st.decision().player == -1:
        st.apply(0)
    m = st.model
    for p in (0, 1):
        tiles = [uid for bat in st.board[p] for uid in bat if uid >= 0] + st.reinf[p]
        cards = [0] * len(m.cards)
        for uid in tiles:
            cards[m.units[st.utype[uid]].card] += 1
        assert st.owned[p] == cards
        assert len(st.hand[p]) == 7 and st.deck_size[p] == len(tiles) - 7
    assert st.round == 1 and st.decision().player == 0


def test_a_card_without_attack_places_no_dice_even_with_two_matching_units() -> None:
    """Step 3: no dice are placed on a card without attack, so the die for a second matching unit
    and offensive powers do not apply. Spear Rush given no attack, with two Spearmen in the first
    battalion, rolls nothing."""
    data = {kind: list(items) for kind, items in content().items()}
    data["order-card"] = [{**c, "attack": {**c["attack"], "dice": 0}} if c["id"] == "goblin-spearmen-order" else c
                          for c in data["order-card"]]
    scenario = {"name": "no attack", "game": "dice-battles", "setup": table(), "steps": [
        {"choose": ["Spear Rush", "Troll Smash", "No order", "No regrouping order",
                    "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order"]},
        {"expect": {"players.0.activated": [True, False, False, False], "players.0.dice": [0, 0, 0],
                    "phase": "draw"}}]}
    assert run_scenario(scenario, data, SPEC, SPEC.build_model(data)) == []


def test_a_regrouped_unit_comes_back_to_reinforcements_without_its_dice() -> None:
    """Decision (docs/games/dice-battles.md): a fleeing unit keeps its dice while it flees and
    leaves them behind when it is regrouped. The Spearmen fled with two wounds and a poison die;
    Spear Rush on the regrouping orders brings them back to reinforcements clean."""
    st = scenario_state(table(p0={"fleeing": ["goblin-spearmen"], "marks": {"fleeing-1": {"wounds": 2, "poison": 1}}}))
    assert st.observation(0)["players"][0]["fleeing"] == [["goblin-spearmen", 2, 1, 0]]
    choose(st, "Wolf Charge", "Troll Smash", "No order", "Spear Rush",
           "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order")
    seen = st.observation(0)["players"][0]
    assert seen["fleeing"] == [] and seen["reinforcements"] == [["goblin-spearmen", 0, 0, 0]]


@pytest.mark.parametrize("marks, message", [
    ({"b1-fl": {"wounds": 9}}, "b1-fl: 9 wounds, but Goblin Spearmen has 2 morale squares"),
    ({"b1-fl": {"poison": 2}}, "b1-fl: poison is 0 or 1"),
    ({"b7-fl": {"wounds": 1}}, "no place 'b7-fl'"),
    ({"fleeing-2": {"wounds": 1}}, "no place 'fleeing-2'"),
    ({"b2-rr": {"wounds": 1}}, "no tile at b2-rr"),
])
def test_a_scenario_cannot_mark_a_tile_beyond_the_rules_or_a_place_that_is_not_there(tmp_path: Path, marks,
                                                                                     message: str) -> None:
    """A scenario's table must be one the rules can reach: wounds within a tile's morale squares, one
    poison die at most, marks on a tile that is there. `hordekit scenario` says which, and fails."""
    _assert_scenario_refused(tmp_path, {"marks": marks}, message)


@pytest.mark.parametrize("side, message", [
    ({"battalions": [{"fl": "goblin-archers", "hero": "warboss-grukk"}]},
     "b1-fl: Goblin Archers may not stand on front left (its tile shows rl, rr)"),
    ({"reinforcements": ["troll-tamer"]}, "reinforcements: the hero 'troll-tamer' cannot be there"),
    ({"fleeing": ["warboss-grukk"]}, "fleeing: the hero 'warboss-grukk' cannot be there"),
])
def test_a_scenario_cannot_place_a_tile_where_the_rules_never_put_it(tmp_path: Path, side, message: str) -> None:
    """Units stand only on the spaces their tile shows, and a hero never waits in reinforcements or
    flees: a scenario's table that breaks this is refused, naming the place."""
    _assert_scenario_refused(tmp_path, side, message)


@pytest.mark.parametrize("side, message", [
    ({"fleeing": ["goblin-spearmen"] * 4}, "players.0.fleeing: 4 tiles; the zone has 3 spaces"),
    ({"reinforcements": ["goblin-spearmen"] * 5}, "players.0.reinforcements: 5 tiles; the zone takes 4 at most"),
    ({"reinforcements": ["serpent-spawn"]}, "players.0: pieces of goblins and serpent-children; an army has one"),
    ({"discard": ["serpent-spawn-order"]}, "players.0: pieces of goblins and serpent-children; an army has one"),
    ({"army": "venom-coil"}, "players.0: pieces of goblins and serpent-children; an army has one"),
    ({"gone": ["warboss-grukk"]}, "players.0: 2 tiles of warboss-grukk; the box holds 1"),
    ({"gone": ["cave-troll"] * 3}, "players.0: 3 tiles of cave-troll; the box holds 2"),
    ({"hand": ["goblin-catapult-order", "goblin-catapult-order"]},
     "players.0: 2 cards goblin-catapult-order in hand and discard; the box holds 1"),
    ({"hand": ["goblin-spearmen-order"] * 8}, "players.0.hand: 8 cards; a hand holds 7"),
    ({"heroes_lost": 7}, "players.0.heroes_lost: 7 is not a whole number from 0 to 3"),
    ({"heroes_lost": "two"}, "players.0.heroes_lost: 'two' is not a whole number from 0 to 3"),
    ({"heroes_lost": 0}, "players.0.heroes_lost: 0, but 1 hero spaces are empty"),
    ({"battalions": [{"fl": "goblin-spearmen", "hero": "warboss-grukk"}]},
     "players.0: 2 heroes lost; the game ends when a player loses the second"),
    ({"marks": {"b1-fl": {"wounds": "abc"}}}, "b1-fl: wounds: 'abc' is not a whole number 0 or more"),
    ({"marks": {"b1-fl": {"wounds": -1}}}, "b1-fl: wounds: -1 is not a whole number 0 or more"),
    ({"marks": {"b1-fl": {"poison": True}}}, "b1-fl: poison: True is not a whole number 0 or more"),
    ({"marks": {"b1-fl": {"excess": 5}}}, "players.0.marks.b1-fl: unknown keys: excess"),
    ({"marks": {"b1-fl": {"wounds": 2}}}, "b1-fl: Goblin Spearmen has every morale square covered; step 5 would"),
    ({"reinforcements": ["goblin-mob"], "marks": {"reinforcements-1": {"poison": 1}}},
     "reinforcements-1: a tile in reinforcements carries no dice"),
    ({"marks": [1, 2]}, "players.0.marks: a mapping of places"),
    ({"discard": 5}, "players.0.discard: a list of ids"),
    ({"discard": ["goblin-spearmen-order", "goblin-archers-order", "warboss-grukk-order", "troll-tamer-order"]},
     "players.0.discard: 4 cards, but the order deck is empty; the discard pile becomes the new deck"),
    ({"colour": "red"}, "players.0: unknown keys: colour"),
])
def test_a_scenario_cannot_describe_a_table_no_game_reaches(tmp_path: Path, side, message: str) -> None:
    """Hostile or careless setup values are refused with a message naming the key, never played: zones
    hold no more tiles than their spaces, an army is of one faction and no bigger than the box, a hand
    holds seven cards, heroes lost agree with the battalions that lost them, marks are whole numbers."""
    _assert_scenario_refused(tmp_path, side, message)


@pytest.mark.parametrize("setup, message", [
    ({"round": "abc"}, "round: 'abc' is not a whole number from 0 to 79"),
    ({"round": 80}, "round: 80 is not a whole number from 0 to 79"),
    ({"round": 5, "options": {"max_rounds": 5}}, "round: 5 is not a whole number from 0 to 4"),
    ({"options": {"max_rounds": -1}}, "max_rounds: -1 is not a whole number of rounds, 1 or more"),
    ({"options": [1]}, "options: a mapping"),
    ({"turn": 3}, "unknown setup keys: turn"),
])
def test_a_scenario_setup_refuses_unknown_keys_and_values_that_are_no_numbers(tmp_path: Path, setup,
                                                                              message: str) -> None:
    _assert_scenario_refused(tmp_path, {}, message, setup)


def _assert_scenario_refused(tmp_path: Path, side: dict, message: str, setup: dict | None = None) -> None:
    """Run a rulebook scenario with seat 0's setup changed through the CLI; it must fail with `message`."""
    data = load_yaml(SCENARIOS / "three-wounds-with-poison-flee.yaml")
    data["setup"]["players"][0].update(side)
    data["setup"].update(setup or {})
    path = tmp_path / "broken-marks.yaml"
    with path.open("w", encoding="utf-8") as fh:
        YAML(typ="safe", pure=True).dump(data, fh)
    run = subprocess.run([sys.executable, "-m", "toolkit", "scenario", str(path)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1 and message in run.stdout, run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr
    # reported at the key at fault: one the test changed, or the side itself for a fault of the whole side
    found = re.match(rf"FAIL {re.escape(str(path))}:(\d+):(\d+): ", run.stdout)
    assert found, run.stdout
    line, col = int(found.group(1)), int(found.group(2))
    at = path.read_text().splitlines()[line - 1][col - 1:]
    named = _keys_and_words({**side, **(setup or {})}) | ({"battalions"} if message.startswith("players.0: ") else set())
    assert any(at.startswith(w) for w in named), (at, named)


def _keys_and_words(value) -> set[str]:
    """Every key and plain value in `value`, as the YAML file writes them."""
    if isinstance(value, dict):
        return {str(k) for k in value} | {w for v in value.values() for w in _keys_and_words(v)}
    if isinstance(value, list):
        return {w for v in value for w in _keys_and_words(v)}
    return {str(value).lower() if isinstance(value, bool) else str(value)}


def test_two_cards_that_cancel_powers_cancel_each_other() -> None:
    """Decision (docs/games/dice-battles.md): when both opposing cards cancel powers, both sides'
    powers are cancelled. Lord of Fangs is given an extra die against monster orders; facing
    Unleash the Trolls (a monster order that cancels powers), it rolls its three dice only, and
    the Troll Tamer's two dice are untouched."""
    data = {kind: list(items) for kind, items in content().items()}
    goad = {"kind": "extra-dice", "amount": 1, "vs-class": ["monster"]}
    data["order-card"] = [{**c, "effects": c["effects"] + [goad]} if c["id"] == "venom-lord-order" else c
                          for c in data["order-card"]]
    setup = table(p0={"battalions": [{**GOBLINS_B1, "fc": "cave-troll", "hero": "troll-tamer"},
                                     {"fl": "goblin-spearmen", "hero": "warboss-grukk"}],
                      "hand": ["troll-tamer-order"] + HAND_0[1:]},
                  p1={"battalions": [{**SERPENTS_B1, "hero": "venom-lord"},
                                     {"fl": "serpent-spawn", "hero": "serpent-queen"}],
                      "hand": ["venom-lord-order"] + HAND_1[1:]})
    scenario = {"name": "both cancel", "game": "dice-battles", "setup": setup, "steps": [
        {"choose": ["Unleash the Trolls", "Troll Smash", "No order", "No regrouping order",
                    "Lord of Fangs", "Petrifying Gaze", "No order", "No regrouping order"]},
        {"expect": {"players.0.dice": [2, 0, 0], "players.1.dice": [3, 0, 0]}}]}
    m = SPEC.build_model(data)
    assert run_scenario(scenario, data, SPEC, m) == []
    # against Troll Smash, a monster order that cancels nothing, the extra die counts
    one_sided = {**scenario, "steps": [
        {"choose": ["Troll Smash", "Spear Rush", "No order", "No regrouping order",
                    "Lord of Fangs", "Petrifying Gaze", "No order", "No regrouping order"]},
        {"expect": {"players.1.dice": [4, 0, 0], "players.0.dice": [3, 2, 0]}}]}
    assert run_scenario(one_sided, data, SPEC, m) == []


@pytest.mark.parametrize("options, message", [
    ({"armies": ["custom:elves"]}, "armies: 'custom:elves' for player 1 is no army id"),
    ({"armies": "goblin-warband"}, "armies: a list of at most two entries"),
    ({"factions": ["elves"]}, "factions: a list of one or more of goblins, serpent-children"),
    ({"factions": []}, "factions: a list of one or more of goblins, serpent-children"),
    ({"custom_share": 2}, "custom_share: 2 is not a probability from 0 to 1"),
    ({"max_rounds": 0}, "max_rounds: 0 is not a whole number of rounds, 1 or more"),
    ({"max_rounds": True}, "max_rounds: True is not a whole number of rounds, 1 or more"),
])
def test_options_no_game_can_be_played_with_are_refused_before_play(tmp_path: Path, options, message: str) -> None:
    """A game log (or scenario) carrying option values Dice Battles cannot play - an unknown
    faction or army, a share that is no probability, a round limit below one - is a usage error
    (exit 2) naming the option, not a game quietly played with defaults."""
    log = tmp_path / "hostile.json"
    log.write_text(json.dumps({"game": "dice-battles", "players": 2, "actions": [], "options": options}))
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", str(log)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 2 and message in run.stderr + run.stdout, run.stdout + run.stderr
    assert "Traceback" not in run.stdout + run.stderr


def test_smoke_refuses_a_variant_dice_battles_does_not_have() -> None:
    run = subprocess.run([sys.executable, "-m", "toolkit", "smoke", "dice-battles", "-n", "1", "--variant", "foo"],
                         capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 2 and "Dice Battles has no variants (given: foo)" in run.stderr, run.stderr


def _card_ids() -> list[str]:
    """Every order card but those with Goblins Frenzy, which counts units (it has scenarios of its own)."""
    return [c["id"] for c in content()["order-card"]
            if not any(e["kind"] == "dice-per-unit" for e in c.get("effects") or [])]


@pytest.mark.parametrize("card_id", _card_ids())
def test_every_order_card_rolls_the_attack_printed_on_it(card_id: str) -> None:
    """Step 3, for every order card of both factions: activated by its own tile standing alone in
    the battalion (a hero on the hero space), it places the number of dice its attack shows, in
    its colour; an offensive power whose condition cannot hold (the opposing card is not activated)
    adds nothing."""
    cards = {c["id"]: c for c in content()["order-card"]}
    units = {u["id"]: u for u in content()["unit"]}
    card = cards[card_id]
    unit = units[card["unit"]]
    faction = unit["faction"]
    heroes = [u["id"] for u in units.values() if u["faction"] == faction and u["level"] == "hero"]
    b1 = {"hero": unit["id"]} if unit["level"] == "hero" else {unit["positions"][0]: unit["id"], "hero": heroes[0]}
    b2 = {"hero": next(h for h in heroes if h != b1["hero"])}
    on_mat = {unit["id"], b1["hero"], b2["hero"]}
    fillers = [c["id"] for c in cards.values() if units[c["unit"]]["faction"] == faction
               and c["unit"] not in on_mat][:2]
    side = {"battalions": [b1, b2], "hand": [card_id] + fillers}
    goblins = faction == "goblins"
    setup = table(p0=side) if goblins else table(p1=side)
    quiet = ["Wolf Charge", "Troll Smash"] if not goblins else ["Marsh Charge", "Petrifying Gaze"]
    own = [card["name"], cards[fillers[0]]["name"]]
    seat = 0 if goblins else 1
    orders = (own if goblins else quiet) + ["No order", "No regrouping order"] + \
        (quiet if goblins else own) + ["No order", "No regrouping order"]
    st = scenario_state(setup)
    while st.decision().player == -1:   # the hand is drawn up to seven from the deck first
        st.apply(0)
    choose(st, *orders)
    while st.phase == "reinforce":
        choose(st, "No reinforcement")
    unconditional = sum(e["amount"] for e in card.get("effects") or []
                        if e["kind"] == "extra-dice" and "vs-class" not in e and "min-matching" not in e)
    assert st.activated[seat][0] and not st.activated[1 - seat][0]
    assert st.dice[seat][0] == card["attack"]["dice"] + unconditional
    assert st.queue[0][3] == ("normal", "poisoned", "crushing").index(card["attack"]["colour"])


def test_the_setup_example_in_the_docs_builds_a_table() -> None:
    """docs/games/dice-battles.md shows a scenario setup with every key: it must describe a table
    the scenario checks accept, so a designer who copies it starts from something that runs."""
    doc = (Path(__file__).resolve().parent.parent / "docs" / "games" / "dice-battles.md").read_text(encoding="utf-8")
    start = doc.index("```yaml\nsetup:\n") + len("```yaml\n")
    example = YAML(typ="safe").load(doc[start:doc.index("```", start)])
    scenario = {"name": "docs example", "game": "dice-battles", **example,
                "steps": [{"auto": True}, {"expect": {"players.0.reinforcements": ["goblin-mob"],
                                                      "players.0.heroes_lost": 1, "round": 1}}]}
    assert run_scenario(scenario, content(), SPEC, model()) == []


@pytest.mark.parametrize("change, line, entry, message", [
    # the same card laid twice when the hand holds one
    ("choose: [Foul Brew, Troll Smash", 18, "Foul Brew, Foul Brew", "step 1, entry 2: 'Player 1: order for the second "
     "battalion (active, face down)' has no option 'Foul Brew'"),
    # a card of the other side (its seat is not the one choosing)
    ("choose: [Marsh Charge, Petrifying Gaze", 19, "Marsh Charge, Troll Smash",
     "step 2, entry 2: 'Player 2: order for the second battalion (active, face down)' has no option 'Troll Smash'"),
])
def test_an_illegal_order_in_a_scenario_fails_at_its_entry(tmp_path: Path, change: str, line: int, entry: str,
                                                          message: str) -> None:
    """An order card not in hand, or another side's card, is refused at the line and column of
    that very entry of the `choose` list (exit 1), naming the decision and the options it had."""
    text = (SCENARIOS / "heal-v2.yaml").read_text(encoding="utf-8")
    bad = text.replace(change, change.split(": ")[0] + ": [" + entry, 1)
    assert bad != text
    path = tmp_path / "illegal.yaml"
    path.write_text(bad, encoding="utf-8")
    col = bad.splitlines()[line - 1].index(entry) + entry.index(", ") + 3   # the second entry, counted from 1
    run = subprocess.run([sys.executable, "-m", "toolkit", "scenario", str(path)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1, run.stdout + run.stderr
    fail = run.stdout.splitlines()[0]
    assert fail.startswith("FAIL ") and f"illegal.yaml:{line}:{col}: " in fail and message in fail, fail
    assert "options: " in fail and "Traceback" not in run.stderr


def test_a_die_face_a_die_does_not_show_fails_at_its_entry(tmp_path: Path) -> None:
    text = (SCENARIOS / "armour-blocks-one-die-each-round.yaml").read_text(encoding="utf-8")
    bad = text.replace("roll: [3, 4, 1]", "roll: [3, 7, 1]", 1)
    path = tmp_path / "seven.yaml"
    path.write_text(bad, encoding="utf-8")
    line = next(i for i, x in enumerate(bad.splitlines(), 1) if "roll: [3, 7, 1]" in x)
    col = bad.splitlines()[line - 1].index("7") + 1
    run = subprocess.run([sys.executable, "-m", "toolkit", "scenario", str(path)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1, run.stdout + run.stderr
    assert f"seven.yaml:{line}:{col}: " in run.stdout and "step 3, entry 2: 'Roll an attack die' has no option '7' " \
        "(options: 1; 2; 3; 4; 5; 6)" in run.stdout, run.stdout
