"""JSON-schema validation of request bodies and query strings, with Nova's
400 messages."""
import jsonschema
from jsonschema import validators

from nova.api.openstack import faults

_FORMATS = jsonschema.FormatChecker()


def validate(body, schema):
    """Raise a 400 fault describing the first way ``body`` breaks ``schema``,
    worded as Nova words it: the innermost key (for a missing key, the
    object that lacks it) and the offending value, or the bare message when
    the whole body is at fault."""
    validator = validators.Draft4Validator(schema, format_checker=_FORMATS)
    error = jsonschema.exceptions.best_match(validator.iter_errors(body))
    if error is None:
        return body
    if not error.absolute_path:
        raise faults.BadRequest(error.message)
    raise faults.BadRequest('Invalid input for field/attribute %s. Value: %s. %s'
                            % (error.absolute_path[-1], error.instance, error.message))


def for_version(table, req):
    """The schema of ``table`` ((first version, schema), newest first) that
    this request's microversion picks."""
    for first, schema in table:
        if req.at_least(first):
            return schema
    raise AssertionError('no schema for %s' % req.api_version)


def validate_query(req, properties):
    """Check every value of each parameter ``properties`` names (a repeated
    one too) against its schema, in the schema's order, and raise a 400
    worded as Nova words query errors. Other parameters are ignored, as
    Nova ignores them below the versions that refuse them."""
    for name, schema in properties.items():
        validator = validators.Draft4Validator(schema, format_checker=_FORMATS)
        for value in req.GET.getall(name):
            error = jsonschema.exceptions.best_match(validator.iter_errors(value))
            if error is not None:
                raise faults.BadRequest(
                    'Invalid input for query parameters %s. Value: %s. %s'
                    % (name, value, error.message))


def refuse_unknown_query(req, properties):
    """Nova's 400 for query parameters ``properties`` does not name (where
    a resource's schema has ``additionalProperties: false``)."""
    extras = [name for name in dict.fromkeys(req.GET.keys()) if name not in properties]
    if extras:
        raise faults.BadRequest('Additional properties are not allowed (%s %s unexpected)'
                                % (', '.join(repr(name) for name in extras),
                                   'was' if len(extras) == 1 else 'were'))


def documented(body=None, query=None, response=None, path=None):
    """Decorator: what a handler accepts and answers, as JSON schemas (the
    same objects it validates with), published by openapi.py. ``query``
    and ``path`` map parameter names to schemas."""
    def decorate(func):
        func.api_doc = {'body': body, 'query': query or {}, 'response': response,
                        'path': path or {}}
        return func
    return decorate
