"""GET /os-host-status-events: the stored host status transitions, oldest
first, paged by an opaque cursor, with an optional long poll (``wait``).

Admins (os-host-status-events:list:hosts) see one event per service
transition, with the host; everyone else sees one event per server of
their project that was on the host when it happened, with the server's
hostId and never the host's name. ``?server_id=`` narrows either view to
one server (admins then see its host too).
"""
import base64
import binascii
import datetime
import threading
import time

import nova.conf
from nova.api.openstack import common
from nova.api.openstack import faults
from nova.api.openstack import long_poll
from nova.api.openstack import validation
from nova.api.openstack.compute.schemas import host_status_events as schema
from nova.compute.host_id import host_id
from nova.compute import status_events as store
from nova.policies import host_status_events as policies
from nova import policy

CONF = nova.conf.CONF
# a server row id past every server: "after all of this event's rows"
PAST_ALL_SERVERS = 2 ** 31 - 1
_EPOCH = datetime.datetime(1970, 1, 1)

_bell = long_poll.Bell(store.latest_id)
_slots = None
_slots_lock = threading.Lock()


def _wait_slots():
    global _slots
    with _slots_lock:
        if _slots is None:
            _slots = long_poll.Slots(CONF.api.max_waits_per_project,
                                     max(1, CONF.api.threads // 2))
        return _slots


# ------------------------------------------------------------------ cursor
# (event id, server row id, time of that event) in urlsafe base64: the time
# tells an expired cursor (older than the retention) from a current one.

def encode_cursor(event_id, server_row, at):
    micros = (at - _EPOCH) // datetime.timedelta(microseconds=1)
    text = '%d.%d.%d' % (event_id, server_row, micros)
    return base64.urlsafe_b64encode(text.encode()).decode().rstrip('=')


def decode_cursor(text):
    """(event id, server row id, at); BadRequest when malformed."""
    try:
        raw = base64.urlsafe_b64decode(text + '=' * (-len(text) % 4)).decode('ascii')
        event_id, server_row, micros = (int(part) for part in raw.split('.'))
        if min(event_id, server_row, micros) < 0:
            raise ValueError(raw)
        at = _EPOCH + datetime.timedelta(microseconds=micros)
    except (binascii.Error, UnicodeDecodeError, ValueError, OverflowError):
        raise faults.BadRequest('Invalid after: %s is not a cursor of this feed.' % text)
    return event_id, server_row, at


class HostStatusEventsController:

    @validation.documented(query=schema.index_query['properties'],
                           response=schema.index_response)
    def index(self, req):
        context = req.context
        policy.authorize(context, policies.LIST, {'project_id': context.project_id})
        query = validation.validate(dict(req.GET.items()), schema.index_query)
        with_hosts = policy.authorize(context, policies.LIST_HOSTS,
                                      {'project_id': context.project_id}, fatal=False)
        limit = min(int(query.get('limit', CONF.api.max_limit)), CONF.api.max_limit)
        wait = min(float(query.get('wait', 0)), CONF.api.max_long_poll)
        server_id = query.get('server_id')
        per_server = server_id is not None or not with_hosts
        project_id = None if with_hosts else context.project_id

        horizon, db_now = store.feed_bounds()
        after = query.get('after')
        if after is None:
            position = (0, 0)
        else:
            event_id, server_row, at = decode_cursor(after)
            if event_id > horizon:
                raise faults.BadRequest('Invalid after: %s is not a cursor of this feed.'
                                        % after)
            retention = datetime.timedelta(days=CONF.host_status_watcher.retention_days)
            if at < db_now - retention:
                raise faults.BadRequest(
                    'Invalid after: the cursor has expired (events are kept %d days); '
                    'start again without after.' % CONF.host_status_watcher.retention_days)
            position = (event_id, server_row)

        def read():
            if per_server:
                return store.server_page(position, limit, project_id, server_id)
            return store.service_page(position[0], limit)

        rows = read()
        if not rows and wait > 0:
            rows, horizon = self._long_poll(context.project_id, read, horizon, wait)
        if rows:
            last = rows[-1]
            cursor = encode_cursor(last['id'], last['server_row'] if per_server else 0,
                                   last['at'])
        elif after is not None:
            cursor = after
        else:
            # nothing to see yet: resume after everything stored so far
            cursor = encode_cursor(horizon, PAST_ALL_SERVERS, db_now)
        view = self._server_event if per_server else self._service_event
        return {'events': [view(row, with_hosts) for row in rows], 'next': cursor}

    @staticmethod
    def _long_poll(project_id, read, horizon, wait):
        """Wait up to ``wait`` s for rows; (rows, newest event id seen)."""
        slots = _wait_slots()
        if not slots.acquire(project_id):
            raise faults.Fault(429, 'Too many long polls of the host status events are '
                                    'waiting for this project; retry without wait or later.')
        try:
            deadline = time.monotonic() + wait
            while True:
                remaining = deadline - time.monotonic()
                if remaining <= 0 or not _bell.wait_past(horizon, remaining):
                    return [], horizon
                # read the horizon before the page: an event stored in
                # between is in the page or wakes the next wait at once
                horizon = store.latest_id()
                rows = read()
                if rows:
                    return rows, horizon
        finally:
            slots.release(project_id)

    @staticmethod
    def _common(row):
        return {'old_status': row['old_status'], 'new_status': row['new_status'],
                'liveness': row['liveness'], 'admin_state': row['admin_state'],
                'reason': row['reason'], 'at': common.isotime_micro_z(row['at'])}

    def _service_event(self, row, with_hosts):
        event = {'id': row['uuid'], 'host': row['host']}
        event.update(self._common(row))
        return event

    def _server_event(self, row, with_hosts):
        event = {'id': row['uuid'], 'server_id': row['server_id']}
        if with_hosts:
            event['host'] = row['host']
        event['hostId'] = host_id(row['project_id'], row['host'])
        event.update(self._common(row))
        return event
