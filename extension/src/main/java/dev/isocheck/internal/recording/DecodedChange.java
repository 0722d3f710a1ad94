package dev.isocheck.internal.recording;

import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One row change as the database's own log recorded it (PostgreSQL's logical decoding), before
 * its values are read back as the recorder's values: the table as the server named it, and the
 * old and new tuples as text.
 *
 * @param table    the table, schema-qualified as the server printed it (valid SQL)
 * @param kind     what happened to the row
 * @param oldTuple the row before (an UPDATE's or DELETE's replica identity: every column with
 *                 {@code REPLICA IDENTITY FULL}, else the key, or nothing); {@code null} when none
 * @param newTuple the row after (INSERT, UPDATE); {@code null} when none
 */
public record DecodedChange(String table, Kind kind, Map<String, String> oldTuple, Map<String, String> newTuple,
                            List<String> truncated) {

    /** A row change. */
    public DecodedChange(String table, Kind kind, Map<String, String> oldTuple, Map<String, String> newTuple) {
        this(table, kind, oldTuple, newTuple, List.of());
    }

    /** Validates. */
    public DecodedChange {
        Objects.requireNonNull(table, "table is null");
        Objects.requireNonNull(kind, "kind is null");
        truncated = List.copyOf(truncated);
    }

    /** Tables emptied by one TRUNCATE. */
    public static DecodedChange truncate(List<String> tables) {
        return new DecodedChange(String.join(", ", tables), Kind.TRUNCATE, null, null, tables);
    }

    /** What a change did. */
    public enum Kind {
        /** A row inserted. */
        INSERT,
        /** A row updated. */
        UPDATE,
        /** A row deleted. */
        DELETE,
        /** Every row of the tables removed. */
        TRUNCATE
    }
}
