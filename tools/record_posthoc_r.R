# Record R's answers for the post-hoc tests of issue 33 (item 2) as tests/fixtures/posthoc/r_posthoc.json.
# tests/test_posthoc.py compares cvrepro.stats with these values, without R.
#
# Oracles (R 4.2.2, Debian r-base-core; r-cran-mcmcpack for rdirichlet):
# - scmamp 0.3.2 (Calvo & Santafe 2016; not packaged by Debian): its R sources at GitHub b0rxa/scmamp
#   commit 3cf4d8b9759769cdf20771afa0efc33a5265c7f9, sourced from SCMAMP_DIR (a checkout's root):
#   friedmanAlignedRanksTest, quadeTest, friedmanPost, friedmanAlignedRanksPost, quadePost, adjustShaffer,
#   adjustBergmannHommel (its precomputed exhaustive sets), adjustFinner, bSignedRankTest; and its
#   data.gh.2008 (Garcia & Herrera 2008: 5 classifiers on 30 data sets).
# - stats::quade.test, stats::p.adjust (holm, hommel, BH), stats::t.test (paired conf.int).
# - effsize 0.8.1 (Torchiano; not packaged by Debian): GitHub cran/effsize commit
#   5813abc9f40eb6313f003f33ee588dc06f4fd052, sourced from EFFSIZE_DIR: cohen.d, cliff.delta.
# Run (about 3 minutes; apt-get install r-base-core r-cran-mcmcpack; the two source trees checked out at the
# commits above, e.g. git clone https://github.com/b0rxa/scmamp and https://github.com/cran/effsize):
#   SCMAMP_DIR=/path/to/scmamp EFFSIZE_DIR=/path/to/effsize Rscript tools/record_posthoc_r.R
suppressMessages(library(MCMCpack))   # rdirichlet, which scmamp's bSignedRankTest needs
scmamp <- Sys.getenv("SCMAMP_DIR"); effsize <- Sys.getenv("EFFSIZE_DIR")
if (scmamp == "" || effsize == "") stop("set SCMAMP_DIR and EFFSIZE_DIR to the two source checkouts")
load(file.path(scmamp, "R", "sysdata.rda"))          # exhaustive.sets
load(file.path(scmamp, "data", "data_gh_2008.RData"))  # data.gh.2008
for (f in c("tests.R", "post_hoc.R", "bayesian.R")) source(file.path(scmamp, "R", f))
for (f in c("CohenD.R", "CliffDelta.R")) source(file.path(effsize, "R", f))

# A minimal JSON writer (no jsonlite in Debian's r-base-core): named lists are objects, unnamed lists
# arrays, numeric vectors arrays (17 digits; length 1: a number), length-1 character strings.
to_json <- function(x) {
  if (is.list(x)) {
    items <- vapply(x, to_json, "")
    if (is.null(names(x))) return(paste0("[", paste(items, collapse = ", "), "]"))
    return(paste0("{", paste(sprintf('"%s": %s', names(x), items), collapse = ", "), "}"))
  }
  if (is.character(x) || is.factor(x)) {
    s <- sprintf('"%s"', as.character(x))
    return(if (length(s) == 1) s else paste0("[", paste(s, collapse = ", "), "]"))
  }
  if (is.logical(x)) return(paste0("[", paste(tolower(x), collapse = ", "), "]"))
  if (length(x) == 1) return(if (is.finite(x)) sprintf("%.17g", x) else "null")
  paste0("[", paste(ifelse(is.finite(x), sprintf("%.17g", x), "null"), collapse = ", "), "]")
}

upper <- function(m) { k <- ncol(m); p <- generatePairs(k, NULL); as.numeric(m[p]) }  # combinations order

# digits: the scores' decimals; R then sees round(scores * 10^digits) * k, integers divisible by k, so that
# aligned scores and ranges that tie in decimal arithmetic tie exactly in floating point (every statistic
# here is invariant to that scaling).
closed_bergmann <- function(raw, k) {   # Garcia & Herrera's APV without scmamp's running maximum
  pairs <- generatePairs(k, NULL); m <- matrix(NA, k, k); m[pairs] <- raw; m[pairs[, 2:1]] <- raw
  sapply(seq_len(nrow(pairs)), function(i) min(1, max(unlist(lapply(exhaustive.sets[[k]], function(s)
    if (any(colSums(pairs[i, ] == s) == 2)) ncol(s) * min(m[t(s)]))))))
}

rank_case <- function(id, data, digits = NA) {
  scores <- as.matrix(data)
  k <- ncol(data)
  data <- if (is.na(digits)) scores else round(scores * 10^digits) * k
  fr <- friedmanPost(data)
  raw <- upper(fr)
  q <- quade.test(data)
  out <- list(id = id, learners = colnames(data),
              scores = lapply(seq_len(nrow(scores)), function(i) scores[i, ]),
              aligned_statistic = unname(friedmanAlignedRanksTest(data)$statistic),
              aligned_pvalue = friedmanAlignedRanksTest(data)$p.value,
              quade_statistic = unname(quadeTest(data)$statistic), quade_pvalue = quadeTest(data)$p.value,
              quade_stats_statistic = unname(q$statistic), quade_stats_pvalue = q$p.value,
              friedman_p = raw, aligned_p = upper(friedmanAlignedRanksPost(data)), quade_p = upper(quadePost(data)),
              shaffer = upper(adjustShaffer(fr)), holm = p.adjust(raw, "holm"), hommel = p.adjust(raw, "hommel"),
              bh = p.adjust(raw, "BH"), finner = adjustFinner(raw))
  if (k <= 8) {
    out$bergmann_scmamp <- upper(suppressMessages(adjustBergmannHommel(fr)))
    out$bergmann <- closed_bergmann(raw, k)
  }
  out
}

