package dev.isocheck.internal.recording.jdbc;

/**
 * What the application is told about an execution sent as a rewritten write: the rewritten form
 * returned rows, which the recorder read and the statement as written would not have returned, so
 * the application is told their count and of no result. Live from that execution until the next
 * {@code execute…} or {@code executeBatch}: meanwhile {@code getUpdateCount} answers the count,
 * {@code getResultSet} no result, and {@code getMoreResults} moves past the count.
 *
 * @param count the update count, -1 once {@code getMoreResults} moved past it
 */
record RewrittenAnswer(long count) {

    /** The answer once {@code getMoreResults} moved past the count: no more results, no count. */
    RewrittenAnswer movedPast() {
        return new RewrittenAnswer(-1);
    }
}
