"""Fantasy Draft hidden information: face-down tokens, secret deployment, what bots may see,
cheap clones. Positions come from real games on the shipped content."""
from __future__ import annotations

import random

from engine.core import derive_seed, play_game, replay
from engine.core.driver import bot_choice, make_bots
from engine.fantasy_draft import SPEC, hidden
from engine.fantasy_draft.hidden import HIDDEN, hidden_units
from engine.fantasy_draft.state import FDState, T_MOVED, T_OWN, T_REV, T_STEP, T_UNIT, T_USED
from test_fd_support import choose, model, situation
from twin_bots import twin_bot_games

BOTS = ("heuristic", "random", "search:12")


def _swap_pair(st: FDState, enemy: int) -> tuple[int, int] | None:
    """Two face-down tokens of `enemy` holding different units that could trade places unseen."""
    units = model().units
    hidden = [h for h, t in enumerate(st.board) if t and t[T_OWN] == enemy and not t[T_REV]]
    for i, a in enumerate(hidden):
        for b in hidden[i + 1:]:
            ta, tb = st.board[a], st.board[b]
            if ta[T_UNIT] == tb[T_UNIT]:
                continue
            need = max(ta[T_MOVED], tb[T_MOVED], ta[T_USED], tb[T_USED])
            if min(units[ta[T_UNIT]].actions, units[tb[T_UNIT]].actions) >= need:
                return a, b
    return None


def _twin_positions(phase: str):
    """(a, b): the same real game at seat 0's (play) or seat 1's (deploy) decision, differing only
    in the unit under two face-down tokens (play) or where two secretly placed tokens stand (deploy)."""
    m = model()
    for i in range(20):
        rec = play_game(SPEC, m, 2, derive_seed(5, i), ["heuristic"])
        for at in range(60, len(rec.actions), 7):
            a = replay(SPEC, m, 2, rec.actions[:at])
            d = a.decision()
            if phase == "deploy" and not (a.phase == "deploy" and d.player == 1 and len(a.to_place[1]) > 3):
                continue
            if phase == "play" and not (a.phase == "play" and d is not None and d.player == 0 and a.dkind == "play"):
                continue
            pair = _swap_pair(a, 1 if phase == "play" else 0)
            if pair is None:
                continue
            b = a.clone()
            x, y = pair
            if phase == "play":
                b.board[x][T_UNIT], b.board[y][T_UNIT] = b.board[y][T_UNIT], b.board[x][T_UNIT]
            else:
                b.board[x], b.board[y] = b.board[y], b.board[x]
                b.board_changed()
            return a, b
        if phase == "deploy":
            break
    raise AssertionError("no suitable position found")


def test_a_seat_sees_that_a_hex_holds_an_enemy_token_but_not_which_unit() -> None:
    a, b = _twin_positions("play")
    seen = a.observation(0)["board"]
    enemy = [lab for lab, e in seen.items() if e["seat"] == 1]
    assert enemy and any(seen[lab]["unit"] == HIDDEN for lab in enemy)
    assert a.observation(0) == b.observation(0)
    assert a.observation(1) != b.observation(1), "the owner sees its own units"


def test_no_peeking_every_bot_chooses_the_same_when_only_face_down_units_differ() -> None:
    a, b = _twin_positions("play")
    assert a.decision() == b.decision()
    for name in BOTS:
        picks = []
        for state in (a, b):
            before = [t[:] if t else None for t in state.board], list(state.actions)
            bot = make_bots(SPEC, 2, 77, [name, "random"])[0]
            picks.append(bot_choice(state, bot, state.decision(), hidden=True))
            assert ([t[:] if t else None for t in state.board], list(state.actions)) == before, "restore undoes redact"
        assert picks[0] == picks[1], name


def test_no_peeking_during_deployment_the_other_placement_is_invisible() -> None:
    a, b = _twin_positions("deploy")
    assert a.observation(1) == b.observation(1)
    assert all(e["seat"] == 1 for e in a.observation(1)["board"].values())
    for name in BOTS:
        picks = [bot_choice(s, make_bots(SPEC, 2, 3, ["random", name])[1], s.decision(), hidden=True) for s in (a, b)]
        assert picks[0] == picks[1], name


