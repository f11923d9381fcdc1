"""The on-disk results store of :func:`cvrepro.runner.run_cv`, which is also its cache.

Layout: one hive-style tree per table (``folds``, ``iterations``,
``instances``), so that DuckDB, pandas, pyarrow.dataset and Polars read a
tree as one table; one directory per cell, named by everything that
determines its numbers::

    <root>/_store.json                                   {"format": "cvrepro-results", "version": 2}
    <root>/<table>/dataset=<d>/learner=<l>/partitioner=<p>/k=<k>/seed=<s>/config=<c>/
        it000000-000009.<checksum>.parquet               one chunk: iterations 0..9 of the cell

``config`` is a hash of the data set's content, the learner's parameters and
the partitioner's parameters (a changed data set or learner is a new cell,
never a stale hit); directory values are percent-encoded (``a/b`` ->
``a%2Fb``). Every file also holds the key columns ``dataset, learner,
partitioner, k, seed, config`` (before its own columns), so it can be read
alone or with ``hive_partitioning`` off. Names starting with ``.`` or ``_``
(locks, temporary files, damaged files moved aside) are not data and are
skipped by these readers.

A chunk holds a contiguous run of iterations of one cell: one file in each
tree, with the same stem ``it<first>-<last>``, written in the order
instances, iterations, folds; the folds file marks the chunk complete.
``<checksum>`` is the start of the SHA-256 of the whole file (data pages,
schema and footer): a file is read only if its bytes still hash to its
name, so a damaged file (truncated, a flipped bit anywhere, a different
schema) is never read as data. Each file is written under a temporary name
and moved into place with ``os.replace`` (atomic on POSIX), so its name and
its checksum appear together. A chunk with a missing, damaged, misplaced or
wrongly sized file is reported (``RuntimeWarning``), moved aside
(``.<name>.damaged``) and recomputed. Writing, the checksum gate and setting
aside are :mod:`cvrepro.verified`'s, shared with :func:`cvrepro.engine.map_tasks`
(whose names this module re-exports for older callers).

Writers of one cell take a lock (``fcntl.flock`` on ``.lock`` in the cell's
folds directory) and write only the iterations no complete chunk holds yet:
concurrent runs into one store never leave a result twice on disk, and a
writer killed midway leaves files that the next writer of the cell removes.
"""
from __future__ import annotations

import contextlib
import json
import os
import re
import uuid
import warnings
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import quote, unquote

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from .metrics import METRICS_VERSION
from .verified import (
    checksum,
    encode,
    is_temporary,
    read_verified,
    remove_stale_temporaries,
    set_aside,
    short_hash,
    verified_table,
    write_checksummed,
    wrong_keys,
)

try:
    import fcntl
except ImportError:   # not POSIX: no locking between concurrent writers
    fcntl = None

__all__ = ["ResultStore", "Cell", "KINDS", "KEY_COLUMNS", "FORMAT_VERSION", "read_verified", "verified_table",
           "verify", "short_hash", "checksum", "write_checksummed"]

KINDS = ("instances", "iterations", "folds")  # write order; "folds" last marks a chunk complete
KEY_COLUMNS = ("dataset", "learner", "partitioner", "k", "seed", "config")
FORMAT_VERSION = 2
_FILE = re.compile(r"^it(\d{6})-(\d{6})\.([0-9a-f]{16})\.parquet$")
_OLD_CELL = re.compile(r"^[^=]+__[0-9a-f]{10}$")   # the layout of version 1: <name>__<hash>
_TEXT = pa.dictionary(pa.int32(), pa.string())
_KEY_TYPES = {"dataset": _TEXT, "learner": _TEXT, "partitioner": _TEXT, "k": pa.int16(), "seed": pa.int64(),
              "config": _TEXT}


@dataclass(frozen=True)
class Cell:
    """The keys of one cell of the store: its directory in every tree and its key columns."""

    dataset: str
    learner: str
    partitioner: str
    k: int
    seed: int
    config: str

    def keys(self) -> dict:
        return {name: getattr(self, name) for name in KEY_COLUMNS}

    @property
    def path(self) -> str:
        """``dataset=<d>/learner=<l>/...`` (hive-style, values percent-encoded)."""
        parts = []
        for name, value in self.keys().items():
            part = f"{name}={quote(str(value), safe='')}"
            if len(part.encode()) > 200:
                raise ValueError(f"{name} {value!r} is too long to name a directory of the store")
            parts.append(part)
        return "/".join(parts)


