"""nova-compute: registers its service, heartbeats, builds and deletes the
servers the API placed on its host.

There is no message broker: the compute learns of work by polling the
database with an indexed query (host, deleted, task_state) and claims each
build with a conditional UPDATE (task_state scheduling -> spawning), so two
processes never both build a server and nothing is lost across restarts.
"""
import logging
import threading

from oslo_db import exception as db_exc

import nova.conf
from nova.db import api as db
from nova.db.dbtime import db_now
from nova import servicegroup
from nova.virt import fake

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


class ComputeManager:
    def __init__(self, host):
        self.host = host
        self.driver = fake.FakeDriver(CONF.compute.fake_spawn_seconds)
        self.stop_event = threading.Event()
        self.service = None

    def start(self):
        self.service = self._register()
        self._resume_interrupted_builds()
        self._heartbeat_thread = threading.Thread(
            target=servicegroup.API().join, args=(self.service, self.stop_event),
            name='heartbeat', daemon=True)
        self._heartbeat_thread.start()
        LOG.info('nova-compute on host %s started (service id %s)', self.host,
                 self.service['id'])

    def _register(self):
        while True:
            try:
                return db.service_register(self.host, db.COMPUTE_BINARY, topic='compute')
            except db_exc.DBError as exc:
                LOG.error('cannot register service yet: %s', exc)
                if self.stop_event.wait(CONF.report_interval):
                    raise SystemExit(1)

    def _resume_interrupted_builds(self):
        # A build claimed by a previous run of this host that died mid-spawn.
        for item in db.instances_for_compute(self.host, ('spawning',)):
            db.instance_update(item['uuid'], expected_task_state=('spawning',),
                               task_state='scheduling')

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
        for item in db.instances_for_compute(self.host):
            if self.stop_event.is_set():
                return
            if item['task_state'] == 'scheduling':
                self._build(item['uuid'])
            elif item['task_state'] == 'deleting':
                self._delete(item['uuid'])

    def _build(self, uuid):
        if not db.instance_update(uuid, expected_task_state=('scheduling',),
                                  task_state='spawning'):
            return  # someone else claimed it, or it is being deleted
        power_state = self.driver.spawn(uuid, self.stop_event)
        if self.stop_event.is_set():
            # stopping mid-build: give the claim back for the next start
            db.instance_update(uuid, expected_task_state=('spawning',),
                               task_state='scheduling')
            return
        if db.instance_update(uuid, expected_task_state=('spawning',),
                              vm_state='active', task_state=None,
                              power_state=power_state, launched_at=db_now()):
            LOG.info('built %s', uuid)

    def _delete(self, uuid):
        self.driver.destroy(uuid)
        if db.instance_destroy(uuid):
            LOG.info('deleted %s', uuid)

    def stop(self):
        self.stop_event.set()
