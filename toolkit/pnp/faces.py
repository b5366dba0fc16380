"""Which faces get printed, how many times, and with which back.

A *face* is one distinct printed design for one component (a hero card, a horde counter, the
quick-reference card). Copies share the face: it is drawn once into the PDF and placed as many
times as the component's quantity, which keeps both the run time and the file small.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from toolkit.diagnostics import Diagnostic, did_you_mean, warning
from toolkit.games import LoadedGame
from toolkit.paths import display
from toolkit.pnp.draw import Target
from toolkit.pnp.layoutfile import Design, Layouts
from toolkit.pnp.templating import context_of, jinja_name


@dataclass
class Face:
    key: str  # the PDF form name: unique per face
    group: str  # the kind (or extra) it is counted under
    item_id: str
    ctx: dict[str, Any]
    copies: int
    design: Design
    target: Target


def form_key(group: str, item_id: str) -> str:
    return f"face:{group}:{item_id}"


def base_context(loaded: LoadedGame) -> dict[str, Any]:
    g = loaded.game
    assert g is not None
    return {"game": {"id": g.id, "title": g.title, "fingerprint": loaded.fingerprint,
                     "players": {"min": g.players[0], "max": g.players[1]}},
            # a kind is read as it is named in game.yaml (kinds['battle-mat']) or as a Jinja name (kinds.battle_mat)
            "kinds": {**loaded.data, **{k.replace("-", "_"): v for k, v in loaded.data.items()}}}


def collect_faces(loaded: LoadedGame, layouts: Layouts, only: set[str] | None = None) -> tuple[list[Face], list[Diagnostic]]:
    """Every face to print, kinds in manifest order then extras; ``only`` keeps those ids."""
    game = loaded.game
    assert game is not None
    base = base_context(loaded)
    faces: list[Face] = []
    diags: list[Diagnostic] = []
    manifest = display(game.manifest_file)
    for kind in game.kinds.values():
        design = layouts.kinds.get(kind.name)
        if design is None:
            if kind.physical:
                pos = game.manifest.pos(("components", kind.name))
                unused = [k for k in layouts.kinds if k not in game.kinds]
                guess = did_you_mean(kind.name, unused)
                hint = (f"{display(layouts.file)} has a design for '{guess.split('`')[1]}', a kind the manifest does "
                        f"not list: did you mean '{kind.name}' there?" if guess else
                        f"add it under 'kinds' in {display(layouts.file)} (or 'print: false')")
                diags.append(warning("HK406", f"physical kind '{kind.name}' has no layout and is not printed",
                                     manifest, pos.line, pos.col, hint))
            continue
        if not design.print:
            continue
        for item in loaded.data.get(kind.name, []):
            item_id = str(item.get("id"))
            if only is not None and item_id not in only:
                continue
            src = loaded.sources.get(item_id)
            target = Target(f"{kind.name} '{item_id}'", src.file if src else manifest,
                            src.line if src else 1, src.col if src else 1,
                            {jinja_name(k): at for k, at in src.fields.items()} if src else {})
            ctx = {**base, **context_of(item), "item": item, "kind": kind.name}
            faces.append(Face(form_key(kind.name, item_id), kind.name, item_id, ctx,
                              int(item.get("quantity", 1)), design, target))
    for name, design in layouts.extras.items():
        if only is not None and name not in only:
            continue
        where = design.where
        target = Target(f"extra '{name}'", where.file if where else display(layouts.file), where.line if where else 1)
        ctx = {**base, **context_of(design.fields), "fields": design.fields, "kind": name}
        faces.append(Face(form_key(name, name), name, name, ctx, design.quantity, design, target))
    return faces, diags
