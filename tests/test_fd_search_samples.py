"""Fantasy Draft: every world the search bot samples agrees with what its seat has seen.

The search bot redraws the other seat's hidden parts (which unit each face-down token is; during
deployment where the tokens stand) before every playout. These tests play real games on the
shipped content with the search bot in one seat, look at every sample it draws, and compare it
with the seat's observation and with a record of what the seat saw happen, kept here from the
open record of the game (the observations and the other seat's chosen options), independently of
the sampler's own bookkeeping."""
from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.core import derive_seed, play_game
from engine.core.api import CHANCE
from engine.core.driver import bot_choice, make_bots, sample_chance
from engine.core.search import SearchBot
from engine.fantasy_draft import SPEC
from engine.fantasy_draft.state import T_MOVED, T_NOT, T_OWN, T_REV, T_STEP, T_UNIT, FDState
from test_fd_support import choose, model, situation

BUDGET = "6@4"  # a few short playouts per decision: many samples, quick games


class Seen:
    """What `seat` has seen of the other seat's tokens, per token (kept by the token object, which
    moves with the token): the most activations it was seen using in one turn, whether it was seen
    on water (it flies), and the units it may
    still be after the other seat aimed an ability of its own at it (not the flag, which is no unit;
    of the types the ability names; able to stand where a swap puts it)."""

    def __init__(self, seat: int) -> None:
        self.seat = seat
        self.tokens: dict[int, list[int]] = {}  # id -> the token (kept alive, so ids stay unique)
        self.most: dict[int, int] = {}
        self.may_be: dict[int, set[int]] = {}
        self.wet: set[int] = set()  # seen standing on water: it flies

    def before(self, st: FDState, action: int) -> None:
        """The other seat is about to take `action`: note what its choice says in the open."""
        d = st.decision()
        if d.player != 1 - self.seat or st.dkind != "play":
            return
        mv = st.moves[action]
        if mv[0] != "ability" or mv[3] == mv[1]:
            return
        m = model()
        hero = m.units[st.board[mv[1]][T_UNIT]]  # an ability turns its hero face up
        ab = hero.abilities[mv[2]]
        target = st.board[mv[3]]
        if target is None or target[T_OWN] != 1 - self.seat or ab.target not in ("own", "any"):
            return
        fits = {u.idx for u in m.units if not u.flag and (not ab.types or u.type in ab.types)}
        if any(e.kind == "swap" for e in ab.effects):
            fits = {u for u in fits if st.can_stand(u, mv[1])}
        key = self._key(target)
        self.may_be[key] = self.may_be.get(key, fits) & fits

    def after(self, st: FDState) -> None:
        """A step was taken: note the activations the seat sees on the other seat's tokens."""
        if st.phase != "play":
            return
        seen = st.observation(self.seat)["board"]
        labels = model().board.labels
        for h in st.hexes[1 - self.seat]:
            e = seen[labels[h]]
            key = self._key(st.board[h])
            self.most[key] = max(self.most.get(key, 0), e["used"] - e["extra"], 1 if e["moved"] else 0)
            if model().board.flyers_only[h]:
                self.wet.add(key)

    def _key(self, t: list[int]) -> int:
        self.tokens[id(t)] = t
        return id(t)


def army_of(obs: dict, seat: int) -> Counter:
    """A seat's whole army from what everyone sees: its drafted heroes, and the basic units of the
    reference card less those it left out."""
    m = model()
    ids = {u.id: u.idx for u in m.units}
    army = Counter(ids[u] for u in obs["drafted"][seat])
    for u in m.basics:
        army[u] += m.units[u].count
    army.subtract(ids[u] for u in obs["left_out"][seat])
    return +army


