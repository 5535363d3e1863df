"""Flavor management, flavor access and keypairs in the database, on
SQLite, MariaDB/MySQL and PostgreSQL: which constraint a duplicate breaks
(each backend names it its own way), the grants a member's lists and show
follow, and keypair pages by name."""
import sqlalchemy as sa

from nova.db import engine
from nova.db import flavors
from nova.db import keypairs
from nova.db import models
from nova import exception
from nova.tests.functional.db import backends


def _flavor(flavorid, name, is_public=False):
    return {'flavorid': flavorid, 'name': name, 'memory_mb': 64, 'vcpus': 1, 'root_gb': 1,
            'ephemeral_gb': 0, 'swap': 0, 'rxtx_factor': 1.0, 'is_public': is_public,
            'disabled': False}


class _Tests:

    def setUp(self):
        super().setUp()
        self.addCleanup(self._forget)

    @staticmethod
    def _forget():
        # the backend keeps its rows from one test to the next
        with engine.writer() as conn:
            conn.execute(sa.delete(models.flavor_projects))
            conn.execute(sa.delete(models.flavors).where(
                models.flavors.c.flavorid.like('t-%')))
            conn.execute(sa.delete(models.key_pairs))

    def test_a_duplicate_id_or_name_says_which(self):
        flavors.create(_flavor('t-1', 't-one'))
        self.assertRaises(exception.FlavorIdExists, flavors.create, _flavor('t-1', 't-two'))
        self.assertRaises(exception.FlavorExists, flavors.create, _flavor('t-2', 't-one'))
        self.assertRaises(exception.FlavorIdExists, flavors.create, _flavor('t-1', 't-one'))

    def test_grants_decide_what_a_project_sees(self):
        row = flavors.create(_flavor('t-p', 't-private'))
        self.assertIsNone(flavors.flavor_get('t-p', project_id='demo'))
        self.assertEqual(['demo'], flavors.add_project(row, 'demo'))
        self.assertRaises(exception.FlavorAccessExists, flavors.add_project, row, 'demo')
        self.assertEqual(['alt', 'demo'], flavors.add_project(row, 'alt'))
        self.assertEqual('t-private', flavors.flavor_get('t-p', project_id='demo')['name'])
        self.assertIn('t-p', [f['flavorid'] for f in flavors.flavor_list(project_id='demo')])
        self.assertNotIn('t-p', [f['flavorid'] for f in flavors.flavor_list(project_id='other')])
        self.assertNotIn('t-p', [f['flavorid'] for f in flavors.flavor_list()])
        self.assertEqual(['alt'], flavors.remove_project(row, 'demo'))
        self.assertRaises(exception.FlavorAccessNotFound, flavors.remove_project, row, 'demo')
        self.assertIsNone(flavors.flavor_get('t-p', project_id='demo'))

    def test_a_description_is_set_and_cleared(self):
        text = 'd\u00e9crit ' + 'x' * 65000     # TEXT: past any VARCHAR
        row = flavors.create(dict(_flavor('t-desc', 't-described'), description='first'))
        self.assertEqual('first', row['description'])
        self.assertEqual(text, flavors.update_description('t-desc', text)['description'])
        self.assertEqual(text, flavors.flavor_get('t-desc')['description'])
        self.assertIsNone(flavors.update_description('t-desc', None)['description'])
        self.assertRaises(exception.FlavorNotFound, flavors.update_description, 't-none', 'x')
        self.assertRaises(exception.FlavorNotFound, flavors.update_description, 't-\x00', 'x')

    def test_delete_takes_the_grants_with_it(self):
        row = flavors.create(_flavor('t-d', 't-deleted'))
        flavors.add_project(row, 'demo')
        flavors.destroy('t-d')
        self.assertRaises(exception.FlavorNotFound, flavors.destroy, 't-d')
        with engine.reader() as conn:
            self.assertEqual(0, conn.scalar(sa.select(sa.func.count()).select_from(
                models.flavor_projects)))

    def test_keypairs_by_user_and_name(self):
        for name in ('b', 'a', 'c'):
            keypairs.create('u1', name, 'ssh', 'ssh-rsa AAAA', 'fp')
        keypairs.create('u2', 'a', 'x509', 'pem', 'fp')
        self.assertRaises(exception.KeyPairExists, keypairs.create, 'u1', 'a', 'ssh', 'k', 'f')
        self.assertEqual(['a', 'b', 'c'], [r['name'] for r in keypairs.page('u1')])
        self.assertEqual(['b'], [r['name'] for r in keypairs.page('u1', limit=1, marker='a')])
        self.assertEqual([], keypairs.page('u1', marker='c'))
        self.assertRaises(exception.MarkerNotFound, keypairs.page, 'u2', marker='b')
        self.assertEqual('x509', keypairs.get('u2', 'a')['type'])
        self.assertIsNotNone(keypairs.get('u1', 'a')['created_at'])
        keypairs.destroy('u1', 'a')
        self.assertRaises(exception.KeypairNotFound, keypairs.get, 'u1', 'a')
        self.assertRaises(exception.KeypairNotFound, keypairs.destroy, 'u1', 'a')
        self.assertEqual('a', keypairs.get('u2', 'a')['name'])


class SQLiteTest(_Tests, backends.BackendTestCase):
    BACKEND = 'sqlite'


class MySQLTest(_Tests, backends.BackendTestCase):
    BACKEND = 'mysql'


class PostgreSQLTest(_Tests, backends.BackendTestCase):
    BACKEND = 'postgresql'
