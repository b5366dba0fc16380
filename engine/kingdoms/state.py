"""A game of Kingdoms: the board, the players' pieces and the round loop (engine.core.sequential).

The state is flat arrays indexed by space (owner, settlements, castles, towers, armies, horde,
hit counters) so the rules stay cheap; one player owns everything in a space (only an invading
stack in the player-versus-player variant shares it, until the Attack phase settles it). The turn
phases, battles, round segments and setup live in mixins next to this file.
"""
from __future__ import annotations

from typing import Any, Callable, Iterator, Sequence

from engine.core.api import CHANCE, Decision, GameResult
from engine.core.scenario import SetupError
from engine.core.sequential import SequentialState
from engine.kingdoms import invariants
from engine.kingdoms.areas import ALL, MOVED, PLAYERS, UNITS
from engine.kingdoms.battle import BattleMixin
from engine.kingdoms.board import make_board
from engine.kingdoms.effects import HANDLERS, RESEARCH_MENU, add_ability, build_mods
from engine.kingdoms.model import Ability, Effect, Model
from engine.kingdoms.mods import Mods, UnitMod
from engine.kingdoms.rounds import RoundMixin
from engine.kingdoms.turn import TurnMixin

VARIANT_KEYS = {"player-versus-player": "pvp", "horde-player": "horde_player",
                "advanced-tiles": "advanced_tiles", "wizard-towers": "wizard_towers",
                "physical-supply": "physical_supply"}
UNLIMITED = 1 << 20
SHORTAGE = {"hit": "shortage_hit_counters", "victory": "shortage_victory_tokens", "castle": "shortage_castles",
            "tower": "shortage_towers", "army": "shortage_armies", "settlement": "shortage_settlements",
            "chit": "shortage_resource_chits"}
MAX_EXCHANGES = 500
MAX_ACTIONS = 400_000


NUMBER_OPTIONS = ("rounds", "max_actions")


def variant_flags(options: dict) -> dict[str, bool]:
    """Variants by content id; the short python-style names and a `variants` list work too.

    An unknown option or variant, a flag that is not true or false, or a count that is not a whole
    number of 1 or more is refused: a misspelt variant would otherwise play the plain game under
    the variant's name."""
    shorts = {short: vid for vid, short in VARIANT_KEYS.items()}
    for key, value in options.items():  # the paths say where a scenario's setup holds the option
        if key in VARIANT_KEYS or key in shorts:
            if value.__class__ is not bool:
                raise SetupError(f"option {key} is true or false, not {value!r}", ("options", key))
        elif key in NUMBER_OPTIONS:
            if value.__class__ is not int or value < 1:
                raise SetupError(f"option {key} must be a whole number of 1 or more, not {value!r}", ("options", key))
        elif key != "variants":
            raise SetupError(f"kingdoms has no option {key!r} (it knows {', '.join(VARIANT_KEYS)}, "
                             f"variants, {', '.join(NUMBER_OPTIONS)})", ("options", key))
    listed = options.get("variants") or []
    if not isinstance(listed, (list, tuple)):
        raise SetupError(f"option variants is a list of variant ids, not {listed!r}", ("options", "variants"))
    for i, v in enumerate(listed):
        if v not in VARIANT_KEYS and v not in shorts:
            raise SetupError(f"kingdoms has no variant {v!r} (it has {', '.join(VARIANT_KEYS)})",
                             ("options", "variants", i))
    named = {shorts.get(v, v) for v in listed}
    return {vid: bool(options.get(vid) or options.get(short) or vid in named)
            for vid, short in VARIANT_KEYS.items()}


