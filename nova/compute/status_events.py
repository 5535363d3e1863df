"""The host status event feed as GET /os-host-status-events reads it (the
statements live in nova.db.host_status_events; the API reaches them here)."""
from nova.db.host_status_events import feed_bounds
from nova.db.host_status_events import latest_id
from nova.db.host_status_events import server_page
from nova.db.host_status_events import service_page

__all__ = ['feed_bounds', 'latest_id', 'server_page', 'service_page']
