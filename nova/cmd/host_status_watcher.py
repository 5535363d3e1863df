"""nova-host-status-watcher: notices compute service state changes, stores
and notifies them. Run several for availability; one is active (a lease in
the database)."""
import signal
import sys

import nova.conf
from nova import config
from nova.db import waits
from nova.notifications import host_status_watcher

CONF = nova.conf.CONF


def main(argv=None):
    config.parse_args(sys.argv[1:] if argv is None else argv)
    waits.enable()     # a hung database must not stall the watching for ever
    watcher = host_status_watcher.Watcher()
    signal.signal(signal.SIGTERM, lambda *_: watcher.stop())
    signal.signal(signal.SIGINT, lambda *_: watcher.stop())
    watcher.run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
