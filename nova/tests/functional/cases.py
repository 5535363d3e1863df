"""The host_status cases of the reference captures, recreated on an AllInOne.

Servers are created through the API and built by real nova-compute
processes wherever the API can produce the case; what it cannot (a stale
heartbeat without waiting hours, a server in BUILD that was never
scheduled, a host whose service row is gone, an old soft-deleted service
row) is written to the all-in-one's SQLite file with our models, as
Nova's own captures were.

Hosts (AllInOne(hosts=6)):

    host-1  c-up, c-reborn (plus a soft-deleted, forced-down, disabled row)
    host-2  c-stale: its compute is stopped, last heartbeat set 2 h back
    host-3  c-forced          host-4  c-disabled (with a reason)
    host-5  c-forced-dis      host-6  c-ghost: compute stopped, row deleted
    (none)  c-nohost-cell0 (no valid host: ERROR), c-nohost-build (BUILD)
"""
import datetime
import os
import uuid as uuidlib

import sqlalchemy as sa

from nova.db import dbtime
from nova.db import models
from nova.tests.functional import clients
from nova.tests.functional import fixtures as func

HOSTS = 6
CASES = ('c-up', 'c-stale', 'c-forced', 'c-disabled', 'c-forced-dis',
         'c-nohost-cell0', 'c-nohost-build', 'c-ghost', 'c-reborn')
CASE_HOSTS = {'c-up': 'host-1', 'c-stale': 'host-2', 'c-forced': 'host-3',
              'c-disabled': 'host-4', 'c-forced-dis': 'host-5', 'c-ghost': 'host-6',
              'c-reborn': 'host-1'}
EXPECTED = {'c-up': 'UP', 'c-stale': 'UNKNOWN', 'c-forced': 'DOWN',
            'c-disabled': 'MAINTENANCE', 'c-forced-dis': 'DOWN', 'c-nohost-cell0': '',
            'c-nohost-build': '', 'c-ghost': '', 'c-reborn': 'UP'}
# admin's own servers (the captures list two of them as 'bulk-0000N')
ADMIN_SERVERS = ('bulk-00001', 'bulk-00000')
OTHER_PROJECT = 'bulk-00000'
# Created at 2.19, without a description: the captures' servers have none
# (created below 2.19, a server's description is its name, as on Nova).
CREATE_VERSION = '2.19'
# an AllInOne sized for the cases; liveness generous enough for a busy CI
ALL_IN_ONE = dict(hosts=HOSTS, report_interval=1, service_down_time=20)


def engine(nova):
    return sa.create_engine('sqlite:///' + os.path.join(nova.data_dir, 'nova.sqlite'),
                            connect_args={'timeout': 30})


def _stop_compute(nova, host):
    process = nova.compute_process(host)
    process.terminate()
    process.wait(20)


def seed(nova):
    """Create every case on ``nova``; returns {server name: uuid}."""
    ids = {}
    for name in ADMIN_SERVERS:
        ids[name] = nova.create_server(name=name, token=func.ADMIN, wait_status=None,
                                       version=CREATE_VERSION)
    for name in CASES[:5]:
        ids[name] = nova.create_server_on(CASE_HOSTS[name], name, wait_status=None,
                                          version=CREATE_VERSION)
    ids['c-nohost-cell0'] = nova.create_server_without_a_host('c-nohost-cell0',
                                                              version=CREATE_VERSION)
    db = engine(nova)
    ids['c-nohost-build'] = _insert_unscheduled(db, 'c-nohost-build')
    ids['c-ghost'] = nova.create_server_on('host-6', 'c-ghost', wait_status=None,
                                           version=CREATE_VERSION)
    ids['c-reborn'] = nova.create_server_on('host-1', 'c-reborn', wait_status=None,
                                            version=CREATE_VERSION)
    for name, uuid in ids.items():
        if name not in ('c-nohost-cell0', 'c-nohost-build'):
            nova.wait_for_server(uuid, 'ACTIVE')

    _stop_compute(nova, 'host-2')
    _stop_compute(nova, 'host-6')
    with db.begin() as conn:
        now = conn.scalar(sa.select(dbtime.db_now()))
        conn.execute(sa.update(models.services)
                     .where(models.services.c.host == 'host-2')
                     .values(last_seen_up=now - datetime.timedelta(hours=2),
                             updated_at=now - datetime.timedelta(hours=2)))
        conn.execute(sa.delete(models.services).where(models.services.c.host == 'host-6'))
        old = now - datetime.timedelta(days=1)
        conn.execute(sa.insert(models.services).values(
            id=1000, uuid=str(uuidlib.uuid4()), host='host-1', binary='nova-compute',
            topic='compute', report_count=10, disabled=True, disabled_reason='retired',
            forced_down=True, last_seen_up=old, created_at=old - datetime.timedelta(days=30),
            updated_at=old, deleted_at=old, deleted=1000))
    db.dispose()
    nova.service_action('force-down', 'host-3', forced_down=True)
    nova.service_action('disable-log-reason', 'host-4', disabled_reason='maintenance')
    nova.service_action('force-down', 'host-5', forced_down=True)
    nova.service_action('disable-log-reason', 'host-5', disabled_reason='forced and disabled')
    for name, expected in EXPECTED.items():
        nova.wait_for_host_status(ids[name], expected)
    return ids


def _insert_unscheduled(db, name):
    """A server the scheduler has not looked at yet: BUILD, no host."""
    uuid = str(uuidlib.uuid4())
    with db.begin() as conn:
        conn.execute(sa.insert(models.instances).values(
            uuid=uuid, display_name=name, hostname=name, project_id='demo',
            user_id='demo', image_ref=func.IMAGE, flavor_id='1',
            reservation_id='r-' + uuid[:8], launch_index=0, vm_state='building',
            task_state='scheduling', power_state=0, progress=0, metadata='{}',
            flavor_name='m1.tiny', memory_mb=512, vcpus=1, root_gb=1, ephemeral_gb=0, swap=0,
            created_at=dbtime.db_now(), updated_at=dbtime.db_now(), deleted=0))
    return uuid


class SeededTestCase(func.SharedAllInOneTestCase):
    """One all-in-one per test class, with every case of seed() on it."""

    ALL_IN_ONE = ALL_IN_ONE

    @classmethod
    def seed_class(cls):
        cls.ids = seed(cls.nova)

    def run_cli(self, program, token, version, *args, ok=True):
        """``program`` (nova, openstack) against this class's all-in-one;
        ``ok`` says whether it must succeed or must fail."""
        done = clients.run(self.nova, program, args, token, version)
        if ok:
            self.assertEqual(0, done.returncode, (args, done.stdout, done.stderr))
        else:
            self.assertNotEqual(0, done.returncode, (args, done.stdout))
        return done

    def _host_status_of_c_up(self):
        return self.nova.show(self.ids['c-up']).json['server']['host_status']

    def grant_unknown_only_for_this_test(self):
        """Members see host_status only when UNKNOWN, until the test ends."""
        stale = self.ids['c-stale']

        def member_sees_stale():
            return 'host_status' in self.nova.show(stale, token=func.DEMO).json['server']

        self.nova.set_policy(func.UNKNOWN_ONLY_POLICY, member_sees_stale)
        self.addCleanup(self.nova.set_policy, '# defaults\n', lambda: not member_sees_stale())
