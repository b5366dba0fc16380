"""The game contract: one declaration per game, hidden information, cheap clones, the search bot.

Every test here runs on the real shipped content of each game the engine registers.
"""
from __future__ import annotations

import random
import time
from functools import lru_cache
from pathlib import Path

import pytest

from engine.core import CHANCE, Decision, GameResult, GameSpec, derive_seed, play_game, replay
from engine.core.driver import bot_choice, make_bots
from engine.core.search import SearchBot, parse_budget
from engine.core.sequential import SequentialState
from engine.core.registry import load_spec

ROOT = Path(__file__).resolve().parent.parent


@lru_cache(maxsize=None)
def loaded(game: str):  # noqa: ANN201
    from toolkit.games import load_game

    spec = load_spec(game)
    return spec, spec.build_model(load_game(ROOT / "content" / game).data)


SHIPPED = [d.name for d in sorted((ROOT / "content").iterdir()) if (d / "game.yaml").is_file()
           and (ROOT / "engine" / d.name.replace("-", "_")).is_dir()]


# ---------------------------------------------------------------- the declaration
@pytest.mark.parametrize("game", SHIPPED)
def test_the_core_refuses_a_player_count_outside_the_declared_range(game: str) -> None:
    spec, model = loaded(game)
    for players in (spec.min_players - 1, spec.max_players + 1):
        with pytest.raises(ValueError, match=f"{spec.min_players} to {spec.max_players} players"):
            spec.new_state(model, players, {})
    rec = play_game(spec, model, spec.max_players + 1, 1, ["random"])
    assert rec.error and "players" in rec.error


@pytest.mark.parametrize("game", SHIPPED)
def test_a_renamed_required_kind_is_an_error_not_an_empty_list(game: str) -> None:
    from toolkit.games import load_game

    spec, _ = loaded(game)
    data = dict(load_game(ROOT / "content" / game).data)
    required = sorted(k for k, need in spec.kinds.items() if need)
    assert required, "every shipped game declares the kinds its model needs"
    data[required[0] + "-renamed"] = data.pop(required[0])
    with pytest.raises(KeyError, match=required[0]):
        spec.build_model(data)


@pytest.mark.parametrize("game", SHIPPED)
def test_every_game_has_the_random_and_search_bots(game: str) -> None:
    spec, _ = loaded(game)
    assert {"random", "search"} <= set(spec.bots)
    assert spec.information in ("perfect", "imperfect")
    assert spec.choice_events, "the report needs to know which usage events are choices"


@pytest.mark.parametrize("game", SHIPPED)
def test_a_game_with_a_heuristic_lends_it_to_the_search_bot(game: str) -> None:
    """With dozens of options per decision, a uniform prior and random playouts leave a small
    search budget playing close to random (Fantasy Draft's search bot won 9 of 20 games against
    random bots that way, 20 of 20 with the heuristic as its playout policy)."""
    spec, _ = loaded(game)
    if "heuristic" in spec.bots:
        assert spec.playout_bot == "heuristic"


# ---------------------------------------------------------------- cheap clones
@pytest.mark.parametrize("game", SHIPPED)
def test_a_clone_anywhere_in_the_game_has_the_same_future(game: str) -> None:
    """Clone at many points of a real game; both copies, fed the same actions, stay equal."""
    spec, model = loaded(game)
    players = max(2, spec.min_players)
    rec = play_game(spec, model, players, 11, ["random"])
    assert rec.error is None, rec.error
    log = rec.actions
    rng = random.Random(3)
    for at in sorted(rng.sample(range(1, len(log)), 12)):
        state = replay(spec, model, players, log[:at])
        twin = state.clone()
        assert twin.decision() == state.decision()
        for a in log[at:at + 400]:
            twin.apply(a)
            state.apply(a)
        assert twin.fingerprint() == state.fingerprint()  # type: ignore[attr-defined]
        assert twin.decision() == state.decision()


