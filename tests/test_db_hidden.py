"""What a seat may see: the other hand, the other side's face-down orders and secret
reinforcements and the deck stay hidden; bots choose the same whatever hides there."""
from __future__ import annotations

import copy
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from engine.core.driver import derive_seed, play_game, sample_chance
from engine.dice_battles import SPEC
from engine.dice_battles.bots import HeuristicBot
from test_db_support import choose, model, scenario_state, table
from twin_bots import twin_bot_games

OTHER_HAND = ["serpent-spawn-order", "hatchlings-order", "hatchlings-order", "venom-spitters-order",
              "swamp-striders-order", "basilisk-order", "naga-priestess-order"]


def _pair():
    """Two tables that differ only in which of seat 1's cards are in its hand and which in its deck."""
    a, b = scenario_state(table()), scenario_state(table())
    _swap_hand_and_deck(b, 1)
    return a, b


def test_observation_hides_the_other_hand_and_face_down_orders() -> None:
    st = scenario_state(table())
    for label in ("Wolf Charge", "Troll Smash", "No order", "No regrouping order"):
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
    seen = st.observation(1)["players"][0]
    assert seen["hand"] == 5 and seen["orders"] == ["face-down", "face-down", "unknown", "unknown"]
    mine = st.observation(0)["players"][0]
    assert isinstance(mine["hand"], list) and mine["orders"][0] >= 0 and mine["orders"][2:] == [-1, -1]


def _orders_of_seat_0(optional: str) -> object:
    """Seat 0's orders laid: the two mandatory ones, then `optional` on its optional battalion."""
    st = scenario_state(table())
    for label in ("Wolf Charge", "Troll Smash", optional, "No regrouping order"):
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
    return st


def test_orders_are_laid_at_the_same_time_so_seat_1_cannot_tell_whether_seat_0_used_an_optional_space() -> None:
    skipped = _orders_of_seat_0("No order")
    d = skipped.decision()
    assert d.player == 1  # seat 1 now lays its orders, after seat 0 in the engine's order
    used = scenario_state(table())
    for label in ("Wolf Charge", "Troll Smash"):
        dd = used.decision()
        used.apply(next(i for i, o in enumerate(dd.options) if o.startswith(label)))
    dd = used.decision()
    used.apply(next(i for i, o in enumerate(dd.options) if not o.startswith("No ")))  # a card on the optional space
    used.apply(next(i for i, o in enumerate(used.decision().options) if o.startswith("No regrouping order")))
    assert used.orders[0][2] >= 0 and skipped.orders[0][2] < 0 and used.decision().player == 1
    assert used.observation(1) == skipped.observation(1)
    ta, tb = used.redact(1), skipped.redact(1)
    assert (used.hand[0], used.deck[0], used.orders[0]) == (skipped.hand[0], skipped.deck[0], skipped.orders[0])
    assert used.decision().options == skipped.decision().options
    used.restore(ta)
    skipped.restore(tb)
    assert used.orders[0][2] >= 0  # restored exactly; revealed with the others once both seats are done


def test_redact_makes_states_that_differ_only_in_hidden_cards_identical() -> None:
    a, b = _pair()
    assert a.hand[1] != b.hand[1]
    ta, tb = a.redact(0), b.redact(0)
    assert a.observation(0) == b.observation(0)
    assert (a.hand, a.deck, a.orders, a.actions) == (b.hand, b.deck, b.orders, b.actions)
    a.restore(ta)
    b.restore(tb)
    assert a.hand[1] != b.hand[1]
    assert a.check_invariants() == [] and b.check_invariants() == []


def test_restore_undoes_redact_exactly() -> None:
    rec = play_game(SPEC, model(), 2, 21, ["heuristic"])
    from engine.core.driver import replay
    st = replay(SPEC, model(), 2, rec.actions[:400])
    before = st.fingerprint()
    token = st.redact(0)
    st.restore(token)
    assert st.fingerprint() == before


def test_resample_keeps_what_the_seat_sees() -> None:
    st = scenario_state(table(p1={"hand": OTHER_HAND}))
    for label in ("Wolf Charge", "Troll Smash", "No order", "No regrouping order", "Swarm", "Coiling"):
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
    seen = st.observation(0)
    rng = random.Random(4)
    hidden_before = (list(st.hand[1]), list(st.orders[1]))
    changed = False
    for _ in range(10):
        twin = st.clone()
        twin.resample(0, rng)
        assert twin.observation(0) == seen
        assert twin.check_invariants() == []
        changed |= (twin.hand[1], twin.orders[1]) != hidden_before
    assert changed


