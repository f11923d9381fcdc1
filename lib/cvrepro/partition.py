"""Stratified partitioners of Moreno-Torres, Saez & Herrera (2012), Algorithms 1-4.

``SCV``     stratified CV: each class shuffled and dealt round-robin to the folds.
``DBSCV``   distribution-balanced SCV: walk the nearest-unassigned-neighbour chain
            of each class from a random start, dealing the chain round-robin.
``DOBSCV``  distribution-optimally-balanced SCV: a random unassigned seed and its
            k-1 nearest unassigned same-class neighbours go to k different folds.
``MSSCV``   maximally-shifted SCV: the same chain as DB-SCV, cut into k contiguous
            blocks, so each fold is one region of the class (the worst case).

All are scikit-learn ``BaseCrossValidator`` s (usable as ``cv=``), take ``X`` as a
pandas DataFrame (categoricals and NaN allowed) or a numpy array, and share
these choices, pinned down where published implementations disagree:

* Distance (``metric``), three named readings:

  - ``"heom"`` (default): numeric attributes scaled to [0, 1] by their range
    over the whole data set, nominal ones 0/1 overlap, 1 when either value is
    missing; Euclidean over attributes (Wilson & Martinez's HEOM).
  - ``"hvdm"``: textbook HVDM (Wilson & Martinez 1997): numeric
    ``|a - b| / (4 sd)`` (sample sd), nominal value difference
    ``sqrt(sum_c (P(c|a) - P(c|b))^2)``, missing 1, Euclidean over attributes.
  - ``"keel"``: the distance KEEL's DOB-SCV (``DistanceBased_best.java``, by the
    paper's second author) computes, i.e. what the paper ran:
    ``sqrt(sum_num |a - b| / 4 * sd + sum_nom VDM(a, b) + n_missing)``. By Java's
    operator precedence the numeric term is multiplied by the standard deviation
    (population sd over the whole data set), and neither term is squared. KEEL
    stores a missing numeric value as 0 and a missing nominal one as its first
    value, and so counts them in the sd and the VDM statistics; we do the same.
    With ``"keel"``, DOB-SCV also skips neighbours at distance exactly 0 as KEEL
    does (a duplicate of a seed never joins the seed's group).
* Ties between neighbours go to the lowest row index. Except under ``"keel"``,
  exact duplicates of a seed are ordinary neighbours (spread over folds).
* Classes are processed in sorted label order (categorical order for pandas
  categoricals). Class ``j`` starts dealing at fold ``offset_j = (n_0 + ... +
  n_{j-1}) mod k`` instead of fold 0, so per-class fold counts differ by at
  most one *and* so do total fold sizes (the paper restarts every class at
  fold 0, which piles each class's remainder onto the first folds). For
  DOB-SCV this only relabels the folds of full groups; the last, partial group
  of a class fills folds ``offset_j, offset_j + 1, ...``.
* MS-SCV block sizes are ``n_c // k``, plus one for the ``n_c mod k`` folds
  starting at ``offset_j``; blocks go to folds 0, 1, ..., k-1 in chain order.
* A class with fewer than ``n_splits`` examples raises ``ValueError``; with
  ``small_classes="warn"`` it is spread over as many folds as it has examples
  and a warning says so. Fewer examples than folds is always an error.

Randomness comes only from ``random_state`` (a fresh ``RandomState`` per call
to ``split``, consumed class by class), so equal seeds give equal folds. SCV
also takes a numpy ``Generator``, which each call draws from and advances.
DOB-SCV shuffles each class as KEEL does (a forward Fisher-Yates on
``random_sample`` draws, :func:`keel_shuffle`); numpy's ``RandomState(s)`` is
KEEL's ``Randomize.setSeed(s)`` (both MT19937 ``init_genrand``, 53-bit draws),
so with ``metric="keel"`` our DOB-SCV folds are KEEL's for the same seed, up to
the per-class fold rotation by ``offset_j`` (tests/fixtures/keel_partition,
recorded by tools/record_keel_partition.py).

Measured (tests/test_partition.py): the mean distance from a test example to
its nearest same-class training example is ~2-3 % below SCV for DB-SCV and
DOB-SCV and 30-65 % above it for MS-SCV; DB-SCV comes out marginally below
DOB-SCV, so the paper's DOB-SCV <= DB-SCV does not show on this score.
"""
from __future__ import annotations

import numbers
import warnings

