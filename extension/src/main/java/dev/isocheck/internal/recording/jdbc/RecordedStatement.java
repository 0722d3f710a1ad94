package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.RecordedTransaction;
import dev.isocheck.internal.recording.StatementNames;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Opaque;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Operand;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Query;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import dev.isocheck.internal.recording.sql.ColumnValues;
import dev.isocheck.internal.recording.sql.Dialect;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.WriteSuspicion;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A recorded {@link Statement}, {@link PreparedStatement} or {@link CallableStatement}: it
 * analyses each statement before it is sent, sends a write in its dialect's rewritten form (which
 * returns the rows written) and answers the application as the original statement would have:
 * the update count, no result set, the same exceptions. What it cannot rewrite it sends unchanged
 * and records as leaving its table out of the check.
 */
final class RecordedStatement implements InvocationHandler {

    private final RecordedConnection connection;
    /** The driver's statement the application's calls go to. */
    private final Statement real;
    /** For a prepared statement: its SQL as the application wrote it; {@code null} for a plain Statement. */
    private final String preparedSql;
    /** Whether {@link #real} was prepared from the rewritten SQL of {@link #preparedSql}. */
    private final boolean rewritten;
    private final Connection realConnection;
    private final Method prepareMethod;
    private final Object[] prepareArgs;
    /** The original statement, prepared on demand for what the rewritten one cannot do (batches, executeQuery). */
    private PreparedStatement original;
    private final BoundParameters parameters = new BoundParameters();
    /** The parameters of each prepared entry of the batch being built. */
    private final List<BoundParameters> batchCalls = new ArrayList<>();
    private final List<String> batchSql = new ArrayList<>();
    private Statement proxy;
    /** After a rewritten execute(): the update count the application asks for, -1 once moved past. */
    private long rewrittenCount = -1;
    private boolean lastWasRewritten;
    /** After execute() returned a result: what its result, fetched later by getResultSet(), reads. */
    private RowsRead pendingRead;
    private TransactionLog pendingLog;
    private AnalysedStatement pendingAnalysis;
    private HiddenColumns pendingHidden;
    /** The parameters the pending result's statement ran with: the application may bind others before it asks for the result. */
    private List<Object> pendingParameters;
    /** The prepared SQL as recorded, once executed: the same at every execution. */
    private AnalysedStatement preparedAnalysis;
    /** For a prepared query sent with columns added for the recorder: those columns; else {@code null}. */
    private HiddenColumns hiddenPlan;
    /** For a write prepared asking for every column as generated keys (HSQLDB): the write; else {@code null}. */
    private Write keysWrite;
    /** Whether the last execution's generated keys were the recorder's, not what the application asked for. */
    private boolean keysTaken;
    /** A statement never executed, whose generated keys are what the application gets in place of the recorder's. */
    private Statement standIn;
    /**
     * The driver's statement that ran the last batch when it was not {@link #real} (a rewritten
     * write's batch runs on the original): it answers what the application asks about that run.
     */
    private Statement ranOn;
    /** For a write prepared asking for the application's keys and every column: the write; else {@code null}. */
    private Write teeWrite;
    /** How many key columns the application asked for, -1 when it sees every column the driver returns. */
    private int teeVisible;
    /** The keys of the last execution with keys asked for by the application, read along by the recorder. */
    private GeneratedKeysTee tee;
    /** For a rewritten write: the original asking for every column as generated keys, to run batches on. */
    private PreparedStatement batchOriginal;

    private RecordedStatement(RecordedConnection connection, Statement real, String preparedSql, boolean rewritten,
                              Connection realConnection, Method prepareMethod, Object[] prepareArgs) {
        this.connection = connection;
        this.real = real;
        this.preparedSql = preparedSql;
        this.rewritten = rewritten;
        this.realConnection = realConnection;
        this.prepareMethod = prepareMethod;
        this.prepareArgs = prepareArgs;
    }

    static <T extends Statement> T wrap(RecordedConnection connection, T real, Class<T> type, String sql, boolean rewritten) {
        RecordedStatement handler = new RecordedStatement(connection, real, sql, rewritten, null, null, null);
        T proxy = Proxies.create(type, handler);
        handler.proxy = proxy;
        return proxy;
    }

