package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.WhereText;
import java.lang.reflect.Method;
import java.sql.Statement;
import java.util.Arrays;
import java.util.List;

/**
 * The parameters bound to a prepared statement so far, by their 1-based index: each value as the
 * recorder reads it, and the call that bound it, to replay on another statement of the same SQL.
 * Arrays indexed by position rather than maps: every {@code setX} of the application's goes
 * through here, and three maps per call showed in profiles.
 */
final class BoundParameters {

    private static final Object[] NONE = {};
    private static final Method[] NO_METHODS = {};
    private static final Object[][] NO_CALLS = {};
    /**
     * More than any driver allows (PostgreSQL's protocol caps a statement at 65,535): a larger
     * index is refused by the driver, and is not worth an array of its size.
     */
    private static final int MOST = 1 << 16;

    /** Index i holds parameter i; index 0 unused. Allocated at the first bind: many statements bind nothing. */
    private Object[] values = NONE;
    private Method[] methods = NO_METHODS;
    private Object[][] calls = NO_CALLS;
    /** The highest index bound, 0 when none. */
    private int last;

    /**
     * Notes a {@code setX(index, value, …)} call. The arguments array is kept as it is: a proxy
     * passes each call a fresh one, and the driver's method does not change it.
     */
    void bind(Method method, Object[] args) {
        int index = (Integer) args[0];
        if (index < 1 || index > MOST) {
            // The driver refuses it; nothing is bound.
            return;
        }
        if (index >= values.length) {
            int size = Math.max(index + 1, Math.max(8, values.length * 2));
            values = Arrays.copyOf(values, size);
            methods = Arrays.copyOf(methods, size);
            calls = Arrays.copyOf(calls, size);
        }
        values[index] = method.getName().equals("setNull") ? WhereText.Unbound.NULL : args[1];
        methods[index] = method;
        calls[index] = args;
        last = Math.max(last, index);
    }

    /** Forgets every parameter, as {@code clearParameters} does. */
    void clear() {
        if (last == 0) {
            return;
        }
        Arrays.fill(values, 0, last + 1, null);
        Arrays.fill(methods, 0, last + 1, null);
        Arrays.fill(calls, 0, last + 1, null);
        last = 0;
    }

    /**
     * The value bound at {@code index} as the statement compared it: {@link WhereText.Unbound#NULL}
     * for SQL null, {@link WhereText.Unbound#RETYPED} for one bound otherwise than as itself
     * ({@link #plain}); {@code null} when unbound.
     */
    Object get(int index) {
        return index > 0 && index <= last ? compared(index) : null;
    }

    /** The values by index as the statement compared them ({@link #get}), index 0 unused ({@code null}), as they are now. */
    List<Object> snapshot() {
        Object[] out = new Object[last + 1];
        for (int i = 1; i <= last; i++) {
            out[i] = compared(i);
        }
        return Arrays.asList(out);
    }

    private Object compared(int index) {
        return methods[index] == null || values[index] == WhereText.Unbound.NULL || plain(methods[index].getName(), calls[index])
                ? values[index] : WhereText.Unbound.RETYPED;
    }

    /** The values in placeholder order, as they are now, however bound, for reports; unbound ones {@code null}. */
    Object[] values() {
        return last == 0 ? NONE : Arrays.copyOfRange(values, 1, last + 1);
    }

    /**
     * Whether a {@code setX(index, value, ...)} call binds the value as the value itself, so that a
     * read bound again with {@code setObject(index, value)} compares as the statement did: a
     * two-argument setter (but {@code setNString}, a national string), or {@code setObject} with
     * a target type that is the value's own (a number as a numeric type, a string as VARCHAR, a
     * boolean as BOOLEAN or BIT).
     */
    static boolean plain(String method, Object[] args) {
        if (args.length == 2) {
            return !method.equals("setNString");
        }
        if (args.length != 3 || !method.equals("setObject")) {
            return false;
        }
        Integer type = args[2] instanceof Integer t ? t
                : args[2] instanceof java.sql.JDBCType t ? t.getVendorTypeNumber() : null;
        if (type == null) {
            return false;
        }
        Object value = args[1];
        if (value instanceof Integer || value instanceof Long || value instanceof Short || value instanceof Byte
                || value instanceof java.math.BigInteger) {
            return type == java.sql.Types.TINYINT || type == java.sql.Types.SMALLINT || type == java.sql.Types.INTEGER
                    || type == java.sql.Types.BIGINT || type == java.sql.Types.NUMERIC || type == java.sql.Types.DECIMAL;
        }
        if (value instanceof java.math.BigDecimal) {
            return type == java.sql.Types.NUMERIC || type == java.sql.Types.DECIMAL;
        }
        if (value instanceof String) {
            return type == java.sql.Types.VARCHAR || type == java.sql.Types.LONGVARCHAR;
        }
        if (value instanceof Boolean) {
            return type == java.sql.Types.BOOLEAN || type == java.sql.Types.BIT;
        }
        return false;
    }

    /** A copy, which later binds leave as it is: a batch entry. */
    BoundParameters copy() {
        BoundParameters copy = new BoundParameters();
        copy.values = values.clone();
        copy.methods = methods.clone();
        copy.calls = calls.clone();
        copy.last = last;
        return copy;
    }

    /** Binds the same parameters on {@code target}, in index order, by the same calls. */
    void replayOn(Statement target) throws Throwable {
        for (int i = 1; i <= last; i++) {
            if (methods[i] != null) {
                Proxies.call(target, methods[i], calls[i]);
            }
        }
    }
}
