"""nova-compute: registers its service, heartbeats, builds, deletes, stops,
starts and reboots the servers on its host, rebuilds the servers evacuated
to it, and destroys its copy of those evacuated away.

There is no message broker: the compute learns of work by polling the
database with an indexed query (host, deleted, task_state) and claims each
build with a conditional UPDATE (task_state scheduling -> spawning), so two
processes never both build a server and nothing is lost across restarts.
Every write names this host as well as the task it ends: a compute that
was frozen or cut off while its servers were evacuated never writes to
them again.

Its guests are checked against the database at every poll (a guest whose
server lives on another host goes) and, after a lapse or every
running_deleted_instance_poll_interval, also for deleted servers (the
sweep); a heartbeat after a lapse waits for that sweep (nova/compute/lapse.py).
"""
import logging
import os
import threading
import time
import traceback

from oslo_db import exception as db_exc

from nova.compute import instance_actions as actions
from nova.compute import lapse
from nova.compute import server_groups
import nova.conf
from nova.db import engine
from nova.db import instances as instance_db
from nova.db import services as service_db
from nova.db import evacuations
from nova.db.dbtime import db_now
from nova import servicegroup
from nova.virt import fake
from nova.virt import power

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# what a moment later may pass (SQLite's lock held too long is a DBDeadlock)
TRANSIENT_DB_ERRORS = (db_exc.DBConnectionError, db_exc.DBDeadlock)
# task_state -> (the driver's method, the vm_state after it)
POWER_TASKS = {
    'powering-off': ('power_off', 'stopped'),
    'powering-on': ('power_on', 'active'),
    'rebooting': ('reboot', 'active'),
    'rebooting_hard': ('reboot', 'active'),
}
REBOOT_TASKS = ('rebooting', 'rebooting_hard')
WORK_TASK_STATES = ('scheduling', 'deleting') + tuple(POWER_TASKS)
FAULT_MESSAGE_LENGTH = 255      # the fault table's message column


def fault_text(exc):
    """(message, details) of the fault a failed step records: the error's
    text, or its class's name when it has none, and the traceback (shown
    to admins only)."""
    message = (str(exc) or type(exc).__name__)[:FAULT_MESSAGE_LENGTH]
    return message, ''.join(traceback.format_exception(exc))


class _Stopping(Exception):
    """stop() was called while a write was being retried."""


