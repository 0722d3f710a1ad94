package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Observation;
import dev.isocheck.internal.recording.Observation.LeftOut;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Sends a write of one statement, plain or prepared, so that the rows it writes come back to the
 * recorder, and records them: rewritten to return them, answering the application with their
 * count ({@link RewrittenAnswer}); asking for every column as generated keys where the database
 * answers with the rows written (HSQLDB); or reading along the generated keys the application
 * asked for, every column asked for as well ({@link GeneratedKeysTee}). What is left of the
 * execution for the application to ask about goes to the statement's {@link StatementSupport}.
 */
final class WrittenRows {

    /** A call to the driver that returns rows. */
    @FunctionalInterface
    interface SqlCall {
        ResultSet call() throws SQLException;
    }

    private final StatementSupport statement;
    private final RecordedConnection connection;

    WrittenRows(StatementSupport statement) {
        this.statement = statement;
        this.connection = statement.connection;
    }

    /** Sends the rewritten write, keeps the rows it returns, answers with their count. */
    Object sendRewritten(String name, Write write, SqlCall send, String sql) throws Throwable {
        TransactionLog log = connection.beforeExecute();
        statement.statement(log, sql);
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
            statement.wrote(-1);
            connection.afterExecute(e, false);
            throw e;
        } finally {
            recap(maxRows);
        }
        statement.wrote(count);
        connection.observe(log, complete
                ? rowsWritten(write, sql, rows, oldRows, false, log)
                : new LeftOut(Optional.of(write.table()), sql, "the recorder could not read back a row written, or its columns have ambiguous names"));
        connection.afterExecute(null, false);
        // Drivers keep the count for getUpdateCount after executeUpdate too.
        statement.rewrittenAnswer = new RewrittenAnswer(count);
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
    Object sendAskingForRowsAsKeys(Write write, String sql, Method method, Object[] args) throws Throwable {
        Statement real = statement.real;
        TransactionLog log = connection.beforeExecute();
        statement.statement(log, sql);
        Object result;
        int maxRows = uncapped();
        try {
            result = Proxies.call(real, method, args);
        } catch (SQLException e) {
            statement.wrote(-1);
            connection.afterExecute(e, false);
            throw e;
        } finally {
            recap(maxRows);
        }
        statement.keys.takenByRecorder();
        long count = result instanceof Number n ? n.longValue() : real.getUpdateCount();
        statement.wrote(count);
        connection.observe(log, fromKeys(write, sql, count, real, false, log));
        connection.afterExecute(null, false);
        return result;
    }

    /**
     * Sends a write whose application asked for generated keys, asking for every column as well,
     * and reads its rows along with the application ({@link GeneratedKeysTee}). In auto-commit
     * mode the transaction stays open in the recording until the keys are read or given up.
     */
    Object sendReadingKeysAlong(Write write, String sql, Method method, Object[] args, int visible) throws Throwable {
        Statement real = statement.real;
        TransactionLog log = connection.beforeExecute();
        statement.statement(log, sql);
        Object result;
        try {
            result = statement.sent(real, method, args);
        } catch (SQLException e) {
            statement.wrote(-1);
            throw e;
        }
        long count = result instanceof Number n ? n.longValue() : real.getUpdateCount();
        statement.wrote(count);
        List<Map<String, Object>> rows = new ArrayList<>();
        connection.observe(log, rowsWritten(write, sql, rows, null, false, log));
        GeneratedKeysTee tee = new GeneratedKeysTee(connection, log, write, sql, rows, count, visible, real, statement.proxy);
        statement.keys.readAlong(tee);
        boolean reading = log != null && count != 0;
        if (reading) {
            connection.readAlongPending(tee);
        }
        connection.afterExecute(null, reading);
        return result;
    }

