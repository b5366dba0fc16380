"""The rules of Hordes & Heroes as one sequential generator (see engine.core.sequential).

Hidden cards are drawn when they are revealed rather than shuffled up front: the hero deck,
the treasure deck and the town deck are multisets, and a face-down horde card is a slot that
only knows its level (and whether its stack's boss is still hidden). Drawing a uniformly random
card at reveal time gives the same distribution as shuffling first, needs far fewer chance
events, and lets a scenario name the card it wants ("Vampire Lord") instead of a shuffle index.
"""
from __future__ import annotations

from functools import partial
from itertools import compress
from typing import Any, Callable, Iterable, Iterator

from engine.core.api import CHANCE, Decision, GameResult
from engine.core.sequential import SequentialState
from engine.hordes_and_heroes import hidden
from engine.hordes_and_heroes.areas import (ALL, CARDS, DICE, HIDDEN_L1, HIDDEN_L2, HORDE, LIMITS, TOKENS, TOWNS,
                                            TREASURES)
from engine.hordes_and_heroes.effects import HANDLERS
from engine.hordes_and_heroes.invariants import check
from engine.hordes_and_heroes.model import DeckCard, Model

FACES = ("1", "2", "3", "4", "5", "6")
_ROLL = [Decision(CHANCE, f"Roll die {i + 1}", FACES) for i in range(64)]
_EXACT = ("exact", 0, 0, 0)
_NO_DISCOUNT = (0,)
_FACES = range(1, 7)
# the roll step's options that name a die, made once: ("keep", i), ("release", i)
_KEEP = tuple(("keep", i) for i in range(64))
_RELEASE = tuple(("release", i) for i in range(64))
_REROLL, _STOP = ("reroll", 0), ("stop", 0)
_REVEAL: dict[str, str] = {}
_VERBS = {"play": "Play", "recruit": "Recruit"}


def in_stock(counts: list[int]) -> tuple[list[int], tuple[float, ...]]:
    """The indices of the cards left in a deck of counts, and their counts as draw weights;
    built by C-level iterators since a draw happens every few steps."""
    return list(compress(range(len(counts)), counts)), tuple(map(float, filter(None, counts)))


def names_of(items: tuple, idx: list[int]) -> list[str]:
    """The names of model items by index: the labels of a draw."""
    return [items[i].name for i in idx]


def framed(before: str, names: list | Callable[[], list], after: str = "",
           last: str | None = None) -> Callable[[], list[str]]:
    """A labels function for `ask`: each name between `before` and `after`, then `last`.

    The arguments are bound now (give a list nobody changes later, or a `partial`), so the labels
    read as they did when the choice was offered, whenever they are built."""
    def build() -> list[str]:
        out = [f"{before}{x}{after}" for x in (names() if callable(names) else names)]
        if last is not None:
            out.append(last)
        return out
    return build


def _reveal_prompt(name: str) -> str:
    """The prompt of a reveal, made once per stack name."""
    prompt = _REVEAL.get(name)
    if prompt is None:
        prompt = _REVEAL[name] = f"Reveal the top of {name}"
    return prompt


class PartyHero:
    """A hero in a party; mutable because treasures attach and activation toggles."""

    __slots__ = ("card", "treasure", "tlevel", "active")

    def __init__(self, card: int, treasure: int = -1, tlevel: int = 0) -> None:
        self.card = card
        self.treasure = treasure
        self.tlevel = tlevel
        self.active = False


class Stack:
    """A horde stack, bottom card first. Entries >= 0 are monsters, negative entries hidden slots."""

    __slots__ = ("name", "cards", "up", "boss_hidden")

    def __init__(self, name: str, cards: list[int], up: bool, boss_hidden: bool) -> None:
        self.name = name
        self.cards = cards
        self.up = up
        self.boss_hidden = boss_hidden


