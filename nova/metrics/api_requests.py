"""Metrics of the API processes: every request by route template, method
and status, with its latency, as a WSGI middleware around the API.

The route is the URL template the router matched (``/servers/{server_id}``),
``/`` and ``/v2.1`` for the version documents, ``unmatched`` for anything
else (404s, 405s, refusals before routing): never a raw path, so no id
ever becomes a label value. Methods outside HTTP's usual set count as
``other``.

Under nova-api every worker (uWSGI's or gunicorn's) writes its values to
files in prometheus_client's multiprocess directory (PROMETHEUS_MULTIPROC_DIR, set
by nova-api before its server starts) and nova-api serves their sum.

Per request: one closure, one tuple and a lookup of the cached label
child; nothing is built for the labels.
"""
import time

import prometheus_client

ROUTE_KEY = 'nova.route_template'
UNMATCHED = 'unmatched'
OTHER_METHOD = 'other'
METHODS = frozenset(('GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'))
# long polls of /os-host-status-events wait up to 25 s
BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 30.0)
DURATION_HELP = ('Seconds the API took to answer a request, by route template, '
                 'method and status code; _count is the number of requests.')


class RequestMetrics:
    """WSGI middleware observing every request of ``application``."""

    def __init__(self, application, registry=prometheus_client.REGISTRY):
        self.application = application
        self.duration = prometheus_client.Histogram(
            'nova_api_request_duration_seconds', DURATION_HELP,
            ('route', 'method', 'status'), buckets=BUCKETS, registry=registry)
        self._children = {}

    def __call__(self, environ, start_response):
        started = time.perf_counter()
        statuses = []

        def start(status, headers, exc_info=None):
            statuses.append(status)
            return start_response(status, headers, exc_info)

        try:
            return self.application(environ, start)
        finally:
            key = (environ.get(ROUTE_KEY, UNMATCHED), environ.get('REQUEST_METHOD', ''),
                   statuses[-1][:3] if statuses else '500')
            child = self._children.get(key) or self._child(key)
            child.observe(time.perf_counter() - started)

    def _child(self, key):
        route, method, status = key
        if method not in METHODS:
            # not cached: a client chooses the method, the cache must stay bounded
            return self.duration.labels(route, OTHER_METHOD, status)
        child = self._children[key] = self.duration.labels(route, method, status)
        return child
