"""Reproducible benchmarks (run with ``tox -e bench``); not timed tests."""