class KState(TurnMixin, BattleMixin, RoundMixin, SequentialState):
    """Build with `engine.kingdoms.new_state` (or `scenario_state` for a given situation)."""

    def __init__(self, model: Model, players: int, options: dict | None = None,
                 situation: dict | None = None) -> None:
        options = dict(options or {})
        m = self.model = model
        self.n = players
        self.options = options
        self.situation = situation
        self.variants = variant_flags(options)
        self.pvp = self.variants["player-versus-player"]
        # the counts of counters, tokens and pieces are the game's own, not the rulebook's: they
        # limit play only in the physical-supply variant; running short is counted either way
        self.limited = self.variants["physical-supply"]
        if self.variants["horde-player"] and players < 2:
            raise ValueError("the horde-player variant needs at least 2 players: the last seat plays the hordes")
        self.horde_seat = players - 1 if self.variants["horde-player"] else -1
        self.kseats = [p for p in range(players) if p != self.horde_seat]
        self.rounds = int(options.get("rounds", m.rounds))
        self.max_actions = int(options.get("max_actions", MAX_ACTIONS))
        b = self.board = m.cache.get("board") or m.cache.setdefault("board", make_board(m.cols, m.rows))
        N = b.size
        nres = len(m.resources)
        self.gold = m.resources.index("gold") if "gold" in m.resources else nres - 1
        # the board
        self.tile = [-1] * N
        self.adv = [-1] * N
        self.owner = [-1] * N
        self.sett = [0] * N
        self.cast = [0] * N
        self.tower = [0] * N
        self.arm = [0] * N
        self.moved = [0] * N
        self.horde = [-1] * N
        self.hits = [0] * N
        self.castle_dmg = [0] * N     # hits taken by the castle now under attack (one battle)
        self.inv = [0] * N            # invading armies (player versus player), owned by inv_owner
        self.inv_owner = [-1] * N
        self.claimed = [False] * N    # a tile's first-settlement bonus is taken
        # tile properties (filled once the tiles are down)
        self.space_mods: list[list[UnitMod]] = [[] for _ in range(N)]
        self.space_horde: list[list[tuple[int, int, int]]] = [[] for _ in range(N)]
        self.spawn_hits = [0] * N
        self.no_enter = [False] * N
        self.no_build = [False] * N
        self.no_spawn = [False] * N
        self.stop_here = [False] * N
        self.plains_army = [0] * N
        self.plains_horde = [0] * N
        self.horde_rules: list[tuple[int, tuple[int, ...] | None, int, int]] = []
        for e in m.horde_rules:
            HANDLERS[e.kind].rule(self, e)
        # players
        self.res = [[0] * nres for _ in range(players)]
        self.kingdom = [-1] * players
        self.kingdoms_held: list[list[int]] = [[] for _ in range(players)]
        self.abil: list[list[int]] = [[] for _ in range(players)]
        self.has = [[False] * len(m.abilities) for _ in range(players)]
        self.spent = [[False] * len(m.abilities) for _ in range(players)]
        self.uses = [[0] * len(m.abilities) for _ in range(players)]
        self.mods: list[Mods] = [build_mods(self, []) for _ in range(players)]
        self.vt = [0] * players
        self.n_arm = [0] * players
        self.n_set = [0] * players
        self.n_cast = [0] * players
        self.n_tow = [0] * players
        self.destroyed_by_hordes = [0] * players   # for the horde player's score
        self.out = [False] * players              # chose not to start over
        self.cap_broken = [False] * players
        # supplies
        self.pool = [True] * len(m.hordes)
        self.hit_free = m.supply["hit"]
        self.vt_free = m.supply["victory"]
        self.castle_free = m.supply["castle"]
        self.tower_free = m.supply["tower"]
        self.chit_free = [m.supply.get("chit-" + r, 40) for r in m.resources]
        # round and turn
        self.round = 1
        self.current = -1
        self.order: list[int] = list(self.kseats)
        self.phase = "setup"
        self.phase_builds = ""
        self.builds_left = 0
        self.bonus_builds = 0
        self.trained = [0] * N
        self.haste = [0] * N
        self.holy = [False] * N
        self.dip = [0] * N
        self.frozen: list[int] = []
        self.controlled: dict[int, tuple[int, int]] = {}
        self.stack_marks: list[tuple[int, int]] = []
        self.stack_bonus: list[tuple[int, UnitMod, str]] = []
        self.lost_armies = [0] * players
        self.lost_fort = [False] * players
        self.fought: list[int] = []
        self.researched = 0
        segs = list(m.segments.values())
        self.horde_seg = next((s for s in segs if "target-priority" in s), {})
        self.target_rank: dict[str, int] = {}     # target kind -> its place in the priority list
        for i, kind in enumerate(self.horde_seg.get("target-priority") or []):
            self.target_rank.setdefault(kind, i)
        self.raid_rules = next((s for s in segs if "hit-allocation" in s), {})
        self.end_reason = ""
        # usage and statistics
        self.use_kingdom = [[0] * players for _ in m.kingdoms]
        self.use_picked = [[0] * players for _ in m.abilities]
        self.use_used = [[0] * players for _ in m.abilities]
        self.use_horde = [[0] * players for _ in m.hordes]
        self.use_fought = [[0] * players for _ in m.hordes]   # a seat chose to fight it
        self.use_event = {r: [0] * players for r in m.events}
        self.use_settled = [[0] * players for _ in m.advanced]   # a seat built a settlement on the tile
        self.use_tile = [[0] * players for _ in m.advanced]      # the tile's own rule worked for a seat
        self.stats: dict[str, float] = {k: 0 for k in (
            "hordes_destroyed", "hordes_spawned", "spawns_blocked", "settlements_lost", "armies_lost",
            "castles_lost", "towers_lost", "battles", "raids", "battles_stalled", "restarts",
            "settlements_built", "castles_built", "towers_built", "armies_trained", "abilities_researched",
            "abilities_bought", "resources_discarded", "long_range_hits", "horde_regenerated", "trades",
            "invasions")}
        for key in SHORTAGE.values():
            self.stats[key] = 0
        self.dkind = ""
        self.moves: list = []
        self._rolls: dict[str, Decision] = {}
        self.dirty = ALL    # areas changed since the invariants last held (areas.py)
        super().__init__()

    # Shared by clones instead of copied at each checkpoint: caches, and the board's fixed
    # properties, which setup writes (tiles and their standing effects) before the first
    # checkpoint and nothing changes afterwards.
    SHARED = SequentialState.SHARED | {
        "_rolls", "target_rank", "board", "variants", "kseats", "horde_seg", "raid_rules",
        "tile", "adv", "space_mods", "space_horde", "spawn_hits", "no_enter", "no_build", "no_spawn",
        "stop_here", "plains_army", "plains_horde", "horde_rules"}

    def _fresh(self) -> "KState":
        return KState(self.model, self.n, self.options, self.situation)

    # ------------------------------------------------------------------ decisions
    def d10(self, prompt: str) -> Decision:
        return self.die(prompt, 10)

    def die(self, prompt: str, sides: int) -> Decision:
        """A die roll's decision; built once per prompt and shared (it holds no game state)."""
        d = self._rolls.get(prompt)
        if d is None:
            d = self._rolls[prompt] = Decision(CHANCE, prompt, tuple(str(i) for i in range(1, sides + 1)))
        return d

    def chance(self, prompt: str, n: int, labels: Callable[[], Sequence[str]]) -> Decision:
        """A uniform chance decision among `n` outcomes; its labels are built only if read."""
        self.dkind = "chance"
        return Decision(CHANCE, prompt, n=n, labels=labels)

    def space_names(self, spaces: Sequence[int], *extra: str) -> Callable[[], list[str]]:
        """Labels for a choice among spaces (then `extra` options), built only when read.

        The spaces are copied now: the caller may change its list after the decision."""
        spaces = tuple(spaces)
        lab = self.board.labels
        return lambda: [lab[s] for s in spaces] + list(extra)

    def roll_sum(self, dice: int, sides: int, seat: int = -1) -> Iterator[Decision]:
        """The total of `dice` dice; `seat` may change each die with Divination or Oracles."""
        total = 0
        d = self.die(f"Roll d{sides}", sides)
        for _ in range(dice):
            v = (yield d) + 1
            if seat >= 0:
                v = yield from self.adjust_any(seat, v, sides, "amount")
            total += v
        return total

    def seat_name(self, p: int) -> str:
        return f"Player {p + 1}"

    # ------------------------------------------------------------------ resources and tokens
    def from_supply(self, kind: str, free: int, want: int) -> int:
        """How many of `want` pieces of a shared supply (or a colour set) the rules hand out.

        The whole amount unless the physical-supply variant is on and `free` is short; a
        shortage is counted in the stats in both cases, so a designer sees when the printed
        counts would run out."""
        if want <= 0:
            return 0
        if want > free:
            self.stats[SHORTAGE[kind]] += want - max(free, 0)
            if self.limited:
                return max(free, 0)
        return want

    def colour_room(self, p: int, unit: str) -> int:
        """Pieces of `p`'s colour still in hand (unlimited unless the supply variant is on)."""
        if not self.limited:
            return UNLIMITED
        have = self.n_arm[p] if unit == "army" else self.n_set[p]
        return self.model.colour_supply[unit] - have

    def gain(self, p: int, r: int, n: int) -> int:
        n = self.from_supply("chit", self.chit_free[r], n)
        if n > 0:
            self.res[p][r] += n
            self.chit_free[r] -= n
            self.dirty |= PLAYERS
        return max(n, 0)

    def spend(self, p: int, r: int, n: int) -> None:
        self.res[p][r] -= n
        self.chit_free[r] += n
        self.dirty |= PLAYERS

    def can_pay(self, p: int, cost: tuple[int, ...] | list[int]) -> bool:
        res = self.res[p]
        for i, c in enumerate(cost):
            if c > res[i]:
                return False
        return True

    def pay(self, p: int, cost: tuple[int, ...] | list[int], to: int = -1) -> None:
        res = self.res[p]
        self.dirty |= PLAYERS
        for i, c in enumerate(cost):
            if c:
                res[i] -= c
                if to >= 0:
                    self.res[to][i] += c
                else:
                    self.chit_free[i] += c

    def take_victory(self, p: int, n: int) -> None:
        n = self.from_supply("victory", self.vt_free, n)
        self.vt[p] += n
        self.vt_free -= n
        self.dirty |= PLAYERS

    def cost_of(self, p: int, structure: str) -> tuple[int, ...]:
        return self.mods[p].costs[structure]

    # ------------------------------------------------------------------ abilities
    def has_cost(self, a: Ability) -> bool:
        return any(a.cost) or bool(a.alt_costs)

    def uses_left(self, p: int, a: Ability) -> int:
        if a.timing == "one-time":
            return 0 if self.spent[p][a.idx] else 1
        used = self.uses[p][a.idx]
        mods = self.mods[p]
        if a.spell or self.has_cost(a):
            cap = mods.spell_uses if a.spell else mods.paid_uses
            if a.max_per_turn and a.max_per_turn < cap:
                cap = a.max_per_turn    # a printed "per turn" cap outranks Wizardry and Leadership
            return cap - used
        if a.timing == "conversion":
            cap = max((int(e.get("max-per-round", 1)) for e in a.effects if e.kind == "convert"), default=1)
            return cap - used
        if a.timing == "once-per-round":
            return 1 - used
        return 1 << 20

    def cost_variants(self, p: int, a: Ability) -> list[tuple[int, ...]]:
        return [c for c in (a.cost,) + a.alt_costs if self.can_pay(p, c)]

    def note_use(self, p: int, a: Ability) -> None:
        self.uses[p][a.idx] += 1
        self.use_used[a.idx][p] += 1
        if a.timing == "one-time":
            self.spent[p][a.idx] = True

    def grant_ability(self, p: int, ai: int) -> None:
        if self.has[p][ai]:
            return
        self.has[p][ai] = True
        self.abil[p].append(ai)
        self.use_picked[ai][p] += 1
        if self.model.abilities[ai].timing in ("permanent", "any-time"):
            self.use_used[ai][p] += 1      # a standing bonus is in use as long as it is held
        mods = self.mods[p]
        limits = (mods.stack_limit, mods.settlements_per_space, mods.castles_per_space)
        add_ability(self, mods, ai)
        if limits != (mods.stack_limit, mods.settlements_per_space, mods.castles_per_space):
            self.dirty |= UNITS     # the unit limits per space are part of what the invariants read

    def pick_ability(self, p: int, prompt: str) -> Iterator[Decision]:
        left = [i for i, held in enumerate(self.has[p]) if not held]
        if not left:
            return
        names = self.model.abilities
        k = yield self.ask(p, "ability", prompt, lambda: [names[i].name for i in left], left)
        self.grant_ability(p, left[k])
        a = names[left[k]]
        if a.timing == "one-time" and not self.has_cost(a) and a.effects and all(
                e.kind == "gain-victory-tokens" and e.get("trigger") == "now" for e in a.effects):
            # nothing to choose and no reason to wait (Mythic Saga): the tokens come at once, so
            # an ability researched in the last round still scores
            for e in a.effects:
                self.take_victory(p, int(e.get("amount")))
            self.note_use(p, a)

    def ability_options(self, p: int, where: str) -> tuple[list[str], list[tuple]]:
        """Menu entries for the abilities `p` may use in this phase menu right now."""
        labels: list[str] = []
        moves: list[tuple] = []
        menu = self.mods[p].menus.get(where)
        if not menu:
            return labels, moves
        m = self.model
        for ai in menu:
            a = m.abilities[ai]
            if self.uses_left(p, a) <= 0:
                continue
            variants = self.cost_variants(p, a)
            if not variants:
                continue
            for e in a.effects:
                h = HANDLERS[e.kind]
                home = h.menu(a, e)
                if home is None or (home != where and not (where == RESEARCH_MENU and a.timing == "one-time")):
                    continue
                for label, payload in h.targets(self, p, a, e):
                    for cv in variants:
                        text = f"{a.name}: {label}" if label else a.name
                        if len(variants) > 1 or a.alt_costs:
                            text += " (pay " + ", ".join(f"{c} {m.resources[i]}" for i, c in enumerate(cv) if c) + ")"
                        labels.append(text)
                        moves.append(("ability", ai, e, payload, cv))
                break
        return labels, moves

    def use_ability(self, p: int, move: tuple) -> Iterator[Decision]:
        _, ai, e, payload, cv = move
        a = self.model.abilities[ai]
        to = payload if a.cost_to_opponent and isinstance(payload, int) and 0 <= payload < self.n else -1
        self.pay(p, cv, to)
        self.note_use(p, a)
        yield from HANDLERS[e.kind].use(self, p, a, e, payload)

    def happen(self, p: int, effects: tuple[Effect, ...], space: int = -1) -> Iterator[Decision]:
        for e in effects:
            yield from HANDLERS[e.kind].happen(self, p, e, space)

    # ------------------------------------------------------------------ board queries
    def horde_spaces(self) -> list[int]:
        return [i for i, h in enumerate(self.horde) if h >= 0]

    def own_spaces(self, p: int) -> list[int]:
        return [i for i, o in enumerate(self.owner) if o == p]

    def own_army_spaces(self, p: int) -> list[int]:
        a = self.arm
        return [i for i, o in enumerate(self.owner) if o == p and a[i] > 0]

    def own_settlement_spaces(self, p: int) -> list[int]:
        s = self.sett
        return [i for i, o in enumerate(self.owner) if o == p and s[i] > 0]

    def units_at(self, sp: int) -> int:
        return self.sett[sp] + self.cast[sp] + self.tower[sp] + self.arm[sp]

    def opponents(self, p: int) -> list[int]:
        return [o for o in self.kseats if o != p]

    def terrain_at(self, sp: int) -> int:
        return self.tile[sp]

    def tidy(self, sp: int) -> None:
        """Forget the owner of a space that holds no unit any more."""
        if self.owner[sp] >= 0 and not (self.sett[sp] or self.cast[sp] or self.tower[sp] or self.arm[sp]):
            self.owner[sp] = -1
            self.moved[sp] = 0
            self.dirty |= UNITS | MOVED

    def apply_tiles(self) -> None:
        """Tiles' standing effects onto their spaces (once the tiles are down)."""
        for sp, t in enumerate(self.adv):
            if t >= 0:
                for e in self.model.advanced[t].effects:
                    HANDLERS[e.kind].tile(self, sp, e)
        self.dirty |= UNITS    # spaces nothing may enter

    def note_tile(self, p: int, sp: int) -> None:
        """The advanced tile in `sp` (if any) worked for `p` (its yield, bonus, free unit or rule)."""
        t = self.adv[sp]
        if t >= 0 and 0 <= p < self.n:
            self.use_tile[t][p] += 1

    def horde_mods(self, sp: int) -> tuple[int, int]:
        """(attack bonus, defense) of the horde in `sp`, standing rules and tile included."""
        hz = self.model.hordes[self.horde[sp]]
        att, dfn = 0, hz.defense
        ter = self.tile[sp]
        for ht, terrains, a, d in self.horde_rules:
            if (ht < 0 or ht == hz.type) and (terrains is None or ter in terrains):
                att += a
                dfn += d
        for ht, a, d in self.space_horde[sp]:
            if ht < 0 or ht == hz.type:
                att += a
                dfn += d
        return att, dfn

    # ------------------------------------------------------------------ the game
    def _rules(self, resume: Any = None) -> Iterator[Decision]:
        from engine.kingdoms.setup import apply_situation, standard_setup
        start = "turn"
        first_phase = ""
        skip = 0                      # seats of the round's order whose turns are done
        if resume in ("horde", "raid", "end"):
            start = resume            # a clone picks up at the start of a segment of the round
        elif resume is not None:
            first_phase = resume      # ... or at the start of a phase of the current seat's turn
            skip = self.order.index(self.current)
        elif self.situation is None:
            yield from standard_setup(self)
        else:
            start, first_phase = apply_situation(self, self.situation)
            if self.current >= 0 and first_phase:
                skip = self.order.index(self.current)
        while self.round <= self.rounds and not self.end_reason:
            if start == "turn":
                for i in range(skip, len(self.order)):
                    p = self.order[i]
                    yield from self.turn(p, first_phase)
                    first_phase = ""
                    if self.end_reason:
                        break
                skip = 0
                start = "horde"
            if self.end_reason:
                break
            if start == "horde":
                self.checkpoint("horde")
                yield from self.horde_segment()
                start = "raid"
            if start == "raid":
                self.checkpoint("raid")
                yield from self.raid_segment()
                start = "end"
            self.checkpoint("end")
            yield from self.end_of_round()
            start = "turn"
            self.round += 1
        if not self.end_reason:
            self.end_reason = "rounds"
        self.round = min(self.round, self.rounds)
        self.phase = "over"

    def guard(self) -> bool:
        """The stalemate guard: a game that runs far past any sensible length stops."""
        if len(self.actions) > self.max_actions:
            self.end_reason = "stalemate"
            return True
        return False

    # ------------------------------------------------------------------ end of the game
    def score(self, p: int) -> int:
        if p == self.horde_seat:
            per = int((self.model.variants.get("horde-player") or {}).get("horde-player", {})
                      .get("scores-per-unit-destroyed", 1))
            return sum(self.destroyed_by_hordes) * per
        return self.n_set[p] + self.n_arm[p] + self.n_cast[p] + self.n_tow[p] + self.vt[p]

    def result(self) -> GameResult:
        scores = [self.score(p) for p in range(self.n)]
        best = max(scores)
        winners = [p for p in range(self.n) if scores[p] == best]
        m = self.model
        usage: dict[str, dict[str, list[int]]] = {}
        for k in m.kingdoms:
            usage[k.id] = {"played": list(self.use_kingdom[k.idx])}
        for a in m.abilities:
            usage[a.id] = {"picked": list(self.use_picked[a.idx]), "used": list(self.use_used[a.idx])}
        for h in m.hordes:
            usage[h.id] = {"destroyed": list(self.use_horde[h.idx]), "used": list(self.use_fought[h.idx])}
        for r, ev in sorted(m.events.items()):
            usage[ev.id] = {"rolled": list(self.use_event[r])}
        if self.variants["advanced-tiles"]:
            for t in m.advanced:
                usage[t.id] = {"settled": list(self.use_settled[t.idx]), "used": list(self.use_tile[t.idx])}
        stats = dict(self.stats)
        stats["hordes_on_board"] = sum(1 for h in self.horde if h >= 0)
        stats["victory_tokens"] = sum(self.vt)
        stats["units_on_board"] = sum(self.n_set) + sum(self.n_arm) + sum(self.n_cast) + sum(self.n_tow)
        stats["settlements_on_board"] = sum(self.n_set)
        stats["armies_on_board"] = sum(self.n_arm)
        stats["castles_on_board"] = sum(self.n_cast)
        stats["abilities_held"] = sum(len(a) for a in self.abil)
        stats["horde_pool_left"] = sum(self.pool)
        stats["top_score"] = best
        return GameResult(scores, winners, self.end_reason or "unfinished", self.round, usage, stats)

    def check_invariants(self) -> list[str]:
        return invariants.check(self) if self.dirty else []   # unmarked: nothing they read changed

    def check_all_invariants(self) -> list[str]:
        """Every area, marked or not: checked games catch a change the rules forgot to mark."""
        self.dirty = ALL
        return invariants.check(self)

    def fingerprint(self) -> Any:
        return (tuple(self.actions), tuple(self.owner), tuple(self.sett), tuple(self.cast), tuple(self.arm),
                tuple(self.horde), tuple(self.hits), tuple(tuple(r) for r in self.res), tuple(self.vt))
