"""Shared loading for the Fantasy Draft tests (no tests here): the real content files, no mocks."""
from __future__ import annotations

import functools
from pathlib import Path

from ruamel.yaml import YAML

from engine.fantasy_draft import SPEC

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content" / "fantasy-draft"
SCENARIOS = ROOT / "scenarios" / "fantasy-draft"
TEMPLATES = ROOT / "templates" / "fantasy-draft" / "text.yaml"
GOLDEN = Path(__file__).resolve().parent / "golden"


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def content() -> dict:
    """kind -> items, read through the manifest."""
    comps = load_yaml(CONTENT / "game.yaml")["components"]
    return {kind: load_yaml(CONTENT / c["file"])["items"] for kind, c in comps.items()}


@functools.lru_cache(maxsize=None)
def model():
    return SPEC.build_model(content())


def situation(setup: dict):
    """A state built from a scenario-style setup (see docs/games/fantasy-draft.md)."""
    return SPEC.scenario_state(model(), 2, setup)


def choose(st, label: str) -> None:
    """Take the option whose label starts with `label` (exactly one must)."""
    d = st.decision()
    hits = [i for i, o in enumerate(d.options) if o.startswith(label)]
    assert len(hits) == 1, (label, d.options)
    st.apply(hits[0])


def options(st) -> tuple[str, ...]:
    return st.decision().options


def hx(label: str) -> int:
    return model().board.index[label]


def unit(uid: str) -> int:
    return model().by_id[uid]