def contradictions(view: FDState, sample: FDState, seat: int, seen: Seen) -> list[str]:
    """How the sampled world `sample` disagrees with what `seat` sees in `view` (empty: none)."""
    m = model()
    enemy = 1 - seat
    lab = m.board.labels
    out: list[str] = []
    obs = view.observation(seat)
    if sample.observation(seat) != obs:
        out.append("the sample looks different to the seat (a token seen face up, an own token "
                   "or a position changed)")
    ids = {u.id: u.idx for u in m.units}
    army = army_of(obs, enemy)
    army.subtract(ids[u] for u in obs["removed"][enemy])
    on_board = Counter()
    for h, t in enumerate(sample.board):
        if t is None:
            continue
        u = m.units[t[T_UNIT]]
        if not sample.can_stand(t[T_UNIT], h):
            out.append(f"{lab[h]}: {u.name} cannot stand there")
        if t[T_OWN] != enemy:
            continue
        on_board[t[T_UNIT]] += 1
        if view.phase in ("deploy", "prepare", "draft"):
            if m.board.zone[h] != enemy:
                out.append(f"{lab[h]}: {u.name} placed outside its own start zone")
            continue
        if t[T_REV]:
            continue
        key = id(view.board[h])
        most = seen.most.get(key, 0)
        if u.actions < most:
            out.append(f"{lab[h]}: {u.name} ({u.actions} actions) was seen acting {most} times in a turn")
        if key in seen.wet and not u.flying:
            out.append(f"{lab[h]}: {u.name} does not fly, and the token was seen on water")
        if key in seen.may_be and t[T_UNIT] not in seen.may_be[key]:
            out.append(f"{lab[h]}: {u.name} cannot be the target the other seat chose for its ability")
    left = obs["to_place"][enemy]
    if view.phase in ("draft", "prepare"):
        if on_board:
            out.append("tokens on the board before deployment")
    elif left == 0:
        if on_board != army:
            out.append(f"the other seat's units do not add up: {dict(on_board - army)} too many, "
                       f"{dict(army - on_board)} missing")
    elif on_board - army or sum(on_board.values()) != sum(army.values()) - left:
        out.append("the other seat's placed tokens are not the part of its army it placed")
    return out


def _watched_games(seeds: list[int], seats: tuple[int, ...]) -> tuple[int, list[str]]:
    """Play a game per seed and seat with the search bot in that seat and the heuristic in the
    other; check every sample the search bot draws. Returns (samples checked, contradictions)."""
    m = model()
    checked = 0
    found: list[str] = []
    original = SearchBot._world
    for seed in seeds:
        for seat in seats:
            names = ["heuristic", "heuristic"]
            names[seat] = f"search:{BUDGET}"
            bots = make_bots(SPEC, 2, seed, names)
            seen = Seen(seat)

            def world(bot: SearchBot, state: FDState) -> FDState:
                nonlocal checked
                sample = original(bot, state)
                checked += 1
                for problem in contradictions(state, sample, bot.seat, seen):
                    found.append(f"seed {seed}, step {len(state.actions)}, {state.phase}: {problem}")
                return sample

            SearchBot._world = world  # type: ignore[method-assign]
            try:
                rng = random.Random(seed)
                st = SPEC.new_state(m, 2, {})
                d = st.decision()
                while d is not None:
                    if d.player == CHANCE:
                        action = sample_chance(rng, d)
                    else:
                        if d.player == seat:  # the truth itself agrees with what was seen
                            for problem in contradictions(st, st, seat, seen):
                                found.append(f"seed {seed}, step {len(st.actions)}: the true state: {problem}")
                        action = bot_choice(st, bots[d.player], d, hidden=True)
                    seen.before(st, action)
                    st.apply(action)
                    seen.after(st)
                    d = st.decision()
            finally:
                SearchBot._world = original  # type: ignore[method-assign]
    return checked, found


def test_every_sample_of_the_search_bot_agrees_with_what_its_seat_has_seen() -> None:
    checked, found = _watched_games([derive_seed(31, i) for i in range(3)], (0, 1))
    assert checked > 1000
    assert not found, f"{len(found)} contradictions in {checked} samples, e.g.:\n" + "\n".join(found[:12])


