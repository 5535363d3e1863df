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
