"""Bots of Dice Battles and the evaluation the shared search bot scores truncated games with.

The heuristic reads only what its seat sees (the driver hands it a redacted state): its own hand,
the mat, both fleeing and reinforcement zones. It plays on each battalion the order it can
activate with the most expected wounds, guesses the opposing order's class from the tiles that
could activate it (and plays a defensive power against that class), regroups the fleeing units
closest to leaving (the strongest first when not all fit), and sends its best reserve tile to
the front.
"""
from __future__ import annotations

import random
from typing import Any

from engine.core.api import Decision
from engine.dice_battles.effects import HANDLERS
from engine.dice_battles.model import HERO, HERO_LEVEL, Card, Model
from engine.dice_battles.state import REGROUP_SLOT, DBState

_COLOUR_WORTH = (1.0, 1.15, 1.25)      # normal, poisoned (lingers), crushing (beats armour)


def _order_classes(m: Model) -> tuple[str, ...]:
    """Per unit type, the class of its order card: a table of the content, shared by every bot
    and game of the model."""
    table = m.derived.get("order-classes")
    if table is None:
        table = m.derived["order-classes"] = tuple(m.cards[u.card].cls for u in m.units)
    return table


class _Plan:
    """What the heuristic reads of one order card, grouped once per model: its unit, dice and
    colour worth, and its powers as scoring steps in printed order (see `_plans`)."""

    __slots__ = ("card", "unit", "hero", "dice", "worth", "steps")

    def __init__(self, card: Card) -> None:
        self.card = card
        self.unit = card.unit
        self.hero = card.level == HERO_LEVEL
        self.dice = card.dice
        self.worth = _COLOUR_WORTH[card.colour]
        steps: list[tuple[int, Any, Any]] = []
        for e in card.effects:
            h = HANDLERS[e.kind]
            if h.category == "offensive" and card.dice:
                steps.append((_VS, e.amount, e.vs_class) if e.kind == "extra-dice" and e.vs_class else (_RUN, h.run, e))
            elif h.category == "defensive":
                steps.append((_DEFEND, e.amount, e.classes))
            elif e.kind in ("heal", "global-heal"):
                steps.append((_HEAL, 1 if e.kind == "heal" else 9, None))
            elif e.kind == "cancel-powers":
                steps.append((_FLAT, 0.8, None))
            elif e.kind == "ignore-armour":
                steps.append((_FLAT, 0.4, None))
        self.steps = tuple(steps)


_VS, _RUN, _DEFEND, _HEAL, _FLAT = range(5)   # scoring steps of a power (see `HeuristicBot.order_value`)


def _plans(m: Model) -> tuple[_Plan, ...]:
    """Per order card, its `_Plan`: a table of the content, shared by every bot and game of the model."""
    table = m.derived.get("heuristic-plans")
    if table is None:
        table = m.derived["heuristic-plans"] = tuple(_Plan(c) for c in m.cards)
    return table


class _View:
    """The seat's own battalions as the heuristic reads them, taken once per orders phase: every
    option is then scored from these tables instead of walking the mat again for each card.
    Nothing moves on the mat while orders are placed, so the opposing classes likely on each
    battalion (`likely`) and their shares are kept here too."""

    __slots__ = ("status", "types", "active_units", "tokens", "likely", "shares")

    def __init__(self, st: DBState, p: int) -> None:
        utype = st.utype
        self.status: list[str] = []
        self.types: list[list[int]] = []          # per battalion, the unit type of each tile
        self.active_units: set[int] = set()       # unit types on the active battalions
        self.tokens: set[int] = set()             # unit types on the mat or in reinforcements
        for b, bat in enumerate(st.board[p]):     # plain loops: cheaper than comprehensions here
            status = st.status(p, b)
            types = []
            for uid in bat:
                if uid >= 0:
                    types.append(utype[uid])
            self.status.append(status)
            self.types.append(types)
            if status == "active":
                self.active_units.update(types)
            self.tokens.update(types)
        for uid in st.reinf[p]:
            self.tokens.add(utype[uid])
        self.likely: list[dict[str, float] | None] = [None, None, None]
        self.shares: dict[tuple[int, frozenset[str]], float] = {}

    def can_activate(self, b: int, card: Card) -> bool:
        """As `DBState.can_activate`, from the tables."""
        return self.can_play(b, card.unit, card.level == HERO_LEVEL)

    def can_play(self, b: int, unit: int, hero: bool) -> bool:
        """Whether a card of `unit` (a hero's card when `hero`) can be activated on battalion b:
        a tile of its unit stands there, or a hero's tile in a battalion next to it."""
        types = self.types
        return unit in types[b] or (hero and ((b > 0 and unit in types[b - 1]) or (b < 2 and unit in types[b + 1])))

    def share(self, b: int, classes: frozenset[str]) -> float:
        """The likely share, on battalion b, of opposing orders of the named classes."""
        key = (b, classes)
        got = self.shares.get(key)
        if got is None:
            got = self.shares[key] = sum(v for k, v in self.likely[b].items() if k in classes)  # type: ignore[union-attr]
        return got


