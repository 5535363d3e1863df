"""Prometheus metrics: one module per producer (the API processes, the
host-status watcher) and the one way both are served."""
