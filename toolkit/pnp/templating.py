"""Jinja2 text for cards and counters: sandboxed, strict, bounded, and located on error.

Two kinds of template meet here: the effect templates of ``templates/<game>/text.yaml`` (effect
kind -> sentence, owned by the content authors) and the field templates of ``layouts.yaml``
(what goes in each box). Both run in one immutable sandbox with ``StrictUndefined``; the
sandbox stops attribute escapes but not CPU or memory, so a render is bounded here as a whole:
every loop step, call, lookup, operator and filter is charged to one budget per render, every
value a step builds is capped before it is built, and all text written (block buffers included)
is counted. Limits checked one operation at a time can be combined around; a total cannot. Every template knows the file and line it came from, so an error reads
``templates/kingdoms/text.yaml:42`` rather than a traceback.
"""

from __future__ import annotations

import functools
import re
import traceback
import types
from dataclasses import dataclass, field
from typing import Any, Callable, Iterable, Iterator

from jinja2 import StrictUndefined, TemplateError, meta, nodes
from jinja2.exceptions import SecurityError
from jinja2.sandbox import ImmutableSandboxedEnvironment

MAX_EXPONENT = 64
MAX_REPEAT = 2_000
MAX_RANGE = 1_000
MAX_OUTPUT = 20_000
#: Steps (loop iterations, calls, lookups, operators, filters) one render may take, nested
#: effect texts included. A card needs a few hundred; a runaway template stops in milliseconds.
MAX_WORK = 100_000
#: Longest text or list any single step may build.
MAX_VALUE = MAX_OUTPUT
#: Largest integer a step may build, in bits.
MAX_INT_BITS = 4_096
#: All text one render may write, block buffers and macro output included.
MAX_WRITTEN = 10 * MAX_OUTPUT
_TEMPLATE_FILE = "<hordekit-template>"
_BIG_FORMAT = re.compile(r"%[-+ #0]*\d{4,}|\{[^{}]*:[^{}]*\d{4,}[^{}]*\}")
#: Helpers a card has no use for. (``namespace`` stays: layouts sum points with it, and every
#: value assigned to it is capped like any other.)
_REMOVED_GLOBALS = ("lipsum", "cycler", "joiner")


def _size(value: Any) -> int:
    return len(value) if isinstance(value, (str, list, tuple, dict, set, frozenset)) else 0


def _too_big_int(value: Any) -> bool:
    return type(value) is int and value.bit_length() > MAX_INT_BITS


