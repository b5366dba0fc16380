"""One type for every problem any stage finds, and the three ways the CLI prints them.

Codes are stable so that designers, CI scripts and docs can refer to them:
HK0xx reading files, HK1xx schema shape, HK2xx cross-file rules, HK3xx rules engine,
HK4xx print layout. The full list is in docs/diagnostics.md.
"""

from __future__ import annotations

import difflib
import json
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


def format_text(diags: list[Diagnostic]) -> str:
    """Compiler-style lines: ``file:line:col: error HK101: message`` then an indented hint."""
    lines = []
    for d in diags:
        lines.append(f"{d.file}:{d.line}:{d.col}: {d.severity.value} {d.code}: {d.message}")
        if d.hint:
            lines.append(f"    hint: {d.hint}")
    return "\n".join(lines)


def format_json(diags: list[Diagnostic]) -> str:
    return json.dumps([d.as_dict() for d in diags], indent=2)


def _escape_github(text: str, *, prop: bool = False) -> str:
    text = text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")
    if prop:
        text = text.replace(":", "%3A").replace(",", "%2C")
    return text


def format_github(diags: list[Diagnostic]) -> str:
    """GitHub Actions workflow commands, so problems show inline on a pull request."""
    lines = []
    for d in diags:
        message = d.message + (f" ({d.hint})" if d.hint else "")
        lines.append(
            f"::{d.severity.value} file={_escape_github(d.file, prop=True)},line={d.line},col={d.col},"
            f"title={d.code}::{_escape_github(message)}"
        )
    return "\n".join(lines)


FORMATTERS = {"text": format_text, "json": format_json, "github": format_github}


def summary(diags: list[Diagnostic]) -> str:
    errors = sum(1 for d in diags if d.severity is Severity.ERROR)
    warnings = len(diags) - errors
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"
