"""The shape shared by the five studies: one registry of ids, one verdict type, one overview."""
import json

import pandas as pd
import pytest

from cvrepro.profiles import study_parameters
from cvrepro.reporting import OVERVIEW_END, OVERVIEW_START, record_run, write_overview
from cvrepro.studies import STUDIES, STUDY_IDS, get_study, load_study
from cvrepro.verdicts import (
    DOES_NOT_HOLD,
    HOLDS,
    PARTLY,
    UNDECIDED,
    Claim,
    claims_table,
    from_fraction,
    summary_sentence,
)


def test_one_id_per_study_names_module_notebook_and_figures():
    assert STUDY_IDS == ("raeder2010", "moreno_torres2012", "vanwinckelen2012", "japkowicz2011", "scheffer1997")
    assert [s.number for s in STUDIES.values()] == [1, 2, 3, 4, 5]
    raeder = get_study("raeder2010")
    assert raeder.notebook == "01_raeder2010_variability" and raeder.figures == "raeder2010"
    assert load_study("raeder2010").__name__ == "cvrepro.studies.raeder2010"
    with pytest.raises(ValueError, match="unknown study 'raeder'.*raeder2010"):
        get_study("raeder")


def test_verdicts_from_fractions():
    assert from_fraction(1.0) == HOLDS
    assert from_fraction(0.8) == PARTLY and from_fraction(0.8, holds_at=0.75) == HOLDS
    assert from_fraction(0.2) == DOES_NOT_HOLD
    assert from_fraction(float("nan")) == UNDECIDED
    with pytest.raises(ValueError, match="fraction must lie in"):
        from_fraction(1.5)


def test_a_claim_needs_a_known_verdict_and_evidence():
    with pytest.raises(ValueError, match="verdict must be one of"):
        Claim("x", "Table I", "true", "because")
    with pytest.raises(ValueError, match="has no evidence"):
        Claim("x", "Table I", HOLDS, "")
    table = claims_table([Claim("a", "T1", HOLDS, "3 of 3"), Claim("b", "T2", UNDECIDED, "capped")])
    assert list(table.columns) == ["claim", "where", "verdict", "evidence"]
    assert summary_sentence(table) == "Of 2 claims checked, 1 holds, 1 is undecided."


def test_overview_lists_each_study_run_and_its_claims_beside_the_published_scale(tmp_path):
    figures = tmp_path / "figures"
    claims = claims_table([Claim("2-fold is pessimistic", "Table I", HOLDS, "6 of 6 learners"),
                           Claim("settles by 100", "Figure 1", UNDECIDED, "capped at 20 iterations")])
    record_run(figures / "raeder2010", "raeder2010", "quick", claims, params={})
    assert json.loads((figures / "raeder2010" / "run.json").read_text())["profile"] == "quick"
    assert pd.read_csv(figures / "raeder2010" / "claims.csv").verdict.tolist() == [HOLDS, UNDECIDED]
    readme = tmp_path / "README.md"
    readme.write_text(f"intro\n{OVERVIEW_START}\nstale table\n{OVERVIEW_END}\nend\n")
    text = write_overview(figures, readme)
    assert "| 2-fold is pessimistic | Table I | **holds** |" in text
    assert "01_raeder2010_variability | Of 2 claims checked, 1 holds, 1 is undecided. (quick) | not run |" in text
    assert "05_scheffer1997_parameter_channel | not run | not run |" in text
    paper = claims_table([Claim("2-fold is pessimistic", "Table I", HOLDS, "6 of 6 learners"),
                          Claim("settles by 100", "Figure 1", DOES_NOT_HOLD, "settles after 180")])
    record_run(figures / "paper" / "raeder2010", "raeder2010", "paper", paper, params={})
    text = write_overview(figures, readme)
    assert ("01_raeder2010_variability | Of 2 claims checked, 1 holds, 1 is undecided. (quick) | "
            "Of 2 claims checked, 1 holds, 1 does not hold. (paper) |") in text
    assert "| settles by 100 | Figure 1 | **undecided** | **does not hold** |" in text
    # a part of the paper design (a run still computing the rest) says so; the whole design does not
    part = {**study_parameters("raeder2010", "paper"), "learners": ["NB", "C4.5"]}
    record_run(figures / "paper" / "raeder2010", "raeder2010", "paper", paper, params=part)
    assert "1 does not hold. (paper, part: 2 of 6 learners) |" in write_overview(figures, readme)
    record_run(figures / "paper" / "raeder2010", "raeder2010", "paper", paper,
               params=study_parameters("raeder2010", "paper"))
    text = write_overview(figures, readme)
    assert "1 does not hold. (paper) |" in text
    body = readme.read_text()
    assert body.startswith("intro\n") and body.endswith("end\n") and "stale table" not in body
    assert (figures / "README.md").read_text() == text
