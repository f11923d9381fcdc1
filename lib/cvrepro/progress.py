"""Progress bars for long work: the CV engine, resampling tests, stopping-rule replays, notebook loops.

:func:`progress_bar` returns a tqdm bar (same methods: ``update``, ``close``,
``set_postfix``, iteration) drawn the way the place it runs in can show it:

``widget``    in a Jupyter kernel with ipywidgets (JupyterLab, papermill): one
              widget bar updated in place (one output cell entry, whatever the length)
``terminal``  on a terminal: tqdm's text bar, redrawn in place
``lines``     anywhere else (a log file, CI, a kernel without ipywidgets, whose
              captured stream would keep every redraw): at most a handful of lines,
              the first once ``delay`` has passed, one per quarter of the total, the
              last at the end

A bar shows only if the work lasts longer than ``delay`` seconds (2 by
default), so quick calls print nothing. The environment variable
``CVREPRO_PROGRESS`` (``widget``, ``terminal``, ``lines`` or ``off``)
overrides the choice, e.g. ``off`` for logs of batch runs.
"""
from __future__ import annotations

import functools
import math
import os
import sys

from tqdm.std import tqdm as text_tqdm

__all__ = ["progress_bar", "display_mode", "LineBar", "MODES"]

MODES = ("widget", "terminal", "lines", "off")


def display_mode(file=None) -> str:
    """How a bar writing to ``file`` (default ``sys.stderr``) is shown here: one of :data:`MODES`."""
    forced = os.environ.get("CVREPRO_PROGRESS", "").strip().lower()
    if forced:
        if forced not in MODES:
            raise ValueError(f"CVREPRO_PROGRESS must be one of {MODES}, got {forced!r}")
        return forced
    if _in_jupyter_kernel() and _has_ipywidgets():
        return "widget"
    stream = sys.stderr if file is None else file
    try:
        return "terminal" if stream.isatty() else "lines"
    except (AttributeError, ValueError):   # no isatty, or closed
        return "lines"


def progress_bar(iterable=None, *, total=None, desc: str | None = None, unit: str = "it",
                 enabled: bool = True, delay: float = 2.0, leave: bool = True, file=None, mode: str | None = None,
                 **tqdm_kwargs):
    """A tqdm progress bar over ``iterable`` (or updated by hand up to ``total``), drawn for
    where it runs (see :mod:`cvrepro.progress`); ``enabled=False`` gives a silent one."""
    mode = mode or display_mode(file)
    if mode not in MODES:
        raise ValueError(f"mode must be one of {MODES}, got {mode!r}")
    options = dict(total=total, desc=desc, unit=unit, disable=not enabled or mode == "off", delay=delay,
                   leave=leave, **tqdm_kwargs)
    if mode == "widget":
        return _widget_bar_class()(iterable, **options)
    if mode == "terminal":
        return text_tqdm(iterable, file=file, **options)
    return LineBar(iterable, file=file, **options)


def _has_ipywidgets() -> bool:
    try:
        import ipywidgets  # noqa: F401
    except ImportError:
        return False
    return True


def _in_jupyter_kernel() -> bool:
    ipython = sys.modules.get("IPython")
    shell = ipython.get_ipython() if ipython is not None else None
    return shell is not None and "IPKernelApp" in getattr(shell, "config", {})


class LineBar(text_tqdm):
    """tqdm's text bar for output that keeps every redraw (not a terminal): whole lines, few of them.

    A line when the bar first shows (after ``delay``), when the count first
    passes each of ``milestones`` equal parts of the total (a total that grows,
    as the engine's does with each round of a stopping rule, never brings a
    part back), and a last one at close if the count moved since: at most
    ``milestones + 2`` lines. Nothing if the work ended within ``delay``.
    """

    def __init__(self, *args, milestones: int = 4, **kwargs):
        self.milestones = milestones
        self.printed_n = None   # count at the last line printed
        self.passed = 0         # parts of the total passed when a line was last printed
        kwargs.setdefault("mininterval", 0.5)
        kwargs.setdefault("miniters", 1)   # no dynamic miniters: lines depend on the count only
        super().__init__(*args, **kwargs)

    def display(self, msg=None, pos=None):
        if msg is not None:      # a request to clear the line: lines already written stay
            return False
        if self._time() < getattr(self, "start_t", -math.inf) + self.delay or not self._due():
            return True
        self._write_line()
        return True

    def _parts(self) -> int:
        return math.floor(self.milestones * self.n / self.total) if self.total else 0

    def _due(self) -> bool:
        if self.printed_n is None:
            return True
        return self.n != self.printed_n and self._parts() > self.passed

    def _write_line(self) -> None:
        self.printed_n = self.n
        self.passed = max(self.passed, self._parts())
        self.fp.write(self.__str__() + "\n")
        self.fp.flush()

    def close(self):
        if self.disable:
            return
        if self.printed_n is not None and self.n != self.printed_n and self.leave:
            self._ema_dt = lambda: None   # the final line shows the overall rate, as tqdm's does
            self._write_line()
        self.leave = False   # tqdm's close then has nothing to redraw
        super().close()


@functools.cache
def _widget_bar_class():
    """tqdm's widget bar, made to follow a growing total, to show only after ``delay`` (also on
    explicit refreshes), and to leave its final state as the output's text (what papermill and
    static renderings of the notebook show)."""
    from IPython.display import display
    from tqdm.notebook import tqdm as notebook_tqdm

    class WidgetBar(notebook_tqdm):
        def __init__(self, *args, **kwargs):
            self.shown = None   # the display handle, once the bar is on screen
            super().__init__(*args, display=False, **kwargs)

        def display(self, msg=None, pos=None, close=False, bar_style=None, check_delay=True):
            container = getattr(self, "container", None)
            if container is None:
                return None
            bar = container.children[1]
            if self.total and bar.max != self.total:   # total grown since drawn (e.g. a new round)
                bar.max = self.total
                if bar.bar_style == "info":
                    bar.bar_style = ""
                    bar.layout.width = None
            out = super().display(msg, pos, close, bar_style, check_delay=False)
            if check_delay and self.shown is None \
                    and self._time() >= getattr(self, "start_t", -math.inf) + self.delay:
                self.shown = display(container, display_id=True)
            return out

        def close(self):
            if self.disable:
                return
            super().close()
            if self.shown is not None:   # the output's text becomes the final line
                self.shown.update(self.container)

    return WidgetBar
