"""Read the rule sets KEEL's Ripper, PART and FURIA print, and compare them with ours.

KEEL's runs (:func:`cvrepro.reference.keel.run`) return the extra output
file's text in ``KeelRun.extra[0]``; for Ripper-C and FURIA-C it is the rule
set. Attributes are named ``a<j>`` (the bridge's names), nominal values by
their declared label (``v<code>`` unless a plain token); the parsers turn them
back into attribute indices and value codes, given the nominal attributes'
declared labels.

- Ripper prints ``if(a2<=1.9 && a0>6.3) (10/10)`` then ``output=c`` per
  rule, in order, and the default class last. A condition ``a = v`` on a
  numeric attribute prints its value as ``null`` (KEEL looks the number up
  as a nominal label): it is read as None.
- FURIA prints, after ``Inside m_Ruleset``, one line per rule:
  ``(a2 >= 3(-> 1.9)) and (a1 = v0) => class=c1 (CF = 0.97)``; numbers with
  at most 6 decimals, the certainty factor with 2.
"""
from __future__ import annotations

import math
import re

__all__ = ["declared_labels", "parse_ripper", "parse_part", "parse_furia", "same_ripper_rules", "same_furia_rules"]


def declared_labels(header: str) -> tuple[dict, list]:
    """From a KEEL header (:func:`cvrepro.reference.keel.dat_header`): the declared labels of each
    nominal attribute (``{index: [label, ...]}``) and of the class."""
    nominal, classes = {}, []
    for line in header.splitlines():
        m = re.match(r"@attribute (\S+) \{(.*)\}\s*$", line)
        if not m:
            continue
        labels = [t.strip() for t in m.group(2).split(",")]
        if m.group(1) == "class":
            classes = labels
        else:
            nominal[int(m.group(1)[1:])] = labels
    return nominal, classes


def _value(token: str, labels) -> float | None:
    """A printed condition value: a nominal label's code, a number, or None (KEEL's ``null``)."""
    if labels is not None:
        return float(labels.index(token))
    return None if token == "null" else float(token)


def parse_ripper(text: str, nominal_labels: dict, class_labels: list) -> list:
    """KEEL Ripper's rule file -> ``[(class index, [(attribute, op, value), ...]), ...]`` (default rule excluded).

    ``nominal_labels``: attribute index -> its declared labels (nominal attributes only).
    """
    rules = []
    lines = text.splitlines()
    for k, line in enumerate(lines):
        m = re.match(r"(?:else )?if\((.*)\) \(\d+/\d+\)\s*$", line.strip())
        if not m:
            continue
        cls = class_labels.index(re.search(r"output=(\S+)", lines[k + 1]).group(1))
        conds = []
        for part in filter(None, m.group(1).split(" && ")):
            mm = re.match(r"a(\d+)(<=|>|=)(.*)$", part)
            a = int(mm.group(1))
            conds.append((a, mm.group(2), _value(mm.group(3), nominal_labels.get(a))))
        rules.append((cls, conds))
    return rules


def parse_part(text: str, nominal_labels: dict, class_labels: list) -> list:
    """KEEL PART's rule file (Ripper's format, ``@Number of Rules`` first) -> the rule list as
    :func:`parse_ripper` reads it, then the default rule as ``(class index, [])``."""
    default = re.findall(r"output=(\S+)", text)[-1]
    return parse_ripper(text, nominal_labels, class_labels) + [(class_labels.index(default), [])]


def parse_furia(text: str, nominal_labels: dict, class_labels: list) -> list:
    """KEEL FURIA's rule file -> ``[(class index, cf, [(attribute, op, value, support or None), ...]), ...]``."""
    part = text.split("Inside m_Ruleset", 1)[1].split("Number of Rules", 1)[0]
    rules = []
    for line in part.strip().splitlines():
        m = re.match(r"(.*)=> \S+=(\S+) \(CF = ([^)]*)\)\s*$", line.strip())
        if not m:
            continue
        antds = []
        for att, rest in re.findall(r"\(a(\d+) ((?:[^()]|\(-> [^)]*\))*)\)", m.group(1)):
            a = int(att)
            mm = re.match(r"(<=|>=) ([^(]+)(?:\(-> (.*)\))?$", rest)
            if mm:
                antds.append((a, mm.group(1), float(mm.group(2)),
                              float(mm.group(3)) if mm.group(3) is not None else None))
            else:
                antds.append((a, "=", _value(rest[2:], nominal_labels.get(a)), None))
        rules.append((class_labels.index(m.group(2)), float(m.group(3)), antds))
    return rules


def _close(ours: float, printed: float) -> bool:
    """Equal up to KEEL's printing (6 decimals, WEKA's doubleToString; Java's shortest repr for Ripper)."""
    return abs(ours - printed) <= 5e-7 * max(1.0, abs(ours)) + 1e-12


def same_ripper_rules(ours: list, keel_rules: list) -> bool:
    """``KeelRipper.rules_`` equal to a parsed KEEL Ripper rule list (values exact; ``null`` matches any)."""
    if len(ours) != len(keel_rules):
        return False
    for (c1, a1), (c2, a2) in zip(ours, keel_rules):
        if c1 != c2 or len(a1) != len(a2):
            return False
        for (x1, o1, v1), (x2, o2, v2) in zip(a1, a2):
            if x1 != x2 or o1 != o2 or (v2 is not None and v1 != v2):
                return False
    return True


def same_furia_rules(ours: list, keel_rules: list) -> bool:
    """``FURIA.rules_`` equal to a parsed KEEL FURIA rule list up to KEEL's printed precision."""
    if len(ours) != len(keel_rules):
        return False
    for (c1, cf1, a1), (c2, cf2, a2) in zip(ours, keel_rules):
        if c1 != c2 or len(a1) != len(a2):
            return False
        if not math.isnan(cf1) and abs(math.floor(100.0 * cf1 + 0.5) / 100.0 - cf2) > 1e-9:   # Math.round
            return False
        for (x1, o1, v1, b1), (x2, o2, v2, b2) in zip(a1, a2):
            if x1 != x2 or o1 != o2 or not _close(v1, v2):
                return False
            if (b2 is None) != math.isnan(b1) or (b2 is not None and not _close(b1, b2)):
                return False
    return True
