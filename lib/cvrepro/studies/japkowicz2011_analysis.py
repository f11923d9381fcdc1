"""Japkowicz & Shah (2011): the tables and figures read from a run's :class:`Results` (measures, tests,
resampling, the simulation, the two research studies), with the claims each section judges.
"""
from __future__ import annotations

import math
from decimal import ROUND_HALF_UP, Decimal

import numpy as np
import pandas as pd
from scipy import stats as sps

from ..curves import cost_curve, operating_ranges, roc_convex_hull, roc_points, trivial_cost
from ..metrics import accuracy, fpr, information_score, kappa, precision, recall, rmse
from ..projection import mcst_projection
from ..stats import (
    cohens_d,
    combined_ftest_5x2cv,
    contingency_table,
    corrected_repeated_kfold_ttest,
    friedman_test,
    mcnemar,
    nemenyi_test,
    paired_ttest,
    paired_ttest_5x2cv,
    sign_test,
    wilcoxon_signed_rank,
)
from ..verdicts import DOES_NOT_HOLD, HOLDS, PARTLY, UNDECIDED, Claim
from ..wekaeval import WekaCVPredictions, weka_measures
from .japkowicz2011_runs import (
    BOOT_TRUTH_POOL,
    BOOT_TRUTH_SIZE,
    EIGHT,
    EXPLORER_LEARNERS,
    FLU_LEARNERS,
    LABOR_PAIR,
    POSITIVE,
    SIGN_DOMAINS,
    SIGN_LEARNERS,
    VIS_DOMAINS,
    VIS_MULTICLASS,
    Results,
)
from .japkowicz2011_simulation import SIM_TESTS

# --------------------------------------------------------------------------- measures and ranks

MEASURE_NAMES = {"accuracy": "Acc", "rmse": "RMSE", "tpr": "TPR", "fpr": "FPR", "precision": "Prec",
                 "recall": "Rec", "f_measure": "F", "auc": "AUC", "info_score": "Info S"}

LOWER_IS_BETTER = {"RMSE", "FPR"}


def _positive_code(dataset: str, classes) -> int:
    classes = [str(c) for c in classes]
    if dataset in POSITIVE:
        return classes.index(POSITIVE[dataset])
    return 1 if len(classes) == 2 else 0


def measures_of(pred: WekaCVPredictions, dataset: str) -> dict:
    """The nine measures (tutorial names) and kappa of one cross-validation."""
    m = weka_measures(pred, _positive_code(dataset, pred.classes))
    out = {MEASURE_NAMES[k]: m[k] for k in MEASURE_NAMES}
    out["kappa"] = m["kappa"]
    return out


def _weka_measures(result: dict, dataset: str, classes) -> dict:
    pos = _positive_code(dataset, classes)
    row = result["per_class"].iloc[pos]
    return {"Acc": result["accuracy"], "RMSE": result["rmse"], "TPR": row["tpr"], "FPR": row["fpr"],
            "Prec": row["precision"], "Rec": row["recall"], "F": row["f_measure"], "AUC": row["auc"],
            "Info S": result["info_score"], "kappa": result["kappa"]}


def table_measures(results: Results, dataset: str = "breast-cancer", labels=EXPLORER_LEARNERS,
                   source: str = "ours") -> pd.DataFrame:
    """One row per classifier, the nine measures and kappa (``source`` "ours" or "weka")."""
    rows = []
    for label in labels:
        pred = results.predictions(dataset, label)
        if source == "ours":
            m = measures_of(pred, dataset)
        else:
            if not results.weka or (dataset, label) not in results.weka:
                continue
            m = _weka_measures(results.weka[(dataset, label)], dataset, pred.classes)
        rows.append({"Algo": label, **m})
    return pd.DataFrame(rows)


def _decimals(text: str) -> int:
    text = str(text).strip()
    return len(text.split(".")[1]) if "." in text else 0


def _half_up(value: float, decimals: int) -> Decimal:
    return Decimal(repr(float(value))).quantize(Decimal(1).scaleb(-decimals), rounding=ROUND_HALF_UP)


def printed_match(value: float, printed: str, weka_decimals: int | None = None) -> bool:
    """Does ``value`` print as ``printed``? Rounded half-up to the printed decimals, directly or
    after WEKA's own rounding to ``weka_decimals`` (the slides round WEKA's 3-decimal output)."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return False
    d = _decimals(printed)
    target = Decimal(str(printed).strip())
    if _half_up(value, d) == target:
        return True
    if weka_decimals is None or weka_decimals <= d:
        return False
    return _half_up(float(_half_up(value, weka_decimals)), d) == target


# WEKA's Explorer prints percent correct with 4 decimals, RMSE 4, per-class measures 3, K&B info 4.
_WEKA_PRINT = {"Acc": 4, "RMSE": 4, "TPR": 3, "FPR": 3, "Prec": 3, "Rec": 3, "F": 3, "AUC": 3, "Info S": 4}


def table_measures_vs_paper(ours: pd.DataFrame, printed_text: pd.DataFrame, weka: pd.DataFrame | None = None,
                            labels=EIGHT) -> pd.DataFrame:
    """Long table: classifier, measure, ours, real WEKA (if given), printed, difference, and whether ours
    prints as the slide's number (``agrees``)."""
    rows = []
    ours = ours.set_index("Algo")
    wk = weka.set_index("Algo") if weka is not None and len(weka) else None
    for label in labels:
        for measure in MEASURE_NAMES.values():
            text = printed_text.set_index("Algo").loc[label, measure]
            value = ours.loc[label, measure]
            row = {"classifier": label, "measure": measure, "ours": value}
            if wk is not None:
                row["WEKA 3.6.14"] = wk.loc[label, measure] if label in wk.index else np.nan
            row.update({"printed": float(text), "difference": value - float(text),
                        "agrees": printed_match(value, text, _WEKA_PRINT[measure])})
            rows.append(row)
    return pd.DataFrame(rows)


def rank_measures(table: pd.DataFrame) -> pd.DataFrame:
    """Rank the classifiers under each measure (1 = best; ties share the best rank)."""
    out = table[["Algo"]].copy()
    for m in MEASURE_NAMES.values():
        values = table[m].astype(float)
        out[m] = values.rank(ascending=m in LOWER_IS_BETTER, method="min").astype(int)
    return out


