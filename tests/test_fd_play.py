"""Whole Fantasy Draft games: every bot finishes without errors or broken invariants, the
heuristic drafts, deploys and fights sensibly, games are deterministic, golden logs replay, and
the smoke command reports on the game."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from conftest import run_cli
from engine.core import derive_seed, play_game, replay
from engine.core.api import Decision
from engine.fantasy_draft import SPEC
from engine.fantasy_draft.bots import FLAG_VALUE, LAST_STAND, NOISE, _noisy_pick, _stake, evaluate
from engine.fantasy_draft.state import T_OWN, T_UNIT
from test_fd_support import GOLDEN, model


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_bots_finish_checked_games_with_every_invariant_held(bot: str) -> None:
    failures = []
    for i in range(12):
        rec = play_game(SPEC, model(), 2, derive_seed(3, i), [bot], check=True)
        if rec.error or rec.result is None:
            failures.append((rec.seed, rec.error))
    assert failures == []


def test_heuristic_games_end_before_the_turn_cap() -> None:
    ends = Counter(play_game(SPEC, model(), 2, derive_seed(8, i), ["heuristic"]).result.end_reason for i in range(30))
    assert ends["stalemate"] <= 1, ends
    assert ends["flag-captured"] >= 8, "the flag is a real target, not only a last resort"
    assert set(ends) <= {"flag-captured", "no-actions", "no-units", "stalemate"}


def test_heuristic_beats_random() -> None:
    wins = 0
    for i in range(10):
        line = ["heuristic", "random"] if i % 2 == 0 else ["random", "heuristic"]
        rec = play_game(SPEC, model(), 2, derive_seed(21, i), line)
        wins += (line.index("heuristic") in rec.result.winners)
    assert wins >= 8


def test_heuristic_drafts_varied_armies_within_its_mana() -> None:
    firsts, sizes = Counter(), []
    for i in range(20):
        rec = play_game(SPEC, model(), 2, derive_seed(13, i), ["heuristic"])
        st = replay(SPEC, model(), 2, rec.actions)
        firsts[st.drafted[0][0]] += 1
        sizes += [len(d) for d in st.drafted]
        assert all(sum(model().units[u].cost for u in d) <= 20 for d in st.drafted)
    assert len(firsts) >= 3, "no hero is always the first pick"
    assert min(sizes) >= 4


def test_heuristic_deploys_its_flag_at_the_back_with_traps_beside_it() -> None:
    m = model()
    rec = play_game(SPEC, m, 2, derive_seed(2, 0), ["heuristic"])
    st = SPEC.new_state(m, 2, {})
    for action in rec.actions:
        if st.phase == "play":
            break
        st.apply(action)
    b = m.board
    for seat, back_row in ((0, 0), (1, b.rows - 1)):
        flag = next(h for h, t in enumerate(st.board) if t and t[T_OWN] == seat and t[T_UNIT] == m.flag)
        assert flag // b.columns == back_row
        traps = [h for h, t in enumerate(st.board) if t and t[T_OWN] == seat and m.units[t[T_UNIT]].actions == 0 and h != flag]
        assert sum(1 for h in traps if b.dist[flag][h] == 1) >= 2


def test_same_seed_gives_the_same_game() -> None:
    a = play_game(SPEC, model(), 2, 4242, ["heuristic", "random"])
    b = play_game(SPEC, model(), 2, 4242, ["heuristic", "random"])
    assert a.actions == b.actions and a.result == b.result


def test_evaluate_gives_each_seat_a_share_in_0_to_1() -> None:
    rec = play_game(SPEC, model(), 2, 31, ["heuristic"])
    for at in (80, 150, 250):
        v = evaluate(replay(SPEC, model(), 2, rec.actions[:at]))
        assert len(v) == 2 and all(0 <= x <= 1 for x in v) and abs(sum(v) - 1) < 1e-9


@pytest.mark.parametrize("path", sorted(GOLDEN.glob("fd-*.json")), ids=lambda p: p.stem)
def test_golden_log_replays_identically(path) -> None:
    gold = json.loads(path.read_text())
    st = replay(SPEC, model(), gold["players"], gold["actions"])
    res = st.result()
    ids = [u.id for u in model().units]
    assert st.is_over()
    assert (res.scores, res.winners, res.end_reason, res.turns) == (gold["scores"], gold["winners"], gold["end_reason"], gold["turns"])
    assert [[ids[u] for u in d] for d in st.drafted] == gold["drafted"]
    assert [[ids[u] for u in d] for d in st.removed] == gold["removed"]


def test_smoke_reports_draft_pick_rates_seats_and_endings(tmp_path) -> None:
    proc = run_cli("smoke", "fantasy-draft", "--games", "16", "--workers", "1", "-d", str(tmp_path), "--json")
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr
    report = json.loads(proc.stdout)
    assert report["games_finished"] == 16 and report["errors"] == []
    assert set(report["end_reasons"]) <= {"flag-captured", "no-units", "no-actions", "stalemate"}
    assert report["win_rate_by_seat"]["2"][0]["games"] == 16
    drafted = {cid: c for cid, c in report["components"].items() if c["events"].get("drafted")}
    assert len(drafted) >= 10 and all("win_rate_when_used" in c for c in drafted.values())
    # Basic units are not chosen, they fill the army: leaving one in the box is no pick, so only
    # heroes count toward coverage and a left-out Forkman has no "win rate when used".
    assert set(report["coverage"]["by_kind"]) == {"hero"}
    left_out = [c for c in report["components"].values() if c["events"].get("left-out")]
    assert left_out and all(c["kind"] == "basic-unit" and c["seat_games_used"] == 0 for c in left_out)


def test_bots_read_moves_never_labels(monkeypatch) -> None:
    """Labels are built only when read; the heuristic never reads them, so a smoke game builds none."""
    def unread(self):
        raise AssertionError(f"labels of '{self.prompt}' were read")

    monkeypatch.setattr(Decision, "options", property(unread))
    for i in range(3):
        rec = play_game(SPEC, model(), 2, derive_seed(4, i), ["heuristic"], check=True)
        assert rec.error is None and rec.result is not None


def test_labels_read_late_name_the_units_that_were_offered() -> None:
    """A decision's labels read after the game moved on are the ones it offered at the time."""
    rec = play_game(SPEC, model(), 2, derive_seed(4, 0), ["heuristic"])
    late, st = [], SPEC.new_state(model(), 2, {})
    for action in rec.actions:
        late.append(st.decision())
        st.apply(action)
    again = replay(SPEC, model(), 2, [])
    for action, decision in zip(rec.actions, late):
        assert decision.options == again.decision().options, decision.prompt
        again.apply(action)


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_the_options_offered_are_those_listed_from_scratch_at_every_step(bot: str) -> None:
    """A token's options are kept from one step to the next until something near it changes
    (see `FDState.play_moves`): at every play decision of whole games, the options offered equal,
    in the same order, those listed by a copy that has forgotten everything it kept."""
    import random

    from engine.core.driver import make_bots, sample_chance

    checked = 0
    for i in range(25):
        seed = derive_seed(21, i)
        bots, rng = make_bots(SPEC, 2, seed, [bot]), random.Random(seed)
        st = SPEC.new_state(model(), 2, {})
        while (d := st.decision()) is not None:
            if st.dkind == "play":
                fresh = st.clone()
                fresh.board_changed()
                assert fresh.play_moves(st.current) == st.moves, f"game {i}, action {len(st.actions)}"
                checked += 1
            st.apply(sample_chance(rng, d) if d.player < 0 else bots[d.player].choose(st, d))
    assert checked > 2000


