"""Kingdoms set-up, rule by rule, played through the engine's step API from the standard start: the
chance events the rulebook describes (tiles, the first-player roll, coordinates) are scripted."""
from __future__ import annotations

from engine.kingdoms import SPEC
from test_kingdoms_rules import model


def _to(st, prefix: str) -> None:
    """Resolve chance events with their first outcome until one whose prompt starts with `prefix`."""
    d = st.decision()
    while not d.prompt.startswith(prefix):
        assert d.player == -1, d
        st.apply(0)
        d = st.decision()


def _roll(st, *faces: int) -> None:
    for f in faces:
        d = st.decision()
        assert d.player == -1 and len(d.options) == 10, d
        st.apply(f - 1)


def test_highest_first_player_roll_starts_and_ties_roll_again() -> None:
    st = SPEC.new_state(model(), 3, {})
    _to(st, "First player roll")
    _roll(st, 3, 9, 9)                    # players 2 and 3 tie on 9 ...
    assert st.decision().prompt == "First player roll for Player 2 (d10)"
    _roll(st, 4, 8)                       # ... and roll again: player 3 wins
    _to(st, "Roll column")
    assert st.order == [2, 0, 1]          # play goes round from the first player


def test_a_first_settlement_within_two_spaces_of_another_is_rolled_again() -> None:
    st = SPEC.new_state(model(), 2, {})
    _to(st, "First player roll")
    _roll(st, 9, 1)                       # player 1 starts and places first
    _roll(st, 3, 3)                       # c3
    _roll(st, 4, 4)                       # d4: two steps from c3, too close
    assert st.decision().prompt == "Roll column (d10)"
    _roll(st, 8, 8)                       # h8
    b = st.board
    assert st.sett[b.index["c3"]] == 1 and st.sett[b.index["h8"]] == 1 and st.sett[b.index["d4"]] == 0


def test_a_starting_horde_next_to_a_settlement_is_rolled_again() -> None:
    st = SPEC.new_state(model(), 1, {})
    _to(st, "Place your first settlement")
    st.apply(st.decision().options.index("e5"))
    _to(st, "Choose a kingdom")
    st.apply(0)
    _to(st, "Draw a horde counter")
    st.apply(0)
    _roll(st, 5, 4)                       # e4: next to the settlement
    assert st.decision().prompt == "Roll column (d10)"
    _roll(st, 5, 3)                       # e3: two steps away, allowed
    assert st.horde_spaces() == [st.board.index["e3"]]
