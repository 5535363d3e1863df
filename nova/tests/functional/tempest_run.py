"""``tempest run`` as a subprocess, in a workspace of its own, and what it
reports: its subunit stream read back into passes, failures and skips.

Tempest's runner is stestr, as the suite's: it runs in its own directory
(its .stestr.conf and .stestr repository there, never the clone's) and
writes its stream to our pipe, so the two runs never meet.
"""
import io
import os
import signal
import subprocess
import sys

import subunit
import testtools

TEMPEST = os.path.join(os.path.dirname(sys.executable), 'tempest')
# what tempest's compute API tests for the served resources are named
REGEX = (r'^tempest\.api\.compute\.('
         r'(servers|flavors|keypairs)\.'
         r'|test_versions\.'
         r'|admin\.test_(servers|create_server|delete_server|services|flavors|keypairs'
         r'|aggregates))')


class Results:
    """Test ids by outcome: ``passed`` and ``failed`` lists, ``skipped``
    {id: reason}, ``failures`` {id: traceback}; a class skipped or failed
    in setUpClass counts once, as tempest's own summary counts it."""

    def __init__(self, stream):
        self.passed, self.failed, self.skipped, self.failures = [], [], {}, {}
        case = subunit.ByteStreamToStreamResult(stream, non_subunit_name='stdout')
        result = testtools.StreamToDict(self._add)
        result.startTestRun()
        case.run(result)
        result.stopTestRun()

    @staticmethod
    def _text(test, name):
        detail = test['details'].get(name)
        return detail.as_text() if detail else ''

    def _add(self, test):
        status = test['status']
        if status == 'success':
            self.passed.append(test['id'])
        elif status == 'skip':
            self.skipped[test['id']] = self._text(test, 'reason')
        elif status in ('fail', 'uxsuccess'):
            self.failed.append(test['id'])
            self.failures[test['id']] = self._text(test, 'traceback')

    def counts(self):
        return '%d passed, %d failed, %d skipped' % (
            len(self.passed), len(self.failed), len(self.skipped))


def run(workspace, config, exclude_list, concurrency, timeout):
    """Tempest's tests matching REGEX less ``exclude_list``, against
    ``config``, from ``workspace``; returns (Results, stderr text)."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(('OS_', 'TEMPEST_'))}
    env['PYTHONWARNINGS'] = 'ignore'
    process = subprocess.Popen(
        [TEMPEST, 'run', '--config-file', os.path.abspath(config), '--regex', REGEX,
         '--exclude-list', os.path.abspath(exclude_list), '--concurrency', str(concurrency), '--subunit'],
        cwd=workspace, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        start_new_session=True)
    try:
        stream, stderr = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        # its stestr workers too: the whole session
        os.killpg(process.pid, signal.SIGKILL)
        stream, stderr = process.communicate()
        stderr += b'\ntempest run: killed after %d s' % timeout
    return Results(io.BytesIO(stream)), stderr.decode('utf-8', 'replace')
