"""nova-compute --host NAME [--config-file ...]: one simulated compute host."""
import argparse
import signal
import sys

import nova.conf
from nova import config
from nova.compute import manager
from nova.db import waits

CONF = nova.conf.CONF


def main(argv=None):
    argv = sys.argv[1:] if argv is None else argv
    pre = argparse.ArgumentParser(add_help=False)
    pre.add_argument('--host')
    known, rest = pre.parse_known_args(argv)
    config.parse_args(rest)
    if known.host:
        CONF.set_override('host', known.host)
    waits.enable()     # a hung database must not stop the heartbeats for ever
    compute = manager.ComputeManager(CONF.host)
    signal.signal(signal.SIGTERM, lambda *_: compute.stop())
    signal.signal(signal.SIGINT, lambda *_: compute.stop())
    compute.start()
    compute.run()
    return 0


if __name__ == '__main__':
    sys.exit(main())
