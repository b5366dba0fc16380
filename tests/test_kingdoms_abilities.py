"""Kingdoms abilities that share a shape, each checked against its line of the ability list: the
bonuses against one horde type, the army price changes and the long-range attacks. The others
have a scenario of their own under scenarios/kingdoms/."""
from __future__ import annotations

import pytest

from test_kingdoms_rules import choose, model, roll, situation

# a horde of each type with defense 0 (on a clear space: no terrain bonus)
HORDE = {"humanoid": "hobgoblin-warlord", "undead": "lich-king", "monster": "gryphon-lord"}


def _attack(horde: str) -> int:
    return model().hordes[model().horde_index[horde]].attack


def _fight(ability: str, horde: str, army_roll: int, horde_roll: int) -> tuple[int, int]:
    """One exchange of an Attack phase battle of one army against a horde with 1 hit counter:
    (hit counters left, armies left)."""
    st = situation({"phase": "attack-phase", "current": 0,
                    "players": [{"abilities": [ability], "units": {"c3": {"army": 1}, "h8": {"settlement": 1}}}],
                    "hordes": {"c3": {"horde": horde, "hits": 1}}})
    roll(st, army_roll, horde_roll)
    c3 = st.board.index["c3"]
    return st.hits[c3], st.arm[c3]


@pytest.mark.parametrize("ability,vs", [("holy-water", "undead"), ("nets", "monster"), ("veteran-soldiers", "humanoid")])
def test_attack_bonus_against_one_horde_type(ability: str, vs: str) -> None:
    for kind, horde in HORDE.items():
        hits, _ = _fight(ability, horde, 5, 1)        # 5 + 1 hits (on 6) only against the ability's type
        assert hits == (0 if kind == vs else 1), (ability, kind)


@pytest.mark.parametrize("ability,vs", [("shield-wall", "humanoid"), ("pikes", "monster"), ("clerics", "undead")])
def test_defense_bonus_against_one_horde_type(ability: str, vs: str) -> None:
    for kind, horde in HORDE.items():
        _, armies = _fight(ability, horde, 1, _attack(horde))   # its own rating kills, unless the
                                                                  # ability's defense bonus applies
        assert armies == (1 if kind == vs else 0), (ability, kind)


def test_the_hordes_used_here_have_defense_0_and_their_type() -> None:
    for kind, horde in HORDE.items():
        h = model().hordes[model().horde_index[horde]]
        assert (h.defense, h.type) == (0, ("humanoid", "undead", "monster").index(kind))


@pytest.mark.parametrize("ability,extra", [("great-bows", "wood"), ("fine-swords", "metal"), ("battle-mages", "magic")])
def test_plus_one_attack_abilities_cost_one_more_chit_per_army(ability: str, extra: str) -> None:
    price = {"food": 1, "metal": 2, "wood": 1}
    price[extra] = price.get(extra, 0) + 1
    st = situation({"phase": "train-phase", "current": 0,
                    "players": [{"abilities": [ability], "resources": price,
                                 "units": {"c3": {"settlement": 1, "castle": 1}}}]})
    choose(st, "Train an army at c3")
    assert sum(st.res[0]) == 0 and st.n_arm[0] == 1
    hits, _ = _fight(ability, HORDE["humanoid"], 5, 1)
    assert hits == 0


@pytest.mark.parametrize("ability,pay", [("catapults", "stone"), ("ballistae", "wood"), ("bombards", "metal"),
                                         ("twister", "magic")])
def test_long_range_attacks_hit_on_7_for_their_chit(ability: str, pay: str) -> None:
    for face, left in ((7, 1), (6, 2)):
        st = situation({"phase": "attack-phase", "current": 0,
                        "players": [{"abilities": [ability], "resources": {pay: 1},
                                     "units": {"c3": {"settlement": 1, "army": 1}}}],
                        "hordes": {"c4": {"horde": HORDE["monster"], "hits": 2}}})
        name = model().abilities[model().ability_index[ability]].name
        choose(st, f"{name}: horde at c4")
        roll(st, face)
        assert st.hits[st.board.index["c4"]] == left and sum(st.res[0]) == 0


def test_bridges_and_cavalry_add_up() -> None:
    st = situation({"phase": "move-phase", "current": 0,
                    "players": [{"abilities": ["bridges", "cavalry"], "resources": {"food": 1},
                                 "units": {"c3": {"settlement": 1, "army": 1}}}]})
    options = st.decision().options
    assert "Move 1 from c3 to c6" in options and "Move 1 from c3 to c7" not in options
