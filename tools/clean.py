"""`make clean`: remove what `make` generated, say what, and keep the result stores.

Generated: ``build/`` (executed notebooks, the report), everything in ``figures/``
but its ``README.md``, and dask's ``dask-worker-space/``. The result stores the
notebooks create by default (each notebook's default ``store`` parameter, and
``results/<study id>/`` for every study of the registry) are caches of hours to
core-hours of work: `make clean` keeps them and lists them; ``--results``
(`make clean-results`) removes them too. Anything else under ``results/`` (a
store of your own) is always kept and listed as kept. ``--dry-run`` only says
what would go.

Runs with the standard library only (no .venv needed):
``python3 tools/clean.py [--results] [--dry-run] [project folder]``.
"""
from __future__ import annotations

import ast
import shutil
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parents[1]
GENERATED_TOP = ("build", "figures", "results")   # default stores and outputs may only lie under these


def study_ids() -> tuple[str, ...]:
    """The registry's study ids (cvrepro.studies imports only the standard library)."""
    sys.path.insert(0, str(HERE / "lib"))
    from cvrepro.studies import STUDY_IDS

    return STUDY_IDS


def notebook_defaults(source: Path) -> dict:
    """The literal defaults of a notebook source's ``parameters`` cell (jupytext percent format)."""
    lines, inside = [], False
    for line in source.read_text().splitlines():
        if line.startswith("# %%"):
            if inside:
                break
            inside = "parameters" in line
            continue
        if inside:
            lines.append(line)
    defaults = {}
    for node in ast.parse("\n".join(lines)).body:
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            try:
                defaults[node.targets[0].id] = ast.literal_eval(node.value)
            except ValueError:
                pass
    return defaults


def _inside_generated(path: Path, root: Path) -> bool:
    try:
        parts = path.relative_to(root).parts
    except ValueError:
        return False
    return len(parts) >= 2 and parts[0] in GENERATED_TOP


def targets(root: Path) -> list[Path]:
    """Everything `make` generates under ``root`` but the result stores (whether it exists or not)."""
    root = root.resolve()
    out = [root / "build", root / "dask-worker-space", root / "notebooks" / "dask-worker-space"]
    figures = root / "figures"
    if figures.is_dir():
        out += sorted(p for p in figures.iterdir() if p.name != "README.md")
    return out   # the notebooks' default output_dir lie under figures/ (tests/test_docs.py checks)


def stores(root: Path) -> list[Path]:
    """The result stores the notebooks create by default: ``results/<study id>/`` and each default ``store``."""
    root = root.resolve()
    found = {root / "results" / sid for sid in study_ids()}
    for source in sorted((root / "notebooks").glob("[0-9][0-9]_*.py")):
        value = notebook_defaults(source).get("store")
        if isinstance(value, str) and value:
            path = (root / "notebooks" / value).resolve()
            if _inside_generated(path, root):
                found.add(path)
    return sorted(found)


def _remove(path: Path) -> None:
    if path.is_dir() and not path.is_symlink():
        shutil.rmtree(path)
    else:
        path.unlink()


def clean(root: Path, results: bool = False, dry_run: bool = False) -> list[str]:
    """Remove the targets that exist (and the default stores if ``results``); one line per entry."""
    root = root.resolve()
    remove = targets(root) + (stores(root) if results else [])
    report = []
    for path in remove:
        if path.exists() or path.is_symlink():
            if not dry_run:
                _remove(path)
            report.append(f"{'would remove' if dry_run else 'removed'} {path.relative_to(root).as_posix()}")
    default = set(stores(root))
    folder = root / "results"
    if folder.is_dir():
        for path in sorted(folder.iterdir()):
            if path in default and not results:
                report.append(f"kept {path.relative_to(root).as_posix()} (a result store: "
                              f"`make clean-results` removes the default stores)")
            elif path not in default:
                report.append(f"kept {path.relative_to(root).as_posix()} (not made by make; remove it yourself)")
        if not dry_run and not any(folder.iterdir()):
            folder.rmdir()
    return report


if __name__ == "__main__":
    args = sys.argv[1:]
    flags = {a for a in args if a.startswith("--")}
    unknown = flags - {"--results", "--dry-run"}
    if unknown:
        sys.exit(f"unknown option {', '.join(sorted(unknown))}; use --results and/or --dry-run")
    folder = next((Path(a) for a in args if not a.startswith("--")), HERE)
    print("\n".join(clean(folder, "--results" in flags, "--dry-run" in flags)) or "nothing to clean")
