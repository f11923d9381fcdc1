"""cvrepro: reproducible studies of cross-validation for classifier comparison.

Modules: ``datasets`` (shipped benchmark catalog), ``profiles`` (run scales),
``partition`` (SCV, DB-SCV, DOB-SCV, MS-SCV splitters), ``metrics``,
``runner`` (cached repeated cross-validation; its pieces in ``engine``),
``store`` (its results cache, a hive-style Parquet tree), ``progress`` (progress
bars for long work), ``learners`` (C4.5, HDDT, kernel NB, ... as
scikit-learn estimators), ``stats`` (tests), ``convergence`` (stopping
rules), ``paramchannel`` (Scheffer & Herbrich).
"""
__version__ = "0.1.0"
