"""Party arithmetic for the heuristic bot: how much strength a party can expect to field.

The bot builds its party around one question: with five dice and two rerolls, what total
strength will these heroes put into the attack on an average turn? `party_strength` answers it
with a cheap, deterministic estimate (no simulation), so the bot can compare "recruit this hero
and drop that one" many times per turn and stay fast:

- dice odds come from fixed tables (`_PX`: best n-of-a-kind with n dice in 3 or 4 rolls,
  measured once by simulation; exact faces: binomial, each die has 1-(5/6)^rolls to show a face);
- heroes are taken in a sensible firing order (extra dice and rerolls first, cost reducers, steam
  makers, then the rest by strength per die) and each one uses up the dice it needs, in
  expectation, so five heavy heroes do not all count as if they had the dice to themselves;
- steam only helps when the party makes steam; a cost reducer only helps X-cost heroes;
  "activate another hero", "strength per active hero" and treasure halves are counted.

The estimate is a pure function of the party, so results may be cached by party key.
"""
from __future__ import annotations

from math import comb
from typing import Any

# _PX[r][n][k]: chance to hold k of a kind after r rolls of n dice, keeping the most common face.
_PX3 = ((1.0, 0.0, 0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.419, 0.0, 0.0, 0.0),
        (1.0, 1.0, 0.832, 0.216, 0.0, 0.0), (1.0, 1.0, 0.978, 0.508, 0.105, 0.0),
        (1.0, 1.0, 0.999, 0.744, 0.288, 0.046), (1.0, 1.0, 1.0, 0.891, 0.501, 0.162),
        (1.0, 1.0, 1.0, 0.963, 0.69, 0.318), (1.0, 1.0, 1.0, 0.991, 0.821, 0.491),
        (1.0, 1.0, 1.0, 0.999, 0.912, 0.647))
_PX4 = ((1.0, 0.0, 0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.0, 0.0, 0.0, 0.0), (1.0, 1.0, 0.52, 0.0, 0.0, 0.0),
        (1.0, 1.0, 0.906, 0.323, 0.0, 0.0), (1.0, 1.0, 0.994, 0.656, 0.184, 0.0),
        (1.0, 1.0, 1.0, 0.856, 0.446, 0.096), (1.0, 1.0, 1.0, 0.954, 0.675, 0.288),
        (1.0, 1.0, 1.0, 0.99, 0.84, 0.51), (1.0, 1.0, 1.0, 0.999, 0.93, 0.694),
        (1.0, 1.0, 1.0, 1.0, 0.973, 0.834))
_NMAX = 9
_SUPPORT = ("extra-dice", "extra-reroll", "reduce-cost", "steam")


def _binom_table(rolls: int) -> tuple[tuple[float, ...], ...]:
    q = 1.0 - (5.0 / 6.0) ** rolls
    rows = []
    for n in range(_NMAX + 1):
        row = []
        for m in range(6):
            row.append(sum(comb(n, j) * q ** j * (1 - q) ** (n - j) for j in range(m, n + 1)) if m <= n else 0.0)
        rows.append(tuple(row))
    return tuple(rows)


_PE3 = _binom_table(3)
_PE4 = _binom_table(4)


def _interp(t3: tuple, t4: tuple, k: int, dice: float, rolls: float) -> float:
    """Table lookup with linear interpolation in the number of dice and of rolls."""
    if k <= 0:
        return 1.0
    if k > 5 or dice < k - 0.999:
        return 0.0
    if dice >= _NMAX:
        lo = hi = _NMAX
        w = 0.0
    else:
        lo = int(dice)
        hi = lo + 1
        w = dice - lo
    a3 = t3[lo][k] * (1 - w) + t3[hi][k] * w
    if rolls <= 3.0:
        return a3
    a4 = t4[lo][k] * (1 - w) + t4[hi][k] * w
    r = rolls - 3.0
    return a4 if r >= 1.0 else a3 * (1 - r) + a4 * r


