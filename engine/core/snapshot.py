"""A fast structural copy of a state's plain data, for cheap clones.

`copy.deepcopy` handles any object but pays for that generality on every element; a game state
is lists and dicts of numbers and strings plus a few small slotted objects, so a copier that
knows those shapes is several times faster. Shared references inside the data (a stack that sits
both in the line and in the list of opened stacks) stay shared in the copy.

Immutable values (numbers, strings, tuples of them, frozen dataclasses such as the model's
cards) are shared, not copied.
"""
from __future__ import annotations

from typing import Any

_ATOMIC = {int, float, str, bool, type(None), bytes, frozenset, range, complex}
_KIND: dict[type, str] = {}


def _kind(cls: type) -> str:
    """How to copy instances of `cls`: 'atom', 'slots' or 'dict'."""
    kind = _KIND.get(cls)
    if kind is None:
        params = getattr(cls, "__dataclass_params__", None)
        if params is not None and params.frozen:
            kind = "atom"
        elif cls.__dictoffset__ == 0 and hasattr(cls, "__slots__"):
            kind = "slots"      # instances have slots and no __dict__
        elif cls.__dictoffset__ != 0 and not callable(getattr(cls, "send", None)):
            kind = "dict"
        else:
            raise TypeError(f"cannot snapshot a {cls.__name__}")
        _KIND[cls] = kind
    return kind


def _slots(cls: type) -> tuple[str, ...]:
    names: list[str] = []
    for k in reversed(cls.__mro__):
        s = k.__dict__.get("__slots__", ())
        names.extend([s] if isinstance(s, str) else s)
    return tuple(n for n in names if n not in ("__weakref__", "__dict__"))


def copy_data(value: Any, memo: dict[int, Any]) -> Any:
    """A copy of `value` sharing nothing mutable with it."""
    cls = value.__class__
    if cls in _ATOMIC:
        return value
    key = id(value)
    found = memo.get(key)
    if found is not None:
        return found
    if cls is list:
        out: Any = []
        memo[key] = out
        atomic = _ATOMIC
        if all(v.__class__ in atomic for v in value):
            out.extend(value)
            return out
        for v in value:  # the common nested case, tables of counts, without a call per row
            if v.__class__ is list and id(v) not in memo and all(x.__class__ in atomic for x in v):
                row = v[:]
                memo[id(v)] = row
                out.append(row)
            else:
                out.append(copy_data(v, memo))
        return out
    if cls is dict:
        out = {}
        memo[key] = out
        for k, v in value.items():
            out[k] = v if v.__class__ in _ATOMIC else copy_data(v, memo)
        return out
    if cls is tuple:
        if all(v.__class__ in _ATOMIC for v in value):
            return value
        out = tuple(copy_data(v, memo) for v in value)
        memo[key] = out
        return out
    if cls is set:
        out = set(value)  # sets hold hashable, hence (here) immutable, values
        memo[key] = out
        return out
    kind = _kind(cls)
    if kind == "atom":
        return value
    out = object.__new__(cls)
    memo[key] = out
    if kind == "slots":
        for name in _slots(cls):
            if hasattr(value, name):
                object.__setattr__(out, name, copy_data(getattr(value, name), memo))
    else:
        out.__dict__.update({k: copy_data(v, memo) for k, v in value.__dict__.items()})
    return out