def test_a_clone_late_in_the_game_does_not_replay_the_log() -> None:
    """After the first clone, a clone starts from the latest checkpoint: only the few actions since
    it are applied again, however long the game has been."""
    for game in SHIPPED:
        spec, model = loaded(game)
        rec = play_game(spec, model, 2, 5, ["heuristic"])
        state = replay(spec, model, 2, rec.actions[:1000])
        if not isinstance(state, SequentialState):
            continue
        state.clone()
        cp = state._cp
        assert cp is not None
        assert len(state.actions) - cp[1] < 200, (game, len(state.actions) - cp[1])
        counted = []
        original = type(state).apply

        def counting(self, action, _orig=original):  # noqa: ANN001, ANN202
            counted.append(action)
            return _orig(self, action)

        type(state).apply = counting  # type: ignore[method-assign]
        try:
            state.clone()
        finally:
            type(state).apply = original  # type: ignore[method-assign]
        assert len(counted) == len(state.actions) - cp[1] < 200


# ---------------------------------------------------------------- hidden information
def _hh_states_differing_only_in_a_hidden_hand():  # noqa: ANN202
    """Two Hordes & Heroes games at seat 0's decision, alike but for one card in seat 1's hand."""
    spec, model = loaded("hordes-and-heroes")
    for i in range(50):
        rec = play_game(spec, model, 2, derive_seed(9, i), ["heuristic"])
        for at in range(40, min(len(rec.actions), 600)):
            a = replay(spec, model, 2, rec.actions[:at])
            d = a.decision()
            if d is None or d.player != 0 or len(d.options) < 2:
                continue
            hand = a.hands[1]
            swap = next((c for c, n in enumerate(a.deck_counts) if n and hand and c not in hand), None)
            if swap is None:
                continue
            b = replay(spec, model, 2, rec.actions[:at])
            old = b.hands[1][0]
            b.hands[1][0] = swap
            b.deck_counts[swap] -= 1
            b.deck_counts[old] += 1
            return spec, a, b
    raise AssertionError("no suitable position found")


def test_hh_a_seat_sees_the_size_of_other_hands_but_not_their_cards() -> None:
    spec, a, b = _hh_states_differing_only_in_a_hidden_hand()
    assert a.hands[1] != b.hands[1]
    assert a.observation(0) == b.observation(0)
    assert a.observation(1) != b.observation(1)
    assert a.observation(0)["hand_sizes"] == [len(h) for h in a.hands]


def test_hh_no_peeking_every_bot_chooses_the_same_when_only_hidden_cards_differ() -> None:
    spec, a, b = _hh_states_differing_only_in_a_hidden_hand()
    d = a.decision()
    assert d == b.decision(), "the options a seat is offered reveal nothing hidden"
    for name in ("heuristic", "random", "search:12"):
        picks = []
        for state in (a, b):
            bot = make_bots(spec, 2, 77, [name, "random"])[0]
            before = [h[:] for h in state.hands], list(state.deck_counts)
            picks.append(bot_choice(state, bot, d, hidden=True))
            assert ([h[:] for h in state.hands], list(state.deck_counts)) == before, "restore undoes redact"
        assert picks[0] == picks[1], name


def test_hh_a_redacted_state_reads_the_same_whatever_the_hidden_cards() -> None:
    spec, a, b = _hh_states_differing_only_in_a_hidden_hand()
    ta, tb = a.redact(0), b.redact(0)
    try:
        assert a.hands == b.hands and a.deck_counts == b.deck_counts
        assert a.clone().hands == b.clone().hands, "a clone of a redacted state stays redacted"
    finally:
        a.restore(ta)
        b.restore(tb)


def test_hh_face_down_horde_cards_have_no_identity_until_revealed() -> None:
    spec, model = loaded("hordes-and-heroes")
    st = spec.new_state(model, 3, {})
    while st.decision() is not None and st.decision().player == CHANCE and len(st.actions) < 3:
        st.apply(0)
    view = st.observation(1)
    hidden = [c for s in view["horde"] for c in s["cards"] if c.startswith("face-down")]
    assert hidden, "the stacks start with face-down cards"
    assert all(c in ("face-down level 1", "face-down level 2") for c in hidden)


def test_hh_resample_keeps_hand_sizes_and_the_unseen_pool() -> None:
    spec, a, _ = _hh_states_differing_only_in_a_hidden_hand()
    twin = a.clone()
    twin.resample(0, random.Random(1))
    assert [len(h) for h in twin.hands] == [len(h) for h in a.hands]
    assert twin.hands[0] == a.hands[0], "a seat's own hand is never redrawn"
    pool = lambda s: sorted(c for q, h in enumerate(s.hands) if q for c in h) + sorted(  # noqa: E731
        c for c, n in enumerate(s.deck_counts) for _ in range(n))
    assert sorted(pool(twin)) == sorted(pool(a))


