"""Kingdoms content against tables transcribed from the rulebook, row by row.

The rulebook gives complete data: the event table, the ability list with its costs and spell
marks, the fifteen kingdoms, the two horde lists, the basic and advanced tiles and the numbers of
set-up, building, battle and the round. Each table below is copied from the rulebook by hand
(facts only) and compared with the content files the engine plays from, so a changed number in
content/kingdoms/ fails here with the row that differs.
"""

from __future__ import annotations

from functools import cache
from pathlib import Path
from typing import Any

import pytest
from ruamel.yaml import YAML

CONTENT = Path(__file__).resolve().parent.parent / "content" / "kingdoms"
TYPES = {"H": "humanoid", "U": "undead", "M": "monster"}

# Horde of the ..., type, hits, defense, attack; the first 40 rows are the first printed list.
HORDES = [
    ("Kobold Commander", "H", 8, -2, 8), ("Goblin Night Raiders", "H", 8, -1, 8),
    ("Orc War Boss", "H", 7, -2, 7), ("Goblin Witch Doctor", "H", 8, -2, 7),
    ("Orc Shaman", "H", 7, -1, 6), ("Hobgoblin Warlord", "H", 6, 0, 6),
    ("Ogre Magi", "H", 4, 2, 5), ("Lizard Man Tribes", "H", 7, 1, 7),
    ("Bullywug King", "H", 8, -2, 9), ("Troglodyte Mother", "H", 5, 2, 8),
    ("King Crab of the Crab Men", "H", 5, 1, 8), ("Gnoll Chieftain", "H", 7, 0, 7),
    ("Bugbear King", "H", 6, 1, 6), ("Barbarian War Chief", "H", 6, 0, 8),
    ("Amazon Queen", "H", 6, 0, 7), ("Nomad Khan", "H", 7, 0, 6),
    ("Troll King", "H", 4, 2, 5), ("Gythanki Witch King", "H", 5, 1, 5),
    ("Drow Sorceress", "H", 5, 1, 6), ("Rat King", "H", 7, -2, 9),
    ("Skeleton King", "U", 6, -2, 9), ("Zombie Master", "U", 6, 1, 9),
    ("Ghoul General", "U", 5, -1, 8), ("Lich King", "U", 4, 0, 5),
    ("Necromancer", "U", 5, -2, 8), ("Vampire Lord", "U", 3, 2, 6),
    ("Wraith Lord", "U", 2, 2, 7), ("Werewolf Pack Leader", "U", 3, 1, 6),
    ("Pit Fiend Demons", "U", 2, 0, 5), ("Barbed Devils", "U", 4, -1, 7),
    ("Winged Ape Army", "M", 4, 1, 6), ("Red Dragons", "M", 2, 2, 5),
    ("Blue Dragons", "M", 3, 0, 7), ("Gremlin Mob", "M", 5, -1, 8),
    ("Emperor Penguin", "M", 6, -2, 9), ("Giant Spider Swarm", "M", 6, -2, 6),
    ("Clockwork Legion", "M", 5, -1, 9), ("Stone Giant Clan", "M", 4, 2, 8),
    ("Frost Giant Family", "M", 3, 0, 7), ("Fire Giant Chief", "M", 2, 1, 5),
    ("Gryphon Lord", "M", 3, 0, 6), ("Efreeti Fire Sultan", "M", 2, 2, 5),
    ("Pokemon Master", "M", 6, -1, 8), ("Centaur Herd Master", "M", 4, 0, 7),
    ("Master of the Wild Hunt", "U", 3, 2, 6), ("Giant Killer Queen Bee", "M", 6, -1, 9),
    ("Naga Queen", "M", 3, 1, 5), ("Dinosaur Lord", "M", 3, 1, 7),
    ("Gargoyle Lord", "M", 4, 2, 8), ("Mushroom Men", "M", 6, -2, 8),
    ("Grandmaster Ninja", "H", 5, 2, 5), ("Storm Giant Lord", "M", 1, 3, 4),
    ("Hill Giant Chief", "M", 3, 0, 7), ("Cloud Giant Lord", "M", 1, 1, 6),
    ("Harpy Queen", "M", 4, -1, 8), ("Death Knight", "U", 4, 1, 7),
    ("Caveman Chief", "H", 7, -1, 8), ("Mummy Pharaoh", "U", 5, 1, 6),
    ("Treant Elder", "M", 2, 2, 6), ("Creeping Kudzu", "M", 6, -2, 9),
    ("Beastmen War Chief", "H", 7, 0, 8), ("Tarasque", "M", 1, 4, 4),
    ("Scorpion Men", "M", 5, 0, 7), ("Minotaur Head Bull", "M", 4, 1, 6),
    ("Chaos Cultists", "U", 6, -1, 9), ("Harbinger of Doom", "U", 1, 3, 3),
    ("Death Priestess Fanatics", "U", 4, -2, 7), ("Deathknell Warlock", "U", 2, 1, 6),
    ("Dark Acolyte", "U", 5, 0, 8), ("Skull Lord", "U", 3, 2, 7),
    ("Apocalypse Horsemen", "U", 1, 4, 5),
]

