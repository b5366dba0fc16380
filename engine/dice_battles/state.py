"""The rules of Dice Battles (online edition, rules v2.0) as an explicit state machine.

Why not a generator like the other games: the search bot clones states thousands of times, and a
generator can only be cloned by replaying the whole log. Here every bit of the game is plain
lists and ints, so `clone` copies them and costs the same at round 1 and at round 40.

A round: orders placed face down (secret decisions, seat 0 then seat 1), reinforcements sent
secretly, both revealed together, orders checked and activated (a regrouping asks its player, in
the open, which tiles come back when that changes the outcome), dice rolled (chance) and assigned
by face, defeated units checked, played cards discarded and hands drawn back to seven (chance).
The order deck is a multiset drawn at random when a card is drawn: the same distribution as a
shuffled pile, with nothing hidden in an order that a bot could peek at.
"""
from __future__ import annotations

import random
from bisect import insort
from itertools import combinations, compress
from operator import ge, sub
from typing import Any, Callable, NamedTuple

from engine.core.api import CHANCE, Decision, GameResult, check_action
from engine.core.scenario import SetupError
from engine.dice_battles.armies import CUSTOM_VARIANTS, Sheet, custom, predefined
from engine.dice_battles.effects import powers
from engine.dice_battles.model import COLOURS, HERO, Card, Model

FACES = ("1", "2", "3", "4", "5", "6")
_ROLL = Decision(CHANCE, "Roll an attack die", FACES)
_DRAW_PROMPTS = tuple(f"Player {p + 1} draws an order card" for p in (0, 1))
NO_ORDER = "No order"
NO_REGROUP = "No regrouping order"
NO_REINFORCEMENT = "No reinforcement"
_SKIP_NONE: tuple[str, ...] = ()         # the options after the cards of an order decision
_SKIP_ORDER = (NO_ORDER,)
_SKIP_REGROUP = (NO_REGROUP,)
REGROUP_SLOT = 3
_PRIVATE_KINDS = frozenset({"draw", "order", "reinforce"})   # steps only the acting seat may read
# The groups of invariants `check_invariants` tests: tile places and zone sizes, each seat's order
# cards, every tile's marks, the marks of the tile the last die hit, the marks of the tiles listed
# in `_marked` (healed, regrouped or poisoned this round), both hands' sizes. Each rule that can break a group notes
# it in `_audit` when it runs, so a check after a step tests only those.
_TILES, _MARKS, _HIT, _LISTED, _HANDS = 1, 2, 4, 32, 64
_CARDS_OF = (8, 16)
_CARDS = _CARDS_OF[0] | _CARDS_OF[1]
_ALL = _TILES | _CARDS | _MARKS
_POISONED = COLOURS.index("poisoned")
_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")


def _fleeing_space(space: int) -> str:
    """'the first fleeing space' for space 0; 'fleeing space 11' past the words."""
    return f"the {_ORDINALS[space]} fleeing space" if space < len(_ORDINALS) else f"fleeing space {space + 1}"


def check_options(model: Model, options: dict) -> None:
    """Refuse values of this game's options that no game can be played with (they come from
    scenario files and game logs), naming the option: a SetupError (a ValueError) here is reported before
    anything is played. Options of other games are ignored, since tools pass one set to every game."""
    if options.get("variants"):
        raise SetupError(f"Dice Battles has no variants (given: {', '.join(map(str, options['variants']))})",
                         ("options", "variants"))
    armies = options.get("armies")
    if armies is not None:
        if not isinstance(armies, (list, tuple)) or len(armies) > 2:
            raise SetupError("armies: a list of at most two entries, one per seat", ("options", "armies"))
        allowed = {"", "random", "custom"} | {f"custom:{f}" for f in model.factions} | {a.id for a in model.armies}
        for seat, a in enumerate(armies):
            if a is not None and (not isinstance(a, str) or a not in allowed):
                raise SetupError(f"armies: {a!r} for player {seat + 1} is no army id, 'random', 'custom' or "
                                 f"'custom:<faction>' (factions: {', '.join(model.factions)})", ("options", "armies", seat))
    factions = options.get("factions")
    if factions is not None and (not isinstance(factions, (list, tuple)) or not factions
                                 or not all(f in model.factions for f in factions)):
        raise SetupError(f"factions: a list of one or more of {', '.join(model.factions)}", ("options", "factions"))
    share = options.get("custom_share")
    if share is not None and (isinstance(share, bool) or not isinstance(share, (int, float)) or not 0 <= share <= 1):
        raise SetupError(f"custom_share: {share!r} is not a probability from 0 to 1", ("options", "custom_share"))
    rounds = options.get("max_rounds")
    if rounds is not None and (isinstance(rounds, bool) or not isinstance(rounds, int) or rounds < 1):
        raise SetupError(f"max_rounds: {rounds!r} is not a whole number of rounds, 1 or more",
                         ("options", "max_rounds"))  # where a scenario's setup holds it


def secret_decision(player: int, prompt: str, n: int, labels: Callable[[], list[str]]) -> Decision:
    """A choice the other seat must not see until the reveal; its n labels are built only when
    read (bots read `DBState.moves`)."""
    return Decision(player, prompt, n=n, labels=labels, secret=True)


def regroup_label(units: tuple[int, ...], names: list[str]) -> str:
    """'Goblin Spearmen and Frenzied Mob'; a unit twice: '2 × Goblin Spearmen'."""
    parts: list[str] = []
    for u in dict.fromkeys(units):
        k = units.count(u)
        parts.append(f"{k} × {names[u]}" if k > 1 else names[u])
    return " and ".join(parts)