def test_the_checker_sees_a_contradiction_it_is_shown() -> None:
    """The checks can fail: the true state passes them, and a sample with a walker on water, a
    face-up unit changed, the other army's counts changed, or a unit seen moving that has no
    actions fails them."""
    m = model()
    rec = play_game(SPEC, m, 2, derive_seed(31, 0), ["heuristic"])
    st = SPEC.new_state(m, 2, {})
    seen = Seen(0)
    for action in rec.actions:
        seen.before(st, action)
        st.apply(action)
        seen.after(st)
        if st.phase == "play" and st.turn >= 12 and st.decision().player == 0 and st.dkind == "play":
            break
    assert contradictions(st, st.clone(), 0, seen) == [], "the truth agrees with what was seen"
    down = [h for h in st.hexes[1] if not st.board[h][T_REV]]
    up = [h for h in st.hexes[1] if st.board[h][T_REV]]
    moved = [h for h in down if seen.most.get(id(st.board[h]), 0) > 0]
    still = [h for h in down if m.units[st.board[h][T_UNIT]].actions == 0]
    assert up and moved and still
    shown = st.clone()
    shown.board[up[0]][T_UNIT], shown.board[down[0]][T_UNIT] = shown.board[down[0]][T_UNIT], shown.board[up[0]][T_UNIT]
    assert any("looks different" in p for p in contradictions(st, shown, 0, seen))
    counts = st.clone()
    counts.board[down[0]][T_UNIT] = m.by_id["knight"] if counts.board[down[0]][T_UNIT] != m.by_id["knight"] else m.by_id["wolf"]
    assert any("do not add up" in p for p in contradictions(st, counts, 0, seen))
    idle = st.clone()
    idle.board[moved[0]][T_UNIT], idle.board[still[0]][T_UNIT] = idle.board[still[0]][T_UNIT], idle.board[moved[0]][T_UNIT]
    assert any("was seen acting" in p for p in contradictions(st, idle, 0, seen))
    wet = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                               "k9": {"unit": "flag", "seat": 1}, "c5": {"unit": "ghost", "seat": 1}}})
    walker = wet.clone()
    b = m.board.index
    walker.board[b["c5"]][T_UNIT], walker.board[b["k9"]][T_UNIT] = m.flag, m.by_id["ghost"]
    assert m.board.flyers_only[b["c5"]]
    assert any("c5: Flag cannot stand" in p for p in contradictions(wet, walker, 0, Seen(0)))


def _positions(phase: str, seat: int, count: int) -> list[FDState]:
    """Real positions at `seat`'s decisions in `phase` (play: after some turns), from heuristic games."""
    m = model()
    out: list[FDState] = []
    for i in range(12):
        rec = play_game(SPEC, m, 2, derive_seed(33, i), ["heuristic"])
        st = SPEC.new_state(m, 2, {})
        for k, action in enumerate(rec.actions):
            d = st.decision()
            if (st.phase == phase and d.player == seat and st.dkind in ("play", "deploy") and k % 9 == 0
                    and (phase == "deploy" or st.turn >= 6)):
                out.append(st.clone())
                if len(out) >= count:
                    return out
            st.apply(action)
    return out


def _other_truth(st: FDState, seat: int) -> FDState:
    """The same game with the other seat's hidden parts drawn afresh: its face-down units in play,
    where its tokens stand during deployment."""
    twin = st.clone()
    twin.resample(seat, random.Random(99))
    return twin


def _public(board: list) -> list:
    """The board without the placement steps (the log positions of secret choices)."""
    return [t[:T_STEP] + t[T_STEP + 1:] if t else None for t in board]


@pytest.mark.parametrize("phase, seat", [("play", 0), ("play", 1), ("deploy", 1)])
def test_the_samples_do_not_depend_on_the_hidden_truth(phase: str, seat: int) -> None:
    """Two states that differ only in what `seat` cannot see give the very same samples for one
    seed: the sampler reads nothing of the other seat's hidden parts."""
    positions = _positions(phase, seat, 12)
    assert len(positions) >= 12
    differed = 0
    for st in positions:
        twin = _other_truth(st, seat)
        assert twin.observation(seat) == st.observation(seat)
        differed += twin.board != st.board
        for seed in range(3):
            a, b = st.clone(), twin.clone()
            a.resample(seat, random.Random(seed))
            b.resample(seat, random.Random(seed))
            assert a.board == b.board, (phase, seat, len(st.actions), seed)
            assert contradictions(st, a, seat, Seen(seat)) == []
            token = st.redact(seat)  # the search bot is shown the redacted state
            try:
                c = st.clone()
            finally:
                st.restore(token)
            c.resample(seat, random.Random(seed))
            assert _public(c.board) == _public(a.board), "the redacted state gives the same samples"
    assert differed >= len(positions) // 2, "the twins differ in their hidden parts"


