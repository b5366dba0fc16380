"""Rules of Hordes & Heroes, one test per rule, played through the real engine."""
from __future__ import annotations

import random

from engine.core.api import CHANCE
from engine.core.driver import sample_chance
from engine.core.scenario import run_scenario
from engine.hordes_and_heroes import SPEC
from engine.hordes_and_heroes.state import HIDDEN_L1, HIDDEN_L2, HHState
from test_hh_support import content, model


def _until_player(st: HHState, seed: int = 0) -> None:
    rng = random.Random(seed)
    while (d := st.decision()) is not None and d.player == CHANCE:
        st.apply(sample_chance(rng, d))


def _scenario(setup: dict, steps: list, expect: dict, players: int = 2) -> list[str]:
    return run_scenario({"name": "t", "game": "hordes-and-heroes", "players": players, "setup": setup,
                         "steps": steps, "expect": expect}, content())


def test_setup_builds_five_stacks_of_six_level_1_over_six_level_2_with_one_boss() -> None:
    st = SPEC.new_state(model(), 3, {})
    assert len(st.line) == 5
    for s in st.line:
        assert len(s.cards) == 12 and s.boss_hidden and not s.up
        assert s.cards[:6] == [HIDDEN_L2] * 6 and s.cards[6:11] == [HIDDEN_L1] * 5
    _until_player(st)
    for s in st.line:
        assert s.up and model().monsters[s.cards[-1]].level == 1


def test_each_player_starts_with_five_cards_and_the_last_player_sits_right_of_the_start() -> None:
    st = SPEC.new_state(model(), 4, {})
    _until_player(st, seed=3)
    assert [len(h) for h in st.hands] == [5, 5, 5, 5]
    assert st.last_player == (st.start_player - 1) % 4
    assert st.current == st.start_player


def test_a_sixth_recruit_discards_a_party_hero() -> None:
    fails = _scenario({"players": [{"party": ["squire"] * 4 + ["sergeant"], "hand": ["swordmaster"]}]},
                      [{"choose": "Recruit Swordmaster"},
                       {"expect": {"decision": {"prompt": "party is full"}}},
                       {"choose": "Discard Squire"}],
                      {"players.0.party": ["squire"] * 3 + ["sergeant", "swordmaster"], "discard": ["squire"]})
    assert fails == []


def test_two_recruits_and_two_actions_per_turn() -> None:
    fails = _scenario({"players": [{"hand": ["squire", "squire", "squire", "second-wind", "second-wind"]}],
                       "hero_deck": []},
                      [{"choose": ["Recruit Squire", "Recruit Squire", "Play Second Wind", "Play Second Wind"]}],
                      {"players.0.hand": ["squire"], "rerolls": 4, "phase": "dice"})
    assert fails == []


def test_steam_pays_a_whole_cost_and_never_mixes_with_dice() -> None:
    fails = _scenario({"phase": "dice", "steam": 3, "players": [{"party": ["steamasaur", "steam-brute"]}]},
                      [{"roll": [3, 3, 1, 2, 4]}],
                      {"decision": {"options_include": ["Activate Steam Brute with 3 steam"],
                                    "options_exclude": ["Activate Steamasaur"]}})
    assert fails == []


def test_locked_dice_cannot_be_kept_rerolled_or_reused() -> None:
    fails = _scenario({"phase": "dice", "players": [{"party": ["sergeant", "shieldbearer"]}]},
                      [{"roll": [2, 2, 5, 1, 6]}, {"choose": "Activate Sergeant with 2 2"}],
                      {"locked": [2, 2], "decision": {"options_exclude": ["Activate Shieldbearer with 2 2",
                                                                          "Activate Shieldbearer with 2 (cost reduced by 1)",
                                                                          "Keep die 1 (2)", "Keep die 2 (2)"],
                                                      "options_include": ["Keep die 3 (5)"]}})
    assert fails == []


