"""Battles: a horde against the player units in its space (Attack phase and Raid segment), long-range
attacks, and player-versus-player battles.

Each exchange is simultaneous: every unit that takes part rolls a d10, then the horde rolls one
d10 per hit counter, and only then are losses removed. Horde hits go down the allocation order of
segments.yaml (castles, towers, armies, settlements); a castle soaks its hits before it falls.
A battle in which neither side can score at all (every roll needs more than 10) stops as a
standoff; a battle that runs past MAX_EXCHANGES trips the stalemate guard.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Iterator

from engine.core.api import Decision
from engine.kingdoms.areas import HORDES, MOVED, UNITS

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

Gen = Iterator[Decision]
ORDER_RAID_DEFAULT = ("castle", "wizard-tower", "army", "settlement")


class BattleMixin:
    # ------------------------------------------------------------------ modifiers
    def unit_bonus(self: "KState", p: int, unit: str, vs: int, phase: str, sp: int) -> tuple[int, int]:
        """(attack, defense) of `p`'s units of one type in `sp`: abilities, tile and spells."""
        mods = self.mods[p]
        if not (mods.unit_mods or self.space_mods[sp] or self.stack_bonus):
            return 0, 0     # no ability, tile or spell changes anything
        ter = self.tile[sp]
        att = mods.attack(unit, vs, phase, ter)
        dfn = mods.defense(unit, vs, phase, ter)
        for um in self.space_mods[sp]:
            if um.applies(unit, vs, phase, ter):
                att += um.attack
                dfn += um.defense
        if unit == "army":
            for bsp, um, _ in self.stack_bonus:
                if bsp == sp and um.applies(unit, vs, phase, ter):
                    att += um.attack
                    dfn += um.defense
        return att, dfn

    def castle_hits(self: "KState", p: int, sp: int) -> int:
        extra = sum(um.hits for um in self.space_mods[sp] if um.unit in ("castle", "player-unit"))
        return self.model.units["castle"].hits + self.mods[p].castle_hits + extra

    # ------------------------------------------------------------------ dice
    # Divination and Oracles change "a target die roll": any roll made for `p` or against `p`'s
    # units - battle, raid and player-versus-player rolls, long-range attacks, battle-start and
    # battle-spell rolls, the event roll and an event's dice. `adjust` serves rolls that hit or
    # miss a number; `adjust_any` rolls whose every face means something (events, amounts).
    def adjust(self: "KState", p: int, v: int, need: int, want_high: bool) -> Gen:
        """Offer `p`'s roll-changing spells when the die just went against them and a change helps."""
        if not self.mods[p].adjust or (v >= need) == want_high:
            return v
        moves = [(ai, nv) for ai, nv in self._adjustments(p, v, 10)
                 if nv == 0 or (nv >= need) == want_high]
        return (yield from self._offer_adjust(p, v, 10, moves, "adjust", f"Change the roll of {v}?"))

    def adjust_any(self: "KState", p: int, v: int, sides: int, what: str) -> Gen:
        """Offer `p`'s roll-changing spells on a roll where any face may be worth changing."""
        if not self.mods[p].adjust:
            return v
        moves = self._adjustments(p, v, sides)
        return (yield from self._offer_adjust(p, v, sides, moves, "adjust-" + what,
                                              f"Change the {what} roll of {v}?"))

    def _adjustments(self: "KState", p: int, v: int, sides: int) -> list[tuple[int, int]]:
        """(ability, new value) for each usable change of the roll `v`; new value 0 = reroll."""
        out: list[tuple[int, int]] = []
        for ai in self.mods[p].adjust:
            a = self.model.abilities[ai]
            if self.uses_left(p, a) <= 0 or not self.can_pay(p, a.cost):
                continue
            e = next(x for x in a.effects if x.kind == "adjust-roll")
            if e.get("action") == "reroll":
                out.append((ai, 0))
            else:
                amt = int(e.get("amount", 1))
                for nv in (v + amt, v - amt):
                    if 1 <= nv <= sides:
                        out.append((ai, nv))
        return out

    def _offer_adjust(self: "KState", p: int, v: int, sides: int, moves: list[tuple[int, int]],
                      kind: str, prompt: str) -> Gen:
        if not moves:
            return v
        names = self.model.abilities
        offered = tuple(moves)
        moves = moves + [(-1, v)]
        k = yield self.ask(p, kind, prompt, lambda: [
            f"{names[ai].name}: reroll" if nv == 0 else f"{names[ai].name}: {nv - v:+d} (makes {nv})"
            for ai, nv in offered] + ["Keep the roll"], moves)
        ai, nv = moves[k]
        if ai < 0:
            return v
        a = names[ai]
        self.pay(p, a.cost)
        self.note_use(p, a)
        if nv == 0:
            return (yield self.die(f"Reroll (d{sides})", sides)) + 1
        return nv

    # ------------------------------------------------------------------ horde battles
    def battle(self: "KState", sp: int, phase: str) -> Gen:
        """Fight the horde in `sp` against the units of the space's owner until one side is gone."""
        p = self.owner[sp]
        m = self.model
        hz = m.hordes[self.horde[sp]]
        vs = hz.type
        hatk, hdef = self.horde_mods(sp)
        units = m.units
        raid = phase == "raid"
        self.stats["raids" if raid else "battles"] += 1
        if not raid:
            self.use_fought[self.horde[sp]][p] += 1
        seg = self.raid_rules
        fights = {u: phase in units[u].fights_in and units[u].hit_on is not None for u in units}
        order = tuple(seg.get("hit-allocation", ORDER_RAID_DEFAULT)) if raid else ("army",)
        bonus = {u: self.unit_bonus(p, u, vs, phase, sp) for u in units}
        if self.space_mods[sp]:
            self.note_tile(p, sp)        # the tile's standing bonus (Natural Defensive Position) fights
        need = {u: (units[u].hit_on - bonus[u][0] + hdef) if fights[u] else 99 for u in units}
        hneed = {u: hz.attack - hatk + bonus[u][1] for u in units}
        chits = self.castle_hits(p, sp)
        mods = self.mods[p]
        adjusting = bool(mods.adjust)
        destroyed = 0
        army_lost = 0
        negated: list[int] = []
        d_army = self.d10("Roll d10: army attack")
        d_sett = self.d10("Roll d10: settlement attack")
        d_cast = self.d10("Roll d10: castle attack")
        d_horde = self.d10("Roll d10: horde attack")
        if self.arm[sp] and mods.battle_start:
            for ai, rolls, hit_on, with_mods in mods.battle_start:
                self.use_used[ai][p] += 1
                need_start = hit_on - (bonus["army"][0] if with_mods else 0) + hdef
                for _ in range(rolls):
                    v = (yield d_army) + 1
                    if adjusting:
                        v = yield from self.adjust(p, v, need_start, True)
                    if v >= need_start and self.hits[sp] > 0:
                        self.hits[sp] -= 1
                        self.hit_free += 1
                        self.dirty |= HORDES
            if self.hits[sp] <= 0:
                yield from self._horde_beaten(sp, p, army_lost)
                return
        exchanges = 0
        cdmg = 0        # hits on the castle now taking them; it lasts the whole battle
        while self.hits[sp] > 0:
            present = {"army": self.arm[sp], "settlement": self.sett[sp] if raid else 0,
                       "castle": self.cast[sp] if raid else 0, "wizard-tower": self.tower[sp] if raid else 0}
            if not any(present[u] for u in order):
                break
            can_hit = any(present[u] and need[u] <= 10 for u in present) or (present["army"] and mods.battle_spells)
            can_be_hit = any(present[u] and hneed[u] <= 10 for u in order)
            if not can_hit and not can_be_hit:
                self.stats["battles_stalled"] += 1
                break
            exchanges += 1
            if exchanges > 500:
                self.end_reason = "stalemate"
                return
            scored = 0
            if present["army"] and mods.battle_spells:
                scored += yield from self.battle_spells(p, sp, hdef)
            for u, d in (("army", d_army), ("settlement", d_sett), ("castle", d_cast)):
                if need[u] > 10 and not adjusting:
                    continue
                for _ in range(present[u]):
                    v = (yield d) + 1
                    if adjusting:
                        v = yield from self.adjust(p, v, need[u], True)
                    if v >= need[u]:
                        scored += 1
            # the horde's rolls, aimed down the allocation order (targets only ever run out)
            left = dict(present)
            kills = {u: 0 for u in present}
            ti = 0
            for _ in range(self.hits[sp]):
                while ti < len(order) and left[order[ti]] <= 0:
                    ti += 1
                if ti == len(order):
                    break
                target = order[ti]
                v = (yield d_horde) + 1
                if adjusting:
                    v = yield from self.adjust(p, v, hneed[target], False)
                if v < hneed[target]:
                    continue
                if target == "army" and mods.negate:
                    cancel = yield from self.offer_negate(p, negated)
                    if cancel:
                        continue
                if target == "castle":
                    cdmg += 1
                    self.castle_dmg[sp] = cdmg
                    if cdmg < chits:
                        continue
                    cdmg = self.castle_dmg[sp] = 0
                left[target] -= 1
                kills[target] += 1
            # losses on both sides
            take = min(scored, self.hits[sp])
            if take:
                self.hits[sp] -= take
                self.hit_free += take
                self.dirty |= HORDES
            lost = self.remove_units(p, sp, kills)
            destroyed += lost
            army_lost += kills["army"]
        self.castle_dmg[sp] = 0      # damage on a castle lasts one battle
        if self.hits[sp] <= 0:
            yield from self._horde_beaten(sp, p, army_lost)
        else:
            regen = m.rules["battle"]["undead-regeneration"]
            if destroyed and vs == ("humanoid", "undead", "monster").index(regen["horde-type"]):
                add = self.from_supply("hit", self.hit_free, destroyed * int(regen["hits-per-unit-destroyed"]))
                if add:
                    self.hits[sp] += add
                    self.hit_free -= add
                    self.dirty |= HORDES
                self.stats["horde_regenerated"] += add
        if self.horde_seat >= 0:
            self.destroyed_by_hordes[p] += destroyed
        self.tidy(sp)

    def remove_units(self: "KState", p: int, sp: int, kills: dict[str, int]) -> int:
        total = 0
        for u, k in kills.items():
            if not k:
                continue
            total += k
            self.dirty |= UNITS | MOVED
            if u == "army":
                self.arm[sp] -= k
                self.n_arm[p] -= k
                self.moved[sp] = min(self.moved[sp], self.arm[sp])
                self.lost_armies[p] += k
                self.lost_fort[p] = True
                self.stats["armies_lost"] += k
            elif u == "settlement":
                self.sett[sp] -= k
                self.n_set[p] -= k
                self.stats["settlements_lost"] += k
            elif u == "castle":
                self.cast[sp] -= k
                self.n_cast[p] -= k
                self.castle_free += k
                self.lost_fort[p] = True
                self.stats["castles_lost"] += k
            else:
                self.tower[sp] -= k
                self.n_tow[p] -= k
                self.tower_free += k
                self.stats["towers_lost"] += k
        return total

    def _horde_beaten(self: "KState", sp: int, p: int, army_lost: int) -> Gen:
        self.remove_horde(sp, p, True)
        rally = min(self.mods[p].rally, army_lost)
        if rally and self.owner[sp] == p:
            room = self.mods[p].stack_limit - self.arm[sp]
            give = min(rally, room, self.colour_room(p, "army"))
            if give > 0:
                self.add_unit(p, sp, "army", give)
                # a regained army is lost no more: Medicine cannot give it back a second time
                self.lost_armies[p] = max(0, self.lost_armies[p] - give)
                for ai in self.abil[p]:
                    if any(e.kind == "recover-army" and e.get("when") == "after-battle-won"
                           for e in self.model.abilities[ai].effects):
                        self.use_used[ai][p] += 1
        return
        yield  # pragma: no cover

    def remove_horde(self: "KState", sp: int, p: int, token: bool) -> None:
        """A horde stack leaves the board: hit counters to the supply, counter to the pool."""
        h = self.horde[sp]
        self.hit_free += self.hits[sp]
        self.hits[sp] = 0
        self.horde[sp] = -1
        self.pool[h] = True
        self.dirty |= HORDES
        if p >= 0:
            self.use_horde[h][p] += 1
            self.stats["hordes_destroyed"] += 1
            if token:
                self.take_victory(p, int(self.model.rules["battle"]["victory-tokens-per-horde"]))

    def offer_negate(self: "KState", p: int, used: list[int]) -> Gen:
        moves = []
        names = self.model.abilities
        for ai in self.mods[p].negate:
            a = names[ai]
            if ai in used or self.uses_left(p, a) <= 0:
                continue
            for cv in self.cost_variants(p, a):
                moves.append((ai, cv))
        if not moves:
            return False
        moves.append((-1, ()))
        k = yield self.ask(p, "negate", "An army is hit", lambda: [
            f"{names[ai].name}: cancel the hit" if ai >= 0 else "Take the hit" for ai, _ in moves], moves)
        ai, cv = moves[k]
        if ai < 0:
            return False
        a = self.model.abilities[ai]
        self.pay(p, cv)
        self.note_use(p, a)
        used.append(ai)
        return True

    def battle_spells(self: "KState", p: int, sp: int, hdef: int) -> Gen:
        """Spells cast into one exchange (extra attack rolls at their own numbers)."""
        hits = 0
        names = self.model.abilities
        while True:
            moves = [ai for ai in self.mods[p].battle_spells
                     if self.uses_left(p, names[ai]) > 0 and self.can_pay(p, names[ai].cost)]
            if not moves:
                return hits
            moves.append(-1)
            k = yield self.ask(p, "battle-spell", "Cast a spell into this exchange?",
                               lambda moves=moves: [f"Cast {names[ai].name}" if ai >= 0 else "Fight on"
                                                    for ai in moves], moves)
            ai = moves[k]
            if ai < 0:
                return hits
            a = self.model.abilities[ai]
            self.pay(p, a.cost)
            self.note_use(p, a)
            e = next(x for x in a.effects if x.kind == "extra-attack")
            bonus = self.unit_bonus(p, "army", self.model.hordes[self.horde[sp]].type, "attack", sp)[0] \
                if e.get("army-modifiers") else 0
            need = int(e.get("hit-on")) - bonus + hdef
            for _ in range(int(e.get("rolls"))):
                v = (yield self.d10(f"Roll d10: {a.name}")) + 1
                v = yield from self.adjust(p, v, need, True)
                if v >= need:
                    hits += 1

    # ------------------------------------------------------------------ long-range attacks
    def long_range_attack(self: "KState", p: int, sp: int, e: Any) -> Gen:
        if self.horde[sp] < 0:
            return
        self.use_fought[self.horde[sp]][p] += 1
        _, hdef = self.horde_mods(sp)
        rolls = self.hits[sp] if e.get("targets-all-units") else 1
        scored = 0
        d = self.d10("Roll d10: long-range attack")
        need = int(e.get("hit-on")) - int(e.get("roll-bonus", 0)) + hdef
        for _ in range(rolls):
            v = (yield d) + 1
            v = yield from self.adjust(p, v, need, True)
            if v >= need:
                scored += 1
        self.stats["long_range_hits"] += scored
        take = min(scored, self.hits[sp])
        if take:
            self.hits[sp] -= take
            self.hit_free += take
            self.dirty |= HORDES
        if self.hits[sp] <= 0:
            self.remove_horde(sp, p, True)

    # ------------------------------------------------------------------ player versus player
    def pvp_battle(self: "KState", a: int, sp: int) -> Gen:
        """Invading armies of `a` against everything of the space's owner, fought like a raid."""
        d = self.owner[sp]
        units = self.model.units
        order = tuple(self.raid_rules.get("hit-allocation", ORDER_RAID_DEFAULT))
        a_att, a_def = self.unit_bonus(a, "army", -1, "attack", sp)
        self.stats["battles"] += 1
        self.stats["invasions"] += 1
        die = self.d10("Roll d10: battle")
        exchanges = 0
        destroyed_def = 0
        cdmg = 0
        while self.inv[sp] > 0 and self.units_at(sp) > 0:
            exchanges += 1
            if exchanges > 500:
                self.end_reason = "stalemate"
                return
            dbon = {u: self.unit_bonus(d, u, -1, "raid", sp) for u in units}
            present = {"army": self.arm[sp], "settlement": self.sett[sp], "castle": self.cast[sp],
                       "wizard-tower": self.tower[sp]}
            a_need = {u: units["army"].hit_on - a_att + dbon[u][1] for u in units}
            d_need = {u: (units[u].hit_on - dbon[u][0] + a_def) if units[u].hit_on is not None else 99 for u in units}
            if all(a_need[u] > 10 for u in order if present[u]) and all(d_need[u] > 10 for u in present if present[u]):
                self.stats["battles_stalled"] += 1
                break
            kills_a = 0
            for u in ("army", "settlement", "castle"):
                for _ in range(present[u]):
                    v = (yield die) + 1
                    v = yield from self.adjust(d, v, d_need[u], True)
                    v = yield from self.adjust(a, v, d_need[u], False)
                    if v >= d_need[u]:
                        kills_a += 1
            left = dict(present)
            kills = {u: 0 for u in present}
            chits = self.castle_hits(d, sp)
            for _ in range(self.inv[sp]):
                target = next((u for u in order if left[u] > 0), None)
                if target is None:
                    break
                v = (yield die) + 1
                v = yield from self.adjust(a, v, a_need[target], True)
                v = yield from self.adjust(d, v, a_need[target], False)
                if v < a_need[target]:
                    continue
                if target == "castle":
                    cdmg += 1
                    if cdmg < chits:
                        continue
                    cdmg = 0
                left[target] -= 1
                kills[target] += 1
            kills_a = min(kills_a, self.inv[sp])
            self.inv[sp] -= kills_a
            self.n_arm[a] -= kills_a
            self.dirty |= UNITS
            self.lost_armies[a] += kills_a
            self.stats["armies_lost"] += kills_a
            if kills_a:
                self.lost_fort[a] = True
            destroyed_def += self.remove_units(d, sp, kills)
        self.dirty |= UNITS | MOVED
        if self.units_at(sp) == 0:
            self.owner[sp] = -1
            if self.inv[sp]:
                n = self.inv[sp]
                self.inv[sp] = 0
                self.inv_owner[sp] = -1
                self.owner[sp] = a
                self.arm[sp] = n
                self.moved[sp] = n
        elif self.inv[sp] == 0:
            self.inv_owner[sp] = -1
        else:  # a standoff: the invaders fall back where nothing holds them (they are lost)
            n = self.inv[sp]
            self.inv[sp] = 0
            self.inv_owner[sp] = -1
            self.n_arm[a] -= n
            self.stats["armies_lost"] += n
        self.tidy(sp)
