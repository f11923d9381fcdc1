"""How WEKA 3.6 and Java turn values into text, for printed models and WEKA's seeds.

WEKA's rule learners print numbers with ``Utils.doubleToString(x, 6)`` (JRip's
thresholds) or Java's ``Double.toString`` (OneR's breakpoints, JRip's counts),
and JRip seeds its random generator with the ``String.hashCode()`` of one
training instance as ``Instance.toString()`` writes it (nominal values through
``Utils.quote``). These functions reproduce those conversions.
"""
from __future__ import annotations

import math
from decimal import Decimal

__all__ = ["double_to_string", "java_double_to_string", "quote", "java_string_hash"]


def double_to_string(x: float, digits: int = 6) -> str:
    """WEKA's ``Utils.doubleToString(x, digits)``: round half up at ``digits`` decimals, trailing zeros cut."""
    temp = x * math.pow(10.0, digits)
    if not abs(temp) < 2.0 ** 63:
        return java_double_to_string(x)
    units = int(temp + 0.5) if temp > 0 else -int(abs(temp) + 0.5)
    if units == 0:
        return "0"
    sign, text = ("-" if units < 0 else ""), str(abs(units)).rjust(digits + 1, "0")
    if digits == 0:
        return sign + text
    whole, frac = text[:-digits], text[-digits:].rstrip("0")
    return sign + whole + ("." + frac if frac else "")


def java_double_to_string(x: float) -> str:
    """Java's ``Double.toString(x)`` from the shortest round-trip digits.

    Plain notation for 1e-3 <= |x| < 1e7 (at least one decimal), else ``d.dddE<n>``.
    Java 17's algorithm sometimes prints one more digit than the shortest for very
    large or small magnitudes; thresholds and counts in our models are not such values.
    """
    if math.isnan(x):
        return "NaN"
    if math.isinf(x):
        return "Infinity" if x > 0 else "-Infinity"
    if x == 0:
        return "-0.0" if math.copysign(1.0, x) < 0 else "0.0"
    sign, digits, exponent = Decimal(repr(x)).normalize().as_tuple()
    text = "".join(map(str, digits))
    point = len(text) + exponent                 # decimal point position in ``text``
    minus = "-" if sign else ""
    if 1e-3 <= abs(x) < 1e7:
        if point <= 0:
            return minus + "0." + "0" * (-point) + text
        if point >= len(text):
            return minus + text + "0" * (point - len(text)) + ".0"
        return minus + text[:point] + "." + text[point:]
    mantissa = text[0] + "." + (text[1:] or "0")
    return f"{minus}{mantissa}E{point - 1}"


_BACKQUOTED = [("\\", "\\\\"), ("'", "\\'"), ("\t", "\\t"), ("\n", "\\n"), ("\r", "\\r"), ('"', '\\"'),
               ("%", "\\%"), ("\u001e", "\\u001E")]


def quote(value: str) -> str:
    """WEKA's ``Utils.quote``: escape special characters, then single-quote if needed."""
    s = str(value)
    quoted = any(c in s for c, _ in _BACKQUOTED)
    for c, replacement in _BACKQUOTED:
        s = s.replace(c, replacement)
    if quoted or any(c in s for c in "{},") or s == "?" or " " in s or s == "":
        s = "'" + s + "'"
    return s


def java_string_hash(s: str) -> int:
    """Java's ``String.hashCode()`` (UTF-16 code units, 32-bit wrap-around), as a signed int."""
    data = s.encode("utf-16-be")
    h = 0
    for i in range(0, len(data), 2):
        h = (31 * h + (data[i] << 8 | data[i + 1])) & 0xFFFFFFFF
    return h - (1 << 32) if h >= 1 << 31 else h
