"""JSON Schema validation that reports every error at its exact line and column.

jsonschema gives each error as a path into the instance; ``LoadedYaml`` maps such paths back to
positions. Errors are reworded for designers (an unknown key points at the key itself, with a
"did you mean"), and ``oneOf`` over effects is resolved by the effect's ``kind`` so that a wrong
parameter is reported against the right effect instead of as "not valid under any schema".

Schemas are resolved through a ``referencing`` registry that reads files from disk only, below
the folders it is given: nothing is ever fetched over the network.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from functools import cached_property, lru_cache
from pathlib import Path
from typing import Any, Iterator

from toolkit.diagnostics import Diagnostic, did_you_mean, error
from toolkit.yamlload import LoadedYaml

#: ids of a game's components, by kind; the ``x-ref`` keyword checks references against it.
IdIndex = dict[str, set[str]]


#: Largest schema file read; schemas are a few kilobytes.
MAX_SCHEMA_BYTES = 2 * 1024 * 1024


class SchemaProblem(Exception):
    """A schema that cannot be used: unreadable, not JSON, not a valid schema, or refers elsewhere."""

    def __init__(self, message: str, file: str = "", line: int = 1, col: int = 1) -> None:
        super().__init__(message)
        self.message, self.file, self.line, self.col = message, file, line, col


class SchemaStore:
    """Loads schema files once into one offline registry that resolves ``$ref`` between them.

    Every schema below the roots is read once, up front, into a single ``referencing`` registry:
    validators built from it never read or resolve a file again. Nothing is fetched over the
    network and nothing outside the roots is read.
    """

    def __init__(self, roots: list[Path]) -> None:
        self.roots = [r.resolve() for r in roots]
        self._docs: dict[str, dict[str, Any]] = {}
        self._uris: dict[Path, str] = {}  # one resolve per schema path while this game is checked

    def uri(self, path: Path) -> str:
        uri = self._uris.get(path)
        if uri is None:
            uri = self._uris[path] = path.resolve().as_uri()
        return uri

    def load(self, path: Path) -> dict[str, Any]:
        """The schema at ``path`` with its file URI as ``$id`` (the base for relative refs)."""
        uri = self.uri(path)
        if uri not in self._docs:
            self._docs[uri] = self._read(path, uri)
        return self._docs[uri]

    @staticmethod
    def _read(path: Path, uri: str) -> dict[str, Any]:
        from toolkit.paths import display

        name = display(path)
        try:
            with open(path, "rb") as fh:
                raw = fh.read(MAX_SCHEMA_BYTES + 1)
        except OSError as exc:
            raise SchemaProblem(f"schema cannot be read: {exc.strerror or exc}", name) from None
        if len(raw) > MAX_SCHEMA_BYTES:
            raise SchemaProblem(f"schema is larger than {MAX_SCHEMA_BYTES:,} bytes", name)
        try:
            doc = json.loads(raw.decode("utf-8"))
        except UnicodeDecodeError:
            raise SchemaProblem("schema is not UTF-8 text", name) from None
        except json.JSONDecodeError as exc:
            raise SchemaProblem(f"schema is not valid JSON: {exc.msg}", name, exc.lineno, exc.colno) from None
        except RecursionError:
            raise SchemaProblem("schema is nested too deeply to read", name) from None
        if not isinstance(doc, dict):
            raise SchemaProblem("a schema file holds a JSON object", name)
        doc.setdefault("$id", uri)
        return doc

    def contents(self, uri: str) -> dict[str, Any]:
        """The schema a ``file://`` URI names, if it lies below the roots; LookupError otherwise.

        Plain data, so the fast validator resolves ``$ref`` without importing ``referencing``."""
        if not uri.startswith("file://"):
            raise LookupError(f"Resource '{uri}' is not present")
        path = Path(uri[len("file://"):].split("#", 1)[0])
        if self._uris.get(path) != path.as_uri():  # a path already resolved to itself needs no resolve
            path = path.resolve()
        if not any(path.is_relative_to(root) for root in self.roots) or not path.is_file():
            raise LookupError(f"Resource '{uri}' is not present")
        return self.load(path)

    def _retrieve(self, uri: str) -> Any:
        from referencing import Resource
        from referencing.exceptions import NoSuchResource

        try:
            return Resource.from_contents(self.contents(uri))
        except (LookupError, SchemaProblem):
            raise NoSuchResource(ref=uri) from None

    @cached_property
    def registry(self) -> Any:
        """Every readable schema below the roots, crawled once; anything else is looked up offline."""
        from referencing import Registry, Resource

        resources = []
        for root in self.roots:
            for path in sorted(root.rglob("*.schema.json")) if root.is_dir() else []:
                try:
                    doc = self.load(path)
                    resources.append((doc["$id"] if isinstance(doc.get("$id"), str) else self.uri(path),
                                      Resource.from_contents(doc)))
                except Exception:  # noqa: BLE001 - a broken schema is reported when a kind uses it
                    continue
        registry = Registry(retrieve=self._retrieve)  # type: ignore[call-arg]
        try:
            return registry.with_resources(resources).crawl()
        except Exception:  # a malformed schema among them: fall back to lookups one by one
            return registry


@lru_cache(maxsize=512)
def _pattern(pattern: str) -> Any:
    """A compiled matcher for a schema ``pattern``, from jsonschema-rs.

    Its regex engine runs in linear time (with a backtracking limit for look-arounds), so a
    catastrophic pattern in a game's own schema cannot hang validation the way ``re`` would.
    """
    import jsonschema_rs

    return jsonschema_rs.validator_for({"type": "string", "pattern": pattern})


def pattern_matches(pattern: str, text: str) -> bool:
    try:
        return bool(_pattern(pattern).is_valid(text))
    except Exception:  # noqa: BLE001 - a pattern the engine refuses matches nothing
        return False


def _bounded_keywords() -> dict[str, Any]:
    """jsonschema's pattern keywords, matched by jsonschema-rs instead of Python's ``re``."""
    from jsonschema import ValidationError
    from jsonschema._utils import extras_msg

    def pattern(validator: Any, patrn: str, instance: Any, schema: Any) -> Iterator[Any]:
        if validator.is_type(instance, "string") and not pattern_matches(patrn, instance):
            yield ValidationError(f"{_show(instance)} does not match {patrn!r}")

    def pattern_properties(validator: Any, patterns: dict[str, Any], instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        for patrn, subschema in patterns.items():
            for k, v in instance.items():
                if pattern_matches(patrn, k):
                    yield from validator.descend(v, subschema, path=k, schema_path=patrn)

    def additional_properties(validator: Any, aP: Any, instance: Any, schema: Any) -> Iterator[Any]:
        if not validator.is_type(instance, "object"):
            return
        known = schema.get("properties", {})
        patterns = list(schema.get("patternProperties", {}))
        extras = [k for k in instance if k not in known and not _matches_any(k, patterns)]
        if validator.is_type(aP, "object"):
            for extra in extras:
                yield from validator.descend(instance[extra], aP, path=extra)
        elif not aP and extras:
            yield ValidationError(f"Additional properties are not allowed ({extras_msg(sorted(extras, key=str))} unexpected)")

    return {"pattern": pattern, "patternProperties": pattern_properties, "additionalProperties": additional_properties}


@dataclass
class SchemaChecker:
    """Validates loaded YAML documents against one schema, producing diagnostics.

    References to kinds in ``unchecked`` (whose files did not load) are not reported as
    dangling: the missing ids are the other file's fault, counted in ``skipped_refs``.
    """

    store: SchemaStore
    schema_path: Path
    ids: IdIndex = field(default_factory=dict)
    unchecked: frozenset[str] = frozenset()
    skipped_refs: dict[str, int] = field(default_factory=dict)

    @cached_property
    def validator(self) -> Any:
        from jsonschema import Draft202012Validator, validators

        ids, unchecked, skipped = self.ids, self.unchecked, self.skipped_refs

        def x_ref(validator: Any, kind: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
            from jsonschema import ValidationError

            if isinstance(instance, str) and instance not in ids.get(kind, ()):
                if kind in unchecked:
                    skipped[kind] = skipped.get(kind, 0) + 1
                    return
                hint = did_you_mean(instance, sorted(ids.get(kind, ())))
                yield ValidationError(f"unknown {kind} '{instance}'" + (f"; {hint}" if hint else ""))

        cls = validators.extend(Draft202012Validator, {"x-ref": x_ref, **_bounded_keywords()})
        schema = self.store.load(self.schema_path)
        return cls(schema, registry=self.store.registry)

    @cached_property
    def fast_validator(self) -> Any:
        """jsonschema-rs compiled from the same schema: a quick yes/no before the detailed pass.

        Content is valid far more often than not, and the compiled validator answers in about
        1/100 of the time; only the items it rejects go through jsonschema for located diagnostics.
        """
        import jsonschema_rs

        ids = self.ids

        class XRef:
            def __init__(self, parent_schema: Any, value: str, schema_path: Any) -> None:
                self.known = ids.get(value, set())

            def validate(self, instance: Any) -> None:
                if isinstance(instance, str) and instance not in self.known:
                    raise ValueError(f"unknown reference {instance!r}")

        def retrieve(uri: str) -> Any:
            try:
                return self.store.contents(uri)
            except SchemaProblem:  # unreadable: unresolvable, as for referencing
                raise LookupError(f"Resource '{uri}' is not present") from None

        return jsonschema_rs.validator_for(
            self.store.load(self.schema_path), retriever=retrieve, keywords={"x-ref": XRef},
            base_uri=self.store.uri(self.schema_path))

    @cached_property
    def problem(self) -> SchemaProblem | None:
        """Why this schema cannot be used, or None: checked once, before any content."""
        import jsonschema_rs

        from toolkit.paths import display

        name = display(self.schema_path)
        try:
            schema = self.store.load(self.schema_path)
        except SchemaProblem as exc:
            return exc
        try:  # checked against the meta-schema by jsonschema-rs: no jsonschema import when clean
            jsonschema_rs.meta.validate(schema)
        except jsonschema_rs.ValidationError as exc:
            where = _path_text(tuple(exc.instance_path))
            return SchemaProblem(f"not a valid JSON Schema: {_first_line(exc.message)}{_in(where)}", name)
        except Exception as exc:  # noqa: BLE001 - e.g. a $schema it does not know
            return SchemaProblem(f"not a valid JSON Schema: {_first_line(str(exc))}", name)
        try:
            self.fast_validator  # compiles every pattern and resolves every $ref
        except Exception as exc:  # noqa: BLE001 - jsonschema-rs: bad pattern, unresolvable $ref
            return SchemaProblem(_why_unusable(str(exc)), name)
        return None

    def check(self, doc: LoadedYaml, file: str) -> list[Diagnostic]:
        if self.problem is not None:
            return []  # reported once, against the schema, by the caller
        fast = self.fast_validator
        if fast.is_valid(doc.data):
            return []
        from referencing.exceptions import Unresolvable

        try:
            out = self._detailed(doc, file)
        except (Unresolvable, RecursionError) as exc:
            from toolkit.paths import display

            self.__dict__["problem"] = SchemaProblem(_why_unusable(str(exc)), display(self.schema_path))
            return []
        # A misspelled key also makes the real one "missing": report the spelling only.
        suggested = {(d.file, d.hint) for d in out if d.code == "HK104"}
        # A value of the wrong type (HK102: .inf where a whole number belongs) is not also "out of
        # range" or "not one of" at the same place: one mistake, one error.
        mistyped = {(d.file, d.line, d.col) for d in out if d.code == "HK102"}
        return [d for d in out if not (
            d.code == "HK103" and (d.file, f"did you mean `{d.message.split(chr(39))[1]}`?") in suggested) and not (
            d.code in ("HK105", "HK107", "HK108") and (d.file, d.line, d.col) in mistyped)]

    def _detailed(self, doc: LoadedYaml, file: str) -> list[Diagnostic]:
        """jsonschema's located errors, walking only the items the fast validator rejected.

        Big content is mostly valid: re-walking every item (and resolving its ``$ref``s) to
        find a few bad ones costs far more than the fast pass, so when every rejection lies
        inside ``items[i]``, only those items are validated again, against the items' schema.
        """
        data = doc.data
        item_schema = _items_schema(self.validator.schema)
        bad: set[int] = set()
        if item_schema is not None and isinstance(data, dict) and isinstance(data.get("items"), list):
            for err in self.fast_validator.iter_errors(data):
                path = err.instance_path
                if len(path) >= 2 and path[0] == "items" and isinstance(path[1], int):
                    bad.add(path[1])
                else:
                    bad = set()
                    break
        out: list[Diagnostic] = []
        if bad:
            for i in sorted(bad):
                for err in self.validator.descend(data["items"][i], item_schema, path=None):
                    out.extend(self._explain(err, doc, file, ("items", i)))
            return out
        for err in self.validator.iter_errors(data):
            out.extend(self._explain(err, doc, file, ()))
        return out

    # -- turning jsonschema errors into designer-friendly diagnostics -----------------------

    def _explain(self, err: Any, doc: LoadedYaml, file: str, prefix: tuple[Any, ...]) -> list[Diagnostic]:
        path = prefix + tuple(err.absolute_path)
        kind = err.validator
        inst = err.instance
        where = _path_text(path)

        def at(code: str, message: str, p: tuple[Any, ...] = path, key: bool = False, hint: str = "") -> Diagnostic:
            pos = doc.pos(p, key=key)
            return error(code, message, file, pos.line, pos.col, hint)

        if kind == "additionalProperties" and isinstance(inst, dict):
            known = list(err.schema.get("properties", {}))
            patterns = list(err.schema.get("patternProperties", {}))
            extras = [k for k in inst if k not in known and not _matches_any(k, patterns)]
            return [
                at("HK104", f"unknown key '{k}'{_in(where)}", path + (k,), key=True,
                   hint=did_you_mean(k, known) or (f"allowed keys: {', '.join(known)}" if known else ""))
                for k in extras
            ]
        if kind == "required":
            missing = err.message.split("'")[1] if "'" in err.message else err.message
            return [at("HK103", f"missing required field '{missing}'{_in(where)}",
                       hint=_describe(err.schema.get("properties", {}).get(missing)))]
        if kind in ("oneOf", "anyOf") and err.context:
            chosen = _explain_by_kind(err) if isinstance(inst, dict) and "kind" in inst else None
            if chosen is not None:
                branch_errors, kinds = chosen
                if branch_errors:
                    return [d for e in branch_errors for d in self._explain(e, doc, file, prefix)]
                if kinds:
                    return [at("HK106", f"unknown effect kind {_show(inst['kind'])}{_in(where)}", path + ("kind",),
                               hint=did_you_mean(str(inst["kind"]), kinds) or
                               f"known kinds: {', '.join(kinds)}; a new kind needs a branch in the schema's "
                               "effect list, a handler in the rules and a sentence in text.yaml "
                               "(docs/content-format.md)")]
            from jsonschema.exceptions import best_match

            return self._explain(best_match(err.context), doc, file, prefix)
        if kind == "enum":
            options = [str(o) for o in err.validator_value]
            return [at("HK105", f"{_show(inst)} is not one of: {', '.join(options)}{_in(where)}",
                       hint=did_you_mean(str(inst), options))]
        if kind == "const" and path == ("kind",):
            return [at("HK203", f"file declares kind {_show(inst)} but the manifest lists it as "
                                f"{_show(err.validator_value)}", hint="one kind of component per file")]
        if kind == "const":
            return [at("HK105", f"{_show(inst)} should be {_show(err.validator_value)}{_in(where)}")]
        if kind == "type":
            wanted = err.validator_value
            wanted = " or ".join(wanted) if isinstance(wanted, list) else wanted
            got = "nothing" if inst is None else f"{_type_name(inst)} {_show(inst)}"
            return [at("HK102", f"expected {_article(wanted)}, got {got}{_in(where)}",
                       hint=_describe(err.schema))]
        if kind == "pattern":
            return [at("HK107", f"{_show(inst)} is not valid notation{_in(where)}", hint=_describe(err.schema))]
        if kind == "x-ref":
            msg, _, hint = err.message.partition("; ")
            return [at("HK202", msg + _in(where), hint=hint)]
        if kind in _LIMIT_WORDS:
            return [at("HK108", f"{_limit_message(kind, inst, err.validator_value, err.message)}{_in(where)}",
                       hint=_describe(err.schema))]
        return [at("HK100", f"{_shorten(err.message)}{_in(where)}")]


# How a value breaks a limit, in the designer's words. jsonschema's own messages quote the whole
# value: a 200,000-character name or a list of 10,000 entries would fill the terminal.
_LIMIT_WORDS = {
    "minimum": "is less than the minimum of", "maximum": "is greater than the maximum of",
    "exclusiveMinimum": "must be greater than", "exclusiveMaximum": "must be less than",
    "minLength": "characters; at least", "maxLength": "characters; at most",
    "minItems": "entries; at least", "maxItems": "entries; at most",
    "minProperties": "keys; at least", "uniqueItems": "", "propertyNames": "",
}


def _limit_message(kind: str, inst: Any, limit: Any, fallback: str) -> str:
    words = _LIMIT_WORDS[kind]
    if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum"):
        return f"{_shorten(repr(inst))} {words} {limit!r}"
    if kind in ("minLength", "maxLength") and isinstance(inst, str):
        if not inst:
            return f"the text is empty; at least {limit} character{'s' if limit != 1 else ''}"
        return f"{_show(inst)} has {len(inst):,} {words} {limit}"
    if kind in ("minItems", "maxItems", "minProperties") and isinstance(inst, (list, dict)):
        return f"{len(inst):,} {words} {limit}"
    if kind == "uniqueItems" and isinstance(inst, list):
        seen: list[Any] = []
        for value in inst:
            if value in seen:
                return f"{_show(value)} is listed more than once"
            seen.append(value)
    return _shorten(fallback)


def _shorten(text: str, most: int = 200) -> str:
    """A message cut to `most` characters, saying how long it was."""
    return text if len(text) <= most else f"{text[:most - 40]}... ({len(text):,} characters in all)"


def _in(where: str) -> str:
    return f" (at {where})" if where else ""


def _path_text(path: tuple[Any, ...]) -> str:
    text = ""
    for part in path:
        text += f"[{part}]" if isinstance(part, int) else (f".{part}" if text else str(part))
    return text


def _show(value: Any) -> str:
    if value is None:
        return "(empty)"
    text = json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else f"'{value}'"
    return text if len(text) <= 60 else text[:57] + "..."


def _type_name(value: Any) -> str:
    return {dict: "mapping", list: "list", str: "text", bool: "true/false", int: "integer",
            float: "number", type(None): "nothing"}.get(type(value), type(value).__name__)


def _article(word: str) -> str:
    names = {"object": "a mapping", "array": "a list", "string": "text", "integer": "an integer",
             "number": "a number", "boolean": "true or false", "null": "nothing"}
    return names.get(word, word)


def _describe(schema: Any) -> str:
    return schema.get("description", "") if isinstance(schema, dict) else ""


def _matches_any(key: str, patterns: list[str]) -> bool:
    return any(pattern_matches(p, key) for p in patterns)


def _why_unusable(text: str) -> str:
    """jsonschema-rs's and referencing's complaint, in a designer's words where we know it."""
    import re

    missing = re.search(r"Resource '([^']+)' is not present", text)
    if missing:
        return (f"schema refers to '{missing.group(1)}', which is not a schema file in the game's "
                "schemas folder (nothing is fetched from the network)")
    return f"schema cannot be used: {_first_line(text)}"


