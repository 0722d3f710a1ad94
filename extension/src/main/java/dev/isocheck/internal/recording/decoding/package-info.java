/**
 * The database's own account of what a test wrote: PostgreSQL's logical decoding and MariaDB's
 * row-based binary log. Input: a replication slot opened (PostgreSQL), or a position in the log
 * noted (MariaDB), before a test's first transaction on a database; output: a
 * {@link dev.isocheck.internal.recording.WriteLog.Account}, every transaction committed since, its
 * row changes read back as the recorder reads any row and keyed by the table's primary key.
 *
 * <p>{@link dev.isocheck.internal.recording.decoding.LogicalDecoding} opens a slot per test
 * ({@link dev.isocheck.internal.recording.decoding.PostgresWriteLog}), on connections of the
 * recorder's own ({@link dev.isocheck.internal.recording.decoding.SideConnections});
 * {@code TestDecodingOutput} reads the plugin's text and {@code ServerRendering} has the server
 * read each value back as its column's type. On MariaDB {@code MariadbWriteLog} reads the binary
 * log through the replication protocol ({@code ReplicationAccount}: as whom), {@code DdlTables}
 * names the tables its statements change unlisted, and {@code MariadbRendering} reads the row
 * images back through a temporary table of the table's own columns. Matching the log's
 * transactions to the recorded ones,
 * and placing their writes among the reads, is the recording package's
 * ({@code WriteAttribution}, {@code WritePlacement}).
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.recording.decoding;