def table_ranks_vs_paper(ours: pd.DataFrame, printed_values: pd.DataFrame, printed_ranks: pd.DataFrame,
                         labels=EIGHT) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(side-by-side ranks: ours / of the printed values / printed, one column each per measure;
    the cells where the printed rank differs from the rank of the printed values)."""
    ranks_ours = rank_measures(ours[ours.Algo.isin(labels)]).set_index("Algo").loc[list(labels)]
    ranks_of_printed = rank_measures(printed_values).set_index("Algo").loc[list(labels)]
    printed = printed_ranks.set_index("Algo").loc[list(labels)]
    cols = {}
    for m in MEASURE_NAMES.values():
        cols[(m, "ours")] = ranks_ours[m]
        cols[(m, "of printed values")] = ranks_of_printed[m]
        cols[(m, "printed")] = printed[m]
    side = pd.DataFrame(cols)
    side.columns = [f"{m} {k}" for m, k in side.columns]
    wrong = [{"classifier": a, "measure": m, "printed rank": int(printed.loc[a, m]),
              "rank of the printed value": int(ranks_of_printed.loc[a, m]),
              "printed value": printed_values.set_index("Algo").loc[a, m]}
             for a in labels for m in MEASURE_NAMES.values() if printed.loc[a, m] != ranks_of_printed.loc[a, m]]
    return side.reset_index(names="Algo"), pd.DataFrame(wrong)


# --------------------------------------------------------------------------- worked examples

def _labels_from_counts(tp, fp, fn, tn):
    """(y_true, y_pred) with 1 = positive for a 2 x 2 table of counts."""
    y_true = np.repeat([1, 0, 1, 0], [tp, fp, fn, tn])
    y_pred = np.repeat([1, 1, 0, 0], [tp, fp, fn, tn])
    return y_true, y_pred


def worked_examples() -> pd.DataFrame:
    """Each worked example of the measures slides, computed by :mod:`cvrepro.metrics`, beside the slide."""
    from ..published import japkowicz2011 as paper

    rows = []

    def add(example, quantity, ours, printed, note="", slide_decimals=None):
        agrees = np.nan if printed is None else bool(printed_match(ours, str(printed), slide_decimals))
        rows.append({"example": example, "quantity": quantity, "ours": float(ours),
                     "printed": np.nan if printed is None else float(printed), "agrees": agrees, "note": note})

    for side in ("left", "right"):
        c = paper.CONFUSION_ACCURACY[side]
        yt, yp = _labels_from_counts(c["TP"], c["FP"], c["FN"], c["TN"])
        add("two 60 % classifiers", f"{side}: accuracy", accuracy(yt, yp), "0.60")
        add("two 60 % classifiers", f"{side}: positive recognition (TPR)", recall(yt, yp, 1), None)
        add("two 60 % classifiers", f"{side}: negative recognition (TNR)", 1 - fpr(yt, yp, 1), None)
    for side in ("left", "right"):
        c = paper.CONFUSION_PRECISION_RECALL[side]
        yt, yp = _labels_from_counts(c["TP"], c["FP"], c["FN"], c["TN"])
        add("same precision and recall", f"{side}: precision", precision(yt, yp, 1), "0.667")
        add("same precision and recall", f"{side}: recall", recall(yt, yp, 1), "0.40")
        add("same precision and recall", f"{side}: accuracy", accuracy(yt, yp), None,
            "'accuracy has no problem catching this'")
        add("same precision and recall", f"{side}: negative recognition (TNR)",
            1 - fpr(yt, yp, 1) if c["FP"] + c["TN"] else np.nan, None)
    cm = paper.KAPPA_EXAMPLE["confusion"]
    yt = np.repeat(np.repeat(np.arange(3), 3), cm.ravel())
    yp = np.repeat(np.tile(np.arange(3), 3), cm.ravel())
    pe = float((cm.sum(0) * cm.sum(1)).sum() / cm.sum() ** 2)
    add("Cohen's kappa", "P0 (accuracy)", accuracy(yt, yp), "0.625")
    add("Cohen's kappa", "Pe (chance agreement)", pe, "0.33875")
    add("Cohen's kappa", "kappa", kappa(yt, yp), "0.4329")
    r = paper.RMSE_EXAMPLE
    proba = np.column_stack([1 - r["proba"], r["proba"]])
    add("RMSE", "RMSE", rmse(r["y"], proba, [0, 1]), "0.4416")
    e = paper.INFO_SCORE_EXAMPLE
    p1 = e["proba"]
    per = information_score(e["y"], np.column_stack([1 - p1, p1]), [0, 1], per_instance=True)
    for i, (v, printed) in enumerate(zip(per, e["per_instance"]), start=1):
        add("information score", f"IS(x{i})", v, f"{printed:.2f}",
            "the definition's sign: a loss (P(y|f) < P(y)) scores negative" if v < 0 else
            "the slide rounds 0.585 to .59" if abs(v - 0.585) < 1e-3 else "", slide_decimals=3)
    add("information score", "ISavg (Kononenko & Bratko)", per.mean(), "0.40",
        "the slide's formula drops the loss branch's minus sign")
    add("information score", "mean of the unsigned IS", np.abs(np.round(per, 2)).mean(), "0.40",
        "what the slide computed")
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- ROC and cost curves

def roc_cost_analysis(results: Results, pair=("NB", "C4.5"), dataset: str = "breast-cancer") -> dict:
    """ROC points, hulls, AUCs, cost curves and operating ranges of two classifiers' pooled
    out-of-fold scores (WEKA's ThresholdCurve pools the folds too)."""
    curves, rocs, hulls, aucs = {}, {}, {}, {}
    for label in pair:
        pred = results.predictions(dataset, label)
        pos = _positive_code(dataset, pred.classes)
        score = pred.proba[:, pos]
        is_pos = (pred.y == pos).astype(int)
        rocs[label] = roc_points(is_pos, score)
        hulls[label] = roc_convex_hull(rocs[label])
        curves[label] = cost_curve(is_pos, score)
        aucs[label] = weka_measures(pred, pos)["auc"]
    ranges = operating_ranges(curves)
    ranges = ranges[ranges.pc_to > ranges.pc_from].reset_index(drop=True)   # not the end points, where all cost 0
    cross = _hulls_cross(hulls[pair[0]], hulls[pair[1]])
    return {"roc": rocs, "hull": hulls, "cost": curves, "auc": aucs, "ranges": ranges, "roc_cross": cross,
            "pair": tuple(pair), "dataset": dataset}


def _hulls_cross(a: pd.DataFrame, b: pd.DataFrame) -> bool:
    """Do two ROC convex hulls cross (each is above the other somewhere in (0, 1))?"""
    grid = np.linspace(0, 1, 2001)[1:-1]
    ya = np.interp(grid, a["fpr"], a["tpr"])
    yb = np.interp(grid, b["fpr"], b["tpr"])
    return bool((ya > yb + 1e-9).any() and (yb > ya + 1e-9).any())


def figure_roc_cost(analysis: dict):
    """ROC curves with their convex hulls (left) and cost curves with the trivial classifiers and
    each classifier's winning range of PC(+) (right)."""
    import matplotlib.pyplot as plt

    from ..reporting import learner_colors

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 5))
    colors = learner_colors(analysis["pair"])             # the same colour per classifier in every figure
    for label in analysis["pair"]:
        roc, hull = analysis["roc"][label], analysis["hull"][label]
        ax1.plot(roc["fpr"], roc["tpr"], marker=".", color=colors[label], lw=1,
                 label=f"{label} (AUC {analysis['auc'][label]:.3f})")
        ax1.plot(hull["fpr"], hull["tpr"], color=colors[label], ls="--", lw=1)
        cost = analysis["cost"][label]
        ax2.plot(cost["pc"], cost["ne"], color=colors[label], lw=1.5, label=f"{label}: lower envelope")
    ax1.plot([0, 1], [0, 1], color="grey", lw=0.8, ls=":")
    ax1.set(xlabel="FP rate", ylabel="TP rate", title="ROC (dashed: convex hulls)", xlim=(0, 1), ylim=(0, 1.01))
    ax1.legend(loc="lower right", fontsize=9)
    pc = analysis["cost"][analysis["pair"][0]]["pc"].to_numpy()
    ax2.plot(pc, trivial_cost(pc), color="grey", lw=0.8, ls=":", label="trivial classifiers")
    for _, r in analysis["ranges"].iterrows():
        if r["winner"] in colors:
            ax2.axvspan(r["pc_from"], r["pc_to"], color=colors[r["winner"]], alpha=0.08)
    ax2.set(xlabel="probability cost PC(+)", ylabel="normalised expected cost", xlim=(0, 1), ylim=(0, 0.55),
            title="cost curves (shaded: where each classifier wins)")
    ax2.legend(loc="upper right", fontsize=9)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- two classifiers, one domain

