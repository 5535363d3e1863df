"""The power of a simulated host, as its BMC (nova/virt/bmc.py) sets it.

A file beside the host's guests (``<host>.power`` in
[compute] fake_state_dir) says ``Off`` while the host is powered off; no
file, or ``On``, is a host with power. Powering a host off shuts every
guest of it down in its guests' file at once: a powered-off host runs
nothing, and anyone reading the files (the split-brain checks) sees so.
"""
import json
import os
import threading

from nova.virt import fake

ON = 'On'
OFF = 'Off'


def _path(state_dir, host):
    return os.path.join(state_dir, host + '.power')


def guests_file(state_dir, host):
    return os.path.join(state_dir, host + '.json')


def state(state_dir, host):
    """ON or OFF."""
    try:
        with open(_path(state_dir, host)) as f:
            return OFF if f.read().strip() == OFF else ON
    except FileNotFoundError:
        return ON


def _write(path, text):
    # a temporary file of this writer's own: a concurrent writer's replace
    # must not move it away
    temporary = '%s.%d.%d.tmp' % (path, os.getpid(), threading.get_ident())
    with open(temporary, 'w') as f:
        f.write(text)
    os.replace(temporary, path)


def record(state_dir, host, power):
    """Record the host ON or OFF; OFF also shuts every guest down. Call it
    for OFF only once the host's nova-compute is gone."""
    os.makedirs(state_dir, exist_ok=True)
    if power == OFF:
        path = guests_file(state_dir, host)
        if os.path.exists(path):
            with open(path) as f:
                guests = json.load(f)
            _write(path, json.dumps(dict.fromkeys(guests, fake.POWER_SHUTDOWN),
                                    sort_keys=True))
    _write(_path(state_dir, host), power + '\n')
