"""`hordekit import csv`: a spreadsheet export becomes a component file.

Most designers keep card lists in a spreadsheet. Each row becomes one item, each column one
field. The kind's JSON Schema (when the game has one) says what type each field is and is then
checked on the result exactly as `hordekit validate` would, with every problem placed at its
cell in the CSV (``file:line:col``), so the designer fixes the sheet, not the YAML.
"""

from __future__ import annotations

import csv
import io
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from toolkit.diagnostics import Diagnostic, error
from toolkit.paths import display
from toolkit.yamlload import LoadedYaml, Pos

MAX_BYTES = 20 * 1024 * 1024
_INT = re.compile(r"^[-+]?\d{1,18}$")
_FLOAT = re.compile(r"^[-+]?(\d+\.\d*|\.\d+|\d+)([eE][-+]?\d+)?$")


@dataclass
class ImportResult:
    output: Path | None = None
    items: int = 0
    types_from: str = "types inferred from the cells"
    diagnostics: list[Diagnostic] = field(default_factory=list)
    problem: str = ""  # a usage problem (no such kind, no output named)


@dataclass
class _Cell:
    """Where one cell stands: its line, its character column, and its column's name."""

    line: int
    col: int
    header: str


def import_csv(path: Path, kind: str, game_dir: Path | None, output: Path | None) -> ImportResult:
    """Convert ``path`` into a component file of ``kind``; write it only when every row fits."""
    result = ImportResult()
    schema_path, target, ids = _game_side(game_dir, kind, result)
    if result.problem:
        return result
    output = output or target
    if output is None:
        result.problem = "say where to write the items with -o FILE (no game here keeps this kind in one file)"
        return result
    if output.is_dir():
        result.problem = f"-o {output} is a folder; give the component file's name"
        return result
    name = display(path)
    text, reading = _read(path, name)
    if reading:
        result.diagnostics = [reading]
        return result
    fields = _item_fields(schema_path) if schema_path else {}
    if schema_path:
        result.types_from = f"types from {display(schema_path)}"
    items, where, diags = _rows(text, name, fields)
    if schema_path is not None and items:
        from toolkit.schemaval import SchemaChecker, SchemaStore

        known = dict(ids)
        known[kind] = {str(i.get("id")) for i in items if "id" in i}
        store = SchemaStore([schema_path.parent, *_roots(game_dir)])
        checked = SchemaChecker(store, schema_path, known).check(_located({"kind": kind, "items": items}, where), name)
        rows_with_bad_cells = {d.line for d in diags}  # a cell that did not convert is missing, not wrong
        diags += [d for d in checked if d.line not in rows_with_bad_cells]
    result.diagnostics = sorted(diags, key=lambda d: d.sort_key())
    if result.diagnostics:
        return result
    _write(output, kind, items, schema_path)
    result.output, result.items = output, len(items)
    return result


def _game_side(game_dir: Path | None, kind: str, result: ImportResult) -> tuple[Path | None, Path | None, dict[str, set[str]]]:
    """The kind's schema, its file in the manifest, and the ids of the game's other components."""
    if game_dir is None:
        return None, None, {}
    from toolkit.games import load_game

    loaded = load_game(game_dir)
    game = loaded.game
    if game is None:
        result.problem = f"{display(game_dir / 'game.yaml')} cannot be read; run hordekit validate"
        return None, None, {}
    if kind not in game.kinds:
        from toolkit.diagnostics import did_you_mean

        hint = did_you_mean(kind, game.kinds)
        result.problem = (f"game {game.id} has no component kind '{kind}' (it has: {', '.join(game.kinds)})"
                          + (f"; {hint}" if hint else ""))
        return None, None, {}
    spec = game.kinds[kind]
    ids = {k: {str(i["id"]) for i in items if isinstance(i, dict) and "id" in i} for k, items in loaded.data.items()}
    target = spec.files[0] if len(spec.files) == 1 and spec.files[0].suffix == ".yaml" else None
    return (spec.schema if spec.schema.is_file() else None), target, ids


def _roots(game_dir: Path | None) -> list[Path]:
    from toolkit.paths import data_dir

    return [data_dir("schemas")] + ([game_dir.resolve()] if game_dir is not None else [])


