"""The game-agnostic core: seeds, chance sampling, the driver's error capture, the registry."""
from __future__ import annotations

import random

import pytest

from engine.core import CHANCE, Decision, GameResult, GameSpec, derive_seed, load_spec, play_game, replay
from engine.core.bots import RandomBot
from engine.core.driver import sample_chance
from engine.core.scenario import match_option, parse_setup_path, setup_path
from engine.core.sequential import SequentialState


class Coin(SequentialState):
    """A tiny game: chance flips a coin, the player guesses; used to test the core alone."""

    def __init__(self, boom: bool = False) -> None:
        self.boom = boom
        self.score = 0
        super().__init__()

    def _rules(self):
        for _ in range(3):
            coin = yield Decision(CHANCE, "Flip", ("heads", "tails"), (3.0, 1.0))
            guess = yield Decision(0, "Guess", ("heads", "tails"))
            if self.boom:
                raise RuntimeError("rules bug")
            self.score += guess == coin

    def _fresh(self):
        return Coin(self.boom)

    def result(self):
        return GameResult([self.score], [0], "done", 3)

    def check_invariants(self):
        return [] if self.score >= 0 else ["negative score"]


def _spec(boom: bool = False) -> GameSpec:
    return GameSpec("coin", 1, 1, lambda c: None, lambda m, p, o: Coin(boom),
                    {"random": lambda seat, rng: RandomBot(seat, rng)}, frozenset())


def test_derive_seed_is_stable_across_processes() -> None:
    assert derive_seed(1, 2) == derive_seed(1, 2)
    assert derive_seed(1, 2) != derive_seed(1, 3)
    assert derive_seed(0, 0) == 7689419447139100721  # fixed: blake2b, not hash()


def test_weighted_chance_follows_the_weights() -> None:
    rng = random.Random(1)
    d = Decision(CHANCE, "x", ("a", "b"), (3.0, 1.0))
    draws = [sample_chance(rng, d) for _ in range(4000)]
    assert 0.70 < draws.count(0) / 4000 < 0.80
    assert sample_chance(rng, Decision(CHANCE, "x", ("a", "b"), (0.0, 1.0))) == 1


def test_weighted_chance_never_draws_an_option_without_weight() -> None:
    rng = random.Random(2)
    for n in range(1, 40):
        weights = tuple(float(rng.randint(0, 3)) if i % 3 else 0.0 for i in range(n))
        d = Decision(CHANCE, "x", n=n, labels=lambda: [], weights=weights)
        drawn = {sample_chance(rng, d) for _ in range(60)}
        if any(weights):
            assert all(weights[i] > 0 for i in drawn)
        else:   # nothing has weight: the last option, as before
            assert drawn == {n - 1}


def test_play_game_is_deterministic_and_checked_mode_passes() -> None:
    a = play_game(_spec(), None, 1, 42, ["random"], check=True)
    b = play_game(_spec(), None, 1, 42, ["random"], check=True)
    assert a.error is None and a.actions == b.actions and len(a.actions) == 6 and a.steps == 6


def test_a_rules_exception_is_recorded_with_its_step_never_raised() -> None:
    rec = play_game(_spec(boom=True), None, 1, 1, ["random"])
    assert rec.error is not None and rec.error.startswith("step 1: RuntimeError: rules bug")
    assert rec.result is None


def test_replay_rejects_an_illegal_action() -> None:
    with pytest.raises(ValueError, match="action 0"):
        replay(_spec(), None, 1, [5])


def test_clone_replays_to_the_same_state() -> None:
    st = Coin()
    st.apply(0)
    st.apply(0)
    twin = st.clone()
    assert twin.actions == [0, 0] and twin.score == st.score and twin.decision() == st.decision()


def test_unknown_bot_is_an_error_in_the_record() -> None:
    rec = play_game(_spec(), None, 1, 1, ["genius"])
    assert rec.error and "unknown bot" in rec.error


def test_scenario_labels_match_exactly_or_by_unique_prefix() -> None:
    d = Decision(0, "p", ("Attack Imp (stack A)", "Attack Ghoul (stack B)", "End the attack"))
    assert match_option(d, "Attack Imp") == 0
    assert match_option(d, "End the attack") == 2
    assert isinstance(match_option(d, "Attack"), str)
    assert match_option(d, 1) == 1


def test_registry_finds_a_game_by_rules_id_or_game_id() -> None:
    assert load_spec("hordes_and_heroes") is load_spec("hordes-and-heroes")
    with pytest.raises(ModuleNotFoundError):
        load_spec("no_such_game")


class HiddenCoin(Coin):
    """The coin game with the flip hidden from the player: counts the redactions around bot calls."""

    def __init__(self) -> None:
        self.redacted = 0
        super().__init__()

    def _fresh(self):
        return HiddenCoin()

    def redact(self, seat: int):
        self.redacted += 1
        return None

    def restore(self, token) -> None:
        pass


class SeatViewBot(RandomBot):
    """Reads the state, but only what its seat sees."""

    reads_state = True
    reads_hidden = False


class PeekingBot(RandomBot):
    reads_state = True


def test_a_bot_that_reads_only_its_seats_view_is_not_redacted_any_other_reader_is() -> None:
    games = {}
    for name, bot in (("seat-view", SeatViewBot), ("reader", PeekingBot)):
        spec = GameSpec("hidden-coin", 1, 1, lambda c: None, lambda m, p, o: games.setdefault(name, HiddenCoin()),
                        {name: lambda seat, rng, bot=bot: bot(seat, rng)}, frozenset(), information="imperfect")
        assert play_game(spec, None, 1, 5, [name]).error is None
    assert games["seat-view"].redacted == 0
    assert games["reader"].redacted == 3


@pytest.mark.parametrize("path", [(), ("players", 0, "resorces"), ("tiles", "a 1"), ("hordes", "x.y", 3),
                                  ("say", 'a "quoted": key'), ("options", "variants", 12)])
def test_a_setup_path_written_in_a_failure_reads_back_as_the_same_keys(path) -> None:
    text = setup_path(path)
    assert parse_setup_path(text) == ("setup", *path)
    assert parse_setup_path(text + ": the message: with colons") == ("setup", *path)
    assert parse_setup_path(setup_path(path, "options")) == ("options", *path)


def test_text_that_is_no_setup_path_reads_as_none() -> None:
    assert parse_setup_path("setups.players") is None and parse_setup_path("steps[0]") is None
