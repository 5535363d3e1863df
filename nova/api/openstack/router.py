"""URL → controller method, for paths below /v2.1 with or without a project id."""
import re

from nova.api.openstack import faults

_SEGMENT = '(?P<id>[^/]+)'


class Router:
    def __init__(self):
        self._routes = []       # (compiled regex, {method: handler})
        self._collections = set()

    def add(self, path, **methods):
        """``path`` like 'servers/{id}'; methods GET=handler, POST=handler..."""
        self._collections.add(path.split('/')[0])
        pattern = re.compile('^' + path.replace('{id}', _SEGMENT) + '$')
        self._routes.append((pattern, methods))

    def split_project(self, path):
        """'/<project>/servers/x' → ('<project>', 'servers/x'); no project → None."""
        parts = path.strip('/').split('/', 1)
        if len(parts) == 2 and parts[0] not in self._collections:
            return parts[0], parts[1]
        return None, path.strip('/')

    def match(self, method, path):
        for pattern, methods in self._routes:
            found = pattern.match(path)
            if found:
                handler = methods.get(method)
                if handler is None:
                    raise faults.Fault(405, 'The method specified is not allowed '
                                            'for this resource.')
                return handler, found.groupdict()
        raise faults.NotFound()