TUTORIAL_TTEST = "paired t-test (the tutorial's)"


def labor_tests(results: Results, pair=LABOR_PAIR, dataset: str = "labor", alpha: float = 0.05) -> dict:
    """C4.5 vs NB on Labour over the study's runs of WEKA's 10-fold CV: the t-tests, McNemar, the
    sign test and the assumption checks. Returns tables ``tests``, ``checks``, ``scores``."""
    a, b = pair
    runs = results.params["ttest_runs"]
    fold = {label: np.array([results.fold_accuracies(dataset, label, s) for s in range(1, runs + 1)])
            for label in pair}
    run_acc = {label: np.array([results.accuracy(dataset, label, s) for s in range(1, runs + 1)]) for label in pair}
    rows = []

    def add(test, scores, res, df=None, note=""):
        rows.append({"test": test, "on": scores, "statistic": res.statistic, "df": df, "pvalue": res.pvalue,
                     f"reject at {alpha}": res.pvalue < alpha, "reject at 0.001": res.pvalue < 0.001, "note": note})

    t_runs = paired_ttest(run_acc[a], run_acc[b])
    add(TUTORIAL_TTEST, f"{runs} runs' accuracies", t_runs, t_runs.df,
        f"two-sided; |t| > {sps.t.isf(0.0005, t_runs.df):.3f} rejects at 0.001")
    t_fold1 = paired_ttest(fold[a][0], fold[b][0])
    add("paired t-test", "10 folds of run 1", t_fold1, t_fold1.df, "the other reading of 'df = 9'")
    t_all = paired_ttest(fold[a].ravel(), fold[b].ravel())
    add("paired t-test (naive resampled)", f"{runs} x 10 folds", t_all, t_all.df,
        "ignores the overlap of training sets")
    t_corr = corrected_repeated_kfold_ttest(fold[a], fold[b], 10)
    add("corrected repeated k-fold t-test", f"{runs} x 10 folds", t_corr, t_corr.df,
        "Nadeau & Bengio's correction, n_test / n_train = 1/9 (Bouckaert & Frank)")
    first_a, first_b = results.predictions(dataset, a, 1), results.predictions(dataset, b, 1)
    order_b = np.argsort(first_b.rows)[np.argsort(np.argsort(first_a.rows))]
    table = contingency_table(first_a.y, first_a.predicted(), first_b.predicted()[order_b])
    mc = mcnemar(table)
    add("McNemar (exact)", "run 1, each instance tested once", mc, None,
        f"{a} right & {b} wrong: {mc.b}; {a} wrong & {b} right: {mc.c}")
    add("McNemar (chi-squared, continuity corrected)", "run 1", mcnemar(table, exact=False), 1.0, "")
    st = sign_test(fold[a][0], fold[b][0])
    add("sign test", "10 folds of run 1", st, None, f"wins {st.wins_a} / {st.wins_b} (ties half)")
    st_all = sign_test(fold[a].ravel(), fold[b].ravel())
    add("sign test", f"{runs} x 10 folds", st_all, None, f"wins {st_all.wins_a} / {st_all.wins_b}")
    checks = []
    for what, sa, sb in (("per-fold accuracy", fold[a].ravel(), fold[b].ravel()),
                         ("per-run accuracy", run_acc[a], run_acc[b])):
        for label, s in ((a, sa), (b, sb), (f"{a} - {b}", sa - sb)):
            sw = sps.shapiro(s) if np.ptp(s) > 0 and len(s) >= 3 else None
            checks.append({"check": "normality (Shapiro-Wilk)", "scores": what, "of": label,
                           "statistic": np.nan if sw is None else sw.statistic,
                           "pvalue": np.nan if sw is None else sw.pvalue,
                           "sd": float(np.std(s, ddof=1))})
        lev = sps.levene(sa, sb, center="median")
        ratio = np.var(sa, ddof=1) / np.var(sb, ddof=1)
        f_p = 2 * min(sps.f.sf(ratio, len(sa) - 1, len(sb) - 1), sps.f.cdf(ratio, len(sa) - 1, len(sb) - 1))
        checks.append({"check": "equal variance (Brown-Forsythe / Levene)", "scores": what, "of": f"{a} vs {b}",
                       "statistic": lev.statistic, "pvalue": lev.pvalue, "sd": np.nan})
        checks.append({"check": "equal variance (F-test of the variance ratio)", "scores": what,
                       "of": f"{a} vs {b}", "statistic": ratio, "pvalue": f_p, "sd": np.nan})
    scores = pd.DataFrame([{"run": r + 1, "fold": f + 1, a: fold[a][r, f], b: fold[b][r, f]}
                           for r in range(runs) for f in range(10)])
    return {"tests": pd.DataFrame(rows), "checks": pd.DataFrame(checks), "scores": scores,
            "run_accuracy": pd.DataFrame({"run": np.arange(1, runs + 1), a: run_acc[a], b: run_acc[b]}),
            "contingency": table, "pair": pair}


