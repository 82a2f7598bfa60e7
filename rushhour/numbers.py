"""Reading numbers typed by people or written in files: one parser for every format and option.

Only ASCII digits count (``str.isdigit`` also accepts ``²`` and other digits that :func:`int` refuses),
and a number has at most :data:`MAX_DIGITS` digits, so no text can make a huge integer or a float that
takes minutes to build.  Counts may be written ``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``;
durations ``2``, ``2.5`` or ``0.125``.

>>> whole("42")
42
>>> count("5e6")
5000000
>>> is_whole("²")
False
>>> whole("-3", "the number of jobs", least=1)
Traceback (most recent call last):
    ...
rushhour.numbers.NumberError: the number of jobs '-3' is below 1
"""

from __future__ import annotations

import re
from fractions import Fraction

from rushhour.errors import RushHourError

#: the most digits a number may have (10**18 is beyond every count, size and limit we use)
MAX_DIGITS = 18
#: the largest count, size or limit any option or file may give
MAX_WHOLE = 10**MAX_DIGITS - 1

_WHOLE_RE = re.compile(rf"[0-9]{{1,{MAX_DIGITS}}}\Z")
_COUNT_RE = re.compile(rf"([0-9]{{1,{MAX_DIGITS}}})(?:[eE]([0-9]{{1,2}}))?\Z")
_DECIMAL_RE = re.compile(rf"([0-9]{{1,{MAX_DIGITS}}})(?:\.([0-9]{{1,{MAX_DIGITS}}}))?\Z")
_DIGITS_RE = re.compile(r"[0-9]+(?:\.[0-9]*)?\Z")


class NumberError(RushHourError):
    """Text that is not a number within the bounds asked for."""


def is_whole(text: str) -> bool:
    """Whether ``text`` is a whole number of ASCII digits, at most :data:`MAX_DIGITS` of them."""
    return _WHOLE_RE.match(text) is not None


def quoted(text: str, most: int = 40) -> str:
    """``text`` quoted for a message, shortened when it is long."""
    return repr(text) if len(text) <= most else repr(text[: most - 3]) + "..."


def _bounded(value: int, what: str, text: str, least: int, most: int) -> int:
    if value < least:
        raise NumberError(f"{what} {quoted(text)} is below {least}")
    if value > most:
        raise NumberError(f"{what} {quoted(text)} is above {most:,}")
    return value


def is_negative(text: str) -> bool:
    """Whether ``text`` is a number below zero (``-3``, ``-2.5``): refused as too small, not as no
    number."""
    body = text.strip()
    return body[:1] == "-" and _DIGITS_RE.match(body[1:]) is not None


def _refused(text: str, body: str, what: str, kind: str, least: int | None = None) -> NumberError:
    if _DIGITS_RE.match(body) and "." in body and kind == "a whole number":
        return NumberError(f"{what} {quoted(text)} is not a whole number")
    if _DIGITS_RE.match(body):  # digits, only too many of them: before the point, or after it
        large = len(body.partition(".")[0]) > MAX_DIGITS
        return NumberError(f"{what} {quoted(text)} {'is too large' if large else 'has too many digits'}")
    if is_negative(body):
        bound = "negative" if least is None else f"below {least}"
        return NumberError(f"{what} {quoted(text)} is {bound}")
    return NumberError(f"{what} {quoted(text)} is not {kind}")


def whole(text: str, what: str = "number", *, least: int = 0, most: int = MAX_WHOLE) -> int:
    """A whole number of ASCII digits from ``least`` to ``most``; else :class:`NumberError`."""
    body = text.strip()
    if not is_whole(body):
        raise _refused(text, body, what, "a whole number", least)
    return _bounded(int(body), what, text, least, most)


def whole_or_none(text: str) -> int | None:
    """The whole number ``text`` stands for, or None (for readers where a non-number means "no")."""
    body = text.strip()
    return int(body) if is_whole(body) else None


def count(text: str, what: str = "count", *, least: int = 1, most: int = MAX_WHOLE) -> int:
    """A count as people write one: ``1000000``, ``1_000_000``, ``1,000,000`` or ``1e6``."""
    body = text.strip().replace("_", "").replace(",", "")
    m = _COUNT_RE.match(body)
    if not m:
        raise _refused(text, body, what, "a whole number", least)
    mantissa, exponent = int(m.group(1)), int(m.group(2) or 0)
    if mantissa and exponent > MAX_DIGITS:
        raise NumberError(f"{what} {quoted(text)} is above {most:,}")
    return _bounded(mantissa * 10**exponent, what, text, least, most)


def decimal(text: str, what: str = "number", *, most: int = MAX_WHOLE) -> Fraction:
    """A non-negative decimal written with ASCII digits (``2``, ``2.5``), exactly, at most ``most``."""
    body = text.strip()
    m = _DECIMAL_RE.match(body)
    if not m:
        raise _refused(text, body, what, "a number like 2 or 2.5")
    value = Fraction(int(m.group(1)))
    if m.group(2):
        value += Fraction(int(m.group(2)), 10 ** len(m.group(2)))
    if value > most:
        raise NumberError(f"{what} {quoted(text)} is above {most:,}")
    return value


__all__ = [
    "MAX_DIGITS",
    "MAX_WHOLE",
    "NumberError",
    "count",
    "decimal",
    "is_negative",
    "is_whole",
    "quoted",
    "whole",
    "whole_or_none",
]
