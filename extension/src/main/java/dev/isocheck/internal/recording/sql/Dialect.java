package dev.isocheck.internal.recording.sql;

import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import java.util.Locale;
import java.util.Optional;

/**
 * How a database lets one statement both write rows and return them, so that the recorder learns
 * the full new row of every row written without a second statement (a second statement could see
 * other transactions' rows, or none under a lock it would have to wait for).
 */
public enum Dialect {

    /** {@code ... RETURNING *}: the new row of an INSERT or UPDATE, the deleted row of a DELETE. */
    POSTGRESQL {
        @Override
        public Optional<String> rewrite(Write write, String sql) {
            if (write.kind() == WriteKind.MERGE) {
                // RETURNING * does not tell a row MERGE deleted from one it updated.
                return Optional.empty();
            }
            // On a line of its own, so that a trailing line comment cannot swallow it.
            return Optional.of(body(sql) + "\nRETURNING *");
        }
    },

    /** H2's data change delta tables: {@code FINAL TABLE} (new rows), {@code OLD TABLE} (deleted). */
    H2 {
        @Override
        public Optional<String> rewrite(Write write, String sql) {
            if (write.kind() == WriteKind.MERGE) {
                // FINAL TABLE would not show the rows a MERGE deleted.
                return Optional.empty();
            }
            String delta = write.kind() == WriteKind.DELETE ? "OLD" : "FINAL";
            return Optional.of("SELECT * FROM " + delta + " TABLE (" + body(sql) + "\n)");
        }
    },

    /**
     * HSQLDB: no RETURNING, but its generated keys, asked for by column names, are the rows an
     * INSERT or UPDATE wrote (new values) or a DELETE removed: the statement is sent unchanged,
     * asking for every column of the table.
     */
    HSQLDB {
        @Override
        public Optional<String> rewrite(Write write, String sql) {
            return Optional.empty();
        }

        @Override
        public boolean returnsRowsAsGeneratedKeys() {
            return true;
        }
    },

    /**
     * MariaDB (10.5 and later): {@code INSERT ... RETURNING *} and {@code DELETE ... RETURNING *};
     * an UPDATE has no RETURNING and is sent as written, its rows read back inside its transaction
     * ({@link #readsBackWrites}), as is an INSERT whose application asked for generated keys (which
     * the driver answers from the server's reply, not from rows).
     */
    MARIADB {
        @Override
        public Optional<String> rewrite(Write write, String sql) {
            if (write.kind() != WriteKind.INSERT && write.kind() != WriteKind.DELETE) {
                return Optional.empty();
            }
            // On a line of its own, so that a trailing line comment cannot swallow it.
            return Optional.of(body(sql) + "\nRETURNING *");
        }
    },

    /**
     * MySQL: no RETURNING at all. Writes are sent as written; an UPDATE's or INSERT's rows are
     * read back inside its transaction ({@link #readsBackWrites}), a DELETE's are left out.
     */
    MYSQL {
        @Override
        public Optional<String> rewrite(Write write, String sql) {
            return Optional.empty();
        }
    },

    /** Any other database: writes are not rewritten, and so leave their tables out of the check. */
    OTHER {
        @Override
        public Optional<String> rewrite(Write write, String sql) {
            return Optional.empty();
        }
    };

    /**
     * The statement to send instead of {@code sql}, a write with a RETURNING of its own, so that
     * it returns after the application's columns the written row's {@code columns} (quoted), each
     * labelled as a hidden column ({@link HiddenColumns#label}); empty where the database has no
     * RETURNING (PostgreSQL alone has). The row's columns unqualified are its new version for an
     * INSERT or UPDATE, the deleted one for a DELETE, as in {@code RETURNING *}.
     */
    public Optional<String> returningAlso(String sql, java.util.List<String> columns) {
        if (this != POSTGRESQL || columns.isEmpty()) {
            return Optional.empty();
        }
        StringBuilder out = new StringBuilder(body(sql));
        for (int i = 0; i < columns.size(); i++) {
            // On lines of their own, so that a trailing line comment cannot swallow them.
            out.append("\n, ").append(columns.get(i)).append(" AS ").append(HiddenColumns.label(i));
        }
        return Optional.of(out.toString());
    }

    /**
     * The statement to send instead of {@code sql} so that it returns the rows it writes (new rows,
     * or deleted rows of a DELETE), or empty when this database has no such form.
     */
    public abstract Optional<String> rewrite(Write write, String sql);

    /**
     * The statement to send instead of an UPDATE (or an INSERT ... ON CONFLICT DO UPDATE) so that
     * it returns each row's new version and then its old one, column for column
     * ({@code RETURNING new.*, old.*}, PostgreSQL 18; the old one all NULL for a row inserted), or
     * empty when this database has no such form.
     *
     * @param majorVersion the server's major version
     */
    public Optional<String> rewriteWithOldRows(Write write, String sql, int majorVersion) {
        if (this != POSTGRESQL || majorVersion < 18
                || !(write.kind() == WriteKind.UPDATE || write.kind() == WriteKind.MERGE || write.isUpsert())) {
            return Optional.empty();
        }
        // Asked several times per statement: the answer depends on the text alone from here.
        Optional<String> cached = OLD_ROW_REWRITES.get(sql);
        if (cached == null) {
            // A table or alias named old or new would make old.* and new.* mean it.
            cached = OLD_OR_NEW.matcher(sql).find() ? Optional.empty() : Optional.of(body(sql) + "\nRETURNING new.*, old.*");
            OLD_ROW_REWRITES.put(sql, cached);
        }
        return cached;
    }