class BoundedSandbox(ImmutableSandboxedEnvironment):
    """The immutable Jinja2 sandbox plus one budget for all the work and memory of a render."""

    intercepted_binops = frozenset({"**", "*", "%", "+", "//"})

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        self.work = 0
        self.written = 0
        for name in _REMOVED_GLOBALS:
            self.globals.pop(name, None)
        self.globals.update(_hk_steps=self._steps, _hk_out=self._out, _hk_concat=self._concat)
        self.filters = {name: self._bounded_filter(name, f) for name, f in self.filters.items()}

    # -- the budget -----------------------------------------------------------------------------

    def start(self) -> None:
        """A new top-level render: a fresh budget."""
        self.work = 0
        self.written = 0

    def charge(self, steps: int = 1) -> None:
        self.work += steps
        if self.work > MAX_WORK:
            raise SecurityError(f"template takes more than {MAX_WORK:,} steps of work")

    def _steps(self, iterable: Any) -> Iterator[Any]:
        """What a ``{% for %}`` loops over: every iteration is charged."""
        for value in iterable:
            self.charge()
            yield value

    def _out(self, value: Any) -> Any:
        """Every ``{{ … }}`` written anywhere (output, ``{% set %}`` blocks, macros) is counted."""
        text = value if isinstance(value, str) else str(value)
        self.written += len(text)
        if self.written > MAX_WRITTEN:
            raise SecurityError(f"template writes more than {MAX_WRITTEN:,} characters")
        return value

    def _concat(self, *parts: Any) -> str:
        """The ``~`` operator, with its result capped before it is built."""
        texts = [p if isinstance(p, str) else str(p) for p in parts]
        self._check_value(sum(map(len, texts)))
        return "".join(texts)

    def _check_value(self, size: int) -> None:
        if size > MAX_VALUE:
            raise SecurityError(f"template builds a value of {size:,} items (more than {MAX_VALUE:,})")

    # -- where steps happen -------------------------------------------------------------------

    def _parse(self, source: str, name: str | None, filename: str | None) -> nodes.Template:
        """Route loops, ``~`` and output through the budget (rewriting the parsed template)."""
        tree = super()._parse(source, name, filename)
        for loop in tree.find_all(nodes.For):
            loop.iter = nodes.Call(nodes.Name("_hk_steps", "load"), [loop.iter], [], None, None,
                                   lineno=loop.lineno)
        for concat in list(tree.find_all(nodes.Concat)):
            call = nodes.Call(nodes.Name("_hk_concat", "load"), list(concat.nodes), [], None, None,
                              lineno=concat.lineno)
            _replace_node(tree, concat, call)
        for output in tree.find_all(nodes.Output):
            output.nodes = [n if isinstance(n, nodes.TemplateData) else
                            nodes.Call(nodes.Name("_hk_out", "load"), [n], [], None, None, lineno=n.lineno)
                            for n in output.nodes]
        return tree

    def call(__self, __context: Any, __obj: Any, *args: Any, **kwargs: Any) -> Any:  # noqa: N805
        __self.charge()
        if __obj not in (__self._out, __self._steps, __self._concat):
            _check_call(__obj, args, kwargs)
        result = super().call(__context, __obj, *args, **kwargs)
        __self._check_value(_size(result))
        return result

    def getattr(self, obj: Any, attribute: str) -> Any:
        self.charge()
        return super().getattr(obj, attribute)

    def getitem(self, obj: Any, argument: Any) -> Any:
        self.charge()
        return super().getitem(obj, argument)

    def call_binop(self, context: Any, operator: str, left: Any, right: Any) -> Any:
        self.charge()
        if operator == "**":
            if isinstance(right, (int, float)) and abs(right) > MAX_EXPONENT:
                raise SecurityError(f"exponent {right} is larger than {MAX_EXPONENT}")
            if type(left) is int and type(right) is int and right > 0 and left.bit_length() * right > MAX_INT_BITS:
                raise SecurityError(f"a power with more than {MAX_INT_BITS} bits is more than a card can hold")
        elif operator == "*":
            for seq, n in ((left, right), (right, left)):
                if isinstance(seq, (str, list, tuple)) and isinstance(n, int) and n * max(len(seq), 1) > MAX_REPEAT:
                    raise SecurityError(f"repeating a sequence {n} times is more than a card can hold")
            if type(left) is int and type(right) is int and left.bit_length() + right.bit_length() > MAX_INT_BITS:
                raise SecurityError(f"a product with more than {MAX_INT_BITS} bits is more than a card can hold")
        elif operator == "+":
            self._check_value(_size(left) + _size(right))
        elif operator == "%" and isinstance(left, str) and _BIG_FORMAT.search(left):
            raise SecurityError("format width too large")
        result = super().call_binop(context, operator, left, right)
        if _too_big_int(result):
            raise SecurityError(f"a number with more than {MAX_INT_BITS} bits is more than a card can hold")
        return result

    def _bounded_filter(self, name: str, func: Callable[..., Any]) -> Callable[..., Any]:
        """A filter charged like a step, refusing huge widths and huge results before building them."""

        @functools.wraps(func)
        def bounded(*args: Any, **kwargs: Any) -> Any:
            self.charge()
            for a in (*args, *kwargs.values()):
                if type(a) is int and a > MAX_VALUE:
                    raise SecurityError(f"filter {name}: argument {a} is too large for a card")
            if name == "replace":
                _check_replace(self, [a for a in args if isinstance(a, str)])
            if name == "format" and args and isinstance(args[0], str) and _BIG_FORMAT.search(args[0]):
                raise SecurityError("format width too large")
            result = func(*args, **kwargs)
            self._check_value(_size(result))
            return result

        return bounded


