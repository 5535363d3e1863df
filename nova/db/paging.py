"""Keyset paging shared by the server and flavor lists: sort keys that
never compare NULL, and the "after the marker" clause."""
import sqlalchemy as sa


def sort_key_expression(table, key):
    column = table.c[key]
    if not column.nullable or key == 'created_at':
        return column
    if isinstance(column.type, (sa.Integer, sa.Boolean)):
        return sa.func.coalesce(column, 0)
    if isinstance(column.type, sa.String):
        return sa.func.coalesce(column, '')
    return column


def after_marker(columns, dirs, values, expand):
    if len(set(dirs)) == 1 and not expand:
        # One direction: a row-value comparison the indexes can serve.
        left, right = sa.tuple_(*columns), sa.tuple_(*values)
        after = left < right if dirs[0] == 'desc' else left > right
    else:
        clauses = []
        for i, (column, direction) in enumerate(zip(columns, dirs)):
            equal_before = [c == v for c, v in zip(columns[:i], values[:i])]
            step = column < values[i] if direction == 'desc' else column > values[i]
            clauses.append(sa.and_(*equal_before, step))
        after = sa.or_(*clauses)
    # Implied by the above, but MariaDB/MySQL range-scan an index only from a
    # plain bound on its column: without it a page deep in the marker chain
    # walks every row before the marker (5x the first page at 100,000).
    first = columns[0] <= values[0] if dirs[0] == 'desc' else columns[0] >= values[0]
    return sa.and_(first, after)


def marker_value(value, column):
    if value is None and column.nullable:
        if isinstance(column.type, (sa.Integer, sa.Boolean)):
            return 0
        if isinstance(column.type, sa.String):
            return ''
    return value
