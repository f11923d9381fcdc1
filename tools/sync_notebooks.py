"""Write every notebook's ``.ipynb`` from its paired text source.

The source of a notebook is ``notebooks/NN_<name>.py`` in jupytext's percent
format (linted, reviewed and diffed like any Python file); the ``.ipynb`` next
to it is generated from it, without outputs and with stable cell ids, for
papermill. Edit the ``.py`` (in JupyterLab, open it as a notebook: jupytext
saves it, see pyproject's ``[tool.jupytext]``) and run ``make sync``; ``--check``
only reports pairs that are out of sync (the test suite runs it). An ``.ipynb``
whose cells were edited after its ``.py`` is not overwritten: ``make sync``
stops and names it (``--force``, ``make sync FORCE=1``, discards those edits).
"""
from __future__ import annotations

import sys
from pathlib import Path

import jupytext
import nbformat

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
KERNELSPEC = {"name": "cvrepro", "display_name": "Python (cvrepro)", "language": "python"}


def sources() -> list[Path]:
    """The notebooks' text sources, in order."""
    return sorted(NOTEBOOKS.glob("[0-9][0-9]_*.py"))


def build(source: Path) -> str:
    """The ``.ipynb`` text for ``source``: no outputs, stable ids, the project's kernel."""
    nb = jupytext.read(source, fmt="py:percent")
    for i, cell in enumerate(nb.cells):
        cell.id = f"{source.stem[:2]}-{i:02d}"
        if cell.cell_type == "code":
            cell.outputs, cell.execution_count = [], None
    nb.metadata = {"kernelspec": KERNELSPEC, "language_info": {"name": "python"}}
    return nbformat.writes(nb) + "\n"


def out_of_sync() -> list[str]:
    """Names of notebooks whose ``.ipynb`` differs from what their source gives, or lacks a source."""
    problems = [f"{nb.name}: no paired source {nb.stem}.py" for nb in sorted(NOTEBOOKS.glob("[0-9][0-9]_*.ipynb"))
                if not nb.with_suffix(".py").exists()]
    for source in sources():
        target = source.with_suffix(".ipynb")
        if not target.exists() or target.read_text() != build(source):
            problems.append(f"{target.name}: out of sync with {source.name} (run `make sync`)")
    return problems


def cells(text: str) -> list[tuple[str, str]]:
    """A notebook's (cell type, source) pairs: what an edit changes, outputs and metadata aside."""
    return [(c.cell_type, c.source) for c in nbformat.reads(text, as_version=4).cells]


def newer_edits(source: Path) -> bool:
    """Whether ``source``'s .ipynb has cells that differ from the .py's and was saved after it."""
    target = source.with_suffix(".ipynb")
    return (target.exists() and target.stat().st_mtime > source.stat().st_mtime
            and cells(target.read_text()) != cells(build(source)))


def main(argv: list[str]) -> int:
    if "--check" in argv:
        problems = out_of_sync()
        print("\n".join(problems) or "all notebooks in sync")
        return 1 if problems else 0
    edited = [] if "--force" in argv else [s for s in sources() if newer_edits(s)]
    if edited:
        print("\n".join(f"{s.with_suffix('.ipynb').name} has edits newer than {s.name}: not overwritten. Move "
                        f"them into the .py (jupytext --to py:percent notebooks/{s.stem}.ipynb, then review), or "
                        f"discard them with `make sync FORCE=1`" for s in edited), file=sys.stderr)
        return 1
    for source in sources():
        source.with_suffix(".ipynb").write_text(build(source))
        print(f"wrote {source.with_suffix('.ipynb').relative_to(NOTEBOOKS.parent)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