def p_kind(k: int, dice: float, rolls: float) -> float:
    """Chance to pay a set of k X with `dice` free dice and `rolls` rolls."""
    return _interp(_PX3, _PX4, k, dice, rolls)


def p_faces(faces: tuple[tuple[int, int], ...], dice: float, rolls: float, total: int = -1) -> float:
    """Chance to pay exact faces ((face, count), ...) with `dice` free dice; `total` is the
    number of dice they take, when known."""
    if total < 0:
        total = sum(c for _, c in faces)
    p = 1.0
    for _, c in faces:
        p *= _interp(_PE3, _PE4, c, dice - (total - c), rolls)
    return p


class Feat:
    """What the bot needs to know about one hero card, precomputed once per model."""

    __slots__ = ("card", "strength", "cls", "xn", "faces", "ndice", "steam_cost", "steam_gen", "disc",
                 "xdice", "xroll", "shield", "bonus", "per_cls", "per_amt", "act_limit", "capture", "setdie",
                 "draw", "enabler")

    def __init__(self, card: Any) -> None:
        self.card = card.idx
        self.strength = card.strength
        self.cls = card.cls
        self.xn = card.xn
        self.faces = tuple((f, card.exact_counts[f]) for f in range(1, 7) if card.exact_counts[f])
        self.ndice = card.xn or len(card.exact)
        self.steam_cost = card.steam
        self.steam_gen = self.disc = self.xdice = self.xroll = self.shield = self.bonus = 0
        self.per_cls, self.per_amt, self.act_limit = "", 0, -1
        self.capture = self.setdie = self.draw = 0
        _add_effects(self, card.effects, card.strength)
        self.enabler = (self.xdice or self.xroll) and self.ndice <= 1


def _add_effects(f: Feat, effects: Any, own_strength: int) -> None:
    for e in effects:
        k = e.kind
        if k == "steam":
            f.steam_gen += e.amount
        elif k == "reduce-cost":
            f.disc += e.amount
        elif k == "extra-dice":
            f.xdice += e.amount
        elif k == "extra-reroll":
            f.xroll += e.amount
        elif k == "shield":
            f.shield += e.amount
        elif k == "strength":
            f.bonus += e.amount
        elif k == "strength-per-active":
            f.per_cls, f.per_amt = e.cls, e.amount
        elif k == "activate-hero":
            f.act_limit = e.max_strength if e.max_strength >= 0 else own_strength
        elif k == "capture":
            f.capture = max(f.capture, e.max_strength)
        elif k == "set-die":
            f.setdie += e.count
        elif k == "draw-cards":
            f.draw += e.amount


def party_memo(memos: dict, key: tuple) -> dict:
    """The memo of party `key` (card -> answer) in `memos`, made on first use. Memos are kept
    per party, then per card, so a decision hashes its party key (a tuple of tuples, which
    Python hashes anew at every look-up) once rather than once per card. They are pure
    functions of their keys: emptied when they grow large, they only cost a recomputation."""
    memo = memos.get(key)
    if memo is None:
        if len(memos) > 50_000:
            memos.clear()
        memo = memos[key] = {}
    return memo


