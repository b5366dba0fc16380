"""One type for every problem any stage finds, and the three ways the CLI prints them.

Codes are stable so that designers, CI scripts and docs can refer to them:
HK0xx reading files, HK1xx schema shape, HK2xx cross-file rules, HK3xx rules engine,
HK4xx print layout. The full list is in docs/diagnostics.md.
"""

from __future__ import annotations

import difflib
import json
import os
import re
from dataclasses import asdict, dataclass
from enum import Enum
from typing import Iterable


class Severity(str, Enum):
    ERROR = "error"
    WARNING = "warning"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """A problem located at ``file:line:col`` with a hint on how to fix it."""

    severity: Severity
    code: str
    message: str
    file: str
    line: int = 1
    col: int = 1
    hint: str = ""

    def sort_key(self) -> tuple[str, int, int, str]:
        return (self.file, self.line, self.col, self.code)

    def as_dict(self) -> dict[str, object]:
        data = asdict(self)
        data["severity"] = self.severity.value
        return data


def error(code: str, message: str, file: str, line: int = 1, col: int = 1, hint: str = "") -> Diagnostic:
    return Diagnostic(Severity.ERROR, code, message, file, line, col, hint)


def warning(code: str, message: str, file: str, line: int = 1, col: int = 1, hint: str = "") -> Diagnostic:
    return Diagnostic(Severity.WARNING, code, message, file, line, col, hint)


def did_you_mean(word: str, choices: Iterable[str]) -> str:
    """'did you mean `x`?' for the closest choice, or '' when nothing is close."""
    close = difflib.get_close_matches(str(word), list(choices), n=1, cutoff=0.6)
    return f"did you mean `{close[0]}`?" if close else ""


_CONTROL = re.compile(r"[\x00-\x08\x0a-\x1f\x7f]")


def one_line(text: str) -> str:
    """Text safe to print on one line: newlines and other control characters shown escaped.

    Messages quote content; a newline inside one would break ``file:line:col`` parsing by
    editors and CI, and a terminal escape sequence in a value must never reach the terminal.
    """
    return _CONTROL.sub(lambda m: repr(m.group())[1:-1], text)


def format_text(diags: list[Diagnostic]) -> str:
    """Compiler-style lines: ``file:line:col: error HK104: message`` then an indented hint."""
    lines = []
    for d in diags:
        lines.append(f"{one_line(d.file)}:{d.line}:{d.col}: {d.severity.value} {d.code}: {one_line(d.message)}")
        if d.hint:
            lines.append(f"    hint: {one_line(d.hint)}")
    return "\n".join(lines)


#: Codes whose every message at one place is a mistake of its own (a missing field names the field).
SEPARATE_AT_ONE_PLACE = frozenset({"HK103"})


def collapse_repeats(diags: list[Diagnostic]) -> list[Diagnostic]:
    """One diagnostic per place: the same code at the same ``file:line:col`` is one mistake.

    A typo in a text template fails once for every card that uses it; the designer needs the
    template's place once, with a count of how many pieces it affects.
    """
    seen: dict[tuple[str, str, str, int, int, str], int] = {}
    counts: list[int] = []
    kept: list[Diagnostic] = []
    for d in diags:
        # two fields missing from one mapping are two mistakes at one place: each is named
        key = (d.severity.value, d.code, d.file, d.line, d.col, d.message if d.code in SEPARATE_AT_ONE_PLACE else "")
        if key in seen:
            counts[seen[key]] += 1
            continue
        seen[key] = len(kept)
        kept.append(d)
        counts.append(1)
    return [d if n == 1 else Diagnostic(d.severity, d.code, f"{d.message} (and {n - 1} more like it here)",
                                        d.file, d.line, d.col, d.hint)
            for d, n in zip(kept, counts)]


def format_json(diags: list[Diagnostic]) -> str:
    return json.dumps([d.as_dict() for d in diags], indent=2)


_OTHER_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _escape_github(text: str, *, prop: bool = False) -> str:
    """Text as GitHub's workflow commands require: %, CR and LF percent-encoded (and, in a
    property, ``:`` and ``,``); any other control character, such as a terminal escape quoted from
    content, shown escaped so it never reaches the log raw."""
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    text = _OTHER_CONTROL.sub(lambda m: repr(m.group())[1:-1], text)
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def repository_path(file: str) -> str:
    """``file`` relative to the repository root, as GitHub annotations require.

    The root is ``$GITHUB_WORKSPACE`` in a workflow, else the nearest folder holding ``.git``
    above the working folder; a file outside it keeps its own path.
    """
    from pathlib import Path

    if not file:
        return file
    workspace = os.environ.get("GITHUB_WORKSPACE")
    here = Path.cwd().resolve()
    root = Path(workspace).resolve() if workspace else next(
        (d for d in (here, *here.parents) if (d / ".git").exists()), None)
    if root is None:
        return file
    try:
        return (here / file).resolve().relative_to(root).as_posix()
    except (ValueError, OSError, RuntimeError):
        return file


def format_github(diags: list[Diagnostic]) -> str:
    """GitHub Actions workflow commands, so problems show inline on a pull request."""
    lines = []
    for d in diags:
        message = d.message + (f" ({d.hint})" if d.hint else "")
        lines.append(
            f"::{d.severity.value} file={_escape_github(repository_path(d.file), prop=True)},line={d.line},col={d.col},"
            f"title={d.code}::{_escape_github(message)}"
        )
    return "\n".join(lines)


def github_annotation(file: str, line: int, col: int, title: str, message: str, level: str = "error") -> str:
    """One GitHub Actions annotation at ``file:line:col`` (the file named from the repository root)."""
    return (f"::{level} file={_escape_github(repository_path(file), prop=True)},line={line},col={col},"
            f"title={_escape_github(title, prop=True)}::{_escape_github(message)}")


def github_message(title: str, message: str, level: str = "error") -> str:
    """One GitHub Actions annotation that belongs to no file (a failed smoke game, say)."""
    return f"::{level} title={_escape_github(title, prop=True)}::{_escape_github(message)}"


FORMATTERS = {"text": format_text, "json": format_json, "github": format_github}


def summary(diags: list[Diagnostic]) -> str:
    errors = sum(1 for d in diags if d.severity is Severity.ERROR)
    warnings = len(diags) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
