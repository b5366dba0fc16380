"""A player trying to break Hordes & Heroes through the engine: acting out of turn, illegal
option numbers, and reading hidden cards (a face-down horde card, another hand) through the
observation, a label, a bot or the memos a redacted state carries."""
from __future__ import annotations

import random

import pytest

from engine.core.api import CHANCE
from engine.core.driver import bot_choice, derive_seed, make_bots, play_game, replay
from engine.core.scenario import match_option
from engine.hordes_and_heroes import SPEC
from test_hh_support import model
from twin_bots import twin_bot_games


def _situation(setup: dict, players: int = 2):
    return SPEC.scenario_state(model(), players, setup)


def _choose(st, *labels: str) -> None:
    for label in labels:
        d = st.decision()
        idx = match_option(d, label)
        assert isinstance(idx, int), idx
        st.apply(idx)


def test_every_choice_belongs_to_the_player_whose_turn_it_is() -> None:
    """Nobody acts out of turn: every decision that is not chance is the current player's."""
    for i in range(12):
        players = 2 + i % 4
        rec = play_game(SPEC, model(), players, derive_seed(41, i), ["random"])
        assert rec.error is None
        st = replay(SPEC, model(), players, [])
        for action in rec.actions:
            d = st.decision()
            assert d.player in (CHANCE, st.current), (d.prompt, d.player, st.current)
            st.apply(action)
        assert st.is_over()


@pytest.mark.parametrize("action", [-1, 99, True, 1.0, None, "0"])
def test_an_illegal_option_number_is_refused_and_changes_nothing(action) -> None:
    st = _situation({"phase": "dice", "players": [{"party": ["squire"]}], "stacks": [["goblin-scout", "ghoul"]]})
    for face in ("1", "2", "3", "4", "5"):
        _choose(st, face)
    before, d = list(st.actions), st.decision()
    with pytest.raises(ValueError):
        st.apply(action)
    assert st.actions == before and st.decision() is d and st.faces == [1, 2, 3, 4, 5]


def _face_down_table(under: str, hidden_top: str) -> dict:
    """Stack A shows a Goblin Scout over `under`; stack B is face down with `hidden_top` on top."""
    return {"phase": "attack", "bonus_strength": 4,
            "players": [{"party": [{"hero": "squire", "active": True}], "hand": ["negotiations"]}],
            "stacks": [["goblin-scout", under, "imp"],
                       {"cards": [hidden_top, "ghoul"], "face_down": True},
                       ["hill-ogre", "ghoul"]],
            "town": []}


def test_the_observation_never_names_a_face_down_card() -> None:
    st = _situation(_face_down_table("vampire-lord", "ashen-dragon"))
    for seat in (0, 1):
        horde = st.observation(seat)["horde"]
        assert horde[0]["cards"] == ["face-down level 1", "face-down level 2", "goblin-scout"]
        assert horde[1] == {"stack": "stack B", "cards": ["face-down level 1", "face-down level 2"], "up": False}


def test_a_boss_face_down_looks_like_any_level_2_card() -> None:
    boss = _situation(_face_down_table("vampire-lord", "wraith")).observation(1)
    plain = _situation(_face_down_table("basilisk", "wraith")).observation(1)
    assert boss == plain


def test_the_flip_option_does_not_name_the_card_below() -> None:
    st = _situation(_face_down_table("cave-troll", "wraith"))
    _choose(st, "Attack Goblin Scout")
    assert "Flip the top of stack A" in st.decision().options
    assert not any("Cave Troll" in o for o in st.decision().options)


def test_moving_a_stack_does_not_name_its_face_down_top() -> None:
    setup = _face_down_table("cave-troll", "wraith")
    setup["phase"] = "action"
    st = _situation(setup)
    _choose(st, "Play Negotiations")
    assert st.decision().options == ("Move stack A (top: Goblin Scout)", "Move stack B (top: face down)",
                                     "Move stack C (top: Hill Ogre)", "Move nothing")


