"""A real oslo.messaging notification listener on the machine's RabbitMQ,
on an exchange and queue of its own so parallel runs never meet; and the
config that points an all-in-one's notifications at it."""
import os
import socket
import threading
import time
import urllib.parse
import uuid

import fixtures
import oslo_messaging
from oslo_config import cfg

from nova.tests.functional.db import backends

TRANSPORT_URL = os.environ.get('NOVA_TEST_TRANSPORT_URL',
                               'rabbit://guest:guest@127.0.0.1:5672/')
TOPIC = 'versioned_notifications'


def _reachable(url):
    parts = urllib.parse.urlsplit(url)
    try:
        with socket.create_connection((parts.hostname, parts.port or 5672), timeout=2):
            return True
    except OSError:
        return False


class _Endpoint:
    def __init__(self, received, clock):
        self.received = received
        self.clock = clock
        self.cond = threading.Condition()

    def _receive(self, priority, publisher_id, event_type, payload):
        at = self.clock()
        with self.cond:
            self.received.append({'priority': priority, 'publisher_id': publisher_id,
                                  'event_type': event_type, 'payload': payload,
                                  'received_at': at})
            self.cond.notify_all()

    def info(self, ctxt, publisher_id, event_type, payload, metadata):
        self._receive('INFO', publisher_id, event_type, payload)

    def warn(self, ctxt, publisher_id, event_type, payload, metadata):
        self._receive('WARN', publisher_id, event_type, payload)


class RabbitListener(fixtures.Fixture):
    """Collects the notifications an all-in-one configured with
    ``config`` sends; ``clock()`` stamps each one as it arrives (the
    test's database clock)."""

    def __init__(self, test, clock=None):
        super().__init__()
        self.test = test
        self.clock = clock or (lambda: None)

    def _setUp(self):
        if not _reachable(TRANSPORT_URL):
            backends.unavailable(self.test, 'RabbitMQ is not reachable at %s; start '
                                 'rabbitmq-server as .ci/run does' % TRANSPORT_URL)
        self.exchange = 'nova-test-%s' % uuid.uuid4().hex[:12]
        self.received = []
        self._endpoint = _Endpoint(self.received, lambda: self.clock())
        conf = cfg.ConfigOpts()
        conf([], project='nova-test-listener', default_config_files=[])
        transport = oslo_messaging.get_notification_transport(conf, url=TRANSPORT_URL)
        self.addCleanup(transport.cleanup)
        target = oslo_messaging.Target(topic=TOPIC, exchange=self.exchange)
        # the pool names this run's own queue (the default is one queue per
        # topic, shared by every exchange's listeners)
        self.listener = oslo_messaging.get_notification_listener(
            transport, [target], [self._endpoint], executor='threading',
            pool=self.exchange)
        self.listener.start()
        self.addCleanup(self._stop)

    def _stop(self):
        self.listener.stop()
        self.listener.wait()

    @property
    def config(self):
        return ('[DEFAULT]\ncontrol_exchange = %s\ntransport_url = %s\n\n'
                '[oslo_messaging_notifications]\ndriver = messagingv2\n'
                % (self.exchange, TRANSPORT_URL))

    def mark(self):
        """A place in what was received: wait_for(after=mark()) looks only
        at what comes later."""
        with self._endpoint.cond:
            return len(self.received)

    def wait_for(self, predicate, timeout, what, after=0):
        """The first notification received (from ``after`` on) matching
        ``predicate``."""
        deadline = time.monotonic() + timeout
        with self._endpoint.cond:
            while True:
                for message in self.received[after:]:
                    if predicate(message):
                        return message
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise AssertionError('no %s notification within %s s; got %s'
                                         % (what, timeout, [(m['event_type'],
                                            m['payload']['nova_object.data'].get('reason'))
                                            for m in self.received]))
                self._endpoint.cond.wait(remaining)

    def matching(self, predicate):
        with self._endpoint.cond:
            return [m for m in self.received if predicate(m)]
