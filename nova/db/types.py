import sqlalchemy as sa
from sqlalchemy.dialects import mysql

# MySQL/MariaDB DATETIME drops fractions unless asked for them; liveness
# decisions need sub-second precision on every backend.
Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')

# the largest values of signed 32-bit integer and single-precision float
# columns on every backend
MAX_INT = 0x7FFFFFFF
MAX_FLOAT = 3.40282e+38

# signed 64-bit integers: no row holds a value beyond them, and SQLite
# cannot even bind one
INT64_MIN, INT64_MAX = -2 ** 63, 2 ** 63 - 1
