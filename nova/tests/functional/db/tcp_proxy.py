"""A TCP forwarder the tests put between the product and a shared database
server: stopping it is the database going away for this test only (other
test workers keep using the server), starting it again is the database
coming back on the same address. Hanging it is a database that stops
answering without refusing (a network black hole, a stuck server): every
connection, open or new, is accepted and kept, and nothing moves either way
until it resumes. The proxy's own kernel still acknowledges what the client
sends, so TCP keepalives and TCP_USER_TIMEOUT never fire against it: only a
client that gives up by itself does."""
import socket
import threading

import fixtures


class TcpProxy(fixtures.Fixture):
    """Forwards 127.0.0.1:<port> to ``target`` (host, port) while started."""

    def __init__(self, target):
        super().__init__()
        self.target = target
        self.port = None
        self._lock = threading.Lock()
        self._listener = None
        self._sockets = set()
        self._flowing = threading.Event()
        self._flowing.set()

    def _setUp(self):
        self.start()
        self.addCleanup(self.stop)

    @property
    def address(self):
        return '127.0.0.1:%d' % self.port

    def start(self):
        listener = socket.socket()
        listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        listener.bind(('127.0.0.1', self.port or 0))
        listener.listen(64)
        self.port = listener.getsockname()[1]
        with self._lock:
            self._listener = listener
        threading.Thread(target=self._accept, args=(listener,), daemon=True).start()

    def hang(self):
        """Keep accepting and holding connections, forward nothing."""
        self._flowing.clear()

    def resume(self):
        """Forward again, what was held first."""
        self._flowing.set()

    def stop(self):
        """Refuse new connections and cut every open one."""
        self._flowing.set()     # held pumps wake up and find their sockets closed
        with self._lock:
            listener, self._listener = self._listener, None
            sockets, self._sockets = self._sockets, set()
        if listener is not None:
            _close(listener)
        for sock in sockets:
            _close(sock)

    def _accept(self, listener):
        while True:
            try:
                client, _ = listener.accept()
            except OSError:
                return  # stopped
            try:
                upstream = socket.create_connection(self.target, timeout=5)
                upstream.settimeout(None)
            except OSError:
                _close(client)
                continue
            with self._lock:
                if self._listener is not listener:
                    _close(client)
                    _close(upstream)
                    return
                self._sockets.update((client, upstream))
            for source, sink in ((client, upstream), (upstream, client)):
                threading.Thread(target=self._pump, args=(source, sink), daemon=True).start()

    def _pump(self, source, sink):
        try:
            while True:
                data = source.recv(65536)
                self._flowing.wait()
                if not data:
                    break
                sink.sendall(data)
        except OSError:
            pass
        _close(source)
        _close(sink)
        with self._lock:
            self._sockets.discard(source)
            self._sockets.discard(sink)


def _close(sock):
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    sock.close()
