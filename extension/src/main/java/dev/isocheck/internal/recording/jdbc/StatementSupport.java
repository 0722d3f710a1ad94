package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Observation;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.RecordedTransaction;
import dev.isocheck.internal.recording.StatementNames;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Opaque;
import dev.isocheck.internal.recording.sql.UnseenReads;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Operand;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import dev.isocheck.internal.recording.sql.ColumnValues;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.Dialect;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.WriteSuspicion;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * What the recorder does alike for every kind of statement, however its SQL comes: it records
 * the statement sent, leaves out the tables of what it cannot see, observes the reads of a query's
 * result (handed out at once, or fetched later with {@code getResultSet}), and sends a statement
 * with columns hidden from the application, falling back to the statement as written where that
 * fails. The base of the logic classes, as datasource-proxy's {@code ProxyLogicSupport} is of its.
 *
 * <p>What every kind keeps of its last execution, for the application to ask about, each in a
 * class saying when it is live: the result an {@code execute()} left for {@code getResultSet}
 * ({@link PendingResult}), the count a rewritten write answers with ({@link RewrittenAnswer}), and
 * the generated keys where the recorder asked for keys of its own ({@link GeneratedKeysAnswer}).
 */
abstract class StatementSupport {

    final RecordedConnection connection;
    /** The driver's statement the application's calls go to; for a prepared one, what the recorder prepared. */
    final Statement real;
    /**
     * The SQL a prepared or callable statement was prepared with, sent with the parameters bound;
     * {@code null} for a plain Statement.
     */
    final String preparedSql;
    /**
     * The parameters bound so far, which the statement's WHERE is read with: a prepared
     * statement's (SQL text run on it is read with them too); a plain Statement's stay empty.
     */
    final BoundParameters parameters = new BoundParameters();
    /** The proxy the application holds, which results and generated keys name as their statement. */
    Statement proxy;
    /** The result an {@code execute()} left for {@code getResultSet()}; {@code null} when none. */
    private PendingResult pending;
    /** What the last execution answers when it was sent as a rewritten write; {@code null} when it was not. */
    RewrittenAnswer rewrittenAnswer;
    final GeneratedKeysAnswer keys = new GeneratedKeysAnswer();
    /** Sends the writes whose rows the recorder reads back. */
    final WrittenRows writes;
    /**
     * The rows of the last execution's own RETURNING, which the recorder reads along with the
     * application ({@link ReturnedRowsTee}); {@code null} when it had none. Until the next
     * execution or the statement's close, where what the application left is read.
     */
    private ReturnedRowsTee returned;
    /** The reads inside the statement being sent that its update count will decide; {@code null} when none. */
    private SubqueryReads decidedByCount;
    /** The predicate read of the WHERE of the write being sent as written, if it changes nothing; {@code null} when none. */
    private UnmatchedWhere unmatched;

    StatementSupport(RecordedConnection connection, Statement real, String preparedSql) {
        this.connection = connection;
        this.real = real;
        this.preparedSql = preparedSql;
        this.writes = new WrittenRows(this);
    }

    /**
     * The statement as this connection can record it: a MERGE only where it is sent plainly
     * ({@code plain}: no generated keys, not in a batch) to a database that returns its rows with
     * their old versions (PostgreSQL 18), which tell an insert, an update and a delete apart, or
     * where the database's log records the writes; anywhere else its table is left out.
     */
    static AnalysedStatement seen(RecordedConnection connection, AnalysedStatement analysed, String sql, boolean plain) {
        if (analysed instanceof Write write && write.kind() == WriteKind.MERGE && !(plain && connection.returnsOldRows(write, sql))
                && !connection.decodesWrites()) {
            return new Opaque(Optional.of(write.table()),
                    "a MERGE, whose rows only PostgreSQL 18 returns with their old versions (sent plainly, not in a batch)");
        }
        return analysed;
    }

    /** An {@code execute…} call begins: what the previous execution left to ask about is gone. */
    void newExecution() {
        // Any execution that did not say what it wrote leaves its reads inside unchecked, and said so.
        wrote(-1);
        drainReturned();
        rewrittenAnswer = null;
        // A result the last execute() left and the application never fetched is closed by the
        // driver now; what getResultSet() returns from here on is this execution's.
        pending = null;
        keys.newExecution();
    }

