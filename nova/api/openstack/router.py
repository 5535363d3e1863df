"""Paths below /v2.1 → a handler, from the route table (routes.py).

A fixed path wins over a template (``servers/detail`` before
``servers/{server_id}``), whatever the table's order; 404 and 405 are
decided here and nowhere else.
"""
import re

from nova.api.openstack import faults

_PLACEHOLDER = re.compile(r'\{(\w+)\}')


class Router:
    def __init__(self, declarations):
        """``declarations``: {'/servers/{server_id}': {'GET': handler, ...}}."""
        self._fixed = {}
        self._templates = []
        for template, methods in declarations.items():
            path = template.strip('/')
            if _PLACEHOLDER.search(path) is None:
                self._fixed[path] = (template, methods)
            else:
                regex = _PLACEHOLDER.sub(r'(?P<\1>[^/]+)', path)
                self._templates.append((re.compile('^%s$' % regex), (template, methods)))
        self.collections = frozenset(t.strip('/').split('/')[0] for t in declarations)

    def split_project(self, path):
        """'/<project>/servers/x' → ('<project>', 'servers/x'); '/servers/x'
        → (None, 'servers/x'). A project id is recognised only in front of
        a known collection: any other path is not found."""
        parts = path.strip('/').split('/', 2)
        if parts[0] in self.collections:
            return None, path.strip('/')
        if len(parts) > 1 and parts[1] in self.collections:
            return parts[0], '/'.join(parts[1:])
        raise faults.NotFound()

    def match(self, method, path):
        """(handler, keyword arguments) for ``method`` on ``path``."""
        return self.match_route(method, path)[1:]

    def match_route(self, method, path):
        """(URL template, handler, keyword arguments) for ``method`` on
        ``path``; the template names the route in the API's metrics."""
        route, kwargs = self._fixed.get(path), {}
        if route is None:
            for pattern, candidate in self._templates:
                found = pattern.match(path)
                if found:
                    route, kwargs = candidate, found.groupdict()
                    break
            else:
                raise faults.NotFound()
        template, methods = route
        handler = methods.get(method)
        if handler is None:
            raise faults.Fault(405, 'The method specified is not allowed for this resource.')
        return template, handler, kwargs