def equal_variance(lab: dict, scores: str) -> dict:
    """The Brown-Forsythe check of ``lab["checks"]`` on ``scores`` ("per-run accuracy", the values the
    tutorial's t-test uses, or "per-fold accuracy"): its p-value and each classifier's sd."""
    chk = lab["checks"][lab["checks"].scores == scores]
    return {"pvalue": float(chk[chk.check.str.startswith("equal variance (Brown")]["pvalue"].iloc[0]),
            "sd": chk[chk.check.str.startswith("normality")].set_index("of")["sd"]}


def variance_claim(lab: dict, alpha: float = 0.05) -> Claim:
    """"The variances of C4.5 and NB cannot be considered equal", judged on the values the tutorial's t-test
    compares (the runs' accuracies), with the per-fold check beside it."""
    run_eq, fold_eq = equal_variance(lab, "per-run accuracy"), equal_variance(lab, "per-fold accuracy")
    a, b = lab["pair"]
    on = lab["tests"].set_index("test").loc[TUTORIAL_TTEST, "on"]
    return Claim("the variances of C4.5 and NB on Labour cannot be considered equal", "Assumptions of the t-test",
                 HOLDS if run_eq["pvalue"] < alpha else DOES_NOT_HOLD,
                 f"judged on what the t-test uses, the {on}: sd {a} {run_eq['sd'][a]:.1f} vs {b} "
                 f"{run_eq['sd'][b]:.1f} points, Brown-Forsythe p = {run_eq['pvalue']:.2g} (the tutorial ran "
                 f"10 trials); on the {len(lab['scores'])} per-fold accuracies, which the test does not "
                 f"use, sd {fold_eq['sd'][a]:.1f} vs {fold_eq['sd'][b]:.1f}, p = {fold_eq['pvalue']:.2g}")


def figure_labor_assumptions(lab: dict):
    """The t-test's assumptions on Labour: per-fold accuracies of both classifiers (spread) and their
    normal Q-Q plots."""
    import matplotlib.pyplot as plt

    from ..reporting import learner_colors

    a, b = lab["pair"]
    s = lab["scores"]
    colors = learner_colors((a, b))
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(11, 4.5))
    data = [s[a].to_numpy(), s[b].to_numpy()]
    ax1.boxplot(data, tick_labels=[a, b], widths=0.5)
    rng = np.random.default_rng(0)
    for i, (v, label) in enumerate(zip(data, (a, b)), start=1):
        ax1.scatter(i + rng.uniform(-0.12, 0.12, len(v)), v, s=10, alpha=0.5, color=colors[label])
        ax1.text(i + 0.3, np.median(v), f"sd {np.std(v, ddof=1):.1f}", va="center", fontsize=9)
    ax1.set(ylabel="accuracy of a fold (%)", title=f"per-fold accuracies ({len(s) // 10} x 10-fold CV)")
    for label, marker in ((a, "o"), (b, "s")):
        (osm, osr), (slope, intercept, _) = sps.probplot(s[label].to_numpy(), dist="norm")
        ax2.scatter(osm, osr, s=12, marker=marker, label=label, alpha=0.7, color=colors[label])
        ax2.plot(osm, slope * np.asarray(osm) + intercept, lw=0.8, color=colors[label])
    ax2.set(xlabel="normal quantile", ylabel="ordered accuracies (%)", title="normal Q-Q plots")
    ax2.legend()
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- two classifiers, many domains

def printed_two_domain_tests(alpha: float = 0.05) -> pd.DataFrame:
    """The sign and Wilcoxon tests recomputed on the printed accuracies, beside the slides' numbers."""
    from ..published import japkowicz2011 as paper

    t = paper.sign_test_table().set_index("Dataset")
    rows = []
    for (a, b), printed in zip((("NB", "SVM"), ("Adaboost", "Rand Forest")), paper.SIGN_TEST.values()):
        res = sign_test(t[a], t[b], alpha=alpha, alternative="greater" if a == "NB" else "less", critical="normal")
        exact = sign_test(t[a], t[b], alpha=alpha, alternative="greater" if a == "NB" else "less")
        name = f"sign test {a} vs {b}"
        rows += [
            {"test": name, "quantity": f"wins of {a}", "ours": res.wins_a, "printed": printed["wins_a"]},
            {"test": name, "quantity": f"wins of {b}", "ours": res.wins_b, "printed": printed["wins_b"]},
            {"test": name, "quantity": "critical wins w0.05 (normal approximation)", "ours": res.critical_wins,
             "printed": printed["critical_wins"]},
            {"test": name, "quantity": "critical wins (exact binomial)", "ours": exact.critical_wins,
             "printed": np.nan},
            {"test": name, "quantity": "one-sided p (ties split, odd tie dropped)", "ours": res.pvalue,
             "printed": np.nan},
            {"test": name, "quantity": "rejected at 0.05", "ours": float(max(res.wins_a, res.wins_b)
                                                                         >= res.critical_wins),
             "printed": float(printed["rejected"])},
        ]
    nb, svm = t["NB"] / 100, t["SVM"] / 100
    w = wilcoxon_signed_rank(nb, svm, alternative="less", alpha=alpha)
    rows += [
        {"test": "Wilcoxon NB vs SVM", "quantity": "WS1 (NB better)", "ours": w.r_plus,
         "printed": paper.WILCOXON["WS1"]},
        {"test": "Wilcoxon NB vs SVM", "quantity": "WS2 (SVM better)", "ours": w.r_minus,
         "printed": paper.WILCOXON["WS2"]},
        {"test": "Wilcoxon NB vs SVM", "quantity": "T = min(WS1, WS2)", "ours": w.statistic,
         "printed": paper.WILCOXON["T"]},
        {"test": "Wilcoxon NB vs SVM", "quantity": "critical V (n = 9, one-sided 0.05)", "ours": w.critical_value,
         "printed": paper.WILCOXON["V"]},
        {"test": "Wilcoxon NB vs SVM", "quantity": "one-sided p", "ours": w.pvalue, "printed": np.nan},
        {"test": "Wilcoxon NB vs SVM", "quantity": "rejected", "ours": float(w.statistic <= w.critical_value),
         "printed": float(paper.WILCOXON["rejected"])},
    ]
    out = pd.DataFrame(rows)
    out["agrees"] = [np.nan if np.isnan(p) else bool(np.isclose(o, p)) for o, p in zip(out.ours, out.printed)]
    return out


def accuracy_table(results: Results, domains=None, labels=SIGN_LEARNERS) -> pd.DataFrame:
    """Mean percent correct over the runs of 10-fold CV, one row per tutorial domain, one column per
    classifier (the tutorial's names)."""
    domains = domains or results.params["sign_domains"]
    names = {v: k for k, v in SIGN_DOMAINS.items()}
    rows = []
    for d in domains:
        row = {"Dataset": names.get(d, d)}
        for tutorial, label in labels.items():
            accs = [results.accuracy(d, label, s) for s in range(1, results.params["sign_runs"] + 1)]
            row[tutorial] = float(np.mean(accs))
        rows.append(row)
    return pd.DataFrame(rows)


