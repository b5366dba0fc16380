"""Starting a game: the rulebook's setup, or a scenario's described situation."""
from __future__ import annotations

from typing import Any, Iterator, Union

from engine.core.api import CHANCE, Decision
from engine.core.scenario import SetupError
from engine.hordes_and_heroes.areas import ALL, HORDE, LIMITS
from engine.hordes_and_heroes.state import HIDDEN_L1, HIDDEN_L2, HHState, PartyHero, Stack

STACK_NAMES = "ABCDEFGHIJ"
Path = tuple[Union[str, int], ...]
"""Where in a scenario's setup a value lies (keys and list indexes), for SetupError."""
PHASES = ("action", "dice", "attack", "horde", "end")


def standard_setup(st: HHState) -> Iterator[Decision]:
    """Five stacks, each a boss hidden among level 2 monsters under level 1 monsters; tops face
    up; hands of five; a random start player, and the last-player token on their right."""
    m = st.model
    stacks = sum(m.monsters[i].quantity for i in st.boss_ids)
    l1 = sum(st.pool[i] for i in st.l1_ids)
    l2 = sum(st.pool[i] for i in st.l2_ids)
    for k in range(stacks):
        n1 = l1 // stacks + (1 if k < l1 % stacks else 0)
        n2 = l2 // stacks + (1 if k < l2 % stacks else 0)
        st.line.append(Stack(f"stack {STACK_NAMES[k]}", [HIDDEN_L2] * (n2 + 1) + [HIDDEN_L1] * n1, False, True))
    st.dirty |= HORDE
    for s in st.line:
        yield from st.reveal(s)
    for seat in range(st.n):
        yield from st.draw_many(seat, m.rules.starting_hand)
    a = yield Decision(CHANCE, "Choose the start player", tuple(f"Player {i + 1}" for i in range(st.n)))
    st.start_player = st.current = a
    st.dirty |= LIMITS
    st.last_player = (a - 1) % st.n


def setup_number(sit: dict, key: str, default: int, lo: int, hi: int | None = None, what: str = "setup",
                 at: Path = ()) -> int:
    """A whole-number setup value within [lo, hi]; a scenario with anything else is refused, so
    it can never start from a table the rules could not reach (a seat that does not exist, a
    negative shield, a boolean or a string standing in for a number). `at`: where `sit` lies in
    the setup (for SetupError)."""
    value = sit.get(key, default)
    if value.__class__ is not int or value < lo or (hi is not None and value > hi):
        span = f"from {lo} to {hi}" if hi is not None else f"{lo} or more"
        raise SetupError(f"{what} {key} must be a whole number {span}, not {value!r}", (*at, key))
    return value


def check_options(options: dict) -> dict:
    """The options a game starts with: `max_turns` (a whole number, 1 or more) and nothing else.
    The game has no variants, so naming one is refused instead of playing the plain game under
    a variant's name; a log's options that the rules would misread are refused the same way."""
    unknown = sorted(set(options) - {"max_turns", "variants"})
    if unknown:  # the paths say where a scenario holds the option
        raise SetupError(f"hordes-and-heroes has no option {', '.join(map(repr, unknown))} (it knows max_turns)",
                         ("options", unknown[0]))
    if options.get("variants"):
        raise SetupError(f"hordes-and-heroes has no variants (asked for: {', '.join(map(str, options['variants']))})",
                         ("options", "variants"))
    if "max_turns" in options:
        setup_number(options, "max_turns", 300, 1, what="option", at=("options",))
    return options


def setup_flag(entry: dict, key: str, at: Path = ()) -> bool:
    """A yes/no setup value: only true or false. Anything else is refused rather than read as
    truthy (the string "false" would otherwise make a hero active)."""
    value = entry.get(key, False)
    if value.__class__ is not bool:
        raise SetupError(f"setup {key} must be true or false, not {value!r}", (*at, key))
    return value


def _find(st: HHState, space: str, ident: Any, at: Path) -> int:
    """The index of card `ident` in `space`, or a SetupError at `at` saying there is none."""
    try:
        return st.model.find(space, str(ident))
    except KeyError as exc:
        raise SetupError(str(exc.args[0]), at) from None


def _ids(st: HHState, space: str, items: Any, at: Path) -> list[tuple[int, Path]]:
    """The cards of a setup list with where each is written."""
    if items is not None and not isinstance(items, list):
        raise SetupError(f"setup {at[-1]} must be a list of card ids, not {items!r}", at)
    return [(_find(st, space, x, (*at, i)), (*at, i)) for i, x in enumerate(items or [])]