class Planner:
    """One model's precomputation and memos of party estimates (key -> value)."""

    def __init__(self, model: Any) -> None:
        self.model = model
        self.feats = [Feat(c) if not c.is_action else None for c in model.deck]
        self.tfeats: dict[tuple[int, int], Feat] = {}
        for t in model.treasures:
            for lvl in (1, 2):
                f = Feat.__new__(Feat)
                f.steam_gen = f.disc = f.xdice = f.xroll = f.shield = f.bonus = 0
                f.per_cls, f.per_amt, f.act_limit = "", 0, -1
                f.capture = f.setdie = f.draw = 0
                _add_effects(f, t.halves[lvl - 1], 0)
                self.tfeats[(t.idx, lvl)] = f
        self.cache: dict[tuple, float] = {}
        self.swaps: dict[tuple, dict[int, tuple[float, Any]]] = {}
        self.drop_order: dict[tuple, tuple] = {}
        self.recs: dict[tuple, tuple] = {}
        self.singles: dict[int, float] = {}
        self.bases: dict[tuple, tuple] = {}
        self.duos: dict[tuple, float] = {}
        self.proxy: dict[tuple, tuple] = {}   # scratch: party key -> entries, least useful first
        self.nd = len(model.deck)
        # synergy of the ordered pair (a, b) at a * nd + b: duo(a, b) - single(a) - single(b)
        self.syns: list[float | None] = [None] * (self.nd * self.nd)
        # the record of each hero card without a treasure, the usual party entry
        self.plain = [self.record((c.idx, -1, 0)) if f is not None else None for c, f in zip(model.deck, self.feats)]
        # what activating each card is worth to the roll step before its payment: its value,
        # plus 2 for a helper (its first ability gives dice, rerolls, a cost reduction or steam)
        self.act_worth = tuple(c.value + (2.0 if c.effects and c.effects[0].kind in _SUPPORT else 0.0)
                               for c in model.deck)

    def strength(self, key: tuple) -> float:
        """Expected attack strength of a party; `key` is a sorted tuple of (card, treasure, tlevel)."""
        v = self.cache.get(key)
        if v is None:
            if len(self.cache) > 200_000:
                self.cache.clear()
            v = self.cache[key] = self._estimate(key)
        return v

    def drops(self, key: tuple) -> tuple:
        """The distinct entries of party `key`, the one the party misses least first (by what
        each contributes to the estimate, enablers credited for what they give the others)."""
        got = self.drop_order.get(key)
        if got is None:
            # Run for its side effect (the per-entry contributions in `proxy`); the strength
            # cache is left alone so that it holds one canonical value per party, whatever
            # this process computed before (results must not depend on a worker's history).
            self._estimate(key, True)
            got = self.proxy.pop(key)
            if len(self.drop_order) > 100_000:
                self.drop_order.clear()
            self.drop_order[key] = got
        return got

    def swap(self, key: tuple, card: int) -> tuple[float, Any]:
        """Best expected strength after recruiting `card` into party `key`, and the entry of
        `key` to drop for it (None while the party has room)."""
        memo = party_memo(self.swaps, key)
        got = memo.get(card)
        if got is not None:
            return got
        new = (card, -1, 0)
        if len(key) < 5:
            got = (self.strength(tuple(sorted(key + (new,)))), None)
        else:
            best, drop = -1.0, None
            for e in self.drops(key)[:1]:   # the hero the party misses least
                i = key.index(e)
                v = self.strength(tuple(sorted(key[:i] + key[i + 1:] + (new,))))
                if v > best:
                    best, drop = v, e
            got = (best, drop)
        memo[card] = got
        return got

    def base(self, key: tuple) -> tuple:
        """The cards of party `key` that stay when a recruit comes in: all of them while the
        party has room, else all but the one the party misses least."""
        base = self.bases.get(key)
        if base is None:
            if len(key) >= 5:
                e = self.drops(key)[0]
                i = key.index(e)
                base = tuple(x[0] for x in key[:i] + key[i + 1:])
            else:
                base = tuple(x[0] for x in key)
            if len(self.bases) > 100_000:
                self.bases.clear()
            self.bases[key] = base
        return base

    def single(self, card: int) -> float:
        v = self.singles.get(card)
        if v is None:
            v = self.singles[card] = self._estimate(((card, -1, 0),))
        return v

    def duo(self, a: int, b: int) -> float:
        """Expected strength of the party of heroes `a` and `b` alone."""
        ea, eb = (a, -1, 0), (b, -1, 0)
        k = (ea, eb) if ea <= eb else (eb, ea)
        v = self.duos.get(k)
        if v is None:
            v = self.duos[k] = self._estimate(k)
        return v

    def synergy(self, a: int, b: int) -> float:
        """What heroes `a` and `b` together add over each alone, subtracted in this order (the
        order matters in the last bit: see GamePlan)."""
        i = a * self.nd + b
        w = self.syns[i]
        if w is None:
            w = self.syns[i] = self.duo(a, b) - self.single(a) - self.single(b)
        return w

    def record(self, entry: tuple) -> tuple:
        """Per party entry (card, treasure, level): the numbers the estimate reads."""
        r = self.recs.get(entry)
        if r is None:
            card, tre, lvl = entry
            f = self.feats[card]
            t = self.tfeats.get((tre, lvl)) if tre >= 0 else None
            sval = f.strength + f.bonus + (t.bonus if t else 0)
            credit = 0.25 * (f.shield + f.draw + f.setdie + ((t.shield + t.draw + t.setdie) if t else 0)) \
                + 0.4 * max(f.capture, t.capture if t else 0)
            r = (f, sval, f.xdice + (t.xdice if t else 0), f.xroll + (t.xroll if t else 0),
                 f.steam_gen + (t.steam_gen if t else 0), credit, -sval / max(1, f.ndice))
            self.recs[entry] = r
        return r

    def _estimate(self, key: tuple, proxy: bool = False) -> float:
        if not key:
            return 0.0
        got = self.recs.get
        recs = []
        for e in key:   # a plain loop: a comprehension is a call of its own
            recs.append(got(e) or self.record(e))
        has_x = has_steam_user = False
        for r in recs:
            f = r[0]
            if f.xn >= 2:
                has_x = True
            if f.steam_cost:
                has_steam_user = True
        # firing order: extra dice/rerolls, pair-cost reducers, steam makers, other reducers, the rest
        order = []
        for i, r in enumerate(recs):
            f = r[0]
            if f.enabler:
                g = 0
            elif f.disc and has_x:
                g = 1 if f.xn <= 2 else 3
            elif r[4] and has_steam_user:
                g = 2
            else:
                g = 4
            order.append((g, r[6], i))
        order.sort()
        dice, rolls, steam = 5.0, 3.0, 0.0
        disc_p, disc_amt = 0.0, 0
        total = 0.0
        prob = [0.0] * len(recs)
        contrib = [0.0] * len(recs) if proxy else prob
        for _, _, i in order:
            f, sval, xdice, xroll, sgen, credit, _ = recs[i]
            p_steam = 0.0
            if f.steam_cost and steam > 0:
                p_steam = steam / f.steam_cost
                if p_steam > 1.0:
                    p_steam = 1.0
                steam -= p_steam * steam      # paying spends all the steam
            need = f.xn
            if need:
                if disc_p and need >= 2 and not f.disc:
                    red = need - disc_amt
                    if red <= 0:
                        p_dice = disc_p + (1 - disc_p) * _interp(_PX3, _PX4, need, dice, rolls)
                        used = (1 - disc_p) * need
                    else:
                        p_dice = disc_p * _interp(_PX3, _PX4, red, dice, rolls) \
                            + (1 - disc_p) * _interp(_PX3, _PX4, need, dice, rolls)
                        used = disc_p * red + (1 - disc_p) * need
                    disc_p = 0.0      # one reduction per activation: spent on the first X hero
                else:
                    p_dice = _interp(_PX3, _PX4, need, dice, rolls)
                    used = need
            elif f.faces:
                p_dice = p_faces(f.faces, dice, rolls, f.ndice)
                used = f.ndice
            else:
                p_dice, used = 1.0, 0
            q = (1 - p_steam) * p_dice
            p = p_steam + q
            dice -= q * used
            if dice < 0:
                dice = 0.0
            prob[i] = p
            if xdice:
                dice += p * xdice
            if xroll:
                rolls = min(4.0, rolls + p * xroll)
            if sgen:
                steam += p * sgen
            if f.disc:
                if p > disc_p:
                    disc_p = p
                if f.disc > disc_amt:
                    disc_amt = f.disc
            if proxy:
                contrib[i] = p * (sval + credit + xdice + 0.7 * xroll + 1.5 * f.disc + (0.6 * sgen if has_steam_user else 0.0))
            total += p * (sval + credit)
        # activate another hero, strength per active hero of a class: after all odds are known
        for i, r in enumerate(recs):
            f = r[0]
            if f.act_limit >= 0:
                best = 0.0
                for j, r2 in enumerate(recs):
                    if j != i and r2[0].strength <= f.act_limit:
                        v = (1 - prob[j]) * r2[1]
                        if v > best:
                            best = v
                total += prob[i] * best
                if proxy:
                    contrib[i] += prob[i] * best
            if f.per_amt:
                v = prob[i] * f.per_amt * sum(prob[j] for j, r2 in enumerate(recs) if j != i and r2[0].cls == f.per_cls)
                total += v
                if proxy:
                    contrib[i] += v
        if proxy:
            seen, least = set(), []
            for c, e in sorted(zip(contrib, key)):
                if e not in seen:
                    seen.add(e)
                    least.append((c, e))
            self.proxy[key] = tuple(e for _, e in least)
        return total


