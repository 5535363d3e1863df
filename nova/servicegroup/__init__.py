from nova.servicegroup.api import API, is_up  # noqa: F401
