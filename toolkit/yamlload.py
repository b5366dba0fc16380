"""Load YAML into plain Python data while keeping the line and column of every node.

Why not ``YAML(typ='rt')``: the round-trip loader keeps positions but is several times slower
than libyaml. Why not the C composer: it builds a Python node object per value, which costs
more than the parse itself. Instead we read libyaml's *event* stream and build dicts and lists
directly, recording positions in a side table keyed by the path of each value.

Safety: only the YAML core types are constructed (str, int, float, bool, null, list, dict);
any other tag is reported and left as its plain string, so nothing ever runs code. Aliases are
shared, not copied, and the *expanded* size of the document is counted while it is built, so an
alias bomb is refused before anything walks it.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field
from functools import cache
from typing import Any, Callable, NamedTuple

from toolkit.gcpause import collector_paused

Path = tuple[Any, ...]

#: Largest file we read at all; content files are small, so anything bigger is a mistake.
MAX_FILE_BYTES = 8 * 1024 * 1024
#: Largest number of values the document may expand to once aliases are followed.
MAX_EXPANDED_NODES = 2_000_000
#: Deepest nesting of lists and mappings. Content nests a handful of levels; a limit keeps the
#: cost of a value's path (which grows with its depth) from turning a tiny file into gigabytes.
MAX_DEPTH = 64
#: Longest integer, in digits. Python refuses to convert longer decimal text (4,300 digits).
MAX_INT_DIGITS = 1_000


class Pos(NamedTuple):
    """A 1-based line and column, as editors show them.

    A named tuple, not a dataclass: one is made for every value of every file, and a tuple is
    several times cheaper to create (10,000 components hold about 200,000 of them).
    """

    line: int
    col: int


@dataclass(slots=True)
class YamlProblem:
    """A problem found while reading a file, before any schema is involved."""

    code: str
    message: str
    pos: Pos
    hint: str = ""


@dataclass(slots=True)
class LoadedYaml:
    """Plain data plus where each value (and each mapping key) stands in the file."""

    data: Any
    values: dict[Path, Pos] = field(default_factory=dict)
    keys: dict[Path, Pos] = field(default_factory=dict)
    problems: list[YamlProblem] = field(default_factory=list)
    first_line: str = ""

    def pos(self, path: Path, *, key: bool = False) -> Pos:
        """Position of the value at ``path`` (or of its key), else of the nearest ancestor.

        Values reached through an alias have no position of their own; they report the alias.
        """
        table = self.keys if key else self.values
        p = tuple(path)
        if p in table:
            return table[p]
        while p:
            p = p[:-1]
            if p in self.values:
                return self.values[p]
        return Pos(1, 1)


_INT = re.compile(r"[-+]?[0-9]+$")
_OCT = re.compile(r"0o[0-7]+$")
_HEX = re.compile(r"0x[0-9a-fA-F]+$")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$")
_NULLS = frozenset(("", "~", "null", "Null", "NULL"))
_TRUE = frozenset(("true", "True", "TRUE"))
_FALSE = frozenset(("false", "False", "FALSE"))
_INF = frozenset((".inf", ".Inf", ".INF", "+.inf", "+.Inf", "+.INF"))
_NINF = frozenset(("-.inf", "-.Inf", "-.INF"))
_NAN = frozenset((".nan", ".NaN", ".NAN"))
_CORE = "tag:yaml.org,2002:"


def _plain_scalar(text: str) -> Any:
    """Resolve an untagged plain scalar by the YAML 1.2 core schema."""
    if text in _NULLS:
        return None
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    c = text[0]
    if c.isdigit() or c in "-+.":
        if _INT.match(text):
            if len(text) > MAX_INT_DIGITS:
                raise _NumberTooLong(text)
            return int(text)
        if _OCT.match(text):
            if len(text) > MAX_INT_DIGITS:
                raise _NumberTooLong(text)
            return int(text[2:], 8)
        if _HEX.match(text):
            if len(text) > MAX_INT_DIGITS:
                raise _NumberTooLong(text)
            return int(text[2:], 16)
        if _FLOAT.match(text) and text not in ("+", "-", "."):
            return float(text)
        if text in _INF:
            return math.inf
        if text in _NINF:
            return -math.inf
        if text in _NAN:
            return math.nan
    return text


class _NumberTooLong(ValueError):
    """An integer with more digits than any game needs (and than Python converts quickly)."""


@cache
def _event_classes() -> tuple[type, ...]:
    """The YAML parser's event classes, imported when the first file is parsed: a run whose
    files all come from the content cache (toolkit.yamlcache) never loads the parser (~12 ms)."""
    from ruamel.yaml.events import (
        AliasEvent,
        DocumentStartEvent,
        MappingEndEvent,
        MappingStartEvent,
        ScalarEvent,
        SequenceEndEvent,
        SequenceStartEvent,
        StreamEndEvent,
    )

    return (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent,
            SequenceStartEvent, StreamEndEvent)


def _event_source(raw: bytes) -> Callable[[], Any]:
    """A function returning the next event: libyaml's when installed, else ruamel's pure parser."""
    try:
        from ruamel.yaml.cyaml import CParser  # type: ignore[attr-defined]
    except ImportError:  # pragma: no cover - only without the libyaml extra
        from ruamel.yaml import YAML

        return iter(YAML(typ="safe", pure=True).parse(raw)).__next__
    return CParser(raw).get_event


_SKIP = object()  # key of a mapping entry whose value is read but not kept
_COMPLEX = object()  # a list or mapping used as a key is being read (and will be dropped)
_UNRESOLVED = object()  # a plain scalar's text not yet resolved to its value


def _mark(mark: Any) -> Pos:
    return Pos(mark.line + 1, mark.column + 1)


class _Frame:
    """An open list or mapping; ``kpath`` is the path of the mapping entry being read."""

    __slots__ = ("value", "path", "size", "key", "kpath", "is_map", "anchor")

    def __init__(self, value: Any, path: Path, is_map: bool, anchor: str | None) -> None:
        self.value = value
        self.path = path
        self.size = 1
        self.key: Any = None
        self.kpath: Path = path
        self.is_map = is_map
        self.anchor = anchor


class _Builder:
    """Turns the event stream into data in one loop with an explicit stack (no recursion)."""

    def __init__(self, out: LoadedYaml) -> None:
        self.out = out
        self.anchors: dict[str, tuple[Any, int]] = {}
        self.resolved: dict[str, Any] = {}  # plain scalar text -> its value (see ``plain``)

    def problem(self, code: str, message: str, mark: Any, hint: str = "") -> None:
        self.out.problems.append(YamlProblem(code, message, Pos(mark.line + 1, mark.column + 1), hint))

    def plain(self, text: str, mark: Any) -> Any:
        """``_plain_scalar``, remembered per text; an over-long number is reported and kept as its text."""
        value = self.resolved.get(text, _UNRESOLVED)
        if value is not _UNRESOLVED:
            return value
        try:
            value = self.resolved[text] = _plain_scalar(text)
        except _NumberTooLong:
            self.problem("HK016", f"a number of {len(text):,} digits is too long (at most {MAX_INT_DIGITS:,})",
                         mark, "no game needs a number this long; write it as text in quotes if it is an id")
            return text
        return value

    def tagged_scalar(self, ev: Any) -> Any:
        """A scalar with an explicit tag: only the core tags are honoured."""
        tag, text = ev.tag, ev.value
        if tag == "!":
            return text
        if tag.startswith(_CORE):
            name = tag[len(_CORE):]
            if name == "str":
                return text
            value = self.plain(text, ev.start_mark)
            ok = {
                "int": type(value) is int,
                "float": type(value) in (int, float),
                "bool": type(value) is bool,
                "null": value is None,
            }.get(name)
            if ok:
                return float(value) if name == "float" else value
            if ok is False:
                self.problem("HK006", f"value {text!r} does not fit its tag !!{name}", ev.start_mark)
                return text
        self.problem("HK005", f"tag {tag!r} is not allowed in content", ev.start_mark,
                     "content holds data only (text, numbers, lists, mappings); remove the tag")
        return text

    def check_container_tag(self, ev: Any, core: str) -> None:
        tag = ev.tag
        if tag is not None and tag != "!" and tag != _CORE + core:
            self.problem("HK005", f"tag {tag!r} is not allowed in content", ev.start_mark,
                         "content holds data only (text, numbers, lists, mappings); remove the tag")

    def build(self, get: Callable[[], Any]) -> Any:
        """One pass over the events; written for speed, since every value of every file goes through it.

        Scalars come first in the dispatch (nine events in ten on component files); the innermost
        open list or mapping is kept in ``top`` rather than looked up on the stack; a mapping
        remembers the path of the entry being read, so a key and its value share one tuple; and
        plain scalars are resolved once per distinct text (resolution depends on the text alone).
        """
        (AliasEvent, DocumentStartEvent, MappingEndEvent, MappingStartEvent, ScalarEvent, SequenceEndEvent,
         SequenceStartEvent, StreamEndEvent) = _event_classes()
        out = self.out
        values, keys = out.values, out.keys
        anchors = self.anchors
        stack: list[_Frame] = []
        top: _Frame | None = None
        root: Any = None
        documents = 0
        expanded = 0
        resolved = self.resolved
        make_pos = tuple.__new__  # Pos(line, col) without the NamedTuple's Python-level __new__
        while True:
            ev = get()
            cls = ev.__class__
            if cls is ScalarEvent or cls is AliasEvent or cls is MappingStartEvent or cls is SequenceStartEvent:
                mark = ev.start_mark
                if top is None:
                    path: Path = ()
                elif top.is_map:
                    if top.key is None:  # a mapping key
                        self._key(top, ev, cls is ScalarEvent, cls is AliasEvent, mark)
                        if top.key is _COMPLEX:
                            if len(stack) >= MAX_DEPTH:
                                raise _TooDeep(mark)
                            top = _Frame([] if cls is SequenceStartEvent else {}, top.path + ("<key>",),
                                         cls is MappingStartEvent, None)
                            stack.append(top)
                        continue
                    path = top.kpath
                else:
                    path = top.path + (len(top.value),)
                values[path] = make_pos(Pos, (mark.line + 1, mark.column + 1))
                if cls is ScalarEvent:
                    if ev.ctag is None and ev.implicit[0] and not ev.style:
                        text = ev.value
                        value = resolved.get(text, _UNRESOLVED)  # the common case without a call
                        if value is _UNRESOLVED:
                            value = self.plain(text, mark)
                    elif ev.ctag is None:
                        value = ev.value
                    else:
                        value = self.tagged_scalar(ev)
                    if ev.anchor is not None:
                        anchors[ev.anchor] = (value, 1)
                    size = 1
                elif cls is AliasEvent:
                    if ev.anchor in anchors:
                        value, size = anchors[ev.anchor]
                    else:
                        self.problem("HK008", f"alias *{ev.anchor} refers to no finished anchor", mark,
                                     "define '&name' before using '*name', and not inside itself")
                        value, size = None, 1
                else:
                    is_map = cls is MappingStartEvent
                    self.check_container_tag(ev, "map" if is_map else "seq")
                    if len(stack) >= MAX_DEPTH:
                        raise _TooDeep(mark)
                    top = _Frame({} if is_map else [], path, is_map, ev.anchor)
                    stack.append(top)
                    expanded += 1
                    continue
                expanded += size
                if expanded > MAX_EXPANDED_NODES:
                    raise _TooBig(mark)
                if top is None:
                    root = value
                else:
                    _attach(top, value, size)
            elif cls is MappingEndEvent or cls is SequenceEndEvent:
                frame = stack.pop()
                if frame.anchor is not None:
                    anchors[frame.anchor] = (frame.value, frame.size)
                if stack:
                    top = stack[-1]
                    _attach(top, frame.value, frame.size)
                else:
                    top = None
                    root = frame.value
            elif cls is DocumentStartEvent:
                documents += 1
                if documents == 2:
                    self.problem("HK007", "a content file holds one YAML document; found a second",
                                 ev.start_mark, "remove the '---' line and what follows, or move it to its own file")
                    return root
            elif cls is StreamEndEvent:
                return root

    def _key(self, top: _Frame, ev: Any, scalar: bool, alias: bool, mark: Any) -> None:
        """Read a mapping key into ``top.key`` (and the path of its value into ``top.kpath``).

        A key that cannot be kept (a list or mapping, a duplicate) leaves ``_COMPLEX`` or ``_SKIP``.
        """
        if not scalar:
            self.problem("HK009", "mapping keys must be single words or numbers, not lists or mappings", mark)
            # An alias key is simply skipped; a list or mapping is read as a throwaway value.
            top.key = _SKIP if alias else _COMPLEX
            top.kpath = top.path + ("<skipped>",)
            return
        text = ev.value
        if ev.ctag is None and ev.implicit[0] and not ev.style:
            key = self.plain(text, mark)
        else:
            key = text
        if key.__class__ is not str:
            key = text
        kpath = top.path + (key,)
        if key == "<<":
            self.problem("HK009", "merge keys ('<<') are not supported in content", mark,
                         "write the fields out, or use an alias for the whole value")
        keys = self.out.keys
        if kpath in keys:
            first = keys[kpath]
            self.problem("HK003", f"duplicate key '{key}' (first at line {first.line})", mark,
                         "each key may appear once in a mapping; remove or rename one")
            top.key = _SKIP
            top.kpath = top.path + ("<skipped>",)
        else:
            keys[kpath] = tuple.__new__(Pos, (mark.line + 1, mark.column + 1))
            top.key = key
            top.kpath = kpath


def _attach(top: _Frame, value: Any, size: int) -> None:
    """Put a finished value into the open list or mapping ``top``."""
    if top.key is _COMPLEX:  # the value was a list or mapping used as a key: dropped
        top.key = _SKIP
        return
    top.size += size
    if top.is_map:
        if top.key is not _SKIP:
            top.value[top.key] = value
        top.key = None
    else:
        top.value.append(value)


class _TooBig(Exception):
    def __init__(self, mark: Any) -> None:
        super().__init__("too big")
        self.mark = mark


class _TooDeep(_TooBig):
    """Lists and mappings nested deeper than MAX_DEPTH."""


def _drop(out: LoadedYaml) -> None:
    """Forget a partly built document: later stages must not see half of it."""
    out.data = None
    out.values.clear()
    out.keys.clear()


def load_bytes(raw: bytes) -> LoadedYaml:
    """Parse a YAML document from bytes; problems are collected, never raised."""
    out = LoadedYaml(data=None)
    if len(raw) > MAX_FILE_BYTES:
        out.problems.append(YamlProblem(
            "HK011", f"file is {len(raw):,} bytes; content files may be at most {MAX_FILE_BYTES:,}",
            Pos(1, 1), "split the component list into a folder of smaller files"))
        return out
    if raw.startswith(b"\xef\xbb\xbf"):
        raw = raw[3:]
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        col = exc.start - (raw.rfind(b"\n", 0, exc.start) + 1) + 1
        out.problems.append(YamlProblem(
            "HK002", f"file is not UTF-8: byte 0x{raw[exc.start]:02x} cannot be decoded", Pos(line, col),
            "save the file as UTF-8 (most editors: 'Save with encoding')"))
        return out
    out.first_line = text.split("\n", 1)[0]
    if "\x00" in text:
        idx = text.index("\x00")
        line = text.count("\n", 0, idx) + 1
        out.problems.append(YamlProblem("HK002", "file contains a NUL character", Pos(line, 1)))
        return out
    builder = _Builder(out)
    try:
        with collector_paused():  # nothing the loader makes forms a cycle (see toolkit.gcpause)
            out.data = builder.build(_event_source(text.encode("utf-8")))
    except _TooDeep as exc:
        _drop(out)
        out.problems.append(YamlProblem(
            "HK015", f"lists and mappings are nested more than {MAX_DEPTH} levels deep",
            _mark(exc.mark), "content nests a few levels at most; look for unbalanced brackets"))
    except _TooBig as exc:
        _drop(out)
        out.problems.append(YamlProblem(
            "HK010", f"aliases expand this file to more than {MAX_EXPANDED_NODES:,} values",
            _mark(exc.mark), "an alias-expansion ('billion laughs') document is refused; write values out"))
    except Exception as exc:  # the YAML library's syntax errors
        character, position = getattr(exc, "character", None), getattr(exc, "position", None)
        if isinstance(character, int) and isinstance(position, int):
            # the reader refuses a character before parsing starts: no mark, only an offset (in
            # bytes from libyaml, in characters from the pure parser), so find the character itself
            found = text.find(chr(character))
            position = found if found >= 0 else min(position, len(text))
            line = text.count("\n", 0, position) + 1
            col = position - (text.rfind("\n", 0, position) + 1) + 1
            out.data = None
            out.problems.append(YamlProblem(
                "HK002", f"file contains an invisible non-printing character (U+{character:04X})", Pos(line, col),
                "delete it (editors often show it as a box or ^G); tabs and line breaks are fine"))
            return out
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        problem = getattr(exc, "problem", None) or str(exc)
        context = getattr(exc, "context", None)
        context_mark = getattr(exc, "context_mark", None)
        message = f"YAML syntax error: {problem}"
        pos = _mark(mark) if mark is not None else Pos(1, 1)
        if context_mark is not None and _quote_never_closed(problem, str(context or "")):
            # the parser only notices at the end of the file (or at a '---'); the mistake is the
            # quote that opens the value, so that is where the error points
            opened = _mark(context_mark)
            message = (f"YAML syntax error: the quote opened here is never closed "
                       f"(the parser {problem} at line {pos.line}, column {pos.col})")
            pos = opened
        elif (opened := _quote_closed_late(text, pos)) is not None:
            # a quote left open runs on until the next quote in the file closes it, and the parser
            # trips just after that one: the mistake is where the long value opens
            message = (f"YAML syntax error: the quote opened here is closed only at line {pos.line} "
                       f"(the parser {problem} at line {pos.line}, column {pos.col})")
            pos = opened
            context = "quote closed late"
        elif context:
            where = f" at line {context_mark.line + 1}, column {context_mark.column + 1}" if context_mark else ""
            message += f" ({context}{where})"
        out.data = None
        out.problems.append(YamlProblem("HK001", message, pos, _syntax_hint(problem, str(context or ""), text, pos)))
    return out


def _quote_closed_late(text: str, pos: Pos) -> Pos | None:
    """Where a quoted value opens when it spans several lines and ends on the line of a syntax
    error: most likely its closing quote is missing and a quote further down closed it."""
    from ruamel.yaml import YAML
    from ruamel.yaml.tokens import ScalarToken

    end = text.find("\n", sum(len(row) + 1 for row in text.split("\n")[:pos.line - 1]))
    long: ScalarToken | None = None  # the last quoted value over several lines that ends on the error's line
    try:
        for token in YAML(typ="safe", pure=True).scan(text if end < 0 else text[:end]):
            if (isinstance(token, ScalarToken) and token.style in ('"', "'")
                    and token.start_mark.line < token.end_mark.line == pos.line - 1
                    and token.end_mark.column < pos.col):
                long = token
    except Exception:  # the scanner's own complaint about the cut text: the tokens before it do
        pass
    return None if long is None else Pos(long.start_mark.line + 1, long.start_mark.column + 1)


def _quote_never_closed(problem: str, context: str) -> bool:
    """A quoted value that runs to the end of the file or of the document: its quote is never closed
    (an unknown escape inside a quoted value is reported where it stands, not here)."""
    return "quoted scalar" in context and (
        "end of stream" in problem or "unexpected document" in problem)


def _syntax_hint(problem: str, context: str, text: str, pos: Pos) -> str:
    """What a designer most likely did, for the YAML parser's terse complaint."""
    lines = text.splitlines()
    here = lines[pos.line - 1] if 0 < pos.line <= len(lines) else ""
    if "\t" in here[:len(here) - len(here.lstrip())] or "tab" in problem:
        return "YAML indents with spaces only: replace the tab at the start of this line with spaces"
    if "mapping values are not allowed" in problem:
        if ": " in here[:max(pos.col - 1, 0)]:
            return "this value holds ': ', which YAML reads as another key: put the whole value in quotes"
        return "this line is indented deeper than the key above it: line it up with its neighbours"
    if context == "quote closed late":
        return "close the quote at the end of this value: as it stands, the next quote in the file closes it"
    if "quoted scalar" in context:
        return "a quote is opened and never closed: close it at the end of its value"
    if "expected '-' indicator" in problem or "expected <block end>" in problem:
        return "this line is indented differently from the entries around it: line it up with them"
    return "check indentation, colons and closing brackets near this point"