def _swap_hand_and_deck(st, seat: int) -> None:
    """Change only hidden things: two cards of the hand trade places with two of the deck."""
    hand, deck = st.hand[seat], st.deck[seat]
    out = [c for c in hand if deck[c] == 0][:2]
    into = [c for c, k in enumerate(deck) if k and c not in hand][:2]
    for c_out, c_in in zip(out, into):
        hand.remove(c_out)
        hand.append(c_in)
        deck[c_out] += 1
        deck[c_in] -= 1
    hand.sort()


def _seat_0_ordered(variant: int):
    """A table after seat 0's face-down orders. Variant 1 differs from variant 0 only in hidden
    things: two cards traded between seat 0's hand and deck, and other cards placed face down."""
    st = scenario_state(table())
    if variant:
        _swap_hand_and_deck(st, 0)
    for slot in range(4):
        d = st.decision()
        none = [i for i, o in enumerate(d.options) if o.startswith("No ")]
        st.apply(none[0] if slot >= 2 else (0 if variant == 0 else len(d.options) - 1 - len(none)))
    return st


@pytest.mark.parametrize("bot", ["heuristic", "random", "search:8"])
def test_no_peek_bots_choose_the_same_whatever_the_other_side_hides(bot: str) -> None:
    """Seat 1 decides after seat 0's face-down orders: two tables that differ only in seat 0's
    hand, deck and the cards it placed face down give seat 1's bot the same options and choice."""
    choices, options, hidden = [], [], []
    for variant in (0, 1):
        st = _seat_0_ordered(variant)
        hidden.append((list(st.hand[0]), list(st.orders[0])))
        d = st.decision()
        assert d.player == 1
        name, _, budget = bot.partition(":")
        seat_bot = SPEC.bots[name](1, random.Random(derive_seed(1, 2)), **({"budget": budget} if budget else {}))
        token = st.redact(1)
        try:
            choices.append(seat_bot.choose(st, d))
        finally:
            st.restore(token)
        options.append(d.options)
    assert hidden[0][0] != hidden[1][0] and hidden[0][1] != hidden[1][1]
    assert options[0] == options[1]
    assert choices[0] == choices[1]


def test_games_with_the_search_bot_finish() -> None:
    rec = play_game(SPEC, model(), 2, 17, ["search:8", "heuristic"], check=True)
    assert rec.error is None and rec.result is not None


def test_how_many_reinforcement_choices_a_seat_makes_does_not_reveal_them() -> None:
    """A seat with one reserve tile and two battalions to fill is asked about both, whether it sent
    the tile to the first or not: the other seat, counting the choices, learns nothing."""
    counts = []
    for first in ("No reinforcement", "Frenzied Mob"):
        st = scenario_state(table(p0={"reinforcements": ["goblin-mob"],
                                      "battalions": [{"fc": "shield-goblins", "rl": "goblin-archers",
                                                      "hero": "warboss-grukk"},
                                                     {"fl": "goblin-spearmen", "hero": "troll-tamer"}]}))
        for label in ("Wolf Charge", "Troll Smash", "No order", "No regrouping order",
                      "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order"):
            d = st.decision()
            st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
        asked = 0
        while st.decision().player == 0:
            d = st.decision()
            asked += 1
            st.apply(next(i for i, o in enumerate(d.options) if o.startswith(first)) if asked == 1 else 0)
        counts.append(asked)
    assert counts == [2, 2]


def test_the_log_a_seat_sees_blanks_the_other_seats_draws_orders_and_unrevealed_choices() -> None:
    rec = play_game(SPEC, model(), 2, derive_seed(4, 0), ["heuristic"])
    st = SPEC.new_state(model(), 2, {})
    for action in rec.actions:
        for seat in (0, 1):
            private = set(st.secret_open[i] for i, who in enumerate(st.secret_who) if who != seat)
            private |= set(st.private_at[1 - seat])
            want = [0 if i in private else a for i, a in enumerate(st.actions)]
            assert st.visible_actions(seat) == want
            token = st.redact(seat)
            assert st.actions == want
            st.restore(token)
        st.apply(action)
    assert st.actions == rec.actions


