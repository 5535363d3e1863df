"""What one request's caller may list, filter and see of servers, decided
once, before anything is read, and handed to the controller and the view."""
import dataclasses

from oslo_utils import strutils

from nova.api.openstack import api_version_request as avr
from nova.api.openstack import faults
from nova.compute import host_status as hs
from nova.policies import servers as sp
from nova import policy

ALL = 'all'
UNKNOWN_ONLY = 'unknown-only'


@dataclasses.dataclass(frozen=True)
class ServerView:
    """Which optional parts of a server the caller sees."""
    extended: bool = False       # OS-EXT-SRV-ATTR:*
    host_status: str = None      # ALL, UNKNOWN_ONLY or None (the key is left out)
    flavor_extra_specs: bool = False    # extra_specs in the embedded flavor (2.47)


@dataclasses.dataclass(frozen=True)
class ListAccess:
    all_tenants: bool
    all_filters: bool            # admin-only filters (host, node) honoured
    view: ServerView
    host_status_in: frozenset = None    # ?host_status=..., allowed and parsed


def server_view(req, project_id):
    """The view of servers of ``project_id`` for this request's caller."""
    target = {'project_id': project_id}
    context = req.context
    extended = policy.authorize(context, sp.EXTENDED_ATTRIBUTES, target, fatal=False)
    return ServerView(extended=extended, host_status=_host_status_mode(req, target),
                      flavor_extra_specs=flavor_extra_specs(req, target))


def flavor_extra_specs(req, target):
    return req.at_least(avr.EMBEDDED_FLAVOR) and policy.authorize(
        req.context, sp.SHOW_FLAVOR_EXTRA_SPECS, target, fatal=False)


def _host_status_mode(req, target):
    if not req.at_least(avr.HOST_STATUS):
        return None
    if policy.authorize(req.context, sp.SHOW_HOST_STATUS, target, fatal=False):
        return ALL
    if policy.authorize(req.context, sp.SHOW_HOST_STATUS_UNKNOWN_ONLY, target, fatal=False):
        return UNKNOWN_ONLY
    return None


def list_access(req, rule, all_tenants_rule, detail):
    """Authorizes the listing itself (PolicyNotAuthorized when denied) and
    decides the rest; ``detail`` adds the view of each server."""
    context = req.context
    target = {'project_id': context.project_id}
    policy.authorize(context, rule, target)
    all_tenants = _all_tenants(req.GET)
    if all_tenants:
        policy.authorize(context, all_tenants_rule, target)
    all_filters = policy.authorize(context, sp.ALLOW_ALL_FILTERS, target, fatal=False)
    view = server_view(req, context.project_id) if detail else ServerView()
    wanted = _host_status_filter(req)
    if wanted is not None:
        mode = view.host_status if detail else _host_status_mode(req, target)
        if mode is None:
            raise faults.Forbidden('Policy does not allow you to see host_status, so '
                                   'servers cannot be filtered by it.')
        if mode == UNKNOWN_ONLY and wanted != {hs.UNKNOWN}:
            raise faults.Forbidden('Policy allows you to see host_status only when it '
                                   'is UNKNOWN: filter by host_status=UNKNOWN alone.')
    return ListAccess(all_tenants=all_tenants, all_filters=all_filters, view=view,
                      host_status_in=wanted)


def _host_status_filter(req):
    """?host_status=A,B (or repeated) at 2.16 and later; ignored below, as
    Nova ignores query parameters it does not know."""
    if not req.at_least(avr.HOST_STATUS) or 'host_status' not in req.GET:
        return None
    wanted = set()
    for text in req.GET.getall('host_status'):
        for value in text.split(','):
            if value not in hs.FILTERABLE:
                raise faults.BadRequest(
                    "Invalid host_status filter %r: each value must be one of %s"
                    % (value, ', '.join(hs.FILTERABLE)))
            wanted.add(value)
    return frozenset(wanted)


def _all_tenants(params):
    if 'all_tenants' not in params:
        return False
    value = params['all_tenants']
    if value == '':
        return True
    try:
        return strutils.bool_from_string(value, strict=True)
    except ValueError as exc:
        raise faults.BadRequest('Invalid input for field/attribute all_tenants. '
                                'Value: %s. %s' % (value, exc))
