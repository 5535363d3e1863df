"""Moves this Python process's wall clock by a fixed offset, the way a host
whose clock is wrong sees time: time.time(), time.time_ns() and
datetime.datetime.now()/utcnow()/today() all answer ``seconds`` off.
Monotonic clocks are left alone (a skewed host still measures intervals)."""
import datetime
import os
import time

import fixtures

ENV = 'NOVA_TEST_CLOCK_SKEW'


def skew(seconds):
    """Skew the process clock; returns the function that undoes it."""
    real_time, real_time_ns, real_datetime = time.time, time.time_ns, datetime.datetime
    delta = datetime.timedelta(seconds=seconds)

    class SkewedDatetime(real_datetime):
        @classmethod
        def now(cls, tz=None):
            return real_datetime.now(tz) + delta

        @classmethod
        def utcnow(cls):
            return real_datetime.now(datetime.timezone.utc).replace(tzinfo=None) + delta

        @classmethod
        def today(cls):
            return real_datetime.today() + delta

    time.time = lambda: real_time() + seconds
    time.time_ns = lambda: real_time_ns() + int(seconds * 1e9)
    datetime.datetime = SkewedDatetime

    def undo():
        time.time, time.time_ns, datetime.datetime = real_time, real_time_ns, real_datetime
    return undo


class SkewedClock(fixtures.Fixture):
    def __init__(self, seconds):
        super().__init__()
        self.seconds = seconds

    def _setUp(self):
        self.addCleanup(skew(self.seconds))


def sitecustomize_dir(path):
    """Write a sitecustomize.py under ``path`` that skews every Python
    process started with PYTHONPATH=path and NOVA_TEST_CLOCK_SKEW=seconds.
    It loads this file by path: importing the nova.tests package would
    parse the global CONF before the program does."""
    with open(os.path.join(path, 'sitecustomize.py'), 'w') as f:
        f.write('import importlib.util, os\n'
                'if os.environ.get(%r):\n'
                '    spec = importlib.util.spec_from_file_location("skewed_clock", %r)\n'
                '    module = importlib.util.module_from_spec(spec)\n'
                '    spec.loader.exec_module(module)\n'
                '    module.skew(float(os.environ[%r]))\n'
                % (ENV, os.path.abspath(__file__), ENV))
    return path