# Ability, spell mark, activation cost (the price named in the text; Craftsmen's "or" is a second
# price), in the printed order. "Bannish" is printed with a double n.
ABILITIES: list[tuple[str, bool, dict[str, int]]] = [
    ("Green Thumb", False, {}), ("Trade Routes", False, {}), ("Furnaces", False, {}),
    ("Sawmills", False, {}), ("Pulleys", False, {}), ("Astrology", False, {}),
    ("Druids", False, {}), ("Alchemy", True, {}), ("Stoicism", False, {}),
    ("Great Bows", False, {}), ("Skirmishers", False, {}), ("Holy Water", False, {}),
    ("Nets", False, {}), ("Veteran Soldiers", False, {}), ("Vaulted Arches", False, {}),
    ("Fine Swords", False, {}), ("Mercenaries", False, {"gold": 5}), ("Cavalry", False, {}),
    ("Forced March", False, {"food": 1}), ("Fighting Withdrawal", False, {}), ("Scouts", False, {}),
    ("Shield Wall", False, {}), ("Pikes", False, {}), ("Clerics", False, {}),
    ("Berserkers", False, {}), ("Heavy Armor", False, {}), ("Roads", False, {}),
    ("Bridges", False, {}), ("Outposts", False, {}), ("Earthworks", False, {}),
    ("Decoys", False, {"wood": 1}), ("Field Fortifications", False, {"stone": 1}),
    ("Illusions", True, {"magic": 1}), ("Priests", False, {}), ("Craftsmen", False, {"wood": 3}),
    ("Mythic Saga", False, {}), ("Bards & Minstrels", False, {}), ("Militias", False, {}),
    ("Marketplace", False, {}), ("Storehouses", False, {}), ("Friends", False, {}),
    ("Great Caravan", False, {}), ("Garrisons", False, {}), ("Barracks", False, {}),
    ("Urbanization", False, {}), ("Colonies", False, {}), ("Logistics", False, {}),
    ("Legions", False, {}), ("Pioneers", False, {}), ("Catapults", False, {"stone": 1}),
    ("Ballistae", False, {"wood": 1}), ("Bombards", False, {"metal": 1}),
    ("Builders", False, {"gold": 1}), ("Migration", False, {"food": 1}), ("Sages", False, {}),
    ("Rally Troops", False, {}), ("Medicine", False, {}), ("Raiders", False, {}),
    ("Traps", False, {}), ("Mountaineers", False, {}), ("Major Fortifications", False, {}),
    ("Rangers", False, {}), ("Divination", True, {"magic": 1}), ("Twister", True, {"magic": 1}),
    ("Earthquake", True, {"magic": 1}), ("Lightning Strike", True, {"magic": 1}),
    ("Fireball", True, {"magic": 1}), ("Golems", True, {"stone": 3, "magic": 2}),
    ("Battle Mages", False, {}), ("Blizzard", True, {"magic": 3}), ("Gate", True, {"magic": 1}),
    ("Haste", True, {"magic": 1}), ("Bless", True, {"magic": 1}), ("Protection", True, {"magic": 1}),
    ("Holy Ground", True, {"magic": 2}), ("Control", True, {"magic": 4}),
    ("Holy Word", True, {"magic": 1}), ("Poison Cloud", True, {"magic": 1}),
    ("Banish", True, {"magic": 1}), ("Destruction", True, {}), ("Oracles", True, {"magic": 1}),
    ("Diplomacy", False, {"gold": 3}), ("Wizardry", False, {}), ("Leadership", False, {}),
]

