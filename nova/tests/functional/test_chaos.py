"""CI's seeds of the randomized fault-injection histories
(nova/tests/functional/chaos.py): I1 and I2 after every step, I1-I5 after
a final quiescence, on SQLite (the all-in-one's default) and on MariaDB.
Longer soaks: ``python -m benchmarks.chaos``."""
import testtools

from nova.tests.functional import chaos
from nova.tests.functional.db import backend
from nova.tests.functional import fixtures as func

SEEDS = (1, 2, 3)
STEPS = 25


class _ChaosTests:

    def _run(self, nova, db_url=None):
        nova.attach_logs_on_failure(self)
        faults = 0
        for seed in SEEDS:
            history = chaos.History(nova, seed, STEPS, db_url=db_url)
            self.addCleanup(history.stop)
            history.run()
            faults += history.faults
        self.assertGreater(faults, len(SEEDS) * 5)     # the histories did inject faults


class ChaosSQLiteTest(_ChaosTests, testtools.TestCase):

    def test_seeded_histories_keep_i1_to_i5(self):
        self._run(self.useFixture(func.AllInOne(**chaos.ALL_IN_ONE)))


class ChaosMySQLTest(_ChaosTests, testtools.TestCase):

    def test_seeded_histories_keep_i1_to_i5(self):
        nova, peek, _ = backend.start(self, 'mysql', **chaos.ALL_IN_ONE)
        self._run(nova, db_url=peek.database.connection)
