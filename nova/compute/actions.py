"""Server actions: the checks and the task_state claim of stop, start,
reboot, lock, unlock, reset-state and evacuate, with Nova's rules.

The API only claims: it sets the task_state with a conditional UPDATE
(the server's state as read, or the claim loses and the caller gets 409);
the server's nova-compute finds the task in its work poll, does it and
clears it (nova/compute/manager.py).
"""
import logging

import nova.conf
from nova.compute import api as compute
from nova.compute import flavor_extra_specs
from nova.compute import instance_actions
from nova.compute import scheduler
from nova.compute import server_groups
from nova.db import engine
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import evacuations
from nova import exception
from nova import servicegroup

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# Nova's task states (nova/compute/task_states.py) that this service uses
POWERING_OFF = 'powering-off'
POWERING_ON = 'powering-on'
REBOOTING = 'rebooting'
REBOOTING_HARD = 'rebooting_hard'
REBUILDING = evacuations.REBUILDING
# the vm_states and task_states each action is allowed from, as Nova's
STOP_FROM = ('active', 'error')
START_FROM = ('stopped',)
SOFT_REBOOT_FROM = ('active',)
HARD_REBOOT_FROM = ('active', 'stopped', 'paused', 'suspended', 'error')
HARD_REBOOT_TASKS = (None, REBOOTING, 'reboot_pending', 'reboot_started', 'resuming',
                     REBOOTING_HARD, 'unpausing', 'pausing', 'suspending')
EVACUATE_FROM = ('active', 'stopped', 'error')
RESET_STATES = ('active', 'error')
NO_TASK = (None,)


def check_state(row, action, vm_states=None, task_states=NO_TASK, must_have_launched=True):
    """InstanceInvalidState naming the first attribute that forbids ``action``."""
    for attr, allowed in (('vm_state', vm_states), ('task_state', task_states)):
        if allowed is not None and row[attr] not in allowed:
            raise exception.InstanceInvalidState(
                attr=attr, state=row[attr], instance_uuid=row['uuid'], action=action)
    if must_have_launched and not row['launched_at']:
        raise exception.InstanceInvalidState(
            attr='launched_at', state=None, instance_uuid=row['uuid'], action=action)


def check_lock(context, row):
    if row['locked'] and not context.is_admin:
        raise exception.InstanceLocked(instance_uuid=row['uuid'])


def check_host(row):
    if not row['host']:
        raise exception.InstanceNotReady(instance_id=row['uuid'])


def _claim(context, row, action, task_state, vm_states, task_states=NO_TASK, **values):
    """Set ``task_state`` if the server is still as checked, and record
    ``action`` (Nova's instance action of that name) in the same
    transaction: the server's compute may find the task the moment it is
    committed, and its step must find the action (and a claim whose record
    fails is no claim). Otherwise the 409 its state now gives."""
    with engine.writer() as conn:
        claimed = instance_db.instance_update(
            row['uuid'], expected_task_state=task_states, expected_vm_state=vm_states,
            task_state=task_state, conn=conn, **values)
        if claimed:
            instance_actions.record(context, [row['uuid']], action, conn=conn)
    if claimed:
        return
    now = compute.get(context, row['uuid'])
    check_state(now, action, vm_states, task_states)
    raise exception.InstanceInvalidState(attr='task_state', state=now['task_state'],
                                         instance_uuid=row['uuid'], action=action)


def stop(context, row):
    check_lock(context, row)
    check_host(row)
    check_state(row, 'stop', STOP_FROM)
    _claim(context, row, 'stop', POWERING_OFF, STOP_FROM, progress=0)


def start(context, row):
    check_lock(context, row)
    check_host(row)
    check_state(row, 'start', START_FROM)
    _claim(context, row, 'start', POWERING_ON, START_FROM)


def reboot(context, row, reboot_type):
    """``reboot_type``: SOFT or HARD (a hard reboot also starts a stopped
    server, as Nova's)."""
    check_lock(context, row)
    if reboot_type == 'SOFT':
        check_state(row, 'reboot', SOFT_REBOOT_FROM)
        _claim(context, row, 'reboot', REBOOTING, SOFT_REBOOT_FROM)
    else:
        check_state(row, 'reboot', HARD_REBOOT_FROM, HARD_REBOOT_TASKS)
        _claim(context, row, 'reboot', REBOOTING_HARD, HARD_REBOOT_FROM,
               HARD_REBOOT_TASKS)


def _is_owner(context, row):
    return row['project_id'] == context.project_id


