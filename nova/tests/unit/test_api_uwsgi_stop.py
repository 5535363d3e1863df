"""nova-api's stop under uWSGI is bounded: a uWSGI that does not finish
its graceful stop (a worker still loading its app when SIGTERM came held
the master once) gets SIGQUIT, then SIGKILL, and nova-api exits."""
import os
import signal
import subprocess
import sys
import textwrap
import time

import fixtures
import testtools

# stands in for uWSGI's master: writes its pid, then ignores both the
# graceful stop (SIGTERM) and the quick one (SIGQUIT)
STUBBORN = textwrap.dedent('''
    import os, signal, sys, time
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    signal.signal(signal.SIGQUIT, signal.SIG_IGN)
    open(sys.argv[1], 'w').write(str(os.getpid()))
    time.sleep(120)
''')

NOVA_API = textwrap.dedent('''
    import sys
    from nova.cmd import api_uwsgi
    api_uwsgi.CONF([], project='nova')
    api_uwsgi.CONF.set_override('graceful_timeout', 1, group='api')
    api_uwsgi.QUIT_MARGIN = api_uwsgi.KILL_MARGIN = 1
    api_uwsgi.command = lambda: [sys.executable, '-c', sys.argv[1], sys.argv[2]]
    sys.exit(api_uwsgi.run([], None))
''')


class BoundedStopTest(testtools.TestCase):

    def test_a_stop_uwsgi_ignores_ends_in_sigkill(self):
        pid_file = os.path.join(self.useFixture(fixtures.TempDir()).path, 'master.pid')
        api = subprocess.Popen([sys.executable, '-c', NOVA_API, STUBBORN, pid_file])
        self.addCleanup(lambda: api.poll() is None and api.kill())
        for _ in range(300):
            if os.path.exists(pid_file) and open(pid_file).read():
                break
            time.sleep(0.1)
        master = int(open(pid_file).read())
        api.send_signal(signal.SIGTERM)
        # graceful_timeout 1 + margin 1, SIGQUIT ignored, margin 1, SIGKILL:
        # nova-api exits with what ended its child
        self.assertEqual(-signal.SIGKILL % 256, api.wait(timeout=60))
        self.assertRaises(ProcessLookupError, os.kill, master, 0)
