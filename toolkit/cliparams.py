"""Command-line values converted without pydantic.

Typer 0.29 converts every option value through a pydantic ``TypeAdapter``, so each command paid
for importing pydantic and building adapters (about 0.1-0.3 s) before doing anything. hordekit's
options are all plain types: flags, text, whole numbers and numbers with a range, paths, choices from an
Enum, and lists of those. For these, `plain_runtime_param` gives Typer a converter that uses
Typer's own choice and path checks and no pydantic; any other kind of parameter (or a value of an
unexpected type, such as a string for a flag) goes through Typer's own converter unchanged.

This leans on two of Typer's internal modules (``typer._coercion`` and ``typer._param_types``);
if a later Typer moves them, `plain_runtime_param` returns None and Typer converts as before.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import Enum
from pathlib import Path
from typing import Any, Callable, get_args, get_origin

try:
    from typer._click.exceptions import BadParameter
    from typer._coercion import RuntimeParam, build_runtime_param
    from typer._param_types import coerce_cli_choice, coerce_cli_path
except ImportError:  # another Typer: it converts values itself
    RuntimeParam = None  # type: ignore[assignment,misc]


class _NotPlain(Exception):
    """A value this module does not convert: Typer's own converter takes it."""


def _number(kind: type, low: float | None, high: float | None) -> Callable[[Any], Any]:
    """A whole number or a number, within [low, high] when those are given (no clamping)."""
    noun = "a whole number" if kind is int else "a number"

    def convert(value: Any) -> Any:
        if isinstance(value, bool) or not isinstance(value, (str, int, float)):
            raise _NotPlain
        try:
            number = kind(value.strip() if isinstance(value, str) else value)
        except (ValueError, OverflowError):
            raise ValueError(f"{value!r} is not {noun}") from None
        if number != number:  # nan
            raise ValueError(f"{value!r} is not {noun}")
        if low is not None and number < low:
            raise ValueError(f"{value} is less than the minimum of {low:g}")
        if high is not None and number > high:
            raise ValueError(f"{value} is greater than the maximum of {high:g}")
        return number

    return convert


def _leaf(annotation: Any, info: Any) -> Callable[[Any, Any, Any], Any] | None:
    """A converter (value, param, ctx) -> value for one plain type, or None if it is not plain."""
    if info.parser is not None:
        return None
    if isinstance(annotation, type) and issubclass(annotation, Enum):
        choices = list(annotation)
        return lambda value, param, ctx: coerce_cli_choice(value, choices=choices,
                                                           case_sensitive=info.case_sensitive, ctx=ctx)
    if annotation in (int, float) and not info.clamp:
        number = _number(annotation, info.min, info.max)
        return lambda value, param, ctx: number(value)
    if annotation is bool:
        def flag(value: Any, param: Any, ctx: Any) -> bool:
            if not isinstance(value, bool):  # e.g. "yes" from an environment variable
                raise _NotPlain
            return value
        return flag
    if annotation is str:
        def text(value: Any, param: Any, ctx: Any) -> str:
            if not isinstance(value, str):
                raise _NotPlain
            return value
        return text
    if annotation is Path and info.path_type is None:
        def path(value: Any, param: Any, ctx: Any) -> Any:
            if not isinstance(value, (str, Path)):
                raise _NotPlain
            return coerce_cli_path(Path(value), info, path_type=Path, param=param, ctx=ctx)
        return path
    return None


if RuntimeParam is not None:
    @dataclass(frozen=True)
    class _PlainParam(RuntimeParam):
        """Converts a plain value (or each value of a list); hands anything else to Typer."""

        descriptor: Any = None
        convert: Callable[[Any, Any, Any], Any] = field(default=lambda value, param, ctx: value)
        many: bool = False

        def _coerce_value(self, value: Any, param: Any, ctx: Any) -> Any:
            try:
                if self.many:
                    items = value if isinstance(value, (list, tuple)) else [value]
                    return [self.convert(item, param, ctx) for item in items]
                return self.convert(value, param, ctx)
            except ValueError as exc:
                raise BadParameter(str(exc), ctx=ctx, param=param) from None
            except _NotPlain:
                return build_runtime_param(self.descriptor).coerce(value, param=param, ctx=ctx)


def plain_runtime_param(param: Any) -> Any | None:
    """A pydantic-free converter for a Typer parameter of a plain type, or None (Typer's own)."""
    descriptor = getattr(param, "type_descriptor", None)
    if RuntimeParam is None or descriptor is None or descriptor.file_annotation is not None:
        return None
    annotation, info = descriptor.annotation, descriptor.parameter_info
    many = get_origin(annotation) is list
    if many:
        (annotation,) = get_args(annotation)
    convert = _leaf(annotation, info)
    if convert is None:
        return None
    return _PlainParam(parameter_info=info, annotation=descriptor.annotation, descriptor=descriptor,
                       convert=convert, many=many)


def convert_without_pydantic(command: Any, ctx: Any) -> None:
    """Give each parameter of ``command`` (its --help included) a pydantic-free converter where
    its type is plain; Typer builds its own, lazily, for the others."""
    for param in command.get_params(ctx):
        if getattr(param, "_runtime_param", False) is None:
            param._runtime_param = plain_runtime_param(param)
