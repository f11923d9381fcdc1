"""The on-disk results store of :func:`cvrepro.runner.run_cv`, which is also its cache.

Layout: one directory per cell, named by everything that determines its
numbers (data set name and content hash, learner name and parameter hash,
partitioner and its parameters, k, seed)::

    <root>/<dataset>__<hash>/<learner>__<hash>/<partitioner>_k<k>_seed<seed>__<hash>/
        it000010-000019.instances.parquet
        it000010-000019.iterations.parquet
        it000010-000019.folds.parquet      <- written last: marks the chunk complete

A chunk holds a contiguous run of iterations. Every file is written to a
temporary name in the same directory and moved into place with ``os.replace``
(atomic on POSIX), with Parquet page checksums on. A chunk whose files are
missing, unreadable, fail their checksums or have the wrong number of rows is
reported damaged, moved aside (``*.damaged``) and recomputed. (A flipped
byte in a file's footer statistics can go unnoticed, but leaves the data
read back intact; damage to the data itself fails the page checksums.)
"""
from __future__ import annotations

import hashlib
import os
import re
import uuid
import warnings
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

__all__ = ["ResultStore", "KINDS"]

KINDS = ("instances", "iterations", "folds")  # write order; "folds" last
_CHUNK = re.compile(r"^it(\d{6})-(\d{6})\.folds\.parquet$")


class ResultStore:
    """Chunks of CV results under ``root``, keyed by cell directory."""

    def __init__(self, root):
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    def cell_dir(self, dataset: str, data_hash: str, learner: str, learner_hash: str,
                 partitioner: str, k: int, seed: int, part_hash: str) -> Path:
        return (self.root / f"{_safe(dataset)}__{data_hash}" / f"{_safe(learner)}__{learner_hash}"
                / f"{_safe(partitioner)}_k{k}_seed{seed}__{part_hash}")

    @staticmethod
    def stem(first: int, last: int) -> str:
        return f"it{first:06d}-{last:06d}"

    def chunks(self, cell: Path) -> list[tuple[int, int]]:
        """(first, last) iteration of every complete chunk, sorted."""
        if not cell.is_dir():
            return []
        found = []
        for name in os.listdir(cell):
            m = _CHUNK.match(name)
            if m:
                found.append((int(m.group(1)), int(m.group(2))))
        return sorted(found)

    def write(self, cell: Path, first: int, last: int, tables: dict[str, pd.DataFrame]) -> None:
        """Write one chunk atomically, file by file, the ``folds`` marker last."""
        cell.mkdir(parents=True, exist_ok=True)
        stem = self.stem(first, last)
        for kind in KINDS:
            path = cell / f"{stem}.{kind}.parquet"
            tmp = cell / f".{stem}.{kind}.{uuid.uuid4().hex}.tmp"
            table = pa.Table.from_pandas(tables[kind], preserve_index=False)
            try:
                pq.write_table(table, tmp, write_page_checksum=True, compression="zstd")
                os.replace(tmp, path)
            finally:
                if tmp.exists():
                    tmp.unlink()

    def read(self, cell: Path, first: int, last: int, kind: str,
             expected_rows: int | None = None) -> pd.DataFrame | None:
        """One table of a chunk, or None (after moving the chunk aside) if damaged."""
        path = cell / f"{self.stem(first, last)}.{kind}.parquet"
        try:
            frame = pq.read_table(path, page_checksum_verification=True).to_pandas()
        except (OSError, pa.ArrowException) as exc:
            self.discard(cell, first, last, f"{path.name}: {exc}")
            return None
        if expected_rows is not None and len(frame) != expected_rows:
            self.discard(cell, first, last,
                         f"{path.name}: {len(frame)} rows, expected {expected_rows}")
            return None
        return frame

    def discard(self, cell: Path, first: int, last: int, why: str) -> None:
        """Move a damaged chunk aside so that it is recomputed."""
        warnings.warn(f"damaged results chunk in {cell} ({why}); it will be recomputed",
                      RuntimeWarning, stacklevel=3)
        stem = self.stem(first, last)
        for kind in reversed(KINDS):  # marker first, so a crash here leaves no complete chunk
            path = cell / f"{stem}.{kind}.parquet"
            if path.exists():
                os.replace(path, path.with_name(path.name + ".damaged"))


def _safe(name: str) -> str:
    """A file-system-safe rendering of ``name`` (readable; uniqueness comes from the hash)."""
    return re.sub(r"[^A-Za-z0-9_.+-]", "_", str(name))[:60] or "_"


def short_hash(*parts: bytes | str) -> str:
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:10]
