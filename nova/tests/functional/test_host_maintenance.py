"""/os-host-maintenance over HTTP on the real all-in-one: admins schedule,
change and cancel windows; bad input answers Nova's faults and changes
nothing; members see only the windows affecting their servers, without
host names or reasons."""
import datetime


from nova.tests.functional import fixtures as func

PATH = '/v2.1/os-host-maintenance'
ADMIN, DEMO = func.ADMIN, func.DEMO
OTHER = 'other:other'


def iso(value):
    return value.isoformat() + 'Z'


def parse(text):
    return datetime.datetime.fromisoformat(text.rstrip('Z'))


class HostMaintenanceApiTest(func.SharedAllInOneTestCase):
    ALL_IN_ONE = dict(hosts=2, report_interval=1, service_down_time=20)

    @classmethod
    def seed_class(cls):
        cls.server = cls.nova.create_server_on('host-1', 'mine', token=DEMO)

    def setUp(self):
        super().setUp()
        self.nova.attach_logs_on_failure(self)
        self.addCleanup(self._cancel_all)

    def _cancel_all(self):
        for window in self.get(PATH).json['maintenances']:
            if window['state'] == 'scheduled':
                self.request('DELETE', '%s/%s' % (PATH, window['id']))

    def request(self, method, path, token=ADMIN, body=None):
        return self.nova.request(method, path, token=token, body=body)

    def get(self, path, token=ADMIN):
        return self.request('GET', path, token=token)

    def at(self, seconds):
        now = datetime.datetime.now(datetime.timezone.utc).replace(tzinfo=None)
        return iso(now + datetime.timedelta(seconds=seconds))

    def status_since(self, path):
        found = self.get(path).json['host_health']
        return found['status'], parse(found['since'])

    def post(self, host='host-1', start=3600, end=7200, token=ADMIN, **extra):
        body = {'maintenance': dict(host=host, start=self.at(start), end=self.at(end),
                                    **extra)}
        return self.request('POST', PATH, token=token, body=body)

    def create(self, **kwargs):
        resp = self.post(**kwargs)
        self.assertEqual(201, resp.status, resp.raw)
        return resp.json['maintenance']

    def assertFault(self, resp, code, name, text):
        self.assertEqual(code, resp.status, resp.raw)
        self.assertEqual([name], list(resp.json))
        self.assertEqual(code, resp.json[name]['code'])
        self.assertIn(text, resp.json[name]['message'])

    def test_schedule_change_cancel_as_an_admin(self):
        made = self.create(reason='BIOS update on rack 7', impact='reboot')
        self.assertEqual(('host-1', 'scheduled', 'reboot', 'BIOS update on rack 7'),
                         (made['host'], made['state'], made['impact'], made['reason']))
        item = '%s/%s' % (PATH, made['id'])
        self.assertEqual(made, self.get(item).json['maintenance'])
        changed = self.request('PUT', item, body={
            'maintenance': {'impact': 'migrate', 'end': self.at(9000)}})
        self.assertEqual(200, changed.status, changed.raw)
        self.assertEqual('migrate', changed.json['maintenance']['impact'])
        health = '/v2.1/servers/%s/host-health' % self.server
        self.nova._wait(lambda: self.get(health).json['host_health']['since'], 30, 'since')
        self.assertEqual(('NEEDS_MAINTENANCE', parse(made['created_at'])), self.status_since(
            health))
        self.assertEqual(204, self.request('DELETE', item).status)
        # cancelled: UP again since the cancellation
        cancelled = self.get(item).json['maintenance']['updated_at']
        self.assertEqual(('UP', parse(cancelled)), self.status_since(health))
        # kept as history
        self.assertEqual('cancelled', self.get(item).json['maintenance']['state'])
        self.assertFault(self.request('DELETE', item), 409, 'conflictingRequest',
                         'only a scheduled window can be cancelled')
        self.assertFault(self.request('PUT', item, body={'maintenance': {'reason': 'x'}}),
                         409, 'conflictingRequest', 'a finished window cannot change')

    def test_bad_input_answers_faults_and_changes_nothing(self):
        before = self.get(PATH).json
        self.assertFault(self.post(start=600, end=60), 400, 'badRequest',
                         'end must be after start')
        self.assertFault(self.post(start=-7200, end=-3600), 400, 'badRequest',
                         'lies in the past')
        self.assertFault(self.post(start=60, end=31 * 86400), 400, 'badRequest',
                         'at most 30 days')
        self.assertFault(self.post(host='no-such-host'), 404, 'itemNotFound',
                         'Compute host no-such-host could not be found')
        self.assertFault(self.post(impact='meteor'), 400, 'badRequest', 'impact')
        for start in ('next tuesday', '2030-01-01T00:00:00+02:00'):
            resp = self.request('POST', PATH, body={'maintenance': {
                'host': 'host-1', 'start': start, 'end': '2030-01-02T00:00:00Z'}})
            self.assertFault(resp, 400, 'badRequest', repr(start))
        self.assertFault(self.request('POST', PATH, body={'maintenance': {
            'host': 'host-1', 'start': self.at(60), 'end': self.at(120), 'x': 1}}),
            400, 'badRequest', 'Additional properties are not allowed')
        made = self.create()
        self.assertFault(self.post(start=5000, end=9000), 409, 'conflictingRequest',
                         made['id'])
        self.assertFault(self.request('PUT', '%s/%s' % (PATH, made['id']), body={
            'maintenance': {'end': self.at(60)}}), 400, 'badRequest',
            'end must be after start')
        self.assertFault(self.get('%s/%s' % (PATH, 'f' * 8 + '-0000-0000-0000-' + '0' * 12)),
                         404, 'itemNotFound', 'could not be found')
        self.assertEqual(before['maintenances'] + [made], self.get(PATH).json['maintenances'])

    def test_members_see_only_windows_affecting_their_servers(self):
        mine = self.create(host='host-1', reason='replacing the PSU of host-1')
        theirs = self.create(host='host-2', reason='host-2 NIC')
        gone = self.create(host='host-1', start=20000, end=21000)
        self.assertEqual(204, self.request('DELETE', '%s/%s' % (PATH, gone['id'])).status)
        every = self.get(PATH).json['maintenances']
        listed = self.get(PATH, token=DEMO).json['maintenances']
        # the current and future windows of host-1, no history, none of host-2
        self.assertIn(gone['id'], [w['id'] for w in every])
        self.assertEqual([w['id'] for w in every if w['host'] == 'host-1'
                          and w['state'] in ('scheduled', 'in-progress')],
                         [w['id'] for w in listed])
        self.assertIn(mine['id'], [w['id'] for w in listed])
        self.assertFault(self.get('%s/%s' % (PATH, gone['id']), token=DEMO), 404,
                         'itemNotFound', gone['id'])
        [window] = [w for w in listed if w['id'] == mine['id']]
        self.assertEqual(['end', 'hostId', 'id', 'impact', 'servers', 'start', 'state'],
                         sorted(window))
        self.assertEqual([self.server], window['servers'])
        shown = self.nova.show(self.server, token=DEMO).json['server']
        self.assertEqual(shown['hostId'], window['hostId'])
        self.assertNotIn('host-1', str(window))
        self.assertEqual(window, self.get('%s/%s' % (PATH, mine['id']), token=DEMO).json[
            'maintenance'])
        self.assertFault(self.get('%s/%s' % (PATH, theirs['id']), token=DEMO), 404,
                         'itemNotFound', theirs['id'])
        # another project has no server on either host
        self.assertEqual([], self.get(PATH, token=OTHER).json['maintenances'])
        for method, path, body in (('POST', PATH, {'maintenance': {}}),
                                   ('PUT', '%s/%s' % (PATH, mine['id']),
                                    {'maintenance': {'reason': 'x'}}),
                                   ('DELETE', '%s/%s' % (PATH, mine['id']), None)):
            self.assertFault(self.request(method, path, token=DEMO, body=body), 403,
                             'forbidden', "Policy doesn't allow")
        self.assertEqual('scheduled', self.get('%s/%s' % (PATH, mine['id'])).json[
            'maintenance']['state'])
