package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Observation;
import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.WriteLog;
import dev.isocheck.internal.recording.TransactionLog.Outcome;
import dev.isocheck.internal.recording.LockProbe;
import dev.isocheck.internal.recording.decoding.LogicalDecoding;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.Dialect;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.TableColumns;
import dev.isocheck.internal.recording.sql.WriteSuspicion;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.DatabaseMetaData;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.sql.Statement;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One recorded connection, a session of the history: it follows the transaction in progress
 * (started by the first statement, ended by commit, rollback, close or, in auto-commit mode, by the
 * statement itself) and hands each finished one to the recording that was current when it started.
 * Its methods are synchronized: JDBC lets several threads share a connection, one call at a time.
 */
final class RecordedConnection implements InvocationHandler {

    private final Connection real;
    private final Dialect dialect;
    /** The server's major version, 0 when unknown: which rewrites it understands. */
    private final int majorVersion;
    /** The server's minor version (MariaDB's RETURNING depends on it). */
    private final int minorVersion;
    private final PrimaryKeys primaryKeys;
    /** The database's write logs, {@code null} where it keeps none the recorder reads (not PostgreSQL or MariaDB). */
    private final LogicalDecoding decoding;
    /**
     * The first server transaction id not yet assigned, as last asked on this connection; -1 when
     * not asked yet. Ids only grow, so any earlier answer bounds an auto-commit statement's id
     * from below.
     */
    private long idsFrom = -1;
    /**
     * On MariaDB, the GTID this session last committed ({@code @@last_gtid}, as
     * {@code MariadbWriteLog.id}; -1 for none yet), as last asked; {@link #GTID_UNKNOWN} when a
     * commit may have come since unasked. A transaction's GTID is asked after its commit, and is
     * its own only if it differs from the one before.
     */
    private long lastGtid = GTID_UNKNOWN;
    /**
     * Whether the transaction in progress sent what may commit on MariaDB as several transactions
     * of the server's: a batch or several statements in one string in auto-commit mode (each
     * statement commits), a procedure (which may commit inside). The GTID asked after it is the
     * last of them only, so it is not taken for the transaction's.
     */
    private boolean severalServerTransactions;
    private static final long GTID_UNKNOWN = Long.MIN_VALUE;
    /** The id given a transaction that committed no row: one no transaction of a log has. */
    private static final long NO_ROW_COMMITTED = Long.MAX_VALUE;
    /**
     * Whether the driver wraps each statement in a savepoint and rolls a failed one back to it
     * (pgjdbc's {@code autosave=always}): a failure then leaves the transaction usable.
     */
    private final boolean savesEachStatement;
    /**
     * Whether the application has held the driver's own connection ({@code unwrap}): what it does
     * through it (COPY, large objects, anything) the recorder does not see.
     */
    private boolean unwrapped;
    /** The {@link LockProbe} once looked for, {@link #NO_PROBE} when there is none; read by the connection's thread only. */
    private Object lockProbe;
    private static final Object NO_PROBE = new Object();
    private final Map<Savepoint, Integer> savepoints = new IdentityHashMap<>();
    private Connection proxy;
    private boolean autoCommit;
    private boolean open;
    /** The transaction in progress when it is recorded; {@code null} when none, or not recorded. */
    private TransactionLog log;
    /** Where the transaction was doomed (the database will roll it back whatever the application does); -1 when not. */
    private int doomedAt = -1;
    /**
     * Whether DDL may have committed part of the transaction implicitly: a rollback then undoes only
     * what came after, and which part that was is not known.
     */
    private boolean partlyCommitted;
    /** The generated keys of the transaction in progress the recorder is still reading along. */
    private final java.util.List<ReadAlong> unreadKeys = new java.util.ArrayList<>();
    /** The recording {@link #session} names this connection in. */
    private java.lang.ref.WeakReference<Recording> sessionOf = new java.lang.ref.WeakReference<>(null);
    private String session;

    private RecordedConnection(Connection real, Dialect dialect, PrimaryKeys primaryKeys, LogicalDecoding decoding)
            throws SQLException {
        this.real = real;
        this.decoding = dialect == Dialect.POSTGRESQL || dialect == Dialect.MARIADB ? decoding : null;
        this.dialect = dialect;
        int major;
        int minor;
        try {
            major = real.getMetaData().getDatabaseMajorVersion();
            minor = real.getMetaData().getDatabaseMinorVersion();
        } catch (SQLException | RuntimeException e) {
            major = 0;
            minor = 0;
        }
        this.majorVersion = major;
        this.minorVersion = minor;
        this.savesEachStatement = dialect == Dialect.POSTGRESQL && autosaveAlways(real);
        this.primaryKeys = primaryKeys;
        this.autoCommit = real.getAutoCommit();
    }

    /**
     * Wraps {@code real}; {@code primaryKeys} and {@code decoding} (the write logs, used on
     * PostgreSQL) are shared by the connections to one database.
     */
    static Connection wrap(Connection real, PrimaryKeys primaryKeys, LogicalDecoding decoding) throws SQLException {
        java.sql.DatabaseMetaData meta = real.getMetaData();
        RecordedConnection handler = new RecordedConnection(real,
                Dialect.of(meta.getDatabaseProductName(), meta.getDatabaseProductVersion()), primaryKeys, decoding);
        handler.proxy = Proxies.create(Connection.class, handler);
        return handler.proxy;
    }

    Connection proxy() {
        return proxy;
    }

    Dialect dialect() {
        return dialect;
    }

    /**
     * Whether the next statement's writes are recorded from the database's log, so that it is
     * sent exactly as written: those of the transaction in progress, or, between transactions,
     * those of the recording current now (its log opened now if this is its first transaction on
     * this database). Asked before a statement is prepared or sent.
     */
    synchronized boolean decodesWrites() {
        if (decoding == null) {
            return false;
        }
        if (open) {
            return log != null && log.writeLog() != null;
        }
        return Recording.current().flatMap(decoding::logFor).isPresent();
    }

    /**
     * Called before a statement that may write is sent in a transaction whose writes come from
     * the log: an auto-commit statement's id is bounded from below by what the server had not
     * yet assigned, unless {@code namesItsRows}: the statement itself will say which rows it
     * changed ({@link WrittenKeys}), by which it is found in the log.
     */
    synchronized void beforeWrite(TransactionLog of, boolean namesItsRows) {
        if (dialect == Dialect.POSTGRESQL && of != null && of == log && of.writeLog() != null && autoCommit && idsFrom < 0
                && (asksEveryId(of) || !namesItsRows)) {
            idsFrom = ask(FIRST_UNASSIGNED_ID);
        }
    }