def _first_line(text: str) -> str:
    return text.strip().split("\n", 1)[0]


def _items_schema(schema: Any) -> Any:
    """The schema of one entry of a content file's ``items`` list, when the schema says so."""
    if not isinstance(schema, dict):
        return None
    items = schema.get("properties", {}).get("items") if isinstance(schema.get("properties"), dict) else None
    sub = items.get("items") if isinstance(items, dict) else None
    return sub if isinstance(sub, (dict, bool)) else None


def _explain_by_kind(err: Any) -> tuple[list[Any], list[str]] | None:
    """For a ``oneOf`` over effects: the errors of the branch whose ``kind`` matches.

    Each branch pins ``kind`` with a ``const``; a branch whose const failed is not the one the
    designer meant. Returns (errors of the matching branch, []) or ([], all known kinds) when no
    branch has that kind; None when the branches are not told apart by ``kind``.
    """
    by_branch: dict[int, list[Any]] = {}
    consts: dict[int, str] = {}
    for e in err.context:
        idx = e.relative_schema_path[0]
        by_branch.setdefault(idx, []).append(e)
        if e.validator == "const" and list(e.relative_path) == ["kind"]:
            consts[idx] = e.validator_value
    if not consts:
        return None
    matching = [i for i in by_branch if i not in consts]
    if len(matching) == 1:
        return by_branch[matching[0]], []
    if not matching:
        return [], sorted(set(consts.values()))
    return None


