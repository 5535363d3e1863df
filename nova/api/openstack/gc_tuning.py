"""The cyclic garbage collector, tuned for a process that serves the API.

Measured reason (benchmarks/README.rst, "Garbage collector"): a page of
1000 servers allocates some 10,000 containers that reference counting frees
on its own; at Python's default threshold (700) the cyclic collector ran a
dozen times during one such request, and every tenth request or so a full
collection walked every object the process had loaded: a quarter of the
CPU time on average, most of the p90.
"""
import gc


def tune():
    """Once the app is loaded: what was loaded stays (frozen out of
    collections); young objects are examined every 10,000 net allocations
    instead of 700."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10000, 10, 10)