def test_the_other_seat_cannot_count_secret_reinforcements_in_the_observation() -> None:
    """Online edition: reinforcements are sent blind. Until the reveal, seat 1 sees the same table
    whether seat 0 sent its reserve Mob or kept it."""
    seen = []
    for choice in ("No reinforcement", "Frenzied Mob"):
        st = scenario_state(table(p0={"reinforcements": ["goblin-mob"]}, p1={"reinforcements": ["hatchlings"]}))
        choose(st, "Wolf Charge", "Troll Smash", "No order", "No regrouping order",
              "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order", choice)
        assert st.decision().player == 1 and "reinforce" in st.decision().prompt
        seen.append(st.observation(1))
    assert seen[0] == seen[1]


def test_a_redacted_state_holds_nothing_of_the_other_seats_hidden_cards() -> None:
    """Everything a bot of seat 1 can reach in the state, not only the fields the rules read, is
    the same for two tables that differ only in seat 0's hand, deck and face-down orders."""
    views = []
    for variant in (0, 1):
        st = _seat_0_ordered(variant)
        assert st.decision().player == 1
        token = st.redact(1)
        views.append(copy.deepcopy({k: v for k, v in vars(st).items() if k not in ("model", "_pending")}))
        st.restore(token)
    assert views[0].keys() == views[1].keys()
    assert [k for k in views[0] if views[0][k] != views[1][k]] == []


def test_a_revealed_order_does_not_tell_how_the_hand_was_made_up() -> None:
    """Seat 0 plays the same cards from two hands that differ only in cards it kept: once the
    orders are turned over, seat 1's view of the game (observation and action log) is the same."""
    other_hand = ["goblin-spearmen-order", "goblin-spearmen-order", "goblin-spearmen-order", "wolf-riders-order",
                  "cave-troll-order", "shield-goblins-order", "goblin-mob-order"]
    views = []
    for hand in (None, other_hand):
        st = scenario_state(table(p0={"hand": hand}) if hand else table())
        choose(st, "Wolf Charge", "Troll Smash", "No order", "No regrouping order",
              "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order")
        assert st.reveals and st.decision().player == -1
        views.append((st.visible_actions(1), st.observation(1)))
    assert views[0] == views[1]


@pytest.mark.parametrize("action", [-1, 99, True, 1.0, "0", None])
def test_an_illegal_action_is_refused_and_changes_nothing(action) -> None:
    st = scenario_state(table())
    before = st.fingerprint()
    with pytest.raises(ValueError):
        st.apply(action)
    assert st.fingerprint() == before and st.check_invariants() == []


def test_no_action_is_accepted_once_the_game_is_over() -> None:
    rec = play_game(SPEC, model(), 2, derive_seed(6, 0), ["heuristic"])
    from engine.core.driver import replay
    st = replay(SPEC, model(), 2, rec.actions)
    assert st.is_over()
    with pytest.raises(ValueError, match="over"):
        st.apply(0)


def test_a_seat_acts_only_on_its_own_decisions_and_cards() -> None:
    """Nobody acts out of turn: every choice belongs to the seat the decision names, and applying
    it never touches the other seat's hand, face-down orders or secret reinforcements."""
    rec = play_game(SPEC, model(), 2, derive_seed(11, 0), ["random"])
    st = SPEC.new_state(model(), 2, {})
    checked = 0
    for action in rec.actions:
        d = st.decision()
        if d.player in (0, 1):
            other = 1 - d.player
            before = (list(st.hand[other]), list(st.orders[other]), list(st.pend[other]))
            st.apply(action)
            assert (st.hand[other], st.orders[other], st.pend[other]) == before or st.phase not in (
                "orders", "reinforce"), d.prompt   # the reveal (after the last choice) may move them
            checked += 1
        else:
            st.apply(action)
    assert st.is_over() and checked > 20


