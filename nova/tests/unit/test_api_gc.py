"""API worker processes tune the cyclic garbage collector once their app is
loaded (in a child process here: the setting is process-wide)."""
import subprocess
import sys
import types

import fixtures
import testtools

from nova.cmd import api as cmd_api

PROBE = """
import gc
from nova.api.openstack import gc_tuning
before = gc.get_threshold()
gc_tuning.tune()
print(before[0], gc.get_threshold()[0], gc.get_freeze_count() > 0)
"""


class TuneGcTest(testtools.TestCase):

    def test_loaded_objects_frozen_and_young_threshold_raised(self):
        out = subprocess.run([sys.executable, '-c', PROBE], capture_output=True, text=True,
                             check=True).stdout.split()
        self.assertEqual(['700', '10000', 'True'], out)

    def test_nova_api_workers_tune_it_after_loading_the_app(self):
        calls = []
        self.useFixture(fixtures.MonkeyPatch(
            'nova.api.openstack.wsgi_app.load_app',
            lambda request_metrics: calls.append('load') or 'app'))
        self.useFixture(fixtures.MonkeyPatch(
            'nova.api.openstack.gc_tuning.tune', lambda: calls.append('tune')))
        # and bound their waits on the database (nova/db/waits.py)
        self.useFixture(fixtures.MonkeyPatch(
            'nova.db.waits.enable', lambda: calls.append('bound')))
        self.assertEqual('app', cmd_api.GunicornApp.load(types.SimpleNamespace(metrics=None)))
        self.assertEqual(['load', 'bound', 'tune'], calls)
