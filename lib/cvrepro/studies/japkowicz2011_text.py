"""Japkowicz & Shah (2011): the claims judged on the results, the sentences and captions the notebook shows.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..drift import CLASSES, SCENARIOS, FluDomain
from ..reporting import Captioned
from ..stats import friedman_test, nemenyi_test
from ..verdicts import DOES_NOT_HOLD, HOLDS, PARTLY, UNDECIDED, Claim, claims_table, from_fraction, summary_sentence
from .japkowicz2011_analysis import (
    D_POOLED,
    MEASURE_NAMES,
    NEAR_ALPHA,
    TEST_COMPARISONS,
    TUTORIAL_TTEST,
    bootstrap_claim,
    equal_variance,
    figure_cd,
    figure_roc_cost,
    figure_visualization,
    poor_ideal_fits,
    printed_match,
    rank_measures,
    variance_claim,
)
from .japkowicz2011_runs import (
    EIGHT,
    FLU_LEARNERS,
    FLU_PAIRS,
    LEARNERS,
    NB_DEFAULT_MEASURED,
    NB_DISCRETIZED,
    NB_DISCRETIZED_MEASURED,
    SIGN_DOMAINS,
    SIGN_LEARNERS,
    Results,
    make_learner_for,
    runs_name,
    status_of,
)

# --------------------------------------------------------------------------- the simulation

def type_one_claim(sim: pd.DataFrame, alpha: float = 0.05) -> Claim:
    """"Overlapping folds make too many type I errors; 5x2cv keeps them near alpha", from
    :func:`simulation_table`: the naive 10 x 10 t-test's Wilson interval above alpha, and each 5x2cv test's
    below :data:`NEAR_ALPHA` x alpha (not merely reaching down to alpha)."""
    null = sim[sim["kind"] == "type I error"].set_index("test")
    naive = null.loc["t-test, 10 x 10 folds (naive)"]
    five = null.loc[["5x2cv t-test", "5x2cv F-test"]]
    corrected = null.loc["corrected t-test, 10 x 10"]
    m = int(naive["replications"])
    decided = m >= 100
    near = (five["ci high"] <= NEAR_ALPHA * alpha).all()
    above = (five["ci low"] > alpha).any()
    parts = ["as stated" if naive["ci low"] > alpha else "opposite" if naive["ci high"] < alpha else "unresolved",
             "as stated" if near else "opposite" if above else "unresolved"]
    return Claim("t-tests on overlapping cross-validation folds make too many type I errors; the 5x2cv "
                 "t- and F-tests keep them near alpha", "Repeated k-fold cross-validation",
                 _combine(parts) if decided else UNDECIDED,
                 f"type I error at alpha {alpha} over {m} data sets (95 % Wilson intervals): naive 10 x 10 t "
                 f"{naive['rejection rate']:.3f} [{naive['ci low']:.3f}, {naive['ci high']:.3f}], "
                 f"10-fold t {null.loc['t-test, 10 folds (df 9)', 'rejection rate']:.3f}, corrected 10 x 10 "
                 f"{corrected['rejection rate']:.3f}, " + ", ".join(
                     f"{t} {r['rejection rate']:.3f} [{r['ci low']:.3f}, {r['ci high']:.3f}]"
                     for t, r in five.iterrows())
                 + f"; 'near alpha' needs the interval below {NEAR_ALPHA:g} alpha ("
                 + ("shown" if near else "significantly above alpha" if above else "not shown at this scale")
                 + ")" + ("" if decided else " (fewer than 100 simulated data sets: undecided)"))


def _combine(readings: list) -> str:
    """A claim of several parts, each "as stated", "opposite" or "unresolved": holds when every part reads as
    stated, partly when some do, undecided when none is resolved, else does not hold."""
    if all(r == "as stated" for r in readings):
        return HOLDS
    if "as stated" in readings:
        return PARTLY
    return UNDECIDED if all(r == "unresolved" for r in readings) else DOES_NOT_HOLD


def comparison_claims(comparisons: pd.DataFrame, decided: bool) -> list:
    """One claim per :data:`TEST_COMPARISONS` entry, its parts combined by :func:`_combine`."""
    out = []
    for who, statement, _, _ in TEST_COMPARISONS:
        g = comparisons[comparisons.who == who]
        verdict = _combine(list(g.reading)) if decided else UNDECIDED
        out.append(Claim(f"{statement} ({who})", "Repeated k-fold cross-validation", verdict, "; ".join(
            f"{r.quantity} of {r.a} minus {r.b} (stated {r.stated}): {r['a - b']:+.3f} ± {r['±']:.3f} over "
            f"{r['data sets']} data sets, {r.reading}" for _, r in g.iterrows())
            + ("" if decided else " (fewer than 100 simulated data sets: undecided)")))
    return out


# --------------------------------------------------------------------------- claims

def claims(ours: pd.DataFrame, examples: pd.DataFrame, lab: dict, printed_tests: pd.DataFrame,
           our_tests: pd.DataFrame | None, friedman: dict, sim: pd.DataFrame, resampling_estimates: pd.DataFrame,
           roc_cost: dict, vis: dict, flu: pd.DataFrame, alpha: float = 0.05,
           boot_truth: pd.DataFrame | None = None, comparisons: pd.DataFrame | None = None) -> pd.DataFrame:
    """Every claim of the tutorial checked on our results (``boot_truth``: :func:`boot_truth_table`;
    ``comparisons``: :func:`compare_tests`)."""
    return claims_table(_measure_claims(ours, examples) + _labour_claims(lab, alpha)
                        + _domain_claims(printed_tests, our_tests, friedman, alpha)
                        + _resampling_claims(sim, resampling_estimates, boot_truth, comparisons, alpha)
                        + _cost_claim(roc_cost) + _visualization_claims(vis) + flu_claims(flu))


def _measure_claims(ours, examples) -> list:
    """Claims 1-4: the measures disagree; the worked examples."""
    out = []
    eight = ours[ours.Algo.isin(EIGHT)]
    ranks = rank_measures(eight).set_index("Algo")
    winners = {m: sorted(ranks.index[ranks[m] == 1]) for m in MEASURE_NAMES.values()}
    distinct = {w for ws in winners.values() for w in ws}
    rho = ranks.corr(method="spearman").to_numpy()[np.triu_indices(len(MEASURE_NAMES), 1)]
    out.append(Claim("the measures rank the eight classifiers differently (almost as many answers as measures)",
                     "Which classifier is better?", HOLDS if len(distinct) >= 3 else PARTLY if len(distinct) == 2
                     else DOES_NOT_HOLD,
                     f"{len(distinct)} different classifiers rank first under the 9 measures ("
                     + "; ".join(f"{m}: {', '.join(w)}" for m, w in winners.items())
                     + f"); Spearman correlations between the measures' rankings range {rho.min():.2f} "
                     f"to {rho.max():.2f}"))
    # 2-4. the worked examples
    ex = examples.set_index(["example", "quantity"])["ours"]
    sixty = "two 60 % classifiers"
    same_acc = np.isclose(ex[(sixty, "left: accuracy")], ex[(sixty, "right: accuracy")])
    opposite = (ex[(sixty, "left: positive recognition (TPR)")]
                < ex[(sixty, "left: negative recognition (TNR)")]) and \
               (ex[(sixty, "right: positive recognition (TPR)")]
                > ex[(sixty, "right: negative recognition (TNR)")])
    out.append(Claim("two classifiers of equal accuracy (60 %) behave very differently", "Issues with Accuracy",
                     HOLDS if same_acc and opposite else DOES_NOT_HOLD,
                     f"accuracies {ex[(sixty, 'left: accuracy')]:.2f} and "
                     f"{ex[(sixty, 'right: accuracy')]:.2f}; TPR / TNR "
                     f"{ex[(sixty, 'left: positive recognition (TPR)')]:.1f} / "
                     f"{ex[(sixty, 'left: negative recognition (TNR)')]:.1f} against "
                     f"{ex[(sixty, 'right: positive recognition (TPR)')]:.1f} / "
                     f"{ex[(sixty, 'right: negative recognition (TNR)')]:.1f}"))
    k = "same precision and recall"
    same_pr = np.isclose(ex[(k, "left: precision")], ex[(k, "right: precision")]) and \
        np.isclose(ex[(k, "left: recall")], ex[(k, "right: recall")])
    acc_sees = not np.isclose(ex[(k, "left: accuracy")], ex[(k, "right: accuracy")])
    out.append(Claim("equal precision and recall can hide opposite negative recognition, which accuracy catches",
                     "Issues with Precision/Recall", HOLDS if same_pr and acc_sees else DOES_NOT_HOLD,
                     f"precision {ex[(k, 'left: precision')]:.3f} = {ex[(k, 'right: precision')]:.3f}, recall "
                     f"{ex[(k, 'left: recall')]:.2f} = {ex[(k, 'right: recall')]:.2f}; TNR "
                     f"{ex[(k, 'left: negative recognition (TNR)')]:.2f} vs "
                     f"{ex[(k, 'right: negative recognition (TNR)')]:.2f}; accuracy "
                     f"{ex[(k, 'left: accuracy')]:.3f} vs {ex[(k, 'right: accuracy')]:.3f}"))
    kap, p0 = ex[("Cohen's kappa", "kappa")], ex[("Cohen's kappa", "P0 (accuracy)")]
    gap = (eight["Acc"] / 100 - eight["kappa"])
    out.append(Claim("accuracy is overly optimistic against chance-corrected kappa", "Cohen's Kappa Measure",
                     HOLDS if kap < p0 and (gap > 0).all() else PARTLY if kap < p0 else DOES_NOT_HOLD,
                     f"example: accuracy {p0:.1%}, kappa {kap:.2%} (printed 43.29 %); on Breast Cancer accuracy "
                     f"exceeds kappa by {gap.min():.2f} to {gap.max():.2f} for all eight classifiers"))
    info = examples[(examples.example == "information score")].set_index("quantity")
    out.append(Claim("the information-score example averages to 0.40 bits", "Information Score", DOES_NOT_HOLD,
                     f"Kononenko & Bratko's definition gives {info.loc['ISavg (Kononenko & Bratko)', 'ours']:.2f} "
                     f"(x4 scores {info.loc['IS(x4)', 'ours']:.2f}: a loss); 0.40 is the mean of the unsigned scores"))
    return out


def _labour_claims(lab, alpha) -> list:
    """Claims 5-6: the t-test on Labour, its assumptions, McNemar."""
    out = []
    tests = lab["tests"].set_index("test")
    t_row = tests.loc[TUTORIAL_TTEST]
    out.append(Claim("C4.5 and NB differ on Labour at the 0.001 level (paired t-test, df = 9)", "The t-test",
                     HOLDS if t_row["pvalue"] < 0.001 else PARTLY if t_row["pvalue"] < alpha else DOES_NOT_HOLD,
                     f"t = {t_row['statistic']:.2f}, df = {t_row['df']:.0f}, p = {t_row['pvalue']:.2g} over "
                     f"{t_row['on']}; over the 10 folds of run 1: t = "
                     f"{tests.loc['paired t-test', 'statistic']:.2f}, p = {tests.loc['paired t-test', 'pvalue']:.2g}; "
                     f"corrected 10 x 10: p = {tests.loc['corrected repeated k-fold t-test', 'pvalue']:.2g}"))
    out.append(variance_claim(lab, alpha))
    mc = tests.loc["McNemar (exact)"]
    out.append(Claim("McNemar's test is the better test here (and agrees with the t-test's verdict)",
                     "Assumptions of the t-test", HOLDS if mc["pvalue"] < alpha and t_row["pvalue"] < alpha
                     else PARTLY if mc["pvalue"] < alpha or t_row["pvalue"] < alpha else DOES_NOT_HOLD,
                     f"McNemar exact p = {mc['pvalue']:.2g} ({mc['note']}); t-test p = {t_row['pvalue']:.2g}"))
    return out


def _domain_claims(printed_tests, our_tests, friedman, alpha) -> list:
    """Claims 7-10: the printed two-domain tests, our re-run of them, Friedman and Nemenyi."""
    out = []
    pt = printed_tests
    verdicts = pt[pt.quantity.str.startswith("rejected")]
    agree = pt["agrees"].dropna()
    slips = pt[pt["agrees"].eq(False)]
    out.append(Claim("sign test: NB vs SVM not significant, RF significantly better than AdaBoost; Wilcoxon: "
                     "NB vs SVM not significant (the printed accuracies)", "Sign test, Wilcoxon's test",
                     HOLDS if verdicts["agrees"].all() else PARTLY if verdicts["agrees"].any() else DOES_NOT_HOLD,
                     f"the {len(verdicts)} verdicts recomputed from the printed table: "
                     + ", ".join("as printed" if v else "not as printed" for v in verdicts["agrees"])
                     + f"; {int(agree.sum())} of {len(agree)} printed quantities agree"
                     + ("; differing: " + "; ".join(f"{r.test} {r.quantity}: ours {r.ours:g}, printed {r.printed:g}"
                                                    for r in slips.itertuples()) if len(slips) else "")))
    if our_tests is not None and len(our_tests):
        ot = our_tests.set_index("pair")
        nbsvm, adarf = ot.loc["NB vs SVM"], ot.loc["Adaboost vs Rand Forest"]
        same = [not nbsvm["sign rejects"], not nbsvm["wilcoxon rejects"], bool(adarf["sign rejects"])
                and adarf["wins b"] > adarf["wins a"]]
        out.append(Claim("the same verdicts on our re-run of the ten domains", "Sign test, Wilcoxon's test",
                         from_fraction(float(np.mean(same))) if nbsvm["domains"] >= 6 else UNDECIDED,
                         f"{int(nbsvm['domains'])} domains; NB vs SVM: sign {nbsvm['wins a']:g} / {nbsvm['wins b']:g} "
                         f"(w0.05 = {nbsvm['w0.05 (normal)']}), Wilcoxon T = {nbsvm['T']:g} (V = {nbsvm['V']}); "
                         f"AdaBoost vs RF: {adarf['wins a']:g} / {adarf['wins b']:g}"
                         + ("" if nbsvm["domains"] >= 6 else " (too few domains at this profile)")))
    # 10. Friedman / Nemenyi
    fr, ne = friedman["friedman"], friedman["nemenyi"]
    pairs = friedman["pairs"].set_index("pair")
    expected = {"fA vs fB": True, "fB vs fC": True, "fA vs fC": False}
    ok = fr.pvalue < alpha and all(pairs.loc[p, "significant"] == v for p, v in expected.items())
    out.append(Claim("Friedman rejects equal performance of fA, fB, fC; Nemenyi separates fB from fA and fC",
                     "Friedman's test, the Nemenyi test",
                     HOLDS if ok else PARTLY if fr.pvalue < alpha else DOES_NOT_HOLD,
                     f"rank sums {', '.join(f'{v:g}' for v in fr.rank_sums)} (printed 15.5 / 30 / 14.5), "
                     f"chi2 = {fr.statistic:.2f}, p = {fr.pvalue:.2g}; CD = {ne.critical_difference:.3f}; "
                     + ", ".join(f"{p}: {'significant' if r['significant'] else 'not'} (d = {r[D_POOLED]:.1f})"
                                 for p, r in pairs.iterrows())))
    return out


def _resampling_claims(sim, resampling_estimates, boot_truth, comparisons, alpha) -> list:
    """Claims 11-13: the simulation, the bootstrap, the permutation test."""
    out = []
    out.append(type_one_claim(sim, alpha))
    decided = int(sim["replications"].min()) >= 100
    if comparisons is not None and len(comparisons):
        out += comparison_claims(comparisons, decided)
    if len(resampling_estimates):
        r = resampling_estimates
        out.append(bootstrap_claim(boot_truth, r))
        perm_sig = (r["permutation p"] < alpha).mean()
        n_perm = int(r["permutations"].min()) if "permutations" in r else None
        capped = n_perm is not None and 1 / (n_perm + 1) >= alpha       # the smallest p it can give
        out.append(Claim("the classifiers' accuracies could not have been obtained on bogus (label-permuted) data",
                         "The Permutation Test", UNDECIDED if capped else from_fraction(perm_sig),
                         (f"{n_perm} permutations cannot give p < {alpha}; " if capped else "") +
                         "; ".join(f"{x['dataset']} {x['classifier']}: {x['accuracy (10-fold)']:.3f} vs "
                                   f"{x['mean accuracy, permuted labels']:.3f} permuted, p = {x['permutation p']:.3g}"
                                   for _, x in r.iterrows())))
    return out


def _cost_claim(roc_cost) -> list:
    """Claim 14: cost curves."""
    out = []
    ranges = roc_cost["ranges"]
    clever = ranges[ranges.winner != "trivial"]
    wins = clever.groupby("winner").apply(lambda g: float((g.pc_to - g.pc_from).sum()), include_groups=False)
    out.append(Claim("ROC curves cross, and cost curves tell for which class probabilities each classifier is "
                     "preferable", "Cost Curves", HOLDS if roc_cost["roc_cross"] and len(wins) == 2 else
                     PARTLY if len(wins) >= 1 else DOES_NOT_HOLD,
                     f"{' and '.join(roc_cost['pair'])} on Breast Cancer: ROC hulls "
                     f"{'cross' if roc_cost['roc_cross'] else 'do not cross'}; winning PC(+) ranges: "
                     + "; ".join(f"{x.winner} {x.pc_from:.2f}-{x.pc_to:.2f}" for x in ranges.itertuples())))
    return out


def _visualization_claims(vis) -> list:
    """Claims 15-16: the visualization framework."""
    out = []
    stand_ins = [lab_ for lab_ in EIGHT if status_of(lab_) != "faithful"]
    if vis.get("binary"):
        t = vis["binary"]["table"].sort_values("distance to Ideal")
        judged = t[~t.name.isin(stand_ins)]
        far = list(judged.name.iloc[-2:])
        order = {"L2": far}
        if vis.get("binary_l1"):
            t1 = vis["binary_l1"]["table"].sort_values("distance to Ideal")
            order["L1"] = list(t1[~t1.name.isin(stand_ins)].name.iloc[-2:])
        out.append(Claim("on Breast Cancer, Labour and Liver together, SVM and NB are the classifiers farthest from "
                         "the ideal one (points 8 and 9)", "Illustration on multiple domains",
                         HOLDS if set(far) == {"SVM", "NB"} else PARTLY if set(far) & {"SVM", "NB"} else DOES_NOT_HOLD,
                         f"farthest{' of the faithful classifiers' if stand_ins else ''}, point 8 then 9 (the slide: "
                         "SVM then NB): " + "; ".join(
                             f"{m}{' (the slides state L2 as their default)' if m == 'L2' else ''} {a} then {b}"
                             + (" (as the slide)" if [a, b] == ["SVM", "NB"] else
                                " (reversed)" if [b, a] == ["SVM", "NB"] else "")
                             for m, (a, b) in order.items()) + "; L2 distances: "
                         + ", ".join(f"{r['name']}{' (stand-in)' if r['name'] in stand_ins else ''} "
                                     f"{r['distance to Ideal']:.1f}" for _, r in t.iterrows())))
    if vis.get("anneal_l2") and vis.get("anneal_l1"):
        d2 = vis["anneal_l2"]["table"].set_index("name")["distance to Ideal"]
        d1 = vis["anneal_l1"]["table"].set_index("name")["distance to Ideal"]
        gap2 = (d2["NB"] - d2["Boost"]) / max(d2["NB"], d2["Boost"])
        gap1 = (d1["Boost"] - d1["NB"]) / max(d1["NB"], d1["Boost"])
        out.append(Claim("on Anneal, NB and AdaBoost are about equally far from the ideal classifier in L2, while "
                         "NB is clearly closer in L1", "Illustration on a multiclass domain",
                         HOLDS if abs(gap2) < 0.1 and gap1 > 3 * abs(gap2) else PARTLY if gap1 > 0 else DOES_NOT_HOLD,
                         f"L2: NB {d2['NB']:.1f}, AdaBoost {d2['Boost']:.1f} (NB {abs(gap2):.0%} "
                         f"{'farther' if gap2 > 0 else 'closer'}); L1: NB {d1['NB']:.0f}, AdaBoost {d1['Boost']:.0f} "
                         f"(NB {abs(gap1):.0%} {'closer' if gap1 > 0 else 'farther'}); holds when the L2 gap is under "
                         "10 % and the L1 gap in NB's favour more than three times as large"))
    return out


FLU_OPEN = "the slides leave the domain open"


def flu_domain_consequences(n: int = 20_000, seed: int = 0) -> dict:
    """What our flu generator decides before any learner runs: the accuracy of the Bayes classifier and of the
    best additive (logistic) model in the one-hot attributes, the simple perceptron's model class, on ``n``
    training and ``n`` test patients of the training population, and how often their decisions agree."""
    from sklearn.linear_model import LogisticRegression

    dom = FluDomain()
    train, test = dom.sample(n, random_state=seed), dom.sample(n, random_state=seed + 1)

    def onehot(f):
        return pd.get_dummies(f.drop(columns="class")).to_numpy(float)

    y_train, y_test = (train["class"] == CLASSES[1]).to_numpy(), (test["class"] == CLASSES[1]).to_numpy()
    bayes = dom.p_normal(*[test[c].cat.codes.to_numpy() for c in ("age", "severity", "health", "social")]) > 0.5
    additive = LogisticRegression(C=100.0, max_iter=2000).fit(onehot(train), y_train).predict(onehot(test))
    return {"bayes accuracy": float(np.mean(bayes == y_test)), "additive accuracy": float(np.mean(additive == y_test)),
            "decisions agree": float(np.mean(additive == bayes)), "n": n}


def flu_domain_note(consequences: dict) -> str:
    """The flu domain's consequences for the slides' claims, with the numbers of :func:`flu_domain_consequences`."""
    c = consequences
    return ("What our generator decides. p(class | x) is logistic in the one-hot attributes but for three "
            "interaction terms, so an additive model, which is what the simple perceptron fits, is nearly right: on "
            f"{c['n']:,} test patients it reaches {c['additive accuracy']:.3f} against the Bayes classifier's "
            f"{c['bayes accuracy']:.3f} and takes the same decision for {c['decisions agree']:.1%} of them. Under "
            "population drift p(class | x) does not change (that is the definition), so a learner that can represent "
            "it barely deteriorates whatever the simplicity; and 1R's one-attribute rule does not look at a removed "
            "age group unless its attribute is age. The slides do not give the domain's numbers, so the claims "
            "comparing simple and complex classifiers (Results I-III and the summary) follow from our choice of "
            f"generator, not from the slides' setting: they are undecided ({FLU_OPEN}); the evidence gives what our "
            "generator says.")


def _pairs_verdict(fractions, holds_at: float) -> str:
    """A claim about both simple / complex pairs: holds if it holds for each pair (share of scenarios
    >= ``holds_at``), does not hold if for neither, partly otherwise."""
    each = [from_fraction(f, holds_at=holds_at, partly_at=holds_at) == HOLDS for f in fractions]
    return HOLDS if all(each) else PARTLY if any(each) else DOES_NOT_HOLD


def flu_claims(flu: pd.DataFrame) -> list:
    """The changing-environments study's claims: undecided, since the slides leave the domain open; the evidence
    gives the verdict on our generator, from the median pD and mean error per scenario and classifier."""
    reps = int(flu["repetition"].nunique())
    per = flu.groupby(["kind", "scenario", "classifier"], sort=False)["pD"].median().unstack("classifier")
    err = flu.groupby(["kind", "scenario", "classifier"], sort=False)["error"].mean().unstack("classifier")
    noise = per.loc[("none", "none")] if ("none", "none") in per.index else None
    few = reps < 3
    tail = f" ({reps} repetition{'s' if reps > 1 else ''}: fewer than 3, undecided)" if few else ""
    out = []
    changed = per.drop(index="none", level=0, errors="ignore")
    drop = (changed[list(FLU_LEARNERS)] > 0).to_numpy().mean()
    out.append(Claim("every kind of change lowers every classifier's performance (pD > 0)", "Results I-III",
                     UNDECIDED if few else from_fraction(drop, holds_at=0.9),
                     f"median pD > 0 in {drop:.0%} of {changed.size} scenario x classifier cells"
                     + ("" if noise is None else "; pD without any change (noise): "
                        + ", ".join(f"{c} {noise[c]:+.2f}" for c in FLU_LEARNERS)) + tail))
    for kind, statement, where in (
            ("population drift", "simpler classifiers suffer much more under population drift", "Results I"),
            ("non-represented", "simpler classifiers suffer slightly more when groups are not represented",
             "Results II"),
            ("class definition", "under a class-definition change simpler classifiers do not necessarily suffer "
             "more (SimpleNN does not, 1R does)", "Results III")):
        if kind not in per.index.get_level_values(0):
            continue
        p = per.loc[kind]
        more = {f"{s_} > {c_}": float((p[s_] > p[c_]).mean()) for s_, c_ in FLU_PAIRS}
        if kind == "class definition":
            oner, nn = p["1R"].mean() > p["DT"].mean(), p["SimpleNN"].mean() <= p["MLP"].mean()
            verdict = HOLDS if oner and nn else PARTLY if oner or nn else DOES_NOT_HOLD
        else:
            verdict = _pairs_verdict(more.values(), holds_at=0.75)
        out.append(Claim(statement, where, UNDECIDED if few else verdict,
                         "median pD of the simple classifier above its complex partner in "
                         + ", ".join(f"{k} {v:.0%}" for k, v in more.items()) + f" of {len(p)} scenarios; mean pD "
                         + ", ".join(f"{c} {p[c].mean():.2f}" for c in FLU_LEARNERS) + tail))
    moved = err.drop(index="none", level=0, errors="ignore")
    better = {f"{c_} <= {s_}": float((moved[c_] <= moved[s_] + 1e-12).mean()) for s_, c_ in FLU_PAIRS}
    out.append(Claim("complex classifiers remain the better choice: lower error than the simple ones in every "
                     "changed environment", "Summary (changing environments)",
                     UNDECIDED if few else _pairs_verdict(better.values(), holds_at=1.0),
                     ", ".join(f"{k} in {v:.0%}" for k, v in better.items()) + f" of {len(moved)} scenarios" + tail))
    return [Claim(c.claim, c.where, UNDECIDED,
                  f"{FLU_OPEN}: on our generator (see flu_domain_note) {c.verdict}: {c.evidence}") for c in out]


# --------------------------------------------------------------------------- sentences and the summary

_WHY = {
    "Bagg": "Bagging's bootstrap bags: WEKA 3.6.9 and later (3.6.14, and ours) draw them by Walker's alias method, "
            "the tutorial's 3.6.x by sorted uniforms; same distribution, other bags for seed 1",
    "RanF": "RandomForest bags as Bagging does (see Bagg), so 3.6.14's forest is another forest; 10 trees as the "
            "tutorial's WEKA",
    "C4.5": "J48's ROC area: WEKA 3.6.14 gives 0.584 for these very predictions (ours equal), the slide .59; the "
            "tutorial's WEKA computed the area otherwise",
}


def _why(label: str) -> str:
    """Why a classifier's printed measures do not come out: a stand-in, or the known WEKA difference."""
    if status_of(label) != "faithful":
        return f"{runs_name(label)} stands in for WEKA's {LEARNERS[label].weka_class.split('.')[-1]}"
    return _WHY.get(label, "not known: see Table 1c for the real WEKA's numbers")


