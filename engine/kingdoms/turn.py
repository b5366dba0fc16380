"""A player's turn: the phases of phases.yaml, each run step by step from its `steps` list.

Why steps from data: the phase order and what each phase does are content; the code only knows
how to carry out each named step. Menus offer one action at a time plus "Done", so option lists
stay short and every option is legal when offered.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Callable, Iterable, Iterator

from engine.core.api import Decision
from engine.kingdoms.areas import MOVED, PLAYERS, UNITS
from engine.kingdoms.effects import RESEARCH_MENU

if TYPE_CHECKING:
    from engine.kingdoms.state import KState

Gen = Iterator[Decision]
DONE = "Done"
DONE_MOVE = ("done",)
OFFER_ANSWERS = ("Accept the exchange", "Decline")
DECLINE_MOVE = ("decline",)


class TurnMixin:
    # ------------------------------------------------------------------ the turn
    def turn(self: "KState", p: int, first: str = "") -> Gen:
        self.current = p
        if not first:
            self.start_turn(p)
        started = not first
        for ph in self.model.phases:
            if not started:
                if ph["id"] != first:
                    continue
                started = True
            self.checkpoint(ph["id"])   # a clone can pick the game up at the start of any phase
            self.phase = ph["id"]
            self.stack_marks.clear()
            for step in ph["steps"]:
                yield from STEPS[step](self, p, ph)
                if self.end_reason:
                    return
            if self.guard():
                return
        self.end_turn(p)

    def start_turn(self: "KState", p: int) -> None:
        self.moved = [0] * len(self.moved)
        self.dirty |= MOVED
        self.trained = [0] * len(self.trained)
        self.stack_marks.clear()
        self.fought = []

    def end_turn(self: "KState", p: int) -> None:
        self.stack_bonus = [b for b in self.stack_bonus if b[2] != "this-turn"]
        self.moved = [0] * len(self.moved)
        self.dirty |= MOVED

    # ------------------------------------------------------------------ event and resources
    def step_event(self: "KState", p: int, ph: dict) -> Gen:
        r = (yield self.d10("Roll the event (d10)")) + 1
        r = yield from self.adjust_any(p, r, 10, "event")
        ev = self.model.events.get(r)
        if ev is None:
            return
        self.use_event[r][p] += 1
        yield from self.happen(p, ev.effects)

    def step_free_resources(self: "KState", p: int, ph: dict) -> Gen:
        m = self.model
        rr = m.rules["resources"]
        types = [m.resources.index(t) for t in rr["free-types"]]
        labels = tuple(m.resource_names[t] for t in types)
        for i in range(int(rr["free-per-turn"])):
            k = yield self.ask(p, "free-resource", f"Take a free resource ({i + 1} of {rr['free-per-turn']})",
                               labels, types)
            self.gain(p, types[k], 1)

    def production(self, p: int, count_tiles: bool = False) -> list[int]:
        """What `p`'s settlements, towers and extra-production abilities yield this Resource phase.

        Terrain yields once per space holding a settlement of `p`: the rules give a chit "for each
        terrain occupied", so a second settlement in the same space (Urbanization) adds none."""
        st: "KState" = self  # type: ignore[assignment]
        m = st.model
        out = [0] * len(m.resources)
        per = int(m.rules["resources"]["production-per-occupied-space"])
        clear = m.vec(m.rules["board"]["clear-space-produces"])
        tower = m.structures.get("wizard-tower")
        own = st.owner
        for sp in range(len(own)):
            if own[sp] != p:
                continue
            n = per if st.sett[sp] else 0
            if n:
                t = st.tile[sp]
                vec = m.terrains[t].produces if t >= 0 else (m.advanced[st.adv[sp]].produces if st.adv[sp] >= 0 else clear)
                if count_tiles and t < 0 and any(vec):
                    st.note_tile(p, sp)      # an advanced tile's yield (Barrens yields nothing)
                for r, v in enumerate(vec):
                    if v:
                        out[r] += v * n
            if st.tower[sp] and tower is not None:
                for r, v in enumerate(tower.produces):
                    out[r] += v * st.tower[sp]
        for r, v in enumerate(st.mods[p].extra_res):
            out[r] += v
        return out

    def step_production(self: "KState", p: int, ph: dict) -> Gen:
        for r, v in enumerate(self.production(p, count_tiles=True)):
            if v:
                self.gain(p, r, v)
        for ai in self.abil[p]:
            if any(e.kind == "extra-resource" for e in self.model.abilities[ai].effects):
                self.use_used[ai][p] += 1
        return
        yield  # pragma: no cover

    # ------------------------------------------------------------------ phase menus
    def phase_menu(self: "KState", p: int, key: str | None, kind: str, prompt: str,
                   moves: list[Any], label: Callable[[Any], str] = str) -> Iterator[Decision]:
        """Offer one step of a phase: the given moves, then the abilities usable at `key` (if
        any), then "Done". Returns the chosen move, or None when nothing can be offered or the
        player is done. A chosen ability is used here; the caller just offers the menu again.

        `label` names one of the given moves; it runs only if someone reads the labels (bots
        read the moves), which saves formatting a label per option at every step."""
        ability_labels: list[str] = []
        if key is not None:
            ability_labels, am = self.ability_options(p, key)
            moves += am
        if not moves:
            return None
        own = len(moves) - len(ability_labels)
        moves.append(DONE_MOVE)
        k = yield self.ask(p, kind, prompt, lambda: [label(mv) for mv in moves[:own]] + ability_labels + [DONE],
                           moves)
        mv = moves[k]
        if mv[0] == "done":
            return None
        if mv[0] == "ability":
            yield from self.use_ability(p, mv)
        return mv

    # ------------------------------------------------------------------ trade
    def step_trade(self: "KState", p: int, ph: dict) -> Gen:
        m = self.model
        conv = m.rules["resources"]["gold-conversion"]
        give, get = int(conv["give"]), int(conv["get"])
        g = self.gold
        names = m.resources

        def label(mv: tuple) -> str:
            return f"Change {give} gold for {get} {names[mv[1]]}"
        while True:
            moves: list[Any] = []
            if self.res[p][g] >= give:
                moves = [("gold", r) for r in range(len(names)) if r != g]
            mv = yield from self.phase_menu(p, "trade", "trade", "Trade phase", moves, label)
            if mv is None:
                return
            if mv[0] == "gold":
                self.spend(p, g, give)
                self.gain(p, mv[1], get)

    def trade_partners(self: "KState", p: int) -> list[int]:
        own, sett, adj = self.owner, self.sett, self.board.adj
        found = []
        for sp in range(len(own)):
            if own[sp] == p and sett[sp]:
                for j in adj[sp]:
                    o = own[j]
                    if o >= 0 and o != p and sett[j] and o not in found:
                        found.append(o)
        return sorted(found)

    def step_gifts(self: "KState", p: int, ph: dict) -> Gen:
        """Gifts and trades with players whose settlements neighbour `p`'s. A gift (one chit at a
        time) is `p`'s alone to give. A trade offers some chits of one type for some of another, at
        any rate `p` names (the rulebook sets none); it happens only if the neighbour accepts. Each
        pair of types is offered to a neighbour at most once a turn, so the phase always ends."""
        partners = self.trade_partners(p)
        if not partners:
            return
        m = self.model
        offered: set[tuple[int, int, int]] = set()
        names = m.resources
        kinds = range(len(names))

        def label(mv: tuple) -> str:
            if mv[0] == "give":
                return f"Give 1 {names[mv[2]]} to {self.seat_name(mv[1])}"
            return f"Offer {self.seat_name(mv[1])} {names[mv[2]]} for {names[mv[3]]}"
        while True:
            moves: list[Any] = []
            mine = self.res[p]
            have = [r for r in kinds if mine[r]]
            for o in partners:
                theirs = self.res[o]
                moves += [("give", o, r) for r in have]
                for r in have:
                    moves += [("offer", o, r, w) for w in kinds
                              if w != r and theirs[w] and (o, r, w) not in offered]
            mv = yield from self.phase_menu(p, None, "gift", "Trade with neighbours", moves, label)
            if mv is None:
                return
            if mv[0] == "give":
                self.res[p][mv[2]] -= 1
                self.res[mv[1]][mv[2]] += 1
                self.dirty |= PLAYERS
                continue
            _, o, r, w = mv
            offered.add((o, r, w))
            give = yield from self.ask_count(p, "trade-give", f"How many {names[r]} do you offer?",
                                             names[r], mine[r])
            get = yield from self.ask_count(p, "trade-get", f"How many {names[w]} do you ask for?",
                                            names[w], self.res[o][w])
            k = yield self.ask(o, "trade-offer",
                               f"{self.seat_name(p)} offers {give} {names[r]} for your {get} {names[w]}",
                               OFFER_ANSWERS, [("accept", p, r, w, give, get), DECLINE_MOVE])
            if k == 0:
                self.res[p][r] -= give
                self.res[o][r] += give
                self.res[o][w] -= get
                self.res[p][w] += get
                self.dirty |= PLAYERS
                self.stats["trades"] += 1

    def ask_count(self: "KState", p: int, kind: str, prompt: str, what: str, most: int) -> Iterator[Decision]:
        """Ask `p` for a number from 1 to `most` (options "1 wood", "2 wood", ...); with only one
        possible number nothing is asked."""
        if most <= 1:
            return 1
        k = yield self.ask(p, kind, prompt, lambda: [f"{n} {what}" for n in range(1, most + 1)],
                           list(range(1, most + 1)))
        return k + 1

    # ------------------------------------------------------------------ building
    def _site_extra(self: "KState", p: int, structure: str, sp: int) -> bool:
        """Whether a build-site effect of `p` allows `structure` in `sp`."""
        for s, site, amp in self.mods[p].sites:
            if s != structure:
                continue
            if amp and not (self.owner[sp] == p and self.arm[sp] > 0):
                continue
            o = self.owner[sp]
            if site == "own-settlement" and o == p and self.sett[sp] > 0:
                return True
            if site in ("any-space", "empty-space") and o in (-1, p) and self.horde[sp] < 0:
                return True
        return False

    def _buildable(self: "KState", p: int, sp: int) -> bool:
        return (not self.no_build[sp] and self.horde[sp] < 0 and self.owner[sp] in (-1, p)
                and not self.inv[sp] and not (self.dip[sp] >> p) & 1)

    def _extra_sites(self: "KState", p: int, structure: str) -> bool:
        """Whether an ability lets `p` put `structure` somewhere other than the usual places."""
        return any(s == structure for s, _, _ in self.mods[p].sites)

    def settlement_sites(self: "KState", p: int) -> list[int]:
        if self.colour_room(p, "settlement") <= 0:
            return []
        lim = self.mods[p].settlements_per_space
        own, sett, adj = self.owner, self.sett, self.board.adj
        if self._extra_sites(p, "settlement"):
            return [sp for sp in range(len(own)) if sett[sp] < lim and self._buildable(p, sp)
                    and ((own[sp] == p and sett[sp]) or any(own[j] == p and sett[j] for j in adj[sp])
                         or self._site_extra(p, "settlement", sp))]
        near: set[int] = set()     # own settlements and their neighbours: the only candidates
        for sp in self.own_settlement_spaces(p):
            near.add(sp)
            near.update(adj[sp])
        return [sp for sp in sorted(near) if sett[sp] < lim and self._buildable(p, sp)]

    def _fort_candidates(self: "KState", p: int, structure: str) -> Iterable[int]:
        """Spaces that may take a castle or tower: own settlements, or any space when an ability
        opens other sites (then `_site_extra` decides)."""
        if self._extra_sites(p, structure):
            return range(len(self.owner))
        return self.own_settlement_spaces(p)

    def castle_sites(self: "KState", p: int) -> list[int]:
        if self.castle_free <= 0 and self.limited:
            return []
        lim = self.mods[p].castles_per_space
        out = []
        for sp in self._fort_candidates(p, "castle"):
            if self.cast[sp] >= lim or self.tower[sp] or not self._buildable(p, sp):
                continue
            if (self.owner[sp] == p and self.sett[sp]) or self._site_extra(p, "castle", sp):
                out.append(sp)
        return out

    def tower_sites(self: "KState", p: int) -> list[int]:
        st = self.model.structures.get("wizard-tower")
        if st is None or not self.variants.get(st.variant or "", False) \
                or (self.tower_free <= 0 and self.limited):
            return []
        out = []
        for sp in self._fort_candidates(p, "wizard-tower"):
            if self.tower[sp] or self.cast[sp] or not self._buildable(p, sp):
                continue
            if not ((self.owner[sp] == p and self.sett[sp]) or self._site_extra(p, "wizard-tower", sp)):
                continue
            if st.not_adjacent_to_same and any(self.tower[j] for j in self.board.adj[sp]):
                continue
            out.append(sp)
        return out

    def train_capacity(self: "KState", p: int, sp: int) -> int:
        """Armies a space can train per turn: one per castle, or one for a settlement (Barracks)."""
        if self.owner[sp] != p or self.horde[sp] >= 0:
            return 0
        cap = self.cast[sp]
        if not cap and self.sett[sp] and self._site_extra(p, "army", sp):
            cap = 1
        return cap

    def army_sites(self: "KState", p: int) -> list[int]:
        """Where a free army may appear: a castle (or a settlement without any castle)."""
        if self.colour_room(p, "army") <= 0:
            return []
        lim = self.mods[p].stack_limit
        spaces = [sp for sp in self.own_spaces(p) if self.arm[sp] < lim and self.train_capacity(p, sp)]
        if not spaces and self.n_cast[p] == 0:
            spaces = [sp for sp in self.own_settlement_spaces(p) if self.arm[sp] < lim and self.horde[sp] < 0]
        return spaces

    def unit_sites(self: "KState", p: int, unit: str) -> list[int]:
        if unit == "army":
            return self.army_sites(p)
        if unit == "settlement":
            return self.settlement_sites(p)
        if unit == "castle":
            return self.castle_sites(p)
        if unit == "wizard-tower":
            return self.tower_sites(p)
        return []

    def add_unit(self: "KState", p: int, sp: int, unit: str, n: int = 1) -> None:
        self.owner[sp] = p
        self.dirty |= UNITS
        if unit == "army":
            n = self.from_supply("army", self.model.colour_supply["army"] - self.n_arm[p], n)
            self.arm[sp] += n
            self.n_arm[p] += n
        elif unit == "settlement":
            n = self.from_supply("settlement", self.model.colour_supply["settlement"] - self.n_set[p], n)
            self.sett[sp] += n
            self.n_set[p] += n
            if n and self.out[p]:
                self.out[p] = False     # a new last settlement may be lost, and started over from, again
                self.dirty |= PLAYERS
        elif unit == "castle":
            n = self.from_supply("castle", self.castle_free, n)
            self.cast[sp] += n
            self.n_cast[p] += n
            self.castle_free -= n
        elif unit == "wizard-tower":
            n = self.from_supply("tower", self.tower_free, n)
            self.tower[sp] += n
            self.n_tow[p] += n
            self.tower_free -= n

    def place_free_unit(self: "KState", p: int, unit: str, placement: str, space: int) -> Gen:
        if placement == "this-space" and space >= 0:
            if unit != "army" or (self.arm[space] < self.mods[p].stack_limit
                                  and self.colour_room(p, "army") > 0):
                self.add_unit(p, space, unit)
            return
        sites = self.unit_sites(p, unit)
        if not sites:
            return
        lab = self.board.labels
        k = 0
        if len(sites) > 1:
            k = yield self.ask(p, "place", f"Place the free {unit}", self.space_names(sites), [(unit, s) for s in sites])
        yield from self.built(p, sites[k], unit)

    def built(self: "KState", p: int, sp: int, unit: str) -> Gen:
        """Put a unit down and trigger a tile's first-settlement effects."""
        self.add_unit(p, sp, unit)
        if unit == "settlement":
            self.stats["settlements_built"] += 1
            t = self.adv[sp]
            if t >= 0:
                self.use_settled[t][p] += 1
            if t >= 0 and not self.claimed[sp] and self.model.advanced[t].first_settlement_effects:
                self.claimed[sp] = True
                self.note_tile(p, sp)
                yield from self.happen(p, self.model.advanced[t].first_settlement_effects, sp)
        elif unit == "castle":
            self.stats["castles_built"] += 1
        elif unit == "wizard-tower":
            self.stats["towers_built"] += 1

    def step_build(self: "KState", p: int, ph: dict) -> Gen:
        """Build the phase's structures: one per turn (plus extra builds), one at a time."""
        m = self.model
        builds = [b for b in ph.get("builds") or [] if b in m.structures]
        if not builds:
            return
        main = builds[0]
        self.phase_builds = main
        allowance = m.structures[main].max_per_turn
        for structs, amount in self.mods[p].free_builds:
            if main in structs:
                allowance += amount
        self.bonus_builds = 0
        lab = self.board.labels
        if main == "settlement" and self.colour_room(p, main) <= 0 and self.can_pay(p, self.cost_of(p, main)):
            self.stats["shortage_settlements"] += 1    # could build, but the colour set is all out

        def label(mv: tuple) -> str:
            return f"Build a {m.structures[mv[1]].name.lower()} at {lab[mv[2]]}"
        while True:
            moves: list[Any] = []
            if allowance + self.bonus_builds > 0:
                for b in builds:
                    if self.can_pay(p, self.cost_of(p, b)):
                        moves += [("build", b, sp) for sp in self.unit_sites(p, b)]
            mv = yield from self.phase_menu(p, "build", "build", f"{ph['name']}", moves, label)
            if mv is None:
                break
            if mv[0] == "ability":
                continue
            _, b, sp = mv
            self.pay(p, self.cost_of(p, b))
            if allowance > 0:
                allowance -= 1
            else:
                self.bonus_builds -= 1
            yield from self.built(p, sp, b)
        self.phase_builds = ""

    def step_train(self: "KState", p: int, ph: dict) -> Gen:
        lab = self.board.labels
        if self.colour_room(p, "army") <= 0 and self.can_pay(p, self.cost_of(p, "army")):
            self.stats["shortage_armies"] += 1         # could train, but the colour set is all out

        def label(mv: tuple) -> str:
            return f"Train an army at {lab[mv[1]]}"
        while True:
            moves: list[Any] = []
            cost = self.cost_of(p, "army")
            if self.can_pay(p, cost) and self.colour_room(p, "army") > 0:
                lim = self.mods[p].stack_limit
                own, arm, trained = self.owner, self.arm, self.trained
                moves = [("train", sp) for sp in range(len(own))
                         if own[sp] == p and arm[sp] < lim and trained[sp] < self.train_capacity(p, sp)]
            mv = yield from self.phase_menu(p, "train", "train", "Train phase", moves, label)
            if mv is None:
                return
            if mv[0] == "ability":
                continue
            sp = mv[1]
            self.pay(p, cost)
            self.trained[sp] += 1
            self.add_unit(p, sp, "army")
            self.stats["armies_trained"] += 1

    # ------------------------------------------------------------------ movement
    def can_enter(self: "KState", p: int, j: int) -> bool:
        if self.no_enter[j] or self.holy[j] or (self.dip[j] >> p) & 1:
            return False
        o = self.owner[j]
        if o == p or o < 0:
            return not self.inv[j] or self.inv_owner[j] == p
        return self.pvp and self.horde[j] < 0 and not self.inv[j]

    def reachable(self: "KState", p: int, src: int, n: int, again: bool = False) -> list[int]:
        """Spaces a stack of `n` armies in `src` can end its move in this turn."""
        m = self.mods[p]
        mv = self.model.rules["movement"]
        budget = int(mv["spaces"]) + m.extra_move + self.haste[src] + self.plains_army[src]
        adj = self.board.adj
        diag = self.board.diag if m.diagonal else None
        lim = m.stack_limit
        own, sett, horde = self.owner, self.sett, self.horde
        # a Plains bonus counts once per move: the start's, or else the first one entered
        cap = budget if self.plains_army[src] else budget + max(self.plains_army)
        best = {src: budget}
        frontier = [src]
        out: list[int] = []
        while frontier:
            s = frontier.pop()
            left = best[s]
            nbrs = adj[s] + diag[s] if diag is not None else adj[s]
            for j in nbrs:
                if not self.can_enter(p, j):
                    continue
                cost = 0 if (m.roads and own[j] == p and sett[j]) else 1
                if cost > left:
                    continue
                rem = min(left - cost + self.plains_army[j], cap)
                stop = horde[j] >= 0 or (own[j] >= 0 and own[j] != p) or self.stop_here[j]
                if stop:
                    rem = 0
                if j != src and j not in out:
                    here = self.inv[j] if own[j] not in (-1, p) else self.arm[j]
                    if here + n <= lim:
                        out.append(j)
                if rem > best.get(j, -1):
                    best[j] = rem
                    if not stop and rem > 0:
                        frontier.append(j)
        out.sort()
        return out

    def unmoved_stacks(self: "KState", p: int) -> list[int]:
        return [sp for sp in self.own_army_spaces(p) if self.arm[sp] > self.moved[sp]]

    def move_armies(self: "KState", p: int, src: int, dst: int, n: int) -> None:
        self.dirty |= UNITS | MOVED
        if self.plains_army[src]:
            self.note_tile(p, src)       # Plains: the move started there, with a space more
        if self.stop_here[dst] or self.plains_army[dst]:
            self.note_tile(p, dst)       # Desert ends the move there; Plains entered
        self.arm[src] -= n
        self.n_arm[p] -= n
        self.moved[src] = min(self.moved[src], self.arm[src])
        if self.haste[src] and self.arm[src] == 0:
            self.haste[src] = 0
        self.tidy(src)
        if self.owner[dst] not in (-1, p):
            self.inv[dst] += n
            self.inv_owner[dst] = p
            self.n_arm[p] += n
        else:
            self.owner[dst] = p
            self.arm[dst] += n
            self.n_arm[p] += n
            self.moved[dst] += n

    def step_move(self: "KState", p: int, ph: dict) -> Gen:
        cost = self.model.vec(self.model.rules["movement"]["cost-per-stack"])
        lab = self.board.labels

        def label(mv: tuple) -> str:
            return f"Move {mv[3]} from {lab[mv[1]]} to {lab[mv[2]]}"
        while True:
            moves: list[Any] = []
            if self.can_pay(p, cost):
                for sp in self.unmoved_stacks(p):
                    free = self.arm[sp] - self.moved[sp]
                    for n in range(free, 0, -1):     # the whole stack or any part of it
                        moves += [("move", sp, d, n) for d in self.reachable(p, sp, n)]
            mv = yield from self.phase_menu(p, "move", "move", "Move phase", moves, label)
            if mv is None:
                return
            if mv[0] == "ability":
                continue
            _, sp, d, n = mv
            self.pay(p, cost)
            self.move_armies(p, sp, d, n)

    def relocate_dests(self: "KState", p: int, sp: int, e: Any) -> list[int]:
        adj = self.board.adj[sp] if e.get("to") == "adjacent-space" else range(len(self.owner))
        out = []
        for j in adj:
            if j == sp or self.no_enter[j] or self.holy[j]:
                continue
            if e.get("must-be-unoccupied"):
                if self.owner[j] >= 0 or self.horde[j] >= 0 or self.inv[j]:
                    continue
            elif not self.can_enter(p, j) or self.owner[j] not in (-1, p) or \
                    (e.get("piece") in ("army", "army-stack") and self.arm[j] >= self.mods[p].stack_limit):
                continue
            out.append(j)
        return out

    def relocate(self: "KState", p: int, sp: int, e: Any) -> Gen:
        """Move a settlement, one army or a whole stack outside the normal movement rules."""
        dests = self.relocate_dests(p, sp, e)
        if not dests:
            return
        lab = self.board.labels
        piece = e.get("piece")
        k = yield self.ask(p, "relocate", f"Move the {piece} from {lab[sp]} to", self.space_names(dests), dests)
        d = dests[k]
        if piece == "settlement":
            self.sett[sp] -= 1
            self.n_set[p] -= 1
            self.dirty |= UNITS
            self.tidy(sp)
            self.add_unit(p, d, "settlement")
        else:
            n = 1 if piece == "army" else self.arm[sp]
            n = min(n, self.mods[p].stack_limit - self.arm[d])
            self.move_armies(p, sp, d, n)     # the army has moved for the turn (Gate included)

    def diplomacy_spaces(self: "KState", p: int, o: int) -> list[int]:
        """Spaces `p` may forbid to opponent `o`: every space next to one of their units that is not
        theirs and not already forbidden to them (nothing can enter a chasm, so it is left out)."""
        own, adj = self.owner, self.board.adj
        out = []
        for sp in range(len(own)):
            if own[sp] == o or (self.dip[sp] >> o) & 1 or self.no_enter[sp]:
                continue
            if any(own[j] == o for j in adj[sp]):
                out.append(sp)
        return out

    # ------------------------------------------------------------------ attack phase
    def battle_spaces(self: "KState", p: int) -> list[int]:
        own, arm, inv = self.owner, self.arm, self.inv
        if not any(inv):     # no invaders anywhere: only the hordes' spaces can hold a battle
            return [sp for sp in self.horde_spaces() if own[sp] == p and arm[sp]]
        horde = self.horde
        return [sp for sp in range(len(own))
                if (own[sp] == p and arm[sp] and horde[sp] >= 0) or (inv[sp] and self.inv_owner[sp] == p)]

    def lra_targets(self: "KState", p: int, e: Any) -> list[int]:
        vs = e.get("vs")
        types = [("humanoid", "undead", "monster").index(v) for v in vs] if vs else None
        frm = e.get("from") or []
        adj = self.board.adj
        out = []
        for sp in self.horde_spaces():
            if types is not None and self.model.hordes[self.horde[sp]].type not in types:
                continue
            for j in adj[sp]:
                if self.owner[j] == p and (("army" in frm and self.arm[j]) or ("castle" in frm and self.cast[j])):
                    out.append(sp)
                    break
        return out

    def step_long_range(self: "KState", p: int, ph: dict) -> Gen:
        while True:
            labels, moves = self.ability_options(p, "attack")
            if not labels:
                return
            labels.append("Fight the battles")
            moves.append(("done",))
            k = yield self.ask(p, "attack", "Attack phase", labels, moves)
            if moves[k][0] == "done":
                return
            yield from self.use_ability(p, moves[k])

    def step_battles(self: "KState", p: int, ph: dict) -> Gen:
        for sp in self.battle_spaces(p):
            if self.inv[sp] and self.inv_owner[sp] == p:
                yield from self.pvp_battle(p, sp)
            elif self.horde[sp] >= 0 and self.owner[sp] == p and self.arm[sp]:
                yield from self.battle(sp, "attack")
            if self.end_reason:
                return
        while (yield from self.phase_menu(p, "after-attack", "after-attack", "After the battles", [])):
            pass
        yield from self.check_restarts()

    def forced_march(self: "KState", p: int, sp: int) -> Gen:
        n = self.arm[sp]
        dests = self.reachable(p, sp, n, again=True)
        if not dests:
            return
        lab = self.board.labels
        k = yield self.ask(p, "march", f"March the stack from {lab[sp]} to", self.space_names(dests), dests)
        d = dests[k]
        self.move_armies(p, sp, d, n)
        if self.inv[d] and self.inv_owner[d] == p:
            yield from self.pvp_battle(p, d)
        elif self.horde[d] >= 0:
            yield from self.battle(d, "attack")

    # ------------------------------------------------------------------ research, spawn, end
    def step_research_free(self: "KState", p: int, ph: dict) -> Gen:
        self.researched = 0
        for _ in range(int(self.model.rules["research"]["free-per-turn"])):
            before = len(self.abil[p])
            yield from self.pick_ability(p, "Research a free ability")
            if len(self.abil[p]) > before:
                self.researched += 1
                self.stats["abilities_researched"] += 1

    def research_price(self: "KState", p: int) -> int:
        nth = self.researched + 1
        return max(0, int(self.model.rules["research"]["extra-cost"]) + self.mods[p].research_delta.get(nth, 0))

    def step_research_buy(self: "KState", p: int, ph: dict) -> Gen:
        """Buy more abilities, one at a time; the menu also offers the one-time abilities held
        (Friends, Great Caravan, Destruction): one may be used from the moment it is gained, so
        one researched in the last round still counts, and Great Caravan's gold can pay for an
        ability bought here."""
        total = len(self.model.abilities)

        def label(mv: tuple) -> str:
            return f"Buy an ability for {mv[1]} resources"
        while True:
            price = self.research_price(p)
            moves: list[Any] = []
            if len(self.abil[p]) < total and sum(self.res[p]) >= price:
                moves = [("buy", price)]
            mv = yield from self.phase_menu(p, RESEARCH_MENU, "buy-ability", "Buy another ability?", moves, label)
            if mv is None:
                return
            if mv[0] == "ability":
                continue
            yield from self.pay_chits(p, price, "Pay for the ability")
            yield from self.pick_ability(p, "Research a bought ability")
            self.researched += 1
            self.stats["abilities_bought"] += 1

    def pay_chits(self: "KState", p: int, amount: int, prompt: str) -> Gen:
        """Pay `amount` chits of any mix, one at a time, of the types the player picks: the rules
        price an extra ability in resources of any kind, so which ones go is the player's choice."""
        names = self.model.resource_names
        for i in range(amount):
            held = [r for r in range(len(names)) if self.res[p][r]]
            k = 0
            if len(held) > 1:        # one kind left: nothing to choose
                k = yield self.ask(p, "pay", f"{prompt} ({i + 1} of {amount})",
                                   lambda held=held: [f"Pay {names[r]}" for r in held], held)
            self.spend(p, held[k], 1)

    def step_spawn(self: "KState", p: int, ph: dict) -> Gen:
        count = 0
        for s in self.model.rules["spawn"]["schedule"]:
            if self.round >= int(s["from-round"]):
                count = int(s["hordes"])
        for _ in range(count):
            yield from self.spawn_one()

    def step_discard(self: "KState", p: int, ph: dict) -> Gen:
        cap = self.mods[p].cap
        names = self.model.resource_names
        while sum(self.res[p]) > cap:
            held = [r for r in range(len(names)) if self.res[p][r]]
            k = yield self.ask(p, "discard", f"Discard down to {cap}",
                               lambda held=held: [f"Discard {names[r]}" for r in held], held)
            self.spend(p, held[k], 1)
            self.stats["resources_discarded"] += 1
        if sum(self.res[p]) > cap:
            self.cap_broken[p] = True
            self.dirty |= PLAYERS


STEPS: dict[str, Callable[..., Gen]] = {
    "roll-event": TurnMixin.step_event,
    "gain-free-resources": TurnMixin.step_free_resources,
    "collect-production": TurnMixin.step_production,
    "convert-gold": TurnMixin.step_trade,
    "trade-with-neighbours": TurnMixin.step_gifts,
    "build": TurnMixin.step_build,
    "train": TurnMixin.step_train,
    "move-armies": TurnMixin.step_move,
    "use-long-range-attacks": TurnMixin.step_long_range,
    "fight-battles": TurnMixin.step_battles,
    "research-free-ability": TurnMixin.step_research_free,
    "buy-extra-abilities": TurnMixin.step_research_buy,
    "spawn-hordes": TurnMixin.step_spawn,
    "discard-to-cap": TurnMixin.step_discard,
}