def two_domain_tests(table: pd.DataFrame, alpha: float = 0.05) -> pd.DataFrame:
    """The sign test (both critical values) and Wilcoxon's test of NB vs SVM and AdaBoost vs RF on an
    accuracy table (percent; rows domains)."""
    rows = []
    for a, b in (("NB", "SVM"), ("Adaboost", "Rand Forest")):
        x, y = table[a].to_numpy() / 100, table[b].to_numpy() / 100
        if len(x) < 2:
            rows.append({"pair": f"{a} vs {b}", "domains": len(x), "wins a": float(np.sum(x > y)),
                         "wins b": float(np.sum(x < y)), "w0.05 (normal)": None, "w0.05 (exact)": None,
                         "sign p (two-sided)": np.nan, "sign rejects": False, "WS1": np.nan, "WS2": np.nan,
                         "T": np.nan, "V": None, "wilcoxon p": np.nan, "wilcoxon rejects": False})
            continue
        s = sign_test(x, y, alpha=alpha, critical="normal")
        s_exact = sign_test(x, y, alpha=alpha)
        try:
            w = wilcoxon_signed_rank(x, y, alpha=alpha)
            w_row = {"WS1": w.r_plus, "WS2": w.r_minus, "T": w.statistic, "V": w.critical_value,
                     "wilcoxon p": w.pvalue,
                     "wilcoxon rejects": bool(w.critical_value is not None and w.statistic <= w.critical_value)}
        except ValueError:
            w_row = {"WS1": 0.0, "WS2": 0.0, "T": np.nan, "V": None, "wilcoxon p": 1.0, "wilcoxon rejects": False}
        rows.append({"pair": f"{a} vs {b}", "domains": len(x), "wins a": s.wins_a, "wins b": s.wins_b,
                     "w0.05 (normal)": s.critical_wins, "w0.05 (exact)": s_exact.critical_wins,
                     "sign p (two-sided)": s.pvalue,
                     "sign rejects": bool(s.critical_wins is not None
                                          and max(s.wins_a, s.wins_b) >= s.critical_wins), **w_row})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- many classifiers, many domains

D_POOLED, D_PAIRED = "Cohen's d (pooled)", "Cohen's d (paired, d_z)"


def friedman_printed(alpha: float = 0.05) -> dict:
    """Friedman's test, the Nemenyi test and Cohen's d on the printed fA / fB / fC table
    (ties within 0.01 as the slide's ranks have them)."""
    from ..published import japkowicz2011 as paper

    scores = paper.friedman_table().set_index("Domain")
    fr = friedman_test(scores, tie_tolerance=0.01)
    ne = nemenyi_test(scores, alpha=alpha, tie_tolerance=0.01)
    pairs = []
    names = list(scores.columns)
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            pairs.append({"pair": f"{a} vs {b}", "rank difference": abs(ne.average_ranks[a] - ne.average_ranks[b]),
                          "q": ne.statistic.loc[a, b], "critical difference": ne.critical_difference,
                          "significant": bool(ne.reject.loc[a, b]),
                          D_POOLED: cohens_d(scores[a], scores[b]),
                          D_PAIRED: cohens_d(scores[a], scores[b], paired_samples=True)})
    ranks = pd.DataFrame({"ours": fr.rank_sums, "printed": pd.Series(paper.FRIEDMAN_RANK_SUMS)})
    exact = friedman_test(scores)
    return {"friedman": fr, "nemenyi": ne, "pairs": pd.DataFrame(pairs), "rank_sums": ranks,
            "exact_rank_sums": exact.rank_sums, "scores": scores}


def figure_cd(average_ranks_, critical_difference, title: str):
    """A critical-difference diagram (Nemenyi)."""
    import matplotlib.pyplot as plt

    from ..stats import plot_critical_difference

    fig, ax = plt.subplots(figsize=(7, 2.4))
    plot_critical_difference(average_ranks_, critical_difference, ax=ax)
    ax.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- resampling

BOOT_ESTIMATORS = ("e0", ".632", ".632+")


def boot_truth_table(results: Results) -> pd.DataFrame:
    """Per classifier and bootstrap estimator: mean estimate minus the true error over the samples, with the
    half-width of its 95 % t interval (positive: pessimistic)."""
    t = results.boot_truth
    if t is None or not len(t):
        return pd.DataFrame(columns=["classifier", "estimator", "bias", "±", "samples", "mean true error"])
    rows = []
    for label, g in t.groupby("classifier", sort=False):
        for name in BOOT_ESTIMATORS:
            d = (g[name] - g["true error"]).to_numpy()
            half = float(sps.t.ppf(0.975, len(d) - 1) * d.std(ddof=1) / np.sqrt(len(d))) if len(d) > 1 else np.nan
            rows.append({"classifier": label, "estimator": name, "bias": float(d.mean()), "±": half,
                         "samples": len(d), "mean true error": float(g["true error"].mean())})
    return pd.DataFrame(rows)


def bootstrap_claim(truth: pd.DataFrame | None, estimates: pd.DataFrame, min_samples: int = 30) -> Claim:
    """"The e0 bootstrap is pessimistic and .632 corrects for it", judged against the held-out truth of
    :func:`boot_truth_table` (e0 biased upwards beyond its interval; .632's bias smaller in size), with Labour's
    estimates beside the mean of its repeated 10-fold CVs (a reference, not a truth)."""
    statement = "the e0 bootstrap is pessimistic and the .632 bootstrap corrects for it"
    labour = "; ".join(f"{x['dataset']} {x['classifier']}: e0 {x['e0 bootstrap']:.3f}, .632 "
                       f"{x['.632 bootstrap']:.3f}, .632+ {x['.632+ bootstrap']:.3f} against "
                       f"{x[[c for c in x.index if c.endswith('x 10-fold CV error')][0]]:.3f} (mean of the "
                       f"repeated 10-fold CVs; the seed-1 run {x['10-fold CV error']:.3f})"
                       for _, x in estimates.iterrows())
    n = int(truth["samples"].min()) if truth is not None and len(truth) else 0
    if n < min_samples:
        return Claim(statement, "The e0 and e632 Bootstraps", UNDECIDED,
                     f"{n} samples with a held-out truth (need {min_samples}); {labour}")
    b = truth.set_index(["classifier", "estimator"])
    labels = list(dict.fromkeys(truth["classifier"]))
    pess = [b.loc[(c, "e0"), "bias"] - b.loc[(c, "e0"), "±"] > 0 for c in labels]
    fixes = [abs(b.loc[(c, ".632"), "bias"]) < abs(b.loc[(c, "e0"), "bias"]) for c in labels]
    verdict = HOLDS if all(pess) and all(fixes) else PARTLY if any(pess) or any(fixes) else DOES_NOT_HOLD
    return Claim(statement, "The e0 and e632 Bootstraps", verdict,
                 f"bias against the held-out truth ({n} samples of {BOOT_TRUTH_SIZE} rows of {BOOT_TRUTH_POOL}, the "
                 "true error measured on the other rows): " + "; ".join(
                     f"{c} " + ", ".join(f"{e} {b.loc[(c, e), 'bias']:+.3f} ± {b.loc[(c, e), '±']:.3f}"
                                        for e in BOOT_ESTIMATORS) for c in labels)
                 + f"; Labour (no truth): {labour}")


