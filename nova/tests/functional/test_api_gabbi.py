"""The declarative API tests: every gabbits/*.yaml file becomes a suite
run in-process (wsgi-intercept) against the real WSGI app; its
``fixtures:`` come from gabbi_fixtures."""
import os

import wsgi_intercept
from gabbi import driver

from nova.tests.functional import gabbi_fixtures

# the app must hand the server native str headers, as a real one requires
wsgi_intercept.STRICT_RESPONSE_HEADERS = True
TESTS_DIR = os.path.join(os.path.dirname(__file__), 'gabbits')


def load_tests(loader, tests, pattern):
    return driver.build_tests(TESTS_DIR, loader, host=None, test_loader_name=__name__,
                              intercept=gabbi_fixtures.setup_app,
                              fixture_module=gabbi_fixtures)
