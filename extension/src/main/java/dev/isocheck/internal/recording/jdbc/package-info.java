/**
 * The JDBC side of recording: {@link dev.isocheck.internal.recording.jdbc.RecordingDataSource}
 * (behind {@code Isocheck.record}) and {@link dev.isocheck.internal.recording.jdbc.RecordingDriver}
 * (behind the public {@code dev.isocheck.IsocheckDriver}, for {@code jdbc:isocheck:<real url>}) hand
 * out recorded connections, statements and results.
 *
 * <p><strong>Why JDK dynamic proxies, not datasource-proxy.</strong> datasource-proxy's listeners
 * see every execution, and its {@code QueryTransformer} can rewrite SQL, but a rewritten write
 * returns rows where the application expects an update count: the recorder must then answer
 * {@code executeUpdate}, {@code execute}, {@code getUpdateCount}, {@code getResultSet} and
 * {@code getMoreResults} itself, send batches and {@code executeQuery} calls as the original
 * statement, and read the rows the application moves to before it reads them. Those are
 * the proxy's own method handlers, which datasource-proxy would let us plug in only by replacing its
 * proxy logic: no less code, plus a dependency users would inherit. Dynamic proxies over the four
 * interfaces (DataSource, Connection, Statement and its subtypes, ResultSet; DatabaseMetaData only to
 * return the recorded connection) keep every other call a plain pass-through, so a driver's
 * exceptions, warnings and extension methods reach the application unchanged.
 *
 * <p><strong>Little work on the application's thread.</strong> Recording runs on the threads the
 * application's own transactions run on, so its work is taken from the application's throughput
 * (the target: under 10%, measured in {@code docs/benchmarks.md}). What it sees is kept as
 * it comes (parameters as bound, rows as their values beside the result's column names) and turned
 * into the history when the test ends; what a statement's text implies is derived once per text;
 * the calls made for every statement and every row go to the driver directly, not by reflection.
 *
 * <p><strong>Two ways of recording writes.</strong> Where the database keeps a log of its writes
 * that the recorder can read (PostgreSQL with logical decoding: {@code decoding}), statements that
 * may write are sent exactly as written, and the connection only notes where they stood and learns
 * the server's id of their transaction (a read-only function call before the commit, or after an
 * auto-commit statement). Elsewhere writes are rewritten to return their rows, as above.
 *
 * <p>What the application can tell: error messages that quote the SQL quote the rewritten form
 * (H2) or point at another position (PostgreSQL), though exception classes and SQLSTATEs are the
 * same; {@code unwrap} to a driver class returns the driver's object, whose use is not recorded; a
 * recorded connection runs primary-key look-ups (metadata queries, then a rollback when not in
 * auto-commit mode) between transactions, the first time in each test it meets a table, and with
 * logical decoding the id queries. The invisibility tests compare everything else.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.recording.jdbc;
