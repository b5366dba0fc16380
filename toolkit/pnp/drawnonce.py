"""Drawing that repeats on every piece or sheet, worked out once per PDF and copied after that.

A Kingdoms PDF places the same few icons hundreds of times, marks every piece of a size with
the same version mark, and puts the same ruler and, sheet after sheet, the same crop marks on
its pages. ReportLab turns each drawing call into PDF
operators (text with numbers formatted, fonts looked up) every time; for drawing that does not
depend on where it is placed (it runs inside ``saveState``/``restoreState``, in the coordinates
the caller set up) those operators are always the same text. So the first time they are kept,
and every later use copies them: the PDF is the same, byte for byte, for a fraction of the work.

Operators are kept per canvas (a font's name in the operators belongs to its document) and
never outlive it. A canvas that is not ReportLab's (the recorder that ``--changed-since``
compares drawings with) gets every call, so what it records does not change.
"""

from __future__ import annotations

from typing import Any, Callable, Hashable
from weakref import WeakKeyDictionary


class DrawnOnce:
    """Operators kept by key, per canvas; ``draw`` runs the drawing only the first time."""

    def __init__(self) -> None:
        self._kept: WeakKeyDictionary[Any, dict[Hashable, list[str]]] = WeakKeyDictionary()

    def draw(self, c: Any, key: Hashable, drawing: Callable[[], None]) -> None:
        """Run ``drawing`` on ``c``, or copy what it drew the first time under ``key``.

        ``key`` must name everything the drawing depends on. The drawing runs between the
        caller's ``saveState`` and ``restoreState`` (what it changes in the graphics state ends
        there) and uses only paths, text and RGB colours: forms, images and other colour spaces
        are also noted outside the operators, which copying would miss.
        """
        code = getattr(c, "_code", None)  # ReportLab's operators of the page or form being drawn
        if not isinstance(code, list):
            drawing()
            return
        kept = self._kept.setdefault(c, {})
        ops = kept.get(key)
        if ops is not None:
            code.extend(ops)
            return
        start = len(code)
        drawing()
        if c._code is code:  # the drawing stayed on this page or form
            kept[key] = code[start:]