# Kingdom and its two starting abilities ("Migrations" is the ability Migration).
KINGDOMS = [
    ("Dwarves", "Mountaineers", "Furnaces"), ("Elves", "Druids", "Rangers"),
    ("Imperial Men", "Roads", "Logistics"), ("Feudal Men", "Heavy Armor", "Clerics"),
    ("Legendary Men", "Oracles", "Colonies"), ("Northern Men", "Berserkers", "Raiders"),
    ("Tribes Men", "Migration", "Militias"), ("Desert Men", "Trade Routes", "Marketplace"),
    ("Gothic Men", "Storehouses", "Vaulted Arches"), ("Warrior Men", "Fine Swords", "Scouts"),
    ("Eastern Men", "Major Fortifications", "Sages"), ("Ancient Men", "Green Thumb", "Priests"),
    ("Horse Men", "Cavalry", "Great Bows"), ("Women Warriors", "Skirmishers", "Stoicism"),
    ("Renaissance Men", "Bombards", "Urbanization"),
]

# Face of the d10 (0 read as 10), event, what it gives.
EVENTS = [
    (1, "Heroes", "army"), (2, "Expansion", "settlement"), (3, "Lore", "ability"),
    (4, "Awaken Horde", "horde"), (5, "Stockpile", "wood"), (6, "Harvest", "food"),
    (7, "Quarry", "stone"), (8, "Rich Vein", "metal"), (9, "Mana Crystals", "magic"),
    (10, "Treasure Trove", "gold"),
]

BASIC_TILES = {"Mountain": "stone", "Forest": "wood", "Farms": "food", "Hills": "metal", "Swamp": "magic"}
ADVANCED_TILES = ["Friendly Village", "Natural Defensive Position", "Chasm", "Barrens", "Trade Route",
                  "Heath", "Ancient Ruins", "Desolate Moor", "Desert", "Plains"]


@cache
def items(file: str) -> list[dict[str, Any]]:
    return YAML(typ="safe", pure=True).load((CONTENT / file).read_text(encoding="utf-8"))["items"]


def by_name(file: str) -> dict[str, dict[str, Any]]:
    return {item["name"]: item for item in items(file)}


def rules() -> dict[str, Any]:
    return items("rules.yaml")[0]


def test_every_horde_counter_matches_the_printed_lists_in_order() -> None:
    got = [(h["name"], h["type"], h["hits"], h["defense"], h["attack"], h["list"])
           for h in items("horde-counters.yaml")]
    want = [(n, TYPES[t], hits, d, a, 1 if i < 40 else 2) for i, (n, t, hits, d, a) in enumerate(HORDES)]
    assert len(want) == 71
    for g, w in zip(got, want):
        assert g == w
    assert len(got) == len(want)
    assert {h.get("quantity", 1) for h in items("horde-counters.yaml")} == {1}    # each counter is unique


@pytest.mark.parametrize("row", ABILITIES, ids=lambda r: r[0])
def test_every_ability_has_its_printed_spell_mark_and_cost(row: tuple[str, bool, dict[str, int]]) -> None:
    name, spell, cost = row
    ability = by_name("abilities.yaml")[name]
    assert ability["spell"] is spell
    assert ability["cost"] == cost


