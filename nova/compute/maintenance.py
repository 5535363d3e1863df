"""Planned maintenance windows: the rules a window obeys (UTC times, end
after start, at most 30 days, not in the past, no overlap on one host,
changed only before it ends) and who may see what of it."""
import datetime

from nova.db import dbtime
from nova.db import host_maintenance as store
from nova import exception

MAX_LENGTH = datetime.timedelta(days=30)
IMPACTS = ('reboot', 'power-off', 'migrate', 'network', 'unknown')
STATES = store.STATES


def parse_time(name, text):
    """An ISO 8601 UTC time (``Z`` or ``+00:00``) as a naive UTC datetime."""
    try:
        value = datetime.datetime.fromisoformat(text)
    except (TypeError, ValueError):
        raise exception.InvalidMaintenanceWindow(
            reason='%s %r is not an ISO 8601 time such as 2030-01-31T22:00:00Z'
                   % (name, text))
    if value.utcoffset() != datetime.timedelta(0):
        raise exception.InvalidMaintenanceWindow(
            reason='%s %r must be in UTC (end it with Z)' % (name, text))
    return value.replace(tzinfo=None)


def _check_times(start, end, now, started=False):
    if end <= start:
        raise exception.InvalidMaintenanceWindow(reason='end must be after start')
    if end - start > MAX_LENGTH:
        raise exception.InvalidMaintenanceWindow(
            reason='a window lasts at most %d days' % MAX_LENGTH.days)
    if not started and start < now:
        raise exception.InvalidMaintenanceWindow(
            reason='start %sZ lies in the past (it is %sZ now)'
                   % (start.isoformat(), now.isoformat(timespec='seconds')))
    if end <= now:
        raise exception.InvalidMaintenanceWindow(reason='end lies in the past')


def create(host, start, end, reason='', impact='unknown'):
    start, end = parse_time('start', start), parse_time('end', end)
    _check_times(start, end, dbtime.db_time())
    return store.create(host, start, end, reason or '', impact)


def get(uuid):
    row = store.get(uuid)
    if row is None:
        raise exception.MaintenanceWindowNotFound(window_id=uuid)
    return row


def update(uuid, changes):
    """Apply ``changes`` (start, end, reason, impact as the API names them)
    to a window. A scheduled window may change in every way; one in
    progress only its end and reason (to end it early or late); a finished
    one not at all."""
    row = get(uuid)
    if row['state'] not in store.OPEN:
        raise exception.MaintenanceWindowNotEditable(
            window_id=uuid, state=row['state'], what='a finished window cannot change')
    started = row['state'] == store.IN_PROGRESS
    if started and set(changes) - {'end', 'reason'}:
        raise exception.MaintenanceWindowNotEditable(
            window_id=uuid, state=row['state'],
            what='only its end and reason can change now')
    values = {}
    if 'start' in changes:
        values['start_at'] = parse_time('start', changes['start'])
    if 'end' in changes:
        values['end_at'] = parse_time('end', changes['end'])
    if 'reason' in changes:
        values['reason'] = changes['reason'] or ''
    if 'impact' in changes:
        values['impact'] = changes['impact']
    start = values.get('start_at', row['start_at'])
    end = values.get('end_at', row['end_at'])
    if 'start_at' in values or 'end_at' in values:
        _check_times(start, end, dbtime.db_time(), started=started)
    return store.update(row, **values)


def cancel(uuid):
    store.cancel(uuid)


def list_all(host=None):
    return store.list_all(host)


def list_for_project(project_id, uuid=None):
    """[(window, [server uuid, ...])]: the current and future windows
    affecting the project's servers now (MaintenanceWindowNotFound for a
    ``uuid`` that is none of them)."""
    found = store.list_for_project(project_id, uuid)
    if uuid is not None and not found:
        raise exception.MaintenanceWindowNotFound(window_id=uuid)
    return found
