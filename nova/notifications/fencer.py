"""The host-status watcher's fencing ([fencing] enabled).

Every tick of the active watcher hands its look (the compute services and
which are alive) to ``Fencer.tick``. A host that has read UNKNOWN for
``fence_after_unknown`` seconds is fenced on a thread of its own, so a
hanging BMC never stalls the watching:

    fence_requested → the agent's ``off`` → its ``status`` reads off
    → force down + disable ("fenced ...") and fence_confirmed, one
    transaction under the lease

and only the DOWN that follows lets the host monitor notify an HA engine.
An agent that fails, times out or cannot confirm Off stores fence_failed
and forces nothing down; the host is tried again after a backoff
(retry_initial doubling up to retry_max). The brake
(nova/compute/fencing_brake.py) stops new fences, the legacy force-down
and the HA notifications while too many hosts read UNKNOWN; the watcher
stores fence_brake_engaged and fence_brake_released when it changes.
"""
import datetime
import logging
import threading
import time

from oslo_db import exception as db_exc

import nova.conf
from nova.compute import fence_agents
from nova.compute import fencing_brake
from nova.compute import host_status as hs
from nova.db import services as service_db
from nova.db import fencing as fencing_store
from nova.db import host_status_events as store

CONF = nova.conf.CONF
LOG = logging.getLogger(__name__)


def check_config():
    """The fencing configuration at start: {host: HostAgent}, or None with
    fencing off. Raises fence_agents.FencingConfigError with a message
    naming the option, host and key that are wrong."""
    watcher = CONF.host_status_watcher
    if not CONF.fencing.enabled:
        _check_unfenced_delays(watcher)
        return None
    for name in ('force_down_after_unknown', 'notify_after_unknown'):
        if getattr(watcher, name) is not None:
            raise fence_agents.FencingConfigError(
                '[host_status_watcher] %s must be unset while [fencing] enabled: with '
                'fencing, a host is forced down (and an HA engine notified) only after '
                'its fence confirmed it off ([fencing] fence_after_unknown)' % name)
    agents = fence_agents.load(CONF.fencing.config_file, CONF.fencing.agent_timeout)
    try:
        rows = service_db.service_list(binary=service_db.COMPUTE_BINARY)
    except db_exc.DBError as exc:
        LOG.warning('cannot check that every enabled compute host has a fence agent '
                    '(database unavailable: %s); a host without one is never fenced', exc)
        return agents
    enabled = [row['host'] for row in rows if not row['disabled'] and not row['forced_down']]
    fence_agents.check_hosts(agents, enabled, CONF.fencing.config_file)
    return agents


def unfenced_minimum():
    """The least ``force_down_after_unknown``/``notify_after_unknown`` the
    watcher takes without a fence: one more heartbeat interval, and as much
    again for a beat that is merely late. Below it, a live host that missed
    one beat would be forced down, or its servers evacuated, while it runs
    them."""
    return 2.0 * CONF.report_interval


def _check_unfenced_delays(watcher):
    minimum = unfenced_minimum()
    for name in ('force_down_after_unknown', 'notify_after_unknown'):
        value = getattr(watcher, name)
        if value is not None and value < minimum:
            raise fence_agents.FencingConfigError(
                '[host_status_watcher] %s = %g is below %g s (twice report_interval): '
                'a live host whose heartbeat is one beat late would be acted on as dead'
                % (name, value, minimum))


def fence_delay():
    """Seconds a host reads UNKNOWN before it is fenced."""
    window = CONF.fencing.brake_window or 2.0 * CONF.report_interval
    return max(CONF.fencing.fence_after_unknown, window)


def disabled_reason(agent, when):
    return 'fenced by nova-host-status-watcher at %s: %s confirmed it powered off' % (
        when.strftime('%Y-%m-%dT%H:%M:%SZ'), agent)


