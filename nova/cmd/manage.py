"""nova-manage db sync | db version."""
import sys

from oslo_config import cfg

import nova.conf
from nova import config
from nova.db import migration

CONF = nova.conf.CONF


def add_command_parsers(subparsers):
    db = subparsers.add_parser('db', help='database schema')
    db_actions = db.add_subparsers(dest='action')
    db_actions.required = True
    db_actions.add_parser('sync', help='apply every migration')
    db_actions.add_parser('version', help='print the applied revision')


def main(argv=None):
    CONF.register_cli_opt(cfg.SubCommandOpt('category', handler=add_command_parsers))
    config.parse_args(sys.argv[1:] if argv is None else argv)
    if CONF.category.action == 'sync':
        migration.db_sync()
        print('database schema at revision %s' % migration.db_version())
    else:
        print(migration.db_version())
    return 0


if __name__ == '__main__':
    sys.exit(main())