import numpy as np
import pandas as pd
from scipy.spatial.distance import cdist
from sklearn.model_selection import BaseCrossValidator
from sklearn.utils import check_random_state

__all__ = [
    "SCV", "DBSCV", "DOBSCV", "MSSCV", "RepeatedSplitter",
    "make_partitioner", "PARTITIONERS", "METRICS", "mixed_distances", "encode", "keel_shuffle",
]

METRICS = ("heom", "hvdm", "keel")

# A class whose pairwise distance block would exceed this many entries is
# walked row by row instead (same distances, less memory, slower).
_MAX_BLOCK = 4000 * 4000


# --------------------------------------------------------------------------- #
# Distances
# --------------------------------------------------------------------------- #
class _Encoded:
    """Attributes prepared once per data set for exact squared distances.

    ``dense`` holds complete numeric columns (scaled) and VDM embeddings of
    complete nominal columns: their squared Euclidean distance is exact.
    ``sparse`` holds (values, missing) pairs of columns with missing values,
    each contributing ``1`` when either side is missing. ``codes`` holds HEOM
    nominal codes, missing values replaced by unique negative codes so that
    they never match (Hamming distance then counts mismatches exactly).
    ``kept_blocks``: class distance blocks kept by :meth:`keep_class_blocks`
    (none unless asked), reused by every draw on these data.
    """

    def __init__(self, X, y, metric: str):
        frame = _frame(X)
        n = len(frame)
        y_codes = pd.Categorical(np.asarray(y)).codes
        n_classes = y_codes.max() + 1
        dense, sparse, codes = [], [], []
        for name in frame.columns:
            col = frame[name]
            if _is_numeric(col):
                v = col.to_numpy(dtype=float, na_value=np.nan)
                if np.isinf(v).any():
                    raise ValueError(f"attribute {name!r} has infinite values")
                ok = ~np.isnan(v)
                if not ok.any():
                    continue
                if metric == "heom":
                    lo, hi = v[ok].min(), v[ok].max()
                    scale = hi - lo
                    v = (v - lo) / scale if scale > 0 else np.zeros(n)
                else:
                    sd = v[ok].std(ddof=1) if ok.sum() > 1 else 0.0
                    v = (v - np.nanmean(v)) / (4 * sd) if sd > 0 else np.zeros(n)
                if ok.all():
                    dense.append(v[:, None])
                else:
                    sparse.append((np.where(ok, v, 0.0)[:, None], ~ok))
            else:
                c = pd.Categorical(col.astype(object).where(col.notna(), None))
                cc = c.codes.astype(np.int64)
                miss = cc < 0
                if metric == "heom":
                    codes.append(np.where(miss, -1 - np.arange(n), cc))
                    continue
                # value difference: embed each value as its class distribution
                counts = np.zeros((len(c.categories), n_classes))
                np.add.at(counts, (cc[~miss], y_codes[~miss]), 1.0)
                emb = counts / np.maximum(counts.sum(1, keepdims=True), 1.0)
                e = np.where(miss[:, None], 0.0, emb[np.maximum(cc, 0)])
                if miss.any():
                    sparse.append((e, miss))
                else:
                    dense.append(e)
        self.metric, self.n = metric, n
        self.dense = np.hstack(dense) if dense else None
        self.sparse = sparse
        self.codes = np.column_stack(codes) if codes else None
        self.kept_blocks: dict = {}    # class rows (bytes) -> their distance block, see keep_class_blocks

    def keep_class_blocks(self, y, max_bytes: float = np.inf) -> int:
        """Compute and keep the pairwise squared distances within each class (those small
        enough to be walked on a whole block, while the total stays within ``max_bytes``),
        so that every later draw on these data reuses them instead of recomputing them
        (the bulk of a draw's time). Returns the bytes kept."""
        labels = _class_codes(y)
        kept = sum(b.nbytes for b in self.kept_blocks.values())
        for c in np.unique(labels):
            rows = np.flatnonzero(labels == c)
            size = len(rows) ** 2 * 8
            if len(rows) ** 2 > _MAX_BLOCK or kept + size > max_bytes or rows.tobytes() in self.kept_blocks:
                continue
            block = self.block(rows)
            block.flags.writeable = False
            self.kept_blocks[rows.tobytes()] = block
            kept += size
        return kept

    def class_block(self, rows: np.ndarray) -> np.ndarray:
        """Squared distances among ``rows``: the kept block if there is one, else computed."""
        kept = self.kept_blocks.get(rows.tobytes())
        return kept if kept is not None else self.block(rows)

    def block(self, a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
        """Squared distances between rows ``a`` and rows ``b`` (default: ``a``)."""
        parts = []
        if self.dense is not None:
            parts.append(_sq(self.dense, a, b))
        for values, miss in self.sparse:
            part = _sq(values, a, b)
            mb = miss[a] if b is None else miss[b]
            part[miss[a][:, None] | mb[None, :]] = 1.0
            parts.append(part)
        if self.codes is not None:
            q = self.codes.shape[1]
            parts.append(np.rint(_sq(self.codes, a, b, "hamming") * q))
        if not parts:
            return np.zeros((len(a), len(a) if b is None else len(b)))
        d = parts[0]
        for part in parts[1:]:
            d += part
        return d


def _sq(values, a, b, metric="sqeuclidean"):
    """Pairwise distances of rows ``a`` to rows ``b`` (default ``a``)."""
    return cdist(values[a], values[a if b is None else b], metric)


class _KeelEncoded(_Encoded):
    """KEEL's DOB-SCV distance (``metric="keel"``): :meth:`block` returns the sum under
    KEEL's square root, term by term in attribute order as KEEL adds them, so that ties
    and their order are KEEL's."""

    def __init__(self, X, y, metric: str = "keel"):
        frame = _frame(X)
        n = len(frame)
        y_codes = np.asarray(y)
        n_classes = int(y_codes.max()) + 1 if n else 0
        self.terms = []          # per attribute: (values, missing, sd) or (codes, missing, VDM table)
        for name in frame.columns:
            col = frame[name]
            if _is_numeric(col):
                v = col.to_numpy(dtype=float, na_value=np.nan)
                if np.isinf(v).any():
                    raise ValueError(f"attribute {name!r} has infinite values")
                miss = np.isnan(v)
                v = np.where(miss, 0.0, v)          # KEEL keeps 0 for a missing real value
                mean = np.cumsum(v)[-1] / n         # KEEL's sequential sums, population sd
                sd = np.sqrt(np.cumsum(v * v)[-1] / n - mean * mean)
                self.terms.append((v, miss, sd))
            else:
                c = pd.Categorical(col)             # declared order: value 0 is the first category
                cc = c.codes.astype(np.int64)
                miss = cc < 0
                cc = np.where(miss, 0, cc)          # KEEL keeps value 0 for a missing nominal value
                counts = np.zeros((len(c.categories), n_classes))
                np.add.at(counts, (cc, y_codes), 1.0)
                with np.errstate(invalid="ignore", divide="ignore"):
                    p = counts / counts.sum(1, keepdims=True)
                table = np.zeros((len(p), len(p)))
                for a in range(len(p)):
                    for b in range(a + 1, len(p)):
                        diff = p[a] - p[b]
                        table[a, b] = table[b, a] = np.sqrt(np.cumsum(diff * diff)[-1])
                self.terms.append((cc, miss, table))
        self.metric, self.n = metric, n
        self.dense = np.column_stack([t[0] for t in self.terms]) if self.terms else None
        self.sparse, self.codes = [], None
        self.kept_blocks = {}

    def block(self, a: np.ndarray, b: np.ndarray | None = None) -> np.ndarray:
        """KEEL's sum (the squared distance) between rows ``a`` and rows ``b`` (default ``a``)."""
        b = a if b is None else b
        total = np.zeros((len(a), len(b)))
        for values, miss, scale in self.terms:
            if np.ndim(scale) == 0:
                term = np.abs(values[a][:, None] - values[b][None, :]) / 4 * scale
            else:
                term = scale[values[a][:, None], values[b][None, :]]
            term[miss[a][:, None] | miss[b][None, :]] = 1.0
            total += term
        return total


def _frame(X) -> pd.DataFrame:
    return X if isinstance(X, pd.DataFrame) else pd.DataFrame(np.asarray(X))


def encode(X, y, metric: str = "heom") -> _Encoded:
    """``X`` prepared for the distance-based partitioners (pass as ``encoded=``)."""
    if metric not in METRICS:
        raise ValueError(f"metric must be one of {', '.join(METRICS)}; got {metric!r}")
    return (_KeelEncoded if metric == "keel" else _Encoded)(X, _class_codes(y), metric)


def keel_shuffle(rng: np.random.RandomState, n: int) -> np.ndarray:
    """Positions 0..n-1 shuffled as KEEL shuffles a class (``DistanceBased_best``): for
    j = 0..n-1 swap j with ``int(j + (n - j) * u_j)``, u_j = ``rng.random_sample()``."""
    u = rng.random_sample(n)
    order = np.arange(n)
    for j in range(n):
        pos = int(j + (n - j) * u[j])
        order[j], order[pos] = order[pos], order[j]
    return order


def _is_numeric(col: pd.Series) -> bool:
    return (pd.api.types.is_numeric_dtype(col) or pd.api.types.is_bool_dtype(col)) \
        and not isinstance(col.dtype, pd.CategoricalDtype)


def mixed_distances(X, y, rows_a, rows_b, metric: str = "heom") -> np.ndarray:
    """Euclidean HEOM/HVDM distances between two sets of rows of ``X``.

    Uses the same encoding as the partitioners (scaling over all of ``X``); it
    is exported for measuring covariate shift between folds.
    """
    enc = encode(X, y, metric)
    return np.sqrt(enc.block(np.asarray(rows_a), np.asarray(rows_b)))


class _ClassWalk:
    """Distances from a member of one class to its still-unassigned members.

    Positions are 0..n-1 within the class (row order of the data set), so
    ``argmin`` breaks ties by the lowest row index.
    """

    def __init__(self, enc: _Encoded, rows: np.ndarray):
        self.enc, self.rows = enc, rows
        n = len(rows)
        self.free = np.ones(n, dtype=bool)
        self.full = enc.class_block(rows) if n * n <= _MAX_BLOCK else None

    def take(self, positions) -> None:
        self.free[positions] = False

    def row(self, p: int) -> np.ndarray:
        d = self.full[p] if self.full is not None else self.enc.block(self.rows[p:p + 1], self.rows)[0]
        if self.enc.metric == "keel":
            d = np.sqrt(d)     # KEEL compares square roots: sums that round to one root tie
        return np.where(self.free, d, np.inf)

    def nearest(self, p: int, m: int, skip_zero: bool = False) -> np.ndarray:
        """The ``m`` nearest free positions to ``p``, nearest first, ties by index;
        ``skip_zero``: leave out those at distance 0 (KEEL's DOB-SCV), so fewer may come back."""
        d = self.row(p)
        eligible = self.free & (d > 0) if skip_zero else self.free
        if skip_zero:
            d = np.where(eligible, d, np.inf)
        if m >= eligible.sum():
            cand = np.flatnonzero(eligible)
        else:
            cut = np.partition(d, m - 1)[m - 1]
            cand = np.flatnonzero(d <= cut)
        cand = cand[np.lexsort((cand, d[cand]))]
        return cand[:m]

    def chain(self, start: int) -> np.ndarray:
        """Greedy nearest-unassigned-neighbour walk from ``start`` (Algorithms 2, 4)."""
        n = len(self.rows)
        order = np.empty(n, dtype=np.int64)
        p = start
        for t in range(n):
            order[t] = p
            self.take(p)
            if t + 1 < n:
                p = int(np.argmin(self.row(p)))
        return order


# --------------------------------------------------------------------------- #
# Splitters
# --------------------------------------------------------------------------- #
class _StratifiedPartitioner(BaseCrossValidator):
    """Shared machinery: validation, class loop, fold offsets, split()."""

    uses_distance = True

    def __init__(self, n_splits: int = 10, random_state=None, metric: str = "heom",
                 small_classes: str = "error"):
        self.n_splits = n_splits
        self.random_state = random_state
        self.metric = metric
        self.small_classes = small_classes

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits

    def split(self, X, y, groups=None):
        """Yield ``(train, test)`` index arrays, fold 0 first."""
        folds = self.fold_ids(X, y)
        for f in range(self.n_splits):
            yield np.flatnonzero(folds != f), np.flatnonzero(folds == f)

    def _iter_test_masks(self, X=None, y=None, groups=None):
        folds = self.fold_ids(X, y)
        for f in range(self.n_splits):
            yield folds == f

    def fold_ids(self, X, y, encoded=None) -> np.ndarray:
        """Fold number (0..n_splits-1) of every example.

        ``encoded``: the result of :func:`encode` for these ``X, y`` and this
        metric, to skip re-encoding when partitioning the same data many times.
        """
        k = self._check_k()
        if self.small_classes not in ("error", "warn"):
            raise ValueError(f"small_classes must be 'error' or 'warn', got {self.small_classes!r}")
        labels = _class_codes(y)
        n = len(labels)
        if X is not None and encoded is None and len(X) != n:
            raise ValueError(f"X has {len(X)} rows but y has {n} labels")
        if n < k:
            raise ValueError(f"cannot make {k} folds from {n} examples")
        counts = np.bincount(labels)
        small = np.flatnonzero((counts > 0) & (counts < k))
        if len(small):
            msg = (f"{type(self).__name__}: class(es) {_names(y, small)} have fewer "
                   f"examples ({counts[small].tolist()}) than n_splits={k}")
            if self.small_classes == "error":
                raise ValueError(msg + "; pass small_classes='warn' to spread them over fewer folds")
            warnings.warn(msg + "; they appear in fewer folds", UserWarning, stacklevel=3)
        rng = self._rng()
        enc = None
        if self.uses_distance:
            if encoded is not None:
                if encoded.metric != self.metric or encoded.n != n:
                    raise ValueError("encoded data do not match this metric or these labels")
                enc = encoded
            elif X is None:
                raise ValueError(f"{type(self).__name__} needs X to compute distances")
            else:
                enc = encode(X, labels, self.metric)
        folds = np.empty(n, dtype=np.int64)
        offset = 0
        for c in np.flatnonzero(counts):
            rows = np.flatnonzero(labels == c)
            folds[rows] = self._assign(enc, rows, k, offset, rng)
            offset = (offset + len(rows)) % k
        return folds

    def _assign(self, enc, rows, k, offset, rng) -> np.ndarray:
        """Fold of each row of one class (positions in ``rows`` order)."""
        raise NotImplementedError

    def _rng(self):
        if not isinstance(self.random_state, np.random.Generator):
            return check_random_state(self.random_state)
        if type(self) is not SCV:
            raise ValueError(f"{type(self).__name__} draws with RandomState methods; pass an int or a "
                             "numpy RandomState as random_state (a numpy Generator works with SCV only)")
        return self.random_state

    def _check_k(self) -> int:
        k = self.n_splits
        if not isinstance(k, numbers.Integral) or isinstance(k, bool) or k < 2:
            raise ValueError(f"n_splits must be an integer >= 2, got {k!r}")
        return int(k)

    def __repr__(self):
        return (f"{type(self).__name__}(n_splits={self.n_splits}, "
                f"random_state={self.random_state!r}"
                + (f", metric={self.metric!r})" if self.uses_distance else ")"))


class SCV(_StratifiedPartitioner):
    """Stratified CV (Algorithm 1): each class shuffled, dealt round-robin.

    Per-class fold counts equal those of scikit-learn's ``StratifiedKFold``;
    the shuffle differs. ``X`` is not used (no distances).
    """

    uses_distance = False

    def _assign(self, enc, rows, k, offset, rng):
        folds = np.empty(len(rows), dtype=np.int64)
        folds[rng.permutation(len(rows))] = (offset + np.arange(len(rows))) % k
        return folds


class DBSCV(_StratifiedPartitioner):
    """Distribution-balanced SCV (Algorithm 2, Zeng & Martinez 2000).

    From a random example of the class, hop to the nearest unassigned same-class
    example; the chain is dealt to folds offset, offset+1, ... cyclically.
    """

    def _assign(self, enc, rows, k, offset, rng):
        walk = _ClassWalk(enc, rows)
        order = walk.chain(int(rng.randint(len(rows))))
        folds = np.empty(len(rows), dtype=np.int64)
        folds[order] = (offset + np.arange(len(rows))) % k
        return folds


class DOBSCV(_StratifiedPartitioner):
    """Distribution-optimally-balanced SCV (Algorithm 3, Moreno-Torres et al.).

    Repeatedly: a random unassigned example (the first unassigned one in the
    class shuffled as KEEL shuffles it, :func:`keel_shuffle`) and its k-1
    nearest unassigned same-class neighbours go to k different folds, the seed
    first. With ``metric="keel"`` neighbours at distance 0 are skipped, as in KEEL.
    """

    def _assign(self, enc, rows, k, offset, rng):
        walk = _ClassWalk(enc, rows)
        folds = np.empty(len(rows), dtype=np.int64)
        skip_zero = enc.metric == "keel"
        for seed in keel_shuffle(rng, len(rows)):
            if not walk.free[seed]:
                continue
            walk.take(seed)
            group = np.concatenate(([seed], walk.nearest(seed, k - 1, skip_zero)))
            walk.take(group)
            folds[group] = (offset + np.arange(len(group))) % k
        return folds


class MSSCV(_StratifiedPartitioner):
    """Maximally-shifted SCV (Algorithm 4): the DB-SCV chain cut into k blocks.

    Fold sizes per class are ``n_c // k`` (+1 for ``n_c mod k`` folds starting
    at the class offset); the chain fills fold 0, then fold 1, and so on.
    """

    def _assign(self, enc, rows, k, offset, rng):
        walk = _ClassWalk(enc, rows)
        order = walk.chain(int(rng.randint(len(rows))))
        n = len(rows)
        sizes = np.full(k, n // k)
        sizes[(offset + np.arange(n % k)) % k] += 1
        folds = np.empty(n, dtype=np.int64)
        folds[order] = np.repeat(np.arange(k), sizes)
        return folds


PARTITIONERS = {"scv": SCV, "dbscv": DBSCV, "dobscv": DOBSCV, "msscv": MSSCV}


def make_partitioner(name: str, n_splits: int = 10, random_state=None, **params):
    """The splitter called ``name`` ('scv', 'dbscv', 'dobscv', 'msscv'; case and '-' ignored)."""
    if not isinstance(name, str):
        raise TypeError(f"partitioner name must be a string, got {type(name).__name__}")
    key = name.lower().replace("-", "").replace("_", "")
    if key not in PARTITIONERS:
        raise ValueError(f"unknown partitioner {name!r}; choose from {', '.join(PARTITIONERS)}")
    return PARTITIONERS[key](n_splits=n_splits, random_state=random_state, **params)


class RepeatedSplitter(BaseCrossValidator):
    """``n_repeats`` x ``n_splits`` CV where repetition ``i`` uses seed ``first_seed + i``.

    As in Raeder et al. (seeds 0..499): one seed per iteration, so every
    learner sees the same folds in a given iteration (paired comparisons).
    ``splitter`` is a class (``SCV``, ...) or a name accepted by
    :func:`make_partitioner`; extra keyword arguments go to it.
    """

    def __init__(self, splitter=SCV, n_splits: int = 10, n_repeats: int = 10,
                 first_seed: int = 0, **params):
        if not isinstance(n_repeats, numbers.Integral) or n_repeats < 1:
            raise ValueError(f"n_repeats must be a positive integer, got {n_repeats!r}")
        self.splitter = splitter
        self.n_splits = n_splits
        self.n_repeats = n_repeats
        self.first_seed = first_seed
        self.params = params

    def iteration(self, i: int):
        """The splitter of repetition ``i`` (seed ``first_seed + i``)."""
        seed = self.first_seed + i
        if isinstance(self.splitter, str):
            return make_partitioner(self.splitter, self.n_splits, seed, **self.params)
        return self.splitter(n_splits=self.n_splits, random_state=seed, **self.params)

    def get_n_splits(self, X=None, y=None, groups=None) -> int:
        return self.n_splits * self.n_repeats

    def split(self, X, y, groups=None):
        for i in range(self.n_repeats):
            yield from self.iteration(i).split(X, y)

    def _iter_test_masks(self, X=None, y=None, groups=None):
        for _train, test in self.split(X, y):
            mask = np.zeros(len(y), dtype=bool)
            mask[test] = True
            yield mask

    def __repr__(self):
        name = self.splitter if isinstance(self.splitter, str) else self.splitter.__name__
        return (f"RepeatedSplitter({name}, n_splits={self.n_splits}, "
                f"n_repeats={self.n_repeats}, first_seed={self.first_seed})")


def _class_codes(y) -> np.ndarray:
    if y is None:
        raise ValueError("stratified partitioners need y")
    if isinstance(y, np.ndarray) and y.dtype.kind in "iu" and y.ndim == 1:
        return np.unique(y, return_inverse=True)[1].astype(np.int64)   # fast path for codes
    values = y if isinstance(y, pd.Series) else pd.Series(np.asarray(y).ravel())
    if values.isna().any():
        raise ValueError(f"y has {int(values.isna().sum())} missing labels")
    return pd.Categorical(values).codes.astype(np.int64)


def _names(y, codes) -> list:
    values = y if isinstance(y, pd.Series) else pd.Series(np.asarray(y).ravel())
    cats = pd.Categorical(values).categories
    return [cats[c] for c in codes]