def test_the_ability_list_is_the_printed_list_in_order() -> None:
    assert [a["name"] for a in items("abilities.yaml")] == [name for name, _, _ in ABILITIES]


def test_craftsmen_cost_three_wood_or_three_stone() -> None:
    assert by_name("abilities.yaml")["Craftsmen"]["alternative-costs"] == [{"stone": 3}]


def test_diplomacys_three_gold_go_to_the_opponent() -> None:
    assert by_name("abilities.yaml")["Diplomacy"]["cost-paid-to"] == "target-opponent"


def test_one_time_abilities_are_the_ones_marked_oto() -> None:
    once = {a["name"] for a in items("abilities.yaml") if a["timing"] == "one-time"}
    assert once == {"Mythic Saga", "Friends", "Great Caravan", "Destruction"}


def test_every_kingdom_starts_with_its_printed_pair() -> None:
    ids = {a["id"]: a["name"] for a in items("abilities.yaml")}
    got = [(k["name"], *(ids[a] for a in k["starting-abilities"])) for k in items("kingdoms.yaml")]
    assert got == KINGDOMS


def test_the_event_table_row_by_row() -> None:
    got = []
    for e in sorted(items("events.yaml"), key=lambda e: e["roll"]):
        (effect,) = e["effects"]
        what = {"gain-unit": lambda: effect["units"][0], "gain-ability": lambda: "ability",
                "spawn-horde": lambda: "horde", "gain-resource": lambda: effect["resource"]}[effect["kind"]]()
        assert effect["amount"] == 1
        assert effect.get("dice") == ("d6" if effect["kind"] == "gain-resource" else None)
        got.append((e["roll"], e["name"], what))
    assert got == EVENTS


def test_basic_tiles_ten_of_each_and_what_they_produce() -> None:
    got = {t["name"]: (t["quantity"], t["produces"]) for t in items("terrain.yaml")}
    assert got == {name: (10, {res: 1}) for name, res in BASIC_TILES.items()}


def test_advanced_tiles_five_of_each_yielding_gold_by_the_usual_rule() -> None:
    tiles = by_name("advanced-tiles.yaml")
    assert list(tiles) == ADVANCED_TILES
    assert {t["quantity"] for t in tiles.values()} == {5}
    special = {"Barrens": {}, "Trade Route": {"gold": 2}, "Chasm": {}}
    for name, tile in tiles.items():
        assert tile["produces"] == special.get(name, {"gold": 1}), name


def test_set_up_numbers() -> None:
    s = rules()["setup"]
    assert s["starting-resources"] == {"stone": 1, "wood": 1, "food": 1, "metal": 1, "magic": 1}
    assert s["starting-units"] == {"settlement": 1, "castle": 1, "army": 2}
    assert s["starting-hordes-per-player"] == 1
    assert s["settlement-min-distance"] == 3     # "not within 2 spaces"
    assert rules()["rounds"] == 20
    assert (rules()["board"]["columns"], rules()["board"]["rows"]) == (10, 10)
    assert rules()["board"]["clear-space-produces"] == {"gold": 1}


def test_building_costs_and_limits() -> None:
    s = by_name("structures.yaml")
    assert s["Settlement"]["cost"] == {"food": 2, "wood": 3}
    assert s["Castle"]["cost"] == {"stone": 4}
    assert s["Army"]["cost"] == {"food": 1, "metal": 2, "wood": 1}
    assert s["Wizard Tower"]["cost"] == {"stone": 5} and s["Wizard Tower"]["produces"] == {"magic": 1}
    assert s["Wizard Tower"]["not-adjacent-to-same"] is True
    assert [s[n]["max-per-turn"] for n in ("Settlement", "Castle", "Army")] == [1, 1, 1]
    assert s["Army"]["max-per-turn-per"] == "castle"
    lim = rules()["limits"]
    assert (lim["stacking-limit"], lim["settlements-per-space"], lim["castles-per-space"]) == (4, 1, 1)


