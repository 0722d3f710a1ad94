package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.RecordedTransaction;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.WriteSuspicion;
import java.lang.reflect.Method;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The recorder's logic for a plain {@link Statement}, whose SQL comes with each call: each text is
 * analysed as it is executed and sent as its kind allows (as written where the database's log
 * records the writes; a write reading its application's keys along, asking for its rows as
 * generated keys, or rewritten; a query with hidden columns), and a batch of texts is sent as the
 * application built it, its writes leaving their tables out. The base of
 * {@link PreparedStatementLogic}: a prepared statement takes SQL text as well.
 */
class StatementLogic extends StatementSupport {

    /** The texts of the batch being built ({@code addBatch(String)}), until it is sent or cleared. */
    final List<String> batchTexts = new ArrayList<>();

    StatementLogic(RecordedConnection connection, Statement real) {
        this(connection, real, null);
    }

    StatementLogic(RecordedConnection connection, Statement real, String preparedSql) {
        super(connection, real, preparedSql);
    }

    /** Closes the driver's statement, after reading what the application left of the keys read along. */
    Object close(Method method, Object[] args) throws Throwable {
        keys.drainReadAlong();
        drainReturned();
        keys.closeStandIn();
        return Proxies.call(real, method, args);
    }

    /** {@code executeQuery}, {@code execute}, {@code executeUpdate} or {@code executeLargeUpdate} of SQL text. */
    Object executeText(Method method, Object[] args) throws Throwable {
        newExecution();
        String name = method.getName();
        String sql = (String) args[0];
        AnalysedStatement analysed = seen(connection, SqlAnalyzer.analyse(sql), sql, args.length == 1 && !name.equals("executeQuery"));
        if (!StatementPreparation.reads(analysed) && connection.decodesWrites()) {
            // The database's log records the writes: the statement is sent exactly as written
            // (its table's columns tell whether its WHERE is a predicate read when it changes nothing).
            lookUpColumnsOfWrite(analysed, sql);
            return execute(analysed, sql, real, method, args, null, null);
        }
        lookUpColumnsOfWrite(analysed, sql);
        if (analysed instanceof Write write && args.length == 2 && !name.equals("executeQuery")) {
            Optional<Object> request = connection.keysRequest(write, args[1]);
            if (request.isPresent()) {
                Object[] sent = {sql, request.get()};
                Method variant = request.get() instanceof String[]
                        ? Statement.class.getMethod(name, String.class, String[].class) : method;
                return writes.sendReadingKeysAlong(write, sql, variant, sent, args[1] instanceof String[] names ? names.length : -1);
            }
        }
        if (analysed instanceof Write write && args.length == 1 && !name.equals("executeQuery")
                && connection.dialect().returnsRowsAsGeneratedKeys()) {
            Optional<String[]> columns = connection.everyColumn(write.table());
            if (columns.isPresent()) {
                return writes.sendAskingForRowsAsKeys(write, sql, Statement.class.getMethod(name, String.class, String[].class),
                        new Object[] {sql, columns.get()});
            }
        }
        if (analysed instanceof Write write && args.length == 1 && !name.equals("executeQuery")) {
            Optional<String> rewrite = connection.rewrite(write, sql);
            if (rewrite.isPresent()) {
                return writes.sendRewritten(name, write, () -> connection.returnedRows(real, rewrite.get()), sql);
            }
        }
        if (analysed instanceof AnalysedStatement.Opaque && args.length == 1
                && (name.equals("executeQuery") || name.equals("execute"))) {
            // A RETURNING of the application's own: every column of the table is added to it, hidden.
            Optional<Write> returning = SqlAnalyzer.returningWrite(sql);
            returning.ifPresent(write -> connection.columnsOf(write.table()));
            Optional<ReturnedRowsTee.Plan> plan = returning.flatMap(write -> connection.rewriteReturning(write, sql));
            if (plan.isPresent()) {
                return writes.sendReturning(plan.get(), method, new Object[] {plan.get().sql()}, sql);
            }
        }
        if (StatementPreparation.reads(analysed) && args.length == 1
                && !name.equals("executeUpdate") && !name.equals("executeLargeUpdate")) {
            Optional<HiddenColumns> plan = connection.hiddenColumns(analysed, sql);
            if (plan.isPresent()) {
                return execute(analysed, sql, real, method, new Object[] {plan.get().sql()}, plan.get(),
                        connection.dialect().abortsOnError() ? null : args);
            }
        }
        return execute(analysed, sql, real, method, args, null, null);
    }

