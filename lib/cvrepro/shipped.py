"""Paper-scale results computed once and shipped with the project, as compact tables with checksums.

A study's ``paper`` profile costs core-hours; its notebook needs only a few
small tables (per-iteration estimates, not per-instance predictions). Those
tables are shipped under ``results/paper/<study>/`` as compressed Parquet,
listed in that folder's ``manifest.json`` with each file's SHA-256 and row
count, the parameters and commit that produced them, and the run's wall and
CPU time. A notebook at ``paper`` reads them instead of fitting anything
(:func:`load`); anyone can recompute any part with the ``paper`` profile and a
store of their own, and get the same numbers (the slice tests check a few
cells of each shipped study that way).

:func:`save` writes a study's tables and manifest; :func:`verify` checks every
file of a shipped folder against its manifest; :func:`load` verifies and reads.
A missing or damaged file is a :class:`ShippedResultsError` naming the file
and how to restore or recompute it: never a silent wrong number.
:func:`add_quick_claims` ships the ``quick`` profile's verdicts beside a study's
paper tables (:func:`quick_claims` reads them), so that its paper-profile
notebook lists every verdict that changed with the scale. :func:`add_part`
adds learners or data sets computed apart (another store, another machine) to a shipped part.
"""
from __future__ import annotations

import hashlib
import json
import os
import subprocess
import time
from pathlib import Path

import numpy as np
import pandas as pd

__all__ = ["ShippedResultsError", "shipped_root", "part_roots", "study_folder", "save", "verify", "load", "available",
           "add_part", "PART_AXES",
           "manifest", "same_parameters", "tables_for", "add_quick_claims", "add_table", "quick_claims", "overrides",
           "missing",
           "MANIFEST",
           "FORMAT",
           "QUICK_CLAIMS"]

MANIFEST = "manifest.json"
QUICK_CLAIMS = "claims_quick"     # the quick profile's verdicts, shipped beside the paper tables
FORMAT = "cvrepro-shipped/1"
_COMPRESSION = "zstd"


class ShippedResultsError(RuntimeError):
    """A shipped results file is missing, damaged or does not match its manifest."""


def shipped_root() -> Path:
    """Where shipped results live: ``$CVREPRO_SHIPPED``, else ``results/paper/`` at the project root."""
    env = os.environ.get("CVREPRO_SHIPPED")
    return Path(env) if env else Path(__file__).resolve().parents[2] / "results" / "paper"


def part_roots() -> list[Path]:
    """The roots of parts shipped apart (``results/paper-parts/<name>/``, beside :func:`shipped_root`): some
    data sets of a learner longer than a session, added to the shipped part with :func:`add_part` once whole."""
    return sorted(p for p in (shipped_root().parent / "paper-parts").glob("*") if p.is_dir())


def study_folder(study: str, root: str | Path | None = None) -> Path:
    """The folder of ``study``'s shipped tables."""
    return (Path(root) if root is not None else shipped_root()) / study


def _sha256(path: Path) -> str:
    digest = hashlib.sha256()
    with open(path, "rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            digest.update(block)
    return digest.hexdigest()


def _commit() -> dict:
    """The project's git commit and whether its tree had uncommitted changes (None outside a checkout)."""
    root = Path(__file__).resolve().parents[2]
    try:
        commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True,
                                check=True).stdout.strip()
        dirty = subprocess.run(["git", "status", "--porcelain", "--", "lib"], cwd=root, capture_output=True,
                               text=True, check=True).stdout.strip() != ""
    except (OSError, subprocess.CalledProcessError):
        return {"commit": None, "dirty": None}
    return {"commit": commit, "dirty": dirty}


def _jsonable(params: dict) -> dict:
    return json.loads(json.dumps(params, default=list))