def test_resource_move_and_research_numbers() -> None:
    r = rules()
    assert r["resources"]["free-per-turn"] == 3 and r["resources"]["cap"] == 7
    assert r["resources"]["gold-conversion"] == {"give": 2, "get": 1}
    assert r["movement"]["cost-per-stack"] == {"food": 1} and r["movement"]["spaces"] == 1
    assert (r["research"]["free-per-turn"], r["research"]["extra-cost"]) == (1, 10)
    assert r["research"]["duplicates-allowed"] is False


def test_battle_numbers_and_the_spawn_schedule() -> None:
    b = rules()["battle"]
    assert {u: (v["hit-on"], v["hits"]) for u, v in b["units"].items() if u != "wizard-tower"} == {
        "army": (6, 1), "settlement": (8, 1), "castle": (7, 2)}
    assert b["victory-tokens-per-horde"] == 1
    assert b["horde-terrain-effects"] == [{"kind": "modify-horde", "horde-type": "humanoid",
                                           "terrain": ["swamp", "hills"], "attack": 1, "defense": 1}]
    assert rules()["spawn"]["schedule"] == [{"from-round": 1, "hordes": 1}, {"from-round": 11, "hordes": 2}]
    assert rules()["ability-uses"] == {"spells-per-round": 1, "paid-abilities-per-round": 1}


def test_the_eleven_phases_in_printed_order() -> None:
    assert [p["name"] for p in sorted(items("phases.yaml"), key=lambda p: p["order"])] == [
        "Event Phase", "Resource Phase", "Trade Phase", "Settle Phase", "Fortify Phase", "Train Phase",
        "Move Phase", "Attack Phase", "Research Phase", "Spawn Phase", "End Phase"]


# The numbers printed in the abilities' own text: (ability, effect kind, parameter, value).
ABILITY_NUMBERS = [
    ("Green Thumb", "extra-resource", "amount", 1), ("Trade Routes", "extra-resource", "amount", 1),
    ("Furnaces", "extra-resource", "amount", 1), ("Sawmills", "extra-resource", "amount", 1),
    ("Pulleys", "extra-resource", "amount", 1), ("Astrology", "extra-resource", "amount", 1),
    ("Druids", "convert", "max-per-round", 3), ("Priests", "convert", "max-per-round", 3),
    ("Marketplace", "convert", "max-per-round", 1),
    ("Alchemy", "convert", "give", 2), ("Alchemy", "convert", "get", 3),
    ("Great Bows", "modify-unit", "attack", 1), ("Fine Swords", "modify-unit", "attack", 1),
    ("Battle Mages", "modify-unit", "attack", 1), ("Berserkers", "modify-unit", "defense", -1),
    ("Heavy Armor", "modify-unit", "defense", 1), ("Vaulted Arches", "build-cost", "delta", -1),
    ("Skirmishers", "extra-attack", "rolls", 1), ("Cavalry", "extra-move", "amount", 1),
    ("Bridges", "extra-move", "amount", 1), ("Haste", "extra-move", "amount", 2),
    ("Earthworks", "modify-unit", "hits", 1), ("Decoys", "negate-hit", "amount", 1),
    ("Field Fortifications", "negate-hit", "amount", 1), ("Illusions", "negate-hit", "amount", 1),
    ("Craftsmen", "gain-victory-tokens", "amount", 1), ("Mythic Saga", "gain-victory-tokens", "amount", 5),
    ("Bards & Minstrels", "gain-victory-tokens", "amount", 1), ("Militias", "modify-unit", "attack", 1),
    ("Garrisons", "modify-unit", "attack", 1), ("Storehouses", "limit", "delta", 1),
    ("Great Caravan", "gain-resource", "amount", 10), ("Logistics", "limit", "delta", 1),
    ("Legions", "limit", "delta", 1), ("Urbanization", "limit", "delta", 1),
    ("Major Fortifications", "limit", "delta", 1), ("Pioneers", "extra-build", "amount", 1),
    ("Builders", "extra-build", "amount", 1), ("Sages", "research-cost", "nth", 2),
    ("Sages", "research-cost", "delta", -2), ("Rally Troops", "recover-army", "amount", 1),
    ("Medicine", "recover-army", "amount", 1), ("Raiders", "modify-unit", "attack", 1),
    ("Traps", "modify-unit", "attack", 1), ("Catapults", "long-range-attack", "hit-on", 7),
    ("Ballistae", "long-range-attack", "hit-on", 7), ("Bombards", "long-range-attack", "hit-on", 7),
    ("Twister", "long-range-attack", "hit-on", 7), ("Earthquake", "long-range-attack", "hit-on", 9),
    ("Holy Word", "long-range-attack", "roll-bonus", 2), ("Poison Cloud", "long-range-attack", "roll-bonus", 3),
    ("Banish", "long-range-attack", "roll-bonus", 1), ("Lightning Strike", "extra-attack", "hit-on", 5),
    ("Lightning Strike", "extra-attack", "rolls", 1), ("Fireball", "extra-attack", "hit-on", 8),
    ("Fireball", "extra-attack", "rolls", 2), ("Bless", "modify-unit", "attack", 1),
    ("Protection", "modify-unit", "defense", 1), ("Oracles", "adjust-roll", "amount", 1),
    ("Destruction", "destroy-horde", "stacks", 1), ("Wizardry", "limit", "delta", 1),
    ("Leadership", "limit", "delta", 1), ("Friends", "gain-unit", "amount", 1),
    ("Mercenaries", "gain-unit", "amount", 1), ("Golems", "gain-unit", "amount", 1),
]