def test_a_redacted_state_is_the_same_whatever_the_hidden_units() -> None:
    a, b = _twin_positions("play")
    ta, tb = a.redact(0), b.redact(0)
    try:
        assert a.board == b.board and a.actions == b.actions
        assert a.clone().board == b.clone().board, "a clone of a redacted state stays redacted"
    finally:
        a.restore(ta)
        b.restore(tb)
    assert a.board != b.board


def test_the_secret_placements_leave_the_log_a_bot_reads() -> None:
    a, _ = _twin_positions("play")
    before = list(a.actions)
    token = a.redact(0)
    hidden_steps = [i for i, (x, y) in enumerate(zip(before, a.actions)) if x != y]
    a.restore(token)
    assert a.actions == before
    secret = sorted(t[T_STEP] for t in a.board if t and t[T_OWN] == 1 and not t[T_REV])
    plays = set(hidden._plays(a, 1))
    assert set(hidden._plays(a, 0)).isdisjoint(plays)
    assert set(hidden_steps) <= set(secret) | plays, "only the other seat's face-down placements and play choices are hidden"
    assert {i for i in plays if before[i]} <= set(hidden_steps), "every play choice of the other seat is blanked"
    assert len(secret) - len(hidden_steps) <= len(secret) // 2, "placements that were option 0 look unchanged"


def test_resample_keeps_positions_and_what_the_seat_saw() -> None:
    a, _ = _twin_positions("play")
    m = model()
    rng = random.Random(4)
    for _ in range(20):
        twin = a.clone()
        twin.resample(0, rng)
        assert twin.observation(0) == a.observation(0)
        assert twin.check_invariants() == []
        for h, t in enumerate(twin.board):
            if t and t[T_OWN] == 1 and t[T_MOVED]:
                assert m.units[t[T_UNIT]].actions > 0, "a token seen moving is no trap and no flag"


def test_resample_during_deployment_places_the_unseen_army_on_its_own_grass() -> None:
    a, _ = _twin_positions("deploy")
    token = a.redact(1)
    twin = a.clone()
    a.restore(token)
    twin.resample(1, random.Random(2))
    zone = model().board.zone
    placed = [h for h, t in enumerate(twin.board) if t and t[T_OWN] == 0]
    assert len(placed) == len(twin.army[0]) and all(zone[h] == 0 for h in placed)


def test_clone_copies_data_and_never_replays_the_log(monkeypatch) -> None:
    rec = play_game(SPEC, model(), 2, 17, ["heuristic"])
    st = replay(SPEC, model(), 2, rec.actions[: len(rec.actions) - 30])
    monkeypatch.setattr(FDState, "apply", lambda self, a: (_ for _ in ()).throw(AssertionError("replayed")))
    twin = st.clone()
    monkeypatch.undo()
    assert twin.fingerprint() == st.fingerprint()
    for action in rec.actions[len(st.actions):]:
        twin.apply(action)
    assert twin.result() == rec.result and st.result().end_reason == "unfinished"


def test_invariants_catch_a_created_token_and_power_above_the_cap() -> None:
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    assert st.check_invariants() == []
    st.board[model().board.index["e3"]] = [0, model().by_id["knight"], 0, 0, 0, 0, 0, 0, -1, 0]
    st.power[model().by_id["golem"]] = 4
    problems = " ".join(st.check_invariants())
    assert "do not add up to the army" in problems and "above 5" in problems


def test_invariants_catch_a_face_down_identity_in_the_other_seats_view(monkeypatch) -> None:
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    monkeypatch.setattr(FDState, "visible_to", lambda self, seat, t: True)
    assert any("sees the face-down token" in p for p in st.check_invariants())


def test_the_deployment_choice_is_secret_and_the_draft_is_open() -> None:
    st = situation({"phase": "draft", "mana": [1, 0], "pool": ["rat"]})
    assert not st.decision().secret
    choose(st, "Recruit Rat")
    assert st.phase == "deploy" and st.decision().secret


