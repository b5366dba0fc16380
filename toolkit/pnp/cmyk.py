"""CMYK output for print shops: every colour and every bitmap of a PDF in DeviceCMYK.

Offset and most print-on-demand presses print in cyan, magenta, yellow and black, and many shops
ask for CMYK files so that what they print is what the designer sent, not their own conversion.
hordekit's layouts name colours in RGB (#rrggbb), so the export converts them as it draws:

- colours: ReportLab applies a canvas's ``enforceColorSpace`` function to every fill and stroke
  colour set on it (shapes, text, icons, SVG art), so one function converts them all;
- bitmaps: converted to CMYK before they are placed, their transparency kept as a soft mask.

The conversion is the plain device one (grey component replacement, no ICC profile): black and
greys become black ink only, so small text prints in one ink, sharp, with no colour fringes.
Text in a near-black colour (a warm dark brown as body text, say) would still need three inks,
and three plates never register perfectly: small type comes out with coloured fringes. Such text
prints in black ink alone, as dark as the colour looks (``text_ink``), and so do the parts of
icons drawn in the text's ink (pips, outlines); fills and shapes keep their colour.
Colours come out near their RGB look; a designer who needs exact press colours proofs them with
the shop.
"""

from __future__ import annotations

from typing import Any


def rgb_to_cmyk(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """Device CMYK (0-1 each) for an RGB colour (0-1 each): all the grey goes to black ink."""
    top = max(r, g, b)
    if top <= 0:
        return (0.0, 0.0, 0.0, 1.0)
    return (round((top - r) / top, 4), round((top - g) / top, 4), round((top - b) / top, 4), round(1 - top, 4))


def as_cmyk(colour: Any) -> Any:
    """The canvas's colour filter: any colour ReportLab accepts, as a CMYKColor."""
    from reportlab.lib.colors import CMYKColor, Color, toColor

    if isinstance(colour, (tuple, list)) and len(colour) == 3:
        colour = Color(*colour)
    elif isinstance(colour, (tuple, list)) and len(colour) == 4:
        return CMYKColor(*colour)
    elif not isinstance(colour, Color):
        colour = toColor(colour)
    if isinstance(colour, CMYKColor):
        return colour
    return CMYKColor(*rgb_to_cmyk(colour.red, colour.green, colour.blue), alpha=colour.alpha)


def cmyk_image(image: Any) -> Any:
    """An ImageReader for a Pillow image, converted to CMYK the same way as colours; an alpha
    channel becomes the image's soft mask, as it would for the RGB image."""
    from PIL import Image, ImageChops, ImageMath
    from reportlab.lib.utils import ImageReader

    alpha = None
    if image.mode in ("RGBA", "LA", "PA") or (image.mode == "P" and "transparency" in image.info):
        image = image.convert("RGBA")
        alpha = image.getchannel("A")
    rgb = image.convert("RGB")
    r, g, b = rgb.split()
    top = ImageChops.lighter(r, ImageChops.lighter(g, b))  # max(r, g, b): 255 - black

    def ink(channel: Any) -> Any:  # (max - channel) / max, scaled to 0-255
        return ImageMath.lambda_eval(
            lambda e: e["convert"](((e["t"] - e["c"]) * 255 + e["t"] / 2) / e["max"](e["t"], 1), "L"),
            t=top, c=channel)

    black = ImageChops.invert(top)
    converted = Image.merge("CMYK", (ink(r), ink(g), ink(b), black))
    reader = ImageReader(converted)
    reader.getRGBData()  # reads the CMYK bytes now, so the soft mask set next is kept
    if alpha is not None:
        reader._dataA = ImageReader(alpha)  # ReportLab writes _dataA as the image's soft mask
    return reader


def image_for(canvas: Any, image: Any) -> Any:
    """What to hand ``canvas.drawImage`` for a Pillow image: converted to CMYK when the canvas
    converts its colours (an export with ``cmyk``), else as it is."""
    if getattr(canvas, "_enforceColorSpace", None) is as_cmyk:
        return cmyk_image(image)
    from reportlab.lib.utils import ImageReader

    return ImageReader(image)


#: Text whose lightest RGB channel is at most this is near-black: printed in black ink alone.
NEAR_BLACK = 0.25


def text_ink(r: float, g: float, b: float) -> tuple[float, float, float, float]:
    """The CMYK of text in colour (r, g, b): black ink alone, as dark as the colour's luma, when the
    colour is near-black; else the plain conversion."""
    if max(r, g, b) <= NEAR_BLACK:
        return (0.0, 0.0, 0.0, round(1 - (0.299 * r + 0.587 * g + 0.114 * b), 4))
    return rgb_to_cmyk(r, g, b)


def set_text_fill(canvas: Any, rgb: tuple[float, float, float], stroke: bool = False) -> None:
    """Set the colour text is drawn in (or, with ``stroke``, the outline colour an icon draws in the
    text's ink): in a CMYK export, ``text_ink`` of it."""
    if getattr(canvas, "_enforceColorSpace", None) is as_cmyk:
        from reportlab.lib.colors import CMYKColor

        (canvas.setStrokeColor if stroke else canvas.setFillColor)(CMYKColor(*text_ink(*rgb)))
    else:
        (canvas.setStrokeColorRGB if stroke else canvas.setFillColorRGB)(*rgb)