class ResultStore:
    """Chunks of CV results under ``root`` (layout in :mod:`cvrepro.store`)."""

    def __init__(self, root):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)
        self.writable = os.access(self.root, os.W_OK)   # False: read what is stored, compute nothing
        self._check_format()

    def _check_format(self) -> None:
        old = sorted(p.name for p in self.root.iterdir() if p.is_dir() and _OLD_CELL.match(p.name))
        if old:
            raise ValueError(
                f"results store {str(self.root)!r} has the layout of an older cvrepro (directories such as "
                f"{old[0]!r}), without whole-file checksums or hive-style keys; this version cannot "
                f"read it. Delete it (rm -r {str(self.root)!r}) or pass another store directory: run_cv "
                "then recomputes its results into the new layout.")
        marker = self.root / "_store.json"
        if marker.exists():
            try:
                doc = json.loads(marker.read_text())
                version, metrics = doc.get("version"), doc.get("metrics", 1)
            except (ValueError, AttributeError) as exc:
                raise ValueError(
                    f"results store {str(self.root)!r}: {marker.name} is damaged ({type(exc).__name__}: {exc}); "
                    "it only names the format, and the data files carry their own checksums: if this store was "
                    f"written by this cvrepro, delete just that file (rm {str(marker)!r}) and it is rewritten"
                ) from None
            if version != FORMAT_VERSION:
                raise ValueError(f"results store {str(self.root)!r}: {marker.name} says format version "
                                 f"{version!r}, this cvrepro reads version {FORMAT_VERSION}; use a cvrepro "
                                 "that matches, or delete the store to recompute it")
            if metrics != METRICS_VERSION:
                raise ValueError(f"results store {str(self.root)!r} holds metrics of definitions version {metrics!r} "
                                 f"and this cvrepro computes version {METRICS_VERSION} (info_score now uses WEKA's "
                                 "Laplace-corrected prior); new iterations would mix the two. Delete the store "
                                 f"(rm -r {str(self.root)!r}, or make clean-results) or pass another one")
            if self.writable:   # a marker's temporary file left by a creator killed a while ago
                remove_stale_temporaries(self.root, f".{marker.name}.*.tmp")
        else:
            tmp = self.root / f".{marker.name}.{uuid.uuid4().hex}.tmp"
            tmp.write_text(json.dumps({"format": "cvrepro-results", "version": FORMAT_VERSION,
                                       "metrics": METRICS_VERSION,
                                       "layout": "<table>/" + "/".join(f"{k}=..." for k in KEY_COLUMNS)
                                       + "/it<first>-<last>.<sha256[:16]>.parquet"}) + "\n")
            os.replace(tmp, marker)

    def cell(self, dataset: str, data_hash: str, learner: str, learner_hash: str,
             partitioner: str, k: int, seed: int, part_hash: str) -> Cell:
        """The cell of a (data set, learner, partitioner, k, seed); ``config`` hashes the three hashes."""
        return Cell(str(dataset), str(learner), str(partitioner), int(k), int(seed),
                    short_hash(data_hash, learner_hash, part_hash))

    def directory(self, cell: Cell, kind: str) -> Path:
        return self.root / kind / cell.path

    @staticmethod
    def stem(first: int, last: int) -> str:
        return f"it{first:06d}-{last:06d}"

    # ------------------------------------------------------------------ listing
    def _files(self, cell: Cell, kind: str) -> dict[tuple[int, int], list[str]]:
        """(first, last) -> names of the chunk files of ``kind`` in the cell."""
        folder = self.directory(cell, kind)
        found: dict = {}
        if folder.is_dir():
            for name in os.listdir(folder):
                m = _FILE.match(name)
                if m:
                    found.setdefault((int(m.group(1)), int(m.group(2))), []).append(name)
        return found

    def chunks(self, cell: Cell) -> list[tuple[int, int]]:
        """(first, last) iteration of every complete chunk, sorted. Removes what killed writers left."""
        complete = self._files(cell, "folds")
        if self.writable and self._leftovers(cell, complete):   # read-only: readers skip them anyway
            with self._locked(cell):
                complete = self._files(cell, "folds")
                for path in self._leftovers(cell, complete):
                    path.unlink(missing_ok=True)
        return sorted(complete)

    def _leftovers(self, cell: Cell, complete: dict) -> list[Path]:
        """Files of chunks whose writer died before the folds file, and temporary files."""
        out = []
        for kind in KINDS:
            folder = self.directory(cell, kind)
            if not folder.is_dir():
                continue
            for name in os.listdir(folder):
                m = _FILE.match(name)
                if (m and (int(m.group(1)), int(m.group(2))) not in complete) or is_temporary(name):
                    out.append(folder / name)
        return out

    @contextlib.contextmanager
    def _locked(self, cell: Cell):
        """The cell's write lock (held by one process at a time; released if the process dies)."""
        folder = self.directory(cell, "folds")
        folder.mkdir(parents=True, exist_ok=True)
        if fcntl is None:
            yield
            return
        with open(folder / ".lock", "ab") as fh:
            try:
                fcntl.flock(fh, fcntl.LOCK_EX)
            except OSError as exc:   # a file system without locks: single runs stay correct
                warnings.warn(f"cannot lock {folder} ({exc}); concurrent runs into this store may "
                              "store some iterations twice", RuntimeWarning, stacklevel=4)
                yield
                return
            try:
                yield
            finally:
                fcntl.flock(fh, fcntl.LOCK_UN)

    # ------------------------------------------------------------------ writing
    def write(self, cell: Cell, first: int, last: int, tables: dict[str, pd.DataFrame]) -> list[tuple[int, int]]:
        """Store iterations ``first..last`` of the cell, except those a complete chunk already holds
        (written meanwhile by a concurrent run); returns the (first, last) runs written."""
        with self._locked(cell):
            complete = self._files(cell, "folds")
            for path in self._leftovers(cell, complete):   # a killed writer's files
                path.unlink(missing_ok=True)
            held = {i for a, b in complete for i in range(a, b + 1)}
            todo = [i for i in range(first, last + 1) if i not in held]
            pieces = _runs(todo)
            for a, b in pieces:
                for kind in KINDS:
                    t = tables[kind]
                    if (a, b) != (first, last):
                        t = t[(t.iteration >= a) & (t.iteration <= b)]
                    self._write_file(cell, kind, a, b, t)
        return pieces

    def _write_file(self, cell: Cell, kind: str, first: int, last: int, frame: pd.DataFrame) -> None:
        keys = [(pa.field(name, _KEY_TYPES[name], nullable=False), _constant(_KEY_TYPES[name], value, len(frame)))
                for name, value in cell.keys().items()]
        write_checksummed(self.directory(cell, kind), self.stem(first, last), encode(frame, keys), self.root)

    # ------------------------------------------------------------------ reading
    def read(self, cell: Cell, first: int, last: int, kind: str,
             expected_rows: int | None = None) -> pd.DataFrame | None:
        """One table of a chunk (without key columns), or None (after moving the chunk aside) if damaged."""
        names = self._files(cell, kind).get((first, last), [])
        if len(names) != 1:
            self.discard(cell, first, last, f"{len(names)} {kind} files for iterations {first}..{last}")
            return None
        path = self.directory(cell, kind) / names[0]
        try:
            table = read_verified(path)
        except (OSError, pa.ArrowException, ValueError) as exc:
            self.discard(cell, first, last, f"{path.name}: {exc}", seen=path)
            return None
        wrong = wrong_keys(table, cell.keys())
        if wrong:
            self.discard(cell, first, last, f"{path.name}: key columns {wrong} are not this cell's", seen=path)
            return None
        why = _range_mismatch(table, first, last)
        if why:
            self.discard(cell, first, last, f"{path.name}: {why}", seen=path)
            return None
        frame = table.drop_columns([c for c in KEY_COLUMNS if c in table.column_names]).to_pandas()
        if expected_rows is not None and len(frame) != expected_rows:
            self.discard(cell, first, last, f"{path.name}: {len(frame)} rows, expected {expected_rows}", seen=path)
            return None
        return frame

    def discard(self, cell: Cell, first: int, last: int, why: str, seen: Path | None = None) -> None:
        """Move a damaged chunk aside so that it is recomputed (unless ``seen``, the damaged file,
        is gone: then another process did it already)."""
        then = "it will be recomputed" if self.writable else "it is not read (the store is read-only)"
        warnings.warn(f"damaged results chunk in {self.root / '<table>' / cell.path} ({why}); {then}",
                      RuntimeWarning, stacklevel=3)
        if not self.writable:
            return
        with self._locked(cell):
            if seen is not None and not seen.exists():
                return
            for kind in reversed(KINDS):   # the marker first: a crash here leaves no complete chunk
                folder = self.directory(cell, kind)
                for name in self._files(cell, kind).get((first, last), []):
                    set_aside(folder / name)


