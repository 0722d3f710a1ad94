package dev.isocheck.internal.recording;

import java.util.List;
import java.util.Optional;

/**
 * What the recorder needs to know about a table beyond the statements: its primary key, and the
 * tables a write to it changes without the application's statement showing it.
 */
@FunctionalInterface
public interface PrimaryKeyLookup {

    /** The key columns of {@code table}, a normalised table name (lower case, in key order); empty when unknown or none. */
    Optional<List<String>> keyOf(String table);

    /**
     * The tables a write to {@code table} may change unseen, with why: the children of its
     * cascading foreign keys, or {@code "*"} (every table) when it has triggers.
     */
    default java.util.Map<String, String> changedAlongWith(String table) {
        return java.util.Map.of();
    }

    /**
     * Whether a query of {@code table} may not see rows that are there (PostgreSQL's row-level
     * security, or a table whose security was never looked up on PostgreSQL): what it returned is
     * then not every row its WHERE selects, and an empty result proves no absence.
     */
    default boolean hidesRows(String table) {
        return false;
    }

    /**
     * Whether a primary key column of {@code table} is computed by the database (a generated
     * column): an UPDATE that sets none of the key's columns may still move a row to another key.
     */
    default boolean keyComputed(String table) {
        return false;
    }
}
