"""Kingdoms bots: the heuristic bot uses its abilities where they help and trades; the exploring
bot uses all of the content. Situations are built on the real content under content/kingdoms."""
from __future__ import annotations

import random

import pytest

from engine.core.driver import play_game
from engine.kingdoms import SPEC
from engine.kingdoms.bots import ExploreBot, HeuristicBot
from test_kingdoms_rules import choose, model, roll, situation


def bot_pick(st, seat: int | None = None) -> str:
    """The label the heuristic bot picks at the pending decision."""
    d = st.decision()
    assert d is not None and d.player >= 0, d
    k = HeuristicBot(d.player if seat is None else seat, random.Random(0)).choose(st, d)
    return d.options[k]


def bot_plays(st) -> str:
    label = bot_pick(st)
    st.apply(st.decision().options.index(label))
    return label


def move_phase(player: dict, hordes: dict, players: int = 1, others: list | None = None):
    return situation({"start": "turn", "phase": "move-phase", "current": 0,
                      "players": [player] + (others or []), "hordes": hordes}, players)


def test_gate_puts_an_army_on_a_threatened_bare_settlement() -> None:
    st = move_phase({"abilities": ["gate"], "resources": {"magic": 1},
                     "units": {"c3": {"settlement": 1, "army": 2}, "h8": {"settlement": 1}}},
                    {"h9": "rat-king"})
    assert bot_plays(st) == "Gate: army from c3"
    assert bot_plays(st) == "h8"


def test_haste_lets_a_stack_reach_a_horde_it_can_beat() -> None:
    st = move_phase({"abilities": ["haste"], "resources": {"magic": 1, "food": 1},
                     "units": {"c3": {"settlement": 1, "army": 4}}}, {"c5": "storm-giant-lord"})
    assert bot_plays(st) == "Haste: stack at c3"
    assert bot_plays(st) == "Move 4 from c3 to c5"


def test_migration_moves_a_bare_settlement_away_from_a_horde() -> None:
    st = move_phase({"abilities": ["migration"], "resources": {"food": 1},
                     "units": {"c3": {"settlement": 1}}}, {"c4": "rat-king"})
    assert bot_plays(st) == "Migration: settlement at c3"
    assert bot_plays(st) in ("c2", "b3", "d3")


def test_blizzard_holds_a_horde_next_to_our_pieces() -> None:
    st = move_phase({"abilities": ["blizzard"], "resources": {"magic": 3},
                     "units": {"c3": {"settlement": 1, "castle": 1}}}, {"c4": "rat-king", "j10": "troll-king"})
    assert bot_pick(st) == "Blizzard: horde at c4"


def test_holy_ground_shields_a_bare_settlement_under_threat() -> None:
    st = move_phase({"abilities": ["holy-ground"], "resources": {"magic": 2},
                     "units": {"c3": {"settlement": 1}, "h8": {"settlement": 1}}}, {"c4": "rat-king"})
    assert bot_pick(st) == "Holy Ground: settlement at c3"


def test_diplomacy_spends_spare_gold_against_a_leading_rival() -> None:
    st = move_phase({"abilities": ["diplomacy"], "resources": {"gold": 6}, "units": {"a1": {"settlement": 1}}},
                    {}, players=2, others=[{"units": {"e5": {"settlement": 1, "castle": 1}}}])
    assert bot_plays(st) == "Diplomacy: Player 2"
    assert bot_plays(st) in ("e4", "d5", "f5", "e6")


def test_forced_march_takes_a_stack_to_a_second_horde() -> None:
    st = situation({"start": "turn", "phase": "attack-phase", "players": [
        {"abilities": ["forced-march"], "resources": {"food": 1}, "units": {"c3": {"settlement": 1, "army": 4}}}],
        "hordes": {"c4": "storm-giant-lord"}})
    assert bot_plays(st) == "Forced March: stack at c3"
    assert bot_plays(st) == "c4"