def test_kept_dice_can_be_released_and_rerolled_on_a_later_roll() -> None:
    fails = _scenario({"phase": "dice", "players": [{"party": ["berserker"]}]},
                      [{"roll": [6, 6, 1, 2, 3]}, {"choose": ["Keep die 1", "Keep die 2", "Reroll"]},
                       {"roll": [4, 4, 5]}, {"choose": ["Release die 1", "Reroll"]}, {"roll": [1, 1, 1, 1]}],
                      {"dice": [6, 1, 1, 1, 1], "rerolls": 0})
    assert fails == []


def test_treasure_abilities_work_from_the_next_activation() -> None:
    fails = _scenario({"phase": "dice", "players": [{"party": [{"hero": "squire", "treasure": "flaming-sword",
                                                                "level": 2}]}]},
                      [{"roll": [1, 2, 3, 4, 5]}, {"choose": "Activate Squire (with Flaming Sword) with 1"}],
                      {"strength": 5, "shield": 1})
    assert fails == []


def test_no_treasure_without_active_heroes() -> None:
    fails = _scenario({"phase": "attack", "bonus_strength": 5, "players": [{"party": ["squire"]}],
                       "stacks": [["orc-mage", "goblin-scout"]], "town": []},
                      [{"choose": ["Attack Orc Mage", "End the attack"]}],
                      {"treasures_left": 9, "players.0.victory": ["orc-mage"]})
    assert fails == []


def test_vanguard_destroys_a_town_card_that_costs_xp() -> None:
    fails = _scenario({"phase": "horde", "players": [{}], "stacks": [["goblin-scout", "ghoul"]],
                       "town": ["tavern"]}, [{"chance": "Tavern"}],
                      {"players.0.victory": ["tavern"], "players.0.score": -2})
    assert fails == []


def test_hand_limit_is_five_at_the_end_of_the_turn() -> None:
    fails = _scenario({"phase": "end", "players": [{"hand": ["squire", "squire", "sergeant"]}],
                       "hero_deck": ["alchemist", "alchemist", "alchemist", "alchemist"]},
                      [{"chance": ["Alchemist"] * 4}, {"expect": {"decision": {"prompt": "Discard a card"}}},
                       {"choose": ["Discard Squire", "Discard Squire"]}],
                      {"players.0.hand_count": 5, "current": 1})
    assert fails == []


def test_the_discard_pile_is_reshuffled_when_the_deck_runs_out() -> None:
    fails = _scenario({"phase": "end", "players": [{}], "hero_deck": ["squire"], "discard": ["sergeant", "sergeant"]},
                      [{"chance": ["Squire", "Sergeant", "Sergeant"]}],
                      {"players.0.hand": ["squire", "sergeant", "sergeant"], "deck_size": 0, "discard": []})
    assert fails == []


def test_negotiations_moves_a_stack_in_the_line() -> None:
    fails = _scenario({"players": [{"hand": ["negotiations"]}],
                       "stacks": [["goblin-scout"], ["imp"], ["ghoul"]]},
                      [{"choose": ["Play Negotiations", "Move stack C", "To position 1"]}],
                      {"stacks": [{"top": "ghoul"}, {"top": "goblin-scout"}, {"top": "imp"}], "vanguard": "imp"})
    assert fails == []


def test_a_flipped_monster_too_strong_ends_the_attack_and_stays_face_up() -> None:
    fails = _scenario({"phase": "attack", "bonus_strength": 4, "players": [{"party": [{"hero": "squire", "active": True}]}],
                       "stacks": [["goblin-scout", "troll-warlord", "imp"], ["ghoul"]], "town": []},
                      [{"choose": ["Attack Goblin Scout", "Flip the top of stack A"]}],
                      {"players.0.victory": ["goblin-scout"], "stacks.0.top": "troll-warlord"})
    assert fails == []


def test_defeating_a_boss_flips_a_doom_token() -> None:
    fails = _scenario({"phase": "attack", "bonus_strength": 20, "players": [{"party": [{"hero": "squire", "active": True}]}],
                       "stacks": [["vampire-lord", "imp"]], "town": [], "treasures": []},
                      [{"choose": "Attack Vampire Lord"}], {"doom": 1, "final": False})
    assert fails == []