def _read(path: Path, name: str) -> tuple[str, Diagnostic | None]:
    size = path.stat().st_size
    if size > MAX_BYTES:
        return "", error("HK501", f"file is {size // 1024 // 1024} MiB; a CSV import takes at most {MAX_BYTES // 1024 // 1024} MiB", name)
    raw = path.read_bytes()
    for encoding in ("utf-8-sig", "cp1252"):  # spreadsheets export UTF-8 with a BOM, or Windows-1252
        try:
            return raw.decode(encoding), None
        except UnicodeDecodeError:
            continue
    return "", error("HK501", "not a text file (neither UTF-8 nor Windows-1252)", name)


def _item_fields(schema_path: Path) -> dict[str, dict[str, Any]]:
    """The item properties of a component file's schema (following one local $ref)."""
    import json

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    item = schema.get("properties", {}).get("items", {}).get("items", {})
    ref = item.get("$ref", "") if isinstance(item, dict) else ""
    if ref.startswith("#/"):
        node: Any = schema
        for part in ref[2:].split("/"):
            node = node.get(part, {}) if isinstance(node, dict) else {}
        item = node
    return item.get("properties", {}) if isinstance(item, dict) else {}


def _key(name: str) -> str:
    return re.sub(r"[\s_-]+", "-", name.strip().lower())


