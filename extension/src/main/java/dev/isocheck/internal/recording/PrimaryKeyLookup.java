package dev.isocheck.internal.recording;

import java.util.List;
import java.util.Optional;

/** The primary key columns of a table (lower case, in key order), empty when unknown or none. */
@FunctionalInterface
public interface PrimaryKeyLookup {

    /** The key columns of {@code table}, a normalised table name. */
    Optional<List<String>> keyOf(String table);
}
