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
from functools import cached_property
from pathlib import Path
from typing import Any, Iterator

from toolkit.diagnostics import Diagnostic, did_you_mean, error
from toolkit.yamlload import LoadedYaml

#: ids of a game's components, by kind; the ``x-ref`` keyword checks references against it.
IdIndex = dict[str, set[str]]


class SchemaStore:
    """Loads schema files once and resolves relative ``$ref`` between them, offline."""

    def __init__(self, roots: list[Path]) -> None:
        self.roots = [r.resolve() for r in roots]
        self._docs: dict[str, dict[str, Any]] = {}

    def uri(self, path: Path) -> str:
        return path.resolve().as_uri()

    def load(self, path: Path) -> dict[str, Any]:
        """The schema at ``path`` with its file URI as ``$id`` (the base for relative refs)."""
        uri = self.uri(path)
        if uri not in self._docs:
            with open(path, encoding="utf-8") as fh:
                doc = json.load(fh)
            doc.setdefault("$id", uri)
            self._docs[uri] = doc
        return self._docs[uri]

    def _retrieve(self, uri: str) -> Any:
        from referencing import Resource
        from referencing.exceptions import NoSuchResource

        if not uri.startswith("file://"):
            raise NoSuchResource(ref=uri)
        path = Path(uri[len("file://"):]).resolve()
        if not any(path.is_relative_to(root) for root in self.roots) or not path.is_file():
            raise NoSuchResource(ref=uri)
        return Resource.from_contents(self.load(path))

    @cached_property
    def registry(self) -> Any:
        from referencing import Registry

        return Registry(retrieve=self._retrieve)  # type: ignore[call-arg]


@dataclass
class SchemaChecker:
    """Validates loaded YAML documents against one schema, producing diagnostics."""

    store: SchemaStore
    schema_path: Path
    ids: IdIndex = field(default_factory=dict)

    @cached_property
    def validator(self) -> Any:
        from jsonschema import Draft202012Validator, validators

        ids = self.ids

        def x_ref(validator: Any, kind: str, instance: Any, schema: dict[str, Any]) -> Iterator[Any]:
            from jsonschema import ValidationError

            if isinstance(instance, str) and instance not in ids.get(kind, ()):
                hint = did_you_mean(instance, sorted(ids.get(kind, ())))
                yield ValidationError(f"unknown {kind} '{instance}'" + (f"; {hint}" if hint else ""))

        cls = validators.extend(Draft202012Validator, {"x-ref": x_ref})
        schema = self.store.load(self.schema_path)
        return cls(schema, registry=self.store.registry)

    @cached_property
    def fast_validator(self) -> Any:
        """jsonschema-rs compiled from the same schema: a quick yes/no before the detailed pass.

        Content is valid far more often than not, and the compiled validator answers in about
        1/100 of the time; only files it rejects go through jsonschema for located diagnostics.
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
            return self.store._retrieve(uri).contents

        return jsonschema_rs.validator_for(
            self.store.load(self.schema_path), retriever=retrieve, keywords={"x-ref": XRef},
            base_uri=self.store.uri(self.schema_path))

    def check(self, doc: LoadedYaml, file: str) -> list[Diagnostic]:
        if self.fast_validator.is_valid(doc.data):
            return []
        out: list[Diagnostic] = []
        for err in self.validator.iter_errors(doc.data):
            out.extend(self._explain(err, doc, file, ()))
        # A misspelled key also makes the real one "missing": report the spelling only.
        suggested = {(d.file, d.hint) for d in out if d.code == "HK104"}
        return [d for d in out if not (
            d.code == "HK103" and (d.file, f"did you mean `{d.message.split(chr(39))[1]}`?") in suggested)]

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
                               hint=did_you_mean(str(inst["kind"]), kinds) or f"known kinds: {', '.join(kinds)}")]
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
        if kind in ("minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum", "minLength",
                    "maxLength", "minItems", "maxItems", "uniqueItems", "minProperties", "propertyNames"):
            return [at("HK108", f"{err.message}{_in(where)}", hint=_describe(err.schema))]
        return [at("HK100", f"{err.message}{_in(where)}")]


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
    import re

    return any(re.search(p, key) for p in patterns)


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