def measures_notes(vs: pd.DataFrame, learners: pd.DataFrame) -> dict:
    """Per classifier whose printed cells do not all come out: which cells, and why (learner or WEKA version)."""
    status = learners.set_index("label")
    notes = {}
    for label, g in vs[~vs.agrees].groupby("classifier", sort=False):
        cells = ", ".join(g.measure)
        if "WEKA 3.6.14" in g and g["WEKA 3.6.14"].notna().all():
            weka_ok = all(printed_match(w, _fmt(p)) or abs(w - p) < 1e-9 for w, p in zip(g["WEKA 3.6.14"], g.printed))
            ours_is_weka = bool(np.allclose(g.ours, g["WEKA 3.6.14"], rtol=0, atol=1e-9))
            who = ("our learner differs from WEKA (the real WEKA gives the printed numbers)" if weka_ok and
                   not ours_is_weka else "WEKA 3.6.14 differs from the tutorial's WEKA (ours equals 3.6.14)"
                   if ours_is_weka else "our learner differs from WEKA 3.6.14, which differs from the slide too")
        else:
            who = ""
        reason = _WHY.get(label, "")
        if label in status.index and status.loc[label, "status"] != "faithful":
            reason = f"{status.loc[label, 'runs']} is a stand-in ({status.loc[label, 'note']})"
        notes[label] = f"{cells} differ; " + "; ".join(x for x in (who, reason) if x) + "."
    return notes