    /**
     * The driver's statement that ran the last execution in place of {@link #real}, which answers
     * what the application asks about it; {@code null} when {@link #real} ran it.
     */
    Statement ranOn() {
        return null;
    }

    /** A statement never executed, whose generated keys the application gets where the recorder took the keys. */
    Statement newStandIn() throws Throwable {
        return real.getConnection().createStatement();
    }

    Object generatedKeys(Method method, Object[] args) throws Throwable {
        return keys.answer(method, args, answering(), this::newStandIn);
    }

    /** Answers {@code getUpdateCount}, or {@code getLargeUpdateCount} when {@code large}. */
    Object updateCount(Method method, Object[] args, boolean large) throws Throwable {
        if (rewrittenAnswer == null) {
            return Proxies.call(answering(), method, args);
        }
        return large ? (Object) rewrittenAnswer.count() : (Object) (int) rewrittenAnswer.count();
    }

    /** The execution just sent returns its RETURNING's rows through {@code tee}. */
    void returnedRows(ReturnedRowsTee tee) {
        returned = tee;
    }

    /** Reads what the application left of the last RETURNING's rows, which it gives up now. */
    void drainReturned() {
        if (returned != null) {
            returned.drain();
            returned = null;
        }
    }

    Object resultSet(Method method, Object[] args) throws Throwable {
        if (rewrittenAnswer != null) {
            return null;
        }
        if (returned != null) {
            return returned.forApplication();
        }
        Statement other = ranOn();
        return other != null ? Proxies.call(other, method, args) : observePending((ResultSet) Proxies.call(real, method, args));
    }

    Object moreResults(Method method, Object[] args) throws Throwable {
        // Moving on closes the current result in the driver (unless the application keeps it open,
        // which the recorder does not follow): what it left of the RETURNING's rows is read first.
        drainReturned();
        if (rewrittenAnswer != null) {
            rewrittenAnswer = rewrittenAnswer.movedPast();
            return false;
        }
        return Proxies.call(answering(), method, args);
    }

    /** The statement that ran the last execution, which answers for it. */
    private Statement answering() {
        Statement other = ranOn();
        return other != null ? other : real;
    }