def lock(context, row, reason=None):
    """Locked by its owner or by an admin, for ``reason`` (2.73; kept only
    when given, as Nova's); the owner locking it again changes nothing (an
    admin's lock and reason are kept)."""
    with engine.writer() as conn:
        if not (row['locked'] and _is_owner(context, row)):
            values = {'locked_reason': reason} if reason else {}
            instance_db.instance_update(
                row['uuid'], locked=True, conn=conn,
                locked_by='owner' if _is_owner(context, row) else 'admin', **values)
        instance_actions.record(context, [row['uuid']], instance_actions.LOCK, conn=conn)


def locked_by_someone_else(context, row):
    """True when the server was locked by the other side (owner vs admin):
    unlocking it then takes the unlock_override rule."""
    expected = 'owner' if _is_owner(context, row) else 'admin'
    return bool(row['locked_by']) and row['locked_by'] != expected


def unlock(context, row):
    with engine.writer() as conn:
        instance_db.instance_update(row['uuid'], locked=False, locked_by=None,
                                    locked_reason=None, conn=conn)
        instance_actions.record(context, [row['uuid']], instance_actions.UNLOCK, conn=conn)


def reset_state(context, row, state):
    """An admin's override: vm_state ``state`` (active or error), no task.
    A compute still working on the old task finds its claim gone, and an
    evacuation not claimed yet ends (its destination spawns nothing); one
    claimed already goes on, the server being on its destination."""
    instance_db.instance_reset_state(row['uuid'], state)


def evacuate(context, row, host=None, force=None):
    """Rebuild the server of a failed host elsewhere.

    Refused while the source compute is up (ComputeServiceInUse): only a
    host that is forced down (fenced) or whose heartbeat is stale may lose
    its servers. Accepted in any task state, as Nova since Zed: an
    evacuation still open supersedes (its destination spawns nothing, or,
    once it claimed the server, the server is on it and this evacuates
    from there). ``host`` is the canonical name of a compute service (see
    canonical_host). The destination is ``host`` when ``force`` is not
    False (below 2.29 a given host is always forced), otherwise one the
    scheduler finds valid (``host`` must then be one), its server group's
    policy held (a forced host skips that check, as Nova's does: the
    destination's late check still refuses it). No valid host: the
    server goes to ERROR with Nova's fault. Returns the migration uuid."""
    check_state(row, 'evacuate', EVACUATE_FROM, task_states=None)
    source = row['host']
    services = service_db.service_list(host=source, binary=service_db.COMPUTE_BINARY)
    if not services:
        raise exception.ComputeHostNotFound(host=source)
    if servicegroup.API().service_is_up(services[0]):
        LOG.warning('evacuate of %s refused: the compute service on %s is up',
                    row['uuid'], source)
        raise exception.ComputeServiceInUse(host=source)
    if host and force is not False:
        destination = host
    else:
        destination = scheduler.select_evacuation_host(
            source, requested=host,
            extra_specs=flavor_extra_specs.from_copy(row['flavor_extra_specs']),
            group=server_groups.group_row_of(row['uuid']), instance_uuid=row['uuid'])
    migration = evacuations.start(row, EVACUATE_FROM, destination,
                                  source_forced_down=services[0]['forced_down'],
                                  record=lambda conn: _record_evacuation(
                                      context, row['uuid'], destination, conn))
    if migration is None:
        now = compute.get(context, row['uuid'])
        check_state(now, 'evacuate', EVACUATE_FROM, task_states=None)
        if now['host'] != source:
            raise exception.InstanceInvalidState(
                attr='task_state', state=now['task_state'], instance_uuid=row['uuid'],
                action='evacuate')
        raise exception.ComputeServiceInUse(host=source)
    if destination is None:
        instance_db.instance_fault_create(
            row['uuid'], 500, compute.NO_VALID_HOST,
            details='No valid host for the evacuation from %s.' % source)
        LOG.warning('evacuate of %s from %s: no valid host', row['uuid'], source)
    return migration


def _record_evacuation(context, uuid, destination, conn):
    """The evacuate action and its scheduling step (Nova's conductor's),
    Error when no host was valid, in the evacuation's transaction."""
    instance_actions.record(context, [uuid], instance_actions.EVACUATE, conn=conn)
    instance_actions.event_record(
        uuid, instance_actions.EVACUATE, instance_actions.CONDUCTOR_REBUILD_EVENT,
        CONF.host, instance_actions.SUCCESS if destination else instance_actions.ERROR,
        conn=conn)


def canonical_host(name):
    """The compute service's own name for ``name`` (MariaDB's default
    collation matches host names in any case), or None when no compute
    service has it."""
    services = service_db.service_list(host=name, binary=service_db.COMPUTE_BINARY)
    return services[0]['host'] if services else None