def _rows(text: str, name: str, fields: dict[str, dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[tuple, _Cell], list[Diagnostic]]:
    """Items from the CSV rows, where each value came from, and the cells that do not convert."""
    try:
        sniffed: Any = csv.Sniffer().sniff(text[:4096], delimiters=",;\t")
    except csv.Error:
        sniffed = csv.excel

    class dialect(sniffed):  # type: ignore[valid-type,misc]
        strict = True  # a quote never closed is an error, not the rest of the file in one cell

    reader = csv.reader(io.StringIO(text, newline=""), dialect)
    diags: list[Diagnostic] = []
    try:
        header = next(reader)
    except (StopIteration, csv.Error):
        return [], {}, [error("HK502", "the file has no header row (the first row names the fields)", name)]
    by_key = {_key(f): f for f in fields}
    columns: list[str | None] = []  # None: a column already reported at the header, left out
    for i, title in enumerate(header):
        col = _char_col(header, i, dialect)
        parts = [_key(p) for p in title.split(".")]
        top = parts[0] = by_key.get(parts[0], parts[0])
        if not title.strip():
            diags.append(error("HK503", f"column {i + 1} has no name", name, 1, col, "name it after a field, or delete it"))
        elif fields and top not in fields:
            from toolkit.diagnostics import did_you_mean

            diags.append(error("HK503", f"column '{title}' is not a field of this kind", name, 1, col,
                               did_you_mean(_key(title), list(by_key)) or f"fields: {', '.join(fields)}"))
        else:
            columns.append(".".join(parts))
            continue
        columns.append(None)
    items: list[dict[str, Any]] = []
    where: dict[tuple, _Cell] = {}
    line = reader.line_num + 1
    try:
        for row in reader:
            if any(cell.strip() for cell in row):
                item = _item(row, columns, header, fields, line, dialect, name, len(items), where, diags)
                items.append(item)
            line = reader.line_num + 1
    except csv.Error as exc:
        diags.append(error("HK502", f"unreadable CSV: {exc}", name, line, 1, "a quote that is never closed?"))
    if not items and not diags:
        diags.append(error("HK502", "no rows after the header: nothing to import", name, 2, 1))
    return items, where, diags


def _item(row: list[str], columns: list[str | None], header: list[str], fields: dict[str, dict[str, Any]], line: int,
          dialect: Any, name: str, index: int, where: dict[tuple, _Cell], diags: list[Diagnostic]) -> dict[str, Any]:
    item: dict[str, Any] = {}
    where[("items", index)] = _Cell(line, 1, "")
    if len(row) > len(columns):
        diags.append(error("HK504", f"row has {len(row)} cells but the header names {len(columns)} columns", name,
                           line, _char_col(row, len(columns), dialect), "a stray separator, or a missing column name"))
    for i, (column, cell) in enumerate(zip(columns, row)):
        if column is None or not cell.strip():
            continue
        parts = column.split(".")
        cell_at = _Cell(line, _char_col(row, i, dialect), header[i])
        schema = _field_schema(fields, parts)
        value, problem = convert(cell, schema)
        if problem:
            diags.append(error("HK505", f"column '{header[i]}': {problem}", name, cell_at.line, cell_at.col))
            continue
        target = item
        for part in parts[:-1]:
            target = target.setdefault(part, {})
        target[parts[-1]] = value
        for depth in range(1, len(parts) + 1):
            where.setdefault(("items", index, *parts[:depth]), cell_at)
    return item


def _field_schema(fields: dict[str, dict[str, Any]], parts: list[str]) -> dict[str, Any]:
    """The schema of a (nested) field, through inline ``properties``; {} when it is not known."""
    schema: Any = {"properties": fields}
    for part in parts:
        schema = schema.get("properties", {}).get(part, {}) if isinstance(schema, dict) else {}
    return schema if isinstance(schema, dict) else {}


def convert(cell: str, schema: dict[str, Any]) -> tuple[Any, str]:
    """A cell's value: of the schema's type when it says one, else the type the text looks like."""
    text = cell.strip()
    wanted = schema.get("type")
    if "enum" in schema and text in [str(v) for v in schema["enum"]]:
        return next(v for v in schema["enum"] if str(v) == text), ""
    if wanted in ("array", "object"):
        return _yaml_cell(text, wanted)
    if wanted == "integer":
        return (int(text), "") if _INT.match(text) else (None, f"'{text}' is not a whole number")
    if wanted == "number":
        return (float(text) if "." in text or "e" in text.lower() else int(text), "") if _FLOAT.match(text) else (None, f"'{text}' is not a number")
    if wanted == "boolean":
        low = text.lower()
        if low in ("true", "yes", "1", "x"):
            return True, ""
        if low in ("false", "no", "0"):
            return False, ""
        return None, f"'{text}' is not true or false"
    if wanted == "string":
        return cell.strip(), ""
    if _INT.match(text):
        return int(text), ""
    if _FLOAT.match(text):
        return float(text), ""
    if text.lower() in ("true", "false"):
        return text.lower() == "true", ""
    if text[:1] in "[{":
        return _yaml_cell(text, None)
    return cell.strip(), ""


def _yaml_cell(text: str, wanted: str | None) -> tuple[Any, str]:
    """A list or mapping written in a cell in YAML's short form: ``[a, b]`` or ``{kind: draw}``."""
    from toolkit.yamlload import load_bytes

    doc = load_bytes(text.encode("utf-8"))
    if doc.problems:
        return None, f"'{text}' is not a YAML list or mapping ({doc.problems[0].message})"
    value = doc.data
    if wanted == "array" and not isinstance(value, list):
        value = [value] if value is not None else []
    if wanted == "object" and not isinstance(value, dict):
        return None, f"'{text}' is not a mapping such as {{key: value}}"
    return value, ""


def _char_col(row: list[str], index: int, dialect: Any) -> int:
    """1-based character column of cell ``index``: the length of the row written up to it."""
    if index == 0:
        return 1
    buf = io.StringIO()
    csv.writer(buf, dialect, lineterminator="").writerow(row[:index])
    return len(buf.getvalue()) + 2


def _located(data: dict[str, Any], where: dict[tuple, _Cell]) -> LoadedYaml:
    """The imported document with each value placed at its CSV cell, for schema diagnostics."""
    values = {path: Pos(cell.line, cell.col) for path, cell in where.items()}
    values[()] = Pos(1, 1)
    return LoadedYaml(data=data, values=values, keys=dict(values))


def _write(output: Path, kind: str, items: list[dict[str, Any]], schema_path: Path | None) -> None:
    """The component file, with the editor's schema line when the schema is known."""
    import os

    from ruamel.yaml import YAML

    from toolkit.atomic import write_text

    yaml = YAML(typ="rt")
    yaml.width = 100
    yaml.indent(mapping=2, sequence=4, offset=2)
    buf = io.StringIO()
    yaml.dump({"kind": kind, "items": items}, buf)
    head = ""
    if schema_path is not None:
        rel = os.path.relpath(schema_path.resolve(), output.resolve().parent)
        head = f"# yaml-language-server: $schema={rel}\n"
    write_text(output, f"{head}# Imported from a spreadsheet with `hordekit import csv`.\n{buf.getvalue()}")
