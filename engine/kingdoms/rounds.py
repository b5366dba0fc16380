"""Between turns: spawning hordes, the Horde segment's programmed movement, the Raid segment, the
end of a round (recovery, bards, round-long effects expire) and starting over.

Ties (equal hordes in the move order, equally good spaces) are settled by the rules' d10
roll-off; the engine draws the winner uniformly among the tied, which gives the same odds with
one chance event instead of a cascade of re-rolls.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Iterator

from engine.core.api import Decision
from engine.kingdoms.areas import HORDES, MOVED, PLAYERS, UNITS

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

Gen = Iterator[Decision]


class RoundMixin:
    # ------------------------------------------------------------------ hordes appear
    def draw_horde(self: "KState", purpose: str = "spawn") -> Gen:
        """Draw a counter from the pool (the horde player draws several and keeps one)."""
        m = self.model
        draws = 1
        if self.horde_seat >= 0:
            hp = (m.variants.get("horde-player") or {}).get("horde-player") or {}
            draws = int(hp.get("draw", 3))
        drawn: list[int] = []
        for _ in range(draws):
            left = [i for i, inp in enumerate(self.pool) if inp]
            if not left:
                break
            k = yield self.chance("Draw a horde counter", len(left), lambda left=left: [m.hordes[i].name for i in left])
            drawn.append(left[k])
            self.pool[left[k]] = False
            self.dirty |= HORDES
        if not drawn:
            return -1
        pick = drawn[0]
        if len(drawn) > 1:
            k = yield self.ask(self.horde_seat, "horde-keep", "Keep which horde",
                               lambda: [m.hordes[i].name for i in drawn], drawn)
            pick = drawn[k]
        for i in drawn:
            if i != pick:
                self.pool[i] = True
        self.dirty |= HORDES
        return pick

    def roll_space(self: "KState") -> Gen:
        b = self.board
        c = (yield self.d10("Roll column (d10)"))
        r = (yield self.d10("Roll row (d10)"))
        if c >= b.cols or r >= b.rows:
            return -1
        return b.at(c, r)

    def place_horde(self: "KState", h: int, sp: int) -> bool:
        hits = self.from_supply("hit", self.hit_free, self.model.hordes[h].hits + self.spawn_hits[sp])
        self.dirty |= HORDES
        if hits <= 0:
            self.pool[h] = True
            return False
        self.horde[sp] = h
        self.hits[sp] = hits
        self.hit_free -= hits
        self.pool[h] = False
        self.stats["hordes_spawned"] += 1
        return True

    def spawn_one(self: "KState") -> Gen:
        h = yield from self.draw_horde()
        if h < 0:
            self.stats["spawns_blocked"] += 1
            return
        sp = yield from self.roll_space()
        if sp < 0 or self.owner[sp] >= 0 or self.inv[sp] or self.horde[sp] >= 0 or self.no_spawn[sp]:
            self.pool[h] = True
            self.dirty |= HORDES
            self.stats["spawns_blocked"] += 1
            return
        self.place_horde(h, sp)

    # ------------------------------------------------------------------ the Horde segment
    def horde_can_enter(self: "KState", j: int) -> bool:
        return self.horde[j] < 0 and not self.no_enter[j] and not self.holy[j] and not self.inv[j]

    def target_kind(self: "KState", j: int) -> str:
        if self.owner[j] < 0:
            return ""
        armies = self.arm[j] > 0
        if self.cast[j] or self.tower[j]:
            return "castle-with-armies" if armies else "castle-without-armies"
        if self.sett[j]:
            return "settlement-with-armies" if armies else "undefended-settlement"
        return "armies-only" if armies else ""

    def programmed_targets(self: "KState", sp: int) -> list[int]:
        """The spaces the horde in `sp` would move to next under the programmed rules, best first
        and tied ([]: it cannot move). A plain function: most steps have one answer and need no
        chance decision, so no generator is made for them."""
        horde, no_enter, holy, inv = self.horde, self.no_enter, self.holy, self.inv
        cands = [j for j in self.board.adj[sp] if horde[j] < 0 and not no_enter[j] and not holy[j] and not inv[j]]
        if len(cands) <= 1:
            return cands
        best: list[int] = []
        own = self.owner
        for j in cands:
            if own[j] >= 0:
                break
        else:
            j = -1
        if j >= 0:                               # a target: the best kind in the priority list
            rank = self.target_rank
            unranked = top = len(rank)
            for j in cands:
                r = rank.get(self.target_kind(j), unranked) if own[j] >= 0 else unranked
                if r < top:
                    top, best = r, [j]
                elif r == top < unranked:
                    best.append(j)
        if not best:                             # else towards the most pieces next door
            adj = self.board.adj
            most = -1
            for j in cands:
                n = 0
                for x in adj[j]:
                    if own[x] >= 0:
                        n += 1
                if n > most:
                    most, best = n, [j]
                elif n == most:
                    best.append(j)
        return best

    def break_tie(self: "KState", sp: int, best: list[int]) -> Gen:
        """The rules' d10 roll-off between equally good spaces, as one uniform chance event."""
        k = yield self.chance(f"Horde at {self.board.labels[sp]}: tie between spaces", len(best),
                              self.space_names(best))
        return best[k]

    def move_horde_to(self: "KState", sp: int, dst: int) -> None:
        self.horde[dst], self.hits[dst] = self.horde[sp], self.hits[sp]
        self.horde[sp], self.hits[sp] = -1, 0
        self.dirty |= HORDES

    def horde_order(self: "KState") -> Gen:
        """Hordes by fewest hit counters; equal ones in a random order (the d10 roll-off)."""
        spaces = sorted(self.horde_spaces(), key=lambda s: self.hits[s])
        out: list[int] = []
        i = 0
        lab = self.board.labels
        while i < len(spaces):
            j = i
            while j < len(spaces) and self.hits[spaces[j]] == self.hits[spaces[i]]:
                j += 1
            group = spaces[i:j]
            while len(group) > 1:
                k = yield self.chance(f"Tie roll: next horde with {self.hits[group[0]]} hits", len(group),
                                      self.space_names(group))
                out.append(group.pop(k))
            out += group
            i = j
        return [self.horde[s] for s in out]

    def horde_segment(self: "KState") -> Gen:
        self.phase = "horde-segment"
        self.current = -1
        yield from self.withdrawals()
        yield from self.controls()
        order = yield from self.horde_order()
        where = {self.horde[s]: s for s in self.horde_spaces()}
        sec = self.horde_seg.get("second-move") or {}
        second_types = [("humanoid", "undead", "monster").index(t) for t in sec.get("horde-types") or []]
        base = int(self.horde_seg.get("moves", 1))
        for h in order:
            sp = where.get(h, -1)
            if sp < 0 or self.horde[sp] != h or h in self.frozen or self.owner[sp] >= 0:
                continue
            ctl = self.controlled.get(h)
            if ctl is not None:
                dest = yield from self.chosen_horde_step(ctl[0], sp, "control")
                if dest >= 0:
                    self.move_horde_to(sp, dest)
                    where[h] = dest
                continue
            moves = base + self.plains_horde[sp]
            second = self.model.hordes[h].type in second_types
            while moves > 0:
                if self.horde_seat >= 0:
                    dest = yield from self.chosen_horde_step(self.horde_seat, sp, "horde-move")
                else:
                    best = self.programmed_targets(sp)
                    dest = best[0] if len(best) == 1 else (yield from self.break_tie(sp, best)) if best else -1
                if dest < 0:
                    break
                self.move_horde_to(sp, dest)
                where[h] = sp = dest
                moves -= 1
                if self.owner[sp] >= 0:
                    break
                moves += self.plains_horde[sp]
                if moves == 0 and second:
                    moves, second = 1, False

    def chosen_horde_step(self: "KState", p: int, sp: int, kind: str) -> Gen:
        """A player moves a horde one space (Control, or the horde player); staying is allowed."""
        lab = self.board.labels
        cands = [j for j in self.board.adj[sp] if self.horde_can_enter(j)]
        if not cands:
            return -1
        k = yield self.ask(p, kind, f"Move the horde at {lab[sp]}", self.space_names(cands, "Stay"), cands + [-1])
        return (cands + [-1])[k]

    def withdrawals(self: "KState") -> Gen:
        lab = self.board.labels
        for p in self.order:
            for ai in self.mods[p].withdrawal:
                a = self.model.abilities[ai]
                if self.uses_left(p, a) <= 0 or not self.can_pay(p, a.cost):
                    continue
                labels, moves = [], []
                for sp in self.own_army_spaces(p):
                    for d in self.board.adj[sp]:
                        if self.can_enter(p, d) and self.owner[d] in (-1, p) and self.horde[d] < 0 \
                                and self.arm[d] + self.arm[sp] <= self.mods[p].stack_limit:
                            labels.append(f"{a.name}: stack from {lab[sp]} to {lab[d]}")
                            moves.append((sp, d))
                if not labels:
                    continue
                labels.append("Pass")
                moves.append((-1, -1))
                k = yield self.ask(p, "withdraw", "Start of the Horde segment", labels, moves)
                sp, d = moves[k]
                if sp >= 0:
                    self.pay(p, a.cost)
                    self.note_use(p, a)
                    self.move_armies(p, sp, d, self.arm[sp])
                    self.moved[d] = 0
                    self.dirty |= MOVED

    def controls(self: "KState") -> Gen:
        lab = self.board.labels
        for p in self.order:
            for ai in self.mods[p].control:
                a = self.model.abilities[ai]
                if self.uses_left(p, a) <= 0 or not self.can_pay(p, a.cost):
                    continue
                spaces = [s for s in self.horde_spaces() if self.horde[s] not in self.controlled
                          and self.horde[s] not in self.frozen]
                if not spaces:
                    continue
                k = yield self.ask(p, "control", f"Cast {a.name}?",
                                   lambda a=a, spaces=spaces: [f"{a.name}: horde at {lab[s]}" for s in spaces] + ["Pass"],
                                   spaces + [-1])
                if k < len(spaces):
                    self.pay(p, a.cost)
                    self.note_use(p, a)
                    self.controlled[self.horde[spaces[k]]] = (p, ai)

    # ------------------------------------------------------------------ the Raid segment
    def raid_segment(self: "KState") -> Gen:
        self.phase = "raid-segment"
        for sp in range(len(self.horde)):
            if self.horde[sp] >= 0 and self.owner[sp] >= 0 and self.units_at(sp):
                yield from self.battle(sp, "raid")
                if self.end_reason:
                    return

    # ------------------------------------------------------------------ end of the round
    def end_of_round(self: "KState") -> Gen:
        self.phase = "end-of-round"
        if self.round < self.rounds:   # after the last round the game is over: nobody starts over
            yield from self.check_restarts()
        for p in self.kseats:
            mods = self.mods[p]
            for ai, amount in mods.medicine:
                a = self.model.abilities[ai]
                if self.lost_armies[p] <= 0 or self.uses_left(p, a) <= 0:
                    continue
                sites = [s for s in range(len(self.owner)) if self.owner[s] == p and self.cast[s]
                         and self.arm[s] < mods.stack_limit and self.horde[s] < 0] or \
                        [s for s in self.own_settlement_spaces(p) if self.arm[s] < mods.stack_limit and self.horde[s] < 0]
                give = min(amount, self.lost_armies[p], self.colour_room(p, "army"))
                if sites and give > 0:
                    self.add_unit(p, sites[0], "army", give)
                    self.note_use(p, a)
            for ai, amount in mods.bards:
                a = self.model.abilities[ai]
                if self.lost_fort[p] and self.uses_left(p, a) > 0:
                    self.take_victory(p, amount)
                    self.note_use(p, a)
        self.frozen.clear()
        self.controlled.clear()
        self.holy = [False] * len(self.holy)
        self.dip = [0] * len(self.dip)
        self.haste = [0] * len(self.haste)
        self.stack_bonus = [b for b in self.stack_bonus if b[2] == "permanent"]
        nab = len(self.model.abilities)
        self.uses = [[0] * nab for _ in range(self.n)]
        self.lost_armies = [0] * self.n
        self.lost_fort = [False] * self.n

    # ------------------------------------------------------------------ starting over
    def check_restarts(self: "KState") -> Gen:
        for p in self.kseats:
            if self.n_set[p] == 0 and not self.out[p]:
                yield from self.restart(p)

    def restart(self: "KState", p: int) -> Gen:
        """A player without settlements may begin again: new kingdom, fresh start, all else lost."""
        lab = self.board.labels
        spaces = [s for s in range(len(self.owner)) if self.owner[s] < 0 and self.horde[s] < 0
                  and not self.inv[s] and not self.no_enter[s] and not self.no_build[s]]
        k = yield self.ask(p, "restart", "Start over where?", self.space_names(spaces, "Play on without starting over"),
                           spaces + [-1])
        if k >= len(spaces):
            self.out[p] = True
            return
        self.stats["restarts"] += 1
        self.dirty |= UNITS | MOVED | PLAYERS
        for s in range(len(self.owner)):
            if self.owner[s] == p:
                self.castle_free += self.cast[s]
                self.tower_free += self.tower[s]
                self.sett[s] = self.cast[s] = self.tower[s] = self.arm[s] = self.moved[s] = 0
                self.owner[s] = -1
        self.n_arm[p] = self.n_set[p] = self.n_cast[p] = self.n_tow[p] = 0
        for r, v in enumerate(self.res[p]):
            if v:
                self.spend(p, r, v)
        nab = len(self.model.abilities)
        self.abil[p] = []
        self.has[p] = [False] * nab
        self.spent[p] = [False] * nab
        from engine.kingdoms.effects import build_mods
        self.mods[p] = build_mods(self, [])
        yield from self.choose_kingdom(p, exclude_own=True)
        self.found(p, spaces[k])

    def choose_kingdom(self: "KState", p: int, exclude_own: bool = False) -> Gen:
        taken = [self.kingdom[o] for o in range(self.n) if o != p]
        left = [kd.idx for kd in self.model.kingdoms if kd.idx not in taken
                and not (exclude_own and kd.idx == self.kingdom[p])]
        if not left:
            left = [kd.idx for kd in self.model.kingdoms if kd.idx != self.kingdom[p]] or [0]
        names = self.model.kingdoms
        k = yield self.ask(p, "kingdom", "Choose a kingdom", lambda: [names[i].name for i in left], left)
        kd = self.model.kingdoms[left[k]]
        self.kingdom[p] = kd.idx
        self.kingdoms_held[p].append(kd.idx)
        self.use_kingdom[kd.idx][p] += 1
        for ai in kd.abilities:
            self.grant_ability(p, ai)
            self.use_picked[ai][p] -= 1      # starting abilities are played, not picked

    def found(self: "KState", p: int, sp: int, settlement_placed: bool = False) -> None:
        """Starting units and resources, as at setup, in space `sp`."""
        rules = self.model.rules["setup"]
        units = rules["starting-units"]
        for unit in ("settlement", "castle", "army"):
            n = int(units.get(unit, 0)) - (1 if unit == "settlement" and settlement_placed else 0)
            if n:
                self.add_unit(p, sp, unit, n)
        for r, v in enumerate(self.model.vec(rules["starting-resources"])):
            if v:
                self.gain(p, r, v)