def boot_truth_note(truth: pd.DataFrame) -> str:
    """What Table 12b says: which bootstrap estimator is pessimistic or optimistic against the truth."""
    if not len(truth):
        return "No bootstrap samples with a held-out truth at this profile."
    words = []
    for c, g in truth.groupby("classifier", sort=False):
        b = g.set_index("estimator")
        words.append(f"{c} (true error {b['mean true error'].iloc[0]:.3f}): " + ", ".join(
            f"{e} {'pessimistic' if r['bias'] - r['±'] > 0 else 'optimistic' if r['bias'] + r['±'] < 0 else 'unbiased'}"
            f" ({r['bias']:+.3f} ± {r['±']:.3f})" for e, r in b.iterrows()))
    return (f"Against the held-out truth ({int(truth['samples'].min())} samples of {BOOT_TRUTH_SIZE} rows of "
            f"{BOOT_TRUTH_POOL}): " + "; ".join(words) + ". Labour's own estimates (Table 12) have no truth to "
            "meet; its seed-1 10-fold run is one of ten, the repeated runs' mean is the steadier reference.")


def resampling_table(results: Results, alpha: float = 0.05) -> tuple[pd.DataFrame, pd.DataFrame]:
    """(error estimates per classifier: 10-fold CV, 10 x 10 CV, e0, .632, .632+, resubstitution, the
    label-permutation test; the pairwise tests: 5x2cv t and F, 10 x 10 naive and corrected t)."""
    est_rows, test_rows = [], []
    runs = results.params["ttest_runs"]
    for dataset, a, b in results.params["resampling_pairs"]:
        boot = results.resampling[(results.resampling.dataset == dataset)].set_index("classifier")
        scores = {}
        for label in (a, b):
            folds = np.array([results.fold_accuracies(dataset, label, s) for s in range(1, runs + 1)])
            two = np.array([results.fold_accuracies(dataset, label, s, 2) for s in range(1, 6)])
            scores[label] = (folds, two)
            r = boot.loc[label]
            est_rows.append({"dataset": dataset, "classifier": label,
                             "10-fold CV error": 1 - folds[0].mean() / 100,
                             f"{runs} x 10-fold CV error": 1 - folds.mean() / 100,
                             "e0 bootstrap": r["e0"], ".632 bootstrap": r["e632"], ".632+ bootstrap": r["e632_plus"],
                             "resubstitution": r["resubstitution"],
                             "accuracy (10-fold)": r["permutation accuracy"],
                             "mean accuracy, permuted labels": r["permuted mean accuracy"],
                             "permutation p": r["permutation p"], "permutations": int(r["permutations"])})
        (fa, ta), (fb, tb) = scores[a], scores[b]
        for name, res, df in (
                ("5x2cv paired t-test (Dietterich)", paired_ttest_5x2cv(ta, tb), 5),
                ("5x2cv combined F-test (Alpaydin)", combined_ftest_5x2cv(ta, tb), "10, 5"),
                (f"{runs} x 10 naive t-test", paired_ttest(fa.ravel(), fb.ravel()), fa.size - 1),
                (f"{runs} x 10 corrected t-test", corrected_repeated_kfold_ttest(fa, fb, 10), fa.size - 1)):
            test_rows.append({"dataset": dataset, "pair": f"{a} vs {b}", "test": name, "statistic": res.statistic,
                              "df": str(df), "pvalue": res.pvalue, f"reject at {alpha}": res.pvalue < alpha})
    return pd.DataFrame(est_rows), pd.DataFrame(test_rows)


# --------------------------------------------------------------------------- the simulation

def simulation_table(results: Results, alpha: float = 0.05) -> pd.DataFrame:
    """Rejection rate of each test at ``alpha`` per true difference (type I error where it is 0, power
    elsewhere), with a 95 % Wilson interval half-width."""
    sim, truth = results.simulation, results.sim_truth.set_index("separation_b")
    rows = []
    for sep, g in sim.groupby("separation_b", sort=False):
        for test in SIM_TESTS:
            k, m = int((g[test] < alpha).sum()), len(g)
            lo, hi = _wilson(k, m)
            rows.append({"separation_b": sep, "true difference": truth.loc[sep, "true difference"], "test": test,
                         "rejection rate": k / m, "ci low": lo, "ci high": hi, "replications": m,
                         "kind": "type I error" if truth.loc[sep, "true difference"] == 0 else "power"})
    return pd.DataFrame(rows)


# The tutorial's comparative statements about the repeated-CV tests ("Repeated k-fold cross-validation"): who,
# what, the tests compared (a against b) and the stated sign of a - b in type I error and in power.
TEST_COMPARISONS = (
    ("Dietterich (1998)", "the 5x2cv t-test has a lower type I error than the 10-fold CV t-test, but less power",
     (("5x2cv t-test", "t-test, 10 folds (df 9)"),), (-1, -1)),
    ("Alpaydin (1999)", "the 5x2cv F-test has an even lower type I error than the 5x2cv t-test, and more power",
     (("5x2cv F-test", "5x2cv t-test"),), (-1, +1)),
    ("Bouckaert (2003)", "10 x 10 CV tests have a higher type I error than 10-fold CV, but higher power",
     (("t-test, 10 x 10 folds (naive)", "t-test, 10 folds (df 9)"),
      ("corrected t-test, 10 x 10", "t-test, 10 folds (df 9)")), (+1, +1)),
)

NEAR_ALPHA = 1.5          # a test keeps its type I error "near alpha" if its Wilson interval lies below 1.5 alpha