    /**
     * Whether this database aggregates a column into an array in a given order, which the recorder
     * adds to an aggregate query to learn the rows it ranged over ({@link HiddenColumns}).
     */
    public boolean aggregatesArrays() {
        return this == POSTGRESQL || this == H2 || this == MARIADB;
    }

    /** The aggregate of {@code column}'s values into an array ordered by {@code order} (quoted columns). */
    public String aggregateArray(String column, java.util.List<String> order) {
        if (this == MARIADB) {
            // A JSON array in text (10.5 and later), no longer than the recorder reads: an array is
            // cut at group_concat_max_len (1 MB by default), which one of integers this long is not.
            return "JSON_ARRAYAGG(" + column + " ORDER BY " + String.join(", ", order) + " LIMIT " + (AGGREGATED_ROWS_READ + 1) + ")";
        }
        return (this == POSTGRESQL ? "array_agg(" : "ARRAY_AGG(") + column + " ORDER BY " + String.join(", ", order) + ")";
    }

    /** The most rows an aggregate's read is recorded with; one more tells that there were more. */
    public static final int AGGREGATED_ROWS_READ = 10_000;

    /**
     * Whether a column of {@code type} is aggregated ({@link #aggregateArray}) with values that
     * read as the column itself does: on PostgreSQL and H2, {@link TableColumns#sameInArrays}; on
     * MariaDB, whose arrays are JSON text, integers and decimals only (exact as JSON numbers, a
     * decimal written with its column's scale, and short enough that an array of them is not cut;
     * not floating point, whose JSON text is not the double the driver reads, nor strings, which
     * JSON_ARRAYAGG does not convert from a column's own character set).
     */
    public boolean aggregates(int type) {
        if (this == MARIADB) {
            return type == java.sql.Types.TINYINT || type == java.sql.Types.SMALLINT || type == java.sql.Types.INTEGER
                    || type == java.sql.Types.BIGINT || type == java.sql.Types.DECIMAL || type == java.sql.Types.NUMERIC;
        }
        return TableColumns.sameInArrays(type);
    }

    /**
     * Whether writes are sent unchanged asking for every column as generated keys, which are then
     * the rows written (HSQLDB), instead of being rewritten.
     */
    public boolean returnsRowsAsGeneratedKeys() {
        return false;
    }

    /**
     * Whether an UPDATE or INSERT sent as written has the rows it wrote read back by key inside
     * its transaction, which still holds their locks (MySQL and MariaDB, whose UPDATE has no
     * RETURNING, nor MySQL's INSERT).
     */
    public boolean readsBackWrites() {
        return isMysql();
    }

    /**
     * Whether this is MySQL or MariaDB, which share InnoDB's locking, the information schema as
     * their catalog, errors that roll back the statement alone, and BOOLEAN as TINYINT(1).
     */
    public boolean isMysql() {
        return this == MARIADB || this == MYSQL;
    }

    /** {@code name} as a quoted identifier: in back-quotes on MySQL and MariaDB (whatever their SQL mode), else in double quotes. */
    public String quote(String name) {
        if (isMysql()) {
            return '`' + name.replace("`", "``") + '`';
        }
        return '"' + name.replace("\"", "\"\"") + '"';
    }

    /**
     * Whether the driver answers generated keys asked for by column names with those columns of
     * the rows written (PostgreSQL, H2, HSQLDB); MySQL's and MariaDB's give the auto-increment
     * value whatever is asked.
     */
    public boolean returnsKeysByName() {
        return this == POSTGRESQL || this == H2 || this == HSQLDB;
    }

    /** Whether any error in a transaction makes the database abort it (PostgreSQL's rule). */
    public boolean abortsOnError() {
        return this == POSTGRESQL;
    }

    /** Whether DDL runs inside the transaction (PostgreSQL) rather than after an implicit commit. */
    public boolean transactionalDdl() {
        return this == POSTGRESQL;
    }

    /**
     * The dialect of a database, from {@code DatabaseMetaData.getDatabaseProductName()} and
     * {@code getDatabaseProductVersion()}: MySQL's driver calls a MariaDB server MySQL, and says
     * what it is in the version ({@code 11.4.5-MariaDB}).
     */
    public static Dialect of(String productName, String productVersion) {
        String name = productName == null ? "" : productName.toLowerCase(Locale.ROOT);
        String version = productVersion == null ? "" : productVersion.toLowerCase(Locale.ROOT);
        if (name.equals("mariadb") || name.equals("mysql") && version.contains("mariadb")) {
            return MARIADB;
        }
        if (name.equals("mysql")) {
            return MYSQL;
        }
        if (name.equals("postgresql")) {
            return POSTGRESQL;
        }
        if (name.equals("h2")) {
            return H2;
        }
        if (name.equals("hsql database engine")) {
            return HSQLDB;
        }
        return OTHER;
    }

    private static final SqlTextCache<Optional<String>> OLD_ROW_REWRITES = new SqlTextCache<>();
    private static final java.util.regex.Pattern OLD_OR_NEW = java.util.regex.Pattern.compile("(?i)\\b(old|new)\\b");

    private static String body(String sql) {
        String body = sql.strip();
        while (body.endsWith(";")) {
            body = body.substring(0, body.length() - 1).strip();
        }
        return body;
    }
}
