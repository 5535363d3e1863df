"""A Prometheus of a test's own (Debian's ``prometheus``) on a free port,
scraping the given targets every second with the given rule files, and
its HTTP API."""
import json
import os
import urllib.error
import urllib.parse
import urllib.request

from nova.tests.functional import liveness_servers
from nova.tests.functional.fixtures import free_port

CONFIG = """\
global:
  scrape_interval: 1s
  scrape_timeout: 1s
  evaluation_interval: 1s
rule_files: %(rule_files)s
scrape_configs: %(scrape_configs)s
"""


class Prometheus(liveness_servers._Server):
    binary = 'prometheus'

    def __init__(self, test, jobs, rule_files=()):
        """``jobs``: {job name: 'host:port' of its /metrics}."""
        super().__init__(test)
        self.jobs = jobs
        self.rule_files = [os.path.abspath(path) for path in rule_files]

    def _choose_ports(self):
        self.port = free_port()
        self.url = 'http://127.0.0.1:%d' % self.port
        self.config = os.path.join(self.dir, 'prometheus.yml')
        scrape_configs = [{'job_name': job, 'static_configs': [{'targets': [target]}]}
                          for job, target in sorted(self.jobs.items())]
        with open(self.config, 'w') as f:
            # JSON is YAML: no quoting to get wrong
            f.write(CONFIG % {'rule_files': json.dumps(self.rule_files),
                              'scrape_configs': json.dumps(scrape_configs)})

    def _command(self):
        return [self.binary, '--config.file', self.config,
                '--storage.tsdb.path', os.path.join(self.dir, 'data'),
                '--web.listen-address', '127.0.0.1:%d' % self.port, '--log.level', 'warn']

    def _answers(self):
        try:
            with urllib.request.urlopen(self.url + '/-/ready', timeout=2) as response:
                return response.status == 200
        except OSError:
            return False

    def api(self, path, **params):
        """The ``data`` of a GET of /api/v1/``path``; AssertionError with
        Prometheus' error for a query it refuses."""
        url = '%s/api/v1/%s?%s' % (self.url, path, urllib.parse.urlencode(params))
        try:
            with urllib.request.urlopen(url, timeout=10) as response:
                answer = json.loads(response.read())
        except urllib.error.HTTPError as exc:
            answer = json.loads(exc.read())
        if answer.get('status') != 'success':
            raise AssertionError('%s: %s' % (params or path, answer.get('error')))
        return answer['data']

    def query(self, expr):
        """The result of an instant query: [{'metric': {...}, 'value': [t, 'v']}]."""
        return self.api('query', query=expr)['result']

    def alerts(self, name):
        """The alerts named ``name`` Prometheus has now (pending or firing)."""
        return [alert for alert in self.api('alerts')['alerts']
                if alert['labels'].get('alertname') == name]