def compare_tests(results: Results, alpha: float = 0.05, z: float = 1.959963984540054) -> pd.DataFrame:
    """Each of :data:`TEST_COMPARISONS`' pairs of tests on the same simulated data sets: the difference of their
    rejection rates (a - b) under the null (type I error) and pooled over the true differences (power), with a
    95 % interval for paired proportions; ``reading`` is "as stated", "opposite" or "unresolved"."""
    sim, truth = results.simulation, results.sim_truth.set_index("separation_b")["true difference"]
    null = sim["separation_b"].map(truth).eq(0).to_numpy()
    rows = []
    for who, _, pairs, signs in TEST_COMPARISONS:
        for a, b in pairs:
            for quantity, hit, sign in (("type I error", null, signs[0]), ("power", ~null, signs[1])):
                ra, rb = (sim.loc[hit, a] < alpha).to_numpy(), (sim.loc[hit, b] < alpha).to_numpy()
                m, d = len(ra), (ra.astype(float) - rb).mean() if len(ra) else np.nan
                half = z * np.sqrt(max(np.mean((ra.astype(float) - rb) ** 2) - d * d, 0.0) / m) if m > 1 else np.nan
                reading = ("unresolved" if not (abs(d) > half) else "as stated" if np.sign(d) == sign
                           else "opposite")
                rows.append({"who": who, "a": a, "b": b, "quantity": quantity, "stated": "lower" if sign < 0
                             else "higher", "a - b": d, "±": half, "data sets": m, "reading": reading})
    return pd.DataFrame(rows)


def _wilson(k, m, z=1.959963984540054):
    if m == 0:
        return np.nan, np.nan
    p = k / m
    centre = (p + z * z / (2 * m)) / (1 + z * z / m)
    half = z * np.sqrt(p * (1 - p) / m + z * z / (4 * m * m)) / (1 + z * z / m)
    return centre - half, centre + half


def figure_simulation(table: pd.DataFrame, alpha: float = 0.05):
    """Rejection rate against the true difference, one line per test; the dotted line is alpha."""
    import matplotlib.pyplot as plt

    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(12, 4.8), gridspec_kw={"width_ratios": [1, 1.4]})
    null = table[table["kind"] == "type I error"].set_index("test").loc[list(SIM_TESTS)]
    y = np.arange(len(null))
    ax1.errorbar(null["rejection rate"], y, xerr=[null["rejection rate"] - null["ci low"],
                                                   null["ci high"] - null["rejection rate"]], fmt="o", capsize=3)
    ax1.axvline(alpha, color="k", ls=":", lw=1)
    ax1.set_yticks(y, null.index, fontsize=8)
    ax1.invert_yaxis()
    ax1.set(xlabel=f"type I error (rejections at alpha = {alpha})", title="true difference 0")
    for i, test in enumerate(SIM_TESTS):
        g = table[table.test == test].sort_values("true difference")
        line, = ax2.plot(g["true difference"], g["rejection rate"], marker="o", lw=1.2, label=test,
                         ls="-" if i < 5 else "--")
        if {"ci low", "ci high"} <= set(g.columns):
            ax2.fill_between(g["true difference"], g["ci low"], g["ci high"], color=line.get_color(), alpha=0.12,
                             lw=0)
    ax2.axhline(alpha, color="k", ls=":", lw=1)
    ax2.set(xlabel="true difference in accuracy (A - B)", ylabel="rejection rate", ylim=(0, 1.02),
            title="power (bands: 95 % Wilson intervals)")
    ax2.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False)
    fig.tight_layout()
    return fig


# --------------------------------------------------------------------------- research 1: visualization

def confusion_vectors(results: Results, domains: dict, labels=EIGHT) -> tuple[pd.DataFrame, dict]:
    """Each classifier's confusion matrices on ``domains`` (name -> data set) concatenated into one
    vector, plus the ideal classifier's (every example on the diagonal). Returns (vectors, matrices)."""
    vectors, matrices = {}, {}
    ideal = []
    for d in domains.values():
        cm = weka_measures(results.predictions(d, labels[0]))["confusion"]
        ideal.append(np.diag(cm.sum(axis=1)).ravel())
    vectors["Ideal"] = np.concatenate(ideal)
    for label in labels:
        parts = []
        for name, d in domains.items():
            cm = weka_measures(results.predictions(d, label))["confusion"]
            matrices[(label, name)] = cm
            parts.append(cm.ravel())
        vectors[label] = np.concatenate(parts)
    return pd.DataFrame(vectors).T, matrices


def visualization(results: Results, domains: dict, metric: str = "euclidean", labels=EIGHT) -> dict:
    """Distances to the ideal classifier and the MCST projection of the concatenated confusion matrices."""
    vectors, matrices = confusion_vectors(results, domains, labels)
    proj = mcst_projection(vectors.to_numpy(float), list(vectors.index), root=0, metric=metric)
    table = proj.table().rename(columns={"distance_to_root": "distance to Ideal"})
    table["point"] = table["distance to Ideal"].rank(method="first").astype(int)
    return {"projection": proj, "table": table.sort_values("point"), "vectors": vectors, "matrices": matrices,
            "metric": metric, "domains": domains}


def figure_visualization(panels: list, titles: list):
    """The framework's pictures: each classifier a numbered point (1 = Ideal, then by distance to it)."""
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 5))
    axes = np.atleast_1d(axes)
    for ax, vis, title in zip(axes, panels, titles):
        t = vis["table"].set_index("name")
        proj = vis["projection"]
        for i, p in enumerate(proj.parent):
            if p >= 0:
                ax.plot(*proj.coords[[i, p]].T, color="lightgrey", lw=0.8, zorder=1)
        ax.scatter(t.x, t.y, s=30, zorder=2, color=["tab:red" if n == "Ideal" else "tab:blue" for n in t.index])
        xy = t[["x", "y"]].to_numpy()
        span = max(np.ptp(xy, axis=0).max(), 1e-12)
        gaps = np.linalg.norm(xy[:, None] - xy[None], axis=2) + np.eye(len(xy)) * span
        crowded = gaps.min(axis=1) < 0.06 * span            # labels would overlap: listed in a box instead
        for (name, r), crowd in zip(t.iterrows(), crowded):
            if not crowd or name == "Ideal":
                ax.annotate(f"{r.point}: {name}", (r.x, r.y), textcoords="offset points", xytext=(4, 4), fontsize=8)
        if crowded.any():
            listed = [f"{r.point}: {name}" for (name, r), crowd in zip(t.iterrows(), crowded) if crowd
                      and name != "Ideal"]
            ax.text(0.02, 0.02, "close together:\n" + "\n".join(listed), transform=ax.transAxes, fontsize=7,
                    va="bottom", bbox={"facecolor": "white", "edgecolor": "lightgrey"})
        ax.set_aspect("equal", adjustable="datalim")
        ax.set_title(title, fontsize=10)
        ax.set_xticks([])
        ax.set_yticks([])
    fig.tight_layout()
    return fig


