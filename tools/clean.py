"""`make clean`: remove what `make` generated, say what, and leave everything else alone.

Generated: ``build/`` (executed notebooks), everything in ``figures/`` but its
``README.md``, the result stores the notebooks create by default (each
notebook's default ``store`` parameter, and ``results/<study id>/`` for every
study of the registry), and dask's ``dask-worker-space/``. Anything else under
``results/`` (a store of your own) is kept and listed as kept.

Runs with the standard library only (no .venv needed): ``python3 tools/clean.py [project folder]``.
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
    """Everything `make` generates under ``root`` (whether it exists or not), most general first."""
    root = root.resolve()
    out = [root / "build", root / "dask-worker-space", root / "notebooks" / "dask-worker-space"]
    figures = root / "figures"
    if figures.is_dir():
        out += sorted(p for p in figures.iterdir() if p.name != "README.md")
    stores = {root / "results" / sid for sid in study_ids()}
    for source in sorted((root / "notebooks").glob("[0-9][0-9]_*.py")):
        for key in ("store", "output_dir"):
            value = notebook_defaults(source).get(key)
            if isinstance(value, str) and value:
                path = (root / "notebooks" / value).resolve()
                if _inside_generated(path, root):
                    stores.add(path)
    return out + sorted(p for p in stores if p not in out)


def clean(root: Path) -> list[str]:
    """Remove the targets that exist; return one line per removed or kept entry."""
    root = root.resolve()
    report = []
    made = targets(root)
    for path in made:
        if path.is_dir() and not path.is_symlink():
            shutil.rmtree(path)
        elif path.exists() or path.is_symlink():
            path.unlink()
        else:
            continue
        report.append(f"removed {path.relative_to(root).as_posix()}")
    results = root / "results"
    if results.is_dir():
        for path in sorted(results.iterdir()):
            if path not in made:
                report.append(f"kept {path.relative_to(root).as_posix()} (not made by make; remove it yourself)")
        if not any(results.iterdir()):
            results.rmdir()
    return report


if __name__ == "__main__":
    folder = Path(sys.argv[1]) if len(sys.argv) > 1 else HERE
    print("\n".join(clean(folder)) or "nothing to clean")
