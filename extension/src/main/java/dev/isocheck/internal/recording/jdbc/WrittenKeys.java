package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.RecordedTransaction;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Operand;
import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.AnalysedStatement.WriteKind;
import dev.isocheck.internal.recording.sql.ColumnValues;
import dev.isocheck.internal.recording.sql.SqlAnalyzer;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The keys of the rows a write sent as written changed, when its text and the count the driver
 * answered say exactly which, without asking the database: an UPDATE or DELETE whose WHERE names
 * one row by every column of an integer primary key ({@code WHERE id = ?}, other conditions
 * beside it allowed), that does not assign a key column, and that changed one row or none.
 *
 * <p>Its callers ask it only for a table whose rows the log shows under the key an UPDATE or
 * DELETE names ({@link PrimaryKeys#logsItsOwnRows}: no rules, no inheritance children, the old key
 * logged).
 *
 * <p>Only integers: a key written in a WHERE is then the value the database holds. Only UPDATE and
 * DELETE: they lock the row they change until their transaction ends, which is what lets
 * {@code WriteAttribution} tell apart, by the order of their commits, two transactions that
 * changed the same rows. Anything else answers {@code null}, and the transaction's id is asked.
 */
final class WrittenKeys {

    private WrittenKeys() {
    }

    /**
     * The keys ({@code table/pk}) of the rows {@code analysed} changed, {@code null} when not
     * known from the statement alone.
     *
     * @param result     what the driver answered: the count of rows changed
     * @param parameters the parameters it ran with by index (index 0 unused), for {@code ?} in its WHERE
     * @param columns    its table's columns, as last looked up
     */
    static Set<String> of(AnalysedStatement analysed, Object result, List<Object> parameters,
                          Optional<TableColumns> columns) {
        if (!(analysed instanceof Write write) || !(write.kind() == WriteKind.UPDATE || write.kind() == WriteKind.DELETE)
                || write.where() == null || write.limited() || !(result instanceof Number count)
                || columns.isEmpty() || !columns.get().integerKey()) {
            return null;
        }
        List<String> key = columns.get().key();
        if (write.assigned().stream().anyMatch(key::contains)) {
            return null;
        }
        if (count.longValue() == 0) {
            return Set.of();
        }
        if (count.longValue() != 1) {
            return null;
        }
        Optional<Map<String, Object>> named = named(write, key, parameters);
        if (named.isEmpty()) {
            return null;
        }
        Map<String, Object> row = new HashMap<>();
        for (String column : key) {
            Optional<Object> part = ColumnValues.keyPart(named.get().get(column)).filter(v -> !(v instanceof String));
            if (part.isEmpty()) {
                return null;
            }
            row.put(column, part.get());
        }
        return RecordedTransaction.key(write.table(), key, row).map(Set::of).orElse(null);
    }

    /**
     * The value {@code write}'s WHERE gives each column of {@code key} by an equality among its
     * top-level conjuncts ({@code id = ?}, {@code id = 7}), as written or as bound; empty when it
     * gives some column none, or NULL.
     *
     * @param parameters the parameters it ran with by index (index 0 unused), for {@code ?}
     */
    static Optional<Map<String, Object>> named(Write write, List<String> key, List<Object> parameters) {
        Map<String, Operand> equalities = SqlAnalyzer.equalities(write.where());
        Map<String, Object> values = new HashMap<>();
        for (String column : key) {
            Object value = value(equalities.get(column), parameters);
            if (value == null) {
                return Optional.empty();
            }
            values.put(column, value);
        }
        return Optional.of(values);
    }

    /**
     * The keys of the rows {@code write}'s WHERE names: one row by an equality on every key column
     * ({@link #named}), or, for a key of one column, the distinct values of its top-level
     * {@code IN (...)} list ({@code WHERE id IN (?, ?) AND ...}); empty when it names none so.
     * Distinct as Java values: two that the database takes for one ({@code 1} and {@code '1'})
     * make the list longer than the rows it can name, which the caller's count then refuses.
     *
     * @param parameters the parameters it ran with by index (index 0 unused), for {@code ?}
     */
    static Optional<List<Map<String, Object>>> listed(Write write, List<String> key, List<Object> parameters) {
        Optional<Map<String, Object>> one = named(write, key, parameters);
        if (one.isPresent()) {
            return Optional.of(List.of(one.get()));
        }
        if (key.size() != 1 || write.where() == null) {
            return Optional.empty();
        }
        return SqlAnalyzer.inList(write.where(), key.get(0))
                .flatMap(values -> distinctKeys(key.get(0), values, parameters));
    }

    /**
     * The keys of the rows an {@code INSERT ... VALUES} lists ({@link SqlAnalyzer#insertedValues}),
     * when each row gives every key column as a literal or a parameter; empty otherwise.
     *
     * @param parameters the parameters it ran with by index (index 0 unused), for {@code ?}
     */
    static Optional<List<Map<String, Object>>> inserted(String sql, List<String> key, List<Object> parameters) {
        Optional<SqlAnalyzer.InsertedValues> values = SqlAnalyzer.insertedValues(sql);
        if (values.isEmpty() || !values.get().columns().containsAll(key)) {
            return Optional.empty();
        }
        java.util.Set<Map<String, Object>> keys = new java.util.LinkedHashSet<>();
        for (List<Operand> row : values.get().rows()) {
            Map<String, Object> one = new HashMap<>();
            for (String column : key) {
                Object value = value(row.get(values.get().columns().indexOf(column)), parameters);
                if (value == null) {
                    return Optional.empty();
                }
                one.put(column, value);
            }
            keys.add(one);
        }
        return Optional.of(List.copyOf(keys));
    }

    private static Optional<List<Map<String, Object>>> distinctKeys(String column, List<Operand> operands, List<Object> parameters) {
        java.util.Set<Map<String, Object>> keys = new java.util.LinkedHashSet<>();
        for (Operand operand : operands) {
            Object value = value(operand, parameters);
            if (value == null) {
                return Optional.empty();
            }
            keys.add(Map.of(column, value));
        }
        return Optional.of(List.copyOf(keys));
    }

    /**
     * What {@code operand} stands for, as written or as bound; {@code null} when not known, NULL,
     * or bound as anything but a number or a string.
     */
    static Object value(Operand operand, List<Object> parameters) {
        if (operand instanceof Operand.Literal literal) {
            return literal.value();
        }
        if (operand instanceof Operand.Parameter p && p.index() >= 1 && p.index() < parameters.size()) {
            // Bound again with setObject alone: a value whose binding took a Calendar or a type
            // (dates, times) could compare otherwise than the application's did.
            Object bound = parameters.get(p.index());
            return bound instanceof Number || bound instanceof String ? bound : null;
        }
        return null;
    }
}
