"""Checksummed Parquet files: the one write and read gate of every stored result (the chunks of
:class:`cvrepro.store.ResultStore` and the task files of :func:`cvrepro.engine.map_tasks`).

A file is named ``<stem>.<checksum>.parquet``, ``<checksum>`` being the
start of the SHA-256 of its whole bytes (data pages, schema and footer), and
holds its key in columns of its own, so that it can be checked against the
place it lies in. :func:`write_checksummed` writes it atomically (under a
temporary name ``.<stem>.<random>.tmp`` moved into place by ``os.replace``,
so that a name and its checksum appear together); :func:`verified_table`
parses bytes only if they hash to their name; :func:`wrong_keys` names key
columns that are not the expected ones; :func:`set_aside` renames a damaged
file ``.<name>.damaged`` (names starting with ``.`` are never read as data),
and :func:`remove_stale_temporaries` removes what writers killed midway left.
"""
from __future__ import annotations

import contextlib
import hashlib
import os
import re
import time
import uuid
from pathlib import Path

import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

__all__ = ["checksum", "short_hash", "encode", "write_checksummed", "verified_table", "read_verified", "wrong_keys",
           "set_aside", "is_temporary", "remove_stale_temporaries", "STALE_SECONDS"]

STALE_SECONDS = 60   # a temporary file this old is a killed writer's, not a live one's
_CHECKED = re.compile(r"^([^.].*)\.([0-9a-f]{16})\.parquet$")   # any <stem>.<checksum>.parquet


def checksum(data: bytes) -> str:
    """The start (16 hex digits) of the SHA-256 of ``data``: the checksum in a stored file's name."""
    return hashlib.sha256(data).hexdigest()[:16]


def short_hash(*parts: bytes | str) -> str:
    """10 hex digits of the SHA-256 of ``parts`` (each bytes or its ``str``), separated: a key's digest."""
    h = hashlib.sha256()
    for p in parts:
        h.update(p if isinstance(p, bytes) else str(p).encode())
        h.update(b"\0")
    return h.hexdigest()[:10]


def encode(frame: pd.DataFrame, keys: list[tuple[pa.Field, pa.Array]]) -> bytes:
    """``frame`` (its index dropped) as the bytes of a Parquet file (zstd, page checksums), the key
    columns ``keys`` (field, column) first."""
    table = pa.Table.from_pandas(frame, preserve_index=False)
    for i, (field, column) in enumerate(keys):
        table = table.add_column(i, field, column)
    sink = pa.BufferOutputStream()
    pq.write_table(table, sink, write_page_checksum=True, compression="zstd")
    return sink.getvalue().to_pybytes()


def write_checksummed(folder, stem: str, data: bytes, root) -> Path:
    """Write ``data`` (a Parquet file) as ``folder/<stem>.<checksum>.parquet``, atomically: under a
    temporary name (``.<stem>.<random>.tmp``) moved into place by ``os.replace``, so that the name
    and its checksum appear together. ``root`` names the store in the error of a failed write."""
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    tmp = folder / f".{stem}.{uuid.uuid4().hex}.tmp"
    path = folder / f"{stem}.{checksum(data)}.parquet"
    try:
        tmp.write_bytes(data)
        os.replace(tmp, path)
    except OSError as exc:   # e.g. a full disk: name the store
        raise type(exc)(exc.errno, f"cannot write to the results store {str(root)!r} "
                                   f"({exc.strerror}); free space or pass another store directory",
                        str(folder)) from exc
    finally:
        tmp.unlink(missing_ok=True)
    return path


def verified_table(name: str, data: bytes) -> pa.Table:
    """The Parquet file ``data`` named ``name`` (``<stem>.<checksum>.parquet``), parsed only if
    its bytes hash to that checksum, else ``ValueError``."""
    m = _CHECKED.match(name)
    if not m:
        raise ValueError(f"{name} is not named <stem>.<checksum>.parquet")
    if checksum(data) != m.group(2):
        raise ValueError(f"checksum mismatch ({len(data)} bytes do not hash to {m.group(2)})")
    return pq.read_table(pa.BufferReader(data))


def read_verified(path) -> pa.Table:
    """The Parquet file at ``path`` if its bytes hash to the checksum in its name, else ``ValueError``."""
    path = Path(path)
    return verified_table(path.name, path.read_bytes())


def wrong_keys(table: pa.Table, keys: dict) -> list[str]:
    """The names of ``keys`` whose column is missing from ``table`` or holds another value (an empty
    table holds any)."""
    return [name for name, value in keys.items()
            if name not in table.column_names or pc.unique(table[name]).to_pylist() not in ([value], [])]


def set_aside(path) -> None:
    """Rename the damaged file ``path`` to ``.<name>.damaged`` beside it (kept for a look, never read)."""
    path = Path(path)
    os.replace(path, path.parent / f".{path.name}.damaged")


def is_temporary(name: str) -> bool:
    """Whether ``name`` is a writer's temporary file (:func:`write_checksummed`)."""
    return name.startswith(".") and name.endswith(".tmp")


def remove_stale_temporaries(folder, pattern: str = ".*.tmp") -> None:
    """Remove the temporary files matching ``pattern`` in ``folder`` older than :data:`STALE_SECONDS`
    (a killed writer's; a younger one may be a live writer's)."""
    for tmp in Path(folder).glob(pattern):
        with contextlib.suppress(OSError):
            if time.time() - tmp.stat().st_mtime > STALE_SECONDS:
                tmp.unlink()