    /**
     * Sends a statement, unchanged or with hidden columns added; records its reads, or its table
     * as left out when it writes.
     *
     * @param hidden   the columns added to the statement in {@code args}, {@code null} for none
     * @param fallback the application's own arguments, to send when the statement with hidden
     *                 columns fails on a database where a failure leaves the transaction usable, so
     *                 that the application gets the original's answer; {@code null} for none
     */
    Object execute(AnalysedStatement analysed, String sql, Statement target, Method method, Object[] args,
                   HiddenColumns hidden, Object[] fallback) throws Throwable {
        TransactionLog log = connection.beforeExecute();
        if (!connection.dialect().transactionalDdl() && SqlAnalyzer.commitsImplicitly(sql)) {
            connection.implicitCommit();
        }
        statement(log, sql);
        RowsRead read = rowsRead(analysed, hidden);
        boolean logged = log != null && log.writeLog() != null;
        // An UPDATE or INSERT sent as written on MySQL or MariaDB: its rows read back after it.
        boolean readsBack = log != null && !logged && connection.dialect().readsBackWrites() && analysed instanceof Write written
                && (written.kind() == AnalysedStatement.WriteKind.UPDATE || written.kind() == AnalysedStatement.WriteKind.INSERT)
                && target == real;
        if (logged && analysed instanceof Write write) {
            unmatched = UnmatchedWhere.of(connection, log, write, sql, sql.equals(preparedSql) ? parameters.snapshot() : List.of())
                    .orElse(null);
        }
        boolean mayWrite = logged && (WriteSuspicion.mayWrite(analysed, sql) || real instanceof CallableStatement);
        // The rows it will have changed if it changes one, worked out once: they decide whether
        // its id range is asked before it, and are its rows when the driver answers 1.
        Set<String> keysIfOne = mayWrite && analysed instanceof Write write && connection.logsItsOwnRows(write.table())
                ? WrittenKeys.of(write, 1L, parameters.snapshot(), connection.knownColumnsOf(write.table())) : null;
        if (logged) {
            if (WriteSuspicion.controlsTransaction(sql)) {
                connection.observe(log, new LeftOut(Optional.empty(), sql, RecordedTransaction.TRANSACTION_CONTROL));
            }
            if (mayWrite) {
                connection.beforeWrite(log, keysIfOne != null);
            }
            if (WriteSuspicion.severalStatements(sql)) {
                connection.maySendSeveralTransactions(false);
            }
            if (real instanceof CallableStatement || CALL_OR_IMPLICIT_COMMIT.matcher(sql).find()) {
                // A procedure may commit inside; LOCK TABLES, FLUSH, OPTIMIZE and the like, or
                // SET autocommit = 1, commit what came before them.
                connection.maySendSeveralTransactions(true);
            }
            if (connection.dialect() == Dialect.MARIADB) {
                mariadbLogged(log, sql);
            }
            if (analysed instanceof AnalysedStatement.NoRowsKnown) {
                leaveOut(log, analysed, sql);
            }
        } else if (!readsBack) {
            leaveOut(log, analysed, sql);
        }
        if (analysed instanceof AnalysedStatement.Aggregate && hidden == null && log != null) {
            log.notModelled(new NotModelled("the query " + sql,
                    "its reads are not checked: an aggregate whose rows the recorder learns only on PostgreSQL and H2,"
                            + " and on MariaDB over an integer key, of a table whose key it knows"));
        }
        connection.observe(log, read);
        Object result;
        try {
            result = Proxies.call(target, method, args);
        } catch (SQLException e) {
            if (fallback == null) {
                wrote(-1);
                connection.afterExecute(e, false);
                throw e;
            }
            hidden = null;
            try {
                result = Proxies.call(target, method, fallback);
            } catch (SQLException again) {
                wrote(-1);
                connection.afterExecute(again, false);
                throw again;
            }
        }
        if (analysed instanceof AnalysedStatement.Joined && hidden == null && log != null) {
            log.notModelled(new NotModelled("the query " + sql, "its reads are not checked: a join whose"
                    + " tables' columns the recorder does not know (or may not all read), or to whose text it cannot add them"));
        }
        wrote(result instanceof Number count ? count.longValue()
                : Boolean.FALSE.equals(result) && (decidedByCount != null || unmatched != null) ? updateCountOf(target) : -1);
        if (readsBack) {
            Object count = Boolean.FALSE.equals(result) ? (Object) updateCountOf(target) : result;
            connection.observe(log, writes.readBack((Write) analysed, sql, count, log,
                    sql.equals(preparedSql) ? parameters.snapshot() : List.of()));
        }
        if (mayWrite) {
            Set<String> written = result instanceof Number count && count.longValue() == 1 ? keysIfOne
                    : analysed instanceof Write write && connection.logsItsOwnRows(write.table())
                    ? WrittenKeys.of(write, result, parameters.snapshot(), connection.knownColumnsOf(write.table())) : null;
            connection.observe(log, new Observation.MayHaveWritten(
                    analysed instanceof Write write ? Optional.of(write.table()) : Optional.empty(),
                    result instanceof Number count ? count.longValue() : -1, written));
            if (connection.dialect() == Dialect.MARIADB && result instanceof Number count && count.longValue() >= 0) {
                matchedRows(log, analysed, sql, count.longValue(), target);
            }
        }
        if (result instanceof ResultSet rs) {
            connection.afterExecute(null, true);
            return observe(rs, hidden == null && !(analysed instanceof Query) ? null : read, log, analysed, hidden);
        }
        if (Boolean.TRUE.equals(result)) {
            // execute() with a result: the application fetches it with getResultSet().
            pending = new PendingResult(hidden == null && !(analysed instanceof Query) ? null : read, log, analysed, hidden,
                    parameters.snapshot());
            connection.afterExecute(null, true);
            return result;
        }
        connection.afterExecute(null, false);
        return result;
    }

