# Record R's answers for the statistics edge cases of issue 32 as tests/fixtures/stats/r_reference.json.
# Run: Rscript tools/record_stats_r.R   (R 4.2.2, Debian r-base-core; no extra packages)
# tests/test_stats_oracles.py compares cvrepro.stats with these values.
num <- function(x) if (is.finite(x)) sprintf("%.17g", x) else "NaN"
json_list <- function(items) paste0("[\n", paste(items, collapse = ",\n"), "\n]")

# t.test: differences constant up to float noise -> R refuses ("data are essentially constant").
ttest_cases <- list(
  list(id = "c50_vs_c_minus_1", a = (30:39) / 50, b = (29:38) / 50),
  list(id = "c100_vs_c_minus_3", a = (60:79) / 100, b = (57:76) / 100),
  list(id = "one_real_change", a = c((30:38) / 50, 40 / 50), b = (29:38) / 50),
  list(id = "tiny_real_spread", a = 0.5 + 0.02 + 1e-12 * (1:10), b = rep(0.5, 10))
)
tt <- sapply(ttest_cases, function(cs) {
  r <- tryCatch(t.test(cs$a, cs$b, paired = TRUE), error = function(e) conditionMessage(e))
  vec <- function(v) paste0("[", paste(sprintf("%.17g", v), collapse = ", "), "]")
  if (is.character(r)) {
    out <- sprintf('"error": "%s", "statistic": null, "pvalue": null', r)
  } else {
    out <- sprintf('"error": null, "statistic": %s, "pvalue": %s', num(r$statistic), num(r$p.value))
  }
  sprintf('  {"id": "%s", "a": %s, "b": %s, %s}', cs$id, vec(cs$a), vec(cs$b), out)
})

# mcnemar.test on [[n11, b], [c, n22]], with and without the continuity correction.
mc <- c()
for (bc in list(c(1, 1), c(3, 3), c(7, 7), c(2, 1), c(1, 2), c(5, 1), c(0, 4), c(12, 7))) {
  for (correct in c(TRUE, FALSE)) {
    x <- matrix(c(10, bc[2], bc[1], 10), 2)   # column-major: x[1, 2] = b, x[2, 1] = c
    r <- mcnemar.test(x, correct = correct)
    mc <- c(mc, sprintf('  {"b": %d, "c": %d, "correct": %s, "statistic": %s, "pvalue": %s}',
                        bc[1], bc[2], tolower(correct), num(r$statistic), num(r$p.value)))
  }
}

out <- paste0('{\n"r_version": "', R.version.string, '",\n',
              '"t_test_paired": ', json_list(tt), ',\n',
              '"mcnemar_test": ', json_list(mc), '\n}\n')
writeLines(out, "tests/fixtures/stats/r_reference.json")
