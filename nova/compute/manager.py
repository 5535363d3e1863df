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
"""
import os
import logging
import threading

from oslo_db import exception as db_exc

import nova.conf
from nova.db import api as db
from nova.db import evacuations
from nova.db.dbtime import db_now
from nova import servicegroup
from nova.virt import fake

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)

# task_state -> (what the driver does, the vm_state after it)
POWER_TASKS = {
    'powering-off': (fake.FakeDriver.power_off, 'stopped'),
    'powering-on': (fake.FakeDriver.power_on, 'active'),
    'rebooting': (fake.FakeDriver.reboot, 'active'),
    'rebooting_hard': (fake.FakeDriver.reboot, 'active'),
}
WORK_TASK_STATES = ('scheduling', 'deleting') + tuple(POWER_TASKS)


class ComputeManager:
    def __init__(self, host):
        self.host = host
        state_file = None
        if CONF.compute.fake_state_dir:
            os.makedirs(CONF.compute.fake_state_dir, exist_ok=True)
            state_file = os.path.join(CONF.compute.fake_state_dir, host + '.json')
        self.driver = fake.FakeDriver(CONF.compute.fake_spawn_seconds, state_file)
        self.stop_event = threading.Event()
        self.service = None

    def start(self):
        self.service = self._until_written(self._register)
        self._until_written(self._destroy_evacuated_instances)
        self._until_written(self._resume_interrupted_builds)
        self._heartbeat_thread = threading.Thread(
            target=servicegroup.API().join, args=(self.service, self.stop_event),
            name='heartbeat', daemon=True)
        self._heartbeat_thread.start()
        LOG.info('nova-compute on host %s started (service id %s)', self.host,
                 self.service['id'])

    def _register(self):
        return db.service_register(self.host, db.COMPUTE_BINARY, topic='compute')

    def _until_written(self, step):
        """Run a step of the start until the database takes it: one that is
        away, or whose lock a process frozen mid-write holds (SQLite), is
        retried every report_interval, never a reason to exit."""
        while True:
            try:
                return step()
            except db_exc.DBError as exc:
                LOG.error('cannot start yet (%s; retrying): %s', step.__name__, exc)
                if self.stop_event.wait(CONF.report_interval):
                    raise SystemExit(1)

    def _resume_interrupted_builds(self):
        # A build claimed by a previous run of this host that died mid-spawn.
        for item in db.instances_for_compute(self.host, ('spawning',)):
            db.instance_update(item['uuid'], expected_task_state=('spawning',),
                               expected_host=self.host, task_state='scheduling')
        # An evacuation claimed by a previous run that died mid-rebuild:
        # claimable again, so this run rebuilds it.
        for migration in evacuations.to_run_on(self.host, ('pre-migrating',)):
            evacuations.release(migration)

    def run(self):
        """Poll for work until stop() is called."""
        while not self.stop_event.is_set():
            try:
                self.poll_once()
            except db_exc.DBError as exc:
                LOG.error('work poll failed (will retry): %s', exc)
            except Exception:
                # One bad server must not stop this host from serving the rest.
                LOG.exception('work poll failed (will retry)')
            self.stop_event.wait(CONF.compute.work_poll_interval)

    def poll_once(self):
        moves = evacuations.of_host(self.host)
        self._destroy_evacuated_instances(
            [m for m in moves if m['source_compute'] == self.host])
        for item in db.instances_for_compute(self.host, WORK_TASK_STATES):
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

    def _update(self, uuid, expected_task_state, **values):
        return db.instance_update(uuid, expected_task_state=expected_task_state,
                                  expected_host=self.host, **values)

    def _build(self, uuid):
        if not self._update(uuid, ('scheduling',), task_state='spawning'):
            return  # someone else claimed it, or it is being deleted
        power_state = self.driver.spawn(uuid, self.stop_event)
        if self.stop_event.is_set():
            # stopping mid-build: give the claim back for the next start
            self._update(uuid, ('spawning',), task_state='scheduling')
            return
        if self._update(uuid, ('spawning',), vm_state='active', task_state=None,
                        power_state=power_state, launched_at=db_now()):
            LOG.info('built %s', uuid)

    def _delete(self, uuid):
        self.driver.destroy(uuid)
        if db.instance_destroy(uuid, expected_host=self.host):
            LOG.info('deleted %s', uuid)

    def _power_action(self, uuid, task):
        """Carry out the power task the API set; the UPDATE that ends it
        holds only while the task (and this host) are still the server's:
        an admin's reset-state or an evacuation in between wins."""
        do, vm_state = POWER_TASKS[task]
        power_state = do(self.driver, uuid)
        if self._update(uuid, (task,), vm_state=vm_state, task_state=None,
                        power_state=power_state):
            LOG.info('%s %s: %s', task, uuid, vm_state)

    def _rebuild_evacuated(self, migration):
        """Rebuild a server evacuated to this host (Nova's rebuild with
        recreate): claimed accepted -> pre-migrating, spawned here, then
        moved here in one UPDATE that also ends its rebuilding. Its former
        vm_state is kept (error becomes active); a stopped one comes up and
        is powered off again, as Nova does, through this host's own stop."""
        if not evacuations.claim(migration):
            return
        uuid = migration['instance_uuid']
        power_state = self.driver.spawn(uuid, self.stop_event)
        if self.stop_event.is_set():
            self.driver.destroy(uuid)
            evacuations.release(migration)
            return
        stopped = migration['old_vm_state'] == 'stopped'
        if evacuations.finish(migration, self.host, vm_state='active',
                              task_state='powering-off' if stopped else None,
                              power_state=power_state, launched_at=db_now()):
            LOG.info('rebuilt %s, evacuated from %s', uuid, migration['source_compute'])
        else:
            self.driver.destroy(uuid)
            LOG.warning('evacuation of %s from %s failed: the server changed meanwhile',
                        uuid, migration['source_compute'])

    def _destroy_evacuated_instances(self, migrations=None):
        """Never run a server that was evacuated away (Nova's
        _destroy_evacuated_instances, at every poll rather than only at
        start: a compute that was frozen and thawed must stop it too)."""
        if migrations is None:
            migrations = evacuations.evacuated_from(self.host)
        for migration in migrations:
            if self.driver.destroy(migration['instance_uuid']):
                LOG.warning('destroyed %s here: it was evacuated to %s',
                            migration['instance_uuid'], migration['dest_compute'])
            evacuations.complete(migration)

    def stop(self):
        self.stop_event.set()