@pytest.mark.parametrize("bot", ["random", "heuristic"])
def test_a_turn_s_end_clears_the_activations_boosts_and_extra_actions_of_every_token(bot: str) -> None:
    """When a turn ends, no token on the board has acted, is boosted or has extra activations;
    the tokens of the player whose turn ended are no longer frozen, and a token that player froze
    stays frozen through its owner's next turn. Checked on every token after every turn of whole
    games (the rules clear only the tokens the turn touched)."""
    import random

    from engine.core.driver import make_bots, sample_chance
    from engine.fantasy_draft.state import T_BONUS, T_EXTRA, T_FROZEN, T_USED

    turns = frozen_kept = 0
    for i in range(20):
        seed = derive_seed(23, i)
        bots, rng = make_bots(SPEC, 2, seed, [bot]), random.Random(seed)
        st = SPEC.new_state(model(), 2, {})
        while (d := st.decision()) is not None:
            turn, seat = st.turn, st.current
            froze = [st.board[h] for h in st.hexes[1 - seat] if st.board[h][T_FROZEN]] if st.phase == "play" else []
            st.apply(sample_chance(rng, d) if d.player < 0 else bots[d.player].choose(st, d))
            if st.turn == turn or st.is_over():
                continue
            turns += 1
            for h in st.hexes[0] + st.hexes[1]:
                t = st.board[h]
                assert (t[T_USED], t[T_BONUS], t[T_EXTRA]) == (0, 0, 0), f"game {i}, turn {turn}"
                assert not (t[T_OWN] == seat and t[T_FROZEN]), f"game {i}, turn {turn}"
            on_board = {id(st.board[h]) for h in st.hexes[1 - seat]}
            for t in froze:
                if id(t) in on_board:
                    assert t[T_FROZEN], f"game {i}, turn {turn}: a token frozen in this turn thawed"
                    frozen_kept += 1
    assert turns > 1000 and frozen_kept > 0


