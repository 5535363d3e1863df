from nova.servicegroup.api import API  # noqa: F401
