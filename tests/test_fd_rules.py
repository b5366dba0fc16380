"""Fantasy Draft rules, one test per rule of the rulebook (or per reading of an unclear one, see
docs/games/fantasy-draft.md). The scenario files under scenarios/fantasy-draft run here too."""
from __future__ import annotations

import re

import pytest

from engine.core import CHANCE
from engine.core.scenario import run_scenario
from engine.fantasy_draft import SPEC
from conftest import run_cli
from test_fd_support import SCENARIOS, choose, content, hx, load_yaml, model, options, situation, unit

BASE = {"a1": {"unit": "flag", "seat": 0}, "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}


def play(board: dict, **setup) -> object:
    return situation({"board": {**BASE, **board}, **setup})


@pytest.mark.parametrize("path", sorted(SCENARIOS.glob("*.yaml")), ids=lambda p: p.stem)
def test_scenario(path) -> None:
    assert run_scenario(load_yaml(path), content(), SPEC, model()) == []


def test_every_scenario_the_rules_decisions_cite_exists() -> None:
    """The readings in docs/games/fantasy-draft.md name the scenario that plays them; a renamed or
    deleted scenario would leave a reading no test pins."""
    doc = (SCENARIOS.parent.parent / "docs" / "games" / "fantasy-draft.md").read_text(encoding="utf-8")
    decisions = doc[doc.index("## Rules decisions"):doc.index("## Rules engine")]
    cited = set(re.findall(r"`(?:scenarios/fantasy-draft/)?([a-z0-9-]+\.yaml)`", decisions))
    assert len(cited) > 15
    content_files = SCENARIOS.parent.parent / "content" / "fantasy-draft"
    assert sorted(name for name in cited if not (SCENARIOS / name).is_file() and not (content_files / name).is_file()) == []


def test_each_player_drafts_with_20_mana_and_players_alternate() -> None:
    st = SPEC.new_state(model(), 2, {})
    assert st.mana == [20, 20] and st.decision().player == 0
    choose(st, "Recruit Dragon")
    assert st.mana == [15, 20] and st.decision().player == 1
    choose(st, "Recruit Giant")
    assert st.decision().player == 0


def test_a_hero_costs_more_than_the_mana_left_is_not_offered() -> None:
    st = situation({"phase": "draft", "mana": [2, 20]})
    assert all("(5 mana)" not in o and "(3 mana)" not in o for o in options(st))
    assert "Recruit Rat (1 mana)" in options(st) and "Stop drafting" in options(st)


def test_an_army_is_filled_with_basic_units_to_26_tokens() -> None:
    st = situation({"phase": "draft", "mana": [13, 14], "pool": ["dragon", "giant", "ghost", "rat", "thief", "golem"],
                    "drafted": [["paladin", "warlord"], ["ranger", "druid"]]})
    for label in ("Recruit Dragon", "Recruit Giant", "Recruit Ghost", "Recruit Rat", "Recruit Thief", "Recruit Golem"):
        choose(st, label)
    while st.phase == "prepare":
        choose(st, "Leave out a Forkman")
    assert [len(a) for a in st.army] == [26, 26]
    assert st.army[0].count(unit("flag")) == 1


def test_an_army_with_fewer_than_five_heroes_stays_short_of_26_tokens() -> None:
    st = situation({"phase": "draft", "mana": [20, 20], "pool": ["rat"]})
    choose(st, "Recruit Rat")
    assert st.phase == "deploy"
    assert [len(a) for a in st.army] == [22, 21], "basic units never exceed the reference card's counts"


def test_tokens_are_deployed_only_on_the_players_own_grass() -> None:
    st = situation({"phase": "deploy", "armies": [["flag", "knight"], ["flag", "rat"]]})
    b = model().board
    d = st.decision()
    assert d.secret
    assert {b.zone[mv[1]] for mv in st.moves} == {0} and len(st.moves) == sum(1 for z in b.zone if z == 0)


def test_a_turn_has_three_actions() -> None:
    st = play({"b1": {"unit": "wolf", "seat": 0}, "c1": {"unit": "wolf", "seat": 0}})
    for label in ("Move b1 to b2", "Move c1 to c2", "Move b2 to b3"):
        assert st.current == 0
        choose(st, label)
    assert st.current == 1 and st.actions_left == 3


def test_a_unit_is_activated_at_most_its_actions_value() -> None:
    st = play({"b1": {"unit": "horseman", "seat": 0}, "f1": {"unit": "forkman", "seat": 0}})
    choose(st, "Move b1 to b2")
    choose(st, "Move b2 to b3")
    assert not any(o.startswith("Move b3") for o in options(st)), "a Horseman acts twice a turn"
    assert any(o.startswith("Move f1") for o in options(st))


def test_a_move_is_one_hex_into_an_empty_hex() -> None:
    st = play({"d3": {"unit": "knight", "seat": 0}, "d2": {"unit": "forkman", "seat": 0}})
    moves = [o for o in options(st) if o.startswith("Move d3")]
    b = model().board
    assert all(b.dist[hx("d3")][hx(o.split()[3])] == 1 for o in moves)
    assert not any(" to d2 " in o for o in moves), "d2 is taken"


def test_a_winning_attacker_moves_into_the_hex_and_a_losing_one_is_removed() -> None:
    st = play({"d4": {"unit": "knight", "seat": 0}, "d5": {"unit": "horseman", "seat": 1}})
    choose(st, "Attack d5 from d4")
    assert st.unit_at(hx("d5")) == unit("knight") and st.unit_at(hx("d4")) == -1


def test_an_archer_never_moves_after_its_attack() -> None:
    st = play({"d3": {"unit": "bowman", "seat": 0}, "d5": {"unit": "forkman", "seat": 1}})
    choose(st, "Shoot d5 from d3")
    assert st.unit_at(hx("d3")) == unit("bowman") and st.unit_at(hx("d5")) == -1


@pytest.mark.parametrize("roll", range(10))
def test_a_d10_ability_works_only_inside_its_printed_range(roll: int) -> None:
    st = play({"d4": {"unit": "rat", "seat": 0}, "d5": {"unit": "knight", "seat": 1}})
    choose(st, "Rat d4 Poison on d5")
    assert st.decision().player == CHANCE and st.decision().options == tuple(str(i) for i in range(10))
    st.apply(roll)
    assert (st.unit_at(hx("d5")) == -1) == (7 <= roll <= 9)


def test_power_tokens_never_raise_strength_above_5() -> None:
    st = play({"d3": {"unit": "golem", "seat": 0}, "b1": {"unit": "wolf", "seat": 0}})
    for _ in range(10):  # Harden on every one of our turns; the other side just moves its wolf
        if st.current == 0 and any(o.startswith("Golem d3 Harden") for o in options(st)):
            choose(st, "Golem d3 Harden")
            st.apply(9)
        while st.current == 0:
            st.apply(next(i for i, mv in enumerate(st.moves) if mv[0] == "move"))
        while st.current == 1:
            st.apply(next(i for i, mv in enumerate(st.moves) if mv[0] == "move"))
    assert st.strength(hx("d3")) == 5 and st.power[unit("golem")] == 3
    assert st.check_invariants() == []


def test_a_power_token_returns_to_the_supply_when_its_hero_is_removed() -> None:
    st = play({"d4": {"unit": "knight", "seat": 0}, "d5": {"unit": "druid", "seat": 1, "power": 2, "revealed": True}})
    assert st.supply == 8
    choose(st, "Attack d5 from d4")
    assert st.supply == 10 and st.check_invariants() == []


def test_a_boost_ends_with_the_turn() -> None:
    st = play({"d3": {"unit": "paladin", "seat": 0}, "d4": {"unit": "forkman", "seat": 0}, "b1": {"unit": "wolf", "seat": 0}})
    choose(st, "Paladin d3 Blessing on d4")
    assert st.strength(hx("d4")) == 2
    choose(st, "Move b1 to b2")
    choose(st, "Move b2 to b3")
    assert st.current == 1 and st.strength(hx("d4")) == 1


def test_a_non_flyer_that_beats_a_flyer_on_water_stays_on_land() -> None:
    st = play({"d4": {"unit": "knight", "seat": 0}, "c4": {"unit": "ghost", "seat": 1}})
    choose(st, "Attack c4 from d4")
    st.apply(9)  # Fade misses
    assert st.unit_at(hx("d4")) == unit("knight") and st.unit_at(hx("c4")) == -1


def test_the_game_ends_at_once_when_the_flag_falls_even_with_actions_left() -> None:
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d4": {"unit": "horseman", "seat": 0},
                              "d5": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    choose(st, "Attack d5 from d4")
    assert st.is_over() and st.result().winners == [0] and st.result().end_reason == "flag-captured"
    assert st.actions_left == 2


def test_if_both_armies_run_out_together_nobody_wins() -> None:
    st = play({"d4": {"unit": "horseman", "seat": 0}, "d5": {"unit": "barbarian", "seat": 1}})
    st.board[hx("k8")] = None
    st.board_changed()
    st.army[1].remove(unit("wolf"))
    choose(st, "Attack d5 from d4")
    assert st.is_over() and st.result().winners == [] and st.result().end_reason == "no-units"


def test_a_secret_placement_is_revealed_in_the_log_when_its_token_is_revealed() -> None:
    st = situation({"phase": "deploy", "armies": [["flag", "griffin-rider"], ["flag", "wolf"]]})
    for label in ("Place Flag on a1", "Place Griffin Rider on d3", "Place Flag on k9", "Place Wolf on d7"):
        choose(st, label)
    assert st.phase == "play" and st.reveals == [], "placements stay secret when play begins"
    choose(st, "Move d3 to d4")
    choose(st, "Griffin Rider d4 Scout on d7")
    assert st.reveals == [(6, (1,)), (6, (3,))], "step 5 (the log then 6 long) showed the Griffin Rider (placed by action 1) and the wolf (action 3)"


def test_a_player_whose_last_unit_falls_loses_at_once_to_the_player_with_units_left() -> None:
    st = play({"d4": {"unit": "forkman", "seat": 0}, "d5": {"unit": "knight", "seat": 1}})
    choose(st, "Attack d5 from d4")  # the forkman, player 1's only unit, loses
    assert st.is_over() and st.result().winners == [1] and st.result().end_reason == "no-units"


def test_an_illegal_action_is_refused_and_changes_nothing() -> None:
    """A player cannot act outside the options offered: an index past the end, a negative one, a
    bool, a float or a string is refused before anything moves, and the game goes on as before."""
    st = situation({"current": 0, "board": {"a1": {"unit": "flag", "seat": 0}, "d4": {"unit": "horseman", "seat": 0},
                                            "d5": {"unit": "knight", "seat": 1}, "k9": {"unit": "flag", "seat": 1}}})
    before, seen = st.fingerprint(), st.observation(1)
    n = st.decision().n
    for bad in (n, -1, True, 1.0, "0", None):
        with pytest.raises(ValueError, match="illegal action"):
            st.apply(bad)
        assert st.fingerprint() == before and st.observation(1) == seen and len(st.actions) == 0
    choose(st, "Attack d5 from d4")
    assert st.board[hx("d4")] is None and unit("horseman") in st.removed[0]


_SITUATION = """name: a situation the rules could never reach
game: fantasy-draft
rule: each token as a scenario may set it up
players: 2
setup:
  current: 0
  board:
    a1: {unit: flag, seat: 0}
    d4: {unit: horseman, seat: 0}
    k9: {unit: flag, seat: 1}
    k8: {unit: wolf, seat: 1}
"""


@pytest.mark.parametrize("old,new,why", [
    ("horseman, seat: 0}", "horseman, seat: 3}", "the seat of d4 is 3: a seat is 0 (player 1) or 1 (player 2)"),
    ("horseman, seat: 0}", "horseman, seat: 0, power: 1}", "d4: power tokens go on hero cards; the Horseman is a basic unit"),
    ("{unit: horseman, seat: 0}", "{unit: dragon, seat: 0, power: 2}", "d4: power 2 for the Dragon (strength 4): 0 to 1"),
    ("{unit: horseman, seat: 0}", "{unit: rat, seat: 0, power: -1}", "d4: power -1 for the Rat"),
    ("    k8: {unit: wolf, seat: 1}", "    k8: {unit: paladin, seat: 1}\n    k7: {unit: paladin, seat: 0}",
     "k7: the Paladin is on the board twice (there is one card of each hero)"),
    ("    d4: {unit: horseman", "    c4: {unit: horseman", "c4: the Horseman cannot stand on water (it does not fly)"),
    ("  current: 0", "  current: 0\n  actions: 99999999999999999999", "actions is 99999999999999999999: a whole number from 1 to 4"),
    ("  current: 0", "  current: 0\n  actions: -5", "actions is -5: a whole number from 1 to 4"),
    ("  current: 0", "  current: 0\n  turn: -3", "turn is -3: a whole number from 0 to 199"),
    ("  current: 0", "  current: 0\n  turn_cap: abc", "turn_cap is 'abc': a whole number from 1 to 1000000"),
    ("  current: 0", "  current: 0\n  power_supply: 1000000", "power_supply is 1000000: a whole number from 0 to 10"),
    ("  current: 0", "  current: '0'", "current is '0': a seat is 0 (player 1) or 1 (player 2)"),
    ("  current: 0", "  curent: 0", "setup for phase play: unknown key 'curent' (known: phase, board, current, actions, turn, turn_cap, power_supply)"),
    ("d4: {unit: horseman", "z99: {unit: horseman", "board: no hex 'z99' on the board (a1 to k9)"),
    ("d4: {unit: horseman, seat: 0}", "d4: horseman", "board.d4 is 'horseman': a mapping with the keys unit, seat, revealed, power, frozen"),
    ("{unit: horseman, seat: 0}", "{seat: 0}", "board.d4: a token needs a unit"),
    ("unit: horseman", "unit: [1, 2]", "board.d4.unit: unknown unit [1, 2] (known: barbarian,"),
    ("unit: horseman", "unit: ogre", "board.d4.unit: unknown unit 'ogre'"),
    ("horseman, seat: 0}", "horseman, seat: 0, revealed: 'no'}", "board.d4.revealed is 'no': true or false"),
    ("horseman, seat: 0}", "horseman, seat: 0, frozen: 7}", "board.d4.frozen is 7: true or false"),
    ("horseman, seat: 0}", "horseman, seat: 0, colour: red}", "board.d4: unknown key 'colour' (known: unit, seat, revealed, power, frozen)"),
    ("{unit: horseman, seat: 0}", "{unit: flag, seat: 0}", "board: player 1 has 2 of the Flag; the reference card has 1"),
    ("    d4: {unit: horseman, seat: 0}", "    d4: {unit: horseman, seat: 0}\n    d4: {unit: knight, seat: 0}", None),
    ("horseman, seat: 0}", "horseman, seat: 0, frozen: true}", "d4: a frozen token is face up (freezing turns its target face up)"),
    ("{unit: horseman, seat: 0}", "{unit: golem, seat: 0, power: 1}",
     "d4: the Golem gets power tokens only by acting or winning a fight, which turns it face up"),
    ("  current: 0", "  current: 0\n  turn: 1", "turn is 1: player 1 plays the even turns (0, 2, ...) and player 2 the odd ones"),
    ("  current: 0", "  current: 0\n  actions: 4",
     "actions is 4: more than 3 only after an ability that gives actions, and player 1 has no face-up hero with one"),
    ("    k9: {unit: flag, seat: 1}\n", "", "board: player 2 has no flag"),
    ("    k8: {unit: wolf, seat: 1}\n", "", "board: player 2 has no unit besides the flag, so that player has already lost"),
    ("    d4: {unit: horseman, seat: 0}", "    d4: {unit: giant, seat: 0}\n    d5: {unit: dragon, seat: 0}\n"
     "    d6: {unit: warlord, seat: 0}\n    d7: {unit: sorceress, seat: 0}\n    d8: {unit: necromancer, seat: 0}",
     "board: player 1's heroes cost 22 mana; a player has 20 to spend"),
], ids=["seat-3", "power-on-a-basic-unit", "power-above-5", "negative-power", "one-hero-twice", "walker-on-water",
        "huge-actions", "negative-actions", "negative-turn", "turn-cap-a-word", "power-supply-above-the-box",
        "seat-a-string", "unknown-setup-key", "hex-off-the-board", "token-not-a-mapping", "token-without-unit",
        "unit-a-list", "unknown-unit", "revealed-a-string", "frozen-a-number", "unknown-token-key", "two-flags",
        "two-tokens-on-one-hex", "frozen-face-down", "power-on-a-face-down-golem", "turn-of-the-other-player",
        "actions-beyond-3-without-rally", "no-flag", "only-the-flag", "heroes-beyond-the-mana"])
def test_a_scenario_setup_the_rules_could_never_reach_is_refused(tmp_path, old: str, new: str, why: str) -> None:
    """The rules hold one card per hero, power tokens on hero cards up to strength 5, two seats and
    water for flyers only; a scenario that sets up anything else is refused at the key at fault,
    exit 1, no traceback, instead of playing out a game that cannot happen."""
    assert old in _SITUATION
    path = tmp_path / "broken.yaml"
    path.write_text(_SITUATION.replace(old, new, 1))
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    if why is None:  # the YAML reader refuses it before the rules see it
        assert "broken.yaml:10:5: duplicate key 'd4' (first at line 9)" in proc.stdout
    else:
        assert "a situation the rules could never reach: cannot build the starting situation at setup" in proc.stdout
        assert why in proc.stdout, proc.stdout
        _points_into(proc.stdout, path, new, whole="board" if why.startswith("board: player") else None)


def _points_into(out: str, path, new: str, whole: str | None = None) -> None:
    """The failure's line and column fall on the text the test put in (or at the key `whole`, for a
    fault of a whole collection such as two flags on the board)."""
    found = re.search(rf"{re.escape(str(path))}:(\d+):(\d+): ", out)
    assert found, out
    line, col = int(found.group(1)), int(found.group(2))
    lines = path.read_text().splitlines()
    if whole is not None:
        assert lines[line - 1][col - 1:].startswith(f"{whole}:"), (line, col, lines[line - 1])
        return
    text = "\n".join(lines)
    start = text.index(new.strip())
    first, last = text[:start].count("\n") + 1, text[:start + len(new.strip())].count("\n") + 1
    assert first <= line <= last, (line, col, lines[line - 1], new)


_DRAFT = """name: a draft the rules could never reach
game: fantasy-draft
rule: the draft's mana, pool and picks as a scenario may set them up
players: 2
setup:
  phase: draft
  mana: [5, 3]
  pool: [giant, rat]
"""

_DEPLOY = """name: a deployment the rules could never reach
game: fantasy-draft
rule: the armies as a scenario may set them up for deployment
players: 2
setup:
  phase: deploy
  armies: [[flag, knight], [flag, rat]]
"""


@pytest.mark.parametrize("doc,old,new,why", [
    (_DRAFT, "mana: [5, 3]", "mana: [999999999999, -1]", "mana is 999999999999: a whole number from 0 to 20"),
    (_DRAFT, "mana: [5, 3]", "mana: 5", "mana is 5: a list of two entries, player 1's then player 2's"),
    (_DRAFT, "pool: [giant, rat]", "pool: [rat, rat]", "pool: the Rat is already drafted or listed twice"),
    (_DRAFT, "pool: [giant, rat]", "pool: [knight]", "pool: the Knight is a basic unit, not a hero card"),
    (_DRAFT, "pool: [giant, rat]", "drafted: [[rat], [rat]]", "drafted: the Rat is there twice (there is one card of each hero)"),
    (_DRAFT, "pool: [giant, rat]", "pool: [rat]\n  drafted: [[rat], []]", "pool: the Rat is already drafted or listed twice"),
    (_DRAFT, "pool: [giant, rat]", "pool: [rat]\n  current: 5", "current is 5: a seat is 0 (player 1) or 1 (player 2)"),
    (_DRAFT, "pool: [giant, rat]", "pool: [rat]\n  board: {}", "setup for phase draft: unknown key 'board'"),
    (_DEPLOY, "[flag, knight]", "[flag, dragon, dragon]", "armies: the Dragon is there twice (there is one card of each hero)"),
    (_DEPLOY, "[flag, knight]", "[flag, knight, knight]", "armies: player 1 has 2 of the Knight; the reference card has 1"),
    (_DEPLOY, "[[flag, knight], [flag, rat]]", "[[flag], [flag], [flag]]", "armies is [['flag'], ['flag'], ['flag']]: a list of two entries"),
    (_DEPLOY, "[[flag, knight], [flag, rat]]", "7", "armies is 7: a list of two entries"),
    (_DEPLOY, "[flag, knight]", "[flag, ogre]", "armies: unknown unit 'ogre'"),
    (_DRAFT, "mana: [5, 3]", "mana: [20, 3]\n  drafted: [[ghost], []]",
     "drafted: player 1's heroes cost 2 mana with 20 still unspent; a player has 20 to spend"),
    (_DEPLOY, "[flag, knight]", "[knight]", "armies: player 1 has no flag"),
    (_DEPLOY, "[flag, rat]", "[flag]", "armies: player 2 has no unit besides the flag, so that player has already lost"),
    (_DEPLOY, "[flag, knight]", "[flag, giant, dragon, warlord, sorceress, necromancer]",
     "armies: player 1's heroes cost 22 mana; a player has 20 to spend"),
], ids=["mana-out-of-range", "mana-not-a-pair", "hero-twice-in-the-pool", "basic-unit-in-the-pool",
        "hero-drafted-by-both", "pool-holds-a-drafted-hero", "current-seat-5", "board-in-a-draft",
        "one-hero-twice-in-an-army", "more-than-the-reference-card", "three-armies", "armies-a-number", "unknown-unit",
        "mana-and-heroes-beyond-20", "army-without-a-flag", "army-of-only-the-flag", "army-beyond-the-mana"])
def test_a_draft_or_deployment_setup_the_rules_could_never_reach_is_refused(tmp_path, doc: str, old: str, new: str,
                                                                            why: str) -> None:
    """Mana from 0 to 20, one card of each hero, heroes only in the draft, two players' armies
    within the reference card: anything else is refused at the key at fault, exit 1, no traceback."""
    assert old in doc
    path = tmp_path / "broken.yaml"
    path.write_text(doc.replace(old, new, 1))
    proc = run_cli("scenario", str(path))
    assert proc.returncode == 1 and "Traceback" not in proc.stdout + proc.stderr
    assert "cannot build the starting situation at setup" in proc.stdout and why in proc.stdout, proc.stdout
    _points_into(proc.stdout, path, new)


def test_a_situation_that_begins_a_turn_the_player_cannot_act_in_is_lost() -> None:
    """A setup without `actions` begins the current player's turn, so the rule for a turn's
    beginning applies: player 1 has only a Trap and the flag, can take no action and loses at
    once (the turn does not pass to player 2). With actions already spent the turn simply ends."""
    board = {"a1": {"unit": "flag", "seat": 0}, "b1": {"unit": "trap", "seat": 0},
             "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}
    st = situation({"current": 0, "board": board})
    assert st.is_over() and st.winners == [1] and st.end_reason == "no-actions"
    st = situation({"current": 0, "actions": 2, "board": board})
    assert not st.is_over() and st.current == 1 and st.actions_left == 3