def _harvest(necromancer_near: bool) -> tuple[FDState, dict[str, int]]:
    """Player 1's Knight takes a face-down Forkman of player 2 (a human: the Necromancer's Soul
    Harvest gains a power token when one falls within 2). Player 2 has a face-down Necromancer and
    a face-down Swordman, one of them within 2 of the fight and the other 3 or more away, and a
    face-down Trap and Bowman far off."""
    m = model()
    b = m.board
    at = b.index["e5"]
    land = [h for h in range(len(b.labels)) if not b.flyers_only[h] and b.zone[h] != 0]
    near = next(h for h in land if b.dist[at][h] == 2)
    far = [h for h in land if b.dist[at][h] >= 4 and b.labels[h] != "k9"]
    knight = next(h for h in range(len(b.labels)) if b.dist[at][h] == 1 and not b.flyers_only[h]
                  and b.dist[near][h] >= 2)
    spots = {"near": near, "far": far[0], "trap": far[1], "bowman": far[2]}
    units = ("necromancer", "swordman") if necromancer_near else ("swordman", "necromancer")
    lab = b.labels
    st = situation({"current": 0, "board": {
        "a1": {"unit": "flag", "seat": 0}, lab[knight]: {"unit": "knight", "seat": 0},
        "b1": {"unit": "wolf", "seat": 0},
        "k9": {"unit": "flag", "seat": 1}, "e5": {"unit": "forkman", "seat": 1},
        lab[near]: {"unit": units[0], "seat": 1}, lab[far[0]]: {"unit": units[1], "seat": 1},
        lab[far[1]]: {"unit": "trap", "seat": 1}, lab[far[2]]: {"unit": "bowman", "seat": 1}}})
    choose(st, f"Attack e5 from {lab[knight]} (Knight)")
    return st, spots


def _necromancer_hexes(st: FDState, draws: int = 60) -> Counter:
    """Where player 1's samples put player 2's Necromancer."""
    m = model()
    token = st.redact(0)
    try:
        view = st.clone()
    finally:
        st.restore(token)
    rng = random.Random(8)
    where: Counter = Counter()
    for _ in range(draws):
        sample = view.clone()
        sample.resample(0, rng)
        assert sample.observation(0) == st.observation(0)
        where.update(h for h in sample.hexes[1] if sample.board[h][T_UNIT] == m.by_id["necromancer"])
    return where


@pytest.mark.parametrize("necromancer_near", [True, False])
def test_a_face_down_necromancers_power_tokens_tell_where_it_may_stand(necromancer_near: bool) -> None:
    """The power token lands on the Necromancer's card in the open. When it gains one, it is one
    of the face-down tokens within 2 of the fallen unit; when it gains none (with tokens in the
    supply and room below the cap), it is none of them. The samples keep to both."""
    st, spots = _harvest(necromancer_near)
    necromancer = model().by_id["necromancer"]
    assert st.power[necromancer] == (1 if necromancer_near else 0)
    where = _necromancer_hexes(st)
    if necromancer_near:
        assert set(where) == {spots["near"]}, "the only face-down token within 2 of the fall"
    else:
        assert spots["near"] not in where and len(where) >= 2, "any face-down token but the one near the fall"


def test_what_the_open_record_rules_out_is_never_the_true_unit() -> None:
    """The facts the state keeps about each token for the samplers (the most activations seen in
    one turn, the units ruled out in the open) hold for the real unit under it, at every step of
    many games, the Necromancer's power tokens included: a wrong fact could leave no deal at all."""
    m = model()
    ruled = harvested = 0
    for i in range(30):
        st = SPEC.new_state(m, 2, {})
        rng = random.Random(derive_seed(34, i))
        bots = make_bots(SPEC, 2, derive_seed(34, i), ["heuristic"])
        d = st.decision()
        while d is not None:
            st.apply(sample_chance(rng, d) if d.player == CHANCE else bots[d.player].choose(st, d))
            for h in st.hexes[0] + st.hexes[1]:
                t = st.board[h]
                u = m.units[t[T_UNIT]]
                assert not t[T_NOT] >> t[T_UNIT] & 1, (i, len(st.actions), m.board.labels[h], u.name)
                assert t[T_MOVED] <= u.actions, (i, len(st.actions), m.board.labels[h], u.name)
                ruled += t[T_NOT] != 0
                harvested += bool(t[T_NOT] >> m.by_id["necromancer"] & 1)
            d = st.decision()
    assert ruled > 5000 and harvested > 2000, (ruled, harvested)


