"""Picks hosts for new servers: enabled, not forced down, up; least loaded first."""
from nova.db import api as db
from nova.db import engine
from nova import servicegroup


def select_hosts(count):
    """``count`` hosts (repeats allowed), or None when no host is valid."""
    group = servicegroup.API()
    with engine.reader() as conn:
        services = db.services_with_liveness(conn, binary=db.COMPUTE_BINARY)
        candidates = sorted(s['host'] for s in services
                            if not s['disabled'] and group.service_is_up(s))
        if not candidates:
            return None
        load = db.instance_counts_by_host(conn, candidates)
    picks = []
    for _ in range(count):
        host = min(candidates, key=lambda h: (load.get(h, 0), h))
        load[host] = load.get(host, 0) + 1
        picks.append(host)
    return picks