def _range_mismatch(table: pa.Table, first: int, last: int) -> str:
    """Why the ``iteration`` column does not hold exactly ``first..last`` (the file name's range), or ''."""
    if "iteration" not in table.column_names:
        return "no iteration column"
    held = sorted(pc.unique(table["iteration"]).to_pylist())
    if held != list(range(first, last + 1)):
        shown = held if len(held) <= 6 else held[:3] + ["..."] + held[-2:]
        return f"holds iterations {shown}, its name says {first}..{last}"
    return ""


def verify(root) -> int:
    """Check every data file of the store at ``root`` before reading it with another tool.

    DuckDB's ``read_parquet`` and ``pd.read_parquet`` do not check the
    store's whole-file checksums, so a damaged file can read back as
    different numbers. ``verify`` checks each ``it<first>-<last>.<checksum>.parquet``
    file under ``root``: its bytes hash to its name, its key columns equal its
    directory's keys, and its iterations are its name's range. Returns the
    number of files checked; raises ``ValueError`` naming every bad file (fix:
    run :func:`~cvrepro.runner.run_cv` on the store again, which moves damaged
    chunks aside and recomputes them, or delete them). Names starting with ``.``
    or ``_`` are skipped, as the readers skip them.
    """
    root = Path(root)
    if not (root / "_store.json").is_file():
        raise ValueError(f"{str(root)!r} is not a cvrepro results store (no _store.json)")
    bad, n = [], 0
    for kind in KINDS:
        for path in sorted((root / kind).rglob("*.parquet")):
            rel = path.relative_to(root)
            if any(part.startswith((".", "_")) for part in rel.parts):
                continue
            n += 1
            problem = _file_problem(path, rel)
            if problem:
                bad.append(f"{rel}: {problem}")
    if bad:
        raise ValueError(f"results store {str(root)!r}: {len(bad)} of {n} files are damaged or misplaced; "
                         "run run_cv on this store to recompute them, then verify again:\n  "
                         + "\n  ".join(bad[:20]) + ("\n  ..." if len(bad) > 20 else ""))
    return n