    /**
     * The update count of the statement {@code target} just ran, which drivers answer again and
     * again ({@code getUpdateCount} after {@code execute()}); -1 when it cannot be had.
     */
    private static long updateCountOf(Statement target) {
        try {
            return target.getUpdateCount();
        } catch (SQLException | RuntimeException e) {
            return -1;
        }
    }

    /**
     * Says how many rows the statement just sent wrote ({@code -1}: not known): a subquery that
     * must have found nothing for it to write ({@code WHERE NOT EXISTS (...)}) is then a read of
     * nothing; otherwise it is listed as not checked. Once per statement sent; again, nothing.
     */
    void wrote(long count) {
        SubqueryReads pending = decidedByCount;
        decidedByCount = null;
        if (pending != null) {
            pending.wrote(count);
        }
        UnmatchedWhere unmatchedNow = unmatched;
        unmatched = null;
        if (unmatchedNow != null) {
            unmatchedNow.wrote(count);
        }
    }

    /** Records {@code sql} as sent, as one of a batch: what it wrote, statement by statement, is not known. */
    void statementOfBatch(TransactionLog log, String sql) {
        statement(log, sql);
        wrote(-1);
    }

    /**
     * On MariaDB with the binary log, after a write that said how many rows it matched: what the
     * log will not show of them. An UPDATE's rows it left as they were are read back after it
     * ({@link WrittenRows#readBackMatched}) unless it changes every row it matches
     * ({@link dev.isocheck.internal.recording.sql.ChangingAssignment}); an upsert's are counted, so
     * that a row it left as it was is listed ({@code WritePlacement}).
     */
    private void matchedRows(TransactionLog log, AnalysedStatement analysed, String sql, long count, Statement target) {
        if (analysed instanceof Write write && write.kind() == AnalysedStatement.WriteKind.UPDATE && connection.countsFoundRows()
                && target == real) {
            List<Object> bound = sql.equals(preparedSql) ? parameters.snapshot() : List.of();
            // An UPDATE that changes every row it matches has them all in the log: nothing to read back.
            boolean changesAll = !connection.writesAnywhere(write.table()) && connection.knownColumnsOf(write.table())
                    .filter(table -> dev.isocheck.internal.recording.sql.ChangingAssignment.changesEveryRow(sql, bound, table))
                    .isPresent();
            Observation.RowsRead matched = changesAll ? null : writes.readBackMatched(write, sql, count, bound);
            connection.observe(log, matched);
            connection.observe(log, new Observation.MatchedRows(write.table(), sql, count, changesAll || matched != null));
        }
        Optional<String> table = analysed instanceof Write write ? Optional.of(write.table())
                : analysed instanceof AnalysedStatement.Opaque opaque ? opaque.table() : Optional.empty();
        int upserted = table.isPresent() ? SqlAnalyzer.upsertRowsListed(sql) : -1;
        if (upserted > 0) {
            // A row it set to the values it had is not in the log either.
            connection.observe(log, new Observation.MatchedRows(table.get(), sql, upserted, false, true));
        }
    }

    /** A statement that may set a session's time zone (SET time_zone, SET @@session.time_zone, SET STATEMENT ...). */
    private static final java.util.regex.Pattern TIME_ZONE = java.util.regex.Pattern.compile("(?is)\\bSET\\b.*time_zone");
    /**
     * A procedure call ({@code CALL p()}, JDBC's {@code {call p()}}, {@code {? = call f()}}), or a
     * statement MariaDB commits before it runs besides DDL, after comments.
     */
    private static final java.util.regex.Pattern CALL_OR_IMPLICIT_COMMIT = java.util.regex.Pattern.compile(
            "(?is)^(?:\\s|/\\*.*?\\*/|--[^\\n]*\\n|#[^\\n]*\\n)*(?:\\{\\s*(?:\\?\\s*=\\s*)?call\\b|call\\b|lock\\b|unlock\\b"
                    + "|flush\\b|optimize\\b|repair\\b|analyze\\b|check\\b|cache\\b|load\\s+index\\b|install\\b|uninstall\\b"
                    + "|set\\s+(?:session\\s+|@@session\\.|@@)?autocommit\\b|start\\s+slave|stop\\s+slave|reset\\b)");
    /** {@code CREATE TEMPORARY TABLE name}: a session's own table, which a row-based log never holds. */
    private static final java.util.regex.Pattern TEMPORARY = java.util.regex.Pattern.compile(
            "(?is)^\\s*CREATE\\s+(?:OR\\s+REPLACE\\s+)?TEMPORARY\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?(?:[`\\w$]+\\.)?`?([\\w$]+)`?");

