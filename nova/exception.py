"""Domain exceptions: lower layers raise these; only nova/api knows HTTP."""


class NovaException(Exception):
    msg_fmt = 'An unknown exception occurred.'

    def __init__(self, message=None, **kwargs):
        super().__init__(message or self.msg_fmt % kwargs)


class ServiceGroupUnavailable(NovaException):
    msg_fmt = 'The liveness backend cannot be reached: %(reason)s'
