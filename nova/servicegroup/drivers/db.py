"""Liveness in the SQL database: heartbeats are UPDATEs of last_seen_up,
and every read of service rows carries the database's verdict as ``is_up``
(nova/db/liveness.py), so answering costs no statement."""
import logging

from oslo_db import exception as db_exc

from nova.db import services as service_db

LOG = logging.getLogger(__name__)


class DbDriver:
    @staticmethod
    def hosts_up(services):
        return {host for host, service in services.items() if service['is_up']}

    @staticmethod
    def heartbeats(services):
        return {}       # the rows' updated_at is the heartbeat

    @staticmethod
    def all_hosts_up():
        return None     # the database applies the rule itself (nova/db/liveness.py)

    @staticmethod
    def heartbeat_loop(service, interval, stop_event, guard=None):
        lost = gone = False
        while not stop_event.is_set():
            if guard is not None and not guard.may_beat(interval):
                continue
            try:
                if not service_db.service_heartbeat(service['id']):
                    # an operator deleted the record (DELETE /os-services/{id});
                    # as Nova's compute, carry on unseen until restarted
                    if not gone:
                        LOG.error('the record of service %s on host %s is gone: stop this '
                                  'service if it should be deleted, or restart it to '
                                  'register again', service['binary'], service['host'])
                    gone = True
                elif lost:
                    LOG.info('heartbeat recovered')
                lost = False
                if guard is not None:
                    guard.beaten()
            except (db_exc.DBError, Exception) as exc:  # the DB may be away; keep trying
                if not lost:
                    LOG.error('heartbeat failed: %s', exc)
                lost = True
            stop_event.wait(interval)