class HeuristicBot:
    """Greedy by expected wounds, with the counter-class guess and regrouping described above."""

    __slots__ = ("seat", "rng", "_seen")
    # It reads its own hand (the options), the mat, both zones and the marks on tiles, never the
    # other seat's hand, deck, face-down orders or secret reinforcements: the driver need not
    # redact around it (a test plays whole games both ways and expects every choice alike).
    reads_hidden = False

    def __init__(self, seat: int, rng: random.Random) -> None:
        self.seat = seat
        self.rng = rng
        self._seen: tuple[DBState, int, _View] | None = None   # the view of the last orders phase

    def _view(self, st: DBState) -> _View:
        """The seat's view for this decision. Nothing moves on the mat between the draw and the
        reveal, so the seat's order and reinforcement decisions of one round (on the same state)
        share one view."""
        seen = self._seen
        if seen is not None and seen[0] is st and seen[1] == st.round:
            return seen[2]
        view = _View(st, self.seat)
        self._seen = (st, st.round, view)
        return view

    def choose(self, state: Any, decision: Decision) -> int:
        st: DBState = state
        kind = st.dkind
        if kind == "order":
            return self._order(st)
        if kind == "reinforce":
            return self._reinforce(st)
        if kind == "regroup":
            return self._regroup_units(st)
        return self.rng.randrange(decision.n)

    # --- orders
    def _order(self, st: DBState) -> int:
        slot, moves = st.slot, st.moves
        view = self._view(st)
        if slot == REGROUP_SLOT:
            return self._regroup_choice(st, view)
        status = view.status[slot]
        plans = _plans(st.model)
        if status == "active":
            likely = view.likely[slot]
            if likely is None:
                likely = view.likely[slot] = self.likely_classes(st, slot)
            value = self.order_value
            scores = [value(st, view, slot, plans[card]) if card >= 0 else 0.0 for card in moves]
        elif status == "idle":
            scores = [self._idle_value(st, view, slot, plans[card].card) if card >= 0 else 0.0 for card in moves]
        else:
            active = view.active_units
            scores = [(-1.0 if plans[card].unit in active else 0.5) if card >= 0 else 0.0 for card in moves]
        return scores.index(max(scores))   # the first of the best

    def likely_classes(self, st: DBState, b: int) -> dict[str, float]:
        """Share of each class among the orders the opponent could activate on battalion b."""
        classes = _order_classes(st.model)
        utype = st.utype
        counts: dict[str, float] = {}
        for uid in st.board[1 - self.seat][b]:
            if uid >= 0:
                cls = classes[utype[uid]]
                counts[cls] = counts.get(cls, 0.0) + 1.0
        total = sum(counts.values()) or 1.0
        for cls in counts:
            counts[cls] /= total
        return counts

    def order_value(self, st: DBState, view: _View, b: int, plan: _Plan) -> float:
        """Expected worth of playing a card (its plan) on active battalion b, where the opposing
        classes are as likely as view.likely[b] (`likely_classes`) says."""
        unit = plan.unit
        if not view.can_play(b, unit, plan.hero):
            return -5.0 + (-1.0 if unit in view.active_units else 0.5)   # cannot activate: a dump
        dice = plan.dice
        if dice and view.types[b].count(unit) > 1:
            dice += 1
        value = 0.0
        for step, amount, what in plan.steps:
            if step == _VS:
                dice += amount * view.share(b, what)
            elif step == _RUN:
                dice += amount(st, self.seat, b, plan.card, what, None)
            elif step == _DEFEND:
                value += amount * view.share(b, what) * 1.5
            elif step == _HEAL:
                total_wounds = st.total_wounds
                hurt = sum(min(total_wounds(u), amount) for u in st.board[self.seat][b] if u >= 0)
                value += 0.9 * hurt
            else:
                value += amount
        value += max(0.0, dice) * plan.worth
        if plan.hero:
            value -= 0.3   # hero cards are also the idle battalions' regrouping orders
        return value

    def _idle_value(self, st: DBState, view: _View, b: int, card: Card) -> float:
        if card.level != HERO_LEVEL or card.unit not in view.tokens:
            return self._dump_value(view, card)
        room = st.model.reinforcement_spaces - len(st.reinf[self.seat])
        found = sum(1 for r in card.regroups if any(u >= 0 and st.utype[u] == r for u in st.board[self.seat][b][:HERO]))
        return 2.0 * min(room, found) - 0.5

    @staticmethod
    def _dump_value(view: _View, card: Card) -> float:
        """Worth of getting rid of a card: high when nothing on the mat can activate it."""
        return -1.0 if card.unit in view.active_units else 0.5

    def _regroup_choice(self, st: DBState, view: _View) -> int:
        """The regrouping order: each card is worth the tiles it would bring back, and those are the
        tiles `_regroup_units` will pick when the regrouping asks which (when not all fit, the best
        of them, not the first pictures printed on the card)."""
        p = self.seat
        m = st.model
        room = m.reinforcement_spaces - len(st.reinf[p])
        best, pick = 0.9, len(st.moves) - 1
        fleeing = st.fleeing[p]
        if room <= 0 or not fleeing:
            return pick   # every card would be a dump (0.3 at best), below not regrouping (0.9)
        tokens = view.tokens
        open_spaces = self._open_spaces(st)
        last = m.fleeing_spaces - 1
        for i, card in enumerate(st.moves):
            if card < 0:
                continue
            c = m.cards[card]
            if c.unit not in tokens:
                continue  # a dump (0.3 at best), below not regrouping (0.9)
            movable = st._movable(c.regroups, fleeing)
            if not movable or (not m.regroup_until_full and len(movable) > room):
                continue  # nothing would come back
            options = st.regroup_options(p, c.regroups, fleeing, min(room, len(movable)))
            worths = [self._regroup_worth(st, fleeing, places, last, open_spaces) for places in options]
            chosen = options[worths.index(max(worths))]   # the tiles `_regroup_units` would then bring back
            # valued on the scale the thresholds here were set for: level, and half again in the last space
            value = sum((1.0 + m.units[st.utype[fleeing[pos]]].level) * (1.5 if pos == last else 1.0)
                        for pos in chosen)
            if any(view.status[b] == "active" and view.can_activate(b, c) for b in range(3)):
                value -= 0.3   # it could attack next round instead
            if value > best:
                best, pick = value, i
        return pick

    def _open_spaces(self, st: DBState) -> set[int]:
        """The empty spaces of the seat's active battalions (what a reserve tile could fill)."""
        p = self.seat
        return {s for b, bat in enumerate(st.board[p]) if st.status(p, b) == "active"
                for s in range(HERO) if bat[s] < 0}

    @staticmethod
    def _regroup_worth(st: DBState, source: list[int], places: Any, last: int, open_spaces: set[int]) -> float:
        """What bringing back the tiles at `places` of `source` is worth: the strongest units
        (level, then morale), a fleeing one half as much again when it stands in the last fleeing
        space (next to leave the battlefield), a unit that an empty space of an active battalion
        could take next round a little more, and a tile from a battalion (`last` < 0) more for
        each die on it (it comes back without them)."""
        m = st.model
        value = 0.0
        for pos in places:
            uid = source[pos]
            u = m.units[st.utype[uid]]
            worth = 1.0 + u.level + 0.3 * u.morale
            if pos == last:
                worth *= 1.5
            if not open_spaces.isdisjoint(u.positions):
                worth += 0.5
            if last < 0:
                worth += 0.4 * (st.wounds[uid] + st.excess[uid]) + 0.6 * st.poison[uid]
            value += worth
        return value

    def _regroup_units(self, st: DBState) -> int:
        """Which tiles a regrouping brings back when the player has a choice: the best by
        `_regroup_worth`."""
        p = self.seat
        source = st.regroup_source(p)
        last = st.model.fleeing_spaces - 1 if source is st.fleeing[p] else -1
        open_spaces = self._open_spaces(st)
        scores = [self._regroup_worth(st, source, places, last, open_spaces) for places in st.moves]
        return scores.index(max(scores))   # the first of the best

    # --- reinforcements
    def _reinforce(self, st: DBState) -> int:
        m = st.model
        best, pick = 0.0, 0
        status = self._view(st).status
        for i, mv in enumerate(st.moves):
            if mv is None:
                continue
            b, uid, s = mv
            u = m.units[st.utype[uid]]
            value = 1.0 + u.level + u.morale * 0.3 + (0.6 if s < 3 else 0.0)
            if status[b] != "active":
                value -= 3.0
            if value > best:
                best, pick = value, i
        return pick


def material(st: DBState, p: int) -> float:
    """A seat's fighting strength: heroes above all, then tiles by level and health left."""
    m = st.model
    total = 12.0 * st.heroes_left(p)
    for bat in st.board[p]:
        for s, uid in enumerate(bat):
            if uid >= 0 and s != HERO:
                u = m.units[st.utype[uid]]
                total += (1.0 + u.level) * (1.0 - st.total_wounds(uid) / (u.morale + 1))
            elif uid >= 0:
                u = m.units[st.utype[uid]]
                total -= 6.0 * min(1.0, st.total_wounds(uid) / u.morale)
    total += sum(0.8 * (1 + m.units[st.utype[uid]].level) for uid in st.reinf[p])
    total += sum(0.3 * (1 + m.units[st.utype[uid]].level) for uid in st.fleeing[p])
    return max(total, 0.1)


def evaluate(state: Any) -> list[float]:
    """Per-seat value in [0, 1] of an unfinished game: each side's share of the material."""
    a, b = material(state, 0), material(state, 1)
    return [a / (a + b), b / (a + b)]
