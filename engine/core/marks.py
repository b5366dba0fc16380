"""Change marks for invariant checks: the part every game that marks its changes shares.

A game that checks after a step only the areas its rules marked as changed (a bit per area in
`state.dirty`) proves the marks with an audit: write out what each area reads before a step,
again after it, and name the areas that changed without a mark.
"""
from __future__ import annotations

from typing import Mapping


def unmarked_areas(before: Mapping[int, str], now: Mapping[int, str], dirty: int,
                   names: Mapping[int, str]) -> list[str]:
    """The names of the areas whose contents differ between `before` and `now` (area bit ->
    contents written out) although `dirty` does not mark them: changes a check would miss."""
    return [names[bit] for bit, value in now.items() if value != before[bit] and not dirty & bit]