class DBState:
    """A game of Dice Battles. Build with `new_state` (armies by chance or options) or a scenario."""

    def __init__(self, model: Model, players: int = 2, options: dict | None = None,
                 sheets: list[Sheet] | None = None, hold: bool = False) -> None:
        self.model = model
        self.tables = _tables(model)
        self.n = 2
        self.options = dict(options or {})
        if self.options:
            check_options(model, self.options)
        self.actions: list[int] = []
        # The action log as each seat sees it (the other seat's draws and unrevealed secret choices
        # read 0), kept step by step so that redacting for a bot is a swap; None in a redacted state.
        self.seen: list[list[int]] | None = [[], []]
        self.reveals: list[tuple[int, tuple[int, ...]]] = []
        self.secret_open: list[int] = []          # positions of secret choices not yet revealed
        self.secret_who: list[int] = []           # the seat that made each of them
        self.round_limit = int(self.options.get("max_rounds", model.round_limit))
        nc = len(model.cards)
        # per unit tile (uid): its unit type, owner and marks
        self.utype: list[int] = []
        self.uowner: list[int] = []
        self.wounds: list[int] = []
        self.poison: list[int] = []
        self.excess: list[int] = []
        self.hits: list[int] = []                 # dice assigned this round (for armour)
        self.blocked: list[int] = []              # 1 when its armour blocked a die this round
        # per player
        self.board = [[[-1] * 6 for _ in range(3)] for _ in range(2)]
        self.reinf: list[list[int]] = [[], []]
        self.fleeing: list[list[int]] = [[], []]  # index 0 is the first space; pushed right
        # the printed space (0: the first) each fleeing tile sits in, in the order of `fleeing`: the
        # zone is kept closed up, but a tile regrouped from it leaves its space empty on the mat
        self.fleeing_at: list[list[int]] = [[], []]
        self.gone: list[list[int]] = [[], []]     # annihilated or fled the battlefield
        self.hand: list[list[int]] = [[], []]
        self.deck = [[0] * nc for _ in range(2)]
        self.deck_size = [0, 0]
        self.discard = [[0] * nc for _ in range(2)]
        self.owned = [[0] * nc for _ in range(2)]
        self.orders = [[-1] * 4 for _ in range(2)]  # battalions 0-2 and the regrouping order (3)
        self.pend: list[list[tuple[int, int, int]]] = [[], []]  # secret reinforcements (b, uid, space)
        # Positions in `actions` that only the seat itself may ever read: its draws (the option index
        # names the card) and its orders (the index ranks the card among the kinds in its hand, so
        # even after the reveal it would tell the other seat how that hand was made up).
        self.private_at: list[list[int]] = [[], []]
        self.orders_at: list[int] = []            # this round's order positions (kept blank at the reveal)
        self.activated = [[False] * 4 for _ in range(2)]
        self.cancelled = [[False] * 3 for _ in range(2)]
        self.dice = [[0] * 3 for _ in range(2)]   # dice computed for each card this round
        self.queue: list[list[int]] = []          # [seat, battalion, dice left, colour, ignore armour]
        self.heroes_lost = [0, 0]
        self.sheet_ids = ["", ""]
        self.sheet_labels = ["", ""]
        self.factions = ["", ""]
        self.round = 0
        self.phase = "army"
        self.seat = 0
        self.slot = 0
        self.fresh_hands = False
        self.end_reason = ""
        self.usage: dict[str, dict[str, list[int]]] = {}
        self.stats: dict[str, float] = {"annihilated": 0, "fled_battlefield": 0, "regrouped": 0,
                                        "reinforced": 0, "dice_rolled": 0, "armour_blocks": 0}
        self.log: list[str] = []                  # what step 3 and 5 did, for scenarios and replays
        self.moves: list[Any] = []
        self.dkind = ""
        self._pending: Decision | None = None
        self._audited = -1                        # len(actions) when the invariants last held
        self._audit = _ALL                        # the invariants the last step's rules could change
        self._hit = -1                            # the tile the last die hit (-1: none)
        self._marked: list[int] = []              # tiles whose marks this round's resolution changed
        self._deck_due: tuple[Any, Any] = (None, None)   # per seat, see `_card_problems`
        self._kept_stand_ins: tuple[Any, Any] = (None, None)   # per seat, see `_stand_ins`
        # the regrouping that waits for its player's choice: where its tiles come from (the slot of
        # the order that regroups: a battalion, or REGROUP_SLOT for the fleeing units) and its name
        self._regroup_source_slot = REGROUP_SLOT
        self._regrouping = ""
        if sheets is not None:
            for p, sh in enumerate(sheets):
                self.field(p, sh)
            self.seat = 2
        if not hold:
            self._advance()

    def start(self) -> None:
        """Run the rules up to the first decision (after a scenario has arranged the table)."""
        self._advance()

    # ------------------------------------------------------------------ the step API
    def decision(self) -> Decision | None:
        return self._pending

    def is_over(self) -> bool:
        return self._pending is None

    def apply(self, action: int) -> None:
        d = self._pending
        if d is None or action.__class__ is not int or not 0 <= action < d.n:
            check_action(d, action)   # refuses it, with the message every game gives
        actions = self.actions
        actions.append(action)
        self._audit = 0
        kind = self.dkind
        seen = self.seen
        if kind == "roll":  # the commonest step first
            if seen is not None:
                seen[0].append(action)
                seen[1].append(action)
            if self._assign_die(action):
                return        # the same card rolls on: the same decision stands
            self._advance()
            return
        seat = self.seat
        move = self.moves[action]
        if seen is not None:
            if kind in _PRIVATE_KINDS:
                seen[seat].append(action)
                seen[1 - seat].append(0)
            else:
                seen[0].append(action)
                seen[1].append(action)
        if kind == "draw":
            self.private_at[seat].append(len(actions) - 1)
            self._draw(seat, move)
        elif kind == "order":
            pos = len(actions) - 1
            self.secret_open.append(pos)
            self.secret_who.append(seat)
            self.private_at[seat].append(pos)
            self.orders_at.append(pos)
            self.fresh_hands = False
            if move >= 0:
                self._audit |= _CARDS_OF[seat]
                self.hand[seat].remove(move)
                self.orders[seat][self.slot] = move
            self.slot += 1
        elif kind == "reinforce":
            self.secret_open.append(len(actions) - 1)
            self.secret_who.append(seat)
            if move is not None:
                self.pend[seat].append(move)
            self.slot += 1
        elif kind == "army":
            self.field(seat, custom(self.model, move.faction, move.variant) if isinstance(move, _Lazy) else move)
            self.seat += 1
        elif kind == "regroup":
            where = self._regrouping
            self._move_regrouped(seat, self.regroup_source(seat), where, move)
            self._regrouping = ""
            self.slot += 1
        self._advance()

    # ------------------------------------------------------------------ set-up
    def field(self, seat: int, sheet: Sheet) -> None:
        """Put an army's tiles on the mat and its cards (one per tile) in the deck."""
        self._audit |= _ALL
        self.sheet_ids[seat], self.sheet_labels[seat], self.factions[seat] = sheet.id, sheet.label, sheet.faction
        for b, bat in enumerate(sheet.battalions):
            for s, ut in enumerate(bat):
                if ut >= 0:
                    self.board[seat][b][s] = self.new_tile(seat, ut)
        for ut in sheet.reinforcements:
            self.reinf[seat].append(self.new_tile(seat, ut))
        self._use(sheet.id, "picked", seat)
        self._use(sheet.faction, "picked", seat)

    def new_tile(self, seat: int, ut: int) -> int:
        """A new unit tile of type `ut`; its order card joins the owner's deck."""
        uid = len(self.utype)
        self.utype.append(ut)
        self.uowner.append(seat)
        for marks in (self.wounds, self.poison, self.excess, self.hits, self.blocked):
            marks.append(0)
        card = self.model.units[ut].card
        self.deck[seat][card] += 1
        self.deck_size[seat] += 1
        self.owned[seat][card] += 1
        return uid

    def _army_options(self, seat: int) -> tuple[tuple[str, ...], tuple[Any, ...], tuple[float, ...]] | Sheet:
        """The armies chance may field for a seat, or the one the options fix."""
        m = self.model
        wanted = self.options.get("armies")
        choice = wanted[seat] if isinstance(wanted, (list, tuple)) and len(wanted) > seat else None
        factions = [f for f in m.factions if f in (self.options.get("factions") or m.factions)]
        if isinstance(choice, str) and choice.startswith("custom"):
            fac = choice.split(":", 1)[1] if ":" in choice else None
            factions = [fac] if fac else factions
            share = 1.0
        elif isinstance(choice, str) and choice not in ("", "random"):
            return predefined(m, m.army(choice).idx)
        else:
            share = float(self.options.get("custom_share", 0.5))
        key = ("army-options", tuple(factions), share)
        if key not in m.derived:  # the same table at every game start: built once per model
            m.derived[key] = _army_table(m, factions, share)
        return m.derived[key]

    # ------------------------------------------------------------------ the round, step by step
    def _advance(self) -> None:
        """Run the rules until someone (a seat or chance) must choose, or the game ends."""
        self._pending = None
        while True:
            ph = self.phase
            if ph == "roll":  # the commonest step first
                queue = self.queue
                while queue and queue[0][2] <= 0:
                    queue.pop(0)
                if queue:
                    self._ask("roll", _ROLL, FACES)
                    return
                self._check_defeated()
                if max(self.heroes_lost) >= 2:
                    self._end("two-heroes-lost")
                    return
                self._discard_played()
                self.phase, self.seat = "draw", 0
            elif ph == "draw":
                if self._next_draw():
                    return
                self.phase, self.seat, self.slot = "orders", 0, 0
                self.round += 1
                self.fresh_hands = True
                self._audit |= _HANDS    # the hand-size invariant applies now
                if self.round > self.round_limit:
                    self._end("round-limit")
                    return
            elif ph == "orders":
                if self._next_order():
                    return
                self.phase, self.seat, self.slot = "reinforce", 0, 0
            elif ph == "reinforce":
                if self._next_reinforcement():
                    return
                self._reveal()
                self.activated = [[False] * 4, [False] * 4]
                self.phase, self.seat, self.slot = "activate", 0, 0
            elif ph == "activate":
                if self._check_orders():
                    return
                self._activate()
                self._poison_to_wounds()
                self.phase = "roll"
            elif ph == "army":
                if self.seat < 2:
                    got = self._army_options(self.seat)
                    if isinstance(got, Sheet):
                        self.field(self.seat, got)
                        self.seat += 1
                        continue
                    labels, moves, weights = got
                    self._ask("army", Decision(CHANCE, f"Army of player {self.seat + 1}", labels, weights), moves)
                    return
                self.phase, self.seat = "draw", 0

    def _ask(self, kind: str, d: Decision, moves: Any) -> None:
        self.dkind, self.moves, self._pending = kind, moves, d

    def _end(self, reason: str) -> None:
        self.end_reason, self.phase, self._pending = reason, "over", None

    # --- step 6 (and the opening hand): draw to seven, reshuffling the discard pile
    def _next_draw(self) -> bool:
        m = self.model
        hand_size = m.hand_size
        while self.seat < 2:
            p = self.seat
            if len(self.hand[p]) >= hand_size:
                self.seat += 1
                continue
            if self.deck_size[p] == 0 and not self._refill(p):
                self.seat += 1  # deck and discard both empty: the hand stays short
                continue
            deck = self.deck[p]
            idx = list(compress(range(len(deck)), deck))  # the cards left, in card order
            # Every draw is a chance decision, even from a deck of one kind of card: a draw made
            # without one would tell the other seat (counting the steps of the log) what that deck holds.
            cards = m.cards
            self._ask("draw", Decision(CHANCE, _DRAW_PROMPTS[p], n=len(idx),
                                       labels=lambda: [cards[i].name for i in idx],
                                       weights=tuple(map(float, filter(None, deck)))), idx)
            return True
        return False

    def _draw(self, p: int, card: int) -> None:
        self._audit |= _CARDS_OF[p]
        self.deck[p][card] -= 1
        self.deck_size[p] -= 1
        insort(self.hand[p], card)   # the hand stays sorted
        if self.deck_size[p] == 0:
            self._refill(p)          # the deck is exhausted: the discard pile becomes the new deck at once

    def _refill(self, p: int) -> bool:
        """Shuffle seat p's discard pile into a new order deck (a multiset: drawn at random later);
        False when the discard pile is empty too."""
        total = sum(self.discard[p])
        if total == 0:
            return False
        self.deck[p], self.discard[p] = self.discard[p], [0] * len(self.model.cards)
        self.deck_size[p] = total
        self.stats["reshuffles"] = self.stats.get("reshuffles", 0) + 1
        self._audit |= _CARDS_OF[p]
        return True

    # --- step 1: orders face down, seat 0 then seat 1, each choice secret
    def status(self, p: int, b: int) -> str:
        """active (both heroes stand), idle (the opposing hero fell) or defeated (own hero fell)."""
        if self.board[p][b][HERO] < 0:
            return "defeated"
        return "active" if self.board[1 - p][b][HERO] >= 0 else "idle"

    def _next_order(self) -> bool:
        while self.seat < 2:
            p, slot = self.seat, self.slot
            hand = self.hand[p]
            if slot > REGROUP_SLOT or not hand:
                self.seat, self.slot = p + 1, 0
                continue
            kinds = sorted(set(hand))
            if slot == REGROUP_SLOT:
                prompt, skip = self.tables.order_prompts[p][slot][""], _SKIP_REGROUP
            else:
                bat = self.board[p][slot]
                status = "defeated" if bat[HERO] < 0 else "active" if self.board[1 - p][slot][HERO] >= 0 else "idle"
                prompt, skip = self.tables.order_prompts[p][slot][status], _SKIP_NONE if status == "active" else _SKIP_ORDER
            moves = kinds + [-1] * len(skip)
            m = self.model
            self.dkind, self.moves = "order", moves
            self._pending = Decision(p, prompt, n=len(moves), secret=True, labels=lambda: [
                f"{m.cards[c].name} ({m.units[m.cards[c].unit].name})" for c in kinds] + list(skip))
            return True
        return False

    # --- step 2: reinforcements, sent by both players without seeing the other's (online edition)
    def reinforcement_moves(self, p: int, b: int, secret: bool = True) -> list[tuple[int, int, int]]:
        """(battalion, tile, space) moves open to seat p for battalion b: one tile per battalion,
        only to an empty space its tile shows; with `secret=False`, as if no tile had been sent
        yet this round (what the other seat can tell)."""
        reinf = self.reinf[p]
        bat = self.board[p][b]
        if not reinf or bat[HERO] < 0 or (self.model.reinforce_active_only and self.board[1 - p][b][HERO] < 0):
            return []     # nothing to send, or a defeated battalion (or an idle one, if the rules say so)
        if -1 not in bat:
            return []
        empty = []                # plain loops: cheaper than comprehensions on a few spaces
        for s in range(HERO):
            if bat[s] < 0:
                empty.append(s)
        used = [uid for _, uid, _ in self.pend[p]] if secret and self.pend[p] else ()
        out: list[tuple[int, int, int]] = []
        seen: list[int] = []
        units, utype = self.model.units, self.utype
        for uid in reinf:
            ut = utype[uid]
            if uid in used or ut in seen:
                continue
            seen.append(ut)
            positions = units[ut].positions
            for s in empty:
                if s in positions:
                    out.append((b, uid, s))
        return out

    def _next_reinforcement(self) -> bool:
        m = self.model
        while self.seat < 2:
            p = self.seat
            if self.slot >= 3 or not self.reinf[p]:
                self.seat, self.slot = p + 1, 0
                continue
            # Whether a seat is asked depends only on the open table, never on the tiles it has
            # already sent face down (the other seat sees how many choices it makes).
            moves = self.reinforcement_moves(p, self.slot, secret=False)
            if not moves:
                self.slot += 1
                continue
            if self.pend[p]:  # tiles already sent face down are not sent twice
                moves = self.reinforcement_moves(p, self.slot)
            utype = self.utype
            self._ask("reinforce", secret_decision(p, f"Player {p + 1}: reinforce the "
                                                   f"{m.battalion_names[self.slot].lower()} (secret)", 1 + len(moves),
                                                   lambda: [NO_REINFORCEMENT] + [
                                                       f"{m.units[utype[uid]].name} to {m.space_names[s].lower()}"
                                                       for _, uid, s in moves]),
                      [None] + moves)
            return True
        return False

    # --- step 3: reveal, check and activate
    def _reveal(self) -> None:
        if self.pend[0] or self.pend[1]:
            self._audit |= _TILES                 # reinforcements take their spaces
        self.reveals.append((len(self.actions), tuple(self.secret_open)))
        self._marked = []                         # the resolution starting here lists its tiles anew
        if self.seen is not None:
            for pos in self.secret_open:
                if pos not in self.orders_at:   # the card shows on the mat; its index stays private
                    self.seen[0][pos] = self.seen[1][pos] = self.actions[pos]
        self.secret_open, self.secret_who, self.orders_at, self.log = [], [], [], []
        for p in (0, 1):
            for b, uid, s in self.pend[p]:
                self.reinf[p].remove(uid)
                self.board[p][b][s] = uid
                self.stats["reinforced"] += 1
            self.pend[p] = []
            for card in self.orders[p]:
                if card >= 0:
                    self._use(self.model.cards[card].id, "played", p)

    def matching(self, p: int, b: int, unit: int) -> int:
        """Tiles in battalion b of seat p with the card's picture."""
        utype = self.utype
        n = 0
        for uid in self.board[p][b]:   # a plain loop: cheaper than a comprehension on six spaces
            if uid >= 0 and utype[uid] == unit:
                n += 1
        return n

    def can_activate(self, p: int, b: int, card: Card) -> bool:
        """On an active battalion: a tile with the card's picture stands there; a hero card may
        also find its hero in an adjacent battalion."""
        unit = card.unit
        if self.matching(p, b, unit):
            return True
        return card.is_hero and ((b > 0 and self.matching(p, b - 1, unit) > 0) or
                                 (b < 2 and self.matching(p, b + 1, unit) > 0))

    def token_on_board(self, p: int, unit: int) -> bool:
        """v2.0: regrouping needs a tile like the played card on a battalion or in reinforcements."""
        utype = self.utype
        return any(uid >= 0 and utype[uid] == unit for bat in self.board[p] for uid in bat) or any(
            utype[uid] == unit for uid in self.reinf[p])

    def _check_orders(self) -> bool:
        """Check each order in turn (seat 0's battalions, its regrouping order, then seat 1's) and
        carry out its regrouping; True when a regrouping stops to ask which units come back (the
        check resumes after the answer). `slot` counts the orders checked, 4 per seat."""
        m = self.model
        cards = m.cards
        board, orders, log, activated = self.board, self.orders, self.log, self.activated
        while self.slot < 8:
            p, slot = divmod(self.slot, 4)
            c = orders[p][slot]
            if c < 0:
                self.slot += 1
                continue
            card = cards[c]
            if slot == REGROUP_SLOT:
                activated[p][REGROUP_SLOT] = True
                self._regroup_source_slot = slot
                if self._regroup(p, card, self.fleeing[p], "fleeing units"):
                    return True
            else:
                st = self.status(p, slot)
                if st == "active" and self.can_activate(p, slot, card):
                    activated[p][slot] = True
                elif st == "idle" and card.is_hero:
                    activated[p][slot] = True
                    self._regroup_source_slot = slot
                    if self._regroup(p, card, board[p][slot], f"idle {m.battalion_names[slot].lower()}"):
                        return True
                else:
                    log.append(f"player {p + 1}: {card.name} on the {m.battalion_names[slot].lower()} "
                               f"({st}) cannot be activated")
            self.slot += 1
        return False

    def regroup_source(self, p: int) -> list[int]:
        """The zone the regrouping being asked about takes its tiles from."""
        slot = self._regroup_source_slot
        return self.fleeing[p] if slot == REGROUP_SLOT else self.board[p][slot]

    def _activate(self) -> None:
        m = self.model
        cards = m.cards
        board, orders = self.board, self.orders
        activated = self.activated
        self.cancelled = cancelled = [[False] * 3, [False] * 3]
        self.dice = dice = [[0] * 3, [0] * 3]
        # Regroups are done and never move a hero, so whether a battalion is active (both its
        # heroes stand, for both seats alike) is read once.
        active = [board[0][b][HERO] >= 0 and board[1][b][HERO] >= 0 for b in range(3)]
        grouped = powers(m)
        for b in range(3):
            if active[b] and activated[0][b] and activated[1][b]:
                if grouped[orders[0][b]].cancels:
                    cancelled[1][b] = True
                if grouped[orders[1][b]].cancels:
                    cancelled[0][b] = True
        queue: list[list[int]] = []
        for p in (0, 1):
            for b in range(3):
                if not activated[p][b] or not active[b]:
                    continue
                card = cards[orders[p][b]]
                opp = cards[orders[1 - p][b]] if activated[1 - p][b] else None
                n = card.dice + (1 if card.dice and self.matching(p, b, card.unit) > 1 else 0)
                ignore = False
                if not cancelled[p][b]:
                    mine = grouped[card.idx]
                    if card.dice:
                        for run, e in mine.offensive:
                            n += run(self, p, b, card, e, opp)
                    ignore = mine.ignores_armour
                if opp is not None and not cancelled[1 - p][b]:
                    for run, e in grouped[opp.idx].defensive:
                        n -= run(self, 1 - p, b, opp, e, card)
                dice[p][b] = n = max(0, n)
                if n > 0:
                    queue.append([p, b, n, card.colour, int(ignore)])
                self._use(card.id, "activated", p)
        for p in (0, 1):  # support powers after the dice are counted
            for b in range(3):
                if activated[p][b] and active[b] and not cancelled[p][b]:
                    card = cards[orders[p][b]]
                    heals = grouped[card.idx].heals
                    if heals:
                        opp = cards[orders[1 - p][b]] if activated[1 - p][b] else None
                        for run, e in heals:
                            run(self, p, b, card, e, opp)
        self.queue = queue

    def _regroup(self, p: int, card: Card, source: list[int], where: str) -> bool:
        """Move one tile per regrouped picture from `source` to reinforcements, unless v2.0's
        token rule or a full zone cancels it. When the player could bring back different units,
        or leave different ones behind (see `regroup_options`), ask which (True: a decision waits)."""
        self._audit |= _TILES
        m = self.model
        if not self.token_on_board(p, card.unit):
            self.log.append(f"player {p + 1}: regrouping with {card.name} cancelled: no {m.units[card.unit].name} "
                            f"on a battalion or in reinforcements")
            return False
        cap = m.reinforcement_spaces
        room = cap - len(self.reinf[p])
        if room <= 0:
            self.log.append(f"player {p + 1}: regrouping with {card.name} cancelled: reinforcements are full")
            return False
        movable = self._movable(card.regroups, source)
        if not m.regroup_until_full and len(movable) > room:
            self.log.append(f"player {p + 1}: regrouping with {card.name} cancelled: not enough room")
            return False
        choices = self.regroup_options(p, card.regroups, source, min(room, len(movable)))
        if len(choices) > 1:
            self._regrouping = where
            self.seat = p
            # labels built now (a rare decision), while `source` still holds the tiles they name
            self._ask("regroup", Decision(p, f"Player {p + 1}: {card.name} regroups from the {where}, "
                                             f"with room for {room} in reinforcements: which units come back",
                                          self._regroup_labels(p, source, choices)),
                      choices)
            return True
        if choices:
            self._move_regrouped(p, source, where, choices[0])
        return False

    def _movable(self, wanted: tuple[int, ...], source: list[int]) -> list[int]:
        """The card's regrouped pictures, in printed order, that a tile in `source` answers (each
        tile answers one picture)."""
        left = [self.utype[uid] for uid in source if uid >= 0]
        out = []
        for r in wanted:
            if r in left:
                left.remove(r)
                out.append(r)
        return out

    def regroup_options(self, p: int, wanted: tuple[int, ...], source: list[int], k: int) -> list[tuple[int, ...]]:
        """The different ways to regroup k tiles of `source` answering the pictures `wanted`, as
        places in `source` in the order they move (printed order of their pictures). Two ways are
        the same when they leave the same: in the fleeing zone, the same units in the same order
        (which of them is next to leave); in a battalion, tiles with the same unit and marks (no
        die reaches an idle battalion, so the spaces left empty change nothing). Of two ways the
        same, the one kept takes, in the fleeing zone, the tiles closest to leaving; in a
        battalion, the first in space order. The list follows the printed order of the pictures
        each way brings back."""
        fleeing = source is self.fleeing[p]
        utype = self.utype
        order = range(len(source) - 1, -1, -1) if fleeing else range(len(source))
        cand = [i for i in order if source[i] >= 0 and utype[source[i]] in wanted]
        rank = {i: n for n, i in enumerate(cand)}
        seen: set[Any] = set()
        out: list[tuple[int, ...]] = []
        for idx in combinations(cand, k):
            types = [utype[source[i]] for i in idx]
            if any(types.count(t) > wanted.count(t) for t in types):
                continue
            if fleeing:
                key: Any = tuple(utype[uid] for i, uid in enumerate(source) if i not in idx)
            else:
                key = tuple(sorted((utype[source[i]], self.wounds[source[i]], self.poison[source[i]],
                                    self.excess[source[i]]) for i in idx))
            if key in seen:
                continue
            seen.add(key)
            out.append(tuple(sorted(idx, key=lambda i: (wanted.index(utype[source[i]]), rank[i]))))
        # listed by the pictures they bring back, in printed order, then by the tiles' order above
        out.sort(key=lambda ch: ([wanted.index(utype[source[i]]) for i in ch], [rank[i] for i in ch]))
        return out

    def _regroup_labels(self, p: int, source: list[int], choices: list[tuple[int, ...]]) -> list[str]:
        """'Goblin Spearmen and Frenzied Mob'; where two ways bring back the same units, the tiles
        say which they are: their fleeing space, or their marks in a battalion."""
        m = self.model
        utype = self.utype
        plain = [regroup_label(tuple(utype[source[i]] for i in ch), [u.name for u in m.units]) for ch in choices]
        if len(set(plain)) == len(plain):
            return plain
        fleeing = source is self.fleeing[p]
        shared = {t for t in map(utype.__getitem__, (uid for uid in source if uid >= 0))
                  if sum(1 for uid in source if uid >= 0 and utype[uid] == t) > 1}

        def tile(i: int) -> str:
            uid = source[i]
            name = m.units[utype[uid]].name
            if utype[uid] not in shared:
                return name
            if fleeing:
                return f"{name} from {_fleeing_space(self.fleeing_at[p][i])}"
            wounds = self.wounds[uid] + self.excess[uid]
            marks = ([f"{wounds} wound{'s' if wounds > 1 else ''}"] if wounds else []) + (
                ["poisoned"] if self.poison[uid] else [])
            return f"{name} ({' and '.join(marks) or 'unhurt'})"
        return [" and ".join(tile(i) for i in ch) for ch in choices]

    def _move_regrouped(self, p: int, source: list[int], where: str, places: Any) -> None:
        """Move the tiles at `places` in `source` to reinforcements, in that order, without their dice."""
        m = self.model
        fleeing = source is self.fleeing[p]
        self._audit |= _TILES | _LISTED
        uids = [source[i] for i in places]
        for uid in uids:
            if fleeing:
                i = source.index(uid)
                del source[i]
                del self.fleeing_at[p][i]
            else:
                source[source.index(uid)] = -1
            self.wounds[uid] = self.poison[uid] = self.excess[uid] = 0
            self._marked.append(uid)
            self.reinf[p].append(uid)
            self.stats["regrouped"] += 1
            self.log.append(f"player {p + 1}: {m.units[self.utype[uid]].name} regrouped from {where}")

    def heal_unit(self, uid: int, amount: int) -> int:
        """Take up to `amount` dice off a tile, poison first; return how many came off."""
        self._audit |= _LISTED
        self._marked.append(uid)
        done = 0
        while done < amount and (self.poison[uid] or self.excess[uid] or self.wounds[uid]):
            if self.poison[uid]:
                self.poison[uid] = 0
            elif self.excess[uid]:
                self.excess[uid] -= 1
            else:
                self.wounds[uid] -= 1
            done += 1
        return done

    # --- step 4: poison from last round becomes a wound; dice rolled and assigned by face
    def _poison_to_wounds(self) -> None:
        poison, morale, utype = self.poison, self.tables.morale, self.utype
        hurt = list(compress(range(len(poison)), poison))
        if hurt:
            self._audit |= _LISTED
            self._marked += hurt
        for uid in hurt:
            poison[uid] = 0
            self._wound(uid, morale[utype[uid]])

    def _wound(self, uid: int, morale: int) -> None:
        """A die on a morale square; on a full tile it counts toward annihilation (kept as excess)
        unless `excess-dice: lost` says such dice are discarded."""
        if self.wounds[uid] < morale:
            self.wounds[uid] += 1
        elif self.model.excess_counts:
            self.excess[uid] += 1

    def _assign_die(self, action: int) -> bool:
        """The die of the first card in the queue shows face action + 1 and goes to the tile that
        face names in the opposing battalion (front space, else arrow, else behind, else the
        hero); True while that card has dice left to roll."""
        item = self.queue[0]
        p, b, left, colour, ignore = item
        item[2] = left - 1
        self.stats["dice_rolled"] += 1
        front, arrow, behind = self.tables.faces[action]
        bat = self.board[1 - p][b]
        uid = bat[front]
        if uid < 0:
            uid = bat[arrow] if arrow >= 0 and bat[arrow] >= 0 else bat[behind] if bat[behind] >= 0 else bat[HERO]
        if uid >= 0:
            self.hit(uid, colour, ignore)
        return left > 1

    def hit(self, uid: int, colour: int, ignore_armour: int = 0) -> str:
        """One attack die lands on a tile: armour, then poison, then a wound."""
        if self._audit & _HIT and self._hit != uid:
            self._audit |= _MARKS    # a second tile marked since the last check: test them all
        self._audit |= _HIT
        self._hit = uid
        tables = self.tables
        ut = self.utype[uid]
        hits = self.hits
        n = hits[uid] = hits[uid] + 1
        if not ignore_armour and not self.blocked[uid] and tables.blocks[tables.armour[ut]][colour] == n:
            self.blocked[uid] = 1
            self.stats["armour_blocks"] += 1
            return "blocked"
        if colour == _POISONED and not self.poison[uid]:
            self.poison[uid] = 1
            return "poison"
        self._wound(uid, tables.morale[ut])
        return "wound"

    # --- step 5: defeated units flee or are annihilated; heroes last
    def _check_defeated(self) -> None:
        m = self.model
        self.hits = [0] * len(self.hits)
        self.blocked = [0] * len(self.blocked)
        morale, utype, wounds = self.tables.morale, self.utype, self.wounds
        # the tiles with a wound on every morale square, wherever they are (whole-list operations)
        down = set(compress(range(len(wounds)), map(ge, wounds, map(morale.__getitem__, utype))))
        if not down:
            return
        board = self.board
        last_battalion = [board[0][b][HERO] >= 0 and board[1][b][HERO] >= 0 for b in range(3)].count(True) == 1
        for p in (0, 1):
            batch: list[tuple[int, int, int, int]] = []
            for b in range(3):
                bat = board[p][b]
                if down.isdisjoint(bat):
                    continue
                self._audit |= _TILES             # tiles of this battalion leave it
                for s in range(6):
                    uid = bat[s]
                    if uid < 0 or wounds[uid] < morale[utype[uid]]:
                        continue
                    u = m.units[utype[uid]]
                    bat[s] = -1
                    if s == HERO:
                        self._remove(p, uid, "hero defeated")
                        self.heroes_lost[p] += 1
                        for t in range(HERO):
                            if bat[t] >= 0:
                                batch.append((m.fleeing_order[m.units[self.utype[bat[t]]].level], b, t, bat[t]))
                                bat[t] = -1
                    elif last_battalion or self.total_wounds(uid) > m.flee_max_wounds:
                        self._remove(p, uid, "annihilated")
                    else:
                        batch.append((m.fleeing_order[u.level], b, s, uid))
            for *_, uid in sorted(batch):
                self._flee(p, uid)

    def total_wounds(self, uid: int) -> int:
        return self.wounds[uid] + self.poison[uid] + self.excess[uid]

    def _remove(self, p: int, uid: int, why: str) -> None:
        self.gone[p].append(uid)
        if why == "annihilated":
            self.stats["annihilated"] += 1
        elif why == "left the battlefield":
            self.stats["fled_battlefield"] += 1
        self.log.append(f"player {p + 1}: {self.model.units[self.utype[uid]].name} {why}")
        self._use(self.model.units[self.utype[uid]].id, "lost", p)

    def _flee(self, p: int, uid: int) -> None:
        """A tile enters the first fleeing space and pushes right the tiles in its way, up to an
        empty space; the one pushed past the last space leaves the battlefield (only a full zone
        pushes one out, so the closed-up zone loses the same tile)."""
        at = self.fleeing_at[p]
        run = 0
        while run < len(at) and at[run] == run:
            run += 1
        for i in range(run):
            at[i] += 1
        at.insert(0, 0)
        self.fleeing[p].insert(0, uid)
        self.log.append(f"player {p + 1}: {self.model.units[self.utype[uid]].name} flees")
        if len(self.fleeing[p]) > self.model.fleeing_spaces:
            at.pop()
            self._remove(p, self.fleeing[p].pop(), "left the battlefield")

    # --- step 6
    def _discard_played(self) -> None:
        self._audit |= _CARDS
        for p in (0, 1):
            for i, c in enumerate(self.orders[p]):
                if c >= 0:
                    self.discard[p][c] += 1
                    self.orders[p][i] = -1

    # ------------------------------------------------------------------ results and checks
    def heroes_left(self, p: int) -> int:
        return 3 - self.heroes_lost[p]

    def result(self) -> GameResult:
        scores = [self.heroes_left(0), self.heroes_left(1)]
        best = max(scores)
        winners = [p for p in (0, 1) if scores[p] == best]
        stats = dict(self.stats)
        stats["rounds"] = self.round
        stats["tie"] = float(len(winners) == 2)
        return GameResult(scores=scores, winners=winners, end_reason=self.end_reason or "in-progress",
                          turns=self.round, usage={k: {e: list(v) for e, v in ev.items()} for k, ev in self.usage.items()},
                          stats=stats)

    def _use(self, ident: str, event: str, seat: int) -> None:
        events = self.usage.get(ident)
        if events is None:
            events = self.usage[ident] = {}
        per = events.get(event)
        if per is None:
            per = events[event] = [0, 0]
        per[seat] += 1

    def places(self) -> list[int]:
        """How many places hold each tile (1 for every tile when the state is sound)."""
        count = [0] * len(self.utype)
        for p in (0, 1):
            for bat in self.board[p]:
                for uid in bat:
                    if uid >= 0:
                        count[uid] += 1
            for zone in (self.reinf[p], self.fleeing[p], self.gone[p]):
                for uid in zone:
                    count[uid] += 1
        return count

    def check_invariants(self) -> list[str]:
        """Every invariant of the state; [] when it is sound.

        Why in this shape: checked runs test the invariants after every step, so they must cost
        little next to the step. Right after one step from a sound state, only the groups the
        step's rules noted in `_audit` are tested (the others held then and nothing touched
        them); any other call tests them all. Each group is first tested with whole-list
        operations; the walk that names what is wrong runs only when that test fails. A step
        that marked nothing but the tile one die hit (most steps) is tested right here."""
        n = len(self.actions)
        if self._audited == n - 1:
            scope = self._audit
            if not scope & ~_HIT:
                uid = self._hit
                if not scope or uid < 0 or (self.poison[uid] <= 1 and
                                            0 <= self.wounds[uid] <= self.tables.morale[self.utype[uid]]):
                    self._audited = n
                    return []
        else:
            scope = _ALL
        out: list[str] = []
        if scope & _TILES:
            out += self._tile_problems()
        for p in (0, 1):
            if scope & _CARDS_OF[p]:
                out += self._card_problems(p)       # hand size included
            elif scope & _HANDS:
                out += self._hand_problems(p)
        if scope & _MARKS:
            out += self._mark_problems()
        else:
            morale = self.tables.morale
            if scope & _HIT and self._hit >= 0:
                out += self._tile_mark_problems(self._hit, morale)
            if scope & _LISTED:
                for uid in self._marked:
                    out += self._tile_mark_problems(uid, morale)
        if not out:
            self._audited = n
        return out

    def _tile_problems(self) -> list[str]:
        """Each tile in exactly one place (a battalion space or a zone); no more fleeing tiles than
        fleeing spaces."""
        fleeing, reinf, gone = self.fleeing, self.reinf, self.gone
        out = []
        if max(len(fleeing[0]), len(fleeing[1])) > self.model.fleeing_spaces:
            out = [f"player {p + 1}: {len(fleeing[p])} tiles fleeing" for p in (0, 1)
                   if len(fleeing[p]) > self.model.fleeing_spaces]
        for p in (0, 1):
            at = self.fleeing_at[p]
            if len(at) != len(fleeing[p]) or any(a >= b for a, b in zip(at, at[1:])) or \
                    (at and not 0 <= at[0] <= at[-1] < self.model.fleeing_spaces):
                out.append(f"player {p + 1}: fleeing tiles in spaces {at} (tiles: {len(fleeing[p])})")
        n = len(self.utype)
        (a0, a1, a2), (b0, b1, b2) = self.board
        here = [*a0, *a1, *a2, *b0, *b1, *b2, *reinf[0], *reinf[1], *fleeing[0], *fleeing[1], *gone[0], *gone[1]]
        placed = set(here)
        placed.discard(-1)
        if len(here) - here.count(-1) == n == len(placed) and (not placed or (min(placed) >= 0 and max(placed) < n)):
            return out
        units = self.model.units
        return out + [f"tile {uid} ({units[self.utype[uid]].id}) is in {k} places"
                      for uid, k in enumerate(self.places()) if k != 1]

    def _card_problems(self, p: int) -> list[str]:
        """Seat p's order cards: none created or lost, the deck size right, full hands after the
        draw step."""
        deck, owned, discard = self.deck[p], self.owned[p], self.discard[p]
        # the cards that must be in the deck: owned less discarded (kept while both read the
        # same: they change about once a round), less those in hand or placed
        kept = self._deck_due[p]
        if kept is None or kept[0] != owned or kept[1] != discard:
            kept = (list(owned), list(discard), list(map(sub, owned, discard)))
            self._deck_due = (kept, self._deck_due[1]) if p == 0 else (self._deck_due[0], kept)
        due = kept[2].copy()
        for c in self.hand[p]:
            due[c] -= 1
        for c in self.orders[p]:
            if c >= 0:
                due[c] -= 1
        if due == deck and sum(deck) == self.deck_size[p]:
            return self._hand_problems(p)
        out = []
        if due != deck:
            out.append(f"player {p + 1}: order cards created or lost")
        if sum(deck) != self.deck_size[p]:
            out.append(f"player {p + 1}: deck size {self.deck_size[p]} but {sum(deck)} cards in it")
        return out + self._hand_problems(p)

    def _hand_problems(self, p: int) -> list[str]:
        """After the draw step, seat p's hand is full (or holds every card the seat owns)."""
        hand = self.hand[p]
        if not self.fresh_hands or len(hand) == min(self.model.hand_size, sum(self.owned[p])):
            return []
        return [f"player {p + 1}: {len(hand)} cards in hand after the draw step"]

    def _mark_problems(self) -> list[str]:
        """No tile carries two poison dice or wounds outside 0..its morale."""
        morale = self.tables.morale
        wounds = self.wounds
        if max(self.poison, default=0) <= 1 and min(wounds, default=0) >= 0 and \
                min(map(sub, map(morale.__getitem__, compress(self.utype, wounds)), filter(None, wounds)), default=0) >= 0:
            return []   # (no wound is below 0, so only wounded tiles can have more than their morale)
        return [msg for uid in range(len(self.utype)) for msg in self._tile_mark_problems(uid, morale)]

    def _tile_mark_problems(self, uid: int, morale: tuple[int, ...]) -> list[str]:
        out = []
        if self.poison[uid] > 1:
            out.append(f"tile {uid} carries {self.poison[uid]} poison dice")
        top = morale[self.utype[uid]]
        if not 0 <= self.wounds[uid] <= top:
            out.append(f"tile {uid} has {self.wounds[uid]} wounds on {top} morale")
        return out

    # ------------------------------------------------------------------ cheap clones
    def clone(self) -> "DBState":
        twin = DBState.__new__(DBState)
        twin.__dict__.update(self.__dict__)
        for name in _FLAT:
            setattr(twin, name, list(getattr(self, name)))
        for name in _NESTED:
            setattr(twin, name, [list(x) for x in getattr(self, name)])
        twin.board = [[list(bat) for bat in side] for side in self.board]
        twin.queue = [list(q) for q in self.queue]
        twin.usage = {k: {e: list(v) for e, v in ev.items()} for k, ev in self.usage.items()}
        twin.stats = dict(self.stats)
        twin.options = dict(self.options)
        twin.moves = list(self.moves)
        twin.seen = None if self.seen is None else [list(v) for v in self.seen]
        return twin

    def fingerprint(self) -> Any:
        """A value equal for equal states; checked mode compares clone and replay with it."""
        return (tuple(self.actions), repr(self.board), repr(self.hand), repr(self.deck), repr(self.discard),
                repr(self.reinf), repr(self.fleeing), repr(self.fleeing_at), repr(self.gone), tuple(self.wounds), tuple(self.poison),
                tuple(self.excess), self.round, self.phase, tuple(self.heroes_lost))

    # ------------------------------------------------------------------ hidden information
    def observation(self, seat: int) -> dict:
        """Everything `seat` may see: the whole mat, both discard piles, its own hand and secret
        choices; of the other seat only how many cards it holds and where it placed face-down ones."""
        m = self.model
        revealed = self.phase not in ("orders", "reinforce")

        def tile(uid: int) -> Any:
            if uid < 0:
                return None
            return [m.units[self.utype[uid]].id, self.wounds[uid], self.poison[uid], self.excess[uid]]

        sides = []
        for p in (0, 1):
            mine = p == seat
            unknown = () if mine else self.optional_slots(p)
            held = len(self.hand[p]) + sum(1 for i in unknown if self.orders[p][i] >= 0)
            sides.append({
                "battalions": [[tile(uid) for uid in bat] for bat in self.board[p]],
                "reinforcements": [tile(uid) for uid in self.reinf[p]],
                "fleeing": [tile(uid) for uid in self.fleeing[p]],
                "gone": sorted(m.units[self.utype[uid]].id for uid in self.gone[p]),
                "discard": [c for c, k in enumerate(self.discard[p]) for _ in range(k)],
                "hand": list(self.hand[p]) if mine else held,
                "deck": self.deck_size[p] if not mine else [c for c, k in enumerate(self.deck[p]) for _ in range(k)],
                "orders": ["unknown" if i in unknown else c if (mine or revealed or c < 0) else "face-down"
                           for i, c in enumerate(self.orders[p])],
                "heroes_lost": self.heroes_lost[p],
                "army": self.sheet_ids[p], "faction": self.factions[p],
            })
            if mine:   # reinforcements are sent blind (online edition): not even their number shows
                sides[-1]["reinforcing"] = [list(x) for x in self.pend[p]]
        return {"seat": seat, "round": self.round, "phase": self.phase, "players": sides,
                "dice": [list(d) for d in self.dice], "actions": self.visible_actions(seat)}

    def optional_slots(self, p: int) -> tuple[int, ...]:
        """Order spaces of seat p where the other seat cannot yet tell whether p laid a card: while
        orders are placed, the optional ones (the regrouping orders, and battalions where a hero
        has fallen). Both players place at the same time, so neither may learn, before both are
        done, whether the other used an optional space; the engine asks seat 0 first, and without
        this seat 1 would see it. Mandatory spaces hold a card whenever the hand is not empty."""
        if self.phase != "orders":
            return ()
        return tuple(s for s in range(len(self.orders[p])) if s == REGROUP_SLOT or self.status(p, s) != "active")

    def visible_actions(self, seat: int) -> list[int]:
        """The action log with the other seat's unrevealed secret choices blanked."""
        if self.seen is not None:
            return list(self.seen[seat])
        hidden = set(self._secret_positions_of(1 - seat))
        return [0 if i in hidden else a for i, a in enumerate(self.actions)]

    def redact(self, seat: int) -> Any:
        """Hide in place what `seat` cannot see; the stand-ins depend only on what it can see.

        The other seat's hidden cards (hand, deck, and its face-down orders while they are face
        down) become the lowest cards of their pool, in order; the rest is its deck. Why it is
        built this way: the driver redacts around every bot call, so the real lists are set
        aside whole (not copied), the log is swapped for the seat's own view of it, and the
        stand-ins, which a seat's several decisions of a phase share, are kept (see `_stand_ins`)."""
        o = 1 - seat
        hand, deck, orders = self._stand_ins(o)   # before anything is swapped: it reads the real lists
        token = (o, self.hand[o], self.deck[o], self.orders[o], self.pend[o], self.actions, self.seen,
                 self._kept_stand_ins)
        if self.seen is not None:
            self.actions, self.seen = self.seen[seat], None
        else:  # a redacted state's clone: blank the positions in a copy
            hidden = set(self._secret_positions_of(o))
            self.actions = [0 if i in hidden else a for i, a in enumerate(self.actions)]
        self.hand[o], self.deck[o], self.orders[o], self.pend[o] = list(hand), list(deck), list(orders), []
        self._kept_stand_ins = (None, None)   # the cache holds the real lists: set aside with them
        return token

    def _stand_ins(self, o: int) -> tuple[list[int], list[int], list[int]]:
        """Seat o's hand, deck and orders as the other seat may know them. A function of those
        three lists and of whether orders are face down, so the last result is kept with copies
        of its inputs and reused while they compare equal (the caller copies it)."""
        hand, deck, orders = self.hand[o], self.deck[o], self.orders[o]
        secret = self.phase in ("orders", "reinforce")
        unknown = self.optional_slots(o)
        kept = self._kept_stand_ins[o]
        if (kept is not None and kept[0] == (secret, unknown) and kept[1] == hand and kept[2] == deck
                and kept[3] == orders):
            return kept[4]
        pool = list(deck)                         # counts per card of everything the other seat cannot tell apart
        for c in hand:
            pool[c] += 1
        placed = [i for i, c in enumerate(orders) if c >= 0] if secret else []
        for i in placed:
            pool[orders[i]] += 1
        stand_in = list(orders)
        for i in unknown:                         # whether these hold a card is not known: shown empty,
            stand_in[i] = -1                      # their cards counted in the hand
        placed = [i for i in placed if i not in unknown]
        held = len(hand) + sum(1 for i in unknown if orders[i] >= 0)
        lowest = _take_lowest(pool, held + len(placed))
        for k, i in enumerate(placed):
            stand_in[i] = lowest[held + k]
        result = (lowest[:held], pool, stand_in)
        kept = ((secret, unknown), list(hand), list(deck), list(orders), result)
        self._kept_stand_ins = (kept, self._kept_stand_ins[1]) if o == 0 else (self._kept_stand_ins[0], kept)
        return result

    def restore(self, token: Any) -> None:
        (o, self.hand[o], self.deck[o], self.orders[o], self.pend[o], self.actions, self.seen,
         self._kept_stand_ins) = token

    def resample(self, seat: int, rng: random.Random) -> None:
        """Redraw in place what `seat` cannot see: the other hand, its face-down orders, its deck
        and its secret reinforcements, consistent with everything `seat` sees."""
        o = 1 - seat
        hidden_orders = self.phase in ("orders", "reinforce")
        pool = self._hidden_pool(o)
        rng.shuffle(pool)
        unknown = self.optional_slots(o)
        hand_n = len(self.hand[o]) + sum(1 for i in unknown if self.orders[o][i] >= 0)
        for i in unknown:   # whether o used these is not known: a world where it did not
            self.orders[o][i] = -1
        self.hand[o] = sorted(pool[:hand_n])
        k = hand_n
        if hidden_orders:
            for i, c in enumerate(self.orders[o]):
                if c >= 0:
                    self.orders[o][i] = pool[k]
                    k += 1
        self.deck[o] = [0] * len(self.model.cards)
        for c in pool[k:]:
            self.deck[o][c] += 1
        if self.phase == "reinforce" and self.seat > o:  # o has sent its reinforcements, face down
            self.pend[o] = []
            for b in range(3):
                opts = self.reinforcement_moves(o, b)
                if opts and rng.random() < 0.5:
                    self.pend[o].append(opts[rng.randrange(len(opts))])

    def _hidden_pool(self, o: int) -> list[int]:
        """The other seat's cards nobody else can tell apart: hand, deck and face-down orders, sorted."""
        pool = [c for c, k in enumerate(self.deck[o]) for _ in range(k)] + list(self.hand[o])
        if self.phase in ("orders", "reinforce"):
            pool += [c for c in self.orders[o] if c >= 0]
        return sorted(pool)

    def _secret_positions_of(self, o: int) -> list[int]:
        """Positions in `actions` that only seat o may read: its unrevealed secret choices, every
        card it drew and every order it placed (see `private_at`)."""
        return [pos for pos, who in zip(self.secret_open, self.secret_who) if who == o] + self.private_at[o]