def _fmt(value: float) -> str:
    return f"{value:g}"


def labor_note(lab: dict, alpha: float) -> str:
    """The Labour section's interpretation, from its tables."""
    t = lab["tests"].set_index("test")
    chk = lab["checks"]
    per_fold = chk[chk.scores == "per-fold accuracy"]
    run_eq, fold_eq = equal_variance(lab, "per-run accuracy"), equal_variance(lab, "per-fold accuracy")
    normal = per_fold[per_fold.check.str.startswith("normality")].set_index("of")["pvalue"]
    a, b = lab["pair"]
    tt = t.loc[TUTORIAL_TTEST]
    return (f"The tutorial's t-test: t = {tt.statistic:.2f}, df = {tt.df:.0f}, p = {tt.pvalue:.2g}: "
            + ("rejected at 0.001, as printed" if tt.pvalue < 0.001 else "**not** rejected at 0.001 (the slide "
               "rejects)") + f". Its equal-variance assumption is about what it compares, the {tt.on}: sd "
            f"{run_eq['sd'][a]:.1f} ({a}) against {run_eq['sd'][b]:.1f} ({b}) points, Brown-Forsythe p = "
            f"{run_eq['pvalue']:.2g}: "
            + ("the variances differ, as the tutorial says" if run_eq["pvalue"] < alpha else
               "equal variances are not rejected, against the tutorial")
            + f". Per fold (values the test does not use) {a}'s accuracy spreads "
            f"{'wider' if fold_eq['sd'][a] > fold_eq['sd'][b] else 'less'} (sd {fold_eq['sd'][a]:.1f} against "
            f"{fold_eq['sd'][b]:.1f}, p = {fold_eq['pvalue']:.2g}); " + shapiro_sentence(normal, alpha)
            + f". McNemar's test on the first run's predictions: p = {t.loc['McNemar (exact)', 'pvalue']:.2g}"
            f" ({t.loc['McNemar (exact)', 'note']}). " + correction_sentence(
                t.loc["paired t-test (naive resampled)", "pvalue"],
                t.loc["corrected repeated k-fold t-test", "pvalue"]))