def save(study: str, tables: dict[str, pd.DataFrame], params: dict, *, profile: str = "paper",
         wall_seconds: float | None = None, cpu_seconds: float | None = None, note: str = "",
         missing: dict | None = None, root: str | Path | None = None) -> Path:
    """Write ``tables`` (name -> DataFrame) as ``<name>.parquet`` and the manifest; returns the folder.

    ``missing``: where only part of the design is shipped (a run not finished yet), the parameter values
    left out, e.g. ``{"learners": ["MLP"]}``; ``params`` are then the part computed (see :func:`overrides`).

    Each file is written to a temporary name and renamed, so a killed save
    leaves the previous file or none, never half of one.
    """
    folder = study_folder(study, root)
    folder.mkdir(parents=True, exist_ok=True)
    files = {f"{name}.parquet": _write_table(folder, name, table) for name, table in tables.items()}
    doc = {"format": FORMAT, "study": study, "profile": profile, "parameters": _jsonable(params),
           **_commit(), "created": time.strftime("%Y-%m-%d %H:%M:%S"),
           "wall_seconds": wall_seconds, "cpu_seconds": cpu_seconds, "note": note, "missing": missing or {},
           "files": files}
    _write_manifest(folder, doc)
    return folder


def missing(study: str, root: str | Path | None = None) -> dict:
    """The values of each design parameter that ``study``'s shipped part leaves out (not computed yet):
    empty for a whole design or when nothing is shipped."""
    return (manifest(study, root) or {}).get("missing") or {}


def overrides(study: str, root: str | Path | None = None) -> dict:
    """The parameters to run ``study``'s notebook with at ``paper`` so that it reads what is shipped:
    empty for a whole design, the computed values of each parameter with a ``missing`` part otherwise."""
    doc = manifest(study, root) or {}
    return {key: doc["parameters"][key] for key in doc.get("missing") or {}}


def _write_table(folder: Path, name: str, table: pd.DataFrame) -> dict:
    """``<name>.parquet`` written atomically; returns its manifest entry."""
    path = folder / f"{name}.parquet"
    tmp = path.with_suffix(".parquet.tmp")
    table.to_parquet(tmp, compression=_COMPRESSION, index=False)
    os.replace(tmp, path)
    return {"sha256": _sha256(path), "rows": int(len(table)), "bytes": path.stat().st_size}


