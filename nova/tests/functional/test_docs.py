"""The documentation builds with warnings as errors, as ``tox -e api-ref``,
``tox -e releasenotes`` and ``tox -e docs`` build it, so a broken page or
release note fails the test run and not only a separate docs job.

Skipped when the doc tooling (doc/requirements.txt) is not installed or the
tree is not a git checkout (reno reads notes from git history, and the theme
asks git for the commit)."""
import importlib.util
import os
import shutil
import subprocess
import sys

import fixtures
import testtools

import nova

REPO = os.path.dirname(os.path.dirname(os.path.abspath(nova.__file__)))


class DocsBuildTest(testtools.TestCase):

    def setUp(self):
        super().setUp()
        missing = [m for m in ('sphinx', 'openstackdocstheme', 'os_api_ref', 'reno')
                   if importlib.util.find_spec(m) is None]
        if missing:
            self.skipTest('doc tooling not installed (%s); pip install -r '
                          'doc/requirements.txt' % ', '.join(missing))
        if not os.path.isdir(os.path.join(REPO, '.git')) or not shutil.which('git'):
            self.skipTest('not a git checkout')
        self.out = self.useFixture(fixtures.TempDir()).path

    def _run(self, command):
        proc = subprocess.run(command, cwd=REPO, capture_output=True, text=True,
                              timeout=600)
        self.assertEqual(0, proc.returncode,
                         '%s failed:\n%s%s' % (' '.join(command), proc.stdout, proc.stderr))

    def _build(self, source):
        if not os.path.isdir(os.path.join(REPO, source)):
            self.skipTest('no %s in this tree' % source)
        self._run([sys.executable, '-m', 'sphinx', '-W', '--keep-going', '-q', '-b', 'html',
                   '-d', os.path.join(self.out, 'doctrees'), source,
                   os.path.join(self.out, 'html')])
        return os.path.join(self.out, 'html')

    def test_api_ref(self):
        html = self._build('api-ref/source')
        with open(os.path.join(html, 'index.html')) as f:
            page = f.read()
        self.assertIn('New in version 2.16', page)

    def test_release_notes(self):
        reno = os.path.join(os.path.dirname(sys.executable), 'reno')
        self._run([reno if os.path.exists(reno) else 'reno', 'lint'])
        self._build('releasenotes/source')

    def test_doc(self):
        self._build('doc/source')


# The section titles of README.rst before it became a short front page
# (issue 20): each of them lives on, in README.rst or a page of doc/source.
OLD_README_SECTIONS = (
    'Quick start', 'host_status', 'Using real clients', 'What runs',
    'How nova-compute learns of work', 'Host status events', 'Configuration', 'Limits',
    'Waiting on the database', 'Going to production', 'Database', 'API processes',
    'Keystone', 'Time settings', 'Liveness backend', 'Development',
    'Differences from OpenStack Nova', 'Beyond Nova', 'Documentation',
)


def section_titles(path):
    """The titles of a reStructuredText file: lines over a full-width
    underline of one punctuation character."""
    with open(path) as f:
        lines = f.read().split('\n')
    return {title.strip() for title, under in zip(lines, lines[1:])
            if title.strip() and len(under) >= len(title.strip()) and len(set(under)) == 1
            and under[0] in '=-~^"'}


class NothingLostTest(testtools.TestCase):
    """README.rst moved into doc/source: every old section is still there,
    on a page the index reaches (Sphinx -W fails on a page no toctree
    lists, test_doc above builds it so)."""

    def test_every_old_readme_section_is_kept(self):
        source = os.path.join(REPO, 'doc', 'source')
        readme = os.path.join(REPO, 'README.rst')
        if not os.path.exists(readme) or not os.path.isdir(source):
            self.skipTest('not a source tree')
        found = section_titles(readme)
        for name in os.listdir(source):
            if name.endswith('.rst'):
                found |= section_titles(os.path.join(source, name))
        self.assertEqual([], [t for t in OLD_README_SECTIONS if t not in found])

    def test_the_readme_stays_short_and_keeps_the_test_line(self):
        readme = os.path.join(REPO, 'README.rst')
        if not os.path.exists(readme):
            self.skipTest('not a source tree')
        with open(readme) as f:
            lines = f.read().split('\n')
        self.assertLessEqual(len(lines), 250)
        # .ci/run runs the first line of this shape
        self.assertIn('    python3 -m venv .venv-test && .venv-test/bin/pip install -q -e . '
                      '-r test-requirements.txt && .venv-test/bin/stestr run', lines)
