"""Refuse notebook parameters that the notebook does not define.

Papermill injects its parameters as a cell after a notebook's ``parameters``
cell and only logs a name that cell does not define, so a misspelt parameter
(``seeds=3`` for ``seed``) would run the whole notebook with the default.
Each notebook's cell after its parameters calls :func:`refuse_unknown_parameters`,
which compares the injected names with the parameters cell's, from the
kernel's input history, and fails naming the unknown one and the closest
known names. It imports only the standard library, so it fails in a second.
"""
from __future__ import annotations

import ast
import difflib
from collections.abc import Sequence

__all__ = ["INJECTED_HEADER", "assigned_names", "injected_cells", "unknown_parameters", "refuse_unknown_parameters"]

INJECTED_HEADER = "# Parameters"   # papermill's first line of the cell it injects


def assigned_names(source: str) -> list[str]:
    """The names a cell's top-level assignments bind, in order."""
    names = []
    for node in ast.parse(source).body:
        targets = node.targets if isinstance(node, ast.Assign) else \
            [node.target] if isinstance(node, (ast.AnnAssign, ast.AugAssign)) else []
        names += [t.id for t in targets if isinstance(t, ast.Name) and t.id not in names]
    return names


def injected_cells(history: Sequence[str]) -> tuple[str, str] | None:
    """(parameters cell, injected cell) from the kernel's executed sources, or None if nothing was injected.

    ``history`` is IPython's ``In`` up to the calling cell (the last entry); the
    last cell papermill injected follows the parameters cell it overrides.
    """
    cells = [c for c in history[:-1] if isinstance(c, str)]
    injected = [i for i, c in enumerate(cells) if c.lstrip().startswith(INJECTED_HEADER) and i > 0]
    return (cells[injected[-1] - 1], cells[injected[-1]]) if injected else None


def unknown_parameters(history: Sequence[str]) -> dict[str, list[str]]:
    """Injected names the parameters cell does not define, each with its closest known names."""
    cells = injected_cells(history)
    if cells is None:
        return {}
    known = assigned_names(cells[0])
    return {name: difflib.get_close_matches(name, known, n=3, cutoff=0.6)
            for name in assigned_names(cells[1]) if name not in known}


def refuse_unknown_parameters(history: Sequence[str] | None = None) -> None:
    """Raise ``ValueError`` naming every injected parameter the notebook does not define.

    ``history`` defaults to the running IPython kernel's ``In``; outside a kernel
    there is nothing injected and nothing to check.
    """
    if history is None:
        try:
            from IPython import get_ipython
        except ImportError:
            return
        shell = get_ipython()
        history = shell.user_ns.get("In", []) if shell is not None else []
    unknown = unknown_parameters(history)
    if not unknown:
        return
    hints = [f"unknown parameter {name!r}: " + (f"did you mean {' or '.join(map(repr, close))}?" if close
                                                else "no known parameter is close")
             for name, close in unknown.items()]
    known = assigned_names(injected_cells(history)[0])
    raise ValueError("; ".join(hints) + f". This notebook's parameters: {', '.join(known)}")
