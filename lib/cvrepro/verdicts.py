"""One verdict type for every study's claims.

A study checks each claim of its paper on our results and says whether it
*holds*, holds *partly*, *does not hold*, or is *undecided* (the run is too
small, or the evidence it would compare is capped or trivial at this scale).
Each verdict carries its evidence as a sentence with the numbers that decide
it, so a reader can check the judgement, and the collection overview
(``figures/README.md``) can list every claim of every study.
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import asdict, dataclass

import pandas as pd

__all__ = ["HOLDS", "PARTLY", "DOES_NOT_HOLD", "UNDECIDED", "VERDICTS", "Claim", "from_fraction",
           "fraction_claim", "from_interval", "from_parts", "claims_table", "summary_sentence", "changes"]

HOLDS, PARTLY, DOES_NOT_HOLD, UNDECIDED = "holds", "partly", "does not hold", "undecided"
VERDICTS = (HOLDS, PARTLY, DOES_NOT_HOLD, UNDECIDED)
COLUMNS = ["claim", "where", "verdict", "evidence"]


@dataclass(frozen=True)
class Claim:
    """A claim of the paper (in our words), where the paper makes it, our verdict and its evidence."""

    claim: str
    where: str
    verdict: str
    evidence: str

    def __post_init__(self):
        if self.verdict not in VERDICTS:
            raise ValueError(f"verdict must be one of {VERDICTS}, got {self.verdict!r}")
        if not self.evidence:
            raise ValueError(f"claim {self.claim!r} has no evidence; say what decides the verdict")


def from_fraction(fraction: float, holds_at: float = 1.0, partly_at: float = 0.5) -> str:
    """Verdict from the share of cases that agree with a claim.

    ``holds`` from ``holds_at`` (1 for claims about "every" case, less for
    "tends to" claims), ``partly`` from ``partly_at``, else ``does not hold``;
    NaN (no case to judge) is ``undecided``.
    """
    if fraction != fraction:
        return UNDECIDED
    if not 0.0 <= fraction <= 1.0:
        raise ValueError(f"fraction must lie in [0, 1], got {fraction}")
    if fraction >= holds_at - 1e-9:
        return HOLDS
    return PARTLY if fraction >= partly_at - 1e-9 else DOES_NOT_HOLD


def fraction_claim(claim: str, where: str, fraction: float, evidence: str, holds_at: float = 1.0,
                   partly_at: float = 0.5, undecided: str | None = None) -> Claim:
    """A claim judged from the share of cases that agree (:func:`from_fraction`); ``undecided`` (a reason)
    overrides, and comes first in the evidence."""
    if undecided:
        return Claim(claim, where, UNDECIDED, f"{undecided}. {evidence}")
    return Claim(claim, where, from_fraction(fraction, holds_at, partly_at), evidence)


def from_interval(lo: float, hi: float, margin: float = 0.0) -> str:
    """An effect claimed to exceed ``margin``: holds when the whole 95% interval does, does not hold
    when none of it does, undecided when the interval cannot separate the effect from the margin."""
    return HOLDS if lo > margin else DOES_NOT_HOLD if hi <= margin else UNDECIDED


def from_parts(verdicts: Iterable[str]) -> str:
    """Several parts of one claim: holds (does not hold) when every part does; partly when some
    parts hold and some do not; undecided when a part is undecided and none contradicts another."""
    v = set(verdicts)
    if len(v) == 1:
        return v.pop()
    return PARTLY if {HOLDS, DOES_NOT_HOLD} <= v else UNDECIDED


def claims_table(claims: Iterable[Claim]) -> pd.DataFrame:
    """The claims as a tidy table: claim, where, verdict, evidence."""
    return pd.DataFrame([asdict(c) for c in claims], columns=COLUMNS)


def summary_sentence(table: pd.DataFrame) -> str:
    """One sentence counting the verdicts, e.g. for a notebook's conclusion."""
    if table.empty:
        return "No claim was checked."
    counts = table["verdict"].value_counts()
    forms = {HOLDS: ("holds", "hold"), PARTLY: ("holds partly", "hold partly"),
             DOES_NOT_HOLD: ("does not hold", "do not hold"), UNDECIDED: ("is undecided", "are undecided")}
    parts = [f"{counts[v]} {forms[v][int(counts[v] != 1)]}" for v in VERDICTS if v in counts]
    claims = "claim" if len(table) == 1 else "claims"
    return f"Of {len(table)} {claims} checked, " + ", ".join(parts) + "."


def changes(before: pd.DataFrame, after: pd.DataFrame, names: tuple[str, str] = ("quick", "paper")) -> pd.DataFrame:
    """The claims whose verdict differs between two runs (e.g. the quick and the paper profile), with the
    evidence of each run beside it (the reason: what each scale measured); a claim one run lacks counts as
    changed ("not checked")."""
    a, b = names
    merged = before[COLUMNS].merge(after[COLUMNS], on=["claim", "where"], how="outer", suffixes=(f" {a}", f" {b}"),
                                   sort=False)
    merged = merged.fillna({f"verdict {a}": "not checked", f"verdict {b}": "not checked",
                            f"evidence {a}": "", f"evidence {b}": ""})
    changed = merged[merged[f"verdict {a}"] != merged[f"verdict {b}"]]
    return changed[["claim", "where", f"verdict {a}", f"verdict {b}", f"evidence {a}", f"evidence {b}"]] \
        .reset_index(drop=True)
