"""The pieces of :func:`cvrepro.runner.run_cv`, one concern per module, and the task map.

``inputs``    data sets, learners and arguments checked and prepared (:class:`~.inputs.Grid`)
``tasks``     one task (a run of iterations of one cell): partitions, seeds, fitting, the tables
``partitions`` drawn partitions kept per worker process, reused by every learner's task
``planning``  which tasks to run: the store's chunks, task sizes, stopping rules
``backends``  where tasks run: in process, joblib, dask (data sets shipped once per worker)
``results``   stored chunks read back and assembled into :class:`~.results.CVResults`
``taskmap``   :func:`map_tasks` (and its iterator form :func:`iter_tasks`): any pure function over
              tasks, cached, checksummed and resumable (a study's non-CV work, and run_cv's rounds)
``cvlayout``  run_cv's results store as a layout of the task map (its keys and files unchanged)

This ``__init__`` imports none of them, so that each can be imported alone; ``cvrepro.engine.map_tasks``,
``cvrepro.engine.iter_tasks`` and ``cvrepro.engine.Task`` load :mod:`.taskmap` on first use.
"""
__all__ = ["map_tasks", "iter_tasks", "Task"]


def __getattr__(name):
    if name in __all__:
        from . import taskmap
        return getattr(taskmap, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