    /**
     * Prepares what the application asked for: the rewritten write when the dialect has one and
     * the application asked for nothing the rewritten form would change (generated keys), the
     * original statement otherwise.
     */
    static PreparedStatement prepare(RecordedConnection connection, Connection real, Method method, Object[] args) throws Throwable {
        String sql = (String) args[0];
        AnalysedStatement analysed = seen(connection, SqlAnalyzer.analyse(sql), sql, asPlainPrepare(args));
        if (analysed instanceof Write write && !connection.decodesWrites()) {
            connection.columnsOf(write.table());
        }
        if ((analysed instanceof Query || analysed instanceof AnalysedStatement.Aggregate) && asPlainPrepare(args)) {
            Optional<HiddenColumns> plan = connection.hiddenColumns(analysed, sql);
            if (plan.isPresent()) {
                Object[] planned = args.clone();
                planned[0] = plan.get().sql();
                PreparedStatement withHidden = null;
                try {
                    withHidden = (PreparedStatement) Proxies.call(real, method, planned);
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withHidden != null) {
                    PreparedStatement proxy = wrap(connection, withHidden, PreparedStatement.class, sql, false);
                    ((RecordedStatement) java.lang.reflect.Proxy.getInvocationHandler(proxy)).hiddenPlan = plan.get();
                    return proxy;
                }
            }
        }
        if (!(analysed instanceof Query || analysed instanceof AnalysedStatement.Aggregate) && connection.decodesWrites()) {
            // The database's log records the writes: the statement is sent exactly as written.
            return wrap(connection, (PreparedStatement) Proxies.call(real, method, args), PreparedStatement.class, sql, false);
        }
        if (analysed instanceof Write write && args.length == 1 && connection.dialect().returnsRowsAsGeneratedKeys()) {
            Optional<String[]> columns = connection.everyColumn(write.table());
            if (columns.isPresent()) {
                PreparedStatement withKeys = null;
                try {
                    withKeys = real.prepareStatement(sql, columns.get());
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withKeys != null) {
                    RecordedStatement handler = new RecordedStatement(connection, withKeys, sql, false, real, method, args);
                    handler.keysWrite = write;
                    PreparedStatement proxy = Proxies.create(PreparedStatement.class, handler);
                    handler.proxy = proxy;
                    return proxy;
                }
            }
        }
        if (analysed instanceof Write write && args.length == 2) {
            Optional<Object> request = connection.keysRequest(write, args[1]);
            if (request.isPresent()) {
                PreparedStatement withKeys = null;
                try {
                    withKeys = request.get() instanceof String[] names ? real.prepareStatement(sql, names)
                            : real.prepareStatement(sql, (Integer) request.get());
                } catch (SQLException e) {
                    // Sent as written below: the application gets the original's answer.
                }
                if (withKeys != null) {
                    RecordedStatement handler = new RecordedStatement(connection, withKeys, sql, false, real, method, args);
                    handler.teeWrite = write;
                    handler.teeVisible = args[1] instanceof String[] names ? names.length : -1;
                    PreparedStatement proxy = Proxies.create(PreparedStatement.class, handler);
                    handler.proxy = proxy;
                    return proxy;
                }
            }
        }
        Optional<String> rewrite = analysed instanceof Write write && asPlainPrepare(args)
                ? connection.rewrite(write, sql) : Optional.empty();
        if (rewrite.isPresent()) {
            PreparedStatement rewrittenStatement = null;
            try {
                rewrittenStatement = real.prepareStatement(rewrite.get());
            } catch (SQLException e) {
                // The original may be wrong too; if so, the application gets the original's exception below.
            }
            if (rewrittenStatement != null) {
                RecordedStatement handler = new RecordedStatement(connection, rewrittenStatement, sql, true, real, method, args);
                PreparedStatement proxy = Proxies.create(PreparedStatement.class, handler);
                handler.proxy = proxy;
                return proxy;
            }
        }
        PreparedStatement plain = (PreparedStatement) Proxies.call(real, method, args);
        return wrap(connection, plain, PreparedStatement.class, sql, false);
    }

    /**
     * The statement as this connection can record it: a MERGE only where it is sent plainly
     * ({@code plain}: no generated keys, not in a batch) to a database that returns its rows with
     * their old versions (PostgreSQL 18), which tell an insert, an update and a delete apart;
     * anywhere else its table is left out.
     */
    static AnalysedStatement seen(RecordedConnection connection, AnalysedStatement analysed, String sql, boolean plain) {
        if (analysed instanceof Write write && write.kind() == WriteKind.MERGE && !(plain && connection.returnsOldRows(write, sql))) {
            return new Opaque(Optional.of(write.table()),
                    "a MERGE, whose rows only PostgreSQL 18 returns with their old versions (sent plainly, not in a batch)");
        }
        return analysed;
    }

