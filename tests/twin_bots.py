"""Twin-bot games: the proof a bot that declares `reads_hidden = False` may skip redaction.

Every decision of a whole game is put to two bots built from the same seed, one shown the full
state and one the state redacted for its seat; they must choose alike. Shared by each game's
hidden-information tests, which differ only in what they count as the hidden part of a state.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Hashable, Iterable

from engine.core.driver import make_bots


def twin_bot_games(spec: Any, model: Any, players: int, seeds: Iterable[int], bot: str,
                   hidden: Callable[[Any, int], Hashable], options: dict | None = None,
                   chance: Callable[[random.Random, Any], int] = lambda rng, d: rng.randrange(d.n)) -> tuple[int, int]:
    """Play one game per seed and assert at every decision that the twin bots choose alike.

    `hidden(state, seat)` is what redaction for `seat` may change; `chance` picks chance outcomes.
    Returns (decisions, decisions at which redaction changed the hidden part), so a test can
    show the redacted state really differed from the full one."""
    decisions = differed = 0
    for i, seed in enumerate(seeds):
        full, blind = make_bots(spec, players, seed, [bot]), make_bots(spec, players, seed, [bot])
        st = spec.new_state(model, players, dict(options or {}))
        rng = random.Random(seed)
        while (d := st.decision()) is not None:
            if d.player < 0:
                st.apply(chance(rng, d))
                continue
            pick = full[d.player].choose(st, d)
            before = hidden(st, d.player)
            token = st.redact(d.player)
            try:
                differed += hidden(st, d.player) != before
                assert blind[d.player].choose(st, d) == pick, f"game {i}, action {len(st.actions)}"
            finally:
                st.restore(token)
            decisions += 1
            st.apply(pick)
    return decisions, differed