def test_targets_aimed_at_enemies_are_kept_while_only_own_tokens_move_and_follow_an_enemy_that_comes() -> None:
    """A special action aimed at enemies reads only the enemies in its range: own tokens moving
    next to the hero leave its targets as they were (the same run, not listed again), an enemy
    coming into range is a new target, and every listing equals one made from scratch."""
    from test_fd_support import choose, hx, situation

    dist = model().board.dist[hx("d3")]
    assert (dist[hx("f3")], dist[hx("g3")], dist[hx("h3")]) == (2, 3, 4), "the Ice Witch on d3 aims 3 hexes far"
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "k9": {"unit": "flag", "seat": 1},
                              "d3": {"unit": "ice-witch", "seat": 0}, "d4": {"unit": "wolf", "seat": 0},
                              "f3": {"unit": "forkman", "seat": 1}, "h3": {"unit": "wolf", "seat": 1},
                              "j8": {"unit": "wolf", "seat": 1}}})

    def frost() -> tuple:
        return next(run for run in st.groups if run[0][0] == "ability")

    def fresh() -> list:
        twin = st.clone()
        twin.board_changed()
        return twin.play_moves(st.current)

    before = frost()
    assert [mv[3] for mv in before] == [hx("f3")]
    while st.current == 0:  # the own wolf walks around the Ice Witch for the whole turn
        choose(st, "Move d4 to d5" if st.unit_at(hx("d4")) >= 0 else "Move d5 to d4")
        if st.current == 0:
            assert frost() is before, "only own tokens moved: the targets were kept"
            assert st.moves == fresh()
    for label in ("Move h3 to g3", "Move j8 to j7", "Move j7 to j8"):  # the other wolf stays out of range
        choose(st, label)
    assert st.current == 0
    assert sorted(mv[3] for mv in frost()) == sorted([hx("f3"), hx("g3")])
    assert st.moves == fresh()