@pytest.mark.parametrize("bot", ["heuristic", "explore"])
def test_a_bot_decides_to_flip_without_seeing_the_face_down_card(bot: str) -> None:
    """Two tables alike but for the card under a defeated Goblin Scout: a weak Ghoul or a Cave
    Troll too strong to beat. A bot that reads the state must not tell them apart."""
    picks = []
    for under in ("ghoul", "cave-troll"):
        st = _situation(_face_down_table(under, "wraith"))
        _choose(st, "Attack Goblin Scout (stack A)")
        d = st.decision()
        assert "Flip the top of stack A" in d.options
        seat_bot = make_bots(SPEC, 2, 5, [bot])[0]
        picks.append(d.options[bot_choice(st, seat_bot, d, hidden=True)])
    assert picks[0] == picks[1]


def _swapped_under_cards() -> tuple:
    """Two tables alike but for which face-down level 1 card lies under which stack top: a Ghoul
    under the Goblin Scout and a Cave Troll under the Hill Ogre, or the other way round."""
    tables = []
    for under_a, under_c in (("ghoul", "cave-troll"), ("cave-troll", "ghoul")):
        setup = _face_down_table(under_a, "wraith")
        setup["stacks"][2] = ["hill-ogre", under_c]
        tables.append(_situation(setup))
    return tuple(tables)


def test_a_redacted_state_reads_the_same_whatever_lies_face_down() -> None:
    a, b = _swapped_under_cards()
    real = [s.cards[:] for s in a.line], [s.cards[:] for s in b.line]
    assert real[0] != real[1]
    ta, tb = a.redact(0), b.redact(0)
    try:
        assert [s.cards for s in a.line] == [s.cards for s in b.line]
        assert [s.cards for s in a.clone().line] == [s.cards for s in b.clone().line]
    finally:
        a.restore(ta)
        b.restore(tb)
    assert ([s.cards for s in a.line], [s.cards for s in b.line]) == real


def test_resampling_deals_the_face_down_cards_among_their_own_levels() -> None:
    st = _situation(_face_down_table("ghoul", "wraith"))
    seen = st.observation(0)
    layouts = set()
    for k in range(20):
        twin = st.clone()
        twin.resample(0, random.Random(k))
        assert twin.observation(0) == seen
        layouts.add(tuple(tuple(s.cards) for s in twin.line))
    assert len(layouts) > 1


def _plain(value):
    """A state attribute as plain data, to compare two states: engine objects become the tuple
    of their slots; the model and functions, the same in both, are left out."""
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return sorted((repr(k), _plain(v)) for k, v in value.items())
    if hasattr(value, "__slots__") and not isinstance(value, type):
        return (type(value).__name__, [_plain(getattr(value, a, None)) for a in value.__slots__])
    if value is None or isinstance(value, (int, float, str, bool)):
        return value
    return type(value).__name__


def test_a_redacted_state_keeps_no_copy_of_the_other_hands() -> None:
    """Everything a bot can read on a redacted state is the same for two games that differ only
    in a card of the other player's hand: no cache or memo holds the real hands. (The action
    log is left out: it is the engine core's replay record, the same shape in every game.)"""
    rec = play_game(SPEC, model(), 2, derive_seed(9, 0), ["heuristic"])
    at = next(i for i in range(60, len(rec.actions))
              if (d := replay(SPEC, model(), 2, rec.actions[:i]).decision()).player == 0 and d.n > 1)
    a, b = replay(SPEC, model(), 2, rec.actions[:at]), replay(SPEC, model(), 2, rec.actions[:at])
    swap = next(c for c, n in enumerate(b.deck_counts) if n and c not in b.hands[1])
    old = b.hands[1][0]
    b.hands[1][0] = swap
    b.deck_counts[swap] -= 1
    b.deck_counts[old] += 1
    for st in (a, b):
        assert st.check_invariants() == []          # fills the invariants' memo with what is real
        st.restore(st.redact(0))                    # and the redaction memo
    skip = {"actions", "_gen", "_current", "_cp", "model", "options", "situation", "_labels"}
    ta, tb = a.redact(0), b.redact(0)
    try:
        differ = [k for k in vars(a) if k not in skip and _plain(getattr(a, k)) != _plain(getattr(b, k))]
    finally:
        a.restore(ta)
        b.restore(tb)
    assert differ == []
    assert a.hands[1] != b.hands[1] and a.check_invariants() == [] and b.check_invariants() == []


def _mid_game(seed: int = 9) -> tuple[list[int], object]:
    """A real game stopped at a choice of seat 0 well into play, with the log that led there."""
    rec = play_game(SPEC, model(), 2, derive_seed(seed, 0), ["heuristic"])
    at = next(i for i in range(80, len(rec.actions))
              if (d := replay(SPEC, model(), 2, rec.actions[:i]).decision()).player == 0 and d.n > 1)
    return rec.actions[:at], replay(SPEC, model(), 2, rec.actions[:at])