def _file_problem(path: Path, rel: Path) -> str:
    """What is wrong with one data file of a store (checksum, keys, iteration range), or ''."""
    m = _FILE.match(path.name)
    if not m:
        return "not named it<first>-<last>.<checksum>.parquet"
    try:
        table = read_verified(path)
    except (OSError, pa.ArrowException, ValueError) as exc:
        return str(exc)
    keys = dict(part.split("=", 1) for part in rel.parts[1:-1] if "=" in part)
    for name in KEY_COLUMNS:
        if name not in table.column_names or name not in keys:
            return f"key {name!r} missing"
        if [str(v) for v in pc.unique(table[name]).to_pylist()] not in ([unquote(keys[name])], []):
            return f"key column {name!r} is not its directory's {unquote(keys[name])!r}"
    return _range_mismatch(table, int(m.group(1)), int(m.group(2)))


def _constant(kind: pa.DataType, value, n: int) -> pa.Array:
    """A column of ``n`` times ``value`` (a dictionary column has one entry)."""
    if pa.types.is_dictionary(kind):
        return pa.DictionaryArray.from_arrays(pa.array(np.zeros(n, dtype=np.int32)), pa.array([str(value)]))
    return pa.array(np.full(n, value, dtype=kind.to_pandas_dtype()))


def _runs(its: list[int]) -> list[tuple[int, int]]:
    """Contiguous runs of sorted integers as (first, last) pairs."""
    out = []
    for i in its:
        if out and out[-1][1] == i - 1:
            out[-1] = (out[-1][0], i)
        else:
            out.append((i, i))
    return out


if __name__ == "__main__":   # python -m cvrepro.store verify <store>
    import sys
    if len(sys.argv) != 3 or sys.argv[1] != "verify":
        sys.exit("usage: python -m cvrepro.store verify <store directory>")
    try:
        print(f"{verify(sys.argv[2])} files verified")
    except ValueError as exc:
        sys.exit(str(exc))