@pytest.mark.parametrize("row", ABILITY_NUMBERS, ids=lambda r: f"{r[0]}-{r[2]}")
def test_every_number_in_an_abilitys_text(row: tuple[str, str, str, int]) -> None:
    name, kind, param, value = row
    effects = [e for e in by_name("abilities.yaml")[name]["effects"] if e["kind"] == kind]
    assert [e.get(param) for e in effects] == [value]


def test_the_limits_raised_by_the_limit_abilities() -> None:
    limits = {a["name"]: e["limit"] for a in items("abilities.yaml") for e in a["effects"] if e["kind"] == "limit"}
    assert limits == {"Storehouses": "resource-cap", "Urbanization": "settlements-per-space",
                      "Logistics": "army-stacking", "Legions": "army-stacking",
                      "Major Fortifications": "castles-per-space", "Wizardry": "spell-uses-per-round",
                      "Leadership": "paid-ability-uses-per-round"}


def test_the_abilities_whose_text_caps_them_at_one_a_turn() -> None:
    capped = {a["name"] for a in items("abilities.yaml") if a.get("max-per-turn") == 1}
    assert capped == {"Mercenaries", "Golems", "Builders"}


def test_pieces_for_one_to_six_players() -> None:
    assert items("time-track.yaml")[0]["spaces"] == 20                  # a time track of 20 spaces
    assert sum(s["quantity"] for s in items("player-sheets.yaml")) == 6  # a sheet per player, up to 6
    assert items("player-sheets.yaml")[0]["lists"] == ["kingdom", "ability"]
    colours = {t["colour-name"] for t in items("army-tokens.yaml")}
    assert colours == {s["colour-name"] for s in items("settlement-markers.yaml")} and len(colours) == 6
    assert {d["sides"] for d in items("dice.yaml")} == {6, 10}           # six and ten sided dice
    assert sorted(c["resource"] for c in items("resource-chits.yaml")) == sorted(r["id"] for r in items("resources.yaml"))
    chits = {r["id"]: r["colour-name"] for r in items("resources.yaml")}
    assert chits == {"stone": "grey", "wood": "brown", "food": "white", "metal": "blue", "magic": "red",
                     "gold": "yellow"}
