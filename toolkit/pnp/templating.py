"""Jinja2 text for cards and counters: sandboxed, strict, bounded, and located on error.

Two kinds of template meet here: the effect templates of ``templates/<game>/text.yaml`` (effect
kind -> sentence, owned by the content authors) and the field templates of ``layouts.yaml``
(what goes in each box). Both run in one ``SandboxedEnvironment`` with ``StrictUndefined``; the
sandbox stops attribute escapes but not CPU or memory, so powers, repetition and ranges are
bounded here too. Every template knows the file and line it came from, so an error reads
``templates/kingdoms/text.yaml:42`` rather than a traceback.
"""

from __future__ import annotations

import re
import traceback
from dataclasses import dataclass
from typing import Any, Callable

from jinja2 import StrictUndefined, TemplateError
from jinja2.exceptions import SecurityError
from jinja2.sandbox import SandboxedEnvironment

MAX_EXPONENT = 64
MAX_REPEAT = 2_000
MAX_RANGE = 1_000
MAX_OUTPUT = 20_000
_TEMPLATE_FILE = "<hordekit-template>"
_BIG_FORMAT = re.compile(r"%[-+ #0]*\d{4,}")


class BoundedSandbox(SandboxedEnvironment):
    """The Jinja2 sandbox plus limits on what a template may compute."""

    intercepted_binops = frozenset({"**", "*", "%"})

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        if operator == "**":
            if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"exponent {right} is larger than {MAX_EXPONENT}")
        elif operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and n * max(len(seq), 1) > MAX_REPEAT:
                    raise SecurityError(f"repeating a sequence {n} times is more than a card can hold")
        elif operator == "%" and isinstance(left, str) and _BIG_FORMAT.search(left):
            raise SecurityError("format width too large")
        return super().call_binop(context, operator, left, right)


def _bounded_range(*args: int) -> range:
    r = range(*args)
    if len(r) > MAX_RANGE:
        raise SecurityError(f"range of {len(r)} items is more than {MAX_RANGE}")
    return r


@dataclass(frozen=True)
class Where:
    """Where a template is written: file, line of its first line, and whether it is a block scalar."""

    file: str
    line: int

    def at(self, template_line: int | None) -> int:
        return self.line + max((template_line or 1) - 1, 0)


class TemplateProblem(Exception):
    """A template failed; carries its location and the component it was rendering."""

    def __init__(self, message: str, file: str, line: int) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line


def jinja_name(key: str) -> str:
    """Jinja names cannot hold '-': ``max-per-round`` is seen as ``max_per_round``."""
    return key.replace("-", "_")


def context_of(data: dict[str, Any]) -> dict[str, Any]:
    return {jinja_name(str(k)): v for k, v in data.items()}


class Templates:
    """Compiled templates of one game, with their locations, and the helpers they may call."""

    def __init__(self, effect_templates: dict[str, tuple[str, Where]], lookup: dict[str, dict[str, Any]]) -> None:
        self.env = BoundedSandbox(undefined=StrictUndefined, autoescape=False, keep_trailing_newline=False)
        self.env.globals.update(range=_bounded_range, effect_text=self.effect_text, ref=self._ref)
        self.env.filters.update(dice=dice_tokens, signed=signed, resources=resource_tokens)
        self._lookup = lookup
        self._compiled: dict[tuple[str, Where], Any] = {}
        self.effects = effect_templates
        self.unknown_effects: set[str] = set()

    def _ref(self, item_id: str) -> dict[str, Any]:
        """Another component of the game by id, e.g. ``ref(resource).colour``."""
        item = self._lookup.get(str(item_id))
        if item is None:
            raise TemplateError(f"no component with id '{item_id}'")
        return item

    def compile(self, source: str, where: Where) -> Any:
        key = (source, where)
        tpl = self._compiled.get(key)
        if tpl is None:
            try:
                tpl = self.env.from_string(source)
            except TemplateError as exc:
                line = getattr(exc, "lineno", None)
                raise TemplateProblem(f"template error: {exc}", where.file, where.at(line)) from None
            self._compiled[key] = tpl
        return tpl

    def render(self, source: str, where: Where, context: dict[str, Any]) -> str:
        """Render ``source``; any failure becomes a TemplateProblem at the template's file:line."""
        if "{" not in source:
            return source
        tpl = self.compile(source, where)
        try:
            out = tpl.render(context)
        except TemplateProblem:
            raise
        except (TemplateError, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
                AttributeError, OverflowError, RecursionError, MemoryError) as exc:
            line = _template_line(exc)
            raise TemplateProblem(f"template error: {exc}", where.file, where.at(line)) from None
        if len(out) > MAX_OUTPUT:
            raise TemplateProblem(f"template produced {len(out)} characters (more than {MAX_OUTPUT})",
                                  where.file, where.line)
        return out

    def effect_text(self, effects: Any) -> str:
        """The printed sentences of a list of effects, from the game's text.yaml."""
        if isinstance(effects, dict):
            effects = [effects]
        parts = []
        for effect in effects or []:
            if not isinstance(effect, dict):
                continue
            kind = str(effect.get("kind", ""))
            entry = self.effects.get(kind)
            if entry is None:
                self.unknown_effects.add(kind)
                parts.append(f"[{kind}]")
                continue
            source, where = entry
            parts.append(" ".join(self.render(str(source), where, context_of(effect)).split()))
        return " ".join(parts)


def _template_line(exc: BaseException) -> int | None:
    lineno = getattr(exc, "lineno", None)
    if lineno:
        return int(lineno)
    found = None
    for frame in traceback.extract_tb(exc.__traceback__):
        if frame.filename in ("<template>", _TEMPLATE_FILE):
            found = frame.lineno
    return found


# --- filters a layout may use -----------------------------------------------------------------

def dice_tokens(cost: Any) -> str:
    """A dice cost such as ``XX5`` as icon tokens: X is any face, a digit is that exact face."""
    out = []
    for ch in str(cost):
        if ch in "xX":
            out.append(":any-die:")
        elif ch in "123456":
            out.append(f":die-{ch}:")
    return "".join(out)


def signed(value: Any) -> str:
    """+2, 0, -1: modifiers read better with their sign."""
    try:
        n = int(value)
    except (TypeError, ValueError):
        return str(value)
    return f"+{n}" if n > 0 else str(n)


def resource_tokens(amounts: Any, sep: str = " ") -> str:
    """``{food: 2, wood: 3}`` as ``2:food: 3:wood:``."""
    if not isinstance(amounts, dict):
        return ""
    return sep.join(f"{n}:{name}:" for name, n in amounts.items())


Renderer = Callable[[str, Where, dict[str, Any]], str]
