"""``openstack host maintenance create|list|show|set|delete``: planned
maintenance windows (/os-host-maintenance)."""
from osc_lib.command import command

PATH = '/os-host-maintenance'
IMPACTS = ('reboot', 'power-off', 'migrate', 'network', 'unknown')
# what an admin sees, then what a project member sees
COLUMNS = ('id', 'host', 'hostId', 'servers', 'state', 'start', 'end', 'impact', 'reason')


def _cell(window, name):
    value = window.get(name)
    return ', '.join(value) if name == 'servers' else value


def _shown(window):
    names = [c for c in COLUMNS if c in window]
    return names, [_cell(window, n) for n in names]


def _time_options(parser, required):
    parser.add_argument('--start', metavar='<time>', required=required,
                        help='Start, ISO 8601 UTC (e.g. 2030-01-31T22:00:00Z)')
    parser.add_argument('--end', metavar='<time>', required=required,
                        help='End, ISO 8601 UTC; at most 30 days after the start')
    parser.add_argument('--reason', metavar='<text>', help='Why (admins only see it)')
    parser.add_argument('--impact', metavar='<impact>', choices=IMPACTS,
                        help='What servers will go through: %s' % ', '.join(IMPACTS))


def _body(parsed_args, **extra):
    window = dict(extra)
    for key in ('start', 'end', 'reason', 'impact'):
        value = getattr(parsed_args, key)
        if value is not None:
            window[key] = value
    return {'maintenance': window}


class CreateHostMaintenance(command.ShowOne):
    """Schedule a maintenance window on a compute host."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('host', metavar='<host>', help='Compute host')
        _time_options(parser, required=True)
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        created = client.request('POST', PATH, _body(parsed_args, host=parsed_args.host))
        return _shown(created['maintenance'])


class ListHostMaintenance(command.Lister):
    """List maintenance windows (members: those affecting their servers)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('--host', metavar='<host>', help='Only this host (admin)')
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        path = PATH + ('?host=%s' % parsed_args.host if parsed_args.host else '')
        windows = client.get(path)['maintenances']
        names = [c for c in COLUMNS if any(c in w for w in windows)] or ['id', 'state']
        return names, [[_cell(w, n) for n in names] for w in windows]


class ShowHostMaintenance(command.ShowOne):
    """Show a maintenance window."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('window', metavar='<window>', help='Window ID')
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        return _shown(client.get('%s/%s' % (PATH, parsed_args.window))['maintenance'])


class SetHostMaintenance(command.ShowOne):
    """Change a maintenance window (before it starts; its end while it runs)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('window', metavar='<window>', help='Window ID')
        _time_options(parser, required=False)
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        changed = client.request('PUT', '%s/%s' % (PATH, parsed_args.window),
                                 _body(parsed_args))
        return _shown(changed['maintenance'])


class DeleteHostMaintenance(command.Command):
    """Cancel maintenance windows that have not started (they stay listed)."""

    def get_parser(self, prog_name):
        parser = super().get_parser(prog_name)
        parser.add_argument('windows', metavar='<window>', nargs='+', help='Window IDs')
        return parser

    def take_action(self, parsed_args):
        client = self.app.client_manager.compute_host_status
        for window in parsed_args.windows:
            client.request('DELETE', '%s/%s' % (PATH, window))