def _army_table(m: Model, factions: list[str], share: float) -> tuple[tuple[str, ...], tuple[Any, ...],
                                                                       tuple[float, ...]]:
    """Labels, moves and weights of the army draw: predefined armies of the factions, then
    custom variants (built only if drawn) sharing `share` of the weight."""
    armies = [a for a in m.armies if a.faction in factions] if share < 1 else []
    labels, moves, weights = [], [], []
    for a in armies:
        labels.append(a.name)
        moves.append(predefined(m, a.idx))
        weights.append((1 - share) / len(armies))
    if share > 0:
        for f in factions:
            for k in range(CUSTOM_VARIANTS):
                labels.append(f"Custom {f} army #{k}")
                moves.append(_Lazy(m, f, k))
                weights.append(share / (len(factions) * CUSTOM_VARIANTS))
    return tuple(labels), tuple(moves), tuple(weights)


def _order_prompt(m: Model, p: int, slot: int, status: str) -> str:
    """The prompt of an order decision (the same few at every round: see `_Tables`)."""
    where = "regrouping order" if slot == REGROUP_SLOT else \
        f"order for the {m.battalion_names[slot].lower()} ({status}, face down)"
    return f"Player {p + 1}: {where}" + (" (face down)" if slot == REGROUP_SLOT else "")


