"""Two learners over many data sets: Bayesian signed-rank and sign tests.

Benavoli, Corani, Mangili, Zaffalon & Ruggeri (2014, ICML), "A Bayesian
Wilcoxon signed-rank test based on the Dirichlet process", and Benavoli,
Corani, Demsar & Zaffalon (2017, JMLR 18) with a region of practical
equivalence (rope). The posteriors are baycomp's (pinned 1.0.3:
``SignedRankTest``, prior strength 0.5 on a pseudo-observation at 0;
``SignTest``, prior strength 1 on the rope), sampled with a fixed seed so that
a result is reproducible; the plots are baycomp's (a simplex with the rope, a
histogram without). Here ``scores_a``, ``scores_b`` hold one mean score per
data set, higher is better.
"""
from dataclasses import dataclass

import baycomp

from ._checks import paired

__all__ = ["BayesianAcrossResult", "bayesian_signed_rank", "bayesian_sign"]


@dataclass(frozen=True)
class BayesianAcrossResult:
    """Posterior probabilities that a is better by more than ``rope``, that the two are practically
    equivalent, and that b is better; ``test``: "signed-rank" or "sign"; ``posterior``: baycomp's."""
    p_a_better: float
    p_rope: float
    p_b_better: float
    rope: float
    test: str
    posterior: object

    def plot(self, names=("a", "b")):
        """baycomp's figure of the posterior (names: the two learners, a first)."""
        return self.posterior.plot(names=list(names))


def _run(test, name, scores_a, scores_b, rope, nsamples, seed):
    a, b = paired(scores_a, scores_b)
    if not rope >= 0:
        raise ValueError(f"rope must be a number >= 0, got {rope}")
    posterior = test(a, b, rope=rope, nsamples=nsamples, random_state=seed)
    p_a, p_rope, p_b = (float(p) for p in posterior.probs())
    return BayesianAcrossResult(p_a, p_rope, p_b, float(rope), name, posterior)


def bayesian_signed_rank(scores_a, scores_b, rope=0.01, nsamples=50000, seed=0):
    """Bayesian signed-rank test of a against b over data sets (baycomp ``SignedRankTest``)."""
    return _run(baycomp.SignedRankTest, "signed-rank", scores_a, scores_b, rope, nsamples, seed)


def bayesian_sign(scores_a, scores_b, rope=0.01, nsamples=50000, seed=0):
    """Bayesian sign test of a against b over data sets (baycomp ``SignTest``)."""
    return _run(baycomp.SignTest, "sign", scores_a, scores_b, rope, nsamples, seed)