    /**
     * Whether a {@code prepareStatement} asks for nothing beyond the SQL: {@code (sql)}, or
     * {@code (sql, TYPE_FORWARD_ONLY, CONCUR_READ_ONLY)}, the defaults spelled out, as Jdbi
     * prepares every statement.
     */
    private static boolean asPlainPrepare(Object[] args) {
        return args.length == 1 || args.length == 3
                && Integer.valueOf(ResultSet.TYPE_FORWARD_ONLY).equals(args[1])
                && Integer.valueOf(ResultSet.CONCUR_READ_ONLY).equals(args[2]);
    }

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, real, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        String name = method.getName();
        int arity = method.getParameterCount();
        switch (name) {
            case "getConnection":
                return connection.proxy();
            case "close":
                if (tee != null) {
                    tee.drain();
                }
                if (original != null) {
                    original.close();
                }
                if (standIn != null) {
                    standIn.close();
                }
                if (batchOriginal != null) {
                    batchOriginal.close();
                }
                return Proxies.call(real, method, args);
            case "executeQuery":
            case "execute":
            case "executeUpdate":
            case "executeLargeUpdate":
                lastWasRewritten = false;
                rewrittenCount = -1;
                keysTaken = false;
                ranOn = null;
                if (tee != null) {
                    // The driver drops the previous execution's keys now.
                    tee.drain();
                    tee = null;
                }
                return arity == 0 ? executePrepared(name, method, args) : executeText(name, method, args);
            case "addBatch":
                if (arity == 1) {
                    batchSql.add((String) args[0]);
                } else {
                    batchCalls.add(parameters.copy());
                }
                // A rewritten statement's batch is replayed on the original at executeBatch.
                return rewritten && arity == 0 ? null : Proxies.call(real, method, args);
            case "clearBatch":
                batchSql.clear();
                batchCalls.clear();
                return rewritten ? null : Proxies.call(real, method, args);
            case "executeBatch":
            case "executeLargeBatch":
                lastWasRewritten = false;
                return executeBatch(method, args);
            case "clearParameters":
                parameters.clear();
                return Proxies.call(real, method, args);
            case "getGeneratedKeys":
                if (tee != null) {
                    return tee.keysForApplication();
                }
                return keysTaken ? standIn().getGeneratedKeys() : Proxies.call(answering(), method, args);
            case "getUpdateCount":
                return lastWasRewritten ? (Object) (int) rewrittenCount : Proxies.call(answering(), method, args);
            case "getLargeUpdateCount":
                return lastWasRewritten ? (Object) rewrittenCount : Proxies.call(answering(), method, args);
            case "getResultSet":
                return lastWasRewritten ? null : ranOn != null ? Proxies.call(ranOn, method, args)
                        : observePending((ResultSet) Proxies.call(real, method, args));
            case "getMoreResults":
                if (lastWasRewritten) {
                    rewrittenCount = -1;
                    return false;
                }
                return Proxies.call(answering(), method, args);
            case "getMetaData":
                if (hiddenPlan != null) {
                    java.sql.ResultSetMetaData meta = (java.sql.ResultSetMetaData) Proxies.call(real, method, args);
                    return meta == null ? null : new HiddenView(hiddenPlan, meta.getColumnCount()).metaData(meta);
                }
                return rewritten ? original().getMetaData() : Proxies.call(real, method, args);
            default:
                if (name.startsWith("set") && arity >= 2 && method.getParameterTypes()[0] == int.class
                        && real instanceof PreparedStatement) {
                    parameters.bind(method, args);
                }
                return Proxies.call(real, method, args);
        }
    }

    private Object executePrepared(String name, Method method, Object[] args) throws Throwable {
        if (preparedAnalysis == null) {
            preparedAnalysis = seen(connection, SqlAnalyzer.analyse(preparedSql), preparedSql, rewritten);
        }
        AnalysedStatement analysed = preparedAnalysis;
        lookUpColumnsOfWrite(analysed);
        if (keysWrite != null && !name.equals("executeQuery")) {
            return executeReturningKeys(keysWrite, preparedSql, method, args);
        }
        if (teeWrite != null && !name.equals("executeQuery")) {
            return executeReadingKeysAlong(teeWrite, preparedSql, method, args, teeVisible);
        }
        if (rewritten && !name.equals("executeQuery")) {
            return executeRewritten(name, (Write) analysed, () -> ((PreparedStatement) real).executeQuery(), preparedSql);
        }
        Statement target = real;
        if (rewritten) {
            // executeQuery on a write: the original statement answers it, with the same parameters.
            target = original();
            parameters.replayOn(target);
        }
        return execute(analysed, preparedSql, target, method, args, rewritten ? null : hiddenPlan, null);
    }

    private Object executeText(String name, Method method, Object[] args) throws Throwable {
        String sql = (String) args[0];
        AnalysedStatement analysed = seen(connection, SqlAnalyzer.analyse(sql), sql, args.length == 1 && !name.equals("executeQuery"));
        if (!(analysed instanceof Query || analysed instanceof AnalysedStatement.Aggregate) && connection.decodesWrites()) {
            // The database's log records the writes: the statement is sent exactly as written.
            return execute(analysed, sql, real, method, args, null, null);
        }
        lookUpColumnsOfWrite(analysed);
        if (analysed instanceof Write write && args.length == 2 && !name.equals("executeQuery")) {
            Optional<Object> request = connection.keysRequest(write, args[1]);
            if (request.isPresent()) {
                Object[] sent = {sql, request.get()};
                Method variant = request.get() instanceof String[]
                        ? Statement.class.getMethod(name, String.class, String[].class) : method;
                return executeReadingKeysAlong(write, sql, variant, sent, args[1] instanceof String[] names ? names.length : -1);
            }
        }
        if (analysed instanceof Write write && args.length == 1 && !name.equals("executeQuery")
                && connection.dialect().returnsRowsAsGeneratedKeys()) {
            Optional<String[]> columns = connection.everyColumn(write.table());
            if (columns.isPresent()) {
                return executeReturningKeys(write, sql, Statement.class.getMethod(name, String.class, String[].class),
                        new Object[] {sql, columns.get()});
            }
        }
        if (analysed instanceof Write write && args.length == 1 && !name.equals("executeQuery")) {
            Optional<String> rewrite = connection.rewrite(write, sql);
            if (rewrite.isPresent()) {
                return executeRewritten(name, write, () -> real.executeQuery(rewrite.get()), sql);
            }
        }
        if ((analysed instanceof Query || analysed instanceof AnalysedStatement.Aggregate) && args.length == 1
                && !name.equals("executeUpdate") && !name.equals("executeLargeUpdate")) {
            Optional<HiddenColumns> plan = connection.hiddenColumns(analysed, sql);
            if (plan.isPresent()) {
                return execute(analysed, sql, real, method, new Object[] {plan.get().sql()}, plan.get(),
                        connection.dialect().abortsOnError() ? null : args);
            }
        }
        return execute(analysed, sql, real, method, args, null, null);
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
    private Object execute(AnalysedStatement analysed, String sql, Statement target, Method method, Object[] args,
                           HiddenColumns hidden, Object[] fallback) throws Throwable {
        TransactionLog log = connection.beforeExecute();
        if (!connection.dialect().transactionalDdl() && SqlAnalyzer.commitsImplicitly(sql)) {
            connection.implicitCommit();
        }
        statement(log, sql);
        RowsRead read = rowsRead(analysed, hidden);
        boolean logged = log != null && log.writeLog() != null;
        boolean mayWrite = logged && (WriteSuspicion.mayWrite(analysed, sql) || real instanceof CallableStatement);
        if (logged) {
            if (WriteSuspicion.controlsTransaction(sql)) {
                connection.observe(log, new LeftOut(Optional.empty(), sql, RecordedTransaction.TRANSACTION_CONTROL));
            }
            if (mayWrite) {
                connection.beforeWrite(log, analysed instanceof Write write
                        && WrittenKeys.of(write, 1L, parameters.snapshot(), connection.knownColumnsOf(write.table())) != null);
            }
            if (analysed instanceof AnalysedStatement.NoRowsKnown) {
                leaveOut(log, analysed, sql);
            }
        } else {
            leaveOut(log, analysed, sql);
        }
        if (analysed instanceof AnalysedStatement.Aggregate && hidden == null && log != null) {
            log.recording().notModelled(new dev.isocheck.internal.recording.NotModelled("the query " + sql,
                    "its reads are not checked: an aggregate whose rows the recorder learns only on PostgreSQL and H2,"
                            + " over a table whose key it knows"));
        }
        connection.observe(log, read);
        Object result;
        try {
            result = Proxies.call(target, method, args);
        } catch (SQLException e) {
            if (fallback == null) {
                connection.afterExecute(e, false);
                throw e;
            }
            hidden = null;
            try {
                result = Proxies.call(target, method, fallback);
            } catch (SQLException again) {
                connection.afterExecute(again, false);
                throw again;
            }
        }
        if (mayWrite) {
            java.util.Set<String> keys = analysed instanceof Write write
                    ? WrittenKeys.of(write, result, parameters.snapshot(), connection.knownColumnsOf(write.table())) : null;
            connection.observe(log, new Observation.MayHaveWritten(
                    analysed instanceof Write write ? Optional.of(write.table()) : Optional.empty(),
                    result instanceof Number count ? count.longValue() : -1, keys));
        }
        if (result instanceof ResultSet rs) {
            connection.afterExecute(null, true);
            return observe(rs, hidden == null && !(analysed instanceof Query) ? null : read, log, analysed, hidden);
        }
        if (Boolean.TRUE.equals(result)) {
            // execute() with a result: the application fetches it with getResultSet().
            pendingRead = hidden == null && !(analysed instanceof Query) ? null : read;
            pendingLog = log;
            pendingAnalysis = analysed;
            pendingHidden = hidden;
            pendingParameters = parameters.snapshot();
            connection.afterExecute(null, true);
            return result;
        }
        connection.afterExecute(null, false);
        return result;
    }

    /** Sends the rewritten write, keeps the rows it returns, answers with their count. */
    private Object executeRewritten(String name, Write write, SqlCall send, String sql) throws Throwable {
        TransactionLog log = connection.beforeExecute();
        statement(log, sql);
        List<Map<String, Object>> rows = new ArrayList<>();
        boolean withOld = connection.returnsOldRows(write, sql);
        List<Map<String, Object>> oldRows = withOld ? new ArrayList<>() : null;
        boolean complete = true;
        long count = 0;
        int maxRows = uncapped();
        try (ResultSet rs = send.call()) {
            RowReader reader = null;
            RowReader oldReader = null;
            while (rs.next()) {
                count++;
                if (!complete) {
                    continue;
                }
                try {
                    if (reader == null) {
                        if (withOld) {
                            RowReader[] halves = RowReader.halves(rs);
                            reader = halves[0];
                            oldReader = halves[1];
                        } else {
                            reader = new RowReader(rs, null);
                        }
                    }
                    rows.add(reader.row());
                    complete = !reader.ambiguous();
                    if (oldReader != null) {
                        oldRows.add(oldReader.row());
                        complete &= !oldReader.ambiguous();
                    }
                } catch (SQLException | RuntimeException e) {
                    // The write happened; only the recorder failed to read it back.
                    complete = false;
                }
            }
        } catch (SQLException e) {
            connection.afterExecute(e, false);
            throw e;
        } finally {
            recap(maxRows);
        }
        connection.observe(log, complete
                ? rowsWritten(write, sql, rows, oldRows, false, log)
                : new LeftOut(Optional.of(write.table()), sql, "the recorder could not read back a row written, or its columns have ambiguous names"));
        connection.afterExecute(null, false);
        // Drivers keep the count for getUpdateCount after executeUpdate too.
        lastWasRewritten = true;
        rewrittenCount = count;
        switch (name) {
            case "execute":
                return false;
            case "executeLargeUpdate":
                return count;
            default:
                return (int) count;
        }
    }

    /**
     * Sends a write unchanged but asking for every column of its table as generated keys, which
     * the database (HSQLDB) answers with the rows written, and keeps those rows. The application
     * gets the statement's own answers; its {@code getGeneratedKeys} then gets what a statement
     * that asked for none gets.
     */
    private Object executeReturningKeys(Write write, String sql, Method method, Object[] args) throws Throwable {
        TransactionLog log = connection.beforeExecute();
        statement(log, sql);
        Object result;
        int maxRows = uncapped();
        try {
            result = Proxies.call(real, method, args);
        } catch (SQLException e) {
            connection.afterExecute(e, false);
            throw e;
        } finally {
            recap(maxRows);
        }
        keysTaken = true;
        long count = result instanceof Number n ? n.longValue() : real.getUpdateCount();
        connection.observe(log, writtenRows(write, sql, count, real, false, log));
        connection.afterExecute(null, false);
        return result;
    }

    /**
     * Sends a write whose application asked for generated keys, asking for every column as well,
     * and reads its rows along with the application ({@link GeneratedKeysTee}). In auto-commit
     * mode the transaction stays open in the recording until the keys are read or given up.
     */
    private Object executeReadingKeysAlong(Write write, String sql, Method method, Object[] args, int visible) throws Throwable {
        TransactionLog log = connection.beforeExecute();
        statement(log, sql);
        Object result = sent(real, method, args);
        long count = result instanceof Number n ? n.longValue() : real.getUpdateCount();
        List<Map<String, Object>> rows = new ArrayList<>();
        connection.observe(log, rowsWritten(write, sql, rows, null, false, log));
        tee = new GeneratedKeysTee(connection, log, write, sql, rows, count, visible, real, proxy);
        boolean reading = log != null && count != 0;
        if (reading) {
            connection.keysPending(tee);
        }
        connection.afterExecute(null, reading);
        return result;
    }

    /**
     * The rows a write returned as the observation of them. A DELETE, and an UPDATE whose old rows
     * came back (not in a batch, whose parameters differ row by row), also ranged over its WHERE:
     * when the checker evaluates it exactly, the old rows are the predicate read it was.
     */
    private Observation.RowsWritten rowsWritten(Write write, String sql, List<Map<String, Object>> rows,
                                                List<Map<String, Object>> oldRows, boolean batch, TransactionLog log) {
        boolean deleted = write.kind() == WriteKind.DELETE;
        if (write.kind() == WriteKind.MERGE && log != null) {
            log.recording().notModelled(new dev.isocheck.internal.recording.NotModelled("the MERGE into " + write.table(),
                    "its reads of the source it merges and of rows it matched to nothing are not checked"));
        }
        Optional<TableColumns> table = connection.knownColumnsOf(write.table());
        Optional<WriteFacts> facts = table.map(t -> WriteFacts.of(sql, write, t));
        if (oldRows != null) {
            oldRows = usedColumns(facts, oldRows);
        }
        String rangedOver = null;
        if ((deleted || oldRows != null && write.kind() == WriteKind.UPDATE) && !batch) {
            String reason;
            if (write.limited()) {
                reason = "LIMIT or ORDER BY may leave rows undeleted";
            } else if (!rows.isEmpty() && facts.isPresent() && facts.get().fixesKey()) {
                // WHERE id = ? found its row: the item read of it is all the predicate would say
                // (when it found none, the predicate read says the row was absent).
                return new Observation.RowsWritten(write.table(), rows, deleted, write.assigned(), batch, null, oldRows);
            } else {
                ExactWhere exact = ExactWhere.of(write.where(), parameters.snapshot(),
                        (column, ordered) -> table.isPresent() && table.get().comparedExactly(column, ordered));
                rangedOver = exact.where();
                reason = exact.reason();
            }
            if (rangedOver == null && log != null) {
                log.recording().notModelled(new dev.isocheck.internal.recording.NotModelled(
                        "the reads of " + write.table() + (write.where() == null ? "" : " WHERE " + write.where()),
                        "checked as the rows " + (deleted ? "deleted" : "updated") + ", not as a predicate (a phantom goes unseen): " + reason));
            }
        }
        return new Observation.RowsWritten(write.table(), rows, deleted, write.assigned(), batch, rangedOver, oldRows);
    }

    /**
     * Looks up the columns of a write's table before it is sent, while the connection may still be
     * between transactions (a look-up inside the application's transaction could start its
     * snapshot early, so it waits for the transaction's end): whether a DELETE's or UPDATE's WHERE
     * is a predicate read depends on their types, and the queries that follow in the transaction
     * need them for their hidden columns. Once per table.
     */
    private void lookUpColumnsOfWrite(AnalysedStatement analysed) {
        if (analysed instanceof Write write) {
            connection.columnsOf(write.table());
        }
    }

    /**
     * An UPDATE's old rows as far as it used them: the key, and the columns its SET expressions
     * and WHERE mention ({@code n} of {@code SET n = n + 1}). The columns it only overwrote were
     * never the application's reads: a lost update ({@code SELECT n}, then {@code SET n = ?}) is the
     * application's stale read, not the statement's. {@code null} when the table's key is not known.
     */
    private static List<Map<String, Object>> usedColumns(Optional<WriteFacts> facts, List<Map<String, Object>> oldRows) {
        if (facts.isEmpty()) {
            return null;
        }
        List<Map<String, Object>> used = new ArrayList<>(oldRows.size());
        for (Map<String, Object> row : oldRows) {
            used.add(facts.get().usedPart(row));
        }
        return used;
    }

    /**
     * The rows in the generated keys of the statement just executed, when there are as many as it
     * wrote and every one could be read; else the table left out.
     */
    private Observation writtenRows(Write write, String sql, long count, Statement from, boolean batch, TransactionLog log) {
        List<Map<String, Object>> rows = new ArrayList<>();
        if (count == 0) {
            // Nothing written; HSQLDB's keys of no rows are a result without columns that may refuse to be read.
            return rowsWritten(write, sql, rows, null, batch, log);
        }
        boolean complete = true;
        try (ResultSet rs = from.getGeneratedKeys()) {
            RowReader reader = null;
            while (rs.next()) {
                if (reader == null) {
                    reader = new RowReader(rs, null);
                }
                rows.add(reader.row());
                complete &= !reader.ambiguous();
            }
        } catch (SQLException | RuntimeException e) {
            complete = false;
        }
        if (!complete || rows.size() != count) {
            return new LeftOut(Optional.of(write.table()), sql,
                    "the rows written did not all come back as generated keys (" + rows.size() + " of " + count + ")");
        }
        return rowsWritten(write, sql, rows, null, batch, log);
    }

    /**
     * The columns the rewritten write returns, which are every column of its table, from its
     * metadata: H2 computes it from the parsed statement, PostgreSQL describes the statement
     * without running it. Used inside a transaction, where the table's columns are not looked up.
     */
    private Optional<String[]> returnedColumns() {
        try {
            java.sql.ResultSetMetaData meta = ((PreparedStatement) real).getMetaData();
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

    /** The statement that ran the last execution, which answers for it. */
    private Statement answering() {
        return ranOn != null ? ranOn : real;
    }

    private Statement standIn() throws Throwable {
        if (standIn == null) {
            standIn = preparedSql != null && realConnection != null ? (Statement) Proxies.call(realConnection, prepareMethod, prepareArgs)
                    : real.getConnection().createStatement();
        }
        return standIn;
    }

    /**
     * Lifts the application's {@code setMaxRows} for a rewritten write, whose rows are its update
     * count and must all come back; returns the cap to restore.
     */
    private int uncapped() throws SQLException {
        int maxRows = real.getMaxRows();
        if (maxRows > 0) {
            real.setMaxRows(0);
        }
        return maxRows;
    }

    private void recap(int maxRows) throws SQLException {
        if (maxRows > 0) {
            real.setMaxRows(maxRows);
        }
    }

    private Object executeBatch(Method method, Object[] args) throws Throwable {
        keysTaken = false;
        ranOn = null;
        AnalysedStatement prepared = preparedSql == null ? null : seen(connection, SqlAnalyzer.analyse(preparedSql), preparedSql, false);
        // Before the transaction starts: the table's columns may have to be looked up.
        boolean decoded = connection.decodesWrites();
        Statement withKeys = !decoded && prepared instanceof Write write && batchSql.isEmpty() && !batchCalls.isEmpty()
                ? batchReturningRows(write) : null;
        TransactionLog log = connection.beforeExecute();
        if (log != null && log.writeLog() != null) {
            return executeBatchAsWritten(prepared, log, method, args);
        }
        if (!connection.dialect().transactionalDdl() && batchSql.stream().anyMatch(SqlAnalyzer::commitsImplicitly)) {
            connection.implicitCommit();
        }
        for (String sql : batchSql) {
            statement(log, sql);
            AnalysedStatement analysed = seen(connection, SqlAnalyzer.analyse(sql), sql, false);
            leaveOut(log, analysed, sql);
        }
        if (preparedSql != null && !batchCalls.isEmpty()) {
            statement(log, preparedSql);
            if (withKeys == null) {
                leaveOut(log, prepared, preparedSql);
            }
        }
        Statement target = withKeys != null ? withKeys : real;
        if (rewritten) {
            // A rewritten write returns rows, which JDBC batches do not allow: replay the batch on
            // the original, or on the original asking for every column as generated keys.
            if (withKeys == null) {
                target = original();
            }
            for (BoundParameters entry : batchCalls) {
                entry.replayOn(target);
                ((PreparedStatement) target).addBatch();
            }
        }
        batchSql.clear();
        batchCalls.clear();
        ranOn = target == real ? null : target;
        Object result;
        try {
            result = Proxies.call(target, method, args);
        } catch (SQLException e) {
            if (withKeys != null) {
                // Some of the batch may have been written, which rows is not known.
                connection.observe(log, new LeftOut(Optional.of(((Write) prepared).table()), preparedSql,
                        "a batch that failed may have written some of its rows"));
            }
            connection.afterExecute(e, false);
            throw e;
        }
        if (withKeys != null) {
            keysTaken = true;
            long total = 0;
            boolean counted = true;
            for (int i = 0; i < java.lang.reflect.Array.getLength(result); i++) {
                long count = ((Number) java.lang.reflect.Array.get(result, i)).longValue();
                counted &= count >= 0;
                total += count;
            }
            Write write = (Write) prepared;
            connection.observe(log, counted ? writtenRows(write, preparedSql, total, withKeys, true, log)
                    : new LeftOut(Optional.of(write.table()), preparedSql, "the batch did not say how many rows each statement wrote"));
        }
        connection.afterExecute(null, false);
        return result;
    }

    /** Calls {@code method} on {@code target}; a failure is the connection's to know of (it may doom the transaction), then the application's. */
    private Object sent(Statement target, Method method, Object[] args) throws Throwable {
        try {
            return Proxies.call(target, method, args);
        } catch (SQLException e) {
            connection.afterExecute(e, false);
            throw e;
        }
    }

    /**
     * Sends a batch as the application made it, to a database whose log records the writes: notes
     * where it stands and how many rows each of its statements said it changed.
     */
    private Object executeBatchAsWritten(AnalysedStatement prepared, TransactionLog log, Method method, Object[] args)
            throws Throwable {
        List<String> texts = new ArrayList<>(batchSql);
        boolean preparedBatch = preparedSql != null && !batchCalls.isEmpty();
        for (String sql : texts) {
            statement(log, sql);
            if (WriteSuspicion.controlsTransaction(sql)) {
                connection.observe(log, new LeftOut(Optional.empty(), sql, RecordedTransaction.TRANSACTION_CONTROL));
            }
        }
        if (preparedBatch) {
            statement(log, preparedSql);
        }
        connection.beforeWrite(log, false);
        batchSql.clear();
        batchCalls.clear();
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
        } else if (n == 0 && !texts.isEmpty()) {
            connection.observe(log, new Observation.MayHaveWritten(Optional.empty(), -1));
        }
        connection.afterExecute(null, false);
        return result;
    }

    /**
     * The statement to run a prepared write's batch on so that its generated keys are the rows the
     * batch wrote, every column asked for by name: the statement itself when it was prepared so
     * (HSQLDB); for a rewritten write, the original asking for them, where the driver answers
     * with rows (PostgreSQL's RETURNING; H2 for INSERT and UPDATE). {@code null} when there is none.
     */
    private Statement batchReturningRows(Write write) throws Throwable {
        if (keysWrite != null) {
            return real;
        }
        if (!rewritten || connection.dialect() == Dialect.H2 && write.kind() == WriteKind.DELETE) {
            return null;
        }
        Optional<String[]> columns = connection.everyColumn(write.table()).or(this::returnedColumns);
        if (columns.isEmpty()) {
            return null;
        }
        if (batchOriginal == null) {
            try {
                batchOriginal = realConnection.prepareStatement(preparedSql, columns.get());
            } catch (SQLException e) {
                return null;
            }
        }
        return batchOriginal;
    }

    /** Notes that a write the recorder does not see leaves its table (or every table) out. */
    private void leaveOut(TransactionLog log, AnalysedStatement analysed, String sql) {
        if (analysed instanceof Write write) {
            connection.observe(log, new LeftOut(Optional.of(write.table()), sql,
                    "a write the recorder could not rewrite to see its rows (batch, generated keys, executeQuery, or a dialect without RETURNING)"));
        } else if (analysed instanceof Opaque opaque) {
            connection.observe(log, new LeftOut(opaque.table(), sql, opaque.reason()));
        } else if (real instanceof CallableStatement) {
            connection.observe(log, new LeftOut(Optional.empty(), sql, "a stored procedure may change any table"));
        } else if (analysed instanceof AnalysedStatement.NoRowsKnown query && query.readsRows() && log != null) {
            log.recording().notModelled(new dev.isocheck.internal.recording.NotModelled("the query " + sql,
                    "its reads are not checked: " + query.reason()));
        }
    }

    private void statement(TransactionLog log, String sql) {
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

    private ResultSet observePending(ResultSet rs) throws SQLException {
        if (rs == null || rs instanceof java.lang.reflect.Proxy) {
            return null;
        }
        RowsRead pending = pendingRead;
        TransactionLog log = pendingLog;
        AnalysedStatement analysed = pendingAnalysis;
        HiddenColumns hidden = pendingHidden;
        List<Object> bound = pendingParameters;
        pendingRead = null;
        pendingLog = null;
        pendingAnalysis = null;
        pendingHidden = null;
        pendingParameters = null;
        return observe(rs, pending, log, analysed, hidden, bound == null ? parameters.snapshot() : bound);
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

    private PreparedStatement original() throws Throwable {
        if (original == null) {
            original = (PreparedStatement) Proxies.call(realConnection, prepareMethod, prepareArgs);
        }
        return original;
    }

    /** A call to the driver that returns rows. */
    @FunctionalInterface
    private interface SqlCall {
        ResultSet call() throws SQLException;
    }
}