    /** {@code addBatch(String)}. */
    Object addBatch(Method method, Object[] args) throws Throwable {
        batchTexts.add((String) args[0]);
        return Proxies.call(real, method, args);
    }

    Object clearBatch(Method method, Object[] args) throws Throwable {
        forgetBatch();
        return Proxies.call(real, method, args);
    }

    /** The batch was sent or cleared: the next one starts empty. */
    void forgetBatch() {
        batchTexts.clear();
    }

    /** {@code executeBatch} or {@code executeLargeBatch} of the texts added. */
    Object executeBatch(Method method, Object[] args) throws Throwable {
        rewrittenAnswer = null;
        keys.newBatch();
        // Asked before the transaction starts, as every batch asks it, though a batch of texts has
        // no use for the answer: between transactions, asking may open the recording's write log.
        connection.decodesWrites();
        TransactionLog log = connection.beforeExecute();
        if (log != null && log.writeLog() != null) {
            return executeBatchAsWritten(log, false, null, method, args);
        }
        recordTexts(log);
        forgetBatch();
        Object result = sent(real, method, args);
        connection.afterExecute(null, false);
        return result;
    }

    /**
     * Records the batch's texts as sent, each write leaving its table out: the rows a batch writes
     * do not come back.
     */
    final void recordTexts(TransactionLog log) {
        if (!connection.dialect().transactionalDdl() && batchTexts.stream().anyMatch(SqlAnalyzer::commitsImplicitly)) {
            connection.implicitCommit();
        }
        for (String sql : batchTexts) {
            statementOfBatch(log, sql);
            AnalysedStatement analysed = seen(connection, SqlAnalyzer.analyse(sql), sql, false);
            leaveOut(log, analysed, sql);
        }
    }

    /**
     * Sends a batch as the application made it, to a database whose log records the writes: notes
     * where it stands and how many rows each of its statements said it changed.
     *
     * @param preparedBatch whether the batch holds entries of the prepared SQL, which are then all
     *                      its entries the driver counts
     * @param prepared      the prepared SQL as analysed, {@code null} for a plain statement
     */
    final Object executeBatchAsWritten(TransactionLog log, boolean preparedBatch, AnalysedStatement prepared,
                                       Method method, Object[] args) throws Throwable {
        List<String> texts = new ArrayList<>(batchTexts);
        for (String sql : texts) {
            statementOfBatch(log, sql);
            if (WriteSuspicion.controlsTransaction(sql)) {
                connection.observe(log, new LeftOut(Optional.empty(), sql, RecordedTransaction.TRANSACTION_CONTROL));
            }
        }
        if (preparedBatch) {
            statementOfBatch(log, preparedSql);
        }
        connection.beforeWrite(log, false);
        connection.maySendSeveralTransactions(false);
        forgetBatch();
        Object result = sent(real, method, args);
        int n = java.lang.reflect.Array.getLength(result);
        long total = 0;
        for (int i = 0; i < n; i++) {
            long count = ((Number) java.lang.reflect.Array.get(result, i)).longValue();
            total = total < 0 || count < 0 ? -1 : total + count;
            if (!preparedBatch) {
                AnalysedStatement analysed = i < texts.size() ? SqlAnalyzer.analyse(texts.get(i)) : null;
                connection.observe(log, new Observation.MayHaveWritten(analysed instanceof Write write && n == texts.size()
                        ? Optional.of(write.table()) : Optional.empty(), n == texts.size() ? Math.max(count, -1) : -1));
            }
        }
        if (preparedBatch) {
            connection.observe(log, new Observation.MayHaveWritten(
                    prepared instanceof Write write ? Optional.of(write.table()) : Optional.empty(), total));
            if (prepared instanceof Write write && write.kind() == dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind.UPDATE
                    && total >= 0 && connection.dialect() == dev.isocheck.internal.recording.sql.Dialect.MARIADB
                    && connection.countsFoundRows()) {
                connection.observe(log, new Observation.MatchedRows(write.table(), preparedSql, total, false));
            }
        } else if (n == 0 && !texts.isEmpty()) {
            connection.observe(log, new Observation.MayHaveWritten(Optional.empty(), -1));
        }
        connection.afterExecute(null, false);
        return result;
    }
}