def test_kept_targets_of_special_actions_follow_the_units_a_resample_or_a_redaction_changes() -> None:
    """Special actions whose targets read the units of nearby tokens (a swap, a boost for some
    unit types) keep them between steps; a resample or a redaction changes the units under
    face-down tokens in place, and the options listed afterwards equal those of a copy that
    has forgotten everything it kept."""
    import random

    def fresh(st, seat: int) -> list:
        twin = st.clone()
        twin.board_changed()
        return twin.play_moves(seat)

    checked = 0
    for i in range(12):
        rec = play_game(SPEC, model(), 2, derive_seed(31, i), ["heuristic"])
        st = SPEC.new_state(model(), 2, {})
        for n, action in enumerate(rec.actions):
            if st.dkind == "play" and n % 3 == 0:
                seat = st.current
                sampled = st.clone()
                sampled.play_moves(1 - seat)  # what the other seat keeps, before its units change
                sampled.resample(seat, random.Random(n))
                assert sampled.play_moves(1 - seat) == fresh(sampled, 1 - seat), f"game {i}, action {n}"
                token = st.redact(1 - seat)
                assert st.play_moves(seat) == fresh(st, seat), f"game {i}, action {n}, redacted"
                st.restore(token)
                assert st.play_moves(seat) == fresh(st, seat), f"game {i}, action {n}, restored"
                checked += 1
            st.apply(action)
    assert checked > 300


def test_the_nearest_enemy_from_packed_rows_equals_a_sweep_of_the_board() -> None:
    """The heuristic finds the steps to the nearest enemy from every hex at once, one byte per
    hex in a whole integer; it equals a breadth-first sweep from the enemies."""
    import random

    from engine.fantasy_draft.bots import _nearest_lanes, _nearest_map, planner

    m = model()
    lanes = planner(m).lanes
    assert lanes is not None
    rng = random.Random(5)
    hexes = range(len(m.board.labels))
    for size in (1, 2, 5, 12, 26, len(hexes)):
        for _ in range(20):
            targets = rng.sample(hexes, size)
            assert list(_nearest_lanes(lanes, targets)) == _nearest_map(m.board.neighbours, targets)


def test_play_noise_is_drawn_only_near_the_best_score_with_the_odds_of_a_draw_for_every_option() -> None:
    """Noise in [0, NOISE) can lift an option past the best only if it scores within NOISE of
    it: those alone draw, in option order, and each is picked as often as when every option
    draws (same seeds, 20,000 picks each)."""
    outs = [[0.0, 0.12, 0.13], [-1.0], [0.15, 0.149, 0.02], [0.14]]  # four runs, eight options
    tops = [max(o) for o in outs]
    flat = [s for o in outs for s in o]
    rng = random.Random(5)
    draws = []

    def counted() -> float:
        draws.append(1)
        return rng.random()

    picks = Counter(_noisy_pick(outs, tops, max(flat) - NOISE, counted) for _ in range(20000))
    assert len(draws) == 20000 * 5  # 0.12, 0.13, 0.15, 0.149 and 0.14 are within reach
    every = random.Random(6)
    odds = Counter()
    for _ in range(20000):
        noisy = [s + every.random() * NOISE for s in flat]
        odds[noisy.index(max(noisy))] += 1
    assert picks[0] == picks[3] == picks[6] == odds[0] == odds[3] == odds[6] == 0
    for i in (1, 2, 4, 5, 7):
        assert abs(picks[i] - odds[i]) < 400, (i, picks[i], odds[i])


def test_the_heuristic_stakes_the_game_on_its_last_acting_units() -> None:
    """A side whose units able to act are all gone cannot act and loses, so with LAST_STAND
    or fewer left each is worth a share of the flag's value on top of its own."""
    m = model()
    st = SPEC.new_state(m, 2, {})
    rng = random.Random(4)
    while st.phase != "play":
        st.apply(rng.randrange(st.decision().n))
    acting = [h for h in st.hexes[0] if m.acts[st.board[h][T_UNIT]] > 0]
    assert len(acting) > LAST_STAND and _stake(st, 0) == 0.0
    while len(acting) > 1:
        st.board[acting.pop()] = None
        st.board_changed()
        n = len(acting)
        assert _stake(st, 0) == (FLAG_VALUE / n if n <= LAST_STAND else 0.0)
