"""The heuristic bot plays sensibly: games end by bosses, it beats random play, its party
arithmetic rewards what really helps (steam makers for steam heroes, cost reducers for X costs)."""
from __future__ import annotations

from engine.core.driver import derive_seed, play_game
from engine.hordes_and_heroes import SPEC
from engine.hordes_and_heroes.botplan import Planner
from test_hh_support import model


def _party(*ids: str) -> tuple:
    m = model()
    return tuple(sorted((m.find("deck", i), -1, 0) for i in ids))


def test_heuristic_games_rarely_reach_the_turn_cap() -> None:
    ends, turns = [], []
    for players, games in ((2, 60), (3, 30), (4, 40), (5, 30)):
        for i in range(games):
            res = play_game(SPEC, model(), players, derive_seed(41, i), ["heuristic"]).result
            ends.append(res.end_reason)
            turns.append(res.turns)
    assert ends.count("stalemate") <= 4, ends.count("stalemate")   # at most 2.5%
    # finishing by bosses means finishing well before the cap, not just under it
    assert sum(turns) / len(turns) < 80


def test_heuristic_bot_beats_random_bots() -> None:
    won = 0
    for i in range(30):
        bots = ["heuristic", "random"] if i % 2 == 0 else ["random", "heuristic"]
        res = play_game(SPEC, model(), 2, derive_seed(43, i), bots).result
        won += res.winners == [i % 2]
    assert won >= 27
    won = 0
    for i in range(10):
        bots = ["heuristic", "random", "random", "random"]
        bots = bots[i % 4:] + bots[:i % 4]
        res = play_game(SPEC, model(), 4, derive_seed(44, i), bots).result
        won += res.winners == [bots.index("heuristic")]
    assert won >= 8


def test_heuristic_bot_is_deterministic() -> None:
    a = play_game(SPEC, model(), 3, 777, ["heuristic"])
    b = play_game(SPEC, model(), 3, 777, ["heuristic"])
    assert a.actions == b.actions and a.result == b.result


def test_steam_heroes_count_only_with_steam_makers() -> None:
    plan = Planner(model())
    bare = plan.strength(_party("steamasaur", "swordmaster"))
    fed = plan.strength(_party("steamasaur", "swordmaster", "steamsmith"))
    alone = plan.strength(_party("steamsmith", "swordmaster"))
    # the Steamsmith adds more next to the Steamasaur than it does on its own
    assert fed - bare > alone - plan.strength(_party("swordmaster")) + 1.0


def test_cost_reducers_and_extra_dice_help_heavy_heroes() -> None:
    plan = Planner(model())
    s = plan.strength
    # a reducer removes X only: it pays off next to an X-cost hero, not next to exact faces
    assert s(_party("berserker", "sergeant")) - s(_party("berserker")) \
        > s(_party("battle-mage", "sergeant")) - s(_party("battle-mage")) + 0.5
    assert s(_party("hero", "champion-of-the-glen")) > s(_party("hero")) + s(_party("champion-of-the-glen")) + 0.5
    heavy = s(_party("berserker", "clockwork-golem"))
    assert s(_party("berserker", "clockwork-golem", "alchemist")) > heavy + 2.0
    # five heroes that all want many dice do not add up as if each had the dice alone
    solo = sum(plan.strength(_party(h)) for h in ("berserker", "clockwork-golem", "swordmaster"))
    assert plan.strength(_party("berserker", "clockwork-golem", "swordmaster")) < solo


def test_a_full_party_swaps_its_least_useful_hero() -> None:
    m = model()
    plan = Planner(m)
    key = _party("iron-colossus", "steamasaur", "clockwork-golem", "steam-brute", "swordmaster")
    value, drop = plan.swap(key, m.find("deck", "steamsmith"))
    assert value > plan.strength(key) + 1.0
    assert drop is not None and m.deck[drop[0]].id != "steamasaur"
    # a hero the party cannot use is not worth a place
    value, _ = plan.swap(_party("alchemist", "sergeant", "swordmaster", "berserker", "hero"),
                         m.find("deck", "steamasaur"))
    assert value <= plan.strength(_party("alchemist", "sergeant", "swordmaster", "berserker", "hero")) + 0.05


def test_the_explore_bot_uses_every_hero_and_action() -> None:
    from engine.core.driver import play_game
    from engine.hordes_and_heroes import SPEC
    seen: set[str] = set()
    for i in range(30):
        rec = play_game(SPEC, model(), 2 + i % 4, 900 + i, ["explore"], check=i % 10 == 0)
        assert rec.error is None, rec.error
        seen |= {cid for cid, u in rec.result.usage.items()
                 if any(any(u.get(e, [])) for e in ("recruited", "played"))}
    assert {c.id for c in model().deck} <= seen


def test_treasures_and_monsters_are_reported_as_used_by_the_seat_that_took_them() -> None:
    from engine.core.driver import play_game
    from engine.hordes_and_heroes import SPEC
    rec = play_game(SPEC, model(), 3, 4, ["heuristic"])
    u = rec.result.usage
    monsters = [m.id for m in model().monsters if m.id in u]
    assert monsters and all(u[m]["used"] == [a + b for a, b in zip(u[m].get("defeated", [0, 0, 0]),
                                                                    u[m].get("captured", [0, 0, 0]))]
                            for m in monsters)
    fired = [t.id for t in model().treasures if "used" in u.get(t.id, {})]
    assert fired and all("attached" in u[t] for t in fired)