def test_redaction_stand_ins_are_the_units_the_seat_knows_are_hidden() -> None:
    """Redaction hands out the face-down units themselves in a canonical order; that is honest
    only because they are exactly the army less removed and face-up units, which the seat knows."""
    rec = play_game(SPEC, model(), 2, derive_seed(6, 1), ["heuristic"])
    checked = 0
    for at in range(80, len(rec.actions), 9):
        st = replay(SPEC, model(), 2, rec.actions[:at])
        if st.phase != "play":
            continue
        for seat in (0, 1):
            before = [t[:] if t else None for t in st.board], list(st.actions)
            token = st.redact(seat)
            faces = sorted(t[T_UNIT] for t in st.board if t and t[T_OWN] != seat and not t[T_REV])
            assert faces == hidden_units(st, 1 - seat)
            assert all(t[T_STEP] == -1 for t in st.board if t and t[T_OWN] != seat and not t[T_REV])
            st.restore(token)
            assert ([t[:] if t else None for t in st.board], list(st.actions)) == before
            checked += 1
    assert checked >= 10


def test_invariants_catch_a_unit_on_ground_it_cannot_stand_on() -> None:
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    b = model().board
    st.board[b.index["c5"]], st.board[b.index["d3"]] = st.board[b.index["d3"]], None  # a golem does not fly
    st.board_changed()
    assert any("c5: Golem stands on" in p for p in st.check_invariants())


def test_invariants_catch_a_token_missing_from_its_seats_list_of_hexes() -> None:
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    assert st.check_invariants() == []
    st.board[model().board.index["e3"]], st.board[model().board.index["d3"]] = st.board[model().board.index["d3"]], None
    assert "player 1: the list of token hexes does not match the board" in st.check_invariants()


def test_invariants_catch_power_tokens_lost_and_negative_mana() -> None:
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    st.supply -= 1
    st.mana[1] = -1
    problems = " ".join(st.check_invariants())
    assert "power tokens:" in problems and "negative mana or actions" in problems


def test_invariants_catch_a_secret_placement_in_the_other_seats_view(monkeypatch) -> None:
    st = situation({"phase": "deploy", "armies": [["flag", "knight"], ["flag", "rat"]]})
    st.apply(0)  # player 1 places the flag
    assert st.check_invariants() == []
    monkeypatch.setattr(hidden, "positions_hidden", lambda state, seat: False)  # observations show everything
    assert any("sees a token placed in secret" in p for p in st.check_invariants())


def test_the_heuristic_chooses_the_same_on_the_full_state_as_on_the_redacted_one() -> None:
    """The heuristic declares that it reads only what its seat sees (`reads_hidden = False`), so
    the driver does not redact for it: over many whole games, two twin bots, one shown the full
    state and one the redacted state, make every choice alike."""
    decisions, differed = twin_bot_games(
        SPEC, model(), 2, [derive_seed(11, i) for i in range(40)], "heuristic",
        lambda st, seat: ([t[:] if t else None for t in st.board], list(st.actions)))
    assert decisions > 5000 and differed > decisions // 2, "the redaction hid something at most decisions"


def test_the_label_of_a_move_names_no_face_down_unit_to_the_other_seat() -> None:
    """A move does not turn a token face up, and a choice's label is its open record: `hordekit
    replay --as 2` prints player 1's moves to player 2. At the table a player says "d3 to d4", not
    "my Knight to d4", so a move label names its unit only when the token is face up."""
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    golden = root / "tests" / "golden" / "fd-heuristic.json"
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", str(golden), "--game", "fantasy-draft",
                          "--as", "2"], capture_output=True, text=True, cwd=root)
    assert run.returncode == 0, run.stderr
    names = [u.name for u in model().units]
    moves = re.findall(r"step (\d+): player 1, 'Take an action[^']*': (Move \S+ to \S+.*)", run.stdout)
    assert len(moves) > 20
    # the same game on the engine: which of player 1's moves were made by a face-down token
    actions = json.loads(golden.read_text())["actions"]
    st = SPEC.new_state(model(), 2, {})
    hidden_moves = 0
    by_step = dict((int(i), label) for i, label in moves)
    for i, action in enumerate(actions):
        if i in by_step:
            mv = st.moves[action]
            face_down = not st.board[mv[1]][T_REV]
            label = by_step[i]
            if face_down:
                hidden_moves += 1
                assert not any(f"({n})" in label for n in names), f"step {i}: {label}"
            else:
                assert label.endswith(f"({names[st.board[mv[1]][T_UNIT]]})"), f"step {i}: {label}"
        st.apply(action)
    assert hidden_moves > 10