class GamePlan:
    """One game's view of its model's planner: the shared planner, plus the memo of pairwise
    synergies and rough scores that must stay with the game.

    Why not share those too: a pair's synergy is its duo estimate minus the two singles, and the
    two subtractions are done in the order of the game's first request for the pair; another
    order can differ in the last bit, enough to reorder two candidates that tie. Keeping this
    small memo per game keeps every game's choices exactly what they were; the costly part
    (the estimates, and each ordered pair's synergy, `Planner.synergy`) is shared, and the memo
    is a flat list indexed by card numbers, so a look-up builds and hashes no tuple."""

    __slots__ = ("plan", "owner", "pair", "roughs")

    def __init__(self, plan: Planner, owner: Any) -> None:
        self.plan = plan
        self.owner = owner
        # the synergy of each pair of cards (a * nd + b), fixed by the first order asked for
        self.pair: list[float | None] = [None] * len(plan.syns)
        self.roughs: dict[tuple, dict[int, float]] = {}

    def rough(self, key: tuple, card: int) -> float:
        """A quick score for recruiting `card` into party `key` (the hero it would replace
        left out): its own worth plus its pairwise synergy with each hero that stays (treasures
        ignored). Only good for ranking candidates before `swap` looks closely at the best."""
        memo = party_memo(self.roughs, key)
        v = memo.get(card)
        if v is not None:
            return v
        plan, pair, nd = self.plan, self.pair, self.plan.nd
        v = plan.single(card)
        for b in plan.base(key):
            w = pair[b * nd + card]
            if w is None:
                w = pair[b * nd + card] = pair[card * nd + b] = plan.synergy(b, card)
            v += w
        memo[card] = v
        return v


_PLANNERS: dict[int, Planner] = {}
_MODELS_KEPT = 4
_GAMES: dict[int, GamePlan] = {}


def planner(model: Any) -> Planner:
    """The planner of a model, shared by every bot and game that plays it.

    Sharing is safe because a planner holds no game state: its tables are derived from the
    content, and each of its memos is a pure function of its key (a cleared memo only costs a
    recomputation), so a bot's choices never depend on which games the process played before
    and a smoke run gives the same games on one worker or many. Sharing is what makes it cheap:
    the estimates of common parties are computed once per process, not once per game."""
    p = _PLANNERS.get(id(model))
    if p is None or p.model is not model:   # the planner keeps its model alive: ids stay unique
        if len(_PLANNERS) >= _MODELS_KEPT:
            _PLANNERS.clear()
        p = _PLANNERS[id(model)] = Planner(model)
    return p


def game_plan(state: Any) -> GamePlan:
    """The plan of one game; its memo lives as long as the game (see GamePlan)."""
    g = _GAMES.get(id(state))
    if g is None or g.owner is not state:
        if len(_GAMES) > 8:
            _GAMES.clear()
        g = _GAMES[id(state)] = GamePlan(planner(state.model), state)
    return g
