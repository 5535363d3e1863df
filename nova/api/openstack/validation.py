"""JSON-schema validation of request bodies, with Nova's 400 messages."""
import jsonschema
from jsonschema import validators

from nova.api.openstack import faults

_FORMATS = jsonschema.FormatChecker()


def _path(error):
    parts = [str(p) for p in error.absolute_path]
    if error.validator == 'required' and error.validator_value:
        missing = error.message.split("'")[1] if "'" in error.message else ''
        parts.append(missing)
    return '/'.join(parts)


def validate(body, schema):
    """Raise a 400 fault describing the first way ``body`` breaks ``schema``."""
    validator = validators.Draft4Validator(schema, format_checker=_FORMATS)
    error = jsonschema.exceptions.best_match(validator.iter_errors(body))
    if error is None:
        return body
    if error.validator == 'additionalProperties' and not error.absolute_path:
        message = ('Additional properties are not allowed (%s)'
                   % error.message.split('(', 1)[-1].rstrip(')'))
        raise faults.BadRequest('Invalid input for field/attribute. Value: %s. %s'
                                % (_short(body), message))
    raise faults.BadRequest('Invalid input for field/attribute %s. Value: %s. %s'
                            % (_path(error), _short(error.instance), error.message))


def _short(value):
    text = repr(value)
    return text if len(text) <= 200 else text[:200] + '...'


def documented(body=None, query=None, response=None, path=None):
    """Decorator: what a handler accepts and answers, as JSON schemas (the
    same objects it validates with), published by openapi.py. ``query``
    and ``path`` map parameter names to schemas."""
    def decorate(func):
        func.api_doc = {'body': body, 'query': query or {}, 'response': response,
                        'path': path or {}}
        return func
    return decorate