def visualization_table_vs_paper(results: Results) -> pd.DataFrame:
    """Accuracy, F-measure and AUC of NB, SMO and AdaBoost on Breast Cancer, Labour and Liver (and their
    averages), ours beside the printed table."""
    from ..published import japkowicz2011 as paper

    names = {"NB": "NB", "SMO": "SVM", "Boost": "Boost"}
    text = paper.visualization_table(as_text=True)
    rows = []
    for tutorial, label in names.items():
        per = []
        for short, d in VIS_DOMAINS.items():
            if (d, label, 1, 10) not in results.cv:
                continue
            m = measures_of(results.predictions(d, label), d)
            per.append((short, m["Acc"], m["F"], m["AUC"]))
        if len(per) == len(VIS_DOMAINS):
            per.append(("Avg", *np.mean([p[1:] for p in per], axis=0)))
        mine = text[(text.Classifier == tutorial) & (text.Domain != "Avg")]
        for short, acc, f, auc in per:
            pt = text[(text.Classifier == tutorial) & (text.Domain == short)].iloc[0]
            note, unfollowed = "", np.nan
            if short == "Avg":
                own = {k: mine[k].astype(float).mean() for k in ("Acc", "F", "AUC")}
                note = ("the slide's own per-domain numbers average to "
                        + ", ".join(f"{k} {v:.{_decimals(pt[k]) + 1}f}" for k, v in own.items()))
                unfollowed = ", ".join(f"{k} {pt[k]} (the slide's numbers give {v:.{_decimals(pt[k]) + 2}f})"
                                       for k, v in own.items() if not printed_match(v, pt[k]))
            cells = [printed_match(v, t, 3 if k != "Acc" else 4)
                     for v, t, k in ((acc, pt.Acc, "Acc"), (f, pt.F, "F"), (auc, pt.AUC, "AUC"))]
            rows.append({"classifier": tutorial, "domain": short, "Acc ours": acc, "Acc printed": float(pt.Acc),
                         "F ours": f, "F printed": float(pt.F), "AUC ours": auc, "AUC printed": float(pt.AUC),
                         "agrees": all(cells), "cells agreeing": int(sum(cells)),
                         "note": note, "printed average not from the slide's numbers": unfollowed})
    return pd.DataFrame(rows)


def anneal_confusions(results: Results) -> pd.DataFrame:
    """Anneal: accuracy of every classifier and, for NB and AdaBoost, whether our confusion matrix is the
    printed one."""
    from ..published import japkowicz2011 as paper

    rows = []
    for label in EIGHT:
        if (VIS_MULTICLASS, label, 1, 10) not in results.cv:
            continue
        m = weka_measures(results.predictions(VIS_MULTICLASS, label))
        printed_name = {"NB": "NB", "Boost": "Adaboost"}.get(label)
        same = None
        if printed_name:
            same = bool(np.array_equal(m["confusion"], paper.anneal_confusion(printed_name)))
        printed = paper.ANNEAL_ACCURACY.get(printed_name) if printed_name else "97.4 to 99.3"
        rows.append({"classifier": label, "accuracy": m["accuracy"], "printed": printed,
                     "confusion matrix as printed": same})
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- research 2: the flu domain

def flu_table(results: Results) -> pd.DataFrame:
    """Mean errors and the median pD per scenario and classifier over the repetitions (with pD's range),
    scenarios in the slides' order. The median, because one failed fit of the "ideal" classifier (trained
    on the changed population) makes that repetition's pD meaningless (far below 0)."""
    t = results.flu
    out = t.groupby(["kind", "scenario", "classifier"], sort=False).agg(
        error=("error", "mean"), ideal_error=("ideal error", "mean"), trivial_error=("trivial error", "mean"),
        pD=("pD", "median"), pD_min=("pD", "min"), pD_max=("pD", "max")).reset_index()
    return out


def poor_ideal_fits(flu: pd.DataFrame) -> pd.DataFrame:
    """Runs whose "ideal" classifier (trained on the test population) erred more than the moved one by more
    than the moved one's gap to the trivial classifier (pD < -1): a failed fit, not a deterioration."""
    return flu[flu["pD"] < -1][["scenario", "classifier", "repetition", "error", "ideal error", "pD"]]


def figure_flu(table: pd.DataFrame):
    """pD per classifier and scenario, one panel per kind of change."""
    import matplotlib.pyplot as plt

    kinds = [k for k in ("population drift", "non-represented", "class definition") if k in set(table.kind)]
    widths = [max(table[table.kind == k].scenario.nunique(), 1) for k in kinds]
    fig, axes = plt.subplots(1, len(kinds), figsize=(2.5 + 0.7 * sum(widths), 4.2),
                             gridspec_kw={"width_ratios": widths}, squeeze=False)
    colors = {"1R": "tab:orange", "DT": "tab:blue", "SimpleNN": "tab:red", "MLP": "tab:purple"}
    noise = table[table.scenario == "none"].set_index("classifier")["pD"] if "none" in set(table.scenario) else None
    for ax, kind in zip(axes[0], kinds):
        g = table[table.kind == kind]
        scen = list(dict.fromkeys(g.scenario))
        x = np.arange(len(scen))
        for i, label in enumerate(FLU_LEARNERS):
            v = g[g.classifier == label].set_index("scenario").reindex(scen)
            spread = None
            if {"pD_min", "pD_max"} <= set(v.columns) and (v["pD_max"] > v["pD_min"]).any():
                spread = np.vstack([(v["pD"] - v["pD_min"]).clip(lower=0), (v["pD_max"] - v["pD"]).clip(lower=0)])
            ax.bar(x + (i - 1.5) * 0.2, v["pD"], 0.2, color=colors[label], label=label, yerr=spread,
                   error_kw={"lw": 0.8, "capsize": 2, "ecolor": "0.3"},
                   hatch="//" if label in ("1R", "SimpleNN") else None, edgecolor="white")
        if noise is not None:
            ax.axhline(noise.abs().max(), color="grey", ls=":", lw=0.8)
        ax.axhline(0, color="k", lw=0.6)
        ax.set_xticks(x, scen, rotation=30, ha="right", fontsize=8)
        ax.set_title(kind, fontsize=10)
        low = g["pD_min"] if "pD_min" in g else g["pD"]
        ax.set_ylim(max(-1.05, min(-0.1, float(low.min()) - 0.05)), 1.05)
    axes[0][0].set_ylabel("performance deterioration pD")
    axes[0][-1].legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.02, 1.0), frameon=False,
                       title="bars: median, whiskers:\nrange over repetitions" if table.get("pD_max") is not None
                       and (table["pD_max"] > table["pD_min"]).any() else None, title_fontsize=7)
    fig.tight_layout()
    return fig
