"""The page of servers as plain tuples from MariaDB's and PostgreSQL's
drivers (booleans as integers from one, as bools from the other): each
paged server is the one show gives (unit/test_server_page_columns.py)."""
from nova.tests import fixtures as nova_fixtures
from nova.tests.functional.db import backends
from nova.tests.unit import test_server_page_columns


class _OnABackend(test_server_page_columns.PageColumnsTests):

    def setUp(self):
        super().setUp()
        self.useFixture(nova_fixtures.Policy())
        self.api = nova_fixtures.API()
        self.add_servers()


class PageColumnsMySQLTest(_OnABackend, backends.BackendTestCase):
    BACKEND = 'mysql'


class PageColumnsPostgreSQLTest(_OnABackend, backends.BackendTestCase):
    BACKEND = 'postgresql'