def test_the_action_log_a_bot_reads_hides_every_draw_roll_and_other_seats_choice() -> None:
    """The log replays the game, so read in full it would deal a bot the other hands: while the
    state is redacted for a seat, every chance outcome and every choice of another seat reads -1
    and the seat's own choices read as played."""
    log, st = _mid_game()
    owner = [replay(SPEC, model(), 2, log[:i]).decision().player for i in range(len(log))]
    chance = [i for i, who in enumerate(owner) if who == CHANCE]
    assert chance and 1 in owner and 0 in owner
    token = st.redact(0)
    try:
        seen = list(st.actions)
        assert len(st.actions) == len(log) and seen == [a if owner[i] == 0 else -1 for i, a in enumerate(log)]
        assert st.actions[chance[0]] == -1 and st.actions[-len(log) + chance[0]] == -1
        assert st.actions[:chance[0] + 1][-1] == -1
        with pytest.raises(ValueError):  # replaying what a bot sees cannot deal the real hands
            _replay_all(seen)
    finally:
        st.restore(token)
    assert list(st.actions) == log and type(st.actions) is list


def test_the_option_number_of_another_seats_open_choice_is_not_shown() -> None:
    """What seat 1 recruits or plays is public, but the number of its choice ranks it among the
    distinct cards of its hidden hand (and ending the action phase is the last option, so its
    number counts them). Two games whose seat-1 hands differ in one card a seat-0 bot cannot see
    read alike in the log it is shown."""
    hands = (["squire", "squire", "apprentice"], ["squire", "veteran-captain", "apprentice"])
    states = []
    for hand in hands:
        st = _situation({"phase": "action", "current": 1, "players": [{"party": ["squire"]}, {"hand": hand}],
                         "stacks": [["goblin-scout", "ghoul"]]})
        _choose(st, "Recruit Apprentice")
        states.append(st)
    real = [list(st.actions) for st in states]
    assert real[0] != real[1], "the two hands list Apprentice at different option numbers"
    shown = []
    for st in states:
        token = st.redact(0)
        try:
            shown.append(list(st.actions))
        finally:
            st.restore(token)
    assert shown[0] == shown[1] and all(a == -1 for a in shown[0])


def _replay_all(log: list[int]) -> None:
    """Apply a log from the start, as a bot would to rebuild the game; an unknown outcome is refused."""
    st = SPEC.new_state(model(), 2, {})
    for a in log:
        st.apply(a)


def test_a_clone_of_a_redacted_state_plays_on_from_the_real_game() -> None:
    """A search bot clones what it is shown and plays on: the clone is rebuilt from the real log,
    stays redacted for the seat, and actions played on it are shown as played."""
    log, st = _mid_game(11)
    token = st.redact(0)
    try:
        twin = st.clone()
    finally:
        st.restore(token)
    assert list(twin.actions).count(-1) > 0  # still shown to seat 0
    real = replay(SPEC, model(), 2, log)
    assert twin.hands[0] == real.hands[0] and twin.decision().n == real.decision().n
    twin.apply(0)
    real.apply(0)
    assert twin.actions[-1] == 0 and len(twin.actions) == len(log) + 1
    assert twin.phase == real.phase and twin.faces == real.faces


@pytest.mark.parametrize("bot,players", [("heuristic", 2), ("heuristic", 4), ("explore", 3)])
def test_the_bots_choose_the_same_on_the_full_state_as_on_the_redacted_one(bot: str, players: int) -> None:
    """The heuristic and explore bots declare that they read only what their seat sees
    (`reads_hidden = False`), so the driver does not redact for them: over whole games, twin
    bots, one shown the full state and one the redacted state, make every choice alike."""
    assert all(getattr(b, "reads_hidden", True) is False for b in make_bots(SPEC, players, 0, [bot]))
    decisions, differed = twin_bot_games(
        SPEC, model(), players, [derive_seed(23 + players, i) for i in range(12)], bot,
        lambda st, seat: ([h[:] for h in st.hands], list(st.deck_counts)))
    assert decisions > 2000 and differed > decisions // 2, "the redaction hid something at most decisions"
