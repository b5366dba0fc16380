"""Steps 1 to 5 of Dice Battles read a second time, straight from the rulebook and the readings
in docs/games/dice-battles.md, and held against the engine in whole games (heuristic and random
bots, predefined and custom armies): the orders and reinforcements offered, which orders are
activated and how many dice each rolls, the regroupings, every die's tile and marks, every check
of defeated units.

The reading here shares no code with the engine: the die faces and their arrows are the table of
the battle mat written out, armour is the rulebook's three sentences, the fleeing zone a list that
is pushed right. Where the two disagree, one of them misreads the rulebook."""
from __future__ import annotations

import pytest

from engine.core.driver import derive_seed, play_game
from engine.dice_battles import SPEC
from engine.dice_battles.state import DBState
from test_db_support import model

FL, FC, FR, RL, RR, HERO = range(6)
# face -> (front space it points at, the space the arrow printed there points at, the space behind)
FACES = {1: (FL, None, RL), 2: (FL, FC, RL), 3: (FC, FL, RL), 4: (FC, FR, RR), 5: (FR, FC, RR), 6: (FR, None, RR)}
COLOURS = ("normal", "poisoned", "crushing")
ARMOURS = ("none", "normal", "golden")
FLEEING_SPACES = 3


def target(battalion: list[int], face: int) -> int:
    """The tile a die showing `face` is assigned to (step 4)."""
    front, arrow, behind = FACES[face]
    if battalion[front] >= 0:
        return battalion[front]
    if arrow is not None and battalion[arrow] >= 0:
        return battalion[arrow]
    return battalion[behind] if battalion[behind] >= 0 else battalion[HERO]


def marks_after_a_die(armour: str, colour: str, nth: int, blocked: bool, ignore: bool, morale: int,
                      marks: tuple[int, int, int]) -> tuple[tuple[int, int, int], bool]:
    """(wounds, poison, dice beyond morale) after the nth die of the round lands, and whether armour
    now holds a die: armour first (normal: the first yellow die, the second green one; golden: the
    first die of any colour; once a round), then a first green die becomes poison, else a wound."""
    wounds, poison, excess = marks
    if not ignore and not blocked and (
            (armour == "normal" and (colour, nth) in (("normal", 1), ("poisoned", 2)))
            or (armour == "golden" and nth == 1)):
        return marks, True
    if colour == "poisoned" and not poison:
        return (wounds, 1, excess), blocked
    return ((wounds + 1, poison, excess) if wounds < morale else (wounds, poison, excess + 1)), blocked


def step_5(st: DBState) -> dict[int, tuple[list[int], list[int]]]:
    """Per player, the fleeing zone (first space first) and the tiles that leave the game."""
    units = model().units
    last = [st.board[0][b][HERO] >= 0 and st.board[1][b][HERO] >= 0 for b in range(3)].count(True) == 1
    out = {}
    for p in (0, 1):
        zone, gone, sent = list(st.fleeing[p]), [], []
        for b in range(3):
            bat = list(st.board[p][b])

            def covered(uid: int) -> bool:
                return st.wounds[uid] >= units[st.utype[uid]].morale

            for s in range(HERO):
                uid = bat[s]
                if uid >= 0 and covered(uid):
                    bat[s] = -1
                    if last or st.wounds[uid] + st.poison[uid] + st.excess[uid] >= 4:
                        gone.append(uid)
                    else:
                        sent.append((units[st.utype[uid]].level, b, s, uid))
            if bat[HERO] >= 0 and covered(bat[HERO]):      # the hero last: it leaves, its units flee
                gone.append(bat[HERO])
                sent += [(units[st.utype[uid]].level, b, s, uid) for s, uid in enumerate(bat[:HERO]) if uid >= 0]
        for *_, uid in sorted(sent):                       # lowest level first (online edition)
            zone.insert(0, uid)
            if len(zone) > FLEEING_SPACES:
                gone.append(zone.pop())
        out[p] = (zone, sorted(gone))
    return out