set.seed(20081201)
rank_cases <- list(rank_case("garcia_herrera_2008", data.gh.2008, digits = 3))
for (k in 3:8) {   # full precision: no ties
  n <- c(12, 10, 24, 15, 30, 18)[k - 2]
  data <- matrix(runif(n * k, 0.6, 0.95) + rep(seq(0, 0.04, length.out = k), each = n), n, k)
  colnames(data) <- paste0("L", seq_len(k))
  rank_cases[[length(rank_cases) + 1]] <- rank_case(sprintf("uniform_k%d_n%d", k, n), data)
}
tied <- matrix(round(runif(16 * 4, 0.7, 0.8), 2), 16, 4, dimnames = list(NULL, c("A", "B", "C", "D")))
rank_cases[[length(rank_cases) + 1]] <- rank_case("ties_k4_n16", tied, digits = 2)

effect_cases <- lapply(list(c(0, 0.2), c(3, 0.05), c(5, 0.1), c(7, 0.3), c(11, 0.6), c(13, 1.0), c(17, 2.0)),
                       function(par) {
  set.seed(par[1]); a <- round(rnorm(15, 0.8 + par[2] * 0.05, 0.05), 4); b <- round(rnorm(15, 0.8, 0.05), 4)
  cd <- cohen.d(a, b); cz <- cohen.d(a, b, paired = TRUE, within = FALSE); cl <- cliff.delta(a, b)
  list(a = a, b = b, cohen = unname(cd$estimate), cohen_magnitude = as.character(cd$magnitude),
       cohen_paired = unname(cz$estimate), cohen_paired_magnitude = as.character(cz$magnitude),
       cliff = unname(cl$estimate), cliff_magnitude = as.character(cl$magnitude))
})

interval_cases <- lapply(list(c(1, 10, 3), c(2, 10, 10), c(4, 5, 2), c(8, 3, 5)), function(par) {
  set.seed(par[1]); k <- par[2]; r <- par[3]; n <- k * r
  a <- round(runif(n, 0.7, 0.9), 4); b <- round(a - 0.02 + rnorm(n, 0, 0.03), 4)
  out <- list(k = k, a = a, b = b)
  for (level in c(0.90, 0.95, 0.99)) {
    ci <- t.test(a, b, paired = TRUE, conf.level = level)$conf.int
    d <- a - b
    half <- qt(1 - (1 - level) / 2, n - 1) * sqrt((1 / n + 1 / (k - 1)) * var(d))   # Nadeau & Bengio
    out[[sprintf("paired_%g", level)]] <- as.numeric(ci)
    out[[sprintf("corrected_%g", level)]] <- c(mean(d) - half, mean(d) + half)
  }
  out
})

# Bayesian signed-rank (scmamp's bSignedRankTest: "Left" is P(a - b < -rope)) and the Bayesian sign test,
# Dirichlet(n_a + 0, n_rope + 1, n_b) on the counts with prior strength 1 on the rope (Benavoli et al. 2017).
sign_probs <- function(a, b, rope, nsim) {
  d <- a - b
  alpha <- c(sum(d > rope), sum(abs(d) <= rope) + 1, sum(d < -rope))
  w <- rdirichlet(nsim, alpha)
  tabulate(max.col(w, ties.method = "first"), 3) / nsim
}
bayes_cases <- lapply(list(c(21, 0.0, 0.01), c(22, 0.01, 0.01), c(23, 0.02, 0.01), c(24, 0.005, 0.02)),
                      function(par) {
  set.seed(par[1]); a <- round(runif(12, 0.7, 0.95), 4); b <- round(a - par[2] + rnorm(12, 0, 0.02), 4)
  sr <- bSignedRankTest(a, b, rope = c(-par[3], par[3]), nsim = 20000, seed = par[1])$posterior.probabilities
  list(a = a, b = b, rope = par[3], nsim = 20000,
       signed_rank = c(sr[["Right"]], sr[["Rope"]], sr[["Left"]]), sign = sign_probs(a, b, par[3], 200000))
})

# scmamp's exhaustive sets (with repeats) as sorted "i-j" pair lists, unique, for k = 3..6; the counts to k = 9.
set_key <- function(s) paste(sort(apply(s, 2, function(p) paste(sort(p) - 1, collapse = "-"))), collapse = " ")
exhaustive <- lapply(3:9, function(k) {
  keys <- unique(vapply(exhaustive.sets[[k]], set_key, ""))
  if (k <= 6) list(k = k, count = length(keys), sets = as.list(keys)) else list(k = k, count = length(keys))
})

out <- list(r_version = R.version.string, scmamp_commit = "3cf4d8b9759769cdf20771afa0efc33a5265c7f9",
            effsize_commit = "5813abc9f40eb6313f003f33ee588dc06f4fd052", rank_cases = rank_cases,
            effect_cases = effect_cases, interval_cases = interval_cases, bayes_cases = bayes_cases,
            exhaustive_sets = exhaustive)
writeLines(to_json(out), "tests/fixtures/posthoc/r_posthoc.json")