def _check_call(func: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> None:
    """Refuse a call whose result would be huge before making it: widths, counts, format specs."""
    for a in (*args, *kwargs.values()):
        if type(a) is int and a > MAX_VALUE:
            raise SecurityError(f"argument {a} is too large for a card")
    if getattr(func, "__name__", "") in ("format", "format_map"):
        owner = getattr(getattr(func, "__wrapped__", func), "__self__", None)
        if any(isinstance(t, str) and _BIG_FORMAT.search(t) for t in (owner, *args)):
            raise SecurityError("format width too large")


def _check_replace(env: BoundedSandbox, texts: list[str]) -> None:
    """``s|replace(old, new)``: the result's length, worked out before it is built."""
    if len(texts) >= 3:
        s, old, new = texts[-3:]
        count = s.count(old) if old else len(s) + 1
        env._check_value(len(s) + count * (len(new) - len(old)))


def _replace_node(tree: nodes.Node, old: nodes.Node, new: nodes.Node) -> None:
    """Put ``new`` where ``old`` stands in its parent (fields and lists of fields)."""
    for parent in tree.find_all(nodes.Node):
        for field in parent.fields:
            value = getattr(parent, field, None)
            if value is old:
                setattr(parent, field, new)
                return
            if isinstance(value, list):
                for i, item in enumerate(value):
                    if item is old:
                        value[i] = new
                        return


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
    col: int = 1  # of the template's first character when it is written inline
    # the value as written in the file (quotes, block indicator and all), with the line and column
    # it starts at: a word inside it (an icon's name) can be pointed at exactly
    source: tuple[int, int, str] | None = field(default=None, compare=False, repr=False)

    def find(self, pattern: re.Pattern[str]) -> tuple[int, int] | None:
        """The line and column of the first match of ``pattern`` in the value as written, if any."""
        if self.source is None:
            return None
        line, col, text = self.source
        m = pattern.search(text)
        if m is None:
            return None
        before = text[:m.start()]
        newlines = before.count("\n")
        if not newlines:
            return line, col + len(before)
        return line + newlines, len(before) - before.rfind("\n")

    def at(self, template_line: int | None) -> int:
        return self.line + max((template_line or 1) - 1, 0)

    def col_at(self, template_line: int | None) -> int:
        """The column to report: the template's own on its first line, else the line's start."""
        return self.col if (template_line or 1) <= 1 else 1


class TemplateProblem(Exception):
    """A template failed; carries its location and the component it was rendering."""

    def __init__(self, message: str, file: str, line: int, col: int = 1, guess: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.col = col
        self.guess = guess  # "did you mean `steps`?" for a misspelt name, else ''

    def hint(self, advice: str) -> str:
        return f"{self.guess} ({advice})" if self.guess else advice


_UNDEFINED = re.compile(r"^'([A-Za-z_][A-Za-z0-9_]*)' is undefined$")


def _guess_name(exc: BaseException, context: dict[str, Any]) -> str:
    """'did you mean `steps`?' when a template reads a name the piece does not have."""
    from toolkit.diagnostics import did_you_mean

    m = _UNDEFINED.match(str(exc)) if isinstance(exc, TemplateError) else None
    if not m:
        return ""
    names = [k for k in context if isinstance(k, str)]
    guess = did_you_mean(m.group(1), names)
    if "deck" in context and "item" not in context:  # a back shared by every piece of its deck
        return (f"a back shared by its deck sees only {', '.join(sorted(names))}"
                f"{' (' + guess + ')' if guess else ''}; to print each piece's own fields on its back, "
                "give the back `per-item: true`")
    if guess:
        return guess
    # nothing close (a field renamed in the content, not misspelt): say what there is to read
    item = context.get("item")
    if isinstance(item, dict):
        fields = [jinja_name(str(k)) for k in item]
        what = f"{context.get('kind', 'the piece')} '{item.get('id', '?')}' has the fields"
    else:
        fields, what = names, "the template sees"
    shown = ", ".join(fields[:20]) + (f" and {len(fields) - 20} more" if len(fields) > 20 else "")
    return f"{what}: {shown}" if fields else ""


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
        own = {"dice": dice_tokens, "signed": signed, "resources": resource_tokens}
        self.env.filters.update({name: self.env._bounded_filter(name, f) for name, f in own.items()})
        self._lookup = lookup
        self._compiled: dict[str, Any] = {}  # source -> compiled template, wherever it is written
        self.effects = effect_templates
        self.unknown_effects: set[str] = set()
        self._depth = 0
        self._names: dict[str, tuple[str, ...]] = {}  # template source -> names it reads
        self._undeclared: dict[str, frozenset[str]] = {}  # template source -> context names it reads
        self._rendered: dict[tuple[Any, ...], str] = {}

    def _ref(self, item_id: str) -> dict[str, Any]:
        """Another component of the game by id, e.g. ``ref(resource).colour``."""
        item = self._lookup.get(str(item_id))
        if item is None:
            from toolkit.diagnostics import did_you_mean

            guess = did_you_mean(str(item_id), self._lookup) if len(self._lookup) <= 20_000 else ""
            raise TemplateError(f"no component with id '{item_id}'" + (f" ({guess})" if guess else ""))
        return item

    def compile(self, source: str, where: Where) -> Any:
        """The compiled template (one per source, wherever it is written: the location only names
        errors), and the names it reads, for the render cache."""
        tpl = self._compiled.get(source)
        if tpl is None:
            if self._depth == 0:
                self.env.start()  # filters on constants run while compiling
            try:
                code = _template_code(self.env, source)
                self._names.setdefault(source, _read_names(code))
            except TemplateError as exc:
                line = getattr(exc, "lineno", None)
                raise TemplateProblem(f"template error: {exc}", where.file, where.at(line), where.col_at(line)) from None
            tpl = self._compiled[source] = self.env.template_class.from_code(self.env, code, self.env.make_globals(None))
        return tpl

    def render(self, source: str, where: Where, context: dict[str, Any]) -> str:
        """Render ``source``; any failure becomes a TemplateProblem at the template's file:line.

        A top-level render gets a fresh work budget; the effect texts it renders share it.
        """
        if "{" not in source:
            return source
        plain = _PLAIN_NAME.match(source)
        if plain and type(context.get(plain.group(1))) in (str, int):
            out = str(context[plain.group(1)])  # '{{ name }}': what Jinja would print, without Jinja
            if len(out) > MAX_OUTPUT:  # the same limit as a rendered template's (a 6 MB name took minutes)
                raise TemplateProblem(f"template produced {len(out)} characters (more than {MAX_OUTPUT})",
                                      where.file, where.line, where.col)
            return out
        tpl = self.compile(source, where)
        key = self._cache_key(source, where, context)
        if key is not None and key in self._rendered:
            return self._rendered[key]
        if self._depth == 0:
            self.env.start()
        self._depth += 1
        try:
            out = tpl.render(context)
        except TemplateProblem:
            raise
        except (TemplateError, ArithmeticError, TypeError, ValueError, KeyError, IndexError,
                AttributeError, OverflowError, RecursionError, MemoryError) as exc:
            line = _template_line(exc)
            raise TemplateProblem(f"template error: {exc}", where.file, where.at(line), where.col_at(line),
                                  _guess_name(exc, context)) from None
        finally:
            self._depth -= 1
        if len(out) > MAX_OUTPUT:
            raise TemplateProblem(f"template produced {len(out)} characters (more than {MAX_OUTPUT})",
                                  where.file, where.line, where.col)
        if key is not None:
            if len(self._rendered) >= _RENDER_CACHE:
                self._rendered.clear()
            self._rendered[key] = out
        return out

    def _cache_key(self, source: str, where: Where, context: dict[str, Any]) -> tuple[Any, ...] | None:
        """The values a template reads, as a key: cards that share them share the rendered text.

        Templates are pure functions of the names they read (the sandbox allows no side effects),
        so a cost box rendered for one card is the same for every card with that cost. Templates
        that read big values (every item of a kind) are not cached: building the key would cost
        more than rendering.
        """
        values = []
        for n in self._names[source]:  # learnt by compile
            if n not in context:
                values.append("<undefined>")  # an error, or a global such as effect_text
                continue
            v = context[n]
            if type(v) in _SCALARS:
                values.append((type(v), v))  # exact, and cheaper than repr
            elif _small(v):
                values.append(repr(v))
            else:
                return None
        return (source, where, *values)

    def names_read(self, source: str) -> frozenset[str]:
        """The context names ``source`` reads (``{{ cost }} gold`` reads ``cost``; a name it sets
        itself, a loop variable, is not one); none when it does not parse."""
        if "{" not in source:
            return frozenset()
        found = self._undeclared.get(source)
        if found is None:
            try:
                found = frozenset(meta.find_undeclared_variables(self.env.parse(source)))
            except TemplateError:
                found = frozenset()
            self._undeclared[source] = found
        return found

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


_RENDER_CACHE = 50_000
_PLAIN_NAME = re.compile(r"\{\{\s*([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$")
_SMALL = 64
_SCALARS = (str, int, float, bool, type(None))


def _small(value: Any, budget: int = _SMALL) -> bool:
    """Whether a value holds at most ``budget`` items, nested ones included (walks no further)."""
    todo = [value]
    while todo:
        v = todo.pop()
        if isinstance(v, dict):
            budget -= len(v)
            todo.extend(v.values())
        elif isinstance(v, (list, tuple)):
            budget -= len(v)
            todo.extend(v)
        if budget < 0:
            return False
    return True


def _read_names(code: Any) -> tuple[str, ...]:
    """The names a compiled template may read from its context, and a few more.

    Compiled Jinja code looks every context name up by that name, a string constant of the code
    (``resolve('cost')``); so the identifier-like constants of the code and of the functions
    inside it hold every name the template reads, plus attribute and filter names, which only
    make the cache key finer. Needs no parse, so it works on code from the bytecode cache."""
    names: set[str] = set()
    todo = [code]
    while todo:
        for const in todo.pop().co_consts:
            if isinstance(const, str) and const.isidentifier():
                names.add(const)
            elif isinstance(const, types.CodeType):  # (tuples hold keyword and import names, no reads)
                todo.append(const)
    return tuple(sorted(names))


def _template_code(env: BoundedSandbox, source: str) -> Any:
    """A template's compiled Python code, kept between runs in Jinja's bytecode cache.

    Compiling is most of the cost of a game's first card: Jinja parses, generates Python and
    Python compiles it, for every text template. The cache (Jinja's FileSystemBytecodeCache, in
    a private folder under the system's temporary folder) is keyed by the template's source and
    by this module's own source, which decides the code generated (the budget's rewriting), and
    by Jinja's version; Jinja adds Python's. Any trouble with the cache folder just means compiling.
    HORDEKIT_NO_CACHE=1 turns it off.
    """
    cache = _bytecode_cache()
    bucket = None
    if cache is not None:
        try:
            bucket = cache[0].get_bucket(env, cache[1] + source, None, source)
        except Exception:  # noqa: BLE001 - an unreadable or damaged cache file: compile again
            bucket = None
        if bucket is not None and bucket.code is not None:
            return bucket.code
    code = env.compile(source)
    if bucket is not None:
        bucket.code = code
        try:
            cache[0].set_bucket(bucket)
        except OSError:
            pass
    return code


@functools.cache
def _bytecode_cache() -> tuple[Any, str] | None:
    """Jinja's on-disk bytecode cache and the salt of this module's source, or None (off)."""
    import hashlib
    import os
    from pathlib import Path

    import jinja2

    if os.environ.get("HORDEKIT_NO_CACHE"):
        return None
    try:
        salt = hashlib.sha256(Path(__file__).read_bytes() + jinja2.__version__.encode()).hexdigest()[:16] + ":"
        return jinja2.FileSystemBytecodeCache(pattern="hordekit-%s.cache"), salt
    except (OSError, RuntimeError):  # RuntimeError: Jinja found the folder unsafe
        return None


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
