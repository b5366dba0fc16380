"""Pause Python's cycle collector while content is loaded and checked.

Loading a big game makes hundreds of thousands of dicts, lists and tuples, and none of them
form a reference cycle: they are freed by reference counting like any other value. The cycle
collector does not know that; it runs every few hundred allocations and, as the heap grows,
walks more and more of it (on 10,000 components about a fifth of `hordekit validate`'s time).
Pausing it for the duration changes what is kept in memory only by the few cycles made
meanwhile, which it collects as soon as it runs again.

The command line pauses it the same way while it starts (imports, building the commands) and
for the whole of `hordekit pnp`: without that, a Kingdoms PDF spent about 22 ms of its 0.45 s
in the collector, with one game's few hundred cyclic objects to find.
"""

from __future__ import annotations

import gc
from contextlib import contextmanager
from typing import Iterator


@contextmanager
def collector_paused(freeze: bool = False) -> Iterator[None]:
    """Run the block with the cycle collector off; nested uses and a collector already off are kept.

    The first collection after a pause walks every object made during it that is still alive
    (after a command that imported ReportLab, about 20 ms). ``freeze=True`` moves those objects
    out of the collector's sight first (``gc.freeze``), for a command line whose process ends
    right afterwards: what it keeps is modules, classes and caches, which live to the end anyway.
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            if freeze:
                gc.freeze()
            gc.enable()


#: Per pending ``pause_collector``: whether the collector was on before it.
_paused_from: list[bool] = []


def pause_collector() -> None:
    """Switch the collector off until ``resume_collector``: for a stretch no block encloses, such
    as importing and building the command line."""
    _paused_from.append(gc.isenabled())
    gc.disable()


def resume_collector() -> None:
    """Undo the latest pending ``pause_collector`` (nothing when none is pending). What was made
    meanwhile (modules, classes, the command line) lives as long as the process: it is frozen
    (``gc.freeze``), so later collections do not walk it again. A collector that was off before
    stays off."""
    if _paused_from and _paused_from.pop():
        gc.freeze()
        gc.enable()