def _twin_positions_later(min_turn: int = 3):
    """(a, b) as `_twin_positions("play")`, but after both seats have played turns, so the state
    keeps what it listed for the other seat's tokens during that seat's turn."""
    m = model()
    for i in range(10):
        rec = play_game(SPEC, m, 2, derive_seed(11, i), ["heuristic"])
        for at in range(60, len(rec.actions), 5):
            a = replay(SPEC, m, 2, rec.actions[:at])
            d = a.decision()
            if not (a.phase == "play" and a.turn >= min_turn and d is not None and d.player == 0 and a.dkind == "play"):
                continue
            pair = _swap_pair(a, 1)
            if pair is None or not all(h in a._steps for h in pair):  # listed in the other seat's turn
                continue
            b = a.clone()
            x, y = pair
            b.board[x][T_UNIT], b.board[y][T_UNIT] = b.board[y][T_UNIT], b.board[x][T_UNIT]
            for h in (x, y):  # what b's rules would have listed for its units there
                u = b.board[h][T_UNIT]
                b._steps[h] = (u, b._token_steps(1, h, m.units[u]))
            return a, b
    raise AssertionError("no suitable position found")


def test_no_field_of_a_redacted_state_tells_which_unit_a_face_down_token_is() -> None:
    """The state a bot that reads hidden state is shown is redacted: two games that differ only
    in which units stand under two face-down enemy tokens must look alike in every field of it,
    the moves the state keeps per token included (they were listed, during the other seat's turn,
    for the real unit)."""
    a, b = _twin_positions_later()
    before_a = a.clone()
    ta, tb = a.redact(0), b.redact(0)
    try:
        fields = sorted(set(vars(a)) - {"model", "_decision", "_touched"})
        for name in fields:
            assert repr(getattr(a, name)) == repr(getattr(b, name)), name
        assert {tuple(t) for t in a._touched} == {tuple(t) for t in b._touched}
        assert a.decision().options == b.decision().options
        for h in a.hexes[1]:
            if not a.board[h][T_REV] and h in a._steps:
                assert a._steps[h][0] == a.board[h][T_UNIT], "kept moves name only the stand-in unit"
        twins = a.clone(), b.clone()
        assert repr(twins[0]._steps) == repr(twins[1]._steps), "a clone of a redacted state stays redacted"
    finally:
        a.restore(ta)
        b.restore(tb)
    assert a._steps == before_a._steps and a.board == before_a.board, "restore puts everything back"


def _after_a_move(near: str, far: str) -> FDState:
    """Player 2 moves the Forkman on d6; the face-down token before it (d5) holds `near`, the one
    after it (k7) `far`. Player 1 sees the same in both cases."""
    st = situation({"current": 1, "board": {
        "a1": {"unit": "flag", "seat": 0}, "a3": {"unit": "wolf", "seat": 0},
        "d5": {"unit": near, "seat": 1}, "d6": {"unit": "forkman", "seat": 1},
        "k7": {"unit": far, "seat": 1}, "k9": {"unit": "flag", "seat": 1}}})
    choose(st, "Move d6 to d7")
    return st


def test_the_number_of_the_other_seats_choice_leaves_the_log_a_bot_reads() -> None:
    """The options are listed token by token, so the number of the move chosen counts the options
    of the tokens before the one that moved: with the Warlord on d5 its Rally comes first and the
    same move is option 5, with the Swordman there it is option 4. A redaction for player 1 takes
    it out of the log, so both games read alike; player 2's own view keeps it."""
    a, b = _after_a_move("warlord", "swordman"), _after_a_move("swordman", "warlord")
    assert a.observation(0) == b.observation(0)
    assert a.actions != b.actions, "the real log holds the option numbers"
    ta, tb = a.redact(0), b.redact(0)
    try:
        assert a.actions == b.actions and a.board == b.board
        assert a.clone().actions == b.clone().actions
    finally:
        a.restore(ta)
        b.restore(tb)
    assert a.actions == [5] and b.actions == [4], "restore puts the choices back"
    own = a.redact(1)
    try:
        assert a.actions == [5], "a seat keeps its own choices"
    finally:
        a.restore(own)