def test_through_whole_games_a_seat_sees_the_same_state_whatever_the_other_side_hides() -> None:
    """At every decision of a seat, throughout real games: the state redacted for that seat is the
    same, field by field, as the redacted state of a copy whose hidden part (the other hand, deck,
    face-down orders and secret reinforcements) was dealt again at random."""
    rng = random.Random(5)
    compared = 0
    for game in range(3):
        rec = play_game(SPEC, model(), 2, derive_seed(12, game), ["heuristic"])
        st = SPEC.new_state(model(), 2, {})
        for i, action in enumerate(rec.actions):
            d = st.decision()
            if d.player in (0, 1) and i % 3 == 0:
                twin = st.clone()
                twin.resample(d.player, rng)
                views = []
                for s in (st, twin):
                    token = s.redact(d.player)
                    views.append(copy.deepcopy({k: v for k, v in vars(s).items() if k not in ("model", "_pending")}))
                    s.restore(token)
                assert views[0] == views[1], (i, d.prompt, [k for k in views[0] if views[0][k] != views[1][k]])
                compared += 1
            st.apply(action)
    assert compared > 100


def test_prompts_name_players_as_the_command_line_does() -> None:
    """`hordekit replay --as 2` tells the game from the second player's chair: the other player's
    secret orders show as player 1's, its own as 'you', and every prompt names the same player as
    the line it is on (players are counted from 1 everywhere)."""
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", "tests/golden/db-heuristic-predefined.json",
                          "--game", "dice-battles", "--as", "2"], capture_output=True, text=True, cwd=root)
    assert run.returncode == 0, run.stderr
    others = re.findall(r"step \d+: player (\d), 'Player (\d): order for", run.stdout)
    mine = re.findall(r"step \d+: you, 'Player (\d): order for", run.stdout)
    assert others and all(a == b == "1" for a, b in others)
    assert mine and set(mine) == {"2"}
    assert "Player 0" not in run.stdout and "player 0" not in run.stdout


def test_the_heuristic_chooses_the_same_on_the_full_state_as_on_the_redacted_one() -> None:
    """The heuristic declares that it reads only what its seat sees (`reads_hidden = False`), so
    the driver does not redact for it: over many whole games, two twin bots, one shown the full
    state and one the redacted state, make every choice alike."""
    assert HeuristicBot.reads_hidden is False
    decisions, differed = twin_bot_games(
        SPEC, model(), 2, [derive_seed(13, i) for i in range(40)], "heuristic",
        lambda st, seat: (list(st.hand[1 - seat]), [list(o) for o in st.orders], list(st.pend[1 - seat]),
                          list(st.actions)),
        options={"custom_share": 0.5}, chance=sample_chance)
    assert decisions > 3000 and differed > decisions // 2, "the redaction hid something at most decisions"


def test_how_many_draws_the_other_seat_makes_does_not_tell_which_cards_its_deck_holds() -> None:
    """Step 6 draws back to seven. Two tables seat 0 cannot tell apart: seat 1 holds the same nine
    cards, once with both Venom Spitters orders left in its deck, once with a Spit Venom and a
    Coiling Strike there. Seat 1 plays the same two cards and draws two; seat 0's view of the game
    (observation and action log) must be the same at the next round, whichever cards lay in the deck."""
    tiles = {"fl": "serpent-spawn", "fc": "scale-guard", "fr": "serpent-spawn", "rl": "venom-spitters",
             "rr": "venom-spitters", "hero": "serpent-queen"}
    kept = ["scale-guard-order", "serpent-queen-order", "venom-lord-order", "swamp-striders-order",
            "serpent-spawn-order", "serpent-spawn-order"]
    views = []
    for last in ("serpent-spawn-order", "venom-spitters-order"):
        st = scenario_state(table(p1={"battalions": [tiles, {"fl": "serpent-spawn", "hero": "venom-lord"}],
                                      "hand": kept + [last]}))
        assert st.deck_size[1] == 2
        choose(st, "Wolf Charge", "Troll Smash", "No order", "No regrouping order",
               "Marsh Charge", "Scaled Ranks", "No order", "No regrouping order")
        while st.decision().player == -1:   # nobody rolls; the draws: the first card each time
            st.apply(0)
        assert st.phase == "orders" and len(st.hand[1]) == 7
        views.append((st.visible_actions(0), st.observation(0)))
    assert views[0] == views[1]