# ---------------------------------------------------------------- the search bot
class _Race(SequentialState):
    """A two-seat game: each turn the seat may take 1 or 3 steps, or 'stand'; first to 7 wins.
    A seat at 4 that takes 3 steps wins at once: the search bot must see that."""

    def __init__(self) -> None:
        self.pos = [0, 0]
        self.turn = 0
        super().__init__()

    def _rules(self, resume=None):  # noqa: ANN001, ANN202
        while max(self.pos) < 7 and self.turn < 40:
            p = self.turn % 2
            self.checkpoint("turn")
            a = yield Decision(p, "Move", ("stand", "one step", "three steps"))
            self.pos[p] += (0, 1, 3)[a]
            self.turn += 1

    def _fresh(self) -> "_Race":
        return _Race()

    def result(self) -> GameResult:
        best = max(self.pos)
        return GameResult(list(self.pos), [p for p in (0, 1) if self.pos[p] == best], "done", self.turn)

    def check_invariants(self) -> list[str]:
        return []


RACE = GameSpec("race", 2, 2, lambda c: None, lambda m, p, o: _Race(), {}, frozenset())


def test_search_takes_the_winning_move() -> None:
    st = RACE.new_state(None, 2, {})
    for a in (2, 1, 1, 1):  # seat 0 at 4, seat 1 at 2... seat 0 to move
        st.apply(a)
    assert st.pos == [4, 2] and st.decision().player == 0
    bot = SearchBot(RACE, 0, random.Random(1), budget=200)
    assert bot.choose(st, st.decision()) == 2


def test_search_wins_the_race_whenever_it_moves_first() -> None:
    """Moving first, three steps every turn always wins; search finds that against any random
    opponent, while a random first seat often loses."""
    def first_seat_wins(bot: str) -> int:
        total = 0
        for i in range(12):
            rec = play_game(RACE, None, 2, derive_seed(2, i), [bot, "random"])
            assert rec.error is None, rec.error
            total += rec.result.winners == [0]
        return total

    assert first_seat_wins("search:200") == 12
    assert first_seat_wins("random") < 10


def test_search_budget_is_playouts_or_milliseconds() -> None:
    assert parse_budget("200") == (200, 0.0, None)
    assert parse_budget("64@8") == (64, 0.0, 8)
    assert parse_budget("50ms")[1] == 0.05
    for bad in ("0", "-3", "fast", "0ms"):
        with pytest.raises(ValueError, match="budget"):
            parse_budget(bad)
    st = RACE.new_state(None, 2, {})
    bot = SearchBot(RACE, 0, random.Random(1), budget="30ms")
    start = time.perf_counter()
    bot.choose(st, st.decision())
    assert bot.spent >= 1 and time.perf_counter() - start < 5


@pytest.mark.parametrize("game", SHIPPED)
def test_search_plays_every_shipped_game_to_the_end(game: str) -> None:
    spec, model = loaded(game)
    opts = {"rounds": 2} if game == "kingdoms" else {"max_turns": 6}
    rec = play_game(spec, model, 2, 4, ["search:4", "heuristic"], options=opts, check=True)
    assert rec.error is None, rec.error
    assert rec.result is not None


def test_replay_as_a_seat_never_names_the_cards_others_draw(tmp_path: Path) -> None:
    import json

    from conftest import run_cli

    spec, model = loaded("hordes-and-heroes")
    rec = play_game(spec, model, 2, 7, ["heuristic"])
    log = tmp_path / "hh.json"
    log.write_text(json.dumps({"game": "hordes-and-heroes", "players": 2, "actions": rec.actions[:400]}))
    proc = run_cli("replay", str(log), "--as", "2")
    assert proc.returncode == 0, proc.stderr
    draws = [line for line in proc.stdout.splitlines() if "'Draw from the hero deck'" in line]
    assert draws and all(line.endswith("'Draw from the hero deck'") for line in draws)
    assert any(line.startswith("step") and ": you," in line for line in proc.stdout.splitlines())