class HHState(SequentialState):
    """A game of Hordes & Heroes. Build with `new_state` or `scenario_state` (setup.py)."""

    def __init__(self, model: Model, players: int, options: dict | None = None,
                 situation: Any = None) -> None:
        options = dict(options or {})
        self.model = model
        self.n = players
        self.options = options
        self.max_turns = int(options.get("max_turns", 300))
        self.situation = situation
        m = model
        nd = len(m.deck)
        # usage counters: event -> per card -> per seat
        self.use_deck = {e: [[0] * players for _ in range(nd)] for e in ("recruited", "played", "activated", "lost")}
        self.use_mon = {e: [[0] * players for _ in m.monsters] for e in ("defeated", "captured")}
        self.use_town = [[0] * players for _ in m.towns]
        self.use_tre = [[0] * players for _ in m.treasures]
        self.use_tre_fired = [[0] * players for _ in m.treasures]   # its ability fired
        # places
        self.deck_counts = [c.quantity for c in m.deck]
        self.deck_size = sum(self.deck_counts)
        self.discard_counts = [0] * nd
        self.discard_size = 0
        self.in_play: list[int] = []
        self.hands: list[list[int]] = [[] for _ in range(players)]
        self.parties: list[list[PartyHero]] = [[] for _ in range(players)]
        self.victory: list[list[int]] = [[] for _ in range(players)]
        self.towns_won: list[list[int]] = [[] for _ in range(players)]
        self.pool = [0] * len(m.monsters)       # unrevealed monsters by index
        self.l1_ids = [x.idx for x in m.monsters if x.level == 1]
        self.l2_ids = [x.idx for x in m.monsters if x.level == 2]
        self.boss_ids = [x.idx for x in m.monsters if x.level == 3]
        for x in m.monsters:
            self.pool[x.idx] = x.quantity
        self.line: list[Stack] = []
        self.set_aside: list[int] = []
        self.town_counts = [t.quantity for t in m.towns]
        self.treasure_counts = [t.quantity for t in m.treasures]
        self.treasure_discard: list[int] = []
        self.box: list[int] = []
        self.pending_treasure = -1
        self.doom = 0
        self.final = False
        self.start_player = 0
        self.last_player = players - 1
        self.current = 0
        self.turns = 0
        self.end_reason = ""
        self.phase = "setup"
        # turn state
        self.in_roll = False
        self.faces: list[int] = []
        self.locked: list[bool] = []
        self.kept: list[bool] = []
        self.rerolls = m.rules.rerolls
        self.start_dice = m.rules.dice
        self.steam = 0
        self.shield = 0
        self.bonus_strength = 0
        self.class_bonus: list[tuple[str, int, bool]] = []
        self.discounts: list[int] = []
        self.recruits_left = m.rules.recruits
        self.plays_left = m.rules.actions
        self.opened: list[Stack] = []
        self.ctx_stack: Stack | None = None
        self.last_counterattack = (0, 0)   # (total, damage after shields)
        self.last_ambush = (0, 0)
        self.remaining = 0
        self.pending_damage = 0
        self.deck_box: list[int] | None = None
        self.monster_box: list[int] | None = None
        self.town_box: list[int] | None = None
        self.moves: tuple = ()             # structured twin of the pending options, for bots
        self.dkind = ""                    # what the pending decision is about, for bots
        self._labels: dict[Any, str] = {}
        self.redactions: dict[int, tuple] = {}   # seat -> last canonical deal (hidden.redact)
        self.dirty = ALL                         # areas changed since the invariants last held (areas.py)
        super().__init__()

    SHARED = SequentialState.SHARED | {"_labels", "redactions"}

    def _fresh(self) -> "HHState":
        return HHState(self.model, self.n, self.options, self.situation)

    # ------------------------------------------------------------------ helpers
    def hand_limit(self, seat: int) -> int:
        deck = self.model.deck
        limit = self.model.rules.hand_limit
        for h in self.parties[seat]:   # plain loops on a turn's paths: a comprehension is a call
            limit += deck[h.card].hand_bonus
        return limit

    def hero_labels(self, keys: list[tuple[int, int, int]]) -> list[str]:
        """The names of party heroes given as (card, treasure, level), each with its treasure.
        Choices keep these keys rather than the heroes, whose treasure may change later, so that
        their lazily built labels read as they did when the choice was offered."""
        deck, treasures = self.model.deck, self.model.treasures
        return [f"{deck[c].name} (with {treasures[t].half_names[lvl - 1]})" if t >= 0 else deck[c].name
                for c, t, lvl in keys]

    def total_strength(self, seat: int) -> int:
        deck = self.model.deck
        active = []
        total = self.bonus_strength
        for h in self.parties[seat]:
            if h.active:
                c = deck[h.card]
                active.append(c)
                total += c.strength
        for cls, amount, own in self.class_bonus:
            n = -1 if own else 0
            for c in active:
                if c.cls == cls:
                    n += 1
            total += amount * n
        return total

    # ------------------------------------------------------------------ chance draws
    def draw_card(self, seat: int, stock: tuple | None = None) -> Iterator[Decision]:
        """Draw one hero-deck card into `seat`'s hand; reshuffle the discard pile when empty.

        `stock` is what the previous draw returned (the deck counts it drew from, the cards
        in stock and their weights after it): while the counts are still that list and nothing
        came between (draws in a row), only the drawn card's count changed, so the stock is
        updated rather than listed again. Returns the stock after this draw."""
        if self.deck_size == 0:
            if self.discard_size == 0:
                return None
            counts = self.deck_counts
            for i, c in enumerate(self.discard_counts):
                counts[i] += c
                self.discard_counts[i] = 0
            self.deck_size, self.discard_size = self.discard_size, 0
            self.dirty |= CARDS
            stock = None
        counts = self.deck_counts
        deck = self.model.deck
        if stock is not None and stock[0] is counts:
            idx, weights = stock[1], stock[2]
        else:
            idx, weights = in_stock(counts)
        a = yield Decision(CHANCE, "Draw from the hero deck", weights=weights, n=len(idx),
                           labels=partial(names_of, deck, idx))
        card = idx[a]
        counts[card] -= 1
        self.deck_size -= 1
        self.hands[seat].append(card)
        self.dirty |= CARDS | LIMITS
        left = counts[card]   # new lists and tuples: the decision just made keeps its own
        if left:
            return counts, idx, weights[:a] + (float(left),) + weights[a + 1:]
        return counts, idx[:a] + idx[a + 1:], weights[:a] + weights[a + 1:]

    def draw_many(self, seat: int, amount: int) -> Iterator[Decision]:
        """Draw `amount` cards, one chance event each; nothing happens between them."""
        stock = None
        for _ in range(amount):
            stock = yield from self.draw_card(seat, stock)

    def roll_dice(self, which: Iterable[int]) -> Iterator[Decision]:
        faces = self.faces
        for i in which:
            faces[i] = (yield _ROLL[i]) + 1
            self.dirty |= DICE

    def reveal(self, s: Stack) -> Iterator[Decision]:
        """Turn the top card of a stack face up, drawing a hidden card's identity."""
        top = s.cards[-1]
        if top < 0:
            pool = self.pool
            mons = self.model.monsters
            if top == HIDDEN_L1:
                idx, weights = [], []
                for i in self.l1_ids:
                    if pool[i]:
                        idx.append(i)
                        weights.append(float(pool[i]))
            else:
                k = s.cards.count(HIDDEN_L2)
                bosses = [i for i in self.boss_ids if pool[i]] if s.boss_hidden else []
                if s.boss_hidden and k == 1:
                    idx, weights = bosses, [1.0] * len(bosses)
                else:
                    l2 = [i for i in self.l2_ids if pool[i]]
                    nb = len(bosses) or 1
                    n2 = sum(pool[i] for i in l2)
                    idx = bosses + l2
                    weights = [float(n2)] * len(bosses) + [float((k - 1 if s.boss_hidden else 1) * nb * pool[i]) for i in l2]
            if not idx:
                raise RuntimeError(f"no hidden monster left to reveal in {s.name}")
            a = yield Decision(CHANCE, _reveal_prompt(s.name), weights=tuple(weights), n=len(idx),
                               labels=partial(names_of, mons, idx))
            mid = idx[a]
            pool[mid] -= 1
            if mons[mid].level == 3:
                s.boss_hidden = False
            s.cards[-1] = mid
        s.up = True
        self.dirty |= HORDE

    # ------------------------------------------------------------------ the game
    def _rules(self, resume: Any = None) -> Iterator[Decision]:
        from engine.hordes_and_heroes.setup import apply_situation, standard_setup
        if resume is not None:
            phase = resume            # a clone picks up at the start of a phase of a turn
        elif self.situation is None:
            yield from standard_setup(self)
            phase = "action"
        else:
            phase = apply_situation(self, self.situation)
        while True:
            seat = self.current
            yield from self.turn(seat, phase)
            phase = "action"
            self.turns += 1
            if self.final and seat == self.last_player:
                self.end_reason = "bosses"
                break
            if self.turns >= self.max_turns:
                self.end_reason = "stalemate"
                break
            self.current = (seat + 1) % self.n
            self.dirty |= LIMITS
            self.reset_turn()
        self.phase = "over"

    def reset_turn(self) -> None:
        for h in self.parties[self.current]:
            h.active = False
        for p in self.parties:
            for h in p:
                h.active = False
        self.in_roll = False
        self.faces, self.locked, self.kept = [], [], []
        self.rerolls, self.start_dice = self.model.rules.rerolls, self.model.rules.dice
        self.steam = self.shield = self.bonus_strength = 0
        if self.set_aside:       # normally won already (treasure step): monsters would vanish here
            self.dirty |= HORDE
        self.class_bonus, self.discounts, self.opened, self.set_aside = [], [], [], []
        self.recruits_left, self.plays_left = self.model.rules.recruits, self.model.rules.actions
        self.last_counterattack = self.last_ambush = (0, 0)
        self.dirty |= LIMITS | DICE | TOKENS

    def turn(self, seat: int, phase: str) -> Iterator[Decision]:
        order = ("action", "dice", "attack", "horde", "end")
        start = order.index(phase)
        # A turn starts with a checkpoint, where a clone can pick the game up again. One per turn,
        # not one per phase: a snapshot copies the whole state, which costs more than replaying
        # the few actions of a turn, and cloning replays the log snapshotting at each checkpoint.
        if start <= 0:
            self.checkpoint("action")
            self.phase = "action"
            yield from self.action_phase(seat)
        if start <= 1:
            self.phase = "dice"
            yield from self.roll_step(seat)
        if start <= 2:
            self.phase = "attack"
            yield from self.attack_step(seat)
            yield from self.counterattack_step(seat)
            yield from self.treasure_step(seat)
        if start <= 3:
            self.phase = "horde"
            yield from self.horde_phase(seat)
        self.phase = "end"
        yield from self.end_phase(seat)

    # ------------------------------------------------------------------ 1. action phase
    def action_phase(self, seat: int) -> Iterator[Decision]:
        deck = self.model.deck
        hand = self.hands[seat]
        while True:
            moves, seen = [], set()
            for card in hand:
                if card in seen:
                    continue
                seen.add(card)
                if deck[card].is_action:
                    if self.plays_left > 0:
                        moves.append(("play", card))
                elif self.recruits_left > 0:
                    moves.append(("recruit", card))
            if not moves:
                return
            moves.append(("end", -1))
            a = yield self.ask(seat, "action", "Recruit a hero or play an action", self.action_labels(moves), moves)
            kind, card = moves[a]
            if kind == "end":
                return
            hand.remove(card)
            self.dirty |= CARDS | LIMITS
            if kind == "recruit":
                self.recruits_left -= 1
                self.in_play.append(card)
                if len(self.parties[seat]) >= self.model.rules.party_limit:
                    yield from self.discard_from_party(seat, 1, "Your party is full: discard a hero")
                self.in_play.remove(card)
                self.parties[seat].append(PartyHero(card))
                self.dirty |= CARDS | LIMITS
                self.use_deck["recruited"][card][seat] += 1
            else:
                self.plays_left -= 1
                self.in_play.append(card)
                self.use_deck["played"][card][seat] += 1
                for e in deck[card].effects:
                    yield from HANDLERS[e.kind](self, seat, e, None)
                self.in_play.remove(card)
                self.discard_counts[card] += 1
                self.discard_size += 1
                self.dirty |= CARDS

    def action_labels(self, moves: list[tuple[str, int]]) -> Callable[[], list[str]]:
        deck = self.model.deck
        return lambda: [f"{_VERBS[kind]} {deck[card].name}" if kind != "end" else "End the action phase"
                        for kind, card in moves]

    def discard_hero(self, seat: int, h: PartyHero) -> None:
        """A hero leaves the party: to the discard pile, its treasure back to the box."""
        self.parties[seat].remove(h)
        h.active = False
        self.discard_counts[h.card] += 1
        self.discard_size += 1
        if h.treasure >= 0:
            self.box.append(h.treasure)
            h.treasure = -1
        self.dirty |= CARDS | LIMITS | TREASURES

    def party_choices(self, heroes: list[PartyHero]) -> tuple[list[tuple[int, int, int]], list]:
        """One choice per distinct hero (card, treasure, level): their keys, for the labels, and
        the heroes themselves, the moves."""
        keys, moves = [], []
        for h in heroes:
            key = (h.card, h.treasure, h.tlevel)
            if key in keys:
                continue
            keys.append(key)
            moves.append(h)
        return keys, moves

    def discard_from_party(self, seat: int, amount: int, prompt: str = "Discard a hero from your party") -> Iterator[Decision]:
        for _ in range(amount):
            party = self.parties[seat]
            if not party:
                return
            keys, moves = self.party_choices(party)
            a = yield self.ask(seat, "party-discard", prompt, framed("Discard ", partial(self.hero_labels, keys)), moves)
            self.discard_hero(seat, moves[a])

    def discard_from_hand(self, seat: int, amount: int, why: str) -> Iterator[Decision]:
        deck = self.model.deck
        for _ in range(amount):
            hand = self.hands[seat]
            if not hand:
                return
            cards = sorted(set(hand))
            a = yield self.ask(seat, "hand-discard", "Discard a card from your hand",
                               framed("Discard ", partial(names_of, deck, cards)), cards)
            card = cards[a]
            hand.remove(card)
            self.discard_counts[card] += 1
            self.discard_size += 1
            self.dirty |= CARDS | LIMITS

    # ------------------------------------------------------------------ 2A. roll step
    def activations(self, party: list[PartyHero]) -> list[tuple]:
        """Every way to activate an inactive hero of `party` with the free dice or steam, hero by
        hero: its dice payments, then steam.

        A pending cost reduction is the player's to use or keep: a set-of-X hero is offered at its
        full cost and once per distinct reduction waiting, largest first, so the player decides
        which hero it goes to (rulebook: a reducer "can" reduce another hero's cost)."""
        counts = [0] * 7
        for f, lk in zip(self.faces, self.locked):
            if not lk:
                counts[f] += 1
        counts[0] = 0
        discs = [0] + sorted(set(self.discounts), reverse=True) if self.discounts else _NO_DISCOUNT
        deck, steam = self.model.deck, self.steam
        out: list[tuple] = []
        seen: list[tuple[int, int, int]] = []
        for h in party:
            if h.active:
                continue
            key = (h.card, h.treasure, h.tlevel)
            if key in seen:   # a second copy of the same hero with the same treasure: the same choice
                continue
            seen.append(key)
            c: DeckCard = deck[h.card]
            xn = c.xn
            if xn:
                for disc in discs:
                    need = xn - disc
                    if need <= 0:
                        out.append(("act", h, ("free", 0, 0, disc)))
                    else:
                        for f in _FACES:
                            if counts[f] >= need:
                                out.append(("act", h, ("dice", f, need, disc)))
            else:
                for f, n in c.faces:
                    if counts[f] < n:
                        break
                else:
                    out.append(("act", h, _EXACT))
            if c.steam and steam >= c.steam:
                out.append(("act", h, ("steam", 0, c.steam, 0)))
        return out

    def pay_label(self, h: PartyHero, pay: tuple) -> str:
        """"Activate <hero> with <dice>"; a hero carrying a treasure is named with it, as in every
        other choice of a party hero, so two copies of a hero can be told apart. (Read while the
        roll step lasts, when no treasure can move.)"""
        card = h.card
        key = (card, h.treasure, h.tlevel) + tuple(pay)
        label = self._labels.get(key)
        if label is None:
            c = self.model.deck[card]
            kind = pay[0]
            if kind == "dice":
                how = "with " + " ".join([str(pay[1])] * pay[2])
            elif kind == "exact":
                how = "with " + " ".join(map(str, c.exact))
            elif kind == "steam":
                how = f"with {pay[2]} steam"
            else:
                how = "for free"
            if pay[3]:
                how += f" (cost reduced by {pay[3]})"
            label = self._labels[key] = f"Activate {self.hero_labels([key[:3]])[0]} {how}"
        return label

    def roll_labels(self, moves: list[tuple], faces: tuple[int, ...], rerolls: int) -> Callable[[], list[str]]:
        """The labels of a roll-step choice, built only if read, from the dice as they were."""
        def build() -> list[str]:
            out = []
            for mv in moves:
                kind = mv[0]
                if kind == "act":
                    out.append(self.pay_label(mv[1], mv[2]))
                elif kind == "keep" or kind == "release":
                    out.append(f"{kind.capitalize()} die {mv[1] + 1} ({faces[mv[1]]})")
                elif kind == "reroll":
                    out.append(f"Reroll ({rerolls} left)")
                else:
                    out.append("Stop rolling")
            return out
        return build

    def lock_dice(self, face: int, n: int) -> None:
        """Lock `n` free dice showing `face`; kept dice go first (that is why they were kept)."""
        faces, locked, kept = self.faces, self.locked, self.kept
        for want_kept in (True, False):
            for i in range(len(faces)):
                if n and faces[i] == face and not locked[i] and kept[i] == want_kept:
                    locked[i] = True
                    kept[i] = False
                    n -= 1
        self.dirty |= DICE

    def roll_step(self, seat: int) -> Iterator[Decision]:
        n = self.start_dice
        self.faces, self.locked, self.kept = [0] * n, [False] * n, [False] * n
        self.dirty |= DICE
        self.in_roll = True
        faces = self.faces
        for i in range(n):   # roll_dice, written out: a die is a step, and a generator less is cheaper
            faces[i] = (yield _ROLL[i]) + 1
            self.dirty |= DICE
        party = self.parties[seat]
        deck = self.model.deck
        while True:
            toggled: set[int] = set()
            acts: list[tuple] | None = None   # keeping or releasing a die leaves these as they are
            while True:
                faces, locked, kept = self.faces, self.locked, self.kept
                if acts is None:
                    acts = self.activations(party)
                moves = acts[:]
                if self.rerolls > 0:
                    can_roll = False
                    for i, f in enumerate(faces):
                        if locked[i]:
                            continue
                        if not kept[i]:
                            can_roll = True
                        if f and i not in toggled:
                            moves.append(_RELEASE[i] if kept[i] else _KEEP[i])
                    if can_roll:
                        moves.append(_REROLL)
                if not moves:
                    self.in_roll = False
                    return
                moves.append(_STOP)
                a = yield self.ask(seat, "roll", "Roll step", self.roll_labels(moves, tuple(faces), self.rerolls), moves)
                move = moves[a]
                kind = move[0]
                if kind == "act":
                    acts = None
                    h, pay = move[1], move[2]
                    if pay[3]:
                        self.discounts.remove(pay[3])
                    if pay[0] == "dice":
                        self.lock_dice(pay[1], pay[2])
                    elif pay[0] == "exact":
                        for f in deck[h.card].exact:
                            self.lock_dice(f, 1)
                    elif pay[0] == "steam":
                        self.steam = 0   # steam pays one hero; what is left over is lost
                        self.dirty |= TOKENS
                    yield from self.activate(seat, h)
                    if self.rerolls == 0 and 0 in faces:   # new dice and no roll left: throw them now
                        yield from self.roll_dice([i for i, f in enumerate(faces) if not f])
                elif kind == "keep":
                    kept[move[1]] = True
                    toggled.add(move[1])
                    self.dirty |= DICE
                elif kind == "release":
                    kept[move[1]] = False
                    toggled.add(move[1])
                    self.dirty |= DICE
                elif kind == "reroll":
                    self.rerolls -= 1
                    self.dirty |= TOKENS
                    for i in range(len(faces)):   # roll_dice on the free dice (rolling changes no lock)
                        if not locked[i] and not kept[i]:
                            faces[i] = (yield _ROLL[i]) + 1
                            self.dirty |= DICE
                    break  # a new roll: every die may be kept or released again
                else:
                    self.in_roll = False
                    return

    def activate(self, seat: int, h: PartyHero) -> Iterator[Decision]:
        """A hero becomes active: its abilities fire, then those of the treasure it carries."""
        h.active = True
        self.dirty |= LIMITS
        self.use_deck["activated"][h.card][seat] += 1
        for e in self.model.deck[h.card].effects:
            yield from HANDLERS[e.kind](self, seat, e, h)
        if h.treasure >= 0:
            self.use_tre_fired[h.treasure][seat] += 1
            for e in self.model.treasures[h.treasure].halves[h.tlevel - 1]:
                yield from HANDLERS[e.kind](self, seat, e, h)

    def free_activation(self, seat: int, limit: int, src: PartyHero | None) -> Iterator[Decision]:
        deck = self.model.deck
        cands = [h for h in self.parties[seat] if not h.active and h is not src and deck[h.card].strength <= limit]
        if not cands:
            return
        keys, moves = self.party_choices(cands)
        moves = moves + [None]
        a = yield self.ask(seat, "activate-hero", "Activate another hero",
                           framed("Activate ", partial(self.hero_labels, keys), " for free", "Activate nobody"), moves)
        if moves[a] is not None:
            yield from self.activate(seat, moves[a])

    def choose_set_die(self, seat: int, count: int) -> Iterator[Decision]:
        """Turn up to `count` different unlocked dice, each to a face of the player's choice. The
        player picks the die itself, not a face value: a kept die and a loose one showing the
        same face are different choices (one stays for the next roll, the other is rolled). Dice
        not yet thrown show no face and cannot be turned."""
        turned: list[int] = []
        for _ in range(count):
            faces, locked = self.faces, self.locked
            dice = [i for i, f in enumerate(faces) if f and not locked[i] and i not in turned]
            if not dice:
                return
            names = [f"die {i + 1} ({faces[i]})" for i in dice]
            a = yield self.ask(seat, "set-die-which", "Choose a die to turn",
                               framed("Change ", names, last="Change nothing"), dice + [None])
            if a == len(dice):
                return
            i = dice[a]
            news = [f for f in _FACES if f != self.faces[i]]
            b = yield self.ask(seat, "set-die-face", f"Turn {names[a]} to", framed("Make it a ", news), news)
            self.faces[i] = news[b]   # read again after a decision: the lists may have been swapped meanwhile
            turned.append(i)
            self.dirty |= DICE

    # ------------------------------------------------------------------ captures, stacks
    def stack_label(self, s: Stack) -> str:
        pos = self.line.index(s)
        return f"{s.name}, vanguard" if pos == len(self.line) - 1 else s.name

    def remove_top(self, s: Stack) -> int:
        """Take the top monster off; close the line up if the stack is now empty."""
        mid = s.cards.pop()
        s.up = False
        self.dirty |= HORDE
        if s not in self.opened:
            self.opened.append(s)
        if not s.cards:
            self.line.remove(s)
        if self.model.monsters[mid].level == 3 and self.doom < self.model.doom_tokens:
            # a boss flips a doom token; a fourth or fifth boss (the last round goes on after
            # the third) finds none left to flip
            self.doom += 1
            self.dirty |= TOKENS
            if self.doom >= self.model.doom_tokens:
                self.final = True
        return mid

    def choose_capture(self, seat: int, max_strength: int, other_stack: bool) -> Iterator[Decision]:
        mons = self.model.monsters
        cands = [s for s in self.line if s.up and s.cards and s.cards[-1] >= 0
                 and mons[s.cards[-1]].strength <= max_strength
                 and not (other_stack and s is self.ctx_stack)]
        if not cands:
            return
        labels = [f"Capture {mons[s.cards[-1]].name} ({self.stack_label(s)})" for s in cands] + ["Capture nothing"]
        a = yield self.ask(seat, "capture", "Put a monster into your victory pile", labels, cands + [None])
        if a < len(cands):
            mid = self.remove_top(cands[a])
            self.victory[seat].append(mid)
            self.use_mon["captured"][mid][seat] += 1

    def choose_move_stack(self, seat: int) -> Iterator[Decision]:
        line = self.line
        if len(line) < 2:
            return
        mons = self.model.monsters
        def desc(s: Stack) -> str:
            return mons[s.cards[-1]].name if s.up and s.cards[-1] >= 0 else "face down"
        labels = [f"Move {s.name} (top: {desc(s)})" for s in line] + ["Move nothing"]
        a = yield self.ask(seat, "move-which", "Choose a horde stack to move", labels, list(line) + [None])
        if a == len(line):
            return
        s = line[a]
        spots = [i for i in range(len(line)) if i != a]
        names = [f"To position {i + 1}" + (" (vanguard)" if i == len(line) - 1 else "") for i in spots]
        b = yield self.ask(seat, "move-where", f"Where does {s.name} go?", names, spots)
        line.remove(s)
        line.insert(spots[b], s)
        self.dirty |= HORDE

    # ------------------------------------------------------------------ 2B. attack
    def attack_step(self, seat: int) -> Iterator[Decision]:
        remaining = self.remaining = self.total_strength(seat)  # kept current for scenarios' `remaining`
        mons = self.model.monsters
        locked_into: Stack | None = None
        while True:
            labels: list[str] = []
            moves: list[tuple] = []
            if locked_into is None:
                for s in self.line:
                    if s.up and mons[s.cards[-1]].strength <= remaining:
                        labels.append(f"Attack {mons[s.cards[-1]].name} ({self.stack_label(s)})")
                        moves.append(("attack", s))
                if remaining > 0:
                    for s in self.opened:
                        if s.cards and not s.up:
                            labels.append(f"Flip the top of {self.stack_label(s)}")
                            moves.append(("flip", s))
            elif remaining > 0 and locked_into.cards and not locked_into.up:
                labels.append(f"Flip the top of {self.stack_label(locked_into)}")
                moves.append(("flip", locked_into))
            if not moves:
                return
            labels.append("End the attack")
            moves.append(("end", None))
            a = yield self.ask(seat, "attack", f"Attack with {remaining} strength", labels, moves)
            kind, s = moves[a]
            if kind == "end":
                return
            if kind == "flip":
                locked_into = s
                yield from self.reveal(s)
                if mons[s.cards[-1]].strength > remaining:
                    return  # a flipped monster too strong ends the attack
            remaining -= mons[s.cards[-1]].strength
            self.remaining = remaining
            yield from self.defeat(seat, s)

    def defeat(self, seat: int, s: Stack) -> Iterator[Decision]:
        mid = self.remove_top(s)
        self.set_aside.append(mid)
        self.use_mon["defeated"][mid][seat] += 1
        effects = self.model.monsters[mid].effects
        if effects:
            self.ctx_stack = s
            for e in effects:
                yield from HANDLERS[e.kind](self, seat, e, None)
            self.ctx_stack = None

    # ------------------------------------------------------------------ 2C/2D
    def take_damage(self, seat: int, dmg: int) -> Iterator[Decision]:
        """Lose active heroes of your choice, each soaking its strength, until the damage is
        gone or no active hero is left (a 0-strength hero soaks nothing)."""
        deck = self.model.deck
        while dmg > 0:
            actives = [h for h in self.parties[seat] if h.active]
            if not actives:
                return
            keys, moves = self.party_choices(actives)
            self.pending_damage = dmg
            a = yield self.ask(seat, "damage", f"Take {dmg} damage: lose an active hero",
                               framed("Lose ", partial(self.hero_labels, keys)), moves)
            h = moves[a]
            self.use_deck["lost"][h.card][seat] += 1
            dmg -= deck[h.card].strength
            self.discard_hero(seat, h)

    def counterattack_step(self, seat: int) -> Iterator[Decision]:
        mons = self.model.monsters
        total = 0
        for m in self.set_aside:
            total += mons[m].counterattack
        dmg = max(0, total - self.shield)
        self.last_counterattack = (total, dmg)
        yield from self.take_damage(seat, dmg)

    def treasure_step(self, seat: int) -> Iterator[Decision]:
        mons = self.model.monsters
        trs = self.model.treasures
        if any(h.active for h in self.parties[seat]):
            for mid in self.set_aside:
                level = mons[mid].treasure
                if not level:
                    continue
                counts = self.treasure_counts
                idx, weights = in_stock(counts)
                if not idx:
                    break
                a = yield Decision(CHANCE, "Draw a treasure", weights=weights,
                                   n=len(idx), labels=partial(names_of, trs, idx))
                t = idx[a]
                counts[t] -= 1
                self.pending_treasure = t
                self.dirty |= TREASURES
                actives = [h for h in self.parties[seat] if h.active]
                keys, moves = self.party_choices(actives)
                half = trs[t].half_names[level - 1]
                b = yield self.ask(seat, "treasure", "Attach the treasure",
                                   framed(f"Attach {half} to ", partial(self.hero_labels, keys), last=f"Discard {half}"),
                                   moves + [None])
                self.pending_treasure = -1
                self.dirty |= TREASURES
                h = (moves + [None])[b]
                if h is None:
                    self.treasure_discard.append(t)
                else:
                    if h.treasure >= 0:
                        self.treasure_discard.append(h.treasure)
                    h.treasure, h.tlevel = t, level
                    self.use_tre[t][seat] += 1
        self.victory[seat].extend(self.set_aside)
        self.set_aside = []
        self.dirty |= HORDE

    # ------------------------------------------------------------------ 3. horde phase
    def horde_phase(self, seat: int) -> Iterator[Decision]:
        line = self.line
        towns = self.model.towns
        if line and line[-1].up:
            counts = self.town_counts
            idx, weights = in_stock(counts)
            if idx:  # no town left: nothing happens (FAQ)
                a = yield Decision(CHANCE, "The vanguard destroys a town card", weights=weights, n=len(idx),
                                   labels=partial(names_of, towns, idx))
                t = idx[a]
                counts[t] -= 1
                self.towns_won[seat].append(t)
                self.dirty |= TOWNS
                self.use_town[t][seat] += 1
                for e in towns[t].effects:
                    yield from HANDLERS[e.kind](self, seat, e, None)
        for s in list(self.line):
            if s.cards and not s.up:
                yield from self.reveal(s)
        mons = self.model.monsters
        total = 0
        for s in self.line:
            if s.up:
                total += mons[s.cards[-1]].ambush
        dmg = max(0, total - self.shield)
        self.last_ambush = (total, dmg)
        yield from self.take_damage(seat, dmg)

    # ------------------------------------------------------------------ 4. end phase
    def end_phase(self, seat: int) -> Iterator[Decision]:
        yield from self.draw_many(seat, self.model.rules.end_draw)
        limit = self.hand_limit(seat)
        if len(self.hands[seat]) > limit:
            yield from self.discard_from_hand(seat, len(self.hands[seat]) - limit, "hand limit")
        self.in_roll = False
        self.faces, self.locked, self.kept = [], [], []
        self.steam = 0
        self.dirty |= DICE | TOKENS

    # ------------------------------------------------------------------ scoring
    def score(self, seat: int) -> int:
        mons, towns = self.model.monsters, self.model.towns
        return sum(mons[m].xp for m in self.victory[seat]) - sum(towns[t].xp_penalty for t in self.towns_won[seat])

    def result(self) -> GameResult:
        scores = [self.score(s) for s in range(self.n)]
        keys = [(scores[s], len(self.victory[s]), len(self.parties[s])) for s in range(self.n)]
        best = max(keys)
        winners = [s for s in range(self.n) if keys[s] == best]
        usage: dict[str, dict[str, list[int]]] = {}
        m = self.model
        for event, table in self.use_deck.items():
            for i, row in enumerate(table):
                if any(row):
                    usage.setdefault(m.deck[i].id, {})[event] = list(row)
        for event, table in self.use_mon.items():
            for i, row in enumerate(table):
                if any(row):
                    usage.setdefault(m.monsters[i].id, {})[event] = list(row)
        for i in range(len(m.monsters)):   # a monster is "used" by the seats that chose to take it on
            row = [a + b for a, b in zip(self.use_mon["defeated"][i], self.use_mon["captured"][i])]
            if any(row):
                usage[m.monsters[i].id]["used"] = row
        for i, row in enumerate(self.use_town):
            if any(row):
                usage.setdefault(m.towns[i].id, {})["destroyed"] = list(row)
        for i, row in enumerate(self.use_tre):
            if any(row):
                usage.setdefault(m.treasures[i].id, {})["attached"] = list(row)
        for i, row in enumerate(self.use_tre_fired):
            if any(row):
                usage.setdefault(m.treasures[i].id, {})["used"] = list(row)
        stats = {
            "bosses_defeated": float(sum(1 for v in self.victory for x in v if m.monsters[x].level == 3)),
            "towns_destroyed": float(sum(len(t) for t in self.towns_won)),
            "monsters_taken": float(sum(len(v) for v in self.victory)),
            "stacks_left": float(len(self.line)),
            "margin": float(sorted(scores)[-1] - sorted(scores)[-2]) if self.n > 1 else 0.0,
        }
        return GameResult(scores, winners, self.end_reason or "unfinished", self.turns, usage, stats)

    def fingerprint(self) -> Any:
        return (tuple(self.actions), tuple(tuple(h) for h in self.hands),
                tuple(tuple((h.card, h.treasure, h.tlevel) for h in p) for p in self.parties),
                tuple(tuple(v) for v in self.victory), tuple(tuple(s.cards) for s in self.line),
                tuple(self.deck_counts), tuple(self.discard_counts), self.doom, self.turns)

    # ------------------------------------------------------------------ invariants
    def check_invariants(self) -> list[str]:
        return check(self) if self.dirty else []   # unmarked: nothing they read changed since they held

    def check_all_invariants(self) -> list[str]:
        """Every area, marked or not: checked games catch a change the rules forgot to mark."""
        self.dirty = ALL
        return check(self)

    # ------------------------------------------------------------------ hidden information
    def observation(self, seat: int) -> dict[str, Any]:
        return hidden.observation(self, seat)

    def redact(self, seat: int) -> Any:
        self._redacted_for = seat
        self.mask_log(seat)
        return hidden.redact(self, seat)

    def restore(self, token: Any) -> None:
        hidden.restore(self, token)
        self.unmask_log()
        self._redacted_for = None

    def resample(self, seat: int, rng: Any) -> None:
        hidden.resample(self, seat, rng)
