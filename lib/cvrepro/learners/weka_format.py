"""WEKA's number and text formatting, for printing models as WEKA 3.6 prints them.

``double_to_string`` is ``weka.core.Utils.doubleToString`` (round half up
at ``after`` decimals, trailing zeros dropped; with ``width``, decimal-aligned
in a field of that width), ``java_double`` is Java's ``Double.toString``,
``pad_left`` / ``pad_right`` are ``Utils.padLeft`` / ``padRight`` (which also
truncate), and ``quote`` is ``Utils.quote`` (how WEKA writes a nominal value).
"""
from __future__ import annotations

from decimal import Decimal

__all__ = ["double_to_string", "java_double", "pad_left", "pad_right", "quote", "java_string_hash"]

_LONG_MAX = 9.223372036854776e18        # (double) Long.MAX_VALUE


def java_double(x: float) -> str:
    """Java's ``Double.toString(x)`` (shortest round-trip digits, Java's layout)."""
    x = float(x)
    if x != x:
        return "NaN"
    if x in (float("inf"), float("-inf")):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if str(x).startswith("-") else "0.0"
    d_tuple = Decimal(repr(x)).normalize().as_tuple()
    digits = "".join(map(str, d_tuple.digits))
    e10 = len(digits) + d_tuple.exponent           # x = 0.digits * 10 ** e10
    s = "-" if d_tuple.sign else ""
    if 1e-3 <= abs(x) < 1e7:
        if e10 <= 0:
            return s + "0." + "0" * (-e10) + digits
        if e10 >= len(digits):
            return s + digits + "0" * (e10 - len(digits)) + ".0"
        return s + digits[:e10] + "." + digits[e10:]
    mantissa = digits[0] + "." + (digits[1:] or "0")
    return f"{s}{mantissa}E{e10 - 1}"


def double_to_string(value: float, after: int, width: int | None = None) -> str:
    """``Utils.doubleToString(value, after)`` or, with ``width``, ``doubleToString(value, width, after)``."""
    text = _to_string(float(value), after)
    if width is None or after >= width or "E" in text:
        return text
    result = [" "] * width
    if after > 0:
        dot = text.find(".")
        if dot == -1:
            dot = len(text)
        else:
            result[width - after - 1] = "."
    else:
        dot = len(text)
    offset = width - after - dot - (1 if after > 0 else 0)
    if offset < 0:
        return text
    for i in range(dot):
        result[offset + i] = text[i]
    for i in range(dot + 1, len(text)):
        result[offset + i] = text[i]
    return "".join(result)


def _to_string(value: float, after: int) -> str:
    temp = value * float(10 ** after)
    if not abs(temp) < _LONG_MAX:
        return java_double(value)
    units = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    if after == 0:
        return str(units)
    negative = units < 0
    digits = str(abs(units))
    if len(digits) <= after:
        digits = "0" * (after - len(digits) + 1) + digits
    text = digits[:-after] + "." + digits[-after:]
    text = text.rstrip("0").rstrip(".")
    if units == 0:
        return "0"
    return ("-" if negative else "") + text


def pad_left(text: str, length: int) -> str:
    """``Utils.padLeft``: right-aligned in ``length`` characters (truncated if longer)."""
    return text.rjust(length) if len(text) < length else text[:length]


def pad_right(text: str, length: int) -> str:
    """``Utils.padRight``: left-aligned in ``length`` characters (truncated if longer)."""
    return text.ljust(length) if len(text) < length else text[:length]


_BACKQUOTE = [("\\", "\\\\"), ("'", "\\'"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r"), ('"', '\\"'),
              ("%", "\\%"), ("\u001e", "\\u001E")]


def quote(text: str) -> str:
    """``Utils.quote``: backslash-escape special characters, single-quote if needed."""
    quoted = False
    if any(c in text for c in "\n\r'\"\\\t%\u001e"):
        for find, repl in _BACKQUOTE:
            text = text.replace(find, repl)
        quoted = True
    if quoted or any(c in text for c in "{}, ") or text in ("?", ""):
        text = "'" + text + "'"
    return text


def java_string_hash(text: str) -> int:
    """Java's ``String.hashCode()`` (over UTF-16 code units, 32-bit signed)."""
    h = 0
    for unit in text.encode("utf-16-be").hex(" ", 2).split():
        h = (31 * h + int(unit, 16)) & 0xFFFFFFFF
    return h - (1 << 32) if h >= (1 << 31) else h
