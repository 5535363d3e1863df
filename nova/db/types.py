import sqlalchemy as sa
from sqlalchemy.dialects import mysql

# MySQL/MariaDB DATETIME drops fractions unless asked for them; liveness
# decisions need sub-second precision on every backend.
Timestamp = sa.DateTime().with_variant(mysql.DATETIME(fsp=6), 'mysql', 'mariadb')
