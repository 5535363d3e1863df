"""[servicegroup] backend_url: completed for the lease driver, refused at start when the
driver could not honour it, and written by nova-all-in-one
--servicegroup-url."""
import configparser
import os
import re

import fixtures
from oslo_config import cfg
import testtools

import nova.conf
from nova.cmd import all_in_one
from nova import config
from nova.conf import liveness_backend
from nova.conf import servicegroup

CONF = nova.conf.CONF


class ParseTest(testtools.TestCase):

    def test_membership_timeout_is_service_down_time_and_requests_are_bounded(self):
        backend = liveness_backend.parse('redis://:pw@10.0.0.1:6380', 7)
        self.assertEqual(('redis', 2.0), (backend.kind, backend.timeout))
        self.assertIn('membership_timeout=7', backend.url)
        self.assertIn('socket_timeout=2', backend.url)
        self.assertEqual('redis://10.0.0.1:6380', str(backend))   # no password in logs

    def test_the_url_bounds_its_own_requests(self):
        self.assertEqual(0.5, liveness_backend.parse(
            'redis://h?socket_timeout=0.5', 3).timeout)
        self.assertEqual(7.0, liveness_backend.parse('redis://h?timeout=7', 3).timeout)
        etcd = liveness_backend.parse('etcd3+http://h:2379?timeout=1', 3)
        self.assertEqual(('etcd', 1.0), (etcd.kind, etcd.timeout))

    def test_sentinels_and_etcd_members_are_tried_in_turn(self):
        redis = liveness_backend.parse(
            'redis://:pw@10.0.0.1:26379?sentinel=nova&sentinel_fallback=10.0.0.2:26379'
            '&sentinel_fallback=10.0.0.3:26380', 3)
        self.assertEqual(('nova', 'pw', (('10.0.0.1', 26379), ('10.0.0.2', 26379),
                                         ('10.0.0.3', 26380))),
                         (redis.sentinel, redis.password, redis.endpoints))
        etcd = liveness_backend.parse('etcd3+http://h1?endpoints=h2:2380,h3:2381', 3)
        self.assertEqual(((('h1', 2379), ('h2', 2380), ('h3', 2381)), 3),
                         (etcd.endpoints, etcd.membership_timeout))
        self.assertEqual((('h', 6379),), liveness_backend.parse('redis://h', 3).endpoints)

    def test_a_matching_membership_timeout_is_accepted(self):
        backend = liveness_backend.parse('etcd3+https://h?membership_timeout=3', 3)
        self.assertIn('membership_timeout=3', backend.url)

    def test_refused(self):
        for url, words in (
                ('redis://h?membership_timeout=30', 'membership_timeout=30 but liveness '
                                                    'follows [DEFAULT] service_down_time (3 s)'),
                ('', 'needs [servicegroup] backend_url'),
                (None, 'needs [servicegroup] backend_url'),
                ('memcached://h', "scheme 'memcached' is not supported"),
                ('etcd3+http://h?timeout=1.5', 'takes whole seconds'),
                ('redis://h?socket_timeout=soon', "socket_timeout='soon' is not a number"),
                ('redis://h?socket_timeout=0', 'must be positive'),
                ('redis://h?sentinel_fallback=g:1', 'needs sentinel=NAME'),
                ('etcd3+http://h?endpoints=g', "endpoint 'g' is not HOST:PORT")):
            with testtools.ExpectedException(liveness_backend.InvalidBackendURL,
                                             '.*' + re.escape(words)):
                liveness_backend.parse(url, 3)


class StartCheckTest(testtools.TestCase):

    def _override(self, **values):
        for name, value in values.items():
            CONF.set_override(name, value, group='servicegroup')
            self.addCleanup(CONF.clear_override, name, group='servicegroup')

    def test_a_program_refuses_to_start_on_a_url_it_could_not_honour(self):
        self._override(driver='lease', backend_url='redis://h?membership_timeout=1')
        with testtools.ExpectedException(SystemExit, 'nova: .*membership_timeout=1'):
            config.check_liveness_backend()

    def test_the_db_driver_needs_no_url(self):
        self._override(driver='db', backend_url=None)
        config.check_liveness_backend()


class AllInOneFlagTest(testtools.TestCase):

    def test_servicegroup_url_selects_the_lease_driver(self):
        data_dir = self.useFixture(fixtures.TempDir()).path
        args = all_in_one.parse(['--data-dir', data_dir,
                                 '--servicegroup-url', 'redis://:pa$$@127.0.0.1:6379'])
        all_in_one.write_config(args)
        conf = cfg.ConfigOpts()
        servicegroup.register_opts(conf)
        conf(['--config-file', os.path.join(data_dir, 'flags.conf')])
        # the URL arrives whole: oslo.config's $ substitution is escaped
        self.assertEqual(('lease', 'redis://:pa$$@127.0.0.1:6379'),
                         (conf.servicegroup.driver, conf.servicegroup.backend_url))

    def test_the_default_writes_no_servicegroup(self):
        data_dir = self.useFixture(fixtures.TempDir()).path
        all_in_one.write_config(all_in_one.parse(['--data-dir', data_dir]))
        flags = configparser.RawConfigParser()
        flags.read(os.path.join(data_dir, 'flags.conf'))
        self.assertFalse(flags.has_section('servicegroup'))
