"""Kingdoms hides nothing a bot could read: the rules have no face-down order. The horde pool is
drawn from at random when a horde is needed (no stacked order sits in the state), the event table is
a die roll, and the horde player's unkept counters go back to the pool. So the game is declared
perfect-information, and every seat may be shown the whole state."""
from __future__ import annotations

from engine.kingdoms import SPEC
from test_kingdoms_rules import choose, model, situation


def test_the_game_is_declared_perfect_information() -> None:
    assert SPEC.information == "perfect" and not SPEC.simultaneous


def test_a_horde_draw_is_an_even_chance_over_every_counter_left_in_the_pool() -> None:
    st = situation({"phase": "spawn-phase", "current": 0, "players": [{"units": {"h8": {"settlement": 1}}}],
                    "hordes": {"c3": "troll-king"}})
    d = st.decision()
    assert d.player == -1 and d.prompt == "Draw a horde counter"
    assert d.weights is None and d.n == len(model().hordes) - 1      # uniform: no order to know
    assert "Troll King" not in d.options
    twin = st.clone()
    st.apply(0)
    twin.apply(d.n - 1)
    assert st.decision().prompt == twin.decision().prompt == "Roll column (d10)"
    assert sum(st.pool) == sum(twin.pool) and st.pool != twin.pool   # which one came is the chance's


def test_the_event_is_a_die_roll_not_a_deck() -> None:
    st = situation({"phase": "event-phase", "current": 0, "players": [{"units": {"h8": {"settlement": 1}}}]})
    d = st.decision()
    assert d.player == -1 and d.options == tuple(str(i) for i in range(1, 11)) and d.weights is None


def test_the_horde_players_unkept_counters_go_back_to_the_pool() -> None:
    st = situation({"phase": "spawn-phase", "current": 0, "options": {"horde-player": True}, "order": [0],
                    "players": [{"units": {"h8": {"settlement": 1}}}]}, players=2)
    pool = sum(st.pool)
    for name in ("Troll King", "Red Dragons", "Lich King"):
        choose(st, name)
    choose(st, "Lich King")
    m = model()
    assert sum(st.pool) == pool - 1
    assert st.pool[m.horde_index["troll-king"]] and st.pool[m.horde_index["red-dragons"]]
    assert not st.pool[m.horde_index["lich-king"]]