def test_two_games_that_differ_only_in_face_down_units_look_alike_to_the_other_seat_until_a_fight_tells() -> None:
    """Twin games from the start of play: the second has two of player 2's face-down units
    traded between their hexes (and their placement steps), and both go on with the same choices,
    by label. At each of player 1's decisions, as long as player 1's observation is the same, every
    field of the state redacted for player 1 must be the same too: the log of what player 2 did
    included, whose option numbers depend on what stands under player 2's tokens."""
    m = model()
    compared = 0
    for g in range(8):
        rec = play_game(SPEC, m, 2, derive_seed(21, g), ["heuristic"])
        start = next(k for k in range(len(rec.actions)) if replay(SPEC, m, 2, rec.actions[:k]).phase == "play")
        a = replay(SPEC, m, 2, rec.actions[:start])
        units = [h for h in a.hexes[1] if a.board[h][T_UNIT] != m.flag]
        x, y = next((p, q) for p in units for q in units if a.board[p][T_UNIT] < a.board[q][T_UNIT])
        b = a.clone()
        tx, ty = b.board[x], b.board[y]
        tx[T_UNIT], ty[T_UNIT], tx[T_STEP], ty[T_STEP] = ty[T_UNIT], tx[T_UNIT], ty[T_STEP], tx[T_STEP]
        for st in (a, b):  # the same state of the kept lists in both
            st.board_changed()
        for act in rec.actions[start:]:
            d, db = a.decision(), b.decision()
            if d.player == 0 and a.dkind == "play":
                ta, tb = a.redact(0), b.redact(0)
                try:
                    if a.observation(0) != b.observation(0):
                        break  # a fight or an ability showed a unit: the games differ in the open now
                    assert d.options == db.options
                    for name in sorted(set(vars(a)) - {"model", "_decision", "_touched", "_turn_moves"}):
                        assert repr(getattr(a, name)) == repr(getattr(b, name)), (g, len(a.actions), name)
                    compared += 1
                finally:
                    a.restore(ta)
                    b.restore(tb)
            label = d.options[act]
            if db.player != d.player or label not in db.options:
                break
            a.apply(act)
            b.apply(db.options.index(label))
    assert compared > 80


def test_a_seat_story_shows_each_secret_placement_at_the_step_that_turned_its_token_face_up() -> None:
    """`hordekit replay --as 2` prints player 1's placements as "(secret)", and each one where the
    rules turn its token face up (an attack, a special action, a removal, the end of the game)."""
    import json
    import re
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    golden = root / "tests" / "golden" / "fd-heuristic.json"
    run = subprocess.run([sys.executable, "-m", "toolkit", "replay", str(golden), "--game", "fantasy-draft",
                          "--as", "2"], capture_output=True, text=True, cwd=root)
    assert run.returncode == 0, run.stderr
    told: dict[int, list[int]] = {}  # step -> placement steps the story shows revealed after it
    step = -1
    for line in run.stdout.splitlines():
        if m := re.match(r"step (\d+):", line):
            step = int(m.group(1))
        elif line.startswith("  revealed: "):
            told.setdefault(step, []).extend(int(p) for p in re.findall(r"step (\d+): Place ", line))
    st = SPEC.new_state(model(), 2, {})
    for action in json.loads(golden.read_text())["actions"]:
        st.apply(action)
    assert len(st.reveals) > 20
    expected: dict[int, list[int]] = {}
    for at, positions in st.reveals:
        expected.setdefault(at - 1, []).extend(positions)  # `at`: the log's length after the revealing action
    assert told == expected
    assert any(p < 44 for ps in told.values() for p in ps), "player 1's secret placements are among them"
