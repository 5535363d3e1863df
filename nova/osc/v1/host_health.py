"""``openstack server host health show SERVER`` and ``openstack server list
by host status STATUS [STATUS ...]`` (the server-side host_status filter,
which openstacksdk's server list cannot send)."""
import re
import uuid

from osc_lib.command import command
from osc_lib import exceptions

HOST_STATUS_VERSION = '2.16'
STATUSES = ('UP', 'DOWN', 'MAINTENANCE', 'UNKNOWN')


def find_server(client, name_or_id):
    """A server's id from its id or its exact name."""
    try:
        return str(uuid.UUID(name_or_id))
    except ValueError:
        pass
    servers = client.get('/servers?name=%s' % ('^%s$' % re.escape(name_or_id)))['servers']
    matches = [s['id'] for s in servers if s['name'] == name_or_id]
    if len(matches) != 1:
        raise exceptions.CommandError('%s servers are named %s; give an id'
                                      % (len(matches) or 'No', name_or_id))
    return matches[0]


class ShowServerHostHealth(command.ShowOne):
    """Show the health of a server's host (status, since, liveness,
    admin_state, maintenance window)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('server', metavar='<server>', help='Server (name or ID)')
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        server = find_server(client, parsed_args.server)
        health = client.get('/servers/%s/host-health' % server)['host_health']
        window = health.pop('maintenance')
        if window:
            health.update(('maintenance_%s' % k, v) for k, v in window.items())
        else:
            health['maintenance'] = None
        names = sorted(health)
        return names, [health[n] for n in names]


class ListServersByHostStatus(command.Lister):
    """List servers whose host_status is one of the given values, filtered
    by the compute API (every page, exact with paging)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('status', metavar='<status>', nargs='+', choices=STATUSES,
                            help='host_status to list (%s); several are or-ed'
                                 % ', '.join(STATUSES))
        parser.add_argument('--all-projects', action='store_true',
                            help='Servers of every project (admin only)')
        parser.add_argument('--limit', metavar='<n>', type=int, default=None,
                            help='Servers per page asked for (default: the API\'s)')
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        query = [('host_status', ','.join(parsed_args.status))]
        if parsed_args.all_projects:
            query.append(('all_tenants', '1'))
        if parsed_args.limit:
            query.append(('limit', str(parsed_args.limit)))
        rows = []
        path = '/servers/detail?' + '&'.join('%s=%s' % pair for pair in query)
        while path:
            page = client.get(path, version=HOST_STATUS_VERSION)
            rows += [(s['id'], s['name'], s['status'], s.get('host_status', ''))
                     for s in page['servers']]
            links = [link['href'] for link in page.get('servers_links', [])
                     if link.get('rel') == 'next']
            path = links[0] if links else None
        return ('ID', 'Name', 'Status', 'Host Status'), rows
