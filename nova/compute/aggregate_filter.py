"""Nova's AggregateInstanceExtraSpecsFilter, opt-in as in Nova (``[filter_scheduler]
enabled_filters``): a host may take a server when, for each extra spec of
its flavor that has no scope or the ``aggregate_instance_extra_specs:``
scope, an aggregate holding the host has that metadata key with a value
the spec accepts. A spec's value is a literal, or an operator and its
operands (Nova's syntax):

    "= 4" (numerically at least), "== 4", "!= 4", ">= 4", "<= 4",
    "s== a", "s!= a", "s< a", "s<= a", "s> a", "s>= a" (as text),
    "<in> a" (a substring), "<all-in> a b" (every word a substring),
    "<or> a <or> b" (one of the words).
"""
import operator

NAME = 'AggregateInstanceExtraSpecsFilter'
SCOPE = 'aggregate_instance_extra_specs'


def _numbers(compare):
    return lambda value, operand: compare(float(value), float(operand))


_BINARY = {
    '=': _numbers(operator.ge), '==': _numbers(operator.eq), '!=': _numbers(operator.ne),
    '>=': _numbers(operator.ge), '<=': _numbers(operator.le),
    's==': operator.eq, 's!=': operator.ne, 's<': operator.lt, 's<=': operator.le,
    's>': operator.gt, 's>=': operator.ge,
    '<in>': lambda value, operand: operand in value,
}


def accepts(value, spec):
    """Whether an aggregate's metadata ``value`` meets the spec ``spec``."""
    words = spec.split()
    if not words or (words[0] not in _BINARY and words[0] not in ('<or>', '<all-in>')):
        return value == spec
    op, operands = words[0], words[1:]
    if value is None or not operands:
        return False
    if op == '<or>':
        # "<or> a <or> b": the words at even places are the choices
        return value in operands[::2]
    if op == '<all-in>':
        return all(word in value for word in operands)
    try:
        return bool(_BINARY[op](value, operands[0]))
    except ValueError:
        return False    # not a number


def requirements(extra_specs):
    """{metadata key: spec} of the flavor's extra specs the filter reads."""
    wanted = {}
    for key, spec in extra_specs.items():
        parts = key.split(':')
        if len(parts) > 1:
            if parts[0] != SCOPE:
                continue
            parts = parts[1:]
        wanted[parts[0]] = spec
    return wanted


def passes(aggregates_metadata, wanted):
    """Whether a host whose aggregates have ``aggregates_metadata`` (a list
    of {key: value}) meets every requirement."""
    for key, spec in wanted.items():
        values = {metadata[key] for metadata in aggregates_metadata if key in metadata}
        if not any(accepts(value, spec) for value in values):
            return False
    return True