def test_the_engine_assigns_every_die_and_checks_every_defeat_as_the_rulebook_reads(monkeypatch) -> None:
    units = model().units
    seen = {"dice": 0, "blocked": 0, "poison": 0, "excess": 0, "checks": 0, "gone": 0}
    wrong: list[tuple] = []
    assign, check = DBState._assign_die, DBState._check_defeated

    def assign_die(st: DBState, action: int) -> bool:
        p, b, _, colour, ignore = st.queue[0]
        bat = st.board[1 - p][b]
        uid = target(bat, action + 1)
        before = {t: (st.wounds[t], st.poison[t], st.excess[t], st.blocked[t]) for t in bat if t >= 0}
        u = units[st.utype[uid]]
        expected, blocked = marks_after_a_die(ARMOURS[u.armour], COLOURS[colour], st.hits[uid] + 1,
                                              bool(st.blocked[uid]), bool(ignore), u.morale, before[uid][:3])
        more = assign(st, action)
        after = {t: (st.wounds[t], st.poison[t], st.excess[t], st.blocked[t]) for t in bat if t >= 0}
        want = {**before, uid: (*expected, int(blocked))}
        if after != want:
            wrong.append(("die", action + 1, u.id, COLOURS[colour], before, after, want))
        seen["dice"] += 1
        seen["blocked"] += blocked and not before[uid][3]
        seen["poison"] += expected[1] > before[uid][1]
        seen["excess"] += expected[2] > before[uid][2]
        return more

    def check_defeated(st: DBState) -> None:
        want = step_5(st)
        gone_before = [set(g) for g in st.gone]
        check(st)
        for p in (0, 1):
            got = (list(st.fleeing[p]), sorted(set(st.gone[p]) - gone_before[p]))
            if got != want[p]:
                wrong.append(("step 5", p, got, want[p]))
            seen["gone"] += len(got[1])
        seen["checks"] += 1

    monkeypatch.setattr(DBState, "_assign_die", assign_die)
    monkeypatch.setattr(DBState, "_check_defeated", check_defeated)
    for game in range(40):
        for bots in (["heuristic"], ["random"]):
            rec = play_game(SPEC, model(), 2, derive_seed(4242, game), bots, {"custom_share": 0.5})
            assert not rec.error, rec.error
    assert wrong == [], wrong[:5]
    # every part of the reading was put to the test, many times
    assert seen["dice"] > 10_000 and seen["blocked"] > 100 and seen["poison"] > 100 and seen["excess"] > 100, seen
    assert seen["checks"] > 1000 and seen["gone"] > 500, seen


@pytest.mark.parametrize("face, battalion, tile", [
    (1, [10, 11, 12, 13, 14, 15], 10), (2, [-1, 11, 12, 13, 14, 15], 11), (2, [-1, -1, 12, 13, 14, 15], 13),
    (3, [10, -1, 12, 13, 14, 15], 10), (4, [10, -1, -1, 13, -1, 15], 15), (6, [-1, -1, -1, -1, -1, 15], 15),
])
def test_the_reading_itself_follows_the_faces_and_arrows_of_the_mat(face, battalion, tile) -> None:
    """The second reading is checked by hand on a few battalions, so that the comparison above
    holds the engine to something."""
    assert target(battalion, face) == tile


def step_3(st: DBState) -> tuple[list[list[bool]], list[list[int]]]:
    """Which battalion orders are activated and how many dice each rolls, read from the rulebook
    (v2.0 powers) with the content's cards as data: after the regroupings, before any die."""
    from test_db_support import content
    cards = content()["order-card"]
    tiles = {u["id"]: u for u in content()["unit"]}
    card_of = {c["unit"]: c for c in cards}
    units = model().units
    ident = [u.id for u in units]

    def unit_at(p: int, b: int) -> list[str]:
        return [ident[st.utype[uid]] for uid in st.board[p][b] if uid >= 0]

    heroes_stand = [st.board[0][b][HERO] >= 0 and st.board[1][b][HERO] >= 0 for b in range(3)]
    played = [[cards[st.orders[p][b]] if st.orders[p][b] >= 0 else None for b in range(3)] for p in (0, 1)]
    on = [[False] * 3 for _ in (0, 1)]
    for p in (0, 1):
        for b in range(3):
            c = played[p][b]
            if c is None:
                continue
            hero_card = c["level"] == "hero"
            if st.board[p][b][HERO] < 0:
                continue                                   # defeated battalion
            if not heroes_stand[b]:
                on[p][b] = hero_card                       # idle battalion: hero cards only
            else:
                near = [b] + ([b - 1, b + 1] if hero_card else [])
                on[p][b] = any(c["unit"] in unit_at(p, n) for n in near if 0 <= n < 3)
    dice = [[0] * 3 for _ in (0, 1)]
    for p in (0, 1):
        for b in range(3):
            c, o = played[p][b], played[1 - p][b]
            if not (on[p][b] and heroes_stand[b]) or not c["attack"]["dice"]:
                continue
            opp = o if on[1 - p][b] else None
            kinds = lambda card: [e["kind"] for e in card.get("effects", [])]   # noqa: E731
            mine_cancelled = opp is not None and "cancel-powers" in kinds(opp)
            theirs_cancelled = opp is not None and "cancel-powers" in kinds(c)
            n = c["attack"]["dice"] + (1 if unit_at(p, b).count(c["unit"]) > 1 else 0)
            for e in ([] if mine_cancelled else c.get("effects", [])):
                if e["kind"] == "extra-dice":
                    if ("vs-class" not in e or (opp is not None and opp["class"] in e["vs-class"])) and \
                            unit_at(p, b).count(c["unit"]) >= e.get("min-matching", 0):
                        n += e["amount"]
                elif e["kind"] == "dice-per-unit":
                    pool = unit_at(p, b) if "battalion" in e["zones"] else []
                    pool += [ident[st.utype[u]] for u in st.reinf[p]] if "reinforcements" in e["zones"] else []
                    pool += [ident[st.utype[u]] for u in st.fleeing[p]] if "fleeing" in e["zones"] else []
                    n += sum(1 for u in pool if tiles[u]["folk"] in e["folk"] and u not in e.get("except-units", [])
                             and card_of[u]["class"] not in e.get("except-class", []))
            if opp is not None and not theirs_cancelled:
                n -= sum(e["amount"] for e in opp.get("effects", [])
                         if e["kind"] == "remove-dice" and c["class"] in e["classes"])
            dice[p][b] = max(0, n)
    return on, dice


