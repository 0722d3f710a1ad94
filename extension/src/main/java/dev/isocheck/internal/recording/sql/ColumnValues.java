package dev.isocheck.internal.recording.sql;

import java.math.BigDecimal;
import java.math.BigInteger;
import java.sql.Array;
import java.sql.SQLException;
import java.time.temporal.TemporalAccessor;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.UUID;

/**
 * The one conversion from JDBC column values to the history's JSON-like values, used for the rows
 * read and the rows written alike, so that equal data always gives equal values.
 *
 * <p>Only types whose Java form is determined by the data convert; anything else (LOBs, driver
 * objects such as PostgreSQL's {@code PGobject}, whose identity may leak into {@code toString})
 * is left out of the row. Leaving a column out of every read and every write of it keeps the check
 * sound: a read may see a subset of a row's fields.
 */
public final class ColumnValues {

    /** Stands for "no JSON-like form": the column is left out of the row. */
    public static final Object UNSUPPORTED = new Object();

    private ColumnValues() {
    }

    /** The JSON-like form of {@code value} as {@code ResultSet.getObject} returned it, or {@link #UNSUPPORTED}. */
    public static Object toJson(Object value) {
        if (value == null || value instanceof Boolean || value instanceof String
                || value instanceof Long || value instanceof Integer || value instanceof Short
                || value instanceof Byte || value instanceof BigInteger || value instanceof BigDecimal) {
            return value;
        }
        if (value instanceof Double || value instanceof Float) {
            double d = ((Number) value).doubleValue();
            // NaN and infinities are not JSON numbers; their text is still one value per datum.
            return Double.isFinite(d) ? value : String.valueOf(d);
        }
        if (value instanceof Character || value instanceof UUID || value instanceof TemporalAccessor
                || value instanceof java.util.Date) {
            // java.sql.Date, Time and Timestamp print their value; so do java.time types.
            return value.toString();
        }
        if (value instanceof byte[] bytes) {
            return "0x" + HexFormat.of().formatHex(bytes);
        }
        if (value instanceof Array array) {
            try {
                return list(array.getArray());
            } catch (SQLException | RuntimeException e) {
                return UNSUPPORTED;
            }
        }
        if (value instanceof Object[] items) {
            return list(items);
        }
        return UNSUPPORTED;
    }

    /** A parameter or literal as it may name a key: integers and strings only, else empty. */
    public static Optional<Object> keyPart(Object value) {
        if (value instanceof Long || value instanceof Integer || value instanceof Short || value instanceof Byte
                || value instanceof BigInteger || value instanceof String) {
            return Optional.of(value);
        }
        if (value instanceof BigDecimal d && d.stripTrailingZeros().scale() <= 0) {
            return Optional.of(d.toBigIntegerExact());
        }
        return Optional.empty();
    }

    private static Object list(Object raw) {
        if (!(raw instanceof Object[] items)) {
            return UNSUPPORTED;
        }
        List<Object> out = new ArrayList<>(items.length);
        for (Object item : items) {
            Object json = toJson(item);
            if (json == UNSUPPORTED) {
                return UNSUPPORTED;
            }
            out.add(json);
        }
        return out;
    }
}
