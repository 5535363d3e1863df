"""The shell blocks of README.rst and the user guide that talk to the
all-in-one, run verbatim with the real clients (openstack, nova, curl) in
one bash session per document, ``set -e``: a command that fails fails the
test. The one change made to the text: the all-in-one's port, 8774 in the
docs, is the test's own free port. If a block cannot run as written, the
doc is what is wrong."""
import os
import re
import subprocess
import sys

from nova.tests.functional import fixtures as func

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.dirname(
    os.path.abspath(__file__)))))
SHELL_START = re.compile(r'^(export |openstack |nova |curl |OS_TOKEN=|[A-Z0-9_]+=\$\()')


def literal_blocks(path):
    """The text of each ``::`` literal block of an rst file, dedented."""
    lines = open(path).read().splitlines()
    blocks, i = [], 0
    while i < len(lines):
        if lines[i].rstrip().endswith('::'):
            j = i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            block = []
            while j < len(lines) and (not lines[j].strip() or lines[j].startswith('    ')):
                block.append(lines[j][4:])
                j += 1
            while block and not block[-1].strip():
                block.pop()
            if block:
                blocks.append('\n'.join(block))
            i = j
        else:
            i += 1
    return blocks


def shell_blocks(path):
    """The blocks that talk to the all-in-one with a shell command (not the
    ones that install or start it, not Python or configuration)."""
    found = []
    for block in literal_blocks(path):
        first = [line for line in block.splitlines() if line.strip()
                 and not line.startswith('#')][0]
        if SHELL_START.match(first) and 'nova-all-in-one' not in block:
            found.append(block)
    return found


class DocsRunTest(func.SharedAllInOneTestCase):

    ALL_IN_ONE = dict(hosts=3)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)

    def run_blocks(self, name, count):
        blocks = shell_blocks(os.path.join(ROOT, name))
        # a block the parser missed would go untested
        self.assertEqual(count, len(blocks), blocks)
        script = 'set -e -o pipefail\n' + '\n'.join(blocks).replace(
            '127.0.0.1:8774', '127.0.0.1:%d' % self.nova.port) + '\n'
        env = dict(os.environ, PATH=os.path.dirname(sys.executable) + os.pathsep
                   + os.environ.get('PATH', ''))
        for key in [key for key in env if key.startswith('OS_')]:
            del env[key]
        done = subprocess.run(['bash', '-c', script], env=env, capture_output=True,
                              text=True, timeout=600)
        self.assertEqual(0, done.returncode,
                         'stdout:\n%s\nstderr:\n%s' % (done.stdout[-4000:], done.stderr[-4000:]))
        return done.stdout

    def test_user_guide_then_readme(self):
        # the user guide's blocks leave host-1 forced down; the README's
        # server goes elsewhere
        out = self.run_blocks('doc/source/user-guide.rst', 4)
        self.assertIn('"host_status": "UP"', out)
        self.assertIn('"events"', out)
        out = self.run_blocks('README.rst', 1)
        lines = out.splitlines()
        # the demonstration: UP, then DOWN after the force-down
        self.assertEqual('UP', lines[0])
        self.assertEqual('DOWN', lines[1])
        # and the list's "Host Status" column says so on the newest vm1's row
        # (the list is newest first; the user guide made a vm1 too)
        self.assertEqual(['DOWN'], [line.split('|')[-2].strip() for line in lines
                                    if '| vm1 ' in line and 'ACTIVE' in line][:1])
