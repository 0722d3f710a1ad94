package dev.isocheck.examples;

import java.sql.Connection;

/** The SQL isolation levels an application can ask a database for, as JDBC names them. */
public enum IsolationSetting {

    /** Each statement sees what was committed when it started. */
    READ_COMMITTED(Connection.TRANSACTION_READ_COMMITTED, "READ COMMITTED"),

    /** The transaction sees one snapshot; on PostgreSQL this is snapshot isolation. */
    REPEATABLE_READ(Connection.TRANSACTION_REPEATABLE_READ, "REPEATABLE READ"),

    /** Transactions behave as if run one at a time; PostgreSQL aborts one (40001) where they would not. */
    SERIALIZABLE(Connection.TRANSACTION_SERIALIZABLE, "SERIALIZABLE");

    private final int jdbcLevel;
    private final String sqlName;

    IsolationSetting(int jdbcLevel, String sqlName) {
        this.jdbcLevel = jdbcLevel;
        this.sqlName = sqlName;
    }

    /** The {@link Connection} constant. */
    public int jdbcLevel() {
        return jdbcLevel;
    }

    /** The level as SQL writes it, {@code READ COMMITTED}. */
    public String sqlName() {
        return sqlName;
    }
}
