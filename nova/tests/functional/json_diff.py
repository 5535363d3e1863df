"""How one JSON document departs from another, key order included: the
reference captures and the api-ref samples are both checked with it."""


def differences(expected, actual, path='$', same_leaf=None, any_value=frozenset()):
    """A readable list of the ways ``actual`` departs from ``expected``
    ([] when it matches). ``same_leaf(expected, actual)`` compares two
    scalars of one type (default ==); under a key in ``any_value`` any value
    of the expected type matches."""
    def walk(want, got, where):
        if isinstance(want, dict):
            if not isinstance(got, dict):
                return ['%s: expected an object, found %r' % (where, got)]
            if list(want) != list(got):
                return ['%s: keys differ; missing %s, unexpected %s; expected order %s, '
                        'found %s' % (where, [k for k in want if k not in got],
                                      [k for k in got if k not in want], list(want), list(got))]
            found = []
            for key, value in want.items():
                if key in any_value and type(value) is type(got[key]):
                    continue
                found += walk(value, got[key], '%s.%s' % (where, key))
            return found
        if isinstance(want, list):
            if not isinstance(got, list) or len(got) != len(want):
                return ['%s: expected %d items, found %r' % (where, len(want), got)]
            found = []
            for index, (w, g) in enumerate(zip(want, got)):
                found += walk(w, g, '%s[%d]' % (where, index))
            return found
        if type(want) is not type(got) or not (same_leaf or _equal)(want, got):
            return ['%s: expected %r, found %r' % (where, want, got)]
        return []
    return walk(expected, actual, path)


def _equal(a, b):
    return a == b