def _write_manifest(folder: Path, doc: dict) -> None:
    tmp = folder / (MANIFEST + ".tmp")
    tmp.write_text(json.dumps(doc, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, folder / MANIFEST)


def add_quick_claims(study: str, claims: pd.DataFrame, run: dict, root: str | Path | None = None) -> Path:
    """Ship the claims of the ``quick`` profile's run (``run``: its ``run.json``) beside ``study``'s
    paper tables, so that the paper-profile notebook lists the verdicts that changed with the scale."""
    if run.get("profile") != "quick" or run.get("study", study) != study:
        raise ShippedResultsError(f"the claims to ship beside {study!r}'s paper tables must come from its "
                                  f"quick profile; got profile {run.get('profile')!r} of {run.get('study')!r} "
                                  f"(run `make {run.get('notebook', '<notebook>')}` at PROFILE=quick first)")
    doc = verify(study, root)
    folder = study_folder(study, root)
    doc["files"][f"{QUICK_CLAIMS}.parquet"] = _write_table(folder, QUICK_CLAIMS, claims)
    doc["quick_run"] = {k: run.get(k) for k in ("commit", "dirty", "finished")}
    _write_manifest(folder, doc)
    return folder


def add_table(study: str, name: str, table: pd.DataFrame, note: str, root: str | Path | None = None) -> Path:
    """Add (or replace) one table of ``study``'s shipped results, computed later than the others (e.g. from the
    same store by a newer commit): its manifest entry records that commit and ``note`` (how it was computed)."""
    doc = verify(study, root)
    folder = study_folder(study, root)
    doc["files"][f"{name}.parquet"] = {**_write_table(folder, name, table), **_commit(), "note": note}
    _write_manifest(folder, doc)
    return folder


def add_part(study: str, tables: dict[str, pd.DataFrame], params: dict, design: dict, *, wall_seconds: float,
             cpu_seconds: float, note: str, latest: tuple[str, ...] = ("seconds",),
             root: str | Path | None = None) -> Path:
    """Add a part computed apart (``tables`` of its run at ``params``; another store, another machine) to
    ``study``'s shipped part, as the run over both would give them. The two differ in exactly one of
    :data:`PART_AXES` (other learners, or other data sets of the same learners) and ``design`` (the study's
    paper parameters) holds both. A table with that axis's column gets the part's rows in the run's order
    (data sets outermost; learners innermost, after the other text columns of a cell); a table without must
    equal the shipped one, except those named in ``latest`` (e.g. the last invocation's seconds), taken from
    the part. The manifest sums the wall and CPU times, lists each part under ``parts`` (what it added, its
    commit and time) and adds ``note`` to its note, keeps the quick claims, and ``missing`` names what of
    ``design`` is still left (nothing: the whole design). A refused part leaves the shipped files as they were."""
    old = load(study, root=root)                         # verified; the manifest then read without hashing again
    doc = manifest(study, root)
    axis, problems = _part_axis(doc, params, design)
    have, new = list(doc["parameters"][axis]), list(params[axis])
    both = set(have) | set(new)
    if set(have) & set(new):
        problems.append(f"{axis} {sorted(set(have) & set(new))} are shipped already")
    if both - set(design[axis]):
        problems.append(f"{axis} {sorted(both - set(design[axis]))} are not in the design")
    lacking = {Path(name).stem for name in doc["files"]} - set(tables) - {QUICK_CLAIMS}
    if lacking:
        problems.append(f"the part has no table {', '.join(sorted(lacking))}")
    if problems:
        raise ShippedResultsError(f"cannot add {new} to {study!r}'s shipped part: " + "; ".join(problems))
    order = [name for name in design[axis] if name in both]
    merged = {name: table if name in latest else _merged_table(name, old.get(name), table, axis, order)
              for name, table in tables.items()}
    now = time.strftime("%Y-%m-%d %H:%M:%S")
    parts = doc.get("parts") or [_part(doc, {axis: have})]
    folder = study_folder(study, root)
    files = {f"{name}.parquet": _write_table(folder, name, table) for name, table in merged.items()
             if table is not old.get(name)}                  # a shared table kept keeps its entry (and note)
    files.update({name: entry for name, entry in doc["files"].items() if name not in files})
    parameters = {**doc["parameters"], axis: order}
    left = {key: [v for v in design[key] if v not in parameters[key]] for key in PART_AXES if key in design}
    doc.update(parameters=parameters, created=now, wall_seconds=round(doc["wall_seconds"] + wall_seconds, 1),
               cpu_seconds=round(doc["cpu_seconds"] + cpu_seconds, 1),
               missing={key: values for key, values in left.items() if values},
               parts=parts + [_part({**_commit(), "created": now, "wall_seconds": wall_seconds,
                                     "cpu_seconds": cpu_seconds, "note": note}, {axis: new})],
               note=f"{doc.get('note', '')} Added {now}: {axis} {', '.join(new)} ({note}).".strip(),
               files=files, **_commit())
    _write_manifest(folder, doc)
    return folder


PART_AXES = {"learners": "learner", "datasets": "dataset"}    # parameter -> its column in the tables


def _part_axis(doc: dict, params: dict, design: dict) -> tuple[str, list[str]]:
    """The one parameter of :data:`PART_AXES` in which ``params`` differs from the shipped part, and the problems."""
    differ = same_parameters(doc, params)
    axes = [key for key in PART_AXES if key in differ]
    problems = [f"parameter {key!r} differs" for key in differ if key not in PART_AXES]
    if len(axes) != 1:
        problems.append(f"a part differs from the shipped part in exactly one of {', '.join(PART_AXES)} "
                        f"(here: {', '.join(axes) or 'neither'})")
    axis = axes[0] if axes else "learners"
    if axis not in design:
        problems.append(f"the design has no {axis!r}")
    return axis, problems


def _part(doc: dict, added: dict) -> dict:
    """One part's provenance in a manifest's ``parts``."""
    return {**added, **{k: doc.get(k) for k in ("commit", "dirty", "created", "wall_seconds", "cpu_seconds",
                                                 "note")}}


def _merged_table(name: str, shipped: pd.DataFrame | None, part: pd.DataFrame, axis: str,
                  order: list[str]) -> pd.DataFrame:
    """``part``'s rows added to the ``shipped`` table along ``axis`` (see :func:`add_part`)."""
    column = PART_AXES[axis]
    if shipped is None or list(shipped.columns) != list(part.columns):
        raise ShippedResultsError(f"table {name!r} of the part added has no shipped counterpart with its columns")
    if column not in part.columns:
        if not shipped.equals(part):
            raise ShippedResultsError(f"table {name!r} (no {column} column) differs between the shipped part and "
                                      "the part added: they are not parts of one design")
        return shipped
    rows = pd.concat([shipped, part], ignore_index=True)
    rank = rows[column].map({value: i for i, value in enumerate(order)}).to_numpy()
    if column == "dataset":                               # the run loops over data sets outermost
        return rows.iloc[np.argsort(rank, kind="stable")].reset_index(drop=True)
    cells = [c for c in rows.columns if c != column and pd.api.types.is_string_dtype(rows[c])]
    cell = pd.MultiIndex.from_frame(rows[cells]).factorize()[0] if cells else np.zeros(len(rows), int)
    return rows.iloc[np.lexsort((rank, cell))].reset_index(drop=True)


def quick_claims(study: str, root: str | Path | None) -> pd.DataFrame | None:
    """The quick profile's claims shipped beside ``study``'s paper tables (verified), or None."""
    if root is None or not available(study, root):
        return None
    name = f"{QUICK_CLAIMS}.parquet"
    return pd.read_parquet(study_folder(study, root) / name) if name in verify(study, root)["files"] else None


def manifest(study: str, root: str | Path | None = None) -> dict | None:
    """The manifest of ``study``'s shipped tables, or None when nothing is shipped for it."""
    path = study_folder(study, root) / MANIFEST
    if not path.exists():
        return None
    try:
        doc = json.loads(path.read_text())
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise ShippedResultsError(f"{path} is not a valid manifest ({exc}); restore it with "
                                  f"`git checkout -- {path}`") from None
    if doc.get("format") != FORMAT or doc.get("study") != study:
        raise ShippedResultsError(f"{path} is not a {FORMAT} manifest of study {study!r}")
    return doc


def available(study: str, root: str | Path | None = None) -> bool:
    """Whether ``study`` has shipped tables (a manifest; :func:`verify` checks the files)."""
    return (study_folder(study, root) / MANIFEST).exists()


def verify(study: str, root: str | Path | None = None) -> dict:
    """Check every file in ``study``'s manifest (present, same SHA-256); returns the manifest.

    Raises :class:`ShippedResultsError` naming each bad file and the fix.
    """
    doc = manifest(study, root)
    folder = study_folder(study, root)
    if doc is None:
        raise ShippedResultsError(f"no shipped results for study {study!r} (no {folder / MANIFEST}); "
                                  f"compute them with the paper profile (docs/scaling.md)")
    problems = []
    for name, entry in doc["files"].items():
        path = folder / name
        if not path.exists():
            problems.append(f"{path}: missing")
        elif _sha256(path) != entry["sha256"]:
            problems.append(f"{path}: SHA-256 differs from the manifest (damaged or edited)")
    if problems:
        raise ShippedResultsError(
            "shipped results failed their checksums:\n  " + "\n  ".join(problems)
            + f"\nRestore them with `git checkout -- {folder}`, or recompute that study at the paper profile "
              "with a store of your own (the notebook's `shipped=None`, see docs/scaling.md).")
    return doc


def same_parameters(doc: dict, params: dict) -> list[str]:
    """The parameter names whose values differ between a manifest and ``params`` (empty: the same run)."""
    shipped, wanted = doc["parameters"], _jsonable(params)
    return sorted(k for k in set(shipped) | set(wanted) if shipped.get(k) != wanted.get(k))


def load(study: str, params: dict | None = None, root: str | Path | None = None) -> dict[str, pd.DataFrame]:
    """``study``'s shipped tables (name -> DataFrame), after :func:`verify`.

    With ``params``, the shipped run must have exactly these parameters; a
    difference is an error naming the parameters, since those tables answer
    another design.
    """
    doc = verify(study, root)
    if params is not None:
        differ = same_parameters(doc, params)
        if differ:
            raise ShippedResultsError(
                f"the shipped {study!r} results were computed with other parameters ({', '.join(differ)}); "
                "run without shipped results (shipped=None) and a store to compute this design")
    folder = study_folder(study, root)
    return {Path(name).stem: pd.read_parquet(folder / name) for name in doc["files"]
            if Path(name).stem != QUICK_CLAIMS}


def tables_for(study: str, params: dict, root: str | Path | None) -> dict[str, pd.DataFrame] | None:
    """What a study's ``run`` reads instead of computing: the shipped tables when ``root`` is given,
    ``params`` are at the ``paper`` profile and ``study`` is shipped there (verified, and of exactly
    this design, see :func:`load`); None when there is nothing to read (compute instead)."""
    if root is None or params.get("profile") != "paper" or not available(study, root):
        return None
    return load(study, params, root)