def shapiro_sentence(pvalues: pd.Series, alpha: float) -> str:
    """Shapiro-Wilk on the per-fold accuracies, read at ``alpha``: whose normality it rejects.

    ``pvalues``: one p-value per series (a classifier, or their difference; NaN: constant, not testable)."""
    def listed(names):
        names = list(names)
        return names[0] if len(names) == 1 else ", ".join(names[:-1]) + " and " + names[-1]

    rejected = [n for n, p in pvalues.items() if p < alpha]
    untested = [n for n, p in pvalues.items() if not np.isfinite(p)]
    shown = ", ".join(f"{p:.2g} for {n}" for n, p in pvalues.items() if np.isfinite(p))
    if rejected:
        text = (f"Shapiro-Wilk rejects normality of the per-fold accuracies of {listed(rejected)} at {alpha:g} "
                f"(p = {shown}): with 5 or 6 test examples a fold's accuracy takes a handful of values")
    else:
        text = (f"Shapiro-Wilk does not reject normality of the per-fold accuracies at {alpha:g}"
                + (f" (p = {shown})" if shown else ""))
    return text + (f"; those of {listed(untested)} are constant, not testable" if untested else "")


def correction_sentence(naive_p: float, corrected_p: float) -> str:
    """What the correction for overlapping training sets does to the naive t-test's p-value, by how much."""
    text = (f"Over all folds the naive t-test gives p = {naive_p:.2g}, the corrected one {corrected_p:.2g}: the "
            "correction for overlapping training sets ")
    if not (naive_p > 0 and np.isfinite(corrected_p)):
        return text + "cannot be compared here."
    ratio = corrected_p / naive_p
    return text + ("costs orders of magnitude in p." if ratio >= 100 else
                   f"multiplies p by {ratio:.1f}." if ratio > 1 else "does not raise p here.")


