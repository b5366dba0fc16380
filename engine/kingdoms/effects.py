"""The effect registry: effect kind -> handler. Content names the kind and its parameters; the
rules call the handler. `EFFECT_KINDS` is exactly the set of kinds implemented here, which is what
hordekit's validator compares the content against.

A handler may do any of:
- `passive(st, mods, ability, e)`: fold a standing effect of an owned ability into the owner's Mods;
- `menu(ability, e)`: the phase menu where an ability with this effect is used ('trade', 'build',
  'train', 'move', 'attack', 'after-attack'), or None; a one-time ability is offered in the
  Research phase's menu ('research') as well;
- `targets(st, seat, ability, e)`: the legal (label, payload) choices of that use (none: not offered);
- `use(st, seat, ability, e, payload)`: carry the use out (a generator of Decisions);
- `happen(st, seat, e, space)`: an effect that simply happens (events, tiles, one-off gains);
- `tile(st, space, e)`: a tile's standing effect on its own space;
- `rule(st, e)`: a standing rule for every horde (rules.yaml).
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from engine.core.api import Decision
from engine.kingdoms.model import HORDE_TYPES, Ability, Effect
from engine.kingdoms.mods import Mods, UnitMod

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

Gen = Iterator[Decision]


def _nothing() -> Gen:
    return
    yield  # pragma: no cover


class Kind:
    """Base handler: does nothing anywhere; subclasses override what their kind does."""

    def passive(self, st: "KState", mods: Mods, a: Ability, e: Effect) -> None:
        return None

    def menu(self, a: Ability, e: Effect) -> str | None:
        return None

    def targets(self, st: "KState", seat: int, a: Ability, e: Effect) -> list[tuple[str, Any]]:
        return [("", None)]

    def use(self, st: "KState", seat: int, a: Ability, e: Effect, payload: Any) -> Gen:
        return _nothing()

    def happen(self, st: "KState", seat: int, e: Effect, space: int) -> Gen:
        return _nothing()

    def tile(self, st: "KState", space: int, e: Effect) -> None:
        return None

    def rule(self, st: "KState", e: Effect) -> None:
        return None


def _terrains(st: "KState", names: list[str] | None) -> tuple[int, ...] | None:
    if not names:
        return None
    ids = [t.id for t in st.model.terrains]
    return tuple(ids.index(n) for n in names if n in ids)


# ---------------------------------------------------------------------------------- resources
class GainResource(Kind):
    """Chits from the supply (events roll dice for the amount; Great Caravan is a plain gift)."""

    def menu(self, a: Ability, e: Effect) -> str | None:
        return "trade"

    def use(self, st, seat, a, e, payload) -> Gen:
        return self.happen(st, seat, e, -1)

    def happen(self, st, seat, e, space) -> Gen:
        amount = int(e.get("amount"))
        dice = e.get("dice")
        if dice:
            amount = yield from st.roll_sum(amount, int(str(dice)[1:]), seat)
        r = e.get("resource")
        if r == "any":
            for _ in range(amount):
                k = yield st.ask(seat, "resource", "Take a resource", st.model.resource_names,
                                 list(range(len(st.model.resources))))
                st.gain(seat, k, 1)
        else:
            st.gain(seat, st.model.resources.index(r), amount)


class ExtraResource(Kind):
    def passive(self, st, mods, a, e) -> None:
        mods.extra_res[st.model.resources.index(e.get("resource"))] += int(e.get("amount"))


class Convert(Kind):
    """Hand chits to the supply for others; a menu option per legal exchange."""

    def menu(self, a, e) -> str | None:
        return "trade"

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        m = st.model
        res = st.res[seat]
        give, get = int(e.get("give")), int(e.get("get"))
        src = e.get("from")
        froms = range(len(m.resources)) if src == "any" else [m.resources.index(src)]
        out = []
        for f in froms:
            if res[f] < give:
                continue
            dst = e.get("to")
            tos = [t for t in range(len(m.resources)) if t != f] if dst == "any-other" else [m.resources.index(dst)]
            for t in tos:
                if t != f:
                    out.append((f"{give} {m.resources[f]} for {get} {m.resources[t]}", (f, t)))
        return out

    def use(self, st, seat, a, e, payload) -> Gen:
        f, t = payload
        st.spend(seat, f, int(e.get("give")))
        st.gain(seat, t, int(e.get("get")))
        return _nothing()


# ---------------------------------------------------------------------------------- units
class GainUnit(Kind):
    """Free units placed where they could be built (or on the tile's own space)."""

    def menu(self, a, e) -> str | None:
        return "train"

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        return [(u, u) for u in e.get("units") if st.unit_sites(seat, u)]

    def use(self, st, seat, a, e, payload) -> Gen:
        yield from st.place_free_unit(seat, payload, "as-built", -1)
        for _ in range(int(e.get("amount")) - 1):
            yield from self._one(st, seat, e, -1)

    def happen(self, st, seat, e, space) -> Gen:
        for _ in range(int(e.get("amount"))):
            yield from self._one(st, seat, e, space)

    def _one(self, st, seat, e, space) -> Gen:
        units = [u for u in e.get("units") if e.get("placement") == "this-space" or st.unit_sites(seat, u)]
        if not units:
            return
        u = units[0]
        if len(units) > 1:
            k = yield st.ask(seat, "unit-type", "Choose the unit gained", units, units)
            u = units[k]
        yield from st.place_free_unit(seat, u, e.get("placement"), space)


class GainAbility(Kind):
    def happen(self, st, seat, e, space) -> Gen:
        for _ in range(int(e.get("amount"))):
            yield from st.pick_ability(seat, "Choose a free ability")


class GainVictoryTokens(Kind):
    def passive(self, st, mods, a, e) -> None:
        if e.get("trigger") == "round-with-army-or-castle-lost":
            mods.bards.append((a.idx, int(e.get("amount"))))

    def menu(self, a, e) -> str | None:
        return "trade" if e.get("trigger") == "now" else None

    def use(self, st, seat, a, e, payload) -> Gen:
        st.take_victory(seat, int(e.get("amount")))
        return _nothing()

    def happen(self, st, seat, e, space) -> Gen:
        st.take_victory(seat, int(e.get("amount")))
        return _nothing()


class SpawnHorde(Kind):
    def happen(self, st, seat, e, space) -> Gen:
        for _ in range(int(e.get("amount"))):
            yield from st.spawn_one()


# ---------------------------------------------------------------------------------- battle values
class ModifyUnit(Kind):
    def _mod(self, st, e) -> UnitMod:
        vs = e.get("vs")
        return UnitMod(e.get("unit"), int(e.get("attack", 0)), int(e.get("defense", 0)), int(e.get("hits", 0)),
                       HORDE_TYPES.index(vs) if vs else -1, e.get("phase") or "", _terrains(st, e.get("terrain")))

    def passive(self, st, mods, a, e) -> None:
        if e.get("scope") == "all":
            um = self._mod(st, e)
            mods.unit_mods.append(um)
            if um.unit in ("castle", "player-unit"):
                mods.castle_hits += um.hits

    def menu(self, a, e) -> str | None:
        return "attack" if e.get("scope") == "target-stack" else None

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        """A stack about to fight this phase, not already given this effect (MOSP)."""
        out = []
        for sp in st.battle_spaces(seat):
            if e.get("once-per-stack-per-phase") and (a.idx, sp) in st.stack_marks:
                continue
            out.append((f"stack at {st.board.labels[sp]}", sp))
        return out

    def use(self, st, seat, a, e, payload) -> Gen:
        st.stack_marks.append((a.idx, payload))
        st.stack_bonus.append((payload, self._mod(st, e), e.get("duration")))
        return _nothing()

    def tile(self, st, space, e) -> None:
        st.space_mods[space].append(self._mod(st, e))


class ModifyHorde(Kind):
    def rule(self, st, e) -> None:
        ht = e.get("horde-type")
        st.horde_rules.append((HORDE_TYPES.index(ht) if ht else -1, _terrains(st, e.get("terrain")),
                               int(e.get("attack", 0)), int(e.get("defense", 0))))

    def tile(self, st, space, e) -> None:
        ht = e.get("horde-type")
        st.space_horde[space].append((HORDE_TYPES.index(ht) if ht else -1, int(e.get("attack", 0)),
                                      int(e.get("defense", 0))))
        st.spawn_hits[space] += int(e.get("extra-hits-on-spawn", 0))


# ---------------------------------------------------------------------------------- building
class BuildCost(Kind):
    def passive(self, st, mods, a, e) -> None:
        cost = mods.cost.setdefault(e.get("structure"), list(st.model.structures[e.get("structure")].cost))
        cost[st.model.resources.index(e.get("resource"))] += int(e.get("delta"))


class BuildSite(Kind):
    def passive(self, st, mods, a, e) -> None:
        mods.sites.append((e.get("structure"), e.get("site"), bool(e.get("requires-army-present"))))


class ExtraBuild(Kind):
    """Free extra builds every turn (no activation cost) or bought builds (with one)."""

    def passive(self, st, mods, a, e) -> None:
        if not st.has_cost(a):
            mods.free_builds.append((tuple(e.get("structures")), int(e.get("amount"))))

    def menu(self, a, e) -> str | None:
        return "build" if any(a.cost) or a.alt_costs else None

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        return [(s, s) for s in e.get("structures") if s == st.phase_builds]

    def use(self, st, seat, a, e, payload) -> Gen:
        st.bonus_builds += int(e.get("amount"))
        return _nothing()


class Limit(Kind):
    FIELDS = {"army-stacking": "stack_limit", "settlements-per-space": "settlements_per_space",
              "castles-per-space": "castles_per_space", "resource-cap": "cap",
              "spell-uses-per-round": "spell_uses", "paid-ability-uses-per-round": "paid_uses"}

    def passive(self, st, mods, a, e) -> None:
        name = self.FIELDS[e.get("limit")]
        setattr(mods, name, getattr(mods, name) + int(e.get("delta")))


class ResearchCost(Kind):
    def passive(self, st, mods, a, e) -> None:
        nth = int(e.get("nth"))
        mods.research_delta[nth] = mods.research_delta.get(nth, 0) + int(e.get("delta"))


# ---------------------------------------------------------------------------------- movement
class ExtraMove(Kind):
    def passive(self, st, mods, a, e) -> None:
        if e.get("scope") == "all" and "army" in e.get("units"):
            mods.extra_move += int(e.get("amount"))

    def menu(self, a, e) -> str | None:
        return "move" if e.get("scope") == "target-stack" else None

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        return [(f"stack at {st.board.labels[sp]}", sp) for sp in st.unmoved_stacks(seat)]

    def use(self, st, seat, a, e, payload) -> Gen:
        st.haste[payload] += int(e.get("amount"))
        return _nothing()

    def tile(self, st, space, e) -> None:
        units = e.get("units")
        st.plains_army[space] += int(e.get("amount")) if "army" in units else 0
        st.plains_horde[space] += int(e.get("amount")) if "horde" in units else 0


class MovementRule(Kind):
    def passive(self, st, mods, a, e) -> None:
        rule = e.get("rule")
        if rule == "diagonal":
            mods.diagonal = True
        elif rule == "pass-through-own-settlements":
            mods.roads = True

    def menu(self, a, e) -> str | None:
        return "after-attack" if e.get("rule") == "move-and-attack-again" else None

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        return [(f"stack at {st.board.labels[sp]}", sp) for sp in st.own_army_spaces(seat)
                if st.reachable(seat, sp, st.arm[sp], again=True)]

    def use(self, st, seat, a, e, payload) -> Gen:
        yield from st.forced_march(seat, payload)

    def tile(self, st, space, e) -> None:
        if e.get("rule") == "stop-on-entry":
            st.stop_here[space] = True


class Relocate(Kind):
    def passive(self, st, mods, a, e) -> None:
        when = e.get("when")
        if when == "horde-segment-start":
            mods.withdrawal.append(a.idx)
        elif when == "horde-segment":
            mods.control.append(a.idx)

    def menu(self, a, e) -> str | None:
        return "move" if e.get("when") == "now" else None

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        lab = st.board.labels
        if e.get("piece") == "settlement":
            return [(f"settlement at {lab[sp]}", sp) for sp in st.own_settlement_spaces(seat)
                    if st.relocate_dests(seat, sp, e)]
        return [(f"army from {lab[sp]}", sp) for sp in st.own_army_spaces(seat) if st.arm[sp] - st.moved[sp] > 0]

    def use(self, st, seat, a, e, payload) -> Gen:
        yield from st.relocate(seat, payload, e)


class Restrict(Kind):
    def menu(self, a, e) -> str | None:
        return "move" if e.get("target") in ("horde-stack", "space", "own-settlement") else None

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        lab = st.board.labels
        t = e.get("target")
        if t == "horde-stack":
            return [(f"horde at {lab[sp]}", sp) for sp in st.horde_spaces() if st.horde[sp] not in st.frozen]
        if t == "own-settlement":
            return [(f"settlement at {lab[sp]}", sp) for sp in st.own_settlement_spaces(seat) if not st.holy[sp]]
        return [(f"{st.seat_name(o)}", o) for o in st.opponents(seat) if st.diplomacy_spaces(seat, o)]

    def use(self, st, seat, a, e, payload) -> Gen:
        t = e.get("target")
        if t == "horde-stack":
            st.frozen.append(st.horde[payload])
        elif t == "own-settlement":
            st.holy[payload] = True
        else:
            spaces = st.diplomacy_spaces(seat, payload)
            k = yield st.ask(seat, "diplomacy-space", "Forbid which space to the opponent",
                             st.space_names(spaces), spaces)
            st.dip[spaces[k]] |= 1 << payload

    def tile(self, st, space, e) -> None:
        forbids = e.get("forbids")
        st.no_enter[space] = st.no_enter[space] or "enter" in forbids
        st.no_build[space] = st.no_build[space] or "build" in forbids
        st.no_spawn[space] = st.no_spawn[space] or "spawn" in forbids


# ---------------------------------------------------------------------------------- fighting
class LongRangeAttack(Kind):
    def menu(self, a, e) -> str | None:
        return "attack"

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        return [(f"horde at {st.board.labels[sp]}", sp) for sp in st.lra_targets(seat, e)]

    def use(self, st, seat, a, e, payload) -> Gen:
        yield from st.long_range_attack(seat, payload, e)


class ExtraAttack(Kind):
    def passive(self, st, mods, a, e) -> None:
        if e.get("moment") == "battle-start":
            mods.battle_start.append((a.idx, int(e.get("rolls")), int(e.get("hit-on")), bool(e.get("army-modifiers"))))
        else:
            mods.battle_spells.append(a.idx)


class NegateHit(Kind):
    def passive(self, st, mods, a, e) -> None:
        mods.negate.append(a.idx)


class RecoverArmy(Kind):
    def passive(self, st, mods, a, e) -> None:
        if e.get("when") == "after-battle-won":
            mods.rally += int(e.get("amount"))
        else:
            mods.medicine.append((a.idx, int(e.get("amount"))))


class AdjustRoll(Kind):
    def passive(self, st, mods, a, e) -> None:
        mods.adjust.append(a.idx)


class DestroyHorde(Kind):
    def menu(self, a, e) -> str | None:
        return "attack"

    def targets(self, st, seat, a, e) -> list[tuple[str, Any]]:
        return [(f"horde at {st.board.labels[sp]}", sp) for sp in st.horde_spaces()]

    def use(self, st, seat, a, e, payload) -> Gen:
        st.use_fought[st.horde[payload]][seat] += 1
        st.remove_horde(payload, seat, bool(e.get("gain-victory-token")))
        for _ in range(int(e.get("stacks")) - 1):
            spaces = st.horde_spaces()
            if not spaces:
                break
            k = yield st.ask(seat, "destroy", "Destroy which horde", st.space_names(spaces), spaces)
            st.remove_horde(spaces[k], seat, bool(e.get("gain-victory-token")))


#: the Research phase's menu: every one-time ability with something to do is offered there as well
RESEARCH_MENU = "research"

HANDLERS: dict[str, Kind] = {
    "gain-resource": GainResource(),
    "extra-resource": ExtraResource(),
    "convert": Convert(),
    "gain-unit": GainUnit(),
    "gain-ability": GainAbility(),
    "gain-victory-tokens": GainVictoryTokens(),
    "spawn-horde": SpawnHorde(),
    "modify-unit": ModifyUnit(),
    "modify-horde": ModifyHorde(),
    "build-cost": BuildCost(),
    "build-site": BuildSite(),
    "extra-build": ExtraBuild(),
    "limit": Limit(),
    "extra-move": ExtraMove(),
    "movement-rule": MovementRule(),
    "relocate": Relocate(),
    "restrict": Restrict(),
    "long-range-attack": LongRangeAttack(),
    "extra-attack": ExtraAttack(),
    "negate-hit": NegateHit(),
    "recover-army": RecoverArmy(),
    "adjust-roll": AdjustRoll(),
    "destroy-horde": DestroyHorde(),
    "research-cost": ResearchCost(),
}

EFFECT_KINDS: frozenset[str] = frozenset(HANDLERS)


def build_mods(st: "KState", abilities: list[int]) -> Mods:
    """Fold the standing effects of a player's abilities into one Mods, and list the phase menus
    each usable ability appears in."""
    m = st.model
    lim = m.rules["limits"]
    uses = m.rules["ability-uses"]
    mods = Mods(extra_res=[0] * len(m.resources), stack_limit=int(lim["stacking-limit"]),
                settlements_per_space=int(lim["settlements-per-space"]),
                castles_per_space=int(lim["castles-per-space"]), cap=int(m.rules["resources"]["cap"]),
                spell_uses=int(uses["spells-per-round"]), paid_uses=int(uses["paid-abilities-per-round"]))
    for ai in abilities:
        add_ability(st, mods, ai)
    mods.refresh_costs(_base_costs(st))
    return mods


def _base_costs(st: "KState") -> dict[str, tuple[int, ...]]:
    """Every structure's printed cost, never below zero (once per model, in its cache; never
    changed: a Mods that changes a price makes a dict of its own)."""
    m = st.model
    got = m.cache.get("base-costs")
    if got is None:
        got = m.cache["base-costs"] = {sid: tuple(x if x > 0 else 0 for x in s.cost) for sid, s in m.structures.items()}
    return got


def add_ability(st: "KState", mods: Mods, ai: int) -> None:
    """Fold one more ability into a player's Mods (gaining abilities is incremental)."""
    a = st.model.abilities[ai]
    for e in a.effects:
        h = HANDLERS[e.kind]
        h.passive(st, mods, a, e)
        where = h.menu(a, e)
        if where is not None:
            # a one-time ability may be used from the moment it is gained, so the Research phase
            # that gained it offers it too (one researched in the last round is not wasted)
            for menu in (where, RESEARCH_MENU) if a.timing == "one-time" else (where,):
                lst = mods.menus.setdefault(menu, [])
                if ai not in lst:
                    lst.append(ai)
    mods.refresh_costs(_base_costs(st))
