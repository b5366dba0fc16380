"""Dice Battles bots: the heuristic reads the board, and whole games are deterministic."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from engine.core.bench import bench
from engine.core.driver import derive_seed, play_game, replay
from engine.dice_battles import SPEC
from engine.dice_battles.bots import HeuristicBot, evaluate
from engine.dice_battles.state import REGROUP_SLOT
from test_db_support import GOBLINS_B1, GOLDEN, HAND_0, SERPENTS_B1, choose, model, scenario_state, table


def _choose(st, seat: int = 0) -> str:
    d = st.decision()
    return d.options[HeuristicBot(seat, random.Random(0)).choose(st, d)]


def test_heuristic_beats_random_most_of_the_time() -> None:
    wins = 0
    for i in range(30):
        bots = ["heuristic", "random"] if i % 2 == 0 else ["random", "heuristic"]
        rec = play_game(SPEC, model(), 2, derive_seed(8, i), bots)
        wins += (i % 2) in rec.result.winners and len(rec.result.winners) == 1
    assert wins >= 25


def test_heuristic_plays_an_order_it_can_activate() -> None:
    st = scenario_state(table())
    assert _choose(st).split(" (")[0] in ("Spear Rush", "Arrow Rain", "Shield Wall")


def test_heuristic_counters_the_likely_class_of_the_opposing_battalion() -> None:
    cavalry = {"fl": "swamp-striders", "fc": "swamp-striders", "fr": "swamp-striders", "hero": "beast-master"}
    st = scenario_state(table(p1={"battalions": [cavalry, {"fl": "serpent-spawn", "hero": "venom-lord"}]}))
    assert _choose(st).startswith("Shield Wall")
    infantry = scenario_state(table())
    assert not _choose(infantry).startswith("Shield Wall")


def test_heuristic_regroups_the_unit_about_to_leave_the_battlefield() -> None:
    st = scenario_state(table(p0={"fleeing": ["goblin-archers", "goblin-mob", "goblin-spearmen"]}))
    for label in ("Wolf Charge", "Troll Smash", "No order"):
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
    assert "regrouping order" in st.decision().prompt
    assert _choose(st).startswith("Spear Rush")


@pytest.mark.parametrize("fleeing, back", [
    (["goblin-spearmen", "goblin-archers", "goblin-mob"], "Frenzied Mob"),
    (["goblin-mob", "goblin-archers", "goblin-spearmen"], "Goblin Spearmen"),
])
def test_heuristic_brings_back_the_unit_next_to_leave_when_not_all_fit(fleeing, back) -> None:
    """Howling Charge regroups a Mob and a Spearman, both bronze with two morale squares, with one
    reinforcement space free: the heuristic takes the one in the last fleeing space."""
    st = scenario_state(table(p0={"reinforcements": ["goblin-mob", "goblin-mob"], "fleeing": fleeing}))
    choose(st, "Wolf Charge", "Troll Smash", "No order", "Howling Charge",
           "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order", "No reinforcement")
    assert st.decision().options == ("Frenzied Mob", "Goblin Spearmen")
    assert _choose(st) == back


def test_heuristic_values_a_regrouping_order_by_the_units_it_will_then_choose_to_bring_back() -> None:
    """One reinforcement space free; Wolf Riders and Spearmen flee. The Warboss order regroups
    Spearmen, Mob and Wolf Riders in that printed order, so taking its pictures in order would
    value it at the Spearmen; but when the regrouping asks, the heuristic brings back the Wolf
    Riders. Valued by that choice, the Warboss order beats Howling Charge (which can bring back
    only the Spearmen) as the regrouping order, and the Wolf Riders come back."""
    st = scenario_state(table(p0={"reinforcements": ["goblin-mob", "goblin-mob"],
                                  "fleeing": ["wolf-riders", "goblin-spearmen"],
                                  "hand": ["warboss-grukk-order", "goblin-spearmen-order", "goblin-spearmen-order",
                                           "goblin-archers-order", "cave-troll-order", "shield-goblins-order",
                                           "goblin-mob-order"]}))
    choose(st, "Arrow Rain", "Spear Rush", "No order")
    assert "regrouping order" in st.decision().prompt
    assert _choose(st).startswith("Warboss Bellows")
    choose(st, "Warboss Bellows", "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order")
    while st.dkind == "reinforce":
        choose(st, "No reinforcement")
    assert st.decision().options == ("Goblin Spearmen", "Wolf Riders")
    assert _choose(st) == "Wolf Riders"


def test_heuristic_brings_back_the_strongest_units_when_not_all_fit() -> None:
    """The Warboss order on an idle battalion could bring back Spearmen, Mob and Wolf Riders, with
    room for two: the heuristic keeps the Wolf Riders (silver, three morale squares) among them."""
    st = scenario_state(table(
        p0={"battalions": [{**GOBLINS_B1, "hero": "troll-tamer"},
                           {"fl": "goblin-spearmen", "fc": "goblin-mob", "fr": "wolf-riders", "hero": "warboss-grukk"},
                           {"fl": "goblin-spearmen", "hero": "shaman-king"}],
            "reinforcements": ["goblin-archers"], "hand": ["warboss-grukk-order"] + HAND_0[:6]},
        p1={"battalions": [SERPENTS_B1, {}, {"fl": "serpent-spawn", "hero": "venom-lord"}]}))
    choose(st, "Wolf Charge", "Warboss Bellows", "Troll Smash", "No regrouping order",
           "Marsh Charge", "No order", "Petrifying Gaze", "No regrouping order")
    while st.dkind == "reinforce":
        choose(st, "No reinforcement")
    assert st.decision().prompt.startswith("Player 1: Warboss Bellows regroups from the idle second battalion")
    assert "Wolf Riders" in _choose(st)


def test_heuristic_brings_back_the_poisoned_one_of_two_like_units_from_an_idle_battalion() -> None:
    """Two Spearmen on an idle battalion, one poisoned, and the Warboss order names one: the
    heuristic brings back the poisoned one (it comes back clean; left there, its poison would
    become a wound)."""
    st = scenario_state(table(
        p0={"battalions": [{**GOBLINS_B1, "hero": "troll-tamer"},
                           {"fl": "goblin-spearmen", "rl": "goblin-spearmen", "hero": "warboss-grukk"},
                           {"fl": "goblin-spearmen", "hero": "shaman-king"}],
            "marks": {"b2-rl": {"poison": 1}}, "hand": ["warboss-grukk-order"] + HAND_0[:6]},
        p1={"battalions": [SERPENTS_B1, {}, {"fl": "serpent-spawn", "hero": "venom-lord"}]}))
    choose(st, "Wolf Charge", "Warboss Bellows", "Troll Smash", "No regrouping order",
           "Marsh Charge", "No order", "Petrifying Gaze", "No regrouping order")
    assert st.decision().options == ("Goblin Spearmen (unhurt)", "Goblin Spearmen (poisoned)")
    assert _choose(st) == "Goblin Spearmen (poisoned)"


def test_heuristic_sends_reinforcements_to_an_empty_space() -> None:
    st = scenario_state(table(p0={"battalions": [{"fc": "shield-goblins", "rl": "goblin-archers",
                                                   "hero": "warboss-grukk"},
                                                  {"fl": "goblin-spearmen", "hero": "troll-tamer"}],
                                  "reinforcements": ["wolf-riders"]}))
    for label in ("Arrow Rain", "Troll Smash", "No order", "No regrouping order",
                  "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order"):
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
    assert _choose(st).startswith("Wolf Riders to front")


def test_evaluate_gives_each_seat_a_value_between_0_and_1() -> None:
    st = scenario_state(table(p0={"battalions": [{"hero": "warboss-grukk"},
                                                  {"fl": "goblin-spearmen", "hero": "troll-tamer"}]}))
    v = evaluate(st)
    assert all(0 <= x <= 1 for x in v) and abs(sum(v) - 1) < 1e-9 and v[1] > v[0]


def test_same_seed_gives_the_same_game() -> None:
    a = play_game(SPEC, model(), 2, 99, ["heuristic"])
    b = play_game(SPEC, model(), 2, 99, ["heuristic"])
    assert a.actions == b.actions and a.result == b.result


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("db-*.json")), ids=lambda p: p.stem)
def test_golden_log_replays_identically(path) -> None:
    gold = json.loads(path.read_text())
    st = replay(SPEC, model(), gold["players"], gold["actions"], gold.get("options"))
    res = st.result()
    assert st.is_over()
    assert (res.scores, res.winners, res.end_reason, res.turns) == (
        gold["scores"], gold["winners"], gold["end_reason"], gold["turns"])
    assert sorted(model().units[st.utype[u]].id for p in (0, 1) for u in st.gone[p]) == gold["gone"]


def test_bench_reports_actions_per_second() -> None:
    report = bench(SPEC, model(), 2, 3)
    assert report["errors"] == [] and report["actions_per_second"] > 0


def _move_kinds(games: int) -> Counter:
    """What the heuristic did in `games` games, by kind of move the rules allow."""
    m = model()
    seen: Counter = Counter()
    for seed in range(games):
        rec = play_game(SPEC, m, 2, derive_seed(5, seed), ["heuristic"])
        st = SPEC.new_state(m, 2, {})
        for action in rec.actions:
            kind, reveals = st.dkind, len(st.reveals)
            if kind == "order":
                where = "regrouping order" if st.slot == REGROUP_SLOT else st.status(st.seat, st.slot)
                card = st.moves[action]
                seen[(where, "none" if card < 0 else "hero card" if m.cards[card].is_hero else "card")] += 1
            elif kind == "reinforce":
                move = st.moves[action]
                if move is None:
                    seen[("reinforce", "none" if st.decision().n > 1 else "none offered")] += 1
                else:
                    seen[("reinforce", "front row" if move[2] < 3 else "second row")] += 1
            st.apply(action)
            if len(st.reveals) > reveals:
                for line in st.log:
                    for what in ("regrouped from idle", "regrouped from fleeing units", "cannot be activated"):
                        if what in line:
                            seen[("step 3", what)] += 1
    return seen


def test_the_heuristic_makes_every_kind_of_move_the_rules_allow() -> None:
    """Over a run of games the heuristic lays orders on active, idle and defeated battalions (a
    card, a hero card, or none where an order is optional), uses and skips the regrouping order,
    regroups from the fleeing zone and from an idle battalion, and sends reinforcements to both
    rows or none while it could send one."""
    seen = _move_kinds(120)
    wanted = [("active", "card"), ("active", "hero card"), ("idle", "hero card"), ("idle", "card"),
              ("idle", "none"), ("defeated", "card"), ("defeated", "none"), ("regrouping order", "card"),
              ("regrouping order", "hero card"), ("regrouping order", "none"), ("reinforce", "front row"),
              ("reinforce", "second row"), ("reinforce", "none"), ("step 3", "regrouped from idle"),
              ("step 3", "regrouped from fleeing units")]
    assert [w for w in wanted if not seen[w]] == []
    assert ("active", "none") not in seen      # an order is mandatory where both heroes stand
