"""Words never touch the line drawn round them: on a Dice Battles army sheet, each unit's name,
wrapped in its outlined 18 mm space, keeps at least half a millimetre from the outline on its left
and right (long names such as "Nagga the Troll" wrapped onto the line otherwise).

Checked on the layout, where the space and its text are two boxes; elsewhere a text box may share
its frame's width on purpose (a short centred label on the battle mat)."""
from __future__ import annotations

import pytest
from ruamel.yaml import YAML

from conftest import ROOT

INSET = 0.5  # mm


def _num(value: object) -> float | None:
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None


def _pairs() -> list[tuple[str, str, dict, dict]]:
    out = []
    for path in [ROOT / "templates" / "dice-battles" / "layouts.yaml"]:
        data = YAML(typ="safe").load(path.read_text())
        designs = {"army": data["kinds"]["army"]}
        for name, design in designs.items():
            boxes = [b for b in (design or {}).get("boxes") or [] if isinstance(b, dict)]
            frames = [b for b in boxes if b.get("type") == "rect" and b.get("stroke")
                      and all(_num(b.get(k)) is not None for k in "xywh")]
            for text in (b for b in boxes if b.get("type") == "text" and all(_num(b.get(k)) is not None for k in "xywh")):
                for frame in frames:
                    inside = (frame["x"] <= text["x"] and text["x"] + text["w"] <= frame["x"] + frame["w"]
                              and frame["y"] <= text["y"] and text["y"] + text["h"] <= frame["y"] + frame["h"])
                    if inside:
                        out.append((path.parent.name, name, frame, text))
    return out


def test_there_are_framed_texts_to_check() -> None:
    assert len(_pairs()) >= 18  # three battalions of six spaces


@pytest.mark.parametrize("game,design,frame,text", _pairs(),
                         ids=lambda v: v if isinstance(v, str) else None)
def test_a_framed_text_keeps_clear_of_its_outline(game: str, design: str, frame: dict, text: dict) -> None:
    left = text["x"] - frame["x"]
    right = frame["x"] + frame["w"] - (text["x"] + text["w"])
    assert min(left, right) >= INSET, f"{game} {design}: text at x={text['x']} w={text['w']} in a frame at " \
                                      f"x={frame['x']} w={frame['w']} ({left:.1f} and {right:.1f} mm clear)"
