"""The brake on mass fencing: when many hosts stop reporting at once, the
fault is more likely the watcher's view (a partition, a liveness backend
that lost every lease) than that many hosts, and fencing them all would
power off a cloud that runs. Modelled on Kubernetes' partial disruption
and InstanceHA's threshold. Pure: the watcher asks at every tick."""
from nova.compute import host_status as hs


def reason(statuses, backend_down, threshold):
    """Why fencing must wait now, or None. ``statuses``: {host:
    host_status} of the compute hosts; disabled (MAINTENANCE) and fenced
    (DOWN) hosts do not count."""
    if backend_down:
        return 'the liveness backend does not answer: no host can be told alive or dead'
    enabled = [status for status in statuses.values() if status in (hs.UP, hs.UNKNOWN)]
    unknown = sum(1 for status in enabled if status == hs.UNKNOWN)
    if not unknown:
        return None
    if len(enabled) > 1 and unknown == len(enabled):
        return 'every enabled compute host (%d) is UNKNOWN at once' % unknown
    if unknown > threshold * len(enabled):
        return ('%d of %d enabled compute hosts are UNKNOWN, more than %g %%'
                % (unknown, len(enabled), threshold * 100))
    return None
