"""``openstack server group host status show GROUP``: how a server group
stands (GET /os-server-groups/{id}/host-status, this service's own)."""
import uuid

from osc_lib.command import command
from osc_lib import exceptions


def find_group(client, name_or_id):
    """A server group's id from its id or its exact name (the caller's
    project's groups)."""
    try:
        return str(uuid.UUID(name_or_id))
    except ValueError:
        pass
    groups = client.get('/os-server-groups')['server_groups']
    matches = [g['id'] for g in groups if g['name'] == name_or_id]
    if len(matches) != 1:
        raise exceptions.CommandError('%s server groups are named %s; give an id'
                                      % (len(matches) or 'No', name_or_id))
    return matches[0]


class ShowServerGroupHostStatus(command.ShowOne):
    """Show how a server group stands: its members on UP hosts, on UNKNOWN
    or DOWN hosts, and whether two of them share a host."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('group', metavar='<server-group>',
                            help='Server group (name or ID)')
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        group = find_group(client, parsed_args.group)
        found = client.get('/os-server-groups/%s/host-status' % group)[
            'server_group_host_status']
        found['servers'] = ['%s %s%s' % (s['id'], s['host_status'] or '""',
                                         ' ' + s['host'] if s.get('host') else '')
                            for s in found['servers']]
        names = ('id', 'policy', 'members', 'up', 'unknown_or_down', 'shared_host',
                 'servers')
        return names, [found[n] for n in names]
