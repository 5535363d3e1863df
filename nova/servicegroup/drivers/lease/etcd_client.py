"""etcd3gw clients of every member of an etcd cluster: a request that
cannot reach one member is sent to the next (etcd3gw speaks to one)."""
import base64
import threading

import etcd3gw
import requests
import requests.adapters
from etcd3gw import exceptions as etcd_exc

UNREACHABLE = (etcd_exc.ConnectionFailedError, etcd_exc.ConnectionTimeoutError)


def b64(text):
    return base64.b64encode(text.encode() if isinstance(text, str) else text).decode()


def unb64(text):
    return base64.b64decode(text).decode()


def range_end(prefix):
    """The end of the range of keys that start with ``prefix``."""
    return prefix[:-1] + chr(ord(prefix[-1]) + 1)


def _session():
    # every gthread worker and heartbeat of a process shares it
    session = requests.Session()
    adapter = requests.adapters.HTTPAdapter(pool_maxsize=64)
    session.mount('http://', adapter)
    session.mount('https://', adapter)
    return session


class Client:

    def __init__(self, backend):
        self.backend = backend
        self._clients = [etcd3gw.client(host=host, port=port, timeout=backend.timeout,
                                        protocol='https' if backend.tls else 'http',
                                        session=_session())
                         for host, port in backend.endpoints]
        self._current = 0
        self._lock = threading.Lock()

    def post(self, path, body):
        """The JSON reply of one request; the next member is tried when
        this one is unreachable (each try bounded by backend.timeout)."""
        for attempt in range(len(self._clients)):
            client, index = self._client()
            try:
                return client.post(client.get_url(path), json=body)
            except UNREACHABLE:
                self._next(index)
                if attempt == len(self._clients) - 1:
                    raise

    def stream(self, path, body, read_timeout):
        """A streaming POST (a watch) to the current member; the caller
        moves on with failed() when it breaks."""
        client, index = self._client()
        try:
            response = client.session.post(client.get_url(path), json=body, stream=True,
                                           timeout=(self.backend.timeout, read_timeout))
        except Exception:
            self._next(index)
            raise
        response.raise_for_status()
        return response, index

    def failed(self, index):
        self._next(index)

    def _client(self):
        with self._lock:
            return self._clients[self._current], self._current

    def _next(self, index):
        with self._lock:
            if self._current == index:     # not already moved by another thread
                self._current = (index + 1) % len(self._clients)
