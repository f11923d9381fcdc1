"""Scheffer & Herbrich (1997): the parameter channel, on paper and on real learners.

Scheffer, T., & Herbrich, R. (1997). Unbiased assessment of learning
algorithms. IJCAI-97, pp. 798-803.  Tuning a learner's parameters on the test
set turns the parameters into a channel from the test set to the learner: c
labels leaked through it give c - X extra hits, X the hits the honest
hypothesis had on those c objects.  Definitions the code relies on:

- one-shot (Sec. 2): one test set of m objects, X hypergeometric;
- per-fold (Sec. 3): n-fold CV with parameters tuned per fold, the folds'
  gains add up; success is an average of z extra hits per fold;
- fixed (Sec. 4): n-fold CV with one setting for all folds (two classes); at
  each leaked position the majority label over the folds (eq. 14);
- the cost: c x |classes| trials of the greedy search (Sec. 2.2), c x H bits;
- rank: StatLog's convention, 1 + the number of algorithms with a strictly
  higher test success rate (ties share the better rank), so that C4.5 is 10th
  on Landsat and DNA as the paper says;
- unbiased assessment (Sec. 5): nested CV (:mod:`cvrepro.nested`): choose on
  inner folds, assess on outer folds.  The naive protocol reports the best
  setting's mean outer-fold accuracy, i.e. of that setting's models trained on
  the outer training sets; the truth it estimates is those models' accuracy on
  held-out data (the setting refitted on each outer training set, scored on the
  rest of the pool, averaged over the folds): a truth at the training size, so
  that the bias measured is the choice's, not the (n-1)/n training size's.

The formulas live in :mod:`cvrepro.paramchannel`, the printed numbers in
:mod:`cvrepro.published.scheffer1997`; this study puts them side by side,
runs the channel on our C4.5 and measures naive against nested tuning with
the engine (:func:`cvrepro.runner.run_cv`, cached and resumable).

Shared fits (tools/count_fits.py): at ``paper`` 309,962 fits, 291,062 distinct. A setting two
families share (MLP's default is MLP-seed's seed 0) is one engine learner and one truth task. The
held-out truth refits every setting on each pool sample's outer training sets: the outer CV's own
18,900 fits (the engine predicts no held-out rows), 1 in 12 of the pool part's fits, about 0.1
core-hours. The channel is not cached (a rerun redoes its two fits and its orderings).

The study's modules, by concern (this one is its public face: every name the notebook reads):
:mod:`.scheffer1997_design` (data sets, tuned learners, grids, profiles), :mod:`.scheffer1997_runs` (the
procedure: the channel, the naive and nested tuning, the shipped tables), :mod:`.scheffer1997_truths` (the
held-out truths, the task map's task), :mod:`.scheffer1997_benchmarks` (Secs. 2.4-4.1: the formulas beside the
printed numbers), :mod:`.scheffer1997_analysis` (the channel's and the tuning's tables and figures),
:mod:`.scheffer1997_text` (captions and sentences) and :mod:`.scheffer1997_claims` (the claims and verdicts).
"""
from __future__ import annotations

from .scheffer1997_analysis import (
    bias_table,
    channel_summary,
    cost_table,
    estimates_table,
    figure_gain_check,
    figure_parameters_bias,
    figure_ranks,
    figure_settings_bias,
    gain_check,
    greedy_check,
    parameters_bias,
    rank_curves,
    rank_table,
    ranking_effect,
    settings_bias,
    tuning_gain_ranks,
)
from .scheffer1997_benchmarks import (
    CURVES,
    NOTES,
    ROW_CURVES,
    benchmark_table,
    curve_specs,
    effort_curves,
    figure_effort,
    figure_probability,
    hits_for_rank,
    printed_slips,
    probability_curves,
    stated_facts,
    statlog_rank,
)
from .scheffer1997_claims import (
    FORMULA_CHECKS,
    MIN_UNITS,
    NARROW_BITS,
    WIDE_BITS,
    claims,
    claims_sentence,
    conclusion,
)
from .scheffer1997_design import (
    CATALOG_NAMES,
    DEFAULTS,
    ENGINE_LEARNER,
    GRIDS,
    MISSING_DATASETS,
    PAPER_ORDER,
    PARTS,
    QUICK_GRIDS,
    SCALES,
    SMOKE_GRIDS,
    STATLOG_FOLDS,
    STUDY_ID,
    TARGET,
    engine_name,
    family_settings,
    make_setting,
    tuned_keys,
)
from .scheffer1997_runs import (
    ChannelRun,
    TuningRun,
    estimate_core_hours,
    from_tables,
    recompute_slice,
    run,
    run_channel,
    run_tuning,
    to_tables,
)
from .scheffer1997_text import (
    BIAS_CAPTION,
    bias_note,
    captioned_settings_bias,
    captioned_statlog,
    captioned_tuning_design,
    describe_benchmarks,
    describe_channel,
    describe_cost,
    describe_effort,
    describe_facts,
    describe_parameters_bias,
    describe_probability,
    describe_profile,
    describe_ranking,
    describe_ranks,
    describe_settings_bias,
    describe_tuning,
    gain_check_note,
    labels_for_target,
)
from .scheffer1997_truths import (
    truth_at_training_size,
    truths,
)

__all__ = [
    "BIAS_CAPTION", "CATALOG_NAMES", "CURVES", "ChannelRun", "DEFAULTS", "ENGINE_LEARNER", "FORMULA_CHECKS",
    "GRIDS", "MIN_UNITS", "MISSING_DATASETS", "NARROW_BITS", "NOTES", "PAPER_ORDER", "PARTS", "QUICK_GRIDS",
    "ROW_CURVES", "SCALES", "SMOKE_GRIDS", "STATLOG_FOLDS", "STUDY_ID", "TARGET", "TuningRun", "WIDE_BITS",
    "benchmark_table", "bias_note", "bias_table", "captioned_settings_bias", "captioned_statlog",
    "captioned_tuning_design", "channel_summary", "claims", "claims_sentence", "conclusion",
    "cost_table", "curve_specs", "describe_benchmarks", "describe_channel", "describe_cost", "describe_effort",
    "describe_facts", "describe_parameters_bias", "describe_probability", "describe_profile", "describe_ranking",
    "describe_ranks", "describe_settings_bias", "describe_tuning", "effort_curves", "engine_name",
    "estimate_core_hours", "estimates_table", "family_settings", "figure_effort", "figure_gain_check",
    "figure_parameters_bias", "figure_probability", "figure_ranks", "figure_settings_bias", "from_tables",
    "gain_check", "gain_check_note", "greedy_check", "hits_for_rank", "labels_for_target", "make_setting",
    "parameters_bias", "printed_slips", "probability_curves", "rank_curves", "rank_table",
    "ranking_effect", "recompute_slice", "run", "run_channel", "run_tuning", "settings_bias",
    "stated_facts", "statlog_rank", "to_tables", "truth_at_training_size", "truths", "tuned_keys",
    "tuning_gain_ranks",
]