    /**
     * What a statement on MariaDB whose writes come from the binary log does that the log does
     * not show: a session time zone (TIMESTAMPs read in it), a temporary table (never logged; one
     * shadowing a table of the same name would make that table's reads look wrong), another
     * database's table (its rows are not this database's account, yet named alike), a USE.
     */
    private void mariadbLogged(TransactionLog log, String sql) {
        dev.isocheck.internal.recording.WriteLog writeLog = log.writeLog();
        if (TIME_ZONE.matcher(sql).find()) {
            writeLog.sessionChanged("time_zone");
        }
        java.util.regex.Matcher temporary = TEMPORARY.matcher(sql);
        if (temporary.find()) {
            writeLog.leaveOut(temporary.group(1).toLowerCase(java.util.Locale.ROOT), "the application made a temporary table of"
                    + " this name, whose rows the binary log never holds and which hides the table of the same name from its session");
        }
        for (String[] qualified : SqlAnalyzer.qualifiedTables(sql)) {
            writeLog.tableNamedIn(qualified[0], qualified[1]);
        }
        if (SqlAnalyzer.firstWord(sql).equals("USE")) {
            String[] words = sql.trim().split("\\s+");
            writeLog.databaseUsed(words.length > 1 ? words[1].replace("`", "").replace(";", "") : "");
        }
    }

    /** Calls {@code method} on {@code target}; a failure is the connection's to know of (it may doom the transaction), then the application's. */
    Object sent(Statement target, Method method, Object[] args) throws Throwable {
        try {
            return Proxies.call(target, method, args);
        } catch (SQLException e) {
            connection.afterExecute(e, false);
            throw e;
        }
    }

    /**
     * Looks up the columns of a write's table before it is sent, while the connection may still be
     * between transactions (a look-up inside the application's transaction could start its
     * snapshot early, so it waits for the transaction's end): whether a DELETE's or UPDATE's WHERE
     * is a predicate read depends on their types, and the queries that follow in the transaction
     * need them for their hidden columns. Once per table.
     */
    void lookUpColumnsOfWrite(AnalysedStatement analysed, String sql) {
        if (analysed instanceof Write write) {
            connection.columnsOf(write.table());
        }
        lookUpColumnsReadInside(sql);
    }

    /**
     * Looks up, while it may, the columns of the tables a write's subqueries read, which tell
     * whether a subquery is its own table's alone and how its WHERE compares ({@link SubqueryReads}).
     */
    void lookUpColumnsReadInside(String sql) {
        dev.isocheck.internal.recording.sql.FoundNothing.of(sql)
                .ifPresent(found -> found.subqueries().forEach(subquery -> connection.columnsOf(subquery.table())));
    }

    /** Notes that a write the recorder does not see leaves its table (or every table) out. */
    void leaveOut(TransactionLog log, AnalysedStatement analysed, String sql) {
        if (analysed instanceof Write write) {
            connection.observe(log, new LeftOut(Optional.of(write.table()), sql,
                    "a write the recorder could not rewrite to see its rows (batch, generated keys, executeQuery, or a dialect without RETURNING)"));
        } else if (analysed instanceof Opaque opaque) {
            connection.observe(log, new LeftOut(opaque.table(), sql, opaque.reason()));
        } else if (real instanceof CallableStatement) {
            connection.observe(log, new LeftOut(Optional.empty(), sql, "a stored procedure may change any table"));
        } else if (analysed instanceof AnalysedStatement.NoRowsKnown query && query.readsRows() && log != null) {
            log.notModelled(new NotModelled("the query " + sql,
                    "its reads are not checked: " + query.reason()));
        }
    }