    /**
     * Sends a write with a RETURNING of its own, every column of its table added to it
     * ({@link ReturnedRowsTee}), and reads its rows along with the application: handed out by
     * {@code executeQuery}, or kept for {@code getResultSet} after {@code execute}. In auto-commit
     * mode the transaction stays open in the recording until the result is read or given up.
     */
    Object sendReturning(ReturnedRowsTee.Plan plan, Method method, Object[] args, String sql) throws Throwable {
        Statement real = statement.real;
        TransactionLog log = connection.beforeExecute();
        statement.statement(log, sql);
        // What its subqueries found is decided by its rows, which come later: not recorded.
        statement.wrote(-1);
        boolean capped = real.getMaxRows() > 0;
        Object result = statement.sent(real, method, args);
        ResultSet rs = result instanceof ResultSet r ? r : Boolean.TRUE.equals(result) ? real.getResultSet() : null;
        if (rs == null) {
            connection.observe(log, new LeftOut(Optional.of(plan.write().table()), sql, "its RETURNING gave back no result"));
            connection.afterExecute(null, false);
            return result;
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        connection.observe(log, rowsWritten(plan.write(), sql, rows, null, false, log));
        ReturnedRowsTee tee = new ReturnedRowsTee(connection, log, plan, sql, rows, rs, capped, statement.proxy);
        statement.returnedRows(tee);
        if (log != null) {
            connection.readAlongPending(tee);
        }
        connection.afterExecute(null, log != null);
        return result instanceof ResultSet ? tee.forApplication() : result;
    }

    /**
     * The rows an UPDATE whose changes come from MariaDB's binary log matched, read back inside
     * its transaction right after it ({@link RecordedConnection#readBack}), as a read the
     * transaction made after the UPDATE's writes: the log shows a row the UPDATE changed, but not
     * one it set to the values it had, which the UPDATE found in its newest version (a lost update
     * whose two transactions write the same value). Only where the WHERE names its rows by key, or
     * by a stable WHERE of its own ({@link #whyNotByWhere}) that selects as many rows as the driver
     * says it matched (so the transaction holds them locked); {@code null} otherwise, or where the
     * read fails.
     *
     * @param count      the rows the driver says the UPDATE matched
     * @param parameters the parameters it ran with by index (index 0 unused)
     */
    Observation.RowsRead readBackMatched(Write write, String sql, long count, List<Object> parameters) {
        Optional<TableColumns> table = connection.knownColumnsOf(write.table());
        if (count <= 0 || connection.autoCommit() || table.isEmpty() || !updatesByKey(write, table.get())
                || connection.keyComputed(write.table())) {
            return null;
        }
        Optional<List<Map<String, Object>>> keys = WrittenKeys.listed(write, table.get().key(), parameters);
        Optional<List<Map<String, Object>>> rows;
        if (keys.isPresent() && keys.get().size() == count) {
            if (whyNotReadBack(write, sql, table.get(), keys.get()) != null) {
                return null;
            }
            rows = connection.readBack(write.table(), keys.get());
        } else {
            // Not named by key: read back by its own WHERE, where that still selects the rows it matched.
            Optional<dev.isocheck.internal.recording.sql.StableWhere> stable = dev.isocheck.internal.recording.sql.StableWhere.ofUpdate(sql);
            if (stable.isEmpty() || whyNotByWhere(write, sql, count, table.get(), stable.get(), parameters, true) != null) {
                return null;
            }
            rows = byWhere(write, count, stable.get(), parameters);
        }
        if (rows.isEmpty() || rows.get().size() != count) {
            return null;
        }
        Observation.RowsRead read = new Observation.RowsRead(write.table(), Map.of(), false).afterItsStatementsWrites();
        rows.get().forEach(read::add);
        read.closed();
        return read;
    }

    /**
     * What an INSERT or UPDATE sent as written on MySQL or MariaDB wrote, read back inside its
     * transaction ({@link RecordedConnection#readBack}): an UPDATE whose WHERE names its rows by
     * primary key ({@code id = ?}, a key of several columns each so, or {@code id IN (...)}; other
     * conditions beside allowed) and assigns no key column; an INSERT whose VALUES give every key
     * column, or one row whose key the database numbered ({@code LAST_INSERT_ID()}). Known only
     * when the driver says the write changed exactly as many rows as it names (then it locked
     * every one, and the transaction holds them) and the transaction is still open: in auto-commit
     * mode it committed and released the rows, which another transaction may have changed since.
     * Anything else leaves the table out, saying why.
     *
     * @param result     what the driver answered: the count of rows written, or not a number
     * @param parameters the parameters it ran with by index (index 0 unused)
     */
    Observation readBack(Write write, String sql, Object result, TransactionLog log, List<Object> parameters) {
        Optional<TableColumns> table = connection.knownColumnsOf(write.table());
        String statement = write.kind() == WriteKind.INSERT ? "an INSERT" : "an UPDATE";
        String unknown;
        Optional<Observation> whole = !connection.autoCommit() ? Optional.empty()
                : write.kind() == WriteKind.UPDATE ? wholeRowOfUpdate(write, sql, result, table, parameters, log)
                : wholeRowsOfInsert(write, sql, result, table, parameters, log);
        if (whole.isPresent()) {
            return whole.get();
        }
        if (connection.autoCommit() && table.isEmpty()) {
            unknown = "the table's primary key is not known (its look-up failed, or another connection's did not finish in"
                    + " time): " + statement + " in auto-commit mode on MySQL or MariaDB is recorded from the statement by it";
        } else if (connection.autoCommit()) {
            unknown = statement + " sent as written in auto-commit mode on MySQL or MariaDB: its rows cannot be read back"
                    + " after its commit (run it in a transaction), nor does the statement say every column of the row";
        } else if (!(result instanceof Number count) || count.longValue() < 0) {
            unknown = "the driver did not say how many rows " + statement + " wrote";
        } else if (table.isEmpty()) {
            unknown = "the table's primary key is not known";
        } else if (count.longValue() == 0 && write.kind() == WriteKind.INSERT) {
            return rowsWritten(write, sql, new ArrayList<>(), null, false, log);
        } else if (connection.keyComputed(write.table())) {
            // Read back by the key it had, a row whose key the database recomputed is not found.
            unknown = dev.isocheck.internal.recording.RecordedTransaction.KEY_COMPUTED;
        } else {
            Optional<List<Map<String, Object>>> rows = Optional.empty();
            if (write.kind() == WriteKind.UPDATE) {
                Optional<List<Map<String, Object>>> keys = updatesByKey(write, table.get())
                        ? WrittenKeys.listed(write, table.get().key(), parameters) : Optional.empty();
                // Not named by key, or (an IN list of keys some of which had no row) fewer rows
                // changed than named: read back by its own WHERE, where it may be.
                Optional<dev.isocheck.internal.recording.sql.StableWhere> stable = dev.isocheck.internal.recording.sql.StableWhere.ofUpdate(sql);
                if ((keys.isEmpty() || keys.get().size() != count.longValue() && count.longValue() > 0)
                        && updatesByKey(write, table.get()) && stable.isPresent()) {
                    return updatedWhere(write, sql, count.longValue(), table.get(), stable.get(), parameters, log);
                }
                unknown = keys.isEmpty() ? "an UPDATE on MySQL or MariaDB is read back by its primary key or by its own WHERE: this one's WHERE"
                        + " does not name its rows by every key column (id = ? or id IN (...), as literals or parameters),"
                        + " nor is it made of columns, literals, parameters and operators alone (no function, no subquery),"
                        + " or it has LIMIT or ORDER BY, or changes the key"
                        : keys.get().size() != count.longValue() ? "the UPDATE changed " + count + " of the "
                        + keys.get().size() + " rows its WHERE names, so which is not known" : null;
                if (keys.isPresent() && count.longValue() == 0) {
                    // Its WHERE matched no row, where the driver counts the rows found (its default):
                    // recorded so, of the table it names, which must then be the connection's own.
                    String why = whyNotFromStatement(write, sql);
                    if (why == null && connection.countsFoundRows()) {
                        return rowsWritten(write, sql, new ArrayList<>(), null, false, log);
                    }
                    return new LeftOut(Optional.of(write.table()), sql, why != null ? why : AFFECTED_ROWS);
                }
                unknown = unknown != null ? unknown : whyNotReadBack(write, sql, table.get(), keys.get());
                if (unknown == null) {
                    rows = connection.readBack(write.table(), keys.get());
                }
            } else {
                Optional<List<Map<String, Object>>> keys = WrittenKeys.inserted(sql, table.get().key(), parameters);
                Optional<String> numbered = connection.autoIncrementKey(write.table());
                // LAST_INSERT_ID(n) in the statement itself would set the number read back to n (in
                // a stored function or trigger, the session's number is restored when it returns).
                boolean generated = keys.isEmpty() && numbered.isPresent() && count.longValue() == 1
                        && !sql.toUpperCase(java.util.Locale.ROOT).contains("LAST_INSERT_ID")
                        && SqlAnalyzer.insertedValues(sql).filter(v -> v.rows().size() == 1
                        && !v.columns().contains(numbered.get())).isPresent();
                unknown = generated ? null : keys.isEmpty() ? "an INSERT on MySQL or MariaDB is read back by its primary key:"
                        + " this one's VALUES do not give every key column as a literal or a parameter (nor is it one row"
                        + " whose key the database numbers)"
                        : keys.get().size() != count.longValue() ? "the INSERT wrote " + count + " of the "
                        + keys.get().size() + " rows it lists" : null;
                unknown = unknown != null ? unknown : whyNotReadBack(write, sql, table.get(), generated ? List.of() : keys.get());
                if (unknown == null) {
                    rows = generated ? connection.readBackLastInserted(write.table()) : connection.readBack(write.table(), keys.get());
                }
            }
            if (unknown == null) {
                if (rows.isPresent() && rows.get().size() == count.longValue()) {
                    return rowsWritten(write, sql, new ArrayList<>(rows.get()), null, false, log);
                }
                unknown = "the rows " + statement + " wrote could not be read back";
            }
        }
        return new LeftOut(Optional.of(write.table()), sql, unknown);
    }

    /**
     * What an UPDATE in a transaction whose WHERE is stable ({@link dev.isocheck.internal.recording.sql.StableWhere})
     * but does not name its rows by key wrote: the rows its own WHERE selects, read back after it
     * as a locking read that skips what others hold. Each row it changed is held by the
     * transaction and still selected (the UPDATE set no column the WHERE reads, nor one the
     * database computes), so the read finds them all, and others only where some row came to be
     * selected since; so when it finds as many rows as the driver says the UPDATE changed, they
     * are those rows. Otherwise its table is left out, saying why.
     */
    private Observation updatedWhere(Write write, String sql, long count, TableColumns table,
                                     dev.isocheck.internal.recording.sql.StableWhere where, List<Object> parameters,
                                     TransactionLog log) {
        String unknown = whyNotByWhere(write, sql, count, table, where, parameters, false);
        if (unknown == null && count == 0 && connection.countsFoundRows()) {
            // Its WHERE matched no row. (Where the driver counts the rows changed, 0 may be rows
            // found and left as they were, which the read back finds, held by the transaction.)
            return rowsWritten(write, sql, new ArrayList<>(), null, false, log);
        }
        unknown = unknown != null ? unknown : whyNotByWhere(write, sql, count, table, where, parameters, true);
        if (unknown == null) {
            Optional<List<Map<String, Object>>> rows = byWhere(write, count, where, parameters);
            if (rows.isPresent() && rows.get().size() == count) {
                return rowsWritten(write, sql, new ArrayList<>(rows.get()), null, false, log);
            }
            unknown = rows.isEmpty() ? "the rows the UPDATE wrote could not be read back"
                    : "its WHERE selects " + rows.get().size() + " rows now, not the " + count
                    + " it changed (another transaction's rows, or some held by another), so which it changed is not known";
        }
        return new LeftOut(Optional.of(write.table()), sql, unknown);
    }

    /**
     * Why the rows an UPDATE changed cannot be read back by its own stable WHERE; {@code null}
     * when they can: the WHERE reads no column the UPDATE sets or the database computes, only
     * known integer, decimal and string columns, its parameters are numbers or strings bound
     * plainly, the statement names its table as the connection's own, with no trigger, and, where
     * it {@code reads}, the server has SKIP LOCKED.
     */
    private String whyNotByWhere(Write write, String sql, long count, TableColumns table,
                                 dev.isocheck.internal.recording.sql.StableWhere where, List<Object> parameters, boolean reads) {
        java.util.Set<String> computed = connection.computedColumns(write.table()).orElse(java.util.Set.of("*"));
        String unknown = null;
        for (int index : where.parameters()) {
            Object bound = index >= 1 && index < parameters.size() ? parameters.get(index) : null;
            // Bound again with setObject alone: only values bound so (or by their own plain
            // setter), never one bound with a type or calendar of its own (BoundParameters).
            if (!(bound instanceof Number || bound instanceof String)) {
                unknown = "a parameter of the UPDATE's WHERE is not bound as a number or a string by a plain setter, and a"
                        + " read back by it could compare otherwise";
            }
        }
        if (where.columns().stream().anyMatch(c -> write.assigned().contains(c) || computed.contains(c) || computed.contains("*"))) {
            unknown = "the UPDATE changes a column its WHERE reads (or one the database computes), so its WHERE no longer"
                    + " selects the rows it changed, which are not named by key";
        } else if (!table.columns().keySet().containsAll(where.columns())) {
            unknown = "its WHERE reads a column the recorder does not know in the table";
        } else if (where.columns().stream().anyMatch(c -> !unchangedUnlessSet(table.columns().get(c).type()))) {
            // A TIMESTAMP or DATETIME column may be ON UPDATE CURRENT_TIMESTAMP, set by every UPDATE.
            unknown = "its WHERE reads a column of a type the database may change without being told (a date or time),"
                    + " or one whose values it may compare otherwise";
        }
        if (unknown == null && count > MOST_KEYS_READ_BACK) {
            unknown = "the UPDATE changed more rows than are read back at once";
        }
        unknown = unknown != null ? unknown : whyNotFromStatement(write, sql);
        if (unknown == null && reads && !connection.skipsLocked()) {
            unknown = "the server has no SELECT ... FOR UPDATE SKIP LOCKED (MariaDB 10.6, MySQL 8), without which a read back could wait";
        }
        return unknown;
    }

    /** The rows the stable WHERE selects now, read back inside the transaction; empty when the read fails or left warnings. */
    private Optional<List<Map<String, Object>>> byWhere(Write write, long count, dev.isocheck.internal.recording.sql.StableWhere where,
                                                       List<Object> parameters) {
        List<Object> values = new ArrayList<>();
        for (int index : where.parameters()) {
            values.add(index >= 1 && index < parameters.size() ? parameters.get(index) : null);
        }
        return connection.readBackWhere(write.table(), where.text(), values).filter(read -> connection.warnings() == 0);
    }

    /**
     * The row an UPDATE in auto-commit mode wrote, as the statement itself says it: a table of an
     * integer key, its WHERE naming the row by the key, each column it sets set to an integer or a
     * string literal or parameter (as stored, when the server reports no warning), the driver
     * saying it changed that row (or none). The columns it does not set are left out of the
     * table's check ({@link Observation.ColumnsLeftOut}): their values in the row are not known.
     * Such a row needs no read back, which after the commit could see another transaction's
     * version. Empty otherwise.
     */
    private Optional<Observation> wholeRowOfUpdate(Write write, String sql, Object result, Optional<TableColumns> columns,
                                                   List<Object> parameters, TransactionLog log) {
        if (!(result instanceof Number count) || count.longValue() < 0 || count.longValue() > 1 || columns.isEmpty()) {
            return Optional.empty();
        }
        TableColumns table = columns.get();
        if (!table.integerKey() || !updatesByKey(write, table) || !saysItsRows(write, sql, table)) {
            return Optional.empty();
        }
        Optional<Map<String, Object>> key = WrittenKeys.named(write, table.key(), parameters);
        Optional<Map<String, dev.isocheck.internal.recording.sql.AnalysedStatement.Operand>> assigned = SqlAnalyzer.assignedValues(sql);
        if (key.isEmpty() || assigned.isEmpty()) {
            return Optional.empty();
        }
        java.util.Set<String> every = new java.util.HashSet<>(table.key());
        every.addAll(assigned.get().keySet());
        if (!table.columns().keySet().containsAll(every)) {
            return Optional.empty();
        }
        Map<String, Object> row = new java.util.LinkedHashMap<>();
        for (String column : table.key()) {
            Object value = key.get().get(column);
            if (!sameFamily(table.columns().get(column).type(), value)) {
                return Optional.empty();
            }
            row.put(column, value);
        }
        for (Map.Entry<String, dev.isocheck.internal.recording.sql.AnalysedStatement.Operand> set : assigned.get().entrySet()) {
            Object value = set.getValue() == null ? null : WrittenKeys.value(set.getValue(), parameters);
            if (!storedAsWritten(table.columns().get(set.getKey()).type(), value)) {
                return Optional.empty();
            }
            row.put(set.getKey(), value);
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        if (count.longValue() == 1) {
            rows.add(row);
        }
        // A column it does not set (or one ON UPDATE sets) has a value the statement does not say;
        // an UPDATE that changed no row said nothing unknown.
        leaveOutColumnsBut(write, sql, table, rows.isEmpty() ? table.columns().keySet() : every, log, "an UPDATE in auto-commit mode on MySQL or MariaDB that does not"
                + " set the column: its value in the row written is not known (it cannot be read back after the commit)");
        return Optional.of(rowsWritten(write, sql, rows, null, false, log));
    }

    /**
     * Whether the rows an auto-commit write's statement names may be taken as the rows it wrote
     * to {@code table}: every column readable, a key the database does not compute, a table of
     * the connection's own without triggers ({@link #whyNotFromStatement}), and no warning (a
     * value the server stored otherwise than written).
     */
    private boolean saysItsRows(Write write, String sql, TableColumns table) {
        return table.allReadable() && !connection.keyComputed(write.table()) && whyNotFromStatement(write, sql) == null
                && connection.warnings() == 0;
    }

    /**
     * Leaves the columns of {@code table} other than {@code said} out of the check, when the
     * statement wrote rows whose values in them it does not say.
     */
    private void leaveOutColumnsBut(Write write, String sql, TableColumns table, java.util.Set<String> said, TransactionLog log,
                                    String why) {
        java.util.Set<String> unsaid = new java.util.TreeSet<>(table.columns().keySet());
        unsaid.removeAll(said);
        if (!unsaid.isEmpty()) {
            connection.observe(log, new Observation.ColumnsLeftOut(write.table(), unsaid, sql, why));
        }
    }

    /**
     * The rows an INSERT in auto-commit mode wrote, as the statement itself says them: its VALUES
     * list every key column, each value an integer or a string literal or parameter stored as
     * written ({@link #storedAsWritten}), or, for one row, every key column but the one the
     * database numbers, whose number is then the session's {@code LAST_INSERT_ID()}; the driver
     * saying it wrote every row, the server no warning, the table no trigger. A column it does not
     * list (a default, a generated column) is left out of the table's check
     * ({@link Observation.ColumnsLeftOut}). Such rows need no read back, which after the commit
     * could see another transaction's version. Empty otherwise.
     */
    private Optional<Observation> wholeRowsOfInsert(Write write, String sql, Object result, Optional<TableColumns> columns,
                                                    List<Object> parameters, TransactionLog log) {
        Optional<SqlAnalyzer.InsertedValues> values = SqlAnalyzer.insertedValues(sql);
        if (!(result instanceof Number count) || columns.isEmpty() || values.isEmpty()
                || count.longValue() != values.get().rows().size()) {
            return Optional.empty();
        }
        TableColumns table = columns.get();
        if (table.key().isEmpty() || !saysItsRows(write, sql, table)) {
            return Optional.empty();
        }
        List<String> listed = values.get().columns();
        Optional<String> numbered = connection.autoIncrementKey(write.table());
        boolean keyNumbered = numbered.isPresent() && !listed.contains(numbered.get());
        java.util.Set<String> every = new java.util.HashSet<>(listed);
        numbered.filter(n -> keyNumbered).ifPresent(every::add);
        if (!table.columns().keySet().containsAll(every) || !every.containsAll(table.key())
                || keyNumbered && (values.get().rows().size() != 1 || sql.toUpperCase(java.util.Locale.ROOT).contains("LAST_INSERT_ID"))) {
            return Optional.empty();
        }
        List<Map<String, Object>> rows = new ArrayList<>();
        for (List<dev.isocheck.internal.recording.sql.AnalysedStatement.Operand> operands : values.get().rows()) {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            for (int i = 0; i < listed.size(); i++) {
                String column = listed.get(i);
                Object value = operands.get(i) == null ? null : WrittenKeys.value(operands.get(i), parameters);
                if (!storedAsWritten(table.columns().get(column).type(), value)
                        || numbered.filter(column::equals).isPresent() && value instanceof Number n
                        && new java.math.BigDecimal(n.toString()).signum() == 0) {
                    // A zero for the AUTO_INCREMENT key has the database choose a number of its own.
                    return Optional.empty();
                }
                row.put(column, value);
            }
            rows.add(row);
        }
        if (keyNumbered) {
            Optional<Object> number = connection.lastInsertId();
            if (number.isEmpty()) {
                return Optional.empty();
            }
            rows.get(0).put(numbered.get(), number.get());
        }
        java.util.Set<String> keys = new java.util.HashSet<>();
        for (Map<String, Object> row : rows) {
            if (!keys.add(dev.isocheck.internal.recording.RecordedTransaction.key(write.table(), table.key(), row).orElse(""))) {
                // Two rows of one key (or one without): the driver's count says they were written, not how.
                return Optional.empty();
            }
        }
        // A column it does not list has a default (or a generated value) the statement does not say.
        leaveOutColumnsBut(write, sql, table, every, log, "an INSERT in auto-commit mode on MySQL or MariaDB that leaves the"
                + " column to the database (a default, a generated column): its value is not known (it cannot be read back"
                + " after the commit)");
        return Optional.of(rowsWritten(write, sql, rows, null, false, log));
    }

    /**
     * Whether {@code value}, written to a column of {@code type}, is stored and read back as it is:
     * an integer to an integer column, a string to a VARCHAR (a CHAR column is read without its
     * padding); never NULL, which the statement's analysis cannot tell from an expression.
     */
    private static boolean storedAsWritten(int type, Object value) {
        return value instanceof String ? type == java.sql.Types.VARCHAR || type == java.sql.Types.NVARCHAR
                : value != null && sameFamily(type, value);
    }

    /** Why an UPDATE that the driver says changed no row is left out where 0 does not say its WHERE matched none. */
    static final String AFFECTED_ROWS = "the driver counts the rows an UPDATE changed (useAffectedRows=true), not those it"
            + " found: its 0 does not say that no row matched";

    /** The most keys one read back names: an IN list this long still reads by the index. */
    static final int MOST_KEYS_READ_BACK = 1_000;

    /**
     * Why the rows {@code keys} name may not be read back after {@code write} ({@code null} when
     * they may): each reason is a way the locking read could find other rows than the write did,
     * take a lock the write did not, or wait.
     *
     * @param keys the keys the write names; none for the one row an INSERT had numbered
     */
    private String whyNotReadBack(Write write, String sql, TableColumns table, List<Map<String, Object>> keys) {
        String statement = whyNotFromStatement(write, sql);
        if (statement != null) {
            return statement;
        }
        if (!connection.skipsLocked()) {
            return "the server has no SELECT ... FOR UPDATE SKIP LOCKED (MariaDB 10.6, MySQL 8), without which a read back could wait";
        }
        if (keys.size() > (table.key().size() == 1 ? MOST_KEYS_READ_BACK : MOST_KEYS_READ_BACK / 10)) {
            return "the write names more rows than are read back at once";
        }
        Optional<String> numbered = write.kind() == WriteKind.INSERT ? connection.autoIncrementKey(write.table()) : Optional.empty();
        for (Map<String, Object> key : keys) {
            for (String column : table.key()) {
                Object value = key.get(column);
                TableColumns.Column declared = table.columns().get(column);
                if (declared == null || !sameFamily(declared.type(), value)) {
                    return "a key value the statement gives as another type than its column's, which the server would"
                            + " compare otherwise than by the key's index";
                }
                if (numbered.isPresent() && numbered.get().equals(column) && value instanceof Number n
                        && new java.math.BigDecimal(n.toString()).signum() == 0) {
                    return "the INSERT gives its AUTO_INCREMENT key as 0, for which the server may choose a number of its own";
                }
            }
        }
        return null;
    }

    /**
     * Why the rows a write's statement names may not be taken for its table's rows in the
     * connection's own database ({@code null} when they may): a table named with its database
     * (read back in the connection's, it could be another), or one with triggers (which may write
     * any table, and change the row's key).
     */
    private String whyNotFromStatement(Write write, String sql) {
        if (SqlAnalyzer.writesQualifiedTable(sql)) {
            return "the statement names its table with a database or schema, and is read back only in the connection's own";
        }
        if (connection.writesAnywhere(write.table())) {
            return "the table has triggers, which may write any table (and change the key a read back would look for)";
        }
        return null;
    }

    /** Whether an UPDATE names its rows by a WHERE, without LIMIT or ORDER BY, and sets no column of {@code table}'s key. */
    private static boolean updatesByKey(Write write, TableColumns table) {
        return !write.limited() && write.where() != null && write.assigned().stream().noneMatch(table.key()::contains);
    }

    /** Whether a column of {@code type} keeps its value through an UPDATE that does not set it: integers, decimals, strings. */
    private static boolean unchangedUnlessSet(int type) {
        return switch (type) {
            case java.sql.Types.TINYINT, java.sql.Types.SMALLINT, java.sql.Types.INTEGER, java.sql.Types.BIGINT,
                    java.sql.Types.DECIMAL, java.sql.Types.NUMERIC, java.sql.Types.CHAR, java.sql.Types.VARCHAR,
                    java.sql.Types.NCHAR, java.sql.Types.NVARCHAR, java.sql.Types.LONGVARCHAR, java.sql.Types.LONGNVARCHAR -> true;
            default -> false;
        };
    }

    /** Whether {@code value} is an integer for an integer column, or a string for a character column. */
    private static boolean sameFamily(int type, Object value) {
        return switch (type) {
            case java.sql.Types.TINYINT, java.sql.Types.SMALLINT, java.sql.Types.INTEGER, java.sql.Types.BIGINT ->
                    value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                            || value instanceof java.math.BigInteger;
            case java.sql.Types.CHAR, java.sql.Types.VARCHAR, java.sql.Types.NCHAR, java.sql.Types.NVARCHAR,
                    java.sql.Types.LONGVARCHAR, java.sql.Types.LONGNVARCHAR -> value instanceof String;
            default -> false;
        };
    }

    /**
     * What a prepared batch of an INSERT or UPDATE sent as written on MySQL or MariaDB wrote, read
     * back inside its transaction as {@link #readBack} reads one statement's: each entry must name
     * its rows by key (as {@link #readBack} asks) and the driver must say it wrote exactly as many
     * rows as the entry names (MariaDB's bulk batches may say only that each succeeded: then the
     * table is left out), and no two entries may write one row (the rows read back are the last
     * version only). Then all the rows are read back by their keys in one locking read.
     *
     * @param result  what the driver answered: the count of rows each entry wrote
     * @param entries the parameters of each entry, by index (index 0 unused)
     */
    Observation readBackBatch(Write write, String sql, Object result, TransactionLog log, List<List<Object>> entries) {
        Optional<TableColumns> table = connection.knownColumnsOf(write.table());
        String unknown = null;
        List<Map<String, Object>> keys = new ArrayList<>();
        long total = 0;
        if (connection.autoCommit()) {
            unknown = "a batch sent as written in auto-commit mode on MySQL or MariaDB: its rows cannot be read back"
                    + " after its commit (run it in a transaction)";
        } else if (result == null || !result.getClass().isArray() || java.lang.reflect.Array.getLength(result) != entries.size()) {
            unknown = "the batch did not say how many rows each statement wrote";
        } else if (table.isEmpty()) {
            unknown = "the table's primary key is not known";
        } else if (connection.keyComputed(write.table())) {
            unknown = dev.isocheck.internal.recording.RecordedTransaction.KEY_COMPUTED;
        } else if (write.kind() == WriteKind.UPDATE && !updatesByKey(write, table.get())) {
            unknown = "an UPDATE on MySQL or MariaDB is read back by its primary key: this one has no WHERE naming its rows"
                    + " by it, has LIMIT or ORDER BY, or changes the key";
        } else {
            java.util.Set<Map<String, Object>> seen = new java.util.HashSet<>();
            for (int i = 0; i < entries.size() && unknown == null; i++) {
                long count = ((Number) java.lang.reflect.Array.get(result, i)).longValue();
                if (count < 0) {
                    unknown = "the batch did not say how many rows each statement wrote";
                    break;
                }
                if (count == 0) {
                    continue;
                }
                Optional<List<Map<String, Object>>> named = write.kind() == WriteKind.UPDATE
                        ? WrittenKeys.listed(write, table.get().key(), entries.get(i))
                        : WrittenKeys.inserted(sql, table.get().key(), entries.get(i));
                if (named.isEmpty()) {
                    unknown = "a batch's rows on MySQL or MariaDB are read back by their primary keys: this one's entries"
                            + " do not name every key column as a literal or a parameter";
                } else if (named.get().size() != count) {
                    unknown = "an entry of the batch wrote " + count + " of the " + named.get().size() + " rows it names";
                } else if (!named.get().stream().allMatch(seen::add)) {
                    unknown = "the batch writes one row twice, whose first version is not known";
                } else {
                    keys.addAll(named.get());
                    total += count;
                }
            }
            unknown = unknown != null ? unknown : whyNotReadBack(write, sql, table.get(), keys);
        }
        if (unknown == null) {
            if (total == 0) {
                return rowsWritten(write, sql, new ArrayList<>(), null, true, log);
            }
            Optional<List<Map<String, Object>>> rows = connection.readBack(write.table(), keys);
            if (rows.isPresent() && rows.get().size() == total) {
                return rowsWritten(write, sql, new ArrayList<>(rows.get()), null, true, log);
            }
            unknown = "the rows the batch wrote could not be read back";
        }
        return new LeftOut(Optional.of(write.table()), sql, unknown);
    }

    /**
     * The rows in the generated keys of the statement just executed, when there are as many as it
     * wrote and every one could be read; else the table left out.
     */
    Observation fromKeys(Write write, String sql, long count, Statement from, boolean batch, TransactionLog log) {
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
     * The rows a write returned as the observation of them. A DELETE, and an UPDATE whose old rows
     * came back (not in a batch, whose parameters differ row by row), also ranged over its WHERE:
     * when the checker evaluates it exactly, the old rows are the predicate read it was.
     */
    private Observation.RowsWritten rowsWritten(Write write, String sql, List<Map<String, Object>> rows,
                                                List<Map<String, Object>> oldRows, boolean batch, TransactionLog log) {
        boolean deleted = write.kind() == WriteKind.DELETE;
        if (write.kind() == WriteKind.MERGE && log != null) {
            log.notModelled(new NotModelled("the MERGE into " + write.table(),
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
                return new Observation.RowsWritten(write.table(), rows, deleted, write.assigned(), batch, null, oldRows,
                        write.kind() == WriteKind.UPDATE, false);
            } else {
                ExactWhere exact = ExactWhere.of(write.where(), statement.parameters.snapshot(),
                        (column, ordered) -> table.isPresent() && table.get().comparedExactly(column, ordered))
                        .unlessColumnsUnknown(table.isPresent() || connection.knowsColumnsOf(write.table()));
                rangedOver = exact.where();
                reason = exact.reason();
            }
            if (rangedOver == null && log != null) {
                log.notModelled(new NotModelled(
                        "the reads of " + write.table() + (write.where() == null ? "" : " WHERE " + write.where()),
                        "checked as the rows " + (deleted ? "deleted" : "updated") + ", not as a predicate (a phantom goes unseen): " + reason));
            }
        } else if (write.kind() == WriteKind.UPDATE && oldRows == null && rows.isEmpty() && !batch && !write.limited()
                && table.isPresent()) {
            // An UPDATE whose old rows do not come back, that changed nothing: every row it looked
            // at failed its WHERE, the one read of it known without the old rows (UnmatchedWhere
            // says the same of a write sent as written). Where the WHERE is not exact its reads
            // stay unchecked, as an UPDATE's are here.
            rangedOver = ExactWhere.of(write.where(), statement.parameters.snapshot(),
                    table.get()::comparedExactly).where();
        }
        return new Observation.RowsWritten(write.table(), rows, deleted, write.assigned(), batch, rangedOver, oldRows,
                write.kind() == WriteKind.UPDATE, write.kind() == WriteKind.INSERT && !write.isUpsert());
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
     * Lifts the application's {@code setMaxRows} while a write's rows come back to the recorder,
     * which must have them all (a rewritten write's are its update count); returns the cap to restore.
     */
    private int uncapped() throws SQLException {
        int maxRows = statement.real.getMaxRows();
        if (maxRows > 0) {
            statement.real.setMaxRows(0);
        }
        return maxRows;
    }

    private void recap(int maxRows) throws SQLException {
        if (maxRows > 0) {
            statement.real.setMaxRows(maxRows);
        }
    }
}
