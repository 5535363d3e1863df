"""A one-sided network partition between some processes and a TCP server
(the liveness backend): a proxy in front of the server that, while cut,
swallows everything the chosen processes send through it, unanswered, as a
partition does, while every other process passes. Which process a
connection comes from is read from the kernel (psutil), so every process
can keep the one URL of the proxy."""
import select
import socket
import threading

import fixtures
import psutil


class OneSidedPartition(fixtures.Fixture):

    def __init__(self, port, cut_off=lambda cmdline: 'nova.cmd.compute' in cmdline):
        """``port``: the server's on 127.0.0.1; ``cut_off(cmdline)``: whether
        a client process is on the far side of the partition."""
        super().__init__()
        self.target = ('127.0.0.1', port)
        self.cut_off = cut_off
        self.cut = threading.Event()
        self.swallowed = 0          # connections that lost data to the cut

    def _setUp(self):
        self.listener = socket.socket()
        self.listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.listener.bind(('127.0.0.1', 0))
        self.listener.listen(256)
        self.port = self.listener.getsockname()[1]
        self._stopping = threading.Event()
        self._lock = threading.Lock()
        self._far = []              # (client, server) of far-side connections
        threading.Thread(target=self._accept, daemon=True).start()
        self.addCleanup(self._stop)

    @property
    def url(self):
        return 'redis://127.0.0.1:%d' % self.port

    def _stop(self):
        self._stopping.set()
        self.listener.close()

    def _far_side(self, peer):
        for conn in psutil.net_connections('tcp4'):
            if conn.laddr and tuple(conn.laddr) == peer and conn.pid:
                try:
                    return self.cut_off(psutil.Process(conn.pid).cmdline())
                except psutil.Error:
                    return False
        return False

    def _accept(self):
        while not self._stopping.is_set():
            try:
                client, peer = self.listener.accept()
            except OSError:
                return
            far = self._far_side(peer)
            try:
                server = socket.create_connection(self.target)
            except OSError:
                client.close()
                continue
            if far:
                with self._lock:
                    self._far.append((client, server))
            threading.Thread(target=self._pump, args=(client, server, far),
                             daemon=True).start()

    def _pump(self, client, server, far):
        ends = {client: server, server: client}
        swallowing = False
        try:
            while not self._stopping.is_set():
                ready, _, _ = select.select(list(ends), [], [], 0.2)
                for sock in ready:
                    data = sock.recv(65536)
                    if not data:
                        return
                    if far and self.cut.is_set():
                        if not swallowing:
                            swallowing = True
                            self.swallowed += 1
                        continue        # lost on the way, both ways
                    ends[sock].sendall(data)
        except OSError:
            pass
        finally:
            client.close()
            server.close()

    def heal(self):
        """Let the far side through again; the connections that lost data
        are closed (their clients reconnect), as after a real partition."""
        self.cut.clear()
        with self._lock:
            far, self._far = self._far, []
        for client, server in far:
            for sock in (client, server):
                try:
                    sock.shutdown(socket.SHUT_RDWR)
                except OSError:
                    pass
