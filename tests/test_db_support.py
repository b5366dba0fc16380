"""Shared loading for the Dice Battles tests (no tests here): the real content files, no mocks."""
from __future__ import annotations

import functools
from pathlib import Path

from ruamel.yaml import YAML

ROOT = Path(__file__).resolve().parent.parent
CONTENT = ROOT / "content" / "dice-battles"
SCENARIOS = ROOT / "scenarios" / "dice-battles"
GOLDEN = Path(__file__).resolve().parent / "golden"


def load_yaml(path: Path):
    return YAML(typ="safe").load(path.read_text(encoding="utf-8"))


@functools.lru_cache(maxsize=None)
def content() -> dict:
    """kind -> items, read through the manifest."""
    manifest = load_yaml(CONTENT / "game.yaml")
    return {kind: load_yaml(CONTENT / comp["file"])["items"] for kind, comp in manifest["components"].items()}


@functools.lru_cache(maxsize=None)
def model():
    from engine.dice_battles import SPEC
    return SPEC.build_model(content())


def scenario_state(setup: dict):
    from engine.dice_battles import SPEC
    return SPEC.scenario_state(model(), 2, setup)


# A table both sides can play a quiet round on: the first two battalions are active, the third
# lost both heroes. Goblins are seat 0, serpent children seat 1.
GOBLINS_B1 = {"fl": "goblin-spearmen", "fc": "shield-goblins", "fr": "goblin-spearmen", "rl": "goblin-archers",
              "rr": "goblin-archers", "hero": "warboss-grukk"}
SERPENTS_B1 = {"fl": "serpent-spawn", "fc": "scale-guard", "fr": "serpent-spawn", "rl": "venom-spitters",
               "rr": "venom-spitters", "hero": "serpent-queen"}
HAND_0 = ["goblin-spearmen-order", "goblin-spearmen-order", "goblin-archers-order", "wolf-riders-order",
          "cave-troll-order", "shield-goblins-order", "goblin-mob-order"]
HAND_1 = ["serpent-spawn-order", "serpent-spawn-order", "swamp-striders-order", "scale-guard-order",
          "venom-spitters-order", "hatchlings-order", "basilisk-order"]


def table(**changes) -> dict:
    """The quiet table above, with per-player changes: table(p0={...}, p1={...})."""
    p0 = {"battalions": [GOBLINS_B1, {"fl": "goblin-spearmen", "hero": "troll-tamer"}], "hand": list(HAND_0)}
    p1 = {"battalions": [SERPENTS_B1, {"fl": "serpent-spawn", "hero": "venom-lord"}], "hand": list(HAND_1)}
    p0.update(changes.get("p0", {}))
    p1.update(changes.get("p1", {}))
    return {"players": [p0, p1]}


def choose(st, *labels: str) -> None:
    """Take, decision after decision, the option that starts with each label (the first if several)."""
    for label in labels:
        d = st.decision()
        st.apply(next(i for i, o in enumerate(d.options) if o.startswith(label)))
