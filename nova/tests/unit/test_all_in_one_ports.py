"""nova-all-in-one's port check: a port a server listens on is taken; one
that only a previous run's connections hold in TIME-WAIT is not (the
servers bind with SO_REUSEADDR, and so does the check): the all-in-one
restarts at once on its own ports (issue 28)."""
import errno
import socket

import testtools

from nova.cmd import all_in_one


def _listener():
    """A listening socket bound as the all-in-one's servers bind theirs
    (gunicorn, the metrics servers: SO_REUSEADDR)."""
    sock = socket.socket()
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(('127.0.0.1', 0))
    sock.listen()
    return sock


def _port_in_time_wait():
    """A port whose server has stopped and whose one connection was closed
    by the server's side first (as an HTTP server does), which leaves it in
    TIME-WAIT for a minute."""
    with _listener() as listener:
        port = listener.getsockname()[1]
        client = socket.create_connection(('127.0.0.1', port))
        accepted, _ = listener.accept()
        accepted.close()          # the server's side closes first
        client.recv(1)            # the client sees the end...
        client.close()            # ...and closes too: the server's side waits
    return port


class PortCheckTest(testtools.TestCase):

    def test_a_port_in_time_wait_is_free(self):
        port = _port_in_time_wait()
        # what the check did before: a bind without SO_REUSEADDR is refused
        with socket.socket() as plain:
            error = self.assertRaises(OSError, plain.bind, ('127.0.0.1', port))
        self.assertEqual(errno.EADDRINUSE, error.errno)
        all_in_one.check_port_free(port)

    def test_a_port_a_server_listens_on_is_taken(self):
        with _listener() as server:
            port = server.getsockname()[1]
            error = self.assertRaises(SystemExit, all_in_one.check_port_free, port, '--port')
        self.assertIn('port %d on 127.0.0.1 is taken' % port, str(error))
        self.assertIn('choose another with --port', str(error))
