package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Value;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A row a predicate read did not return, as the edge it justifies sees it: the read, the key it
 * left out, the version of that key it saw (which does not satisfy the predicate) and, for a
 * {@link DependencyType#PREDICATE_READ_WRITE} edge, the later version it missed.
 *
 * <p>On a {@link DependencyType#WRITE_READ} edge the version seen is the one {@link Dependency#from()}
 * installed; on a predicate read-write edge it is the version the case leaves (the initial one, or
 * another transaction's), and {@link #missed()} is {@link Dependency#to()}'s.
 *
 * @param reader    the id of the transaction whose predicate read it is
 * @param read      the predicate read, as not returning {@code key}
 * @param statement the SQL statement that did the read (a {@code SELECT}, or the {@code WHERE} of an
 *                  {@code UPDATE} or {@code DELETE}), when recorded
 * @param table     the table the predicate ranges over
 * @param where     the predicate, as the history states it (parameters in place)
 * @param key       the key it did not return
 * @param saw       the version of {@code key} it saw; empty when only that version's failing the
 *                  predicate is known (several versions remain possible)
 * @param missed    the later version it did not see, for a predicate read-write edge; else empty
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record UnreturnedRow(String reader, OperationRef read, Optional<SqlStatement> statement, String table, String where,
        String key, Optional<Version> saw, Optional<Version> missed) {

    /**
     * The longest SQL (with its parameters) the sentence quotes whole: the edge lists the whole
     * statement under it, so the sentence only has to let the reader recognise it.
     */
    private static final int QUOTED = 160;

    /** Validates. */
    public UnreturnedRow {
        Objects.requireNonNull(reader, "reader is null");
        Objects.requireNonNull(read, "read is null");
        Objects.requireNonNull(statement, "statement is null");
        Objects.requireNonNull(table, "table is null");
        Objects.requireNonNull(where, "where is null");
        Objects.requireNonNull(key, "key is null");
        Objects.requireNonNull(saw, "saw is null");
        Objects.requireNonNull(missed, "missed is null");
    }

    /**
     * The read and what it saw in words: {@code T1's DELETE FROM g WHERE v = ? [20] did not match
     * g/2: it saw T2's version, {"id":2,"v":18}, which does not satisfy v = 20}; without a statement
     * {@code T1's read of g where v = 20 did not return g/2: ...}; a version that deleted the row,
     * {@code it saw T2's delete of g/2}. Not what it missed: why the missed version is later is the
     * edge's {@link Dependency#reason()}.
     */
    public String text() {
        String query = statement.map(s -> reader + "'s " + quoted(s) + " did not match ")
                .orElse(reader + "'s read of " + table + " where " + where + " did not return ");
        return query + key + ": it saw " + saw.map(this::seen).orElse("a version that does not satisfy " + where);
    }

    private String seen(Version version) {
        String whose = version.writer().map(w -> w + "'s version").orElse("the initial version");
        if (version.value().isEmpty()) {
            return whose + ", which, if " + key + " existed, does not satisfy " + where;
        }
        Value value = version.value().get();
        if (value.isAbsent()) {
            return version.writer().map(w -> w + "'s delete of " + key)
                    .orElse("the initial version, in which " + key + " did not exist");
        }
        return whose + ", " + value + ", which does not satisfy " + where;
    }

    /** A statement on one line, its parameters after it, cut at {@link #QUOTED} characters. */
    private static String quoted(SqlStatement statement) {
        String text = statement.sql().strip().replaceAll("\\s+", " ")
                + (statement.parameters().isEmpty() ? "" : " " + statement.parameters());
        if (text.codePointCount(0, text.length()) <= QUOTED) {
            return text;
        }
        return text.substring(0, text.offsetByCodePoints(0, QUOTED)) + "…";
    }

    /**
     * A version of the key: which transaction installed it (none for the initial version), its
     * value when known, and the write and statement behind it.
     *
     * @param writer    the id of the transaction that installed it; empty for the initial version
     * @param value     its value ({@link Value#isAbsent() absent} for a deleted or not yet inserted
     *                  row); empty when not known (an initial value the history does not state)
     * @param write     the write that installed it; empty for the initial version
     * @param statement the SQL statement of that write, when recorded
     */
    @API(status = EXPERIMENTAL, since = "0.1")
    public record Version(Optional<String> writer, Optional<Value> value, Optional<OperationRef> write,
            Optional<SqlStatement> statement) {

        /** Validates. */
        public Version {
            Objects.requireNonNull(writer, "writer is null");
            Objects.requireNonNull(value, "value is null");
            Objects.requireNonNull(write, "write is null");
            Objects.requireNonNull(statement, "statement is null");
        }

        /** The initial version, of {@code value} when known. */
        public static Version initial(Optional<Value> value) {
            return new Version(Optional.empty(), value, Optional.empty(), Optional.empty());
        }
    }
}