def ten_domain_note(acc: pd.DataFrame, printed: pd.DataFrame, tests: pd.DataFrame, weka: dict | None = None) -> str:
    """How our ten-domain accuracies compare with the printed table, and what the tests say on them."""
    both = acc.merge(printed, on="Dataset", suffixes=(" ours", " printed"))
    diffs = {c: float((both[f"{c} ours"] - both[f"{c} printed"]).abs().mean()) for c in SIGN_LEARNERS}
    text = ("Mean absolute difference from the printed accuracies: " + ", ".join(f"{c} {v:.1f}" for c, v in
                                                                              diffs.items()) + " points. ")
    nbd = NB_DISCRETIZED_MEASURED
    source = "measured once with WEKA 3.6.14"
    if weka:
        live = {d: weka[(d, NB_DISCRETIZED)]["accuracy"] for d in nbd if (d, NB_DISCRETIZED) in weka}
        if live:
            nbd, source = live, "the real WEKA 3.6.14, this run"
    names = {v: k for k, v in SIGN_DOMAINS.items()}
    p = printed.set_index("Dataset")["NB"]
    text += ("The printed NB is not WEKA's default NB: NaiveBayes -D (supervised discretization; " + source + ") "
             "gives " + ", ".join(f"{names[d]} {v:.2f} (printed {p[names[d]]:.2f}, default NB "
                                  f"{NB_DEFAULT_MEASURED[d]:.2f})" for d, v in nbd.items() if names.get(d) in p.index)
             + "; we have no port of it, so our NB column is the default NB. The printed numbers are averages over "
               "runs (e.g. 73.42 % is not k/226 for audiology), as WEKA's Experimenter reports. ")
    t = tests.set_index("pair")
    for pair, r in t.iterrows():
        text += (f"{pair}: sign test {r['wins a']:g} / {r['wins b']:g} wins, "
                 + ("significant" if r["sign rejects"] else "not significant")
                 + f"; Wilcoxon T = {r['T']:g}" + (f" (V = {r['V']})" if r["V"] is not None else "")
                 + (", significant. " if r["wilcoxon rejects"] else ", not significant. "))
    return text


def resampling_note(est: pd.DataFrame, tests: pd.DataFrame) -> str:
    """The resampling section's interpretation."""
    parts = []
    for _, r in est.iterrows():
        parts.append(f"{r['classifier']} on {r['dataset']}: 10-fold CV error {r['10-fold CV error']:.3f}, e0 "
                     f"{r['e0 bootstrap']:.3f} ({'above' if r['e0 bootstrap'] > r['10-fold CV error'] else 'below'} "
                     f"it), .632 {r['.632 bootstrap']:.3f}, .632+ {r['.632+ bootstrap']:.3f} (resubstitution "
                     f"{r['resubstitution']:.3f}); permutation test p = {r['permutation p']:.3g} (accuracy "
                     f"{r['accuracy (10-fold)']:.3f} against {r['mean accuracy, permuted labels']:.3f} on permuted "
                     "labels)")
    rej = tests[tests.columns[-1]]
    parts.append("the repeated-CV tests: " + ", ".join(f"{r.test} p = {r.pvalue:.2g}" for r in tests.itertuples())
                 + f" ({int(rej.sum())} of {len(tests)} reject)")
    return "; ".join(parts) + "."


