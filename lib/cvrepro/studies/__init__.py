"""The five studies: one registry, one shape.

Each study has one id, used everywhere the study appears: its module here
(``cvrepro.studies.<id>``), its published numbers (``cvrepro.published.<id>``),
its profile key, its notebook (``notebooks/NN_<id>_<topic>.py``, paired with
the ``.ipynb``), its figures folder (``figures/<id>/``), its test file
(``tests/test_study_<id>.py``) and its tag in the data catalog.

A study module has, in this order:

- a docstring with the citation and the definitions the code relies on;
- a declarative design: the paper's data sets (by the paper's names, with what
  stands in for each and why), learners, partitioners, folds, seeds and
  iteration counts, as module constants;
- ``SCALES``: for each profile (``smoke``, ``quick``, ``paper``), how the
  profile scales the design up or down; profiles never redefine it;
- ``run(params, store=None, n_jobs=1, backend="loky", progress=True)``: the
  one entry point that runs the experiments of a profile, and the only place
  that calls the engine for the study;
- ``table_*`` and ``figure_*`` functions, from tidy tables to tidy tables and
  drawings;
- ``claims(...)``: every claim of the paper checked on our results, built from
  :class:`cvrepro.verdicts.Claim`.

A large study splits by concern into sibling modules ``<id>_*.py`` (japkowicz2011: ``_runs``, the design
and procedure; ``_simulation``; ``_analysis``, tables and figures; ``_text``, claims and sentences;
raeder2010 and moreno_torres2012: ``_design``, ``_runs``, ``_tables``, ``_figures``, ``_text``, ``_claims``;
scheffer1997 and vanwinckelen2012: ``_design``, ``_runs``, the task map's own module (``_truths``,
``_conditional``), tables and figures by section, ``_text`` and ``_claims``); then
``cvrepro.studies.<id>`` re-exports what its notebook reads. The task map keys a task by its module's
source, so a procedure kept apart from the text is not recomputed when a sentence changes.

This package's ``__init__`` imports no study module, so the catalog, the
learners and the profiles can import the registry without import cycles.
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType

__all__ = ["Study", "STUDIES", "STUDY_IDS", "get_study", "load_study"]


@dataclass(frozen=True)
class Study:
    """One reproduced paper: its id and where its parts live."""

    id: str
    number: int
    title: str
    citation: str
    topic: str

    @property
    def notebook(self) -> str:
        """The notebook's name, without extension (also the ``make`` target)."""
        return f"{self.number:02d}_{self.id}_{self.topic}"

    @property
    def figures(self) -> str:
        """The folder, under ``figures/``, that the notebook writes into."""
        return self.id


STUDIES: dict[str, Study] = {s.id: s for s in (
    Study("raeder2010", 1, "Consequences of variability in classifier performance estimates",
          "Raeder, T., Hoens, T. R., & Chawla, N. V. (2010). Consequences of variability in classifier "
          "performance estimates. In Proceedings of the 10th IEEE International Conference on Data Mining "
          "(ICDM 2010), pp. 421-430. doi:10.1109/ICDM.2010.110",
          "variability"),
    Study("moreno_torres2012", 2, "Study on the impact of partition-induced dataset shift on k-fold "
          "cross-validation",
          "Moreno-Torres, J. G., Saez, J. A., & Herrera, F. (2012). Study on the impact of partition-induced "
          "dataset shift on k-fold cross-validation. IEEE Transactions on Neural Networks and Learning "
          "Systems, 23(8), 1304-1312. doi:10.1109/TNNLS.2012.2199516",
          "covariate_shift"),
    Study("vanwinckelen2012", 3, "Look before you leap: some insights into learner evaluation with "
          "cross-validation",
          "Vanwinckelen, G., & Blockeel, H. (2015). Look before you leap: some insights into learner "
          "evaluation with cross-validation. In Proceedings of the Workshop on Statistically Sound Data "
          "Mining at ECML/PKDD 2014, PMLR 47, pp. 3-20. Extended version of: On estimating model accuracy "
          "with repeated cross-validation, in Proceedings of the 21st Belgian-Dutch Conference on Machine "
          "Learning (BeneLearn 2012), pp. 39-44.",
          "conditional_error"),
    Study("japkowicz2011", 4, "Evaluating learning algorithms: a classification perspective (tutorial)",
          "Japkowicz, N., & Shah, M. (2011). Evaluating Learning Algorithms: A Classification Perspective. "
          "Cambridge University Press. The tutorial based on the book: Japkowicz, N., Performance "
          "evaluation for learning algorithms: techniques, application and issues.",
          "evaluation_tutorial"),
    Study("scheffer1997", 5, "Unbiased assessment of learning algorithms",
          "Scheffer, T., & Herbrich, R. (1997). Unbiased assessment of learning algorithms. In Proceedings "
          "of the 15th International Joint Conference on Artificial Intelligence (IJCAI-97), pp. 798-803.",
          "parameter_channel"),
)}
STUDY_IDS: tuple[str, ...] = tuple(STUDIES)


def get_study(study_id: str) -> Study:
    """The registry entry of ``study_id``; an unknown id lists the valid ones."""
    if not isinstance(study_id, str):
        raise TypeError(f"study id must be a string, got {type(study_id).__name__}: {study_id!r}")
    try:
        return STUDIES[study_id]
    except KeyError:
        raise ValueError(f"unknown study {study_id!r}; studies are: {', '.join(STUDY_IDS)}") from None


def load_study(study_id: str) -> ModuleType:
    """The study's module, ``cvrepro.studies.<id>``."""
    return importlib.import_module(f"{__name__}.{get_study(study_id).id}")
