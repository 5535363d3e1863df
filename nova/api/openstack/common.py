"""Small helpers shared by controllers and view builders."""
import datetime
import urllib.parse

from oslo_utils import timeutils

import nova.conf
from nova.api.openstack import faults
from nova.api.openstack import json_body

CONF = nova.conf.CONF

# vm_state -> (default status, {task_state: status})
_STATE_MAP = {
    'active': ('ACTIVE', {'rebooting': 'REBOOT', 'rebooting_hard': 'HARD_REBOOT',
                          'rebuilding': 'REBUILD', 'migrating': 'MIGRATING',
                          'resize_prep': 'RESIZE'}),
    'building': ('BUILD', {}),
    'stopped': ('SHUTOFF', {'rebuilding': 'REBUILD', 'resize_prep': 'RESIZE'}),
    'paused': ('PAUSED', {}),
    'suspended': ('SUSPENDED', {}),
    'error': ('ERROR', {'rebuilding': 'REBUILD'}),
    'deleted': ('DELETED', {}),
    'soft-delete': ('SOFT_DELETED', {}),
    'shelved': ('SHELVED', {}),
    'shelved_offloaded': ('SHELVED_OFFLOADED', {}),
}

# status filter value -> vm_states it selects
STATUS_TO_VM_STATES = {
    'ACTIVE': ('active',), 'BUILD': ('building',), 'SHUTOFF': ('stopped',),
    'PAUSED': ('paused',), 'SUSPENDED': ('suspended',), 'ERROR': ('error',),
    'DELETED': ('deleted',), 'SOFT_DELETED': ('soft-delete',),
    'SHELVED': ('shelved',), 'SHELVED_OFFLOADED': ('shelved_offloaded',),
}


def status_from_state(vm_state, task_state):
    default, by_task = _STATE_MAP.get(vm_state, ('UNKNOWN', {}))
    return by_task.get(task_state, default)


def query_time(name, value):
    """A query parameter's ISO 8601 time (changes-since, changes-before) as
    a naive UTC datetime; a malformed one is Nova's 400."""
    try:
        parsed = timeutils.parse_isotime(value)
    except ValueError:
        raise faults.BadRequest("Invalid input for query parameters %s. Value: %s. "
                                "'%s' is not a 'date-time'" % (name, value, value))
    return timeutils.normalize_time(parsed)


# One formatter per timestamp format the API shows (a server's own times
# the database formats: nova/db/timestamp_text.py).

def isotime_micro(value):
    """Six digits of microseconds and no zone (a migration's, an
    aggregate's, an action's and a service's times), as Nova shows them; an aware
    time is shown in UTC."""
    if value is None:
        return None
    if value.tzinfo is not None:
        value = value.astimezone(datetime.timezone.utc).replace(tzinfo=None)
    return value.isoformat(timespec='microseconds')


def isotime_z(value):
    """The time as kept (microseconds only when it has some) and 'Z': a
    maintenance window's times, which operators give."""
    return value.isoformat() + 'Z' if value is not None else None


def isotime_micro_z(value):
    """Six digits of microseconds and 'Z' (the host-health extension's
    times)."""
    return value.isoformat(timespec='microseconds') + 'Z' if value is not None else None


class Links:
    """Builds self/bookmark links for one request (computed once per request)."""

    def __init__(self, req, collection):
        base = req.application_url
        project = '/' + req.project_in_path if req.project_in_path else ''
        self.self_prefix = '%s/v2.1%s/%s/' % (base, project, collection)
        self.bookmark_prefix = '%s%s/%s/' % (base, project, collection)
        self.base = base
        self.project = project

    def pair(self, item_id):
        return [{'rel': 'self', 'href': self.self_prefix + item_id},
                {'rel': 'bookmark', 'href': self.bookmark_prefix + item_id}]

    def bookmark(self, collection, item_id):
        return [{'rel': 'bookmark',
                 'href': '%s%s/%s/%s' % (self.base, self.project, collection, item_id)}]


def limit_param(req):
    """The effective page size: ?limit (0..max_limit), default max_limit."""
    max_limit = CONF.api.max_limit
    text = req.GET.get('limit')
    if text is None:
        return max_limit
    try:
        limit = int(text)
    except ValueError:
        raise faults.BadRequest('limit param must be an integer')
    if limit < 0:
        raise faults.BadRequest('limit param must be positive')
    return min(limit, max_limit)


def next_link(req, collection_path, items, limit, id_key='id'):
    """A ``next`` link when the page is full, carrying the same query as
    Nova writes it: parameters sorted, one value each, the marker's
    replaced where it stands (or added last)."""
    if not items or len(items) < limit:
        return None
    params = dict(sorted(req.GET.items()))
    params['marker'] = items[-1][id_key]
    project = '/' + req.project_in_path if req.project_in_path else ''
    href = '%s/v2.1%s/%s?%s' % (req.application_url, project, collection_path,
                                urllib.parse.urlencode(params))
    return [{'rel': 'next', 'href': href}]


def action(req):
    """(name, body) of a POST .../action request, read as Nova reads one
    before anything else: an empty body or one of several keys is a
    malformed body (400), a body that is not an object is not found."""
    body = req.json_body(empty=json_body.MALFORMED)
    try:
        if len(body) != 1:
            raise faults.BadRequest(json_body.MALFORMED)
        return list(body.keys())[0], body
    except (AttributeError, TypeError):
        raise faults.NotFound()
