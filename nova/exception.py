"""Domain exceptions: what went wrong below the API, never in HTTP terms.

(Minimal for the tooz driver; the architecture work fills in the rest and
the one place that turns them into Nova's faults.)
"""


class NovaException(Exception):
    msg_fmt = 'An unknown exception occurred.'

    def __init__(self, message=None, **kwargs):
        self.kwargs = kwargs
        super().__init__(message if message is not None else self.msg_fmt % kwargs)

    @property
    def message(self):
        return self.args[0]


class ServiceUnavailable(NovaException):
    msg_fmt = 'The service is unavailable; try again shortly.'


class ServiceGroupUnavailable(ServiceUnavailable):
    msg_fmt = 'Service liveness cannot be read right now; try again shortly.'