def test_destruction_removes_a_horde() -> None:
    st = situation({"start": "turn", "phase": "attack-phase", "players": [
        {"abilities": ["destruction"], "units": {"c3": {"settlement": 1}}}], "hordes": {"h8": "rat-king"}})
    assert bot_pick(st) == "Destruction: horde at h8"


def test_control_steers_a_horde_away_from_our_pieces() -> None:
    st = situation({"start": "horde", "players": [
        {"abilities": ["control"], "resources": {"magic": 4}, "units": {"c3": {"settlement": 1}}}],
        "hordes": {"c4": "rat-king", "j10": "troll-king"}})
    assert bot_plays(st) == "Control: horde at c4"
    while st.decision().player < 0:          # the tie rolls of the horde order
        st.apply(0)
    assert st.decision().prompt == "Move the horde at c4"
    assert bot_plays(st) in ("c5", "d4", "b4")


def test_fighting_withdrawal_pulls_out_a_stack_that_would_lose() -> None:
    st = situation({"start": "horde", "players": [
        {"abilities": ["fighting-withdrawal"], "resources": {"food": 1},
         "units": {"a1": {"settlement": 1}, "c3": {"army": 1}}}],
        "hordes": {"c4": "rat-king"}})
    label = bot_plays(st)
    assert label.startswith("Fighting Withdrawal: stack from c3 to ") and not label.endswith("c4")


def test_divination_rerolls_an_awaken_horde_event() -> None:
    st = situation({"start": "turn", "phase": "event-phase", "players": [
        {"abilities": ["divination"], "resources": {"magic": 1}, "units": {"c3": {"settlement": 1}}}]})
    roll(st, 4)
    assert bot_pick(st) == "Divination: reroll"


def test_oracles_raise_a_low_event_die() -> None:
    st = situation({"start": "turn", "phase": "event-phase", "players": [
        {"abilities": ["oracles"], "resources": {"magic": 1}, "units": {"c3": {"settlement": 1}}}]})
    roll(st, 5)                               # Stockpile: 1d6 wood
    bot_plays(st)
    roll(st, 2)
    assert bot_pick(st) == "Oracles: +1 (makes 3)"


def test_oracles_turn_a_missed_battle_roll_into_a_hit() -> None:
    st = situation({"start": "turn", "phase": "attack-phase", "players": [
        {"abilities": ["oracles"], "resources": {"magic": 1}, "units": {"c3": {"settlement": 1, "army": 1}}}],
        "hordes": {"c3": "hill-giant-chief"}})
    roll(st, 5)                               # an army hits on 6+ against defense 0
    assert bot_pick(st) == "Oracles: +1 (makes 6)"


def neighbours(p0: dict, p1: dict):
    return situation({"start": "turn", "phase": "trade-phase", "current": 0, "players": [
        dict(p0, units={"c3": {"settlement": 1}}), dict(p1, units={"c4": {"settlement": 1}})]}, 2)


def test_neighbours_exchange_a_spare_chit_for_a_needed_one() -> None:
    st = neighbours({"resources": {"wood": 6}}, {"resources": {"stone": 5}})
    assert bot_plays(st) == "Offer Player 2 wood for stone"
    assert bot_plays(st) == "1 wood"
    assert bot_plays(st) == "1 stone"
    assert bot_plays(st) == "Accept the exchange"
    assert st.res[0][st.model.resources.index("stone")] == 1


def test_an_exchange_that_does_not_help_is_declined() -> None:
    st = neighbours({"resources": {"wood": 6}}, {"resources": {"stone": 5, "wood": 6}})
    assert bot_plays(st) == "Offer Player 2 wood for stone"
    assert [bot_plays(st), bot_plays(st)] == ["1 wood", "1 stone"]
    assert bot_plays(st) == "Decline"


def test_a_trade_giving_more_than_it_brings_is_declined() -> None:
    st = neighbours({"resources": {"wood": 6}}, {"resources": {"stone": 5}})
    for option in ("Offer Player 2 wood for stone", "1 wood", "2 stone"):
        choose(st, option)
    assert st.decision().prompt == "Player 1 offers 1 wood for your 2 stone"
    assert bot_plays(st) == "Decline"