def test_the_engine_activates_orders_and_counts_their_dice_as_the_rulebook_reads(monkeypatch) -> None:
    wrong: list[tuple] = []
    seen = {"rounds": 0, "activated": 0, "discarded": 0, "dice": 0}
    activate = DBState._activate

    def checked(st: DBState) -> None:
        want_on, want_dice = step_3(st)
        activate(st)
        got_on = [list(st.activated[p][:3]) for p in (0, 1)]
        if got_on != want_on or st.dice != want_dice:
            wrong.append((st.round, got_on, want_on, st.dice, want_dice))
        seen["rounds"] += 1
        seen["activated"] += sum(map(sum, want_on))
        seen["discarded"] += sum(1 for p in (0, 1) for b in range(3) if st.orders[p][b] >= 0 and not want_on[p][b])
        seen["dice"] += sum(map(sum, want_dice))

    monkeypatch.setattr(DBState, "_activate", checked)
    for game in range(40):
        for bots in (["heuristic"], ["random"]):
            rec = play_game(SPEC, model(), 2, derive_seed(4343, game), bots, {"custom_share": 0.5})
            assert not rec.error, rec.error
    assert wrong == [], wrong[:5]
    assert seen["rounds"] > 1000 and seen["activated"] > 2000 and seen["discarded"] > 500, seen


def regroups_hold(st: DBState, before: dict) -> list[str]:
    """The regroupings of step 3, read from the rulebook (v2.0), hold between the reveal (`before`)
    and the dice: per seat, idle battalions in order and then the regrouping order; each moves,
    to reinforcements, tiles whose pictures the card shows (one per picture), as many as the
    zone has room for (none when it is full, or when no tile like the card stands on a
    battalion or in reinforcements); the fleeing tiles left keep their order; nothing else moves."""
    from test_db_support import content
    cards = content()["order-card"]
    ident = [u.id for u in model().units]
    out = []
    for p in (0, 1):
        reinf = list(before["reinf"][p])
        board = [list(b) for b in before["board"][p]]
        for slot in (0, 1, 2, 3):
            c = st.orders[p][slot]
            if slot < 3:
                source = before["board"][p][slot]
                moved = [u for u in source if u >= 0 and u not in st.board[p][slot]]
                idle = board[slot][HERO] >= 0 and before["board"][1 - p][slot][HERO] < 0
                regroups = c >= 0 and idle and cards[c]["level"] == "hero"
            else:
                source = before["fleeing"][p]
                moved = [u for u in source if u not in st.fleeing[p]]
                regroups = c >= 0
            if not regroups:
                if moved:
                    out.append(f"player {p + 1} slot {slot}: {len(moved)} tiles moved without a regrouping")
                continue
            card = cards[c]
            on_mat = [ident[st.utype[u]] for bat in board for u in bat if u >= 0] + [ident[st.utype[u]] for u in reinf]
            room = 3 - len(reinf)
            wanted = list(card["regroups"])
            movable = 0
            for u in source:
                if u >= 0 and ident[st.utype[u]] in wanted:
                    wanted.remove(ident[st.utype[u]])
                    movable += 1
            k = min(room, movable) if card["unit"] in on_mat and room > 0 else 0
            names = [ident[st.utype[u]] for u in moved]
            left = list(card["regroups"])
            fits = all(n in left and not left.remove(n) for n in names)
            if len(moved) != k or not fits or any(u not in st.reinf[p] for u in moved):
                out.append(f"player {p + 1} slot {slot}: {card['id']} moved {names}, expected {k} of {card['regroups']}")
            reinf += moved
            if slot < 3:
                board[slot] = [-1 if u in moved else u for u in board[slot]]
        kept = [u for u in before["fleeing"][p] if u in st.fleeing[p]]
        if kept != list(st.fleeing[p]) or sorted(reinf) != sorted(st.reinf[p]):
            out.append(f"player {p + 1}: fleeing {st.fleeing[p]} or reinforcements {st.reinf[p]} changed otherwise")
    return out


