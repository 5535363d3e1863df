"""The oslo.messaging Notifier of a process, configured the oslo way:
``[oslo_messaging_notifications] driver`` (``messagingv2`` to send to
``transport_url``, e.g. ``rabbit://``) and ``topics``. Without a driver set
the notifications go to oslo.messaging's ``log`` driver: the embedded
default has no broker.
"""
import oslo_messaging

import nova.conf

CONF = nova.conf.CONF
TOPIC = 'versioned_notifications'


def get_notifier(publisher_id):
    transport = oslo_messaging.get_notification_transport(CONF)
    # registered by the call above; a default, so an explicit noop still wins
    CONF.set_default('driver', ['log'], group='oslo_messaging_notifications')
    CONF.set_default('topics', [TOPIC], group='oslo_messaging_notifications')
    # [oslo_messaging_notifications] retry (-1, forever, by default): a send
    # waits for the broker rather than dropping the message, so "the
    # notifier returned" means the message left this process
    return oslo_messaging.Notifier(transport, publisher_id=publisher_id)
