"""The pieces of :func:`cvrepro.runner.run_cv`, one concern per module.

``inputs``    data sets, learners and arguments checked and prepared (:class:`~.inputs.Grid`)
``tasks``     one task (a run of iterations of one cell): partitions, seeds, fitting, the tables
``partitions`` drawn partitions kept per worker process, reused by every learner's task
``planning``  which tasks to run: the store's chunks, task sizes, stopping rules
``backends``  where tasks run: in process, joblib, dask (data sets shipped once per worker)
``results``   stored chunks read back and assembled into :class:`~.results.CVResults`

This ``__init__`` imports none of them, so that each can be imported alone.
"""