def test_the_heuristic_bot_gives_nothing_away() -> None:
    st = neighbours({"resources": {"wood": 1}}, {"resources": {"wood": 1}})
    assert bot_pick(st) == "Done"


def test_heuristic_kingdoms_are_spread_over_all_fifteen() -> None:
    played = set()
    for seed in range(12):
        rec = play_game(SPEC, model(), 6, seed, ["heuristic"])
        played |= {k for k, u in rec.result.usage.items() if "played" in u and any(u["played"])}
    assert played == {k.id for k in model().kingdoms}


@pytest.fixture(scope="module")
def explored() -> list:
    return [play_game(SPEC, model(), 2 + i % 5, 500 + i, ["explore"], check=i % 10 == 0) for i in range(40)]


def test_explore_games_finish_cleanly(explored) -> None:
    assert all(r.error is None and r.result.end_reason == "rounds" for r in explored)


def test_explore_uses_every_ability_and_kingdom(explored) -> None:
    used: dict[str, int] = {}
    for r in explored:
        for cid, u in r.result.usage.items():
            seats = {i for event in ("used", "played") for i, n in enumerate(u.get(event, [])) if n}
            used[cid] = used.get(cid, 0) + len(seats)
    missing = [a.id for a in model().abilities if not used.get(a.id)]
    missing += [k.id for k in model().kingdoms if not used.get(k.id)]
    assert missing == []


def test_explore_bot_still_plays_like_the_heuristic_outside_its_curiosity() -> None:
    st = neighbours({"resources": {"wood": 6}}, {"resources": {"stone": 5}})
    d = st.decision()
    assert d.options[ExploreBot(0, random.Random(1)).choose(st, d)] == "Offer Player 2 wood for stone"


def test_the_heuristic_bot_builds_a_wizard_tower_on_a_quiet_space_when_spells_want_magic() -> None:
    """A tower costs more stone than a castle and trains no army, so on a level choice the bot
    never took one (no tower in 150 smoke games with the variant on)."""
    fortify = {"start": "turn", "phase": "fortify-phase", "current": 0,
               "options": {"wizard-towers": True}, "hordes": {"j10": "troll-king"}}
    owner = {"abilities": ["gate"], "resources": {"stone": 5},
             "units": {"c3": {"settlement": 1, "castle": 1}, "c4": {"settlement": 1}}}
    st = situation({**fortify, "players": [owner]})
    assert bot_pick(st) == "Build a wizard tower at c4"
    no_spells = {**owner, "abilities": []}
    st = situation({**fortify, "players": [no_spells]})
    assert bot_pick(st) == "Build a castle at c4"
    threatened = {**fortify, "players": [owner], "hordes": {"d4": "troll-king"}}
    assert bot_pick(situation(threatened)) == "Build a castle at c4"


def test_explore_games_with_wizard_towers_build_some() -> None:
    built = 0
    for i in range(12):
        rec = play_game(SPEC, model(), 2 + i % 4, 900 + i, ["explore"], options={"wizard-towers": True})
        assert rec.error is None
        built += rec.result.stats["towers_built"]
    assert built > 0


def test_in_player_versus_player_the_heuristic_bot_invades_a_space_it_outnumbers() -> None:
    """With the variant on, moving into a rival's space is a legal move the bot never chose."""
    def move(variant: bool, armies: int):
        return situation({"start": "turn", "phase": "move-phase", "current": 0,
                          "options": {"player-versus-player": variant},
                          "players": [{"resources": {"food": 1}, "units": {"c3": {"settlement": 1, "army": armies}}},
                                      {"units": {"c4": {"settlement": 1}, "h8": {"settlement": 1}}}]}, 2)
    assert bot_pick(move(True, 3)) == "Move 3 from c3 to c4"
    assert bot_pick(move(True, 1)) == "Done"        # one army against a settlement: no sure win
    assert "Move 3 from c3 to c4" not in move(False, 3).decision().options


