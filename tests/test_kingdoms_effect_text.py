"""Printed text equals the rules: every Kingdoms effect renders through the print's own templates,
and for the effects that change a number the engine's change equals the printed one."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from engine.kingdoms import SPEC
from test_kingdoms_rules import ROOT, content, situation
from toolkit.pnp.layoutfile import effect_templates
from toolkit.pnp.templating import Templates


def printer() -> Templates:
    effects, problems = effect_templates(ROOT / "templates" / "kingdoms")
    assert problems == []
    return Templates(effects, {})


def all_effects() -> Iterator[tuple[str, dict[str, Any]]]:
    for kind in ("ability", "event", "advanced-tile"):
        for item in content()[kind]:
            for key in ("effects", "first-settlement-effects"):
                for e in item.get(key) or []:
                    yield f"{kind}:{item['id']}", e
    for e in content()["rules"][0]["battle"]["horde-terrain-effects"]:
        yield "rules", e


EFFECTS = list(all_effects())
ABILITIES = {a["id"]: a for a in content()["ability"]}


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("owner,effect", EFFECTS, ids=[f"{o}-{e['kind']}" for o, e in EFFECTS])
def test_every_effect_prints_a_whole_sentence(owner: str, effect: dict) -> None:
    t = printer()
    text = t.effect_text([effect])
    assert t.unknown_effects == set() and text.endswith(".") and "{" not in text, text


def _held(ability: str | None):
    return situation({"start": "turn", "phase": "end-phase", "players": [
        {"abilities": [ability] if ability else [], "units": {"c3": {"settlement": 1}}}]})


def _single(kind: str) -> list[str]:
    """Abilities whose only effect is of `kind` (so the whole change is that effect's)."""
    return [a for a, item in ABILITIES.items() if [e["kind"] for e in item["effects"]] == [kind]]


@pytest.mark.parametrize("ability", _single("extra-resource"))
def test_extra_production_is_the_printed_amount(ability: str) -> None:
    e = ABILITIES[ability]["effects"][0]
    text = printer().effect_text([e])
    base, held = _held(None), _held(ability)
    r = base.model.resources.index(e["resource"])
    assert held.production(0)[r] - base.production(0)[r] == e["amount"] and _numbers(text) == [e["amount"]]
    assert f":{e['resource']}:" in text


@pytest.mark.parametrize("ability", [a for a in ABILITIES if all(e["kind"] == "build-cost" for e in ABILITIES[a]["effects"])])
def test_build_cost_changes_are_the_printed_ones(ability: str) -> None:
    base, held = _held(None), _held(ability)
    for e in ABILITIES[ability]["effects"]:
        text = printer().effect_text([e])
        r = base.model.resources.index(e["resource"])
        change = held.cost_of(0, e["structure"])[r] - base.cost_of(0, e["structure"])[r]
        assert change == e["delta"] and _numbers(text) == [abs(change)]
        assert ("more" in text) == (change > 0) and f":{e['structure']}:" in text


LIMIT_FIELDS = {"army-stacking": "stack_limit", "settlements-per-space": "settlements_per_space",
                "castles-per-space": "castles_per_space", "resource-cap": "cap",
                "spell-uses-per-round": "spell_uses", "paid-ability-uses-per-round": "paid_uses"}


@pytest.mark.parametrize("ability", _single("limit"))
def test_limits_move_by_the_printed_amount(ability: str) -> None:
    e = ABILITIES[ability]["effects"][0]
    text = printer().effect_text([e])
    field = LIMIT_FIELDS[e["limit"]]
    change = getattr(_held(ability).mods[0], field) - getattr(_held(None).mods[0], field)
    assert change == e["delta"] and _numbers(text) == [change]


@pytest.mark.parametrize("ability", [a for a in _single("modify-unit")
                                     if ABILITIES[a]["effects"][0]["scope"] == "all"
                                     and ABILITIES[a]["effects"][0]["unit"] == "army"])
def test_army_bonuses_are_the_printed_ones(ability: str) -> None:
    e = ABILITIES[ability]["effects"][0]
    text = printer().effect_text([e])
    m = _held(None).model
    vs = ("humanoid", "undead", "monster").index(e["vs"]) if "vs" in e else 0
    phase = e.get("phase", "attack")
    sp = 22
    base, held = _held(None), _held(ability)
    if "terrain" in e:
        ter = [t.id for t in m.terrains].index(e["terrain"][0])
        base.tile[sp] = held.tile[sp] = ter
    got = [h - b for h, b in zip(held.unit_bonus(0, "army", vs, phase, sp), base.unit_bonus(0, "army", vs, phase, sp))]
    want = [e.get("attack", 0), e.get("defense", 0)]
    assert got == want
    assert sorted(_numbers(text)) == sorted(abs(x) for x in want + [e.get("hits", 0)] if x)
    if "vs" in e:
        assert f"against {e['vs']} hordes" in text


@pytest.mark.parametrize("ability", [a for a in _single("gain-victory-tokens")
                                     if ABILITIES[a]["effects"][0]["trigger"] == "now"])
def test_victory_tokens_gained_are_the_printed_number(ability: str) -> None:
    e = ABILITIES[ability]["effects"][0]
    text = printer().effect_text([e])
    st = situation({"start": "turn", "phase": "trade-phase", "players": [
        {"abilities": [ability], "resources": {"wood": 3, "stone": 3}, "units": {"c3": {"settlement": 1}}}]})
    d = st.decision()
    pick = next(i for i, o in enumerate(d.options) if o.startswith(ABILITIES[ability]["name"]))
    st.apply(pick)
    assert st.vt[0] == e["amount"] and _numbers(text) == [e["amount"]]


def test_roll_changing_spells_print_which_dice_they_reach() -> None:
    """Divination and Oracles reach the dice rolled for the caster or against the caster's units,
    never the board's setup and spawn rolls (`oracles-leave-the-spawn-coordinates-alone`): the
    sheet must not promise "any one die"."""
    t = printer()
    for ability in ("divination", "oracles"):
        (e,) = ABILITIES[ability]["effects"]
        text = t.effect_text(e)
        assert "any one die" not in text
        assert "for you or against your units" in text and "not a setup or spawn roll" in text, text


def test_medicine_prints_where_the_army_comes_back_without_a_castle() -> None:
    (e,) = ABILITIES["medicine"]["effects"]
    assert ":settlement: if you have no :castle:" in printer().effect_text(e)


def test_fighting_withdrawal_prints_that_it_never_ends_on_a_horde() -> None:
    """The engine never offers a withdrawal into a horde's space
    (`fighting-withdrawal-moves-a-stack-before-the-hordes`); the sheet says so."""
    (e,) = ABILITIES["fighting-withdrawal"]["effects"]
    assert printer().effect_text(e) == ("When the Horde segment begins, move one of your :army: stacks into an "
                                        "adjacent space without a :horde:.")