    /** The first transaction id the server has not assigned yet (all below it have been). */
    private static final String FIRST_UNASSIGNED_ID = "SELECT pg_catalog.pg_snapshot_xmax(pg_catalog.pg_current_snapshot())::text";

    /**
     * One number from the server on the application's connection, by a read-only function call
     * that takes no lock, starts no snapshot the application would see and assigns no id; -1 when
     * it fails (the transaction is aborted, the connection broke), which leaves the check weaker.
     */
    private long ask(String sql) {
        try (java.sql.PreparedStatement statement = real.prepareStatement(sql); java.sql.ResultSet rs = statement.executeQuery()) {
            String value = rs.next() ? rs.getString(1) : null;
            return value == null ? -1 : Long.parseLong(value);
        } catch (SQLException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Whether every transaction that may have written asks the server its id, even one that can
     * be found in the log by the rows it changed: for tests that hold the two ways of matching
     * against each other ({@code WriteAttribution} checks that they agree).
     */
    private static volatile boolean askEveryId;

    /**
     * Whether {@code log}'s transaction asks its id even where its rows would find it in the log:
     * in tests that hold the two ways against each other, and in a test checked in rounds, whose
     * each round must place every write it can (rows alike, as hot rows' are, cannot tell
     * transactions apart, and a log's transaction no recorded one claims leaves its tables out).
     */
    private static boolean asksEveryId(TransactionLog log) {
        return askEveryId || log.recording().inRounds();
    }

    /** Has every transaction that may have written ask its id ({@link #askEveryId}); for tests. */
    public static void askEveryId(boolean ask) {
        askEveryId = ask;
    }

    /**
     * Learns, just before a transaction whose writes come from the log ends by committing, the
     * id the server gave it (none when it wrote nothing), so that the log's account of it can be
     * found; notes when the commit is sent. Not asked (a round trip saved on most transactions)
     * when the statements said exactly which rows the transaction changed: it is found in the log
     * by them ({@code WriteAttribution}).
     */
    private void learnId() {
        if (open && log != null && log.writeLog() != null && log.mayHaveWritten()) {
            // MariaDB's id of a transaction, its GTID, comes with its commit: asked after it ({@link #end}).
            if (dialect == Dialect.POSTGRESQL && (asksEveryId(log) || log.keysWritten().isEmpty())) {
                long xid = ask("SELECT pg_catalog.pg_current_xact_id_if_assigned()::text");
                if (xid >= 0) {
                    log.xid(xid);
                }
            }
            log.commitSent(System.nanoTime());
        }
    }

    /**
     * The statement to send instead of a write so that it returns its rows: for an UPDATE, new and
     * old versions where the server gives both ({@link #returnsOldRows}), else the new ones.
     */
    Optional<String> rewrite(AnalysedStatement.Write write, String sql) {
        if (!rewritable(write, sql) || dialect == Dialect.MARIADB && !serverFrom(10, 5)) {
            // MariaDB's INSERT ... RETURNING came in 10.5.
            return Optional.empty();
        }
        return dialect.rewriteWithOldRows(write, sql, majorVersion).or(() -> dialect.rewrite(write, sql));
    }

    /**
     * The statement to send instead of {@code sql}, a write with a RETURNING of its own, so that
     * its rows also return every column of its table, hidden from the application
     * ({@link ReturnedRowsTee}), with those columns' names (lower case) in order; empty where it
     * may not be rewritten ({@link #rewritable}), its table's columns are not known or not all
     * readable, or the dialect has no RETURNING.
     */
    Optional<ReturnedRowsTee.Plan> rewriteReturning(AnalysedStatement.Write write, String sql) {
        Optional<TableColumns> table = primaryKeys.columnsOf(write.table());
        if (!rewritable(write, sql) || table.isEmpty() || table.get().columns().isEmpty() || !table.get().allReadable()
                || table.get().rowSecurity()) {
            return Optional.empty();
        }
        java.util.List<String> names = new java.util.ArrayList<>(table.get().columns().keySet());
        java.util.List<String> quoted = new java.util.ArrayList<>();
        table.get().columns().values().forEach(column -> quoted.add(dialect.quote(column.name())));
        return dialect.returningAlso(sql, quoted).map(rewritten -> new ReturnedRowsTee.Plan(write, rewritten, java.util.List.copyOf(names)));
    }

    /**
     * The rows of {@code table} with {@code keys}, read back inside the transaction in progress
     * after an INSERT or UPDATE of them sent as written (MySQL, MariaDB: {@link Dialect#readsBackWrites}):
     * by primary key, every column, as a locking read. The caller has made sure the write locked
     * every one of those rows (it inserted or changed as many rows as there are keys) and the
     * transaction holds them, so the read waits for nothing, takes no lock the transaction lacks,
     * and sees the rows as the write left them; a locking read starts no snapshot, so the
     * application's next plain read sees what it would have. Not when the write left warnings (or
     * the driver does not say whether it did), which the read would clear before the application
     * asks for them. Empty when the table is not known or the read fails or is not sent; else the
     * rows found, which the caller counts.
     *
     * @param keys the value of each key column, by lower-case name, of each row
     */
    Optional<List<Map<String, Object>>> readBack(String table, List<Map<String, Object>> keys) {
        Optional<TableColumns> columns = primaryKeys.columnsOf(table);
        if (columns.isEmpty() || keys.isEmpty()
                || keys.stream().anyMatch(key -> !dev.isocheck.internal.recording.sql.SqlAnalyzer.sameColumns(key.keySet(), columns.get().key()))) {
            return Optional.empty();
        }
        List<String> key = columns.get().key();
        List<Object> values = new java.util.ArrayList<>();
        for (Map<String, Object> k : keys) {
            key.forEach(column -> values.add(k.get(column)));
        }
        return readBack(table, columns.get(), String.valueOf(keys.size()), () -> {
            if (key.size() == 1) {
                return quotedColumn(columns.get(), key.get(0)) + " IN ("
                        + String.join(", ", java.util.Collections.nCopies(keys.size(), "?")) + ")";
            }
            List<String> parts = new java.util.ArrayList<>();
            key.forEach(column -> parts.add(quotedColumn(columns.get(), column) + " = ?"));
            String one = "(" + String.join(" AND ", parts) + ")";
            return String.join(" OR ", java.util.Collections.nCopies(keys.size(), one));
        }, values);
    }

    /**
     * The row an INSERT just gave the number the database chose for {@code table}'s key
     * ({@link PrimaryKeys#autoIncrementKey}), read back as {@link #readBack(String, List)} reads:
     * the key is the session's {@code LAST_INSERT_ID()}, which the read leaves as it is. Only for
     * an INSERT of one row that named no key, whose number that is.
     */
    Optional<List<Map<String, Object>>> readBackLastInserted(String table) {
        Optional<TableColumns> columns = primaryKeys.columnsOf(table);
        Optional<String> numbered = primaryKeys.autoIncrementKey(table);
        if (columns.isEmpty() || numbered.isEmpty() || !dialect.isMysql()) {
            return Optional.empty();
        }
        return readBack(table, columns.get(), "0", () -> quotedColumn(columns.get(), numbered.get()) + " = LAST_INSERT_ID()", List.of());
    }

    /**
     * The rows of {@code table} that an UPDATE's own stable WHERE ({@link dev.isocheck.internal.recording.sql.StableWhere})
     * selects now, read back as {@link #readBack(String, List)} reads, with {@code values} for its
     * parameters: after the UPDATE, in its transaction, which holds every row it changed. The
     * caller counts them.
     */
    Optional<List<Map<String, Object>>> readBackWhere(String table, String where, List<Object> values) {
        Optional<TableColumns> columns = primaryKeys.columnsOf(table);
        if (columns.isEmpty()) {
            return Optional.empty();
        }
        return readBack(table, columns.get(), "where " + where, () -> where, values);
    }

    /** The columns of {@code table} the database computes, as last looked up ({@link PrimaryKeys#computedColumns}). */
    Optional<java.util.Set<String>> computedColumns(String table) {
        return primaryKeys.computedColumns(table);
    }

    /** The texts of the reads back sent on this connection, by table and number of rows. */
    private final Map<String, ReadBackText> readBackTexts = new java.util.concurrent.ConcurrentHashMap<>();

    /** A read back's text, and the look-up of its table it was built from. */
    private record ReadBackText(TableColumns columns, String sql) {
    }

    /**
     * The rows a write rewritten to return them ({@link #rewrite}) returns, sent on {@code statement}
     * ({@code sql}, or its prepared text when {@code null}): by {@code executeQuery}, or, on MySQL's
     * driver, which refuses a write there before sending it, by {@code execute} and its result.
     */
    java.sql.ResultSet returnedRows(Statement statement, String sql) throws SQLException {
        if (mysqlsDriver == null) {
            mysqlsDriver = ServerStatus.mysqlsDriver(real);
        }
        if (!mysqlsDriver) {
            return sql == null ? ((java.sql.PreparedStatement) statement).executeQuery() : statement.executeQuery(sql);
        }
        boolean result = sql == null ? ((java.sql.PreparedStatement) statement).execute() : statement.execute(sql);
        if (!result) {
            throw new SQLException("the rewritten write returned no rows");
        }
        return statement.getResultSet();
    }

    /** Whether the connection is MySQL's driver's, once asked. */
    private Boolean mysqlsDriver;

    /** Whether the server's version is {@code major.minor} or later. */
    private boolean serverFrom(int major, int minor) {
        return majorVersion > major || majorVersion == major && minorVersion >= minor;
    }

    /**
     * Whether the driver's update counts are the rows an UPDATE found (its default), so that 0
     * says its WHERE matched none; asked once ({@link ServerStatus#countsFoundRows}).
     */
    boolean countsFoundRows() {
        if (countsFoundRows == null) {
            countsFoundRows = ServerStatus.countsFoundRows(real);
        }
        return countsFoundRows;
    }

    private Boolean countsFoundRows;

    /** How many warnings the driver says the last statement left; -1 when it does not say. */
    int warnings() {
        return ServerStatus.warnings(real);
    }

    /** Whether {@code table} is known to have triggers or anything else that may write any table. */
    boolean writesAnywhere(String table) {
        return primaryKeys.writesAnywhere(table);
    }

    /**
     * Whether the server reads rows back with {@code FOR UPDATE SKIP LOCKED} (MariaDB 10.6 and
     * later, MySQL 8), so that a read back can never wait for a lock: a row another transaction
     * holds is skipped, the count of rows falls short, and the table is left out.
     */
    boolean skipsLocked() {
        return dialect == Dialect.MARIADB ? serverFrom(10, 6) : dialect == Dialect.MYSQL && serverFrom(8, 0);
    }

    /**
     * The session's {@code LAST_INSERT_ID()} (MySQL, MariaDB): the number the database gave the
     * key of the one row the last INSERT that numbered one wrote. A read of a session variable,
     * which takes no lock and starts no transaction; empty when it fails or is zero (none).
     */
    Optional<Object> lastInsertId() {
        if (!dialect.isMysql()) {
            return Optional.empty();
        }
        try (Statement statement = real.createStatement(); java.sql.ResultSet rs = statement.executeQuery("SELECT LAST_INSERT_ID()")) {
            Object value = rs.next() ? rs.getObject(1) : null;
            if (!(value instanceof Number n) || new java.math.BigDecimal(n.toString()).signum() == 0) {
                return Optional.empty();
            }
            java.math.BigInteger number = new java.math.BigDecimal(n.toString()).toBigIntegerExact();
            return Optional.of(number.bitLength() < 64 ? (Object) number.longValue() : number);
        } catch (SQLException | RuntimeException e) {
            return Optional.empty();
        }
    }

    /** The one column of {@code table}'s key that the database numbers itself, as last looked up. */
    Optional<String> autoIncrementKey(String table) {
        return primaryKeys.autoIncrementKey(table);
    }

    private String quotedColumn(TableColumns columns, String lower) {
        return dialect.quote(columns.columns().get(lower).name());
    }

    /**
     * Reads back the rows of {@code table} that {@code condition} selects, with {@code values} for
     * its parameters.
     *
     * @param shape what with the table makes the text, built once and kept: how many rows the
     *              condition names ("0": by {@code LAST_INSERT_ID()}), or the WHERE read by
     */
    private Optional<List<Map<String, Object>>> readBack(String table, TableColumns columns, String shape,
                                                         java.util.function.Supplier<String> condition, List<Object> values) {
        if (warnings() != 0 || !skipsLocked()) {
            // The read would clear the warnings the application has yet to ask for, or could wait.
            return Optional.empty();
        }
        if (!columns.allReadable() || !columns.columns().keySet().containsAll(columns.key())) {
            return Optional.empty();
        }
        // Kept with the look-up it was built from: a table looked up again (another test's schema)
        // has new columns, and gets a text of its own.
        ReadBackText kept = readBackTexts.get(table + '\u0000' + shape);
        if (kept == null || kept.columns() != columns) {
            Optional<String> name = primaryKeys.qualifiedName(table, dialect);
            if (name.isEmpty()) {
                return Optional.empty();
            }
            List<String> selected = new java.util.ArrayList<>();
            columns.columns().values().forEach(column -> selected.add(dialect.quote(column.name())));
            kept = new ReadBackText(columns, "SELECT " + String.join(", ", selected) + " FROM " + name.get()
                    + " WHERE " + condition.get() + " FOR UPDATE SKIP LOCKED");
            if (readBackTexts.size() >= 256) {
                readBackTexts.clear();
            }
            readBackTexts.put(table + '\u0000' + shape, kept);
        }
        String sql = kept.sql();
        try (java.sql.PreparedStatement read = real.prepareStatement(sql)) {
            for (int i = 0; i < values.size(); i++) {
                read.setObject(i + 1, values.get(i));
            }
            try (java.sql.ResultSet rs = read.executeQuery()) {
                List<Map<String, Object>> rows = new java.util.ArrayList<>();
                RowReader reader = null;
                while (rs.next()) {
                    if (reader == null) {
                        reader = new RowReader(rs, null);
                    }
                    rows.add(reader.row());
                    if (reader.ambiguous()) {
                        return Optional.empty();
                    }
                }
                return Optional.of(rows);
            }
        } catch (SQLException e) {
            Outcome ended = rolledBackByServer(e);
            if (ended != null) {
                // Not expected (the read waits for no lock), but should the server have ended the
                // transaction, what it wrote is not committed: the recording follows the server.
                synchronized (this) {
                    end(ended, false);
                }
            }
            return Optional.empty();
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** Whether {@link #rewrite} of {@code write} returns each row's new version followed by its old one. */
    boolean returnsOldRows(AnalysedStatement.Write write, String sql) {
        return rewritable(write, sql) && dialect.rewriteWithOldRows(write, sql, majorVersion).isPresent();
    }

    /**
     * Whether {@code sql} may be rewritten to return its rows; otherwise it is sent as written and
     * its table left out. Not when it ends in a semicolon (anything appended would follow it), nor
     * when its table is known to have triggers or rules (every table is left out anyway, and a rule
     * refuses RETURNING); on PostgreSQL only when the application's role may read every column and
     * no row-level security applies (RETURNING is subject to both, and could fail where the write
     * would not), as last looked up. A table not looked up yet (first met inside a transaction,
     * where no look-up is sent) is assumed readable, as a table the application writes usually is.
     */
    private boolean rewritable(AnalysedStatement.Write write, String sql) {
        if (WriteSuspicion.endsWithSemicolon(sql) || primaryKeys.writesAnywhere(write.table())) {
            return false;
        }
        if (dialect.isMysql()) {
            // RETURNING needs the right to read the columns it returns, where the write alone would not.
            return primaryKeys.columnsOf(write.table()).map(TableColumns::allReadable).orElse(true);
        }
        return dialect != Dialect.POSTGRESQL
                || primaryKeys.columnsOf(write.table()).map(c -> c.allReadable() && !c.rowSecurity()).orElse(true);
    }

    /**
     * The columns of {@code table}, looked up now if not yet known and the connection is between
     * transactions (a look-up inside the application's transaction could start its snapshot
     * early), or inside one on MySQL and MariaDB; empty when unknown.
     */
    synchronized Optional<TableColumns> columnsOf(String table) {
        boolean between = !open && idleAtServer();
        // MySQL's and MariaDB's catalog is the information schema, which no snapshot or row lock
        // covers: a look-up inside the application's transaction changes nothing it sees, and an
        // UPDATE's row can only be read back by a key known then.
        boolean inside = open && (dialect.isMysql());
        if (!primaryKeys.knows(table) && (between || inside)) {
            primaryKeys.lookUp(real, dialect, java.util.Set.of(table));
            if (between && !autoCommit) {
                try {
                    real.rollback();
                } catch (SQLException | RuntimeException ignored) {
                    // Nothing was written; the application's next statement finds out about a broken connection.
                }
            }
        }
        return primaryKeys.columnsOf(table);
    }

    /** Whether the log shows a row of {@code table} an UPDATE or DELETE named as that row ({@link PrimaryKeys#logsItsOwnRows}). */
    boolean logsItsOwnRows(String table) {
        return primaryKeys.logsItsOwnRows(table);
    }

    /**
     * Whether an UPDATE or DELETE of {@code table} changes exactly the rows its WHERE matched, and
     * its update count says how many: the log names them as the table's ({@link #logsItsOwnRows}:
     * no rules, no inheritance children), and no trigger may skip a row (a BEFORE trigger returning
     * NULL) or write elsewhere, as last looked up.
     */
    boolean changesWhatItMatches(String table) {
        return primaryKeys.logsItsOwnRows(table) && !primaryKeys.writesAnywhere(table);
    }

    /**
     * Whether an UPDATE or DELETE of {@code table} (named as the connection's own) that the driver
     * says changed no row matched none: on PostgreSQL where it changes exactly what it matches
     * ({@link #changesWhatItMatches}); on MariaDB where the driver counts the rows found (its
     * default), of a table looked up in this test (no rules or inheritance there, and a trigger
     * cannot skip a row it matched but by failing the statement).
     */
    boolean zeroMeansMatchedNothing(String table) {
        if (dialect == Dialect.MARIADB) {
            return countsFoundRows() && primaryKeys.knows(table);
        }
        return changesWhatItMatches(table);
    }

    /**
     * Whether a boolean column holds only what the checker reads it as: not on MySQL and MariaDB,
     * whose BOOLEAN is TINYINT(1) (2 reads as true, yet {@code = TRUE} does not select it).
     */
    boolean booleansExact() {
        return !dialect.isMysql();
    }

    /** Whether a primary key column of {@code table} is one the database computes, as last looked up. */
    boolean keyComputed(String table) {
        return primaryKeys.keyComputed(table);
    }

    /** The columns of {@code table} as already looked up, without looking up (empty when not yet known). */
    Optional<TableColumns> knownColumnsOf(String table) {
        return primaryKeys.columnsOf(table);
    }

    /** Whether {@code table}'s key and columns were looked up (whether or not it has a key). */
    boolean knowsColumnsOf(String table) {
        return primaryKeys.knows(table);
    }

    /** The exact names of every column of {@code table}, when known (and its key too); empty otherwise. */
    Optional<String[]> everyColumn(String table) {
        return columnsOf(table).filter(c -> !c.columns().isEmpty() && c.allReadable())
                .map(c -> c.columns().values().stream().map(TableColumns.Column::name).toArray(String[]::new));
    }

    /**
     * What to ask the driver for in place of the generated keys the application asked for
     * ({@code keys}: {@code RETURN_GENERATED_KEYS}, column indexes or names), so that the keys are
     * every column of the rows written and the application's own come first; empty when there is
     * no such request (then the write leaves its table out).
     *
     * <ul>
     *   <li>{@code RETURN_GENERATED_KEYS} on PostgreSQL: as it is, the driver returns every column;</li>
     *   <li>column names on PostgreSQL, H2 and HSQLDB: the application's, then the table's other
     *       columns (on PostgreSQL only plain lower-case names, which mean the same quoted or not);</li>
     *   <li>anything else ({@code RETURN_GENERATED_KEYS} elsewhere: which columns the driver picks is
     *       its own rule; column indexes): none.</li>
     * </ul>
     */
    Optional<Object> keysRequest(AnalysedStatement.Write write, Object keys) {
        if (Integer.valueOf(Statement.RETURN_GENERATED_KEYS).equals(keys)) {
            return dialect == Dialect.POSTGRESQL ? Optional.of(keys) : Optional.empty();
        }
        if (!(keys instanceof String[] names) || names.length == 0 || !dialect.returnsKeysByName()) {
            return Optional.empty();
        }
        return everyColumn(write.table()).flatMap(all -> {
            java.util.List<String> request = new java.util.ArrayList<>(java.util.Arrays.asList(names));
            for (String column : all) {
                if (java.util.Arrays.stream(names).noneMatch(column::equalsIgnoreCase)) {
                    if (dialect == Dialect.POSTGRESQL && !column.matches("[a-z_][a-z0-9_]*")) {
                        return Optional.empty();
                    }
                    request.add(column);
                }
            }
            return Optional.of(request.toArray(String[]::new));
        });
    }

    /** The form to send a query in so that the recorder sees the rows it ranges over, when there is one. */
    Optional<HiddenColumns> hiddenColumns(AnalysedStatement analysed, String sql) {
        if (analysed instanceof AnalysedStatement.Joined joined) {
            if (Recording.current().isEmpty() || dialect == Dialect.OTHER) {
                return Optional.empty();
            }
            List<TableColumns> tables = new java.util.ArrayList<>();
            for (AnalysedStatement.Joined.Source source : joined.sources()) {
                Optional<TableColumns> columns = columnsOf(source.table());
                if (columns.isEmpty()) {
                    return Optional.empty();
                }
                tables.add(columns.get());
            }
            return HiddenColumns.join(joined, sql, tables, dialect);
        }
        String table = analysed instanceof AnalysedStatement.Query q ? q.table()
                : analysed instanceof AnalysedStatement.Aggregate a ? a.table() : null;
        if (table == null || Recording.current().isEmpty() || analysed instanceof AnalysedStatement.Aggregate
                && dialect == Dialect.MARIADB && !serverFrom(10, 5)) {
            // MariaDB's JSON_ARRAYAGG came in 10.5.
            return Optional.empty();
        }
        return columnsOf(table).flatMap(columns -> HiddenColumns.plan(analysed, sql, columns, dialect));
    }

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, real, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        switch (method.getName()) {
            case "createStatement":
                return RecordedStatement.wrap(new StatementLogic(this, (Statement) Proxies.call(real, method, args)), Statement.class);
            case "prepareStatement":
                return StatementPreparation.prepare(this, real, method, args);
            case "prepareCall":
                return RecordedStatement.wrap(new PreparedStatementLogic(this, (CallableStatement) Proxies.call(real, method, args),
                        (String) args[0], PreparedMode.AS_WRITTEN), CallableStatement.class);
            case "commit":
                return GatePoint.pass("commit", this::lockProbe, () -> {
                    commit(method, args);
                    return null;
                });
            case "rollback":
                if (args != null && args.length == 1) {
                    rollback(method, args);
                    return null;
                }
                return GatePoint.pass("rollback", this::lockProbe, () -> {
                    rollback(method, args);
                    return null;
                });
            case "setSavepoint":
                return savepoint(method, args);
            case "setAutoCommit":
                setAutoCommit(method, args);
                return null;
            case "close":
            case "abort":
                close(method, args);
                return null;
            case "getMetaData":
                return metaData((DatabaseMetaData) Proxies.call(real, method, args));
            case "unwrap":
                return unwrap(method, args);
            case "setCatalog":
                catalogSet((String) args[0]);
                return Proxies.call(real, method, args);
            default:
                return Proxies.call(real, method, args);
        }
    }

    /**
     * What tells an interleaving test's gate whether this connection's statement waits for a
     * lock: on PostgreSQL, asked of the server on a connection of the recorder's own; elsewhere
     * {@code null} (an embedded database's lock waits park the thread, which the gate sees).
     */
    LockProbe lockProbe() {
        Object known = lockProbe;
        if (known == null) {
            known = dialect == Dialect.POSTGRESQL && decoding != null
                    ? PostgresLockProbe.of(real, decoding.side()).map(Object.class::cast).orElse(NO_PROBE) : NO_PROBE;
            lockProbe = known;
        }
        return known == NO_PROBE ? null : (LockProbe) known;
    }

    /** The database this connection reached, learnt once; {@code null} before. */
    private dev.isocheck.internal.recording.DatabaseIdentity database;

    /** Which database this connection reached, by the name its URL gives (the driver's answer, no round trip). */
    private dev.isocheck.internal.recording.DatabaseIdentity database() {
        if (database == null) {
            String url;
            try {
                url = real.getMetaData().getURL();
            } catch (SQLException | RuntimeException e) {
                url = null;
            }
            database = dev.isocheck.internal.recording.DatabaseIdentity.of(url, dialect.isMysql());
        }
        return database;
    }

    /** Called before a statement is sent: starts a transaction when none is in progress. */
    synchronized TransactionLog beforeExecute() {
        if (autoCommit && open) {
            // The previous auto-commit statement's result was still open; it committed long ago.
            end(Outcome.COMMITTED, true);
        }
        if (!open) {
            open = true;
            doomedAt = -1;
            partlyCommitted = false;
            severalServerTransactions = false;
            List<Recording> recordings = Recording.currentAll();
            long start = Recording.start(recordings);
            log = recordings.isEmpty() ? null
                    : new TransactionLog(recordings.get(0), sessionIn(recordings.get(0)), Thread.currentThread().getName(), start);
            if (log != null) {
                log.database(database());
            }
            if (log != null && decoding != null) {
                log.writesFrom(decoding.logFor(log.recording()).orElse(null), autoCommit);
                if (dialect == Dialect.MARIADB && log.writeLog() != null && lastGtid == GTID_UNKNOWN) {
                    // Where this session stands before the transaction: its GTID is the next one it commits.
                    lastGtid = askGtid(log);
                }
            }
            for (Recording other : recordings.subList(Math.min(1, recordings.size()), recordings.size())) {
                log.alsoFor(new TransactionLog.Also(other, other.sessionOf(this),
                        decoding == null ? null : decoding.logFor(other).orElse(null)));
            }
            if (recordings.size() > 1) {
                recordings.forEach(each -> each.notModelled(new NotModelled("transactions of threads that tests running at once shared",
                        "a thread not bound to one test (a shared executor's, or one started before the tests) ran them"
                                + " while several tests were in progress: they are recorded in each of those tests' histories")));
            }
            if (unwrapped) {
                markUnwrapped(log);
            }
        }
        return log;
    }

    /**
     * This connection's session name in {@code recording}, asked of the recording once: every
     * recorded thread's transactions would otherwise meet at the recording's lock to learn it.
     */
    private String sessionIn(Recording recording) {
        if (sessionOf.get() != recording) {
            session = recording.sessionOf(this);
            // Weakly: a pooled connection must not keep a finished test's history alive.
            sessionOf = new java.lang.ref.WeakReference<>(recording);
        }
        return session;
    }

    /**
     * Called after a statement returned or failed.
     *
     * @param failure    what it threw, {@code null} when it succeeded
     * @param resultOpen whether it left a result open (an auto-commit transaction then ends with it)
     */
    synchronized void afterExecute(SQLException failure, boolean resultOpen) {
        if (failure != null && !autoCommit && open && (dialect.isMysql())) {
            Outcome ended = rolledBackByServer(failure);
            if (ended != null) {
                // The server ended the transaction itself: the application's next statement starts
                // another, whether or not it calls rollback() first.
                end(ended, false);
                return;
            }
        }
        if (failure != null && dooms(failure)) {
            doomedAt = log == null ? 0 : log.mark();
        }
        // MariaDB's GTID of an auto-commit statement is asked as it ends ({@link #end}); PostgreSQL's id range here.
        if (dialect == Dialect.POSTGRESQL && autoCommit && open && log != null && log.writeLog() != null && log.mayHaveWritten()
                && !asksEveryId(log) && log.keysWritten().isPresent()) {
            // Found in the log by the rows it changed: no id range needed.
            idsFrom = -1;
        } else if (dialect == Dialect.POSTGRESQL && autoCommit && open && log != null && log.writeLog() != null
                && log.mayHaveWritten()) {
            // The statement's transaction has ended at the server (an open result is buffered):
            // its id lies below what the server has not assigned yet.
            long until = ask(FIRST_UNASSIGNED_ID);
            if (idsFrom >= 0 && until >= 0) {
                log.idsBetween(idsFrom, until);
            }
            idsFrom = until;
        }
        if (autoCommit && open && failure != null && log != null && log.writeLog() == null && connectionLost(failure)) {
            // The server may have committed the statement after the client gave up on it (a
            // socket timeout): what it wrote is not known, nor whether it stands.
            log.add(new Observation.LeftOut(Optional.empty(), "the statement that failed",
                    "an auto-commit statement failed as its connection broke (" + failure.getSQLState()
                            + "): it may have committed, and what it wrote is not known"));
            end(Outcome.UNKNOWN, false);
            return;
        }
        if (autoCommit && open && (failure != null || !resultOpen)) {
            end(failure == null ? Outcome.COMMITTED : Outcome.ABORTED, true);
        }
    }

    /**
     * On MariaDB, after a transaction ended: the GTID it committed under, asked of the session
     * ({@code @@last_gtid}, which asks the server nothing else, takes no lock and begins no
     * transaction), where its writes come from the binary log. The answer is its GTID when it
     * differs from the session's before the transaction, and says it committed no row when it is
     * the same. Where it cannot be asked, or the transaction was not recorded, or SQL text or DDL
     * may have committed part of it, the session's last GTID is unknown until asked again, and a
     * recorded transaction is found in the log by other means or not at all.
     */
    private void learnGtid(TransactionLog ended, Outcome outcome, boolean mayQuery) {
        if (dialect != Dialect.MARIADB || decoding == null) {
            return;
        }
        if (outcome == Outcome.ABORTED && !partlyCommitted) {
            // A rolled-back transaction commits nothing, but for its writes to a non-transactional
            // table (Aria, MyISAM), which the log holds under a GTID of their own.
            if (ended == null || ended.mayHaveWritten()) {
                lastGtid = GTID_UNKNOWN;
            }
            return;
        }
        boolean asks = ended != null && ended.writeLog() != null && ended.mayHaveWritten();
        if (!asks) {
            if (ended == null || ended.mayHaveWritten() || ended.controlledBySql()) {
                lastGtid = GTID_UNKNOWN;
            }
            return;
        }
        long before = lastGtid;
        // Not after a statement that left warnings (or where the driver does not say whether it
        // did): asking would clear them before the application asks for them.
        lastGtid = outcome == Outcome.COMMITTED && mayQuery && warnings() == 0 ? askGtid(ended) : GTID_UNKNOWN;
        if (outcome != Outcome.COMMITTED || partlyCommitted || severalServerTransactions || ended.controlledBySql()
                || before == GTID_UNKNOWN || lastGtid == GTID_UNKNOWN) {
            return;
        }
        ended.xid(lastGtid == before ? NO_ROW_COMMITTED : lastGtid);
    }

    /**
     * The session's {@code @@last_gtid} as one number, -1 for none yet; {@link #GTID_UNKNOWN} when
     * it cannot be asked. Asked with {@code sql_log_bin}: a session that keeps its writes out of the
     * log ({@code SET sql_log_bin = 0}) leaves {@code of}'s log incomplete, which it is told.
     */
    private long askGtid(TransactionLog of) {
        try (Statement statement = real.createStatement();
             java.sql.ResultSet rs = statement.executeQuery("SELECT @@last_gtid, @@session.sql_log_bin")) {
            String gtid = rs.next() ? rs.getString(1) : null;
            if (!rs.getBoolean(2) && of != null && of.writeLog() != null) {
                // The session writes nothing to the log: what it committed is in no account.
                of.writeLog().sessionChanged("sql_log_bin");
            }
            if (gtid == null || gtid.isEmpty()) {
                return -1;
            }
            long id = dev.isocheck.internal.recording.decoding.MariadbWriteLog.id(gtid);
            return id < 0 ? GTID_UNKNOWN : id;
        } catch (SQLException | RuntimeException e) {
            return GTID_UNKNOWN;
        }
    }

    /**
     * Notes that what is about to be sent may commit as several transactions of MariaDB's
     * ({@link #severalServerTransactions}): in auto-commit mode unless {@code evenInATransaction}
     * (a procedure may commit inside one).
     */
    synchronized void maySendSeveralTransactions(boolean evenInATransaction) {
        if (dialect == Dialect.MARIADB && (autoCommit || evenInATransaction)) {
            severalServerTransactions = true;
        }
    }

    /**
     * On MariaDB with the binary log: a connection moved to another database, whose rows the
     * log's account of the recording's database does not hold ({@link WriteLog#databaseUsed}).
     */
    private synchronized void catalogSet(String catalog) {
        if (dialect == Dialect.MARIADB && decoding != null) {
            Recording.currentAll().forEach(recording -> decoding.logFor(recording).ifPresent(log -> log.databaseUsed(catalog)));
        }
    }

    /** Whether {@code e} says the connection broke (SQLSTATE class 08, or the driver closed it), asking the server nothing. */
    private boolean connectionLost(SQLException e) {
        String state = e.getSQLState();
        try {
            return state != null && state.startsWith("08") || real.isClosed();
        } catch (SQLException | RuntimeException broken) {
            return true;
        }
    }

    /** Called when a result is closed or read to its end: ends the auto-commit transaction it kept open. */
    synchronized void resultDone(TransactionLog of) {
        if (autoCommit && open && log == of) {
            end(Outcome.COMMITTED, true);
        }
    }

    /** Notes a result the recorder reads along with the application ({@link ReadAlong}), until it is resolved. */
    synchronized void readAlongPending(ReadAlong keys) {
        unreadKeys.add(keys);
    }

    /**
     * Called when a result read along was read to its end or given up: what it leaves out, if
     * anything, goes into its transaction, which in auto-commit mode it kept open.
     */
    synchronized void readAlongResolved(ReadAlong keys, TransactionLog of, Observation leftOut) {
        if (!unreadKeys.remove(keys)) {
            return;
        }
        observe(of, leftOut);
        if (unreadKeys.isEmpty()) {
            resultDone(of);
        }
    }

    /** Whether the connection is in auto-commit mode, as the application last set it. */
    synchronized boolean autoCommit() {
        return autoCommit;
    }

    /** Called before DDL on a database that commits the transaction in progress before DDL. */
    synchronized void implicitCommit() {
        if (!autoCommit) {
            partlyCommitted = true;
        }
    }

    /** Adds {@code observation} to {@code to}, if it is the transaction still in progress here. */
    synchronized void observe(TransactionLog to, Observation observation) {
        if (to != null && observation != null && to == log) {
            to.add(observation);
        }
    }

    /**
     * A failure while the application fetched rows (not inside an execute call): on a database
     * where it aborts the transaction, the transaction can no longer commit, whatever its commit
     * answers (a driver that does not raise on a silent rollback).
     */
    synchronized void failedWhileFetching(SQLException e) {
        if (open && dooms(e) && doomedAt < 0) {
            doomedAt = log == null ? 0 : log.mark();
        }
    }

    /**
     * How a failed statement ended the transaction on MySQL or MariaDB, whose errors roll back the
     * statement alone, but for these: a deadlock (1213) or, in MariaDB with
     * {@code innodb_snapshot_isolation}, a row changed since the snapshot (1020) roll back the whole
     * transaction; a lock wait timeout (1205) does too where {@code innodb_rollback_on_timeout} is
     * on, which the recorder does not ask, so what came before it may or may not stand.
     * {@code null} when the transaction goes on.
     */
    private static Outcome rolledBackByServer(SQLException failure) {
        int code = failure.getErrorCode();
        if (code == 1213 || code == 1020 || "40001".equals(failure.getSQLState())) {
            return Outcome.ABORTED;
        }
        return code == 1205 ? Outcome.UNKNOWN : null;
    }

    private boolean dooms(SQLException e) {
        String state = e.getSQLState();
        return "40001".equals(state) || "40P01".equals(state) || dialect.abortsOnError() && !savesEachStatement
                || state != null && state.startsWith("08");
    }

    /** Whether pgjdbc's {@code autosave} is {@code always} on {@code real}, asked of the driver. */
    private static boolean autosaveAlways(Connection real) {
        try {
            Object pg = real.unwrap(Class.forName("org.postgresql.PGConnection", false, real.getClass().getClassLoader()));
            return "ALWAYS".equals(String.valueOf(pg.getClass().getMethod("getAutosave").invoke(pg)));
        } catch (ReflectiveOperationException | SQLException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    /**
     * Hands out the driver's own object, and notes that the application may now act through it
     * unseen: where the writes come from the statements, every transaction on this connection
     * from now on leaves every table out; where they come from the log, its writes are not placed
     * among its reads.
     */
    private synchronized Object unwrap(Method method, Object[] args) throws Throwable {
        Object unwrapped = Proxies.call(real, method, args);
        if (!this.unwrapped) {
            this.unwrapped = true;
            if (open) {
                markUnwrapped(log);
            }
        }
        return unwrapped;
    }

    private void markUnwrapped(TransactionLog of) {
        if (of == null) {
            return;
        }
        of.add(of.writeLog() != null ? new Observation.MayHaveWritten(Optional.empty(), -1)
                : new Observation.LeftOut(Optional.empty(), "Connection.unwrap",
                        "the application used the driver's own connection (unwrap), whose work the recorder does not see"));
    }

    private synchronized void commit(Method method, Object[] args) throws Throwable {
        learnId();
        try {
            Proxies.call(real, method, args);
        } catch (SQLException e) {
            if (open) {
                end(unknownOutcome(e) ? Outcome.UNKNOWN : Outcome.ABORTED, false);
            }
            throw e;
        }
        if (open) {
            end(Outcome.COMMITTED, true);
        }
    }

    private synchronized void rollback(Method method, Object[] args) throws Throwable {
        if (args != null && args.length == 1) {
            Proxies.call(real, method, args);
            Integer mark = savepoints.get((Savepoint) args[0]);
            if (mark != null && log != null) {
                log.rollbackTo(mark);
            }
            if (mark != null && doomedAt >= mark) {
                doomedAt = -1;
            }
            return;
        }
        try {
            Proxies.call(real, method, args);
        } finally {
            if (open) {
                end(Outcome.ABORTED, true);
            }
        }
    }

    private synchronized Object savepoint(Method method, Object[] args) throws Throwable {
        beforeExecute();
        Savepoint savepoint = (Savepoint) Proxies.call(real, method, args);
        savepoints.put(savepoint, log == null ? 0 : log.mark());
        return savepoint;
    }

    private synchronized void setAutoCommit(Method method, Object[] args) throws Throwable {
        boolean on = (Boolean) args[0];
        if (on == autoCommit) {
            Proxies.call(real, method, args);
            return;
        }
        if (on) {
            learnId();
        }
        try {
            Proxies.call(real, method, args);
        } catch (SQLException e) {
            if (open && on) {
                end(unknownOutcome(e) ? Outcome.UNKNOWN : Outcome.ABORTED, false);
            }
            throw e;
        }
        if (open) {
            // Switching auto-commit on commits the transaction in progress; switching it off ends
            // the auto-commit statement whose result was still open.
            end(Outcome.COMMITTED, true);
        }
        autoCommit = on;
    }

    private synchronized void close(Method method, Object[] args) throws Throwable {
        if (open) {
            // Work pending at close is rolled back (as PostgreSQL, H2 and HSQLDB do); an auto-commit
            // statement whose result was open committed already.
            end(autoCommit ? Outcome.COMMITTED : Outcome.ABORTED, false);
        }
        Proxies.call(real, method, args);
    }

    /** A failed commit whose outcome is not known: the connection broke before the answer came. */
    private boolean unknownOutcome(SQLException e) {
        String state = e.getSQLState();
        if ("40001".equals(state) || "40P01".equals(state)) {
            return false;
        }
        try {
            return state == null || state.startsWith("08") || real.isClosed() || !real.isValid(1);
        } catch (SQLException | RuntimeException broken) {
            return true;
        }
    }

    /**
     * Ends the transaction in progress.
     *
     * @param mayQuery whether the connection is idle and working, so that primary keys not yet
     *                 known may be looked up on it
     */
    private void end(Outcome outcome, boolean mayQuery) {
        long end = System.nanoTime();
        open = false;
        savepoints.clear();
        TransactionLog ended = log;
        log = null;
        if (ended != null) {
            unreadKeys.forEach(keys -> keys.transactionEnded(ended));
        }
        unreadKeys.clear();
        learnGtid(ended, outcome, mayQuery);
        if (ended == null) {
            return;
        }
        if (unwrapped && ended.writeLog() != null) {
            // Its writes may have come at any point, through the driver's own connection.
            ended.add(new Observation.MayHaveWritten(Optional.empty(), -1));
        }
        if (doomedAt >= 0 && outcome == Outcome.COMMITTED) {
            outcome = Outcome.ABORTED;
        }
        if (partlyCommitted && outcome == Outcome.ABORTED) {
            outcome = Outcome.UNKNOWN;
        }
        // Not on MySQL or MariaDB, which look tables up before the statements that name them: a
        // look-up here would clear the warnings, ROW_COUNT() and FOUND_ROWS() of the application's
        // last statement, which it may still ask for.
        if (mayQuery && !dialect.isMysql()
                && !ended.tablesAll(primaryKeys.knowsFor(ended.recording()))) {
            lookUpKeys(ended);
        }
        try {
            ended.finish(end, outcome, primaryKeys);
        } catch (RuntimeException e) {
            // A recorder failure must not reach the application; the check must not trust a partial history.
            ended.recording().failed("the recorder failed on a transaction of " + ended.session() + ": " + e);
            ended.abandon();
        }
    }

    /**
     * Whether the server has no transaction in progress on this connection, as the driver says
     * (PostgreSQL's {@code getTransactionState}): the application may have begun one the recorder
     * did not see (through {@code unwrap}, COPY, a large object), which a look-up and the rollback
     * that ends it must never touch. True where the driver does not say.
     */
    private boolean idleAtServer() {
        if (dialect.isMysql()) {
            return ServerStatus.idle(real);
        }
        if (dialect != Dialect.POSTGRESQL) {
            return true;
        }
        try {
            Object base = real.unwrap(Class.forName("org.postgresql.core.BaseConnection", false, real.getClass().getClassLoader()));
            Object state = base.getClass().getMethod("getTransactionState").invoke(base);
            return "IDLE".equals(String.valueOf(state));
        } catch (ReflectiveOperationException | SQLException | RuntimeException | LinkageError e) {
            return false;
        }
    }

    private void lookUpKeys(TransactionLog ended) {
        if (!idleAtServer()) {
            return;
        }
        primaryKeys.lookUp(real, dialect, ended.tables());
        if (!autoCommit) {
            try {
                // The look-up may have begun a transaction; end it so that the application's next
                // one starts when it would have.
                real.rollback();
            } catch (SQLException | RuntimeException ignored) {
                // Nothing was written; the application's next statement finds out about a broken connection.
            }
        }
    }

    private DatabaseMetaData metaData(DatabaseMetaData metaData) {
        return Proxies.create(DatabaseMetaData.class, (p, method, args) -> {
            Object common = Proxies.common(p, metaData, method, args);
            if (common != Proxies.NOT_COMMON) {
                return common;
            }
            return method.getName().equals("getConnection") && method.getParameterCount() == 0
                    ? proxy : Proxies.call(metaData, method, args);
        });
    }

}
