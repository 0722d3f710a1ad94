package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.apiguardian.api.API;

/**
 * An immutable JSON-like value read or written by a transaction: absent (the row or key does
 * not exist), a boolean, a number, a string, an array or an object (a row).
 *
 * <p>Numbers are normalised so that {@code 1}, {@code 1.0} and {@code 1L} are one value: values
 * come from JSON files, JDBC drivers and binary logs, and must compare by what they mean.
 * Object fields are kept sorted, so equal rows print alike.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Value {

    /** The absent value: the key did not exist, or was deleted. Written as JSON {@code null}. */
    public static final Value ABSENT = new Value(null);

    private static final BigInteger LONG_MIN = BigInteger.valueOf(Long.MIN_VALUE);
    private static final BigInteger LONG_MAX = BigInteger.valueOf(Long.MAX_VALUE);
    /**
     * The largest decimal exponent a number may have, either sign: beyond every SQL numeric type
     * (PostgreSQL's {@code numeric} reaches 10^131072), and small enough that no conversion of such a
     * number is expensive.
     */
    public static final int MAX_EXPONENT = 1_000_000;

    /** null, Boolean, Long, BigDecimal (non-integral or beyond long), String, List, or sorted Map. */
    private final Object repr;
    private final int hash;

    private Value(Object repr) {
        this.repr = repr;
        this.hash = hashOf(repr);
    }

    /**
     * A hash of rows and lists that spreads: {@link Map#hashCode()} sums key-xor-value per field, so
     * rows of small numbers ({@code {"balance": 990, "id": 7}}) collide by the thousand and a history
     * of recorded rows interns in quadratic time. Each field's value is mixed before it is combined in
     * the fields' order, which is fixed since a row's map is sorted: equal values still hash alike.
     */
    private static int hashOf(Object repr) {
        if (repr instanceof Map<?, ?> fields) {
            int h = 1;
            for (Map.Entry<?, ?> field : fields.entrySet()) {
                h = 31 * h + field.getKey().hashCode();
                h = 31 * h + mix(field.getValue().hashCode());
            }
            return h;
        }
        if (repr instanceof List<?> items) {
            int h = 1;
            for (Object item : items) {
                h = 31 * h + mix(item.hashCode());
            }
            return h;
        }
        return Objects.hashCode(repr);
    }

    /** MurmurHash3's finaliser: every bit of the input affects every bit of the output. */
    private static int mix(int h) {
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        h ^= h >>> 16;
        return h;
    }

    /** An integer value. */
    public static Value of(long number) {
        return new Value(number);
    }

    /** A string value. */
    public static Value of(String text) {
        return text == null ? ABSENT : new Value(text);
    }

    /** A boolean value. */
    public static Value of(boolean bool) {
        return new Value(bool);
    }

    /**
     * Converts a plain Java value: {@code null} (absent), {@link Boolean}, {@link Number},
     * {@link CharSequence}, {@link Map} with string keys (a row), {@link List} or array of such,
     * or a {@code Value}.
     *
     * @throws IllegalArgumentException for anything else, naming its type, and for a number that
     *     is not finite or whose decimal exponent is beyond &plusmn;{@link #MAX_EXPONENT}
     */
    public static Value of(Object java) {
        if (java == null) {
            return ABSENT;
        }
        if (java instanceof Value value) {
            return value;
        }
        if (java instanceof Boolean bool) {
            return new Value(bool);
        }
        if (java instanceof Number number) {
            return new Value(normalise(number));
        }
        if (java instanceof CharSequence text) {
            return new Value(text.toString());
        }
        if (java instanceof Map<?, ?> map) {
            TreeMap<String, Value> fields = new TreeMap<>();
            for (Map.Entry<?, ?> e : map.entrySet()) {
                if (!(e.getKey() instanceof String name)) {
                    throw new IllegalArgumentException("a row's field names must be strings, not " + e.getKey());
                }
                fields.put(name, of(e.getValue()));
            }
            return new Value(Collections.unmodifiableMap(fields));
        }
        if (java instanceof List<?> list) {
            List<Value> items = new ArrayList<>(list.size());
            for (Object item : list) {
                items.add(of(item));
            }
            return new Value(Collections.unmodifiableList(items));
        }
        if (java instanceof Object[] array) {
            return of(List.of(array));
        }
        throw new IllegalArgumentException("not a JSON-like value: " + java.getClass().getName());
    }

    /** A row: an object value with the given fields. */
    public static Value row(Map<String, ?> fields) {
        return of(fields);
    }

    private static Object normalise(Number number) {
        if (number instanceof Long || number instanceof Integer || number instanceof Short || number instanceof Byte) {
            return number.longValue();
        }
        BigDecimal decimal;
        if (number instanceof BigDecimal big) {
            decimal = big;
        } else if (number instanceof BigInteger big) {
            decimal = new BigDecimal(big);
        } else {
            double d = number.doubleValue();
            if (Double.isNaN(d) || Double.isInfinite(d)) {
                throw new IllegalArgumentException("not a JSON number: " + d);
            }
            decimal = BigDecimal.valueOf(d);
        }
        if (decimal.signum() == 0) {
            return 0L;
        }
        // The decimal exponent of the leading digit, checked before anything that could expand the
        // number (1e100000000 as a BigInteger takes a minute and a gigabyte).
        long exponent = (long) decimal.precision() - decimal.scale() - 1;
        if (Math.abs(exponent) > MAX_EXPONENT) {
            String shown = decimal.toString();
            if (shown.length() > 40) {
                int e = shown.indexOf('E');
                shown = shown.substring(0, 20) + "..." + (e >= 0 ? shown.substring(e) : "");
            }
            throw new IllegalArgumentException("the number " + shown + " is out of range (its decimal exponent, "
                    + exponent + ", is beyond " + MAX_EXPONENT + " either way)");
        }
        decimal = decimal.stripTrailingZeros();
        // 19 digits or more before the point: never a long, so no integer conversion is needed.
        if (decimal.scale() <= 0 && exponent < 19) {
            BigInteger integer = decimal.toBigIntegerExact();
            if (integer.compareTo(LONG_MIN) >= 0 && integer.compareTo(LONG_MAX) <= 0) {
                return integer.longValue();
            }
        }
        return decimal;
    }

    /** Whether this is the absent value (a missing row, a deleted key, SQL NULL of a whole row). */
    public boolean isAbsent() {
        return repr == null;
    }

    /** Whether this is an object (a row with named fields). */
    public boolean isObject() {
        return repr instanceof Map;
    }

    /** Whether this is a number. */
    public boolean isNumber() {
        return repr instanceof Long || repr instanceof BigDecimal;
    }

    /** Whether this is a string. */
    public boolean isString() {
        return repr instanceof String;
    }

    /** Whether this is a boolean. */
    public boolean isBoolean() {
        return repr instanceof Boolean;
    }

    /** Whether this is an array. */
    public boolean isArray() {
        return repr instanceof List;
    }

    /**
     * The fields of an object value, sorted by name; empty for any other value.
     *
     * @return never {@code null} but potentially empty
     */
    @SuppressWarnings("unchecked")
    public Map<String, Value> fields() {
        return repr instanceof Map ? (Map<String, Value>) repr : Map.of();
    }

    /** The field of an object value, or empty when there is no such field or this is no object. */
    public Optional<Value> field(String name) {
        return Optional.ofNullable(fields().get(name));
    }

    /** The items of an array value; empty for any other value. */
    @SuppressWarnings("unchecked")
    public List<Value> items() {
        return repr instanceof List ? (List<Value>) repr : List.of();
    }

    /** The number as a {@link BigDecimal}, or empty if this is not a number. */
    public Optional<BigDecimal> asDecimal() {
        if (repr instanceof Long l) {
            return Optional.of(BigDecimal.valueOf(l));
        }
        return repr instanceof BigDecimal d ? Optional.of(d) : Optional.empty();
    }

    /** The string, or empty if this is not a string. */
    public Optional<String> asString() {
        return repr instanceof String s ? Optional.of(s) : Optional.empty();
    }

    /** The boolean, or empty if this is not a boolean. */
    public Optional<Boolean> asBoolean() {
        return repr instanceof Boolean b ? Optional.of(b) : Optional.empty();
    }

    /**
     * Whether a read that observed this value can have read {@code written}: they are equal, or
     * both are rows and every field observed is in the written row with an equal value (the read
     * selected only some columns). An observed field that is JSON {@code null} also matches a
     * written row that lacks the field: in SQL an unset column is NULL, and a recorder that logs
     * only the inserted columns writes {@code {"id":1}} for the row that {@code SELECT *} reads as
     * {@code {"id":1,"note":null}}. Nested values compare by equality.
     */
    public boolean isConsistentWith(Value written) {
        if (this.equals(written)) {
            return true;
        }
        if (!(repr instanceof Map) || !(written.repr instanceof Map)) {
            return false;
        }
        Map<String, Value> all = written.fields();
        for (Map.Entry<String, Value> e : fields().entrySet()) {
            Value there = all.get(e.getKey());
            if (there == null ? !e.getValue().isAbsent() : !e.getValue().equals(there)) {
                return false;
            }
        }
        return true;
    }

    /**
     * The least value that two observations of one value can both have been read from: the union
     * of two rows' fields, or the value itself when both are equal non-rows; empty when no value
     * is consistent with both (a field with two different values, or two different non-rows).
     */
    public Optional<Value> combinedWith(Value other) {
        if (!isObject() || !other.isObject()) {
            return equals(other) ? Optional.of(this) : Optional.empty();
        }
        TreeMap<String, Value> all = new TreeMap<>(fields());
        for (Map.Entry<String, Value> field : other.fields().entrySet()) {
            Value earlier = all.putIfAbsent(field.getKey(), field.getValue());
            if (earlier != null && !earlier.equals(field.getValue())) {
                return Optional.empty();
            }
        }
        return Optional.of(new Value(Collections.unmodifiableMap(all)));
    }

    /**
     * A plain Java form: {@code null}, Boolean, Long, BigDecimal, String, List or Map, for
     * serialisers.
     */
    public Object toJava() {
        if (repr instanceof Map<?, ?> map) {
            TreeMap<String, Object> out = new TreeMap<>();
            map.forEach((k, v) -> out.put((String) k, ((Value) v).toJava()));
            return out;
        }
        if (repr instanceof List<?> list) {
            List<Object> out = new ArrayList<>(list.size());
            list.forEach(v -> out.add(((Value) v).toJava()));
            return out;
        }
        return repr;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Value other && hash == other.hash && Objects.equals(repr, other.repr);
    }

    @Override
    public int hashCode() {
        return hash;
    }

    /** The value as compact JSON, {@code null} for absent. */
    @Override
    public String toString() {
        try {
            return Json.MAPPER.writeValueAsString(toJava());
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a Value could not be written as JSON", e);
        }
    }

    /**
     * Jackson's writer, made on the first {@link #toString()}: an {@code ObjectMapper} loads about
     * 370 classes (a fifth of a second on a cold JVM), and reading and checking a history never
     * prints a value.
     */
    private static final class Json {

        static final ObjectMapper MAPPER = new ObjectMapper();
    }
}