def test_replay_as_a_seat_never_names_the_cards_the_other_seat_draws_or_lays() -> None:
    """`hordekit replay --as 1` on a recorded game: player 2's draws show as bare chance steps and its
    face-down orders and reinforcements as "(secret)"; they are named only at the reveal."""
    root = Path(__file__).resolve().parent.parent
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", "tests/golden/db-heuristic-predefined.json",
                          "--as", "1"], capture_output=True, text=True, cwd=root)
    assert run.returncode == 0, run.stderr
    lines = run.stdout.splitlines()
    draws = [ln for ln in lines if "'Player 2 draws an order card'" in ln]
    secret = [ln for ln in lines if ln.startswith("step") and ": player 2, 'Player 2:" in ln]
    assert draws and all(ln.endswith("'Player 2 draws an order card'") for ln in draws)
    assert secret and all(ln.endswith(": (secret)") for ln in secret)
    assert any(ln.startswith("  revealed: ") for ln in lines)


def _at_seat_0_regrouping(swap: bool):
    """Seat 0's Shield Wall regrouping waits for its choice (Shield Goblins or Spearmen, one space
    free). With `swap`, seat 1's hand and deck (hidden from seat 0) differ, nothing else."""
    st = scenario_state(table(p0={"reinforcements": ["goblin-mob", "goblin-mob"],
                                  "fleeing": ["shield-goblins", "goblin-archers", "goblin-spearmen"]}))
    choose(st, "Wolf Charge", "Troll Smash", "No order", "Shield Wall",
           "Marsh Charge", "Petrifying Gaze", "No order", "No regrouping order", "No reinforcement")
    assert st.dkind == "regroup" and st.decision().player == 0
    if swap:
        _swap_hand_and_deck(st, 1)
    return st


def test_a_regrouping_choice_is_made_in_the_open() -> None:
    """The choice of which units regroup comes after the reveal and moves tiles on the open mat:
    it is not secret, and both seats' logs show the option taken."""
    st = _at_seat_0_regrouping(False)
    d = st.decision()
    assert not d.secret and d.options == ("Shield Goblins", "Goblin Spearmen")
    pos = len(st.actions)
    st.apply(1)
    assert st.visible_actions(0)[pos] == st.visible_actions(1)[pos] == 1
    assert st.observation(1)["players"][0]["reinforcements"][-1][0] == "goblin-spearmen"


@pytest.mark.parametrize("bot", ["heuristic", "random", "search:8"])
def test_bots_choose_which_units_regroup_the_same_whatever_the_other_side_hides(bot: str) -> None:
    """Seat 0's regrouping choice, on two tables that differ only in seat 1's hand and deck: the
    options, the prompt and each bot's choice are the same (the bot sees a redacted state)."""
    choices, decisions, hidden = [], [], []
    for swap in (False, True):
        st = _at_seat_0_regrouping(swap)
        hidden.append(list(st.hand[1]))
        d = st.decision()
        name, _, budget = bot.partition(":")
        seat_bot = SPEC.bots[name](0, random.Random(derive_seed(1, 3)), **({"budget": budget} if budget else {}))
        token = st.redact(0)
        try:
            choices.append(seat_bot.choose(st, d))
        finally:
            st.restore(token)
        decisions.append((d.prompt, d.options))
        assert st.decision() is d and st.check_invariants() == []
    assert hidden[0] != hidden[1]
    assert decisions[0] == decisions[1] and choices[0] == choices[1]


def _log_with_a_bad_action(tmp_path: Path, kind: str, bad: int) -> tuple[Path, int]:
    """The golden log, written one action a line, with the first action of `kind` ('order': one
    of player 2's face-down orders; 'draw': one of player 2's draws) after the first round
    replaced by `bad`; returns the file and the index of that action."""
    import json
    log = json.loads((Path(__file__).resolve().parent / "golden" / "db-heuristic-predefined.json").read_text())
    st = SPEC.new_state(model(), 2, dict(log["options"]))
    for i, action in enumerate(log["actions"]):
        d = st.decision()
        if i > 20 and ((kind == "order" and d.player == 1 and d.secret and "order for" in d.prompt)
                       or (kind == "draw" and d.prompt == "Player 2 draws an order card")):
            break
        st.apply(action)
    else:
        raise AssertionError(f"no {kind} of player 2 in the golden log")
    log["actions"][i] = bad
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(log, indent=1))
    return path, i


