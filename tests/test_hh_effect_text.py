"""Printed text equals the rules: every Hordes & Heroes effect renders through the print's own
templates, and for the effects that change a number the engine's change equals the printed one."""
from __future__ import annotations

import re
from typing import Any, Iterator

import pytest

from engine.hordes_and_heroes import SPEC
from engine.hordes_and_heroes.effects import HANDLERS
from engine.hordes_and_heroes.model import effect_from
from test_hh_support import ROOT, content, model
from toolkit.pnp.layoutfile import effect_templates
from toolkit.pnp.templating import Templates


def printer() -> Templates:
    effects, problems = effect_templates(ROOT / "templates" / "hordes-and-heroes")
    assert problems == []
    return Templates(effects, {})


def all_effects() -> Iterator[tuple[str, dict[str, Any]]]:
    for kind, items in content().items():
        for item in items:
            lists = [item.get("effects")] + [item[h]["effects"] for h in ("level_1", "level_2") if h in item]
            for effects in lists:
                for e in effects or []:
                    yield f"{kind}:{item['id']}", e


EFFECTS = list(all_effects())


@pytest.mark.parametrize("owner,effect", EFFECTS, ids=[f"{o}-{e['kind']}" for o, e in EFFECTS])
def test_every_effect_prints_a_whole_sentence(owner: str, effect: dict) -> None:
    t = printer()
    text = t.effect_text([effect])
    assert t.unknown_effects == set() and text.endswith(".") and "{" not in text, text


def _state():
    return SPEC.scenario_state(model(), 2, {"phase": "dice", "players": [{"party": ["squire"]}, {}],
                                            "stacks": [["goblin-scout"], ["hill-ogre", "ghoul"]]})


# effect kind -> what the engine changes, read off the state
MEASURE = {
    "extra-dice": lambda st: len(st.faces),          # mid-roll they join the next roll
    "extra-reroll": lambda st: st.rerolls,
    "steam": lambda st: st.steam,
    "shield": lambda st: st.shield,
    "strength": lambda st: st.bonus_strength,
    "extra-recruit": lambda st: st.recruits_left,
    "reduce-cost": lambda st: sum(st.discounts),
}


def _numbers(text: str) -> list[int]:
    return [int(n) for n in re.findall(r"\d+", text)]


@pytest.mark.parametrize("owner,effect", [(o, e) for o, e in EFFECTS if e["kind"] in MEASURE],
                         ids=[f"{o}-{e['kind']}" for o, e in EFFECTS if e["kind"] in MEASURE])
def test_the_engine_changes_the_printed_amount(owner: str, effect: dict) -> None:
    text = printer().effect_text([effect])
    st = _state()
    before = MEASURE[effect["kind"]](st)
    assert list(HANDLERS[effect["kind"]](st, 0, effect_from(effect), None)) == []
    change = MEASURE[effect["kind"]](st) - before
    assert change == effect["amount"] and _numbers(text) == [change], (text, change)


@pytest.mark.parametrize("owner,effect", [(o, e) for o, e in EFFECTS if e["kind"] == "capture"],
                         ids=[o for o, e in EFFECTS if e["kind"] == "capture"])
def test_a_capture_takes_exactly_the_monsters_its_text_names(owner: str, effect: dict) -> None:
    text = printer().effect_text([effect])
    limit = effect["max_strength"]
    assert _numbers(text) == [limit]
    mons = {m.strength: m.id for m in model().monsters if m.level < 3}
    at, above = mons.get(limit) or mons[max(s for s in mons if s <= limit)], mons[min(s for s in mons if s > limit)]
    st = SPEC.scenario_state(model(), 2, {"phase": "dice", "players": [{"party": ["squire"]}, {}],
                                          "stacks": [[at], [above]]})
    d = next(iter(HANDLERS["capture"](st, 0, effect_from(effect), None)))
    names = {m.id: m.name for m in model().monsters}
    assert any(names[at] in o for o in d.options) and not any(names[above] in o for o in d.options)
    assert ("another stack" in text) == (effect.get("from") == "other-stack")


def test_draw_cards_draws_the_printed_number() -> None:
    for effect in {e["amount"]: e for _, e in EFFECTS if e["kind"] == "draw-cards"}.values():
        text = printer().effect_text([effect])
        st = _state()
        gen = iter(HANDLERS["draw-cards"](st, 0, effect_from(effect), None))
        draws = 0
        try:
            d = next(gen)
            while True:
                assert d.prompt == "Draw from the hero deck"
                draws += 1
                d = gen.send(0)
        except StopIteration:
            pass
        assert _numbers(text) == [draws] and len(st.hands[0]) == draws


def test_a_hand_size_hero_raises_the_hand_limit_by_its_printed_amount() -> None:
    heroes = [h for h in content()["hero"] if any(e["kind"] == "hand-size" for e in h.get("effects", []))]
    assert heroes
    for h in heroes:
        effect = next(e for e in h["effects"] if e["kind"] == "hand-size")
        text = printer().effect_text([effect])
        with_it = SPEC.scenario_state(model(), 2, {"players": [{"party": [h["id"]]}, {}], "stacks": [["imp"]]})
        without = SPEC.scenario_state(model(), 2, {"players": [{"party": ["squire"]}, {}], "stacks": [["imp"]]})
        change = with_it.hand_limit(0) - without.hand_limit(0)
        assert _numbers(text) == [change] == [effect["amount"]] and text.startswith("Always:")
