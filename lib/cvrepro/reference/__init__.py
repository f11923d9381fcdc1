"""Bridges to the reference tools the papers ran (WEKA 3.6, :mod:`.weka`; KEEL, :mod:`.keel`, where its classes
are available), used by the parity tests, the fixture recorders under ``tools/`` and the
notebooks that show the real tool's numbers beside ours when it is installed."""