@pytest.mark.parametrize("kind", ["order", "draw"])
def test_replay_as_a_seat_refuses_an_illegal_action_of_the_other_seat_without_counting_its_options(
        tmp_path: Path, kind: str) -> None:
    """A log whose action is out of range for one of player 2's face-down orders (or draws): told
    from player 1's chair, the refusal names the file, line and column of that action, and does
    not say how many options player 2 had (the kinds of card in its hand, or in its deck). From
    player 2's own chair the count is its own to know and is given."""
    path, i = _log_with_a_bad_action(tmp_path, kind, 50)
    root = Path(__file__).resolve().parent.parent
    line = path.read_text().splitlines().index(' "actions": [') + 2 + i   # one action a line
    runs = {seat: subprocess.run([sys.executable, "-m", "toolkit", "replay", str(path), "--as", seat],
                                 capture_output=True, text=True, cwd=root) for seat in ("1", "2")}
    for seat, run in runs.items():
        assert run.returncode == 1, run.stdout + run.stderr
        last = run.stdout.splitlines()[-1]
        assert last.startswith(f"{path}:{line}:3: the log does not replay: action {i} (50) is not legal: "), last
        assert "Traceback" not in run.stderr
    other = runs["1"].stdout.splitlines()[-1]
    assert "options" not in other and other.endswith(
        "(player 2's decision)" if kind == "order" else "'Player 2 draws an order card' (a chance event)"), other
    if kind == "order":
        assert re.search(r"\(\d+ options\)$", runs["2"].stdout.splitlines()[-1])


def test_replay_names_the_line_of_an_illegal_action(tmp_path: Path) -> None:
    """The full replay (every seat's view) refuses the same log at the line and column of the bad action."""
    path, i = _log_with_a_bad_action(tmp_path, "order", 50)
    line = path.read_text().splitlines().index(' "actions": [') + 2 + i   # one action a line
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", str(path)], capture_output=True, text=True,
                         cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.startswith(f"{path}:{line}:3: the log does not replay: action {i} (50) is not legal: "
                                 f"illegal action 50 for 'Player 2: order for"), run.stdout


@pytest.mark.parametrize("seat", [None, "1", "2"])
def test_a_log_that_goes_on_after_the_game_ended_is_refused_from_every_chair(tmp_path: Path, seat) -> None:
    """Actions after the last one of a finished game are illegal moves like any other: the replay,
    told from either chair or in full, stops there with exit 1 at the line of the first extra action."""
    import json
    log = json.loads((Path(__file__).resolve().parent / "golden" / "db-heuristic-predefined.json").read_text())
    end = len(log["actions"])
    log["actions"] += [0, 0]
    path = tmp_path / "long.json"
    path.write_text(json.dumps(log, indent=1))
    line = path.read_text().splitlines().index(' "actions": [') + 2 + end
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", str(path)] + (["--as", seat] if seat else []),
                         capture_output=True, text=True, cwd=Path(__file__).resolve().parent.parent)
    assert run.returncode == 1, run.stdout + run.stderr
    assert run.stdout.splitlines()[-1] == (f"{path}:{line}:3: the log does not replay: action {end} (0) is not legal: "
                                           f"the game is over: no decision to apply an action to")


def test_at_every_step_a_seats_observation_and_the_prompt_it_reads_are_the_same_whatever_the_other_side_hides() -> None:
    """Through whole games, after every kind of move (orders, reinforcements, the reveal,
    regroupings, dice, draws): a copy whose hidden part (the other hand, deck, face-down orders and
    secret reinforcements) was dealt again at random gives each seat the same observation (the
    mat, zones, counts, its own cards and the log as it may read it), and the decision under way
    the same prompt, the same player and, when it is an open choice of the other seat, the same
    options."""
    rng = random.Random(8)
    compared = 0
    kinds = set()
    for game in range(4):
        rec = play_game(SPEC, model(), 2, derive_seed(14, game), ["heuristic"], {"custom_share": 0.5})
        st = SPEC.new_state(model(), 2, {"custom_share": 0.5})
        for action in rec.actions:
            d = st.decision()
            kinds.add(st.dkind)
            for seat in (0, 1):
                twin = st.clone()
                twin.resample(seat, rng)
                assert twin.observation(seat) == st.observation(seat), (st.round, st.dkind, d.prompt)
                t = twin.decision()
                assert (t.player, t.prompt, t.secret) == (d.player, d.prompt, d.secret)
                if d.player == 1 - seat and not d.secret:
                    assert t.options == d.options
                compared += 1
            st.apply(action)
    assert compared > 2000 and {"order", "reinforce", "roll", "draw"} <= kinds, (compared, kinds)