class ComputeManager:
    def __init__(self, host):
        self.host = host
        state_file = None
        if CONF.compute.fake_state_dir:
            os.makedirs(CONF.compute.fake_state_dir, exist_ok=True)
            if power.state(CONF.compute.fake_state_dir, host) == power.OFF:
                # a powered-off host runs nothing, this process included
                raise SystemExit('host %s is powered off (its BMC says so): nova-compute '
                                 'does not start' % host)
            state_file = power.guests_file(CONF.compute.fake_state_dir, host)
        self.driver = fake.FakeDriver(CONF.compute.fake_spawn_seconds, state_file)
        self.stop_event = threading.Event()
        self.service = None
        # a beat older than this: the API may have seen this host down
        self.lapse_guard = lapse.LapseGuard(
            min(CONF.service_down_time / 2.0, 2.0 * CONF.report_interval))
        self._periodic_sweep_at = time.monotonic()
        self._was_forced_down = False

    def start(self):
        try:
            self.service = self._until_started(self._register)
            self._until_started(self._resume_interrupted_builds)
            self._until_started(self._sync_power_states)
        except _Stopping:
            raise SystemExit(1)
        self._heartbeat_thread = threading.Thread(
            target=servicegroup.API().join,
            args=(self.service, self.stop_event, self.lapse_guard),
            name='heartbeat', daemon=True)
        self._heartbeat_thread.start()
        LOG.info('nova-compute on host %s started (service id %s)', self.host,
                 self.service['id'])

    def _register(self):
        return service_db.service_register(self.host, service_db.COMPUTE_BINARY, topic='compute')

    def _until_started(self, step):
        """Run a step of the start until the database takes it: one that is
        away, not migrated yet, or whose lock a process frozen mid-write
        holds (SQLite) is retried every report_interval, never a reason to
        exit."""
        return self._retried(db_exc.DBError, step)

    def _until_written(self, step, *args, **kwargs):
        """A write after a build's claim, retried the same way while the
        database is away or deadlocked: the claim is committed, so a write
        given up there would leave the server building, or its action's
        event open, for good. (Any other error is a bug, not a reason to
        hold this host's work: it ends the poll as before.)"""
        return self._retried(TRANSIENT_DB_ERRORS, step, *args, **kwargs)

    def _retried(self, errors, step, *args, **kwargs):
        # Raises _Stopping once stop() is called: the next start resumes.
        while True:
            try:
                return step(*args, **kwargs)
            except errors as exc:
                LOG.error('cannot write yet (%s; retrying): %s', step.__name__, exc)
                if self.stop_event.wait(CONF.report_interval):
                    raise _Stopping()

    def _resume_interrupted_builds(self):
        # A build claimed by a previous run of this host that died mid-spawn.
        # (An evacuation it claimed is still pre-migrating to this host: the
        # poll finishes it.)
        for item in instance_db.instances_for_compute(self.host, ('spawning',)):
            instance_db.instance_update(item['uuid'], expected_task_state=('spawning',),
                                        expected_host=self.host, task_state='scheduling')

    def _sync_power_states(self):
        # Nova's power-state sync with resume_guests_state_on_host_boot
        # False: a guest that is shut off (the host lost power) while its
        # server still reads active shows stopped until its owner starts it.
        # One that left this host is not this host's to write (the poll
        # destroys it).
        for uuid, power_state in self.driver.power_states().items():
            if power_state == fake.POWER_SHUTDOWN and instance_db.instance_update(
                    uuid, expected_task_state=(None,), expected_vm_state=('active',),
                    expected_host=self.host, vm_state='stopped',
                    power_state=fake.POWER_SHUTDOWN):
                LOG.warning('%s is shut off on this host: the server is stopped', uuid)

    def run(self):
        """Poll for work until stop() is called."""
        while not self.stop_event.is_set():
            try:
                self.poll_once()
            except _Stopping:
                return
            except db_exc.DBError as exc:
                LOG.error('work poll failed (will retry): %s', exc)
            except Exception:
                # One bad server must not stop this host from serving the rest.
                LOG.exception('work poll failed (will retry)')
            self.stop_event.wait(CONF.compute.work_poll_interval)

    def poll_once(self):
        # Taken before the reads: their transaction may see the database as
        # it was at its first statement, and a sweep counts from what it saw.
        started = time.monotonic()
        with engine.reader() as conn:
            sweep = self._sweep_due(conn, started)
            moves = evacuations.of_host(conn, self.host)
            guests = self.driver.uuids()
            rows = instance_db.guests_rows(conn, self.host, guests)
        self._reconcile_guests(guests, rows, sweep)
        for migration in moves:
            if migration['source_compute'] == self.host:
                evacuations.complete(migration)
        if sweep:
            self.lapse_guard.swept(started)
        for item in instance_db.instances_for_compute(self.host, WORK_TASK_STATES):
            if self.stop_event.is_set():
                return
            task = item['task_state']
            if task == 'scheduling':
                self._build(item['uuid'])
            elif task == 'deleting':
                self._delete(item['uuid'])
            else:
                self._power_action(item['uuid'], task)
        for migration in moves:
            if self.stop_event.is_set():
                return
            if migration['dest_compute'] == self.host:
                self._rebuild_evacuated(migration)

    def _sweep_due(self, conn, started):
        """Whether this poll sweeps: after a lapse (this host's service
        forced down is one, up to the poll that sees it unforced) or when
        the periodic sweep is due."""
        forced_down = service_db.compute_forced_down(conn, self.host)
        if forced_down or self._was_forced_down:
            # while forced down the API deletes locally, up to the moment an
            # unforce is seen
            self.lapse_guard.lapse(since=started)
        self._was_forced_down = forced_down
        return self.lapse_guard.sweep_needed() or self._periodic_sweep_due(started)

    def _periodic_sweep_due(self, now):
        interval = CONF.running_deleted_instance_poll_interval
        if interval <= 0 or now - self._periodic_sweep_at < interval:
            return False
        self._periodic_sweep_at = now
        return True

    def _update(self, uuid, expected_task_state, **values):
        return instance_db.instance_update(uuid, expected_task_state=expected_task_state,
                                           expected_host=self.host, **values)

    def _build(self, uuid):
        if not self._update(uuid, ('scheduling',), task_state='spawning'):
            return  # someone else claimed it, or it is being deleted
        self._until_written(actions.event_start, uuid, actions.CREATE, actions.BUILD_EVENT,
                            self.host)
        try:
            power_state = self.driver.spawn(uuid, self.stop_event)
        except Exception as exc:
            LOG.exception('spawning %s failed', uuid)
            self._build_failed(uuid, exc)
            return
        if self.stop_event.is_set():
            # stopping mid-build: give the claim back for the next start
            self._update(uuid, ('spawning',), task_state='scheduling')
            return
        if self._until_written(self._update, uuid, ('spawning',), vm_state='active',
                               task_state=None, power_state=power_state,
                               launched_at=db_now()):
            self._until_written(actions.event_finish, uuid, actions.CREATE,
                                actions.BUILD_EVENT, actions.SUCCESS)
            LOG.info('built %s', uuid)

    def _build_failed(self, uuid, exc):
        """As Nova when a spawn fails and there is no other host to try:
        what the driver may hold goes, and the server is ERROR, on no
        host, with a fault saying why and its build step an Error, in one
        transaction (never left building)."""
        try:
            self.driver.destroy(uuid)
        except Exception:
            LOG.exception('cannot destroy what the failed spawn of %s left', uuid)
        self._until_written(self._record_build_failure, uuid, *fault_text(exc))

    def _record_build_failure(self, uuid, message, details):
        with engine.writer() as conn:
            if self._update(uuid, ('spawning',), conn=conn, vm_state='error', task_state=None,
                            host=None, node=None, power_state=fake.POWER_NOSTATE):
                self._record_failure(conn, uuid, actions.CREATE, actions.BUILD_EVENT,
                                     message, details)

    def _record_failure(self, conn, uuid, action, event, message, details):
        """What a failed step leaves, in the caller's transaction: the
        server's fault (500, admins see ``details``) and its step an Error."""
        instance_db.instance_fault_create(uuid, 500, message, details=details,
                                          host=self.host, conn=conn)
        actions.event_finish(uuid, action, event, actions.ERROR, conn=conn)

    def _delete(self, uuid):
        actions.event_start(uuid, actions.DELETE, actions.TERMINATE_EVENT, self.host)
        self.driver.destroy(uuid)
        # the guest is gone: a poll ended here would start the step again
        if self._until_written(instance_db.instance_destroy, uuid, expected_host=self.host):
            self._until_written(actions.event_finish, uuid, actions.DELETE,
                                actions.TERMINATE_EVENT, actions.SUCCESS)
            LOG.info('deleted %s', uuid)

    def _power_action(self, uuid, task):
        """Carry out the power task the API set; the UPDATE that ends it
        holds only while the task (and this host) are still the server's:
        an admin's reset-state or an evacuation in between wins (a guest
        this re-created for a server that left meanwhile goes at the next
        poll)."""
        method, vm_state = POWER_TASKS[task]
        action, event = actions.POWER_EVENTS[task]
        actions.event_start(uuid, action, event, self.host)
        try:
            power_state = getattr(self.driver, method)(uuid)
        except Exception as exc:
            LOG.exception('%s %s failed', task, uuid)
            self._until_written(self._record_power_failure, uuid, task, *fault_text(exc))
            return
        if self._until_written(self._update, uuid, (task,), vm_state=vm_state,
                               task_state=None, power_state=power_state):
            self._until_written(actions.event_finish, uuid, action, event, actions.SUCCESS)
            LOG.info('%s %s: %s', task, uuid, vm_state)

    def _record_power_failure(self, uuid, task, message, details):
        """As Nova when the hypervisor refuses a power step: the task ends
        (never retried by itself), the server keeps its vm_state, unless a
        reboot left no running guest (then ERROR), and a fault says why,
        with the step an Error; in one transaction, while the task is
        still the server's here."""
        action, event = actions.POWER_EVENTS[task]
        values = {}
        if (task in REBOOT_TASKS
                and self.driver.power_states().get(uuid) != fake.POWER_RUNNING):
            values['vm_state'] = 'error'
        with engine.writer() as conn:
            if self._update(uuid, (task,), conn=conn, task_state=None, **values):
                self._record_failure(conn, uuid, action, event, message, details)

    def _rebuild_evacuated(self, migration):
        """Rebuild a server evacuated to this host (Nova's rebuild with
        recreate): the server is moved here as the migration is claimed,
        before anything spawns (a claim that loses spawns nothing); then
        spawned, and the migration done while it is still this server's
        open one. Its former vm_state is kept (error becomes active); a
        stopped one comes up and is powered off again, as Nova does,
        through this host's own stop. One claimed by an earlier run of
        this host (pre-migrating) is spawned again."""
        uuid = migration['instance_uuid']
        if migration['status'] == 'accepted' and not evacuations.claim(
                migration, self.host, late_check=self._late_check):
            LOG.warning('evacuation of %s from %s skipped: superseded, reset, deleted or '
                        'refused by its server group',
                        uuid, migration['source_compute'])
            return
        if migration['status'] == 'accepted':
            actions.event_start(uuid, actions.EVACUATE, actions.REBUILD_EVENT, self.host)
        try:
            power_state = self.driver.spawn(uuid, self.stop_event)
        except Exception as exc:
            LOG.exception('rebuilding %s, evacuated from %s, failed',
                          uuid, migration['source_compute'])
            self._rebuild_failed(migration, exc)
            return
        if self.stop_event.is_set():
            return      # still pre-migrating to this host: the next run finishes it
        stopped = migration['old_vm_state'] == 'stopped'
        if evacuations.finish(migration, self.host,
                              rebuilt=dict(power_state=power_state, launched_at=db_now()),
                              settled=dict(vm_state='active',
                                           task_state='powering-off' if stopped else None)):
            self._until_written(actions.event_finish, uuid, actions.EVACUATE,
                                actions.REBUILD_EVENT, actions.SUCCESS)
            LOG.info('rebuilt %s, evacuated from %s', uuid, migration['source_compute'])
        else:
            self._until_written(actions.event_finish, uuid, actions.EVACUATE,
                                actions.REBUILD_EVENT, actions.ERROR)
            self.driver.destroy(uuid)
            LOG.warning('evacuation of %s from %s ended meanwhile: copy destroyed',
                        uuid, migration['source_compute'])

    def _rebuild_failed(self, migration, exc):
        """A spawn that failed on this destination ends the evacuation, as
        Nova's does: the migration ``failed``, the server ERROR with a fault
        saying why, the rebuild step an Error. Unlike Nova, the server goes
        back to its source, where its only copy is (Nova leaves it on the
        destination, which runs nothing of it and reads UP): host_status
        then tells the truth, and the server may be evacuated again while
        its source is down. What the spawn left here goes first; when that
        fails too, the claim stays and the next poll tries the whole
        rebuild again, so no copy is left behind here for a server that
        lives elsewhere."""
        uuid = migration['instance_uuid']
        try:
            self.driver.destroy(uuid)
        except Exception:
            LOG.exception('cannot destroy what the failed rebuild of %s left; '
                          'trying the rebuild again', uuid)
            return
        message, details = fault_text(exc)

        def record(conn):
            self._record_failure(conn, uuid, actions.EVACUATE, actions.REBUILD_EVENT,
                                 message, details)
        if self._until_written(evacuations.abandon, migration, self.host, record):
            LOG.warning('evacuation of %s from %s failed: the server is back on its source',
                        uuid, migration['source_compute'])
        else:
            # superseded, reset or deleted meanwhile: only the step is ours
            self._until_written(actions.event_finish, uuid, actions.EVACUATE,
                                actions.REBUILD_EVENT, actions.ERROR)

    def _late_check(self, conn, uuid, host):
        """The claim's late check (its server group's policy); recorded as
        our claim step, Error with the compute's rebuild step when it
        refuses, in the claim's transaction."""
        reason = server_groups.late_check(conn, uuid, host)
        actions.event_record(uuid, actions.EVACUATE, actions.CLAIM_EVENT, host,
                             actions.ERROR if reason else actions.SUCCESS, conn=conn)
        if reason:
            actions.event_record(uuid, actions.EVACUATE, actions.REBUILD_EVENT, host,
                                 actions.ERROR, conn=conn)
        return reason

    def _reconcile_guests(self, guests, rows, sweep):
        """Destroy the guests whose server lives on another host (``rows``:
        instance_db.guests_rows of ``guests``); with ``sweep``, act on those
        of deleted servers too (Nova's running_deleted_instance_action)."""
        for uuid in guests:
            row = rows.get(uuid)
            if row is None or row['deleted']:
                if sweep:
                    self._running_deleted(uuid, row)
            elif row['host'] != self.host:
                self._running_elsewhere(uuid, row)

    def _running_deleted(self, uuid, row):
        timeout = CONF.running_deleted_instance_timeout
        if row is not None and timeout > 0 and (row['deleted_for'] or 0) < timeout:
            return
        action = CONF.running_deleted_instance_action
        if action == 'reap':
            self.driver.destroy(uuid)
            LOG.warning('destroyed %s here: the server is deleted', uuid)
        elif action == 'shutdown':
            self.driver.power_off(uuid)
            LOG.warning('powered %s off here: the server is deleted', uuid)
        elif action == 'log':
            LOG.warning('%s runs here although the server is deleted', uuid)

    def _running_elsewhere(self, uuid, row):
        action = ('reap' if row['left_here']
                  else CONF.compute.running_elsewhere_instance_action)
        if action == 'reap':
            self.driver.destroy(uuid)
            LOG.warning('destroyed %s here: the server is on %s', uuid, row['host'])
        elif action == 'log':
            LOG.warning('%s runs here although the server is on %s', uuid, row['host'])

    def stop(self):
        self.stop_event.set()