def apply_situation(st: HHState, sit: dict) -> str:
    """Lay out a scenario's situation (see docs/scenarios.md); return the phase to start in."""
    m = st.model
    n = st.n
    unknown = set(sit) - {"current", "last_player", "doom", "turn", "phase", "players", "stacks", "hero_deck",
                          "discard", "town", "treasures", "shield", "steam", "bonus_strength", "rerolls",
                          "extra_dice", "set_aside", "max_turns"}
    if unknown:
        raise SetupError(f"unknown setup keys: {', '.join(sorted(map(str, unknown)))}", (min(map(str, unknown)),))
    deck_left = [c.quantity for c in m.deck]
    tre_left = [t.quantity for t in m.treasures]
    mon_left = [x.quantity for x in m.monsters]
    town_left = [t.quantity for t in m.towns]

    def take(left: list[int], i: int, what: str, at: Path) -> None:
        if left[i] <= 0:
            raise SetupError(f"more copies of {what} than the game has", at)
        left[i] -= 1

    players = sit.get("players") or []
    if not isinstance(players, list):
        raise SetupError(f"setup players must be a list, one entry per seat, not {players!r}", ("players",))
    if len(players) > n:
        raise SetupError(f"{len(players)} players described for a {n}-player game", ("players",))
    for seat, p in enumerate(players):
        at: Path = ("players", seat)
        if not isinstance(p, dict):
            raise SetupError(f"setup players: seat {seat} must be a mapping (hand, party, victory), not {p!r}", at)
        for c, where in _ids(st, "deck", p.get("hand"), (*at, "hand")):
            take(deck_left, c, m.deck[c].id, where)
            st.hands[seat].append(c)
        for i, entry in enumerate(p.get("party") or []):
            where = (*at, "party", i)
            e = entry if isinstance(entry, dict) else {"hero": entry}
            if "hero" not in e:
                raise SetupError(f"setup players: a party entry of seat {seat} names no hero: {entry!r}", where)
            c = _find(st, "deck", e["hero"], (*where, "hero") if isinstance(entry, dict) else where)
            take(deck_left, c, m.deck[c].id, where)
            h = PartyHero(c)
            if e.get("treasure"):
                h.treasure = _find(st, "treasure", e["treasure"], (*where, "treasure"))
                h.tlevel = setup_number(e, "level", 1, 1, 2, at=where)
                take(tre_left, h.treasure, e["treasure"], (*where, "treasure"))
            h.active = setup_flag(e, "active", where)
            st.parties[seat].append(h)
        for i, ident in enumerate(p.get("victory") or []):
            space, idx = m.by_id.get(str(ident), ("", -1))
            if space == "monster":
                take(mon_left, idx, str(ident), (*at, "victory", i))
                st.victory[seat].append(idx)
            elif space == "town":
                take(town_left, idx, str(ident), (*at, "victory", i))
                st.towns_won[seat].append(idx)
            else:
                raise SetupError(f"'{ident}' is neither a monster nor a town card", (*at, "victory", i))
    for c, where in _ids(st, "monster", sit.get("set_aside"), ("set_aside",)):
        take(mon_left, c, m.monsters[c].id, where)
        st.set_aside.append(c)
    for k, entry in enumerate(sit.get("stacks") or []):
        e = entry if isinstance(entry, dict) else {"cards": entry}
        cards = _ids(st, "monster", e.get("cards"), ("stacks", k, "cards") if isinstance(entry, dict) else ("stacks", k))
        for c, where in cards:
            take(mon_left, c, m.monsters[c].id, where)
        if not cards:
            continue
        default = f"stack {STACK_NAMES[k]}" if k < len(STACK_NAMES) else f"stack {k + 1}"
        name = str(e.get("name", default))
        if any(s.name == name for s in st.line):   # two stacks of one name make two options of one label
            raise SetupError(f"setup stacks: two stacks are called '{name}'", ("stacks", k))
        st.line.append(Stack(name, [c for c, _ in reversed(cards)], not setup_flag(e, "face_down", ("stacks", k)),
                             False))
    st.pool = [0] * len(m.monsters)
    st.monster_box = mon_left
    discard = _ids(st, "deck", sit.get("discard"), ("discard",))
    for c, where in discard:
        take(deck_left, c, m.deck[c].id, where)
        st.discard_counts[c] += 1
    st.discard_size = len(discard)
    if "hero_deck" in sit:
        st.deck_counts = [0] * len(m.deck)
        for c, where in _ids(st, "deck", sit["hero_deck"], ("hero_deck",)):
            take(deck_left, c, m.deck[c].id, where)
            st.deck_counts[c] += 1
        st.deck_box = deck_left
    else:
        st.deck_counts = deck_left
        st.deck_box = [0] * len(m.deck)
    st.deck_size = sum(st.deck_counts)
    if "town" in sit:
        st.town_counts = [0] * len(m.towns)
        for t, where in _ids(st, "town", sit["town"], ("town",)):
            take(town_left, t, m.towns[t].id, where)
            st.town_counts[t] += 1
        st.town_box = town_left
    else:
        st.town_counts = town_left
    if "treasures" in sit:
        st.treasure_counts = [0] * len(m.treasures)
        for t, where in _ids(st, "treasure", sit["treasures"], ("treasures",)):
            take(tre_left, t, m.treasures[t].id, where)
            st.treasure_counts[t] += 1
        st.box.extend(i for i, c in enumerate(tre_left) for _ in range(c))
    else:
        st.treasure_counts = tre_left
    st.current = setup_number(sit, "current", 0, 0, n - 1)
    st.last_player = setup_number(sit, "last_player", n - 1, 0, n - 1)
    st.doom = setup_number(sit, "doom", 0, 0, m.doom_tokens)
    st.final = st.doom >= m.doom_tokens
    st.turns = setup_number(sit, "turn", 0, 0)
    st.shield = setup_number(sit, "shield", 0, 0)
    st.steam = setup_number(sit, "steam", 0, 0)
    st.bonus_strength = setup_number(sit, "bonus_strength", 0, 0)
    st.rerolls += setup_number(sit, "rerolls", 0, 0)
    st.start_dice += setup_number(sit, "extra_dice", 0, 0, m.dice - st.start_dice)
    st.dirty = ALL
    phase = str(sit.get("phase", "action"))
    if phase not in PHASES:
        raise SetupError(f"phase must be one of {', '.join(PHASES)}", ("phase",))
    problems = st.check_all_invariants()
    if problems:   # e.g. six heroes in a party, or an active hero outside the current turn
        raise ValueError(f"the setup breaks the rules: {'; '.join(problems)}")
    return phase
