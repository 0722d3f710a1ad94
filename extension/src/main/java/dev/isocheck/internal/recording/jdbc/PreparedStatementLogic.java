package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.jdbc.PreparedMode.HiddenPlan;
import dev.isocheck.internal.recording.jdbc.PreparedMode.KeysAsRows;
import dev.isocheck.internal.recording.jdbc.PreparedMode.KeysReadAlong;
import dev.isocheck.internal.recording.jdbc.PreparedMode.Rewritten;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import dev.isocheck.internal.recording.sql.Dialect;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import java.lang.reflect.Method;
import java.sql.PreparedStatement;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The recorder's logic for a {@link PreparedStatement}, whose SQL is fixed when it is prepared and
 * whose values come as bound parameters: the SQL is analysed once, at its first execution, and
 * sent as the statement's {@link PreparedMode} says; a batch replays the parameters of each entry,
 * and where it can, has the rows of a batched write come back as generated keys.
 *
 * <p>A {@link java.sql.CallableStatement} shares this logic: it has nothing of its own beyond what
 * the support asks of the driver's statement (a procedure call may write any table), and is
 * always prepared {@linkplain PreparedMode#AS_WRITTEN as written}.
 */
final class PreparedStatementLogic extends StatementLogic {

    private final PreparedMode mode;
    /** The parameters of each prepared entry of the batch being built, as bound at its {@code addBatch()}. */
    private final List<BoundParameters> batchCalls = new ArrayList<>();
    /** The prepared SQL as recorded, once executed: the same at every execution. */
    private AnalysedStatement preparedAnalysis;

    PreparedStatementLogic(RecordedConnection connection, PreparedStatement real, String sql, PreparedMode mode) {
        super(connection, real, sql);
        this.mode = mode;
    }

    @Override
    Object close(Method method, Object[] args) throws Throwable {
        // The keys and RETURNING rows read along before the driver's statement that holds them closes.
        keys.drainReadAlong();
        drainReturned();
        if (mode instanceof Rewritten rewritten) {
            rewritten.closeOriginal();
        }
        keys.closeStandIn();
        if (mode instanceof Rewritten rewritten) {
            rewritten.closeBatchOriginal();
        }
        return Proxies.call(real, method, args);
    }

    @Override
    void newExecution() {
        super.newExecution();
        if (mode instanceof Rewritten rewritten) {
            rewritten.ranOn = null;
        }
    }

    @Override
    Statement ranOn() {
        return mode instanceof Rewritten rewritten ? rewritten.ranOn : null;
    }

    /** The stand-in prepared as the application asked, where the recorder prepared something else. */
    @Override
    Statement newStandIn() throws Throwable {
        ApplicationPrepare application = mode.application();
        return application != null ? application.again() : real.getConnection().createStatement();
    }

    /** {@code setX(index, value, …)}: notes the value, then binds it. */
    Object bind(Method method, Object[] args) throws Throwable {
        parameters.bind(method, args);
        return Proxies.call(real, method, args);
    }

    Object clearParameters(Method method, Object[] args) throws Throwable {
        parameters.clear();
        return Proxies.call(real, method, args);
    }

    /** {@code getMetaData}: of the result the application's statement would return. */
    Object metaData(Method method, Object[] args) throws Throwable {
        if (mode instanceof HiddenPlan plan) {
            ResultSetMetaData meta = (ResultSetMetaData) Proxies.call(real, method, args);
            return meta == null ? null : new HiddenView(plan.columns(), meta.getColumnCount()).metaData(meta);
        }
        return mode instanceof Rewritten rewritten ? rewritten.original().getMetaData() : Proxies.call(real, method, args);
    }

    /** {@code executeQuery()}, {@code execute()}, {@code executeUpdate()} or {@code executeLargeUpdate()}. */
    Object executePrepared(Method method, Object[] args) throws Throwable {
        newExecution();
        String name = method.getName();
        if (preparedAnalysis == null) {
            preparedAnalysis = seen(connection, SqlAnalyzer.analyse(preparedSql), preparedSql, mode instanceof Rewritten);
        }
        AnalysedStatement analysed = preparedAnalysis;
        lookUpColumnsOfWrite(analysed, preparedSql);
        if (mode instanceof KeysAsRows keysAsRows && !name.equals("executeQuery")) {
            return writes.sendAskingForRowsAsKeys(keysAsRows.write(), preparedSql, method, args);
        }
        if (mode instanceof KeysReadAlong readAlong && !name.equals("executeQuery")) {
            return writes.sendReadingKeysAlong(readAlong.write(), preparedSql, method, args, readAlong.visible());
        }
        if (mode instanceof Rewritten rewritten && rewritten.returning() != null
                && (name.equals("executeQuery") || name.equals("execute"))) {
            return writes.sendReturning(rewritten.returning(), method, args, preparedSql);
        }
        if (mode instanceof Rewritten && analysed instanceof Write write && !name.equals("executeQuery")) {
            return writes.sendRewritten(name, write, () -> connection.returnedRows(real, null), preparedSql);
        }
        Statement target = real;
        if (mode instanceof Rewritten rewritten) {
            // executeQuery on a write, or a write that may no longer be rewritten (a MERGE whose
            // table was found since to have row-level security): the original statement answers
            // it, with the same parameters, and what it wrote is left out.
            target = rewritten.original();
            parameters.replayOn(target);
        }
        return execute(analysed, preparedSql, target, method, args, mode instanceof HiddenPlan plan ? plan.columns() : null, null);
    }

    /** {@code addBatch()}: an entry of the prepared SQL with the parameters bound now. */
    Object addEntry(Method method, Object[] args) throws Throwable {
        batchCalls.add(parameters.copy());
        // A rewritten statement's batch is replayed on the original at executeBatch.
        return mode instanceof Rewritten ? null : Proxies.call(real, method, args);
    }

    @Override
    Object clearBatch(Method method, Object[] args) throws Throwable {
        forgetBatch();
        // A rewritten statement's entries were never added to the driver's batch.
        return mode instanceof Rewritten ? null : Proxies.call(real, method, args);
    }

    @Override
    void forgetBatch() {
        super.forgetBatch();
        batchCalls.clear();
    }

    /**
     * {@code executeBatch} or {@code executeLargeBatch}: the texts added are recorded as a plain
     * statement records them; the entries of a write, where the batch holds nothing else, are sent
     * so that their rows come back as generated keys ({@link #batchReturningRows}), else leave its
     * table out.
     */
    @Override
    Object executeBatch(Method method, Object[] args) throws Throwable {
        rewrittenAnswer = null;
        keys.newBatch();
        if (mode instanceof Rewritten rewritten) {
            rewritten.ranOn = null;
        }
        AnalysedStatement prepared = seen(connection, SqlAnalyzer.analyse(preparedSql), preparedSql, false);
        // Before the transaction starts: the table's columns may have to be looked up.
        boolean decoded = connection.decodesWrites();
        Statement withKeys = !decoded && prepared instanceof Write write && batchTexts.isEmpty() && !batchCalls.isEmpty()
                ? batchReturningRows(write) : null;
        TransactionLog log = connection.beforeExecute();
        if (log != null && log.writeLog() != null) {
            return executeBatchAsWritten(log, !batchCalls.isEmpty(), prepared, method, args);
        }
        recordTexts(log);
        // An UPDATE's or INSERT's batch on MySQL or MariaDB: its rows read back after it, by the
        // keys each entry names.
        List<BoundParameters> readBack = withKeys == null && log != null && batchTexts.isEmpty() && !batchCalls.isEmpty()
                && connection.dialect().readsBackWrites() && prepared instanceof Write written
                && (written.kind() == AnalysedStatement.WriteKind.UPDATE || written.kind() == AnalysedStatement.WriteKind.INSERT)
                ? List.copyOf(batchCalls) : null;
        if (!batchCalls.isEmpty()) {
            statementOfBatch(log, preparedSql);
            if (withKeys == null && readBack == null) {
                leaveOut(log, prepared, preparedSql);
            }
        }
        Statement target = withKeys != null ? withKeys : real;
        if (mode instanceof Rewritten rewritten) {
            // A rewritten write returns rows, which JDBC batches do not allow: replay the batch on
            // the original, or on the original asking for every column as generated keys.
            if (withKeys == null) {
                target = rewritten.original();
            }
            for (BoundParameters entry : batchCalls) {
                entry.replayOn(target);
                ((PreparedStatement) target).addBatch();
            }
        }
        forgetBatch();
        if (mode instanceof Rewritten rewritten) {
            rewritten.ranOn = target == real ? null : target;
        }
        Object result;
        try {
            result = Proxies.call(target, method, args);
        } catch (SQLException e) {
            if (withKeys != null || readBack != null) {
                // Some of the batch may have been written, which rows is not known: unless the
                // transaction then aborts and takes them with it, which in auto-commit mode the
                // batch's own failure does not promise (a driver may commit entry by entry).
                connection.observe(log, new LeftOut(Optional.of(((Write) prepared).table()), preparedSql,
                        "a batch that failed may have written some of its rows", !connection.autoCommit()));
            }
            connection.afterExecute(e, false);
            throw e;
        }
        if (withKeys != null) {
            keys.takenByRecorder();
            long total = 0;
            boolean counted = true;
            for (int i = 0; i < java.lang.reflect.Array.getLength(result); i++) {
                long count = ((Number) java.lang.reflect.Array.get(result, i)).longValue();
                counted &= count >= 0;
                total += count;
            }
            Write write = (Write) prepared;
            connection.observe(log, counted ? writes.fromKeys(write, preparedSql, total, withKeys, true, log)
                    : new LeftOut(Optional.of(write.table()), preparedSql, "the batch did not say how many rows each statement wrote"));
        }
        if (readBack != null) {
            List<List<Object>> entries = new ArrayList<>();
            readBack.forEach(entry -> entries.add(entry.snapshot()));
            connection.observe(log, writes.readBackBatch((Write) prepared, preparedSql, result, log, entries));
        }
        connection.afterExecute(null, false);
        return result;
    }

    /**
     * The statement to run a prepared write's batch on so that its generated keys are the rows the
     * batch wrote, every column asked for by name: the statement itself when it was prepared so
     * (HSQLDB); for a rewritten write, the original asking for them, where the driver answers
     * with rows (PostgreSQL's RETURNING; H2 for INSERT and UPDATE; not MySQL's or MariaDB's, whose
     * keys are the auto-increment values). {@code null} when there is none.
     */
    private Statement batchReturningRows(Write write) {
        if (mode instanceof KeysAsRows) {
            return real;
        }
        if (!(mode instanceof Rewritten rewritten) || connection.dialect() == Dialect.H2 && write.kind() == WriteKind.DELETE
                || !connection.dialect().returnsKeysByName()) {
            return null;
        }
        Optional<String[]> columns = connection.everyColumn(write.table()).or(this::returnedColumns);
        if (columns.isEmpty()) {
            return null;
        }
        return rewritten.batchOriginal(preparedSql, columns.get());
    }

    /**
     * The columns the rewritten write returns, which are every column of its table, from its
     * metadata: H2 computes it from the parsed statement, PostgreSQL describes the statement
     * without running it. Used inside a transaction, where the table's columns are not looked up.
     */
    private Optional<String[]> returnedColumns() {
        try {
            ResultSetMetaData meta = ((PreparedStatement) real).getMetaData();
            if (meta == null || meta.getColumnCount() == 0) {
                return Optional.empty();
            }
            String[] names = new String[meta.getColumnCount()];
            for (int i = 0; i < names.length; i++) {
                names[i] = meta.getColumnName(i + 1);
            }
            return Optional.of(names);
        } catch (SQLException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
