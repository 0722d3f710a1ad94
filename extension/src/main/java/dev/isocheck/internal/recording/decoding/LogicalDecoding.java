package dev.isocheck.internal.recording.decoding;

import dev.isocheck.internal.recording.Recording;
import dev.isocheck.internal.recording.WriteLog;
import java.util.Objects;
import java.util.Optional;

/**
 * The write logs of one PostgreSQL database, one per test that records it: what a recorded data
 * source or URL asks before a test's first transaction there. Where the server allows logical
 * decoding ({@code wal_level = logical}, the right to create a replication slot, PostgreSQL 13 or
 * later), each test gets a slot of its own; elsewhere the test's writes come from the statements,
 * and the report says why.
 */
public final class LogicalDecoding {

    private final SideConnections side;

    /** The logs of the database {@code side} connects to. */
    public LogicalDecoding(SideConnections side) {
        this.side = Objects.requireNonNull(side, "side is null");
    }

    /** The log of {@code recording}'s writes to this database, opened now if this is its first transaction here. */
    public Optional<WriteLog> logFor(Recording recording) {
        return recording.writeLog(this, () -> PostgresWriteLog.open(side));
    }
}
