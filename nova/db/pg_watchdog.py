"""psycopg2 connections that give up on a PostgreSQL server that stops
answering.

libpq has no read timeout: a statement sent to a server (or a proxy, or a
network path) that accepts it and never answers waits for ever. The
server's statement_timeout cannot fire for a statement it never received,
and TCP keepalives or tcp_user_timeout only notice a peer whose kernel
stops acknowledging, which a stuck server or proxy still does. So the
client gives up by itself: every round trip (a cursor's execute, commit,
rollback) registers its deadline with one watchdog thread per process,
which shuts the socket down once the deadline passes. libpq wakes up and
reports a lost connection, which SQLAlchemy and oslo.db treat as a
disconnect (DBConnectionError; the pool replaces the connection).

A thread rather than psycopg2's asynchronous mode with a wait callback
(the other way to put a client-side limit on libpq's waits): that one is
process-wide, for every psycopg2 connection of the process, forbids COPY
and runs every wait through Python. The cost here is some 7-11 us of CPU
per round trip (benchmarks/pg_round_trip.py).
"""
import itertools
import math
import os
import socket
import threading
import time

import psycopg2
import psycopg2.extensions

from nova.db import waits

GAVE_UP = ('the database server did not answer within %g s ([database] '
           'response_timeout), so the client closed the connection')


class _Watchdog:
    """Deadlines of the round trips in flight, and the thread that acts on them."""

    def __init__(self):
        self._lock = threading.Lock()     # entered at every round trip: a C lock
        self._cond = threading.Condition(self._lock)
        self._deadlines = {}          # key -> (deadline, socket fd)
        self._wakes_at = None         # when the thread wakes up next
        self._idle = 1.0              # how long it sleeps with nothing to watch
        self._thread = None
        self._keys = itertools.count()

    def watch(self, fd, timeout):
        deadline = time.monotonic() + timeout
        key = next(self._keys)
        with self._lock:
            self._deadlines[key] = (deadline, fd)
            self._idle = timeout
            if self._thread is None:
                self._thread = threading.Thread(target=self._run, name='pg-watchdog',
                                                daemon=True)
                self._thread.start()
            elif self._wakes_at is None or deadline < self._wakes_at:
                self._cond.notify()
        return key

    def done(self, key):
        """Forget ``key``; True when the watchdog had to give up on it."""
        with self._lock:
            return self._deadlines.pop(key, None) is None

    def _run(self):
        with self._cond:
            while True:
                now = time.monotonic()
                for key, (deadline, fd) in list(self._deadlines.items()):
                    if deadline <= now:
                        # still registered, so its thread is still inside the
                        # call and the descriptor still the connection's
                        del self._deadlines[key]
                        _hang_up(fd)
                # Idle, it still wakes up every bound rather than waiting to
                # be notified: a round trip that starts meanwhile ends after
                # that wake-up, and waking the thread at every statement
                # (the GIL, a context switch) cost more than the rest.
                self._wakes_at = min((d for d, _ in self._deadlines.values()),
                                     default=now + self._idle)
                self._cond.wait(self._wakes_at - now)


def _hang_up(fd):
    try:
        sock = socket.socket(fileno=os.dup(fd))
    except OSError:
        return
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:
        pass
    finally:
        sock.close()


_WATCHDOG = _Watchdog()


def _forget_after_fork():
    # a forked child has none of the parent's threads nor its round trips
    global _WATCHDOG
    _WATCHDOG = _Watchdog()


os.register_at_fork(after_in_child=_forget_after_fork)


def _bounded(connection, call, *args):
    timeout = waits.bound()
    if timeout is None or connection.closed:
        return call(*args)
    key = _WATCHDOG.watch(connection.fileno(), timeout)
    try:
        result = call(*args)
    except psycopg2.OperationalError as exc:
        if _WATCHDOG.done(key):
            raise psycopg2.OperationalError(GAVE_UP % timeout) from exc
        raise
    except BaseException:
        _WATCHDOG.done(key)
        raise
    # Should the watchdog have given up just as the answer came, the result
    # stands and the next use of the connection finds it closed (a disconnect).
    _WATCHDOG.done(key)
    return result


class Cursor(psycopg2.extensions.cursor):
    def execute(self, query, vars=None):
        return _bounded(self.connection, super().execute, query, vars)

    def executemany(self, query, vars_list):
        return _bounded(self.connection, super().executemany, query, vars_list)


class Connection(psycopg2.extensions.connection):
    """psycopg2.connect(..., connection_factory=Connection)."""

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.cursor_factory = Cursor

    def commit(self):
        return _bounded(self, super().commit)

    def rollback(self):
        return _bounded(self, super().rollback)


def connect_arguments(cparams, timeout):
    """psycopg2's arguments for a new connection bounded by ``timeout``."""
    cparams.setdefault('connection_factory', Connection)
    # libpq's own, for the connection's set-up: whole seconds, at least 2
    cparams.setdefault('connect_timeout', max(2, math.ceil(timeout)))