def test_a_turn_that_ends_with_actions_left_tells_which_tokens_cannot_move() -> None:
    """Player 2's turn ends with two actions left: nothing of theirs could act. Its frozen face-up
    tokens could not; of its three face-down tokens the one boxed in on a9 could be anything, but
    the two with free hexes around them cannot hold a unit that moves: they are the flag and the
    Trap, and the Knight is on a9. Player 1's samples keep to that."""
    frozen = {"unit": "horseman", "seat": 1, "revealed": True, "frozen": True}
    st = situation({"current": 1, "actions": 2, "board": {
        "a1": {"unit": "flag", "seat": 0}, "c1": {"unit": "wolf", "seat": 0},
        "a9": {"unit": "knight", "seat": 1}, "a8": frozen, "b9": {**frozen, "unit": "swordman"},
        "f8": {"unit": "flag", "seat": 1}, "h8": {"unit": "trap", "seat": 1}}})
    assert st.current == 0, "player 2 had nothing to do"
    a9 = model().board.index["a9"]
    knight = model().by_id["knight"]
    token = st.redact(0)
    try:
        view = st.clone()
    finally:
        st.restore(token)
    rng = random.Random(3)
    for _ in range(30):
        sample = view.clone()
        sample.resample(0, rng)
        assert sample.board[a9][T_UNIT] == knight


def test_the_deal_passes_units_along_when_the_first_picks_leave_a_token_nothing(monkeypatch) -> None:
    """Three face-down tokens, three units, each token ruled out for a different one: picking a
    unit for each in turn can leave the last with none that fits, and the deal then passes units
    along (an augmenting path) instead of giving it a wrong one."""
    from engine.fantasy_draft import hidden

    m = model()
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "c1": {"unit": "wolf", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1, "revealed": True},
                              "c8": {"unit": "knight", "seat": 1}, "e8": {"unit": "wolf", "seat": 1},
                              "g8": {"unit": "trap", "seat": 1}}})
    b = m.board.index
    knight, wolf, trap = (m.by_id[u] for u in ("knight", "wolf", "trap"))
    ruled = {"c8": trap, "e8": knight, "g8": wolf}
    for lab, u in ruled.items():
        st.board[b[lab]][T_NOT] = 1 << u
    passed = []
    augment = hidden._augment
    monkeypatch.setattr(hidden, "_augment", lambda *a: passed.append(1) or augment(*a))
    rng = random.Random(5)
    for _ in range(40):
        sample = st.clone()
        sample.resample(0, rng)
        for lab, u in ruled.items():
            assert sample.board[b[lab]][T_UNIT] != u
    assert passed, "some deals needed units passed along"
    token = st.redact(0)
    try:
        assert all(st.board[b[lab]][T_UNIT] != u for lab, u in ruled.items()), "the stand-ins fit too"
    finally:
        st.restore(token)


def test_the_invariants_catch_a_fact_that_rules_out_the_true_unit() -> None:
    """Checked mode (every smoke game in 20, `--check`) tests what the state keeps of each token
    against its real unit: a unit ruled out, or more activations in a turn than it has."""
    st = situation({"board": {"a1": {"unit": "flag", "seat": 0}, "d3": {"unit": "golem", "seat": 0},
                              "k9": {"unit": "flag", "seat": 1}, "k8": {"unit": "wolf", "seat": 1}}})
    assert st.check_invariants() == []
    b = model().board.index
    st.board[b["k8"]][T_NOT] = 1 << model().by_id["wolf"]
    st.board[b["d3"]][T_MOVED] = 2  # a Golem has one action
    problems = st.check_invariants()
    assert "k8: what was seen of the token rules out its Wolf" in problems
    assert "d3: what was seen of the token rules out its Golem" in problems