def test_the_engine_regroups_as_the_rulebook_reads(monkeypatch) -> None:
    wrong: list[str] = []
    seen = {"moved": 0, "cancelled": 0}
    reveal, activate = DBState._reveal, DBState._activate
    snapshots: dict[int, dict] = {}

    def revealed(st: DBState) -> None:
        reveal(st)
        snapshots[id(st)] = {"board": [[list(b) for b in side] for side in st.board],
                             "reinf": [list(r) for r in st.reinf], "fleeing": [list(f) for f in st.fleeing]}

    def activated(st: DBState) -> None:
        before = snapshots.pop(id(st))
        wrong.extend(regroups_hold(st, before))
        seen["moved"] += sum(len(st.reinf[p]) - len(before["reinf"][p]) for p in (0, 1))
        seen["cancelled"] += sum(1 for line in st.log if "regrouping with" in line and "cancelled" in line)
        activate(st)

    monkeypatch.setattr(DBState, "_reveal", revealed)
    monkeypatch.setattr(DBState, "_activate", activated)
    for game in range(40):
        for bots in (["heuristic"], ["random"]):
            rec = play_game(SPEC, model(), 2, derive_seed(4444, game), bots, {"custom_share": 0.5})
            assert not rec.error, rec.error
    assert wrong == [], wrong[:5]
    assert seen["moved"] > 300 and seen["cancelled"] > 50, seen


def test_the_engine_offers_the_orders_and_reinforcements_the_rulebook_allows() -> None:
    """Steps 1 and 2 read a second time, at every decision of whole games: an order decision offers
    each kind of card in hand once, and "No order" exactly where a hero of that battalion has
    fallen (the regrouping order is always optional); a reinforcement decision, asked only for a
    battalion whose own hero stands and that has an empty space a reserve tile could take, offers
    "No reinforcement" and each reserve unit not yet sent to each empty space its tile shows."""
    from test_db_support import content
    tiles = {u["id"]: u for u in content()["unit"]}
    ident = [u.id for u in model().units]
    spaces = ("fl", "fc", "fr", "rl", "rr")
    counted = {"order": 0, "reinforce": 0}
    for game in range(30):
        for bots in (["heuristic"], ["random"]):
            rec = play_game(SPEC, model(), 2, derive_seed(4545, game), bots, {"custom_share": 0.5})
            st = SPEC.new_state(model(), 2, {"custom_share": 0.5})
            for action in rec.actions:
                d = st.decision()
                if st.dkind == "order":
                    p, slot = d.player, st.slot
                    names = sorted({content()["order-card"][c]["name"] for c in st.hand[p]})
                    optional = slot == 3 or st.board[p][slot][HERO] < 0 or st.board[1 - p][slot][HERO] < 0
                    assert sorted(o.split(" (")[0] for o in d.options if not o.startswith("No ")) == names
                    assert [o for o in d.options if o.startswith("No ")] == (
                        (["No regrouping order"] if slot == 3 else ["No order"]) if optional else [])
                    counted["order"] += 1
                elif st.dkind == "reinforce":
                    p, b = d.player, st.slot
                    bat = st.board[p][b]
                    sent = [uid for _, uid, _ in st.pend[p]]
                    shows = {u: tiles[ident[st.utype[u]]]["positions"] for u in st.reinf[p]}
                    assert bat[HERO] >= 0 and any(bat[s] < 0 and spaces[s] in shows[u] for u in shows for s in range(5))
                    want = {f"{tiles[ident[st.utype[u]]]['name']} to {space}" for u in shows if u not in sent
                            for s, space in enumerate(spaces) if bat[s] < 0 and space in shows[u]}
                    got = {o for o in d.options[1:]}
                    short = {"front left": "fl", "front centre": "fc", "front right": "fr",
                             "second row left": "rl", "second row right": "rr"}
                    got = {o.rsplit(" to ", 1)[0] + " to " + short.get(o.rsplit(" to ", 1)[1], "?") for o in got}
                    assert d.options[0] == "No reinforcement" and got == want, (d.options, want)
                    counted["reinforce"] += 1
                st.apply(action)
    assert counted["order"] > 5000 and counted["reinforce"] > 500, counted