    /** Records {@code sql} as sent, with the parameters bound when it is the prepared SQL. */
    void statement(TransactionLog log, String sql) {
        if (log == null) {
            return;
        }
        Object[] values = sql.equals(preparedSql) ? parameters.values() : new Object[0];
        connection.observe(log, new Observation.StatementSent(sql, values, StatementNames.of(sql)));
        if (log.writeLog() == null && WriteSuspicion.callsFunctions(sql)) {
            // Where the writes come from the statements, a function may write what none of them shows.
            connection.observe(log, new LeftOut(Optional.empty(), sql,
                    "a function or procedure the recorder does not know may write any table"));
        }
        // What a statement read inside itself decided what it did: recorded where what it wrote
        // tells (SubqueryReads), listed otherwise, never passed over in silence.
        wrote(-1);
        Optional<String> unseen = UnseenReads.of(sql);
        decidedByCount = SubqueryReads.of(connection, log, sql, sql.equals(preparedSql) ? parameters.snapshot() : List.of(),
                unseen.orElse(null));
        if (unseen.isPresent() && (decidedByCount == null || !decidedByCount.coversEverything())) {
            log.notModelled(new NotModelled("the statement " + sql, unseen.get()));
        }
    }

    /** The reads a query's result will show, or {@code null} when it cannot be keyed. */
    private RowsRead rowsRead(AnalysedStatement analysed, HiddenColumns hidden) {
        if (analysed instanceof AnalysedStatement.Aggregate aggregate && hidden != null) {
            return new RowsRead(aggregate.table(), Map.of(), false);
        }
        if (!(analysed instanceof Query query)) {
            return null;
        }
        Map<String, Object> fixed = query.equalities().isEmpty() ? Map.of() : new LinkedHashMap<>();
        // A row is keyed by what the WHERE says only where that is the value the database holds:
        // an integer for an integer key. Elsewhere the key comes from the rows returned.
        // Row-level security may hide a row that is there: an empty result proves no absence.
        boolean integerKey = connection.knownColumnsOf(query.table()).map(t -> t.integerKey() && !t.rowSecurity()).orElse(false);
        for (Map.Entry<String, Operand> equality : query.equalities().entrySet()) {
            Operand operand = equality.getValue();
            Object value = operand instanceof Operand.Literal literal ? literal.value()
                    : parameters.get(((Operand.Parameter) operand).index());
            ColumnValues.keyPart(value).filter(v -> integerKey && !(v instanceof String))
                    .ifPresent(v -> fixed.put(equality.getKey(), v));
        }
        // OFFSET, LIMIT 0 or SKIP LOCKED can return nothing for a row that exists.
        return new RowsRead(query.table(), fixed, query.onlyEqualities() && !query.limited()
                && fixed.size() == query.equalities().size());
    }

    /** Wraps the result {@code getResultSet()} fetched with what its execution left pending, which it takes. */
    private ResultSet observePending(ResultSet rs) throws SQLException {
        if (rs == null || rs instanceof java.lang.reflect.Proxy) {
            return null;
        }
        PendingResult taken = pending;
        pending = null;
        if (taken == null) {
            return observe(rs, null, null, null, null, parameters.snapshot());
        }
        return observe(rs, taken.read(), taken.log(), taken.analysed(), taken.hidden(), taken.parameters());
    }

    private ResultSet observe(ResultSet rs, RowsRead read, TransactionLog log, AnalysedStatement analysed, HiddenColumns hidden)
            throws SQLException {
        return observe(rs, read, log, analysed, hidden, parameters.snapshot());
    }

    /** Wraps {@code rs} to record the rows the application moves to, its WHERE read with the parameters {@code bound}. */
    private ResultSet observe(ResultSet rs, RowsRead read, TransactionLog log, AnalysedStatement analysed, HiddenColumns hidden,
                              List<Object> bound) throws SQLException {
        if (rs == null) {
            return null;
        }
        boolean capped;
        try {
            capped = real.getMaxRows() > 0;
        } catch (SQLException | RuntimeException e) {
            capped = true;
        }
        return ObservedResultSet.wrap(rs, proxy, connection, log, read, analysed, bound, capped, hidden);
    }
}
