"""Print-and-play PDFs: cards, counters, tiles, boards and sheets rendered from content.

Public entry points: ``build_pdf`` (used by ``hordekit pnp`` and ``hordekit build``),
``check_text_fit`` (used by ``hordekit validate`` to report text overflows as HK401 warnings),
``render_preview`` (one component as PNG) and ``PnpReport``. ReportLab is imported only when a
PDF is actually drawn.
"""

from toolkit.pnp.document import PnpReport, build_pdf, check_text_fit, default_output

__all__ = ["PnpReport", "build_pdf", "check_text_fit", "default_output"]