class _Tables(NamedTuple):
    """The model's figures the rules read at every step, as flat tuples: per unit type its morale
    and armour, per armour and colour the die it blocks, per face (index 0 is face 1) the spaces
    a die looks at (front, arrow or -1, behind)."""

    morale: tuple[int, ...]
    armour: tuple[int, ...]
    blocks: tuple[tuple[int, ...], ...]
    faces: tuple[tuple[int, int, int], ...]
    order_prompts: tuple[tuple[dict[str, str], ...], ...]   # [seat][slot][status]


def _tables(m: Model) -> _Tables:
    """The model's `_Tables`, built once per model and shared by all its games."""
    tables = m.derived.get("rules-tables")
    if tables is None:
        tables = m.derived["rules-tables"] = _Tables(
            morale=tuple(u.morale for u in m.units), armour=tuple(u.armour for u in m.units), blocks=m.blocks,
            faces=tuple((f.front, f.arrow, f.behind) for f in m.faces),
            order_prompts=tuple(tuple({st: _order_prompt(m, p, slot, st) for st in
                                       (("",) if slot == REGROUP_SLOT else ("active", "idle", "defeated"))}
                                      for slot in range(REGROUP_SLOT + 1)) for p in (0, 1)))
    return tables


def _take_lowest(counts: list[int], n: int) -> list[int]:
    """Remove the n lowest cards from a count per card and return them in order."""
    out: list[int] = []
    for c in compress(range(len(counts)), counts):   # the cards with a count, lowest first
        if n <= 0:
            break
        k = counts[c]
        k = k if k < n else n
        out += [c] * k
        counts[c] -= k
        n -= k
    return out


class _Lazy:
    """A custom army variant, built only when chance picks it (building all of them is slow)."""

    __slots__ = ("model", "faction", "variant")

    def __init__(self, model: Model, faction: str, variant: int) -> None:
        self.model, self.faction, self.variant = model, faction, variant


_FLAT = ("utype", "uowner", "wounds", "poison", "excess", "hits", "blocked", "heroes_lost", "sheet_ids",
         "sheet_labels", "factions", "deck_size", "actions", "reveals", "secret_open", "secret_who", "orders_at", "log",
         "_marked")
_NESTED = ("reinf", "fleeing", "fleeing_at", "gone", "hand", "deck", "discard", "owned", "orders", "pend", "private_at",
           "activated", "cancelled", "dice")