class Fencer:

    def __init__(self, holder, lease_ttl, agents, metrics, wake):
        """``wake()``: stored events wait for delivery."""
        self.holder = holder
        self.lease_ttl = lease_ttl
        self.agents = agents
        self.metrics = metrics
        self.wake = wake
        self.brake = None           # None: not read from the store yet
        self._lock = threading.Lock()
        self._running = set()       # hosts being fenced
        self._retry = {}            # host -> (failures, monotonic time of the next try)
        self._held_until = 0.0      # no fence before (monotonic): just released

    def standby(self):
        self.brake = None

    def _record(self, reason, host=None, binary=None):
        created = fencing_store.record(self.holder, self.lease_ttl(), reason, host, binary)
        if created:
            self.wake()
        return created

    def check_brake(self, rows, alive, backend_down):
        """Engage or release the brake from this look; True while engaged."""
        if self.brake is None:
            self.brake = fencing_store.brake_engaged()
        statuses = {row['host']: hs.host_status(row, row['host'] in alive) for row in rows}
        why = fencing_brake.reason(statuses, backend_down, CONF.fencing.brake_threshold)
        engaged = why is not None
        if engaged != self.brake:
            reason = fencing_store.BRAKE_ENGAGED if engaged else fencing_store.BRAKE_RELEASED
            if self._record(reason) is None:
                return True     # lease lost: do nothing this tick
            if engaged:
                LOG.warning('fencing brake engaged: %s; no host is fenced, forced down or '
                            'reported to an HA engine until it is released', why)
            else:
                # the hosts come back a heartbeat or more apart: one still
                # reconnecting is not fenced for having been held so long
                hold = fence_delay() + CONF.service_down_time
                self._held_until = time.monotonic() + hold
                LOG.warning('fencing brake released: fencing resumes in %g s', hold)
            self.brake = engaged
        self.metrics.brake(engaged)
        return engaged

    def tick(self):
        """Start the fences that are due (the brake is released)."""
        if time.monotonic() < self._held_until:
            return
        due = store.in_status_for(hs.UNKNOWN, fence_delay())
        hosts = {host for host, _ in due}
        with self._lock:
            for host in set(self._retry) - hosts - self._running:
                del self._retry[host]       # back, fenced by hand, or disabled
                self.metrics.fence_failing(host, False)
        started = 0
        now = time.monotonic()
        for host, binary in due:
            if started >= CONF.fencing.max_fences_per_tick:
                break
            with self._lock:
                if host in self._running or self._retry.get(host, (0, 0))[1] > now:
                    continue
                self._running.add(host)
            started += 1
            threading.Thread(target=self._fence, args=(host, binary),
                             name='fence-' + host, daemon=True).start()

    def _fence(self, host, binary):
        try:
            if self._record(fencing_store.FENCE_REQUESTED, host, binary) is None:
                return
            agent = self.agents.get(host)
            started = time.monotonic()
            error = self._power_off(host, agent)
            self.metrics.fenced(host, 'failed' if error else 'confirmed',
                                time.monotonic() - started)
            if error:
                self._failed(host, binary, error)
                return
            reason = disabled_reason(agent.agent, datetime.datetime.now(datetime.timezone.utc))
            if not fencing_store.record_fenced(self.holder, self.lease_ttl(), host, binary,
                                               reason):
                LOG.warning('%s is powered off, but this watcher lost its lease before '
                            'forcing it down: the next active watcher fences it again', host)
                return
            self.wake()
            with self._lock:
                self._retry.pop(host, None)
            self.metrics.fence_failing(host, False)
            LOG.warning('fenced %s: %s confirmed it off; forced down and disabled', host,
                        agent.agent)
        except Exception:
            LOG.exception('fencing %s failed', host)
            self._failed(host, binary, 'an error of the watcher (see its log)')
        finally:
            with self._lock:
                self._running.discard(host)

    @staticmethod
    def _power_off(host, agent):
        """None when the agent powered the host off and confirmed it;
        otherwise what went wrong."""
        if agent is None:
            return 'no fence agent configured for this host ([fencing] config_file)'
        LOG.warning('fencing %s through %s: UNKNOWN for %s s', host, agent.agent,
                    fence_delay())
        result = fence_agents.run(agent, 'off')
        if result.timed_out:
            return '%s off timed out after %s s' % (agent.agent, agent.timeout)
        if result.code != 0:
            return '%s off failed (exit %s): %s' % (agent.agent, result.code,
                                                    result.output.strip()[-500:])
        result = fence_agents.run(agent, 'status')
        if result.timed_out:
            return '%s status timed out after %s s' % (agent.agent, agent.timeout)
        if result.code != fence_agents.STATUS_OFF:
            return '%s status did not confirm off (exit %s): %s' % (
                agent.agent, result.code, result.output.strip()[-500:])
        return None

    def _failed(self, host, binary, error):
        with self._lock:
            failures = self._retry.get(host, (0, 0))[0] + 1
            wait = min(CONF.fencing.retry_max,
                       CONF.fencing.retry_initial * 2 ** (failures - 1))
            self._retry[host] = (failures, time.monotonic() + wait)
        LOG.error('fence of %s failed (attempt %d; again in %g s), not forced down: %s',
                  host, failures, wait, error)
        self.metrics.fence_failing(host, True)
        try:
            self._record(fencing_store.FENCE_FAILED, host, binary)
        except Exception:
            LOG.exception('could not store the failed fence of %s', host)