def test_explore_games_in_player_versus_player_have_invasions() -> None:
    invasions = 0
    for i in range(6):
        rec = play_game(SPEC, model(), 3 + i % 3, 950 + i, ["explore"], options={"player-versus-player": True})
        assert rec.error is None and rec.result.end_reason == "rounds"
        invasions += rec.result.stats["invasions"]
    assert invasions > 0


# ---------------------------------------------------------------------------------- the last round
def last_research(player: dict, hordes: dict | None = None, players: int = 1):
    return situation({"start": "turn", "phase": "research-phase", "current": 0, "round": 20,
                      "players": [player], "hordes": hordes or {}}, players)


def rest_of_research(st) -> list[str]:
    """What the heuristic bot picks until the Research phase is over."""
    picked = []
    while st.phase == "research-phase" and not st.is_over():
        picked.append(bot_plays(st))
    return picked


def test_in_the_last_round_the_bot_researches_a_one_time_ability_it_can_still_use() -> None:
    # no horde on the board: Destruction would have nothing to act on; Friends still gives a unit
    st = last_research({"units": {"c3": {"settlement": 1, "castle": 1}}})
    assert bot_plays(st) == "Mythic Saga"
    st = last_research({"abilities": ["mythic-saga"], "victory": 5,
                        "units": {"c3": {"settlement": 1, "castle": 1}}})
    assert bot_plays(st) == "Friends"
    assert any(label.startswith("Friends: ") for label in rest_of_research(st))    # used at once
    assert st.spent[0][model().ability_index["friends"]]


def test_in_the_last_round_the_bot_never_researches_destruction_with_no_horde_left() -> None:
    held = ["mythic-saga", "friends", "great-caravan"]
    st = last_research({"abilities": held, "units": {"c3": {"settlement": 1, "castle": 1}}})
    assert bot_pick(st) != "Destruction"
    st = last_research({"abilities": held, "units": {"c3": {"settlement": 1, "castle": 1}}},
                       {"c4": "kobold-commander"})
    assert bot_plays(st) == "Destruction"
    assert "Destruction: horde at c4" in rest_of_research(st)


def test_in_the_last_round_great_caravan_buys_one_more_ability() -> None:
    st = last_research({"abilities": ["mythic-saga", "friends"], "units": {"c3": {"settlement": 1, "castle": 1}}})
    assert bot_plays(st) == "Great Caravan"
    rest = rest_of_research(st)
    assert "Great Caravan" in rest
    assert rest.index("Great Caravan") < rest.index("Buy an ability for 10 resources")


def _round_twenty_waste(bot: str, games: int) -> tuple[int, int]:
    """(one-time abilities researched in round 20's Research phase, of which still unused at the
    end of that turn) over the first games of `smoke kingdoms --seed 1`."""
    from engine.core.driver import derive_seed
    from engine.kingdoms.state import KState
    m = model()
    seen: list[tuple[int, int]] = []
    counts = [0, 0]

    class Watched(KState):
        def grant_ability(self, p: int, ai: int) -> None:
            new = not self.has[p][ai]
            super().grant_ability(p, ai)
            if new and self.round == self.rounds and self.phase == "research-phase" \
                    and m.abilities[ai].timing == "one-time":
                seen.append((p, ai))

        def end_turn(self, p: int) -> None:
            for q, ai in [x for x in seen if x[0] == p]:
                counts[0] += 1
                counts[1] += not self.spent[p][ai]
                seen.remove((q, ai))
            super().end_turn(p)

    spec = SPEC.__class__(**{**SPEC.__dict__, "new_state": lambda mod, n, opt: Watched(mod, n, opt)})
    for i in range(games):
        rec = play_game(spec, m, 1 + i % 6, derive_seed(1, i), [bot])
        assert rec.error is None, rec.error
    return counts[0], counts[1]


def test_bots_waste_no_research_on_a_one_time_ability_in_the_last_round() -> None:
    for bot in ("heuristic", "explore"):
        researched, wasted = _round_twenty_waste(bot, 30)
        assert researched > 0, bot      # the case happens in these games
        assert wasted == 0, (bot, researched, wasted)