def simulation_note(sim: pd.DataFrame, alpha: float) -> str:
    """The simulation's interpretation: who keeps alpha, who is powerful."""
    null = sim[sim.kind == "type I error"].set_index("test")
    over = [t for t, r in null.iterrows() if r["ci low"] > alpha]
    under = [t for t, r in null.iterrows() if r["ci high"] < alpha]
    alt = sim[sim.kind == "power"]
    text = (f"Type I error over {int(null['replications'].iloc[0])} data sets with no true difference (alpha = "
            f"{alpha}): " + ", ".join(f"{t} {r['rejection rate']:.3f}" for t, r in null.iterrows()) + ". Significantly "
            f"above alpha: {', '.join(over) or 'none'}"
            + (f"; significantly below: {', '.join(under)}" if under else "") + ". ")
    if len(alt):
        diffs = sorted(alt["true difference"].unique())
        mid = alt[alt["true difference"] == diffs[len(diffs) // 2]].set_index("test")["rejection rate"]
        keep = [t for t in mid.index if t not in over]
        best = max(keep, key=lambda t: mid[t]) if keep else None
        text += (f"At a true difference of {diffs[len(diffs) // 2]:.3f} the power is "
                 + ", ".join(f"{t} {v:.2f}" for t, v in mid.items())
                 + (f"; among the tests that keep alpha, {best} is the most powerful." if best else "."))
    return text


def visualization_note(vis: dict) -> str:
    """The framework's reading of the pictures."""
    text = []
    stand_ins = [label for label in EIGHT if status_of(label) != "faithful"]
    for key, metric in (("binary", "L2"), ("binary_l1", "L1")):
        if key not in vis:
            continue
        t = vis[key]["table"].sort_values("distance to Ideal").reset_index(drop=True)
        point = {name: i + 1 for i, name in enumerate(t.name)}          # 1 is Ideal
        far = list(t[~t.name.isin(stand_ins)].name.iloc[-2:])
        text.append(f"On the three binary domains in {metric} the two faithful classifiers farthest from Ideal are "
                    f"{far[0]} (point {point[far[0]]}) and {far[1]} (point {point[far[1]]})"
                    + (", as on the slides" if set(far) == {"SVM", "NB"} else
                       "; the slides have SVM and NB there (points 8 and 9)")
                    + ("; " + ", ".join(f"the stand-in {s} is point {point[s]}" for s in stand_ins if s in point)
                       if stand_ins else "") + ".")
    if "anneal_l2" in vis and "anneal_l1" in vis:
        d2 = vis["anneal_l2"]["table"].set_index("name")["distance to Ideal"]
        d1 = vis["anneal_l1"]["table"].set_index("name")["distance to Ideal"]
        text.append(anneal_sentence(d2["NB"], d2["Boost"], d1["NB"], d1["Boost"]))
    return " ".join(text)


def anneal_sentence(nb_l2: float, boost_l2: float, nb_l1: float, boost_l1: float) -> str:
    """NB against AdaBoost on Anneal, read from their L2 and L1 distances to Ideal (L1 counts each error
    twice: once off the diagonal, once missing from it)."""
    close = abs(nb_l2 - boost_l2) <= 0.1 * max(nb_l2, boost_l2)
    l2 = ("about the same" if close else f"{'NB' if nb_l2 < boost_l2 else 'AdaBoost'} nearer to Ideal")
    fewer = "NB makes fewer errors, as the slides say" if nb_l1 < boost_l1 else (
        "NB does not make fewer errors, against the slides" if nb_l1 > boost_l1 else
        "both make as many errors; the slides say NB makes fewer")
    return (f"On Anneal, NB and AdaBoost lie at L2 distances {nb_l2:.0f} and {boost_l2:.0f} ({l2}; NB's "
            f"{int(round(nb_l1 / 2))} errors and AdaBoost's {int(round(boost_l1 / 2))} weigh by how they pile up in "
            f"cells), while in L1, which counts every error alike, NB is at {nb_l1:.0f} and AdaBoost at "
            f"{boost_l1:.0f}: {fewer}.")


def visualization_table_note(vt: pd.DataFrame) -> str:
    """How the framework's accuracy / F / AUC table compares with ours."""
    per = vt[vt.domain != "Avg"]
    avg = vt[vt.domain == "Avg"]
    text = f"{int(per.agrees.sum())} of {len(per)} per-domain rows print exactly as the slide's (accuracy, F, AUC)."
    if len(avg):
        column = "printed average not from the slide's numbers"
        slips = [f"{r['classifier']}'s {r[column]}" for _, r in avg.iterrows() if r[column]]
        text += (f" {int(avg['cells agreeing'].sum())} of {3 * len(avg)} printed averages agree "
                 f"({int(avg.agrees.sum())} of {len(avg)} rows in all three): the slide averages its own rounded "
                 "per-domain numbers, not the exact ones"
                 + ("; and the printed " + "; ".join(slips) + " follow from neither" if slips else "") + ".")
    return text


def flu_note(flu: pd.DataFrame, runs: pd.DataFrame | None = None) -> str:
    """The changing-environments interpretation: pD and error by kind and classifier, from :func:`flu_table`
    (and the failed ideal fits among the single ``runs``, ``Results.flu``, when given)."""
    per = flu[flu.kind != "none"].groupby(["kind", "scenario", "classifier"], sort=False)["pD"].median()
    pd_ = per.groupby(["kind", "classifier"], sort=False).mean().unstack()[list(FLU_LEARNERS)]
    err = flu.groupby("classifier")["error"].mean()[list(FLU_LEARNERS)]
    failed = poor_ideal_fits(runs) if runs is not None else []
    text = ("Mean over the scenarios of the median pD, by kind of change: " + "; ".join(
        f"{k}: " + ", ".join(f"{c} {v:.2f}" for c, v in row.items()) for k, row in pd_.iterrows()) + ". ")
    text += ("Mean error over all scenarios: " + ", ".join(f"{c} {v:.3f}" for c, v in err.items())
             + "; the complex classifiers (DT, MLP) have the lower error "
             + ("in both pairs." if err["DT"] < err["1R"] and err["MLP"] < err["SimpleNN"] else
                "in one pair only." if err["DT"] < err["1R"] or err["MLP"] < err["SimpleNN"] else "in neither pair."))
    if len(failed):
        text += (f" In {len(failed)} run(s) the classifier trained on the changed population itself did much worse "
                 "than the moved one (pD < -1: a poor fit of the reference, not a deterioration; the median leaves "
                 "such runs out): "
                 + "; ".join(f"{r.classifier} on {r.scenario}, repetition {r.repetition}: error {r.error:.3f}, "
                             f"ideal {r['ideal error']:.3f}" for _, r in failed.iterrows()) + ".")
    return text


def reproduction_summary(vs: pd.DataFrame, rank_slips: pd.DataFrame, examples: pd.DataFrame,
                         printed_tests: pd.DataFrame, friedman: dict, vt: pd.DataFrame,
                         anneal: pd.DataFrame | None) -> pd.DataFrame:
    """Group by group, how many printed numbers come out exactly, which differ, and why."""
    rows = []
    differing = vs[~vs.agrees].groupby("classifier", sort=False)["measure"].apply(", ".join)
    rows.append({"printed numbers": "nine measures x eight classifiers (Breast Cancer)", "count": len(vs),
                 "reproduced exactly": int(vs.agrees.sum()), "differ": int((~vs.agrees).sum()),
                 "why they differ": "; ".join(f"{c} ({m}): {_why(c)}" for c, m in differing.items())})
    rows.append({"printed numbers": "ranks (8 x 9)", "count": 72, "reproduced exactly": 72 - len(rank_slips),
                 "differ": len(rank_slips), "why they differ": "the printed ranks of " + ", ".join(
                     f"{r.classifier} {r.measure}" for r in rank_slips.itertuples())
                 + " do not follow from the printed values (slips on the slide)"})
    ex = examples.dropna(subset=["printed"])
    bad = ex[ex.agrees.eq(False)]
    rows.append({"printed numbers": "worked examples (accuracy, precision/recall, kappa, RMSE, information score)",
                 "count": len(ex), "reproduced exactly": int(ex.agrees.eq(True).sum()), "differ": len(bad),
                 "why they differ": "information score: the slide drops the loss branch's minus sign (x4 is -0.32 "
                                    "bits; mean 0.27, not 0.40)" if len(bad) else ""})
    pt = printed_tests.dropna(subset=["printed"])
    bad = pt[pt.agrees.eq(False)]
    rows.append({"printed numbers": "sign and Wilcoxon tests on the printed accuracies", "count": len(pt),
                 "reproduced exactly": int(pt.agrees.eq(True).sum()), "differ": len(bad),
                 "why they differ": "AdaBoost's wins are 1.5 (Breast Cancer plus half of the Contact Lenses tie), "
                                    "printed 1" if len(bad) else ""})
    rs = friedman["rank_sums"]
    same = int(np.isclose(rs.ours, rs.printed).sum())
    rows.append({"printed numbers": "Friedman rank sums", "count": len(rs), "reproduced exactly": same,
                 "differ": len(rs) - same, "why they differ": "exact with the slide's tie of 85.91 and 85.90"})
    per = vt[vt.domain != "Avg"]
    avg = vt[vt.domain == "Avg"]
    rows.append({"printed numbers": "visualization study: accuracy, F, AUC of NB, SMO, AdaBoost (per domain)",
                 "count": 3 * len(per), "reproduced exactly": int(per["cells agreeing"].sum()),
                 "differ": 3 * len(per) - int(per["cells agreeing"].sum()), "why they differ": ""})
    if len(avg):                       # counted cell by cell: an average row can agree in some measures
        rows.append({"printed numbers": "visualization study: the averages", "count": 3 * len(avg),
                     "reproduced exactly": int(avg["cells agreeing"].sum()),
                     "differ": 3 * len(avg) - int(avg["cells agreeing"].sum()),
                     "why they differ": "the slide averages its rounded per-domain numbers"
                     + "".join(f"; {c}'s {v} follows from neither" for c, v in
                               zip(avg["classifier"], avg["printed average not from the slide's numbers"]) if v)})
    if anneal is not None:
        mats = anneal.dropna(subset=["confusion matrix as printed"])
        rows.append({"printed numbers": "Anneal confusion matrices (NB, AdaBoost)", "count": 36 * len(mats),
                     "reproduced exactly": 36 * int(mats["confusion matrix as printed"].astype(bool).sum()),
                     "differ": 36 * int((~mats["confusion matrix as printed"].astype(bool)).sum()),
                     "why they differ": "" if mats["confusion matrix as printed"].astype(bool).all() else
                     "see Table 18"})
    return pd.DataFrame(rows)


# Claims whose verdict cannot change with data: recomputations of the slides' worked examples and printed tables,
# an identity (kappa <= accuracy), a constant verdict on a slide's slip. Counted apart from the claims tested on data.
PRINTED_CHECKS = ("two classifiers of equal accuracy (60 %) behave very differently",
                  "equal precision and recall can hide opposite negative recognition, which accuracy catches",
                  "accuracy is overly optimistic against chance-corrected kappa",
                  "the information-score example averages to 0.40 bits",
                  "sign test: NB vs SVM not significant, RF significantly better than AdaBoost; Wilcoxon: NB vs SVM "
                  "not significant (the printed accuracies)",
                  "Friedman rejects equal performance of fA, fB, fC; Nemenyi separates fB from fA and fC")

NOT_COVERED = ("Not covered: the H-measure (Hand 2009, which the slides name as the answer to AUC's incoherence), "
               "the efficiency method (a weighted ratio of positive to negative measures) and leave-one-out (the "
               "slides describe it, with no example to reproduce).")


def claims_sentence(claims_: pd.DataFrame) -> str:
    """The verdicts counted apart: checks of printed arithmetic (:data:`PRINTED_CHECKS`) and claims tested on data."""
    missing = set(PRINTED_CHECKS) - set(claims_.claim)
    if missing:
        raise ValueError(f"PRINTED_CHECKS names claims that claims() did not make: {sorted(missing)}")
    printed = claims_[claims_.claim.isin(PRINTED_CHECKS)]
    tested = claims_[~claims_.claim.isin(PRINTED_CHECKS)]
    return (f"Claims tested on data: {summary_sentence(tested)} Checks of the slides' printed numbers and "
            f"identities, which no data can change: {summary_sentence(printed)}")


def conclusion(summary: pd.DataFrame, claims_: pd.DataFrame, results: Results) -> str:
    """The notebook's closing paragraph, from the summary and the claims."""
    total, exact = int(summary["count"].sum()), int(summary["reproduced exactly"].sum())
    weka = ("The real WEKA 3.6.14 ran alongside: where ours and the slide differ it tells our learner's difference "
            "from WEKA's version difference." if results.weka else
            "WEKA's jar was not found, so the WEKA column is absent.")
    differ = summary[summary["differ"] > 0]
    stand_ins = [f"{label} ({runs_name(label)} for WEKA's {LEARNERS[label].weka_class.split('.')[-1]})"
                 for label in EIGHT if status_of(label) != "faithful"]
    one_r = type(make_learner_for("1R")).__name__
    if one_r == "NominalOneR":
        stand_ins.append("1R (our nominal 1R for WEKA's OneR; the flu domain is all nominal)")
    return (f"Of the {total} printed numbers compared here, {exact} come out exactly; the {total - exact} others are "
            + ", ".join(f"{r['differ']} of the {r['printed numbers']}" for _, r in differ.iterrows())
            + ". Table 21 says why, group by group: WEKA 3.6.14's Bagging and RandomForest draw other bags than the "
              "tutorial's WEKA, J48's ROC area is computed otherwise, "
            + ("a stand-in runs where one is named, " if stand_ins else "")
            + "and the rest are slips on the slides. " + weka
            + (" Still stand-ins: " + "; ".join(stand_ins) + "." if stand_ins else "")
            + " Hypothyroid is Quinlan's two-class file (WEKA's is in no package), and the printed NB column of the "
              "sign-test table is WEKA's NaiveBayes -D, which we have not ported. " + NOT_COVERED)


# --------------------------------------------------------------------------- what the notebook shows

def describe_profile(params: dict, profile: str) -> str:
    """The notebook's opening sentence: the scale of each part at this profile."""
    return (f"Profile **{profile}**: WEKA 10-fold CV (seed 1) on {', '.join(params['explorer_datasets'])}; "
            f"{params['ttest_runs']} runs of 10-fold CV on Labour; {len(params['sign_domains'])} domains x "
            f"{params['sign_runs']} run(s) for the sign test; {params['n_bootstrap']} bootstrap samples and "
            f"{params['n_permutations']} permutations; {params['sim_replications']} simulated data sets per true "
            f"difference; flu domain {params['flu_train']:,} training / {params['flu_test']:,} test patients x "
            f"{params['flu_repetitions']} repetition(s).")


def describe_learners(learners: pd.DataFrame) -> str:
    """Table 0b read: which classifiers are not faithful to WEKA 3.6.14, and why."""
    stand = learners[learners.status != "faithful"]
    if not len(stand):
        return "Every classifier is faithful to WEKA 3.6.14."
    return ("Every classifier is faithful to WEKA 3.6.14 (same probabilities on recorded folds) except "
            + ", ".join(f"**{r.label}** ({r.runs}: {r.note})" for r in stand.itertuples())
            + "; their rows below differ from WEKA for that reason.")


def captioned_measures_vs_paper(vs: pd.DataFrame, weka: pd.DataFrame | None) -> Captioned:
    """Table 1c: the cells of :func:`table_measures_vs_paper` that do not print as the slide's number."""
    return Captioned(vs[~vs.agrees], "measures_vs_paper",
                     "Table 1c. The cells that do not print as the slide's number: ours, "
                     + ("the real WEKA's, " if weka is not None else "") + "printed (the full comparison is in "
                     "measures_vs_paper_all.csv).", digits=4)


def describe_measures(vs: pd.DataFrame) -> str:
    """Table 1 read: printed cells reproduced, and (with the real WEKA's column) who differs from whom."""
    per_row = vs.groupby("classifier", sort=False)["agrees"].sum()
    exact = [c for c, n in per_row.items() if n == len(MEASURE_NAMES)]
    text = (f"**{int(vs.agrees.sum())} of {len(vs)}** printed cells come out to the printed digit; all nine for "
            f"{', '.join(exact) or 'no classifier'}. ")
    if "WEKA 3.6.14" not in vs.columns or vs["WEKA 3.6.14"].isna().all():
        return text
    same = np.isclose(vs.ours, vs["WEKA 3.6.14"], rtol=0, atol=1e-9)
    weka_diff, ours_diff = vs[~vs.agrees & same], vs[~vs.agrees & ~same & vs["WEKA 3.6.14"].notna()]
    return (text + f"Ours equals the real WEKA 3.6.14 in {int(same.sum())} of {int(vs['WEKA 3.6.14'].notna().sum())} "
            f"cells (to 1e-9). Of the {int((~vs.agrees).sum())} cells that differ from the slide, {len(weka_diff)} "
            f"are WEKA 3.6.14 differing from the tutorial's WEKA ({', '.join(sorted(set(weka_diff.classifier)))}) "
            f"and {len(ours_diff)} are our learner differing from WEKA "
            f"({', '.join(sorted(set(ours_diff.classifier))) or 'none'}).")


def describe_ranks(ours: pd.DataFrame, wrong: pd.DataFrame) -> str:
    """Table 2 read: the printed ranks that do not follow, and who leads each measure on our numbers."""
    ranks = rank_measures(ours[ours.Algo.isin(EIGHT)]).set_index("Algo")
    firsts = {m: list(ranks.index[ranks[m] == 1]) for m in MEASURE_NAMES.values()}
    leaders = {name for names in firsts.values() for name in names}
    return (f"The printed ranks follow the printed values except in {len(wrong)} cells ("
            + "; ".join(f"{r.classifier} {r.measure}: printed {r['printed rank']}, by value "
                        f"{r['rank of the printed value']}" for _, r in wrong.iterrows())
            + "). On our numbers the first place goes to "
            + "; ".join(f"{m}: {', '.join(w)}" for m, w in firsts.items())
            + f": {len(leaders)} different classifier{'s lead' if len(leaders) != 1 else ' leads'} some measure.")


def describe_worked_examples(examples: pd.DataFrame) -> str:
    """Table 3 read: how many printed numbers come out, and the information score's sign."""
    q = examples.set_index("quantity")["ours"]
    return (f"{int(examples.agrees.eq(True).sum())} of {int(examples.agrees.notna().sum())} printed numbers come out "
            "exactly (two 60 % classifiers, equal precision and recall, kappa 43.29 %, RMSE 0.4416). The information "
            "score differs: Kononenko & Bratko's definition scores x4 (P(y=1|f) = .75 for a negative, below the prior "
            f".4 of its class) as {'a loss' if q['IS(x4)'] < 0 else 'a gain'}, {q['IS(x4)']:.2f} bits, and averages "
            f"{q['ISavg (Kononenko & Bratko)']:.2f}; the slide's formula drops the loss branch's minus sign, and its "
            "0.40 is the mean of the unsigned scores.")


def captioned_roc_cost(rc: dict) -> Captioned:
    """Figure 1: ROC and cost curves of the pair (:func:`figure_roc_cost`), with its caption."""
    return Captioned(figure_roc_cost(rc), "figure_roc_cost",
                     f"Figure 1. {' and '.join(rc['pair'])} on Breast Cancer (10-fold CV, seed 1): ROC curves with "
                     "convex hulls (left); cost curves, the trivial classifiers (dotted) and each classifier's winning "
                     "range of the probability cost PC(+) (right).")


def describe_roc_cost(rc: dict) -> str:
    """Table 4 read: whether the ROC hulls cross, and where each classifier's cost curve is lowest."""
    clever = rc["ranges"][rc["ranges"].winner != "trivial"]
    return (f"The ROC hulls {'cross' if rc['roc_cross'] else 'do not cross'} (AUC "
            + ", ".join(f"{k} {v:.3f}" for k, v in rc["auc"].items()) + "). The cost curves say where: "
            + ("; ".join(f"**{r.winner}** for PC(+) in [{r.pc_from:.2f}, {r.pc_to:.2f}] (by up to "
                         f"{r.max_advantage:.3f})" for r in clever.itertuples()) or "nowhere better than trivial")
            + ".")


def describe_printed_tests(printed: pd.DataFrame) -> str:
    """Table 7 read: how many of the printed sign and Wilcoxon quantities come out."""
    from ..published import japkowicz2011 as paper

    return (f"{int(printed.agrees.eq(True).sum())} of {int(printed.agrees.notna().sum())} printed quantities "
            "come out. " + paper.NOTES["sign test"] + " " + paper.NOTES["wilcoxon"])


def captioned_ten_domains(acc: pd.DataFrame, sign_runs: int) -> Captioned:
    """Table 8: our accuracies on the ten domains beside the printed table."""
    from ..published import japkowicz2011 as paper

    both = acc.merge(paper.sign_test_table(), on="Dataset", how="left", suffixes=(" ours", " printed"))
    return Captioned(both, "ten_domains_accuracy", f"Table 8. Accuracy (%) on the ten domains: ours ({sign_runs} x "
                     "10-fold CV) beside the printed table.", digits=2)


def captioned_two_domain_tests(tests: pd.DataFrame, alpha: float) -> Captioned:
    """Table 9: the sign and Wilcoxon tests on our accuracies."""
    return Captioned(tests, "sign_wilcoxon_ours", f"Table 9. The same tests on our accuracies, two-sided at alpha = "
                     f"{alpha} (no direction chosen in advance; the slides test one-sided).", digits=4)


def describe_friedman(fr: dict) -> str:
    """Tables 10-11 read: Friedman's statistic, the rank sums, and the pairs Nemenyi separates."""
    sig = fr["pairs"][fr["pairs"].significant]
    d = sig[D_POOLED].abs()
    size = ("huge effects (|d| > 0.8 is 'large')" if len(d) and (d > 0.8).all() else
            "effects of mixed size (|d| > 0.8 is 'large')" if len(d) else "no pair")
    return (f"Friedman: chi2 = {fr['friedman'].statistic:.2f}, p = {fr['friedman'].pvalue:.2g}; rank sums "
            + " / ".join(f"{v:g}" for v in fr["rank_sums"]["ours"]) + " as printed (exact ranks without the tie: "
            + " / ".join(f"{v:g}" for v in fr["exact_rank_sums"]) + f"). Nemenyi's CD = "
            f"{fr['nemenyi'].critical_difference:.3f} separates "
            + (", ".join(f"{r.pair} (Cohen's d {r[D_POOLED]:.1f})" for _, r in sig.iterrows()) or "no pair")
            + f": {size}.")


def friedman_ours(acc: pd.DataFrame, alpha: float) -> tuple[Captioned, str]:
    """Figure 3b (the critical-difference diagram of our ten-domain accuracies) and its reading."""

    scores = acc.set_index("Dataset")
    ne = nemenyi_test(scores, alpha=alpha)
    fig = figure_cd(ne.average_ranks, ne.critical_difference,
                    f"our {', '.join(scores.columns)} on {len(scores)} domains")
    text = (f"On our ten-domain accuracies Friedman gives p = {friedman_test(scores).pvalue:.2g}; average ranks "
            + ", ".join(f"{k} {v:.2f}" for k, v in ne.average_ranks.items()) + ".")
    return Captioned(fig, "figure_cd_ours", "Figure 3b. The same diagram for our four classifiers on the ten "
                     "domains."), text


def captioned_simulation_rejections(sim: pd.DataFrame, alpha: float, replications: int) -> Captioned:
    """Table 15: rejection rates per test (rows) and true difference (columns)."""
    wide = sim.pivot_table(index="test", columns="true difference", values="rejection rate", sort=False)
    wide.columns = [f"diff {c:.3f}" for c in wide.columns]
    return Captioned(wide.reset_index(), "simulation_rejections",
                     f"Table 15. Rejection rate at alpha = {alpha} ({replications} data sets per column): type I "
                     "error in the first column, power in the others.", digits=3)


VIS_TITLES = {"binary": "Breast Cancer, Labour, Liver (L2)", "binary_l1": "Breast Cancer, Labour, Liver (L1)",
              "anneal_l2": "Anneal (L2)", "anneal_l1": "Anneal (L1)"}


def captioned_visualization(vis: dict) -> Captioned:
    """Figure 5: the framework's pictures, one panel per entry of ``vis``, titled with its metric."""
    return Captioned(figure_visualization(list(vis.values()), [VIS_TITLES[k] for k in vis]), "figure_visualization",
                     "Figure 5. The framework's pictures: each classifier projected from its concatenated confusion "
                     "matrices, in L2 and in L1 (panel titles); grey lines are the spanning tree; the distance to "
                     "point 1 (Ideal) is exact.")


def captioned_visualization_distances(vis: dict) -> Captioned:
    """Table 16: each classifier's distance to Ideal, one column per picture."""
    dist = pd.concat([v["table"].set_index("name")["distance to Ideal"].rename(VIS_TITLES[k])
                      for k, v in vis.items()], axis=1)
    return Captioned(dist.reset_index(names="classifier"), "visualization_distances",
                     "Table 16. Distance of each classifier to the ideal one.", digits=1)


def flu_scenarios_table(names=None) -> Captioned:
    """Table 19: the flu scenarios (``names``; None: all) and the parameters each changes."""
    rows = [{"scenario": s.name, "kind": s.kind, "description": s.description,
             "test population changes": ", ".join(f"{k}={v}" for k, v in s.test.items()),
             "removed from training": ", ".join(f"{k}: {'+'.join(v)}" for k, v in s.train_exclude.items())}
            for s in SCENARIOS.values() if s.name in (names or SCENARIOS)]
    return Captioned(pd.DataFrame(rows), "flu_scenarios", "Table 19. The scenarios and the parameters each changes.")


def captioned_flu(flu: pd.DataFrame, repetitions: int) -> Captioned:
    """Table 20: error and pD per scenario and classifier."""
    return Captioned(flu, "flu_results", f"Table 20. Error per scenario and classifier (means over {repetitions} "
                     "repetition(s)) and pD (median, and its range).", digits=3)


def describe_claims(claims_: pd.DataFrame) -> str:
    """The claims as a Markdown list: verdict, claim, where, evidence."""
    return "\n".join(f"- **{r.verdict}**: {r.claim} (*{r.where}*). Evidence: {r.evidence}."
                     for r in claims_.itertuples())
