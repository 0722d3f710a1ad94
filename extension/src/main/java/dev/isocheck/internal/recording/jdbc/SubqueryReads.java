package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.NotModelled;
import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.FoundNothing;
import dev.isocheck.internal.recording.sql.TableColumns;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The reads inside one write that what it wrote decides ({@link FoundNothing}): each subquery
 * that must have found nothing for the write to write a row is put among the transaction's reads
 * before the statement runs, empty and open, so that it keeps its place before the write's own
 * rows; once the statement says it wrote a row, each becomes a predicate read of its WHERE that
 * returned nothing. When it wrote nothing, failed, or did not say, they stay empty and unchecked
 * (an open read adds no operation to the history), and the statement is listed as not checked.
 *
 * <p>A subquery is recorded only where the checker evaluates its WHERE exactly as the database
 * did ({@link ExactWhere}) and every column it names unqualified is a column of its table, so
 * that it cannot be correlated with the write around it; its table's columns must be known before
 * the statement runs.
 */
final class SubqueryReads {

    private final RecordedConnection connection;
    private final TransactionLog log;
    private final String sql;
    private final List<RowsRead> reads;
    private final List<String> predicates;
    /** Why the statement's reads inside are not checked, listed when it did not write; {@code null} when listed already. */
    private final String unseen;
    private final boolean coversEverything;

    private SubqueryReads(RecordedConnection connection, TransactionLog log, String sql, List<RowsRead> reads,
                          List<String> predicates, String unseen, boolean coversEverything) {
        this.connection = connection;
        this.log = log;
        this.sql = sql;
        this.reads = reads;
        this.predicates = predicates;
        this.unseen = unseen;
        this.coversEverything = coversEverything;
    }

    /**
     * The reads of {@code sql}'s subqueries that its update count will decide, each observed in
     * {@code log} now; {@code null} when it has none the recorder can record.
     *
     * @param parameters the parameters bound, by index (0 unused); empty for SQL text
     * @param unseen     what {@link dev.isocheck.internal.recording.sql.UnseenReads} says it
     *                   reads unchecked, {@code null} for nothing
     */
    static SubqueryReads of(RecordedConnection connection, TransactionLog log, String sql, List<Object> parameters,
                            String unseen) {
        Optional<FoundNothing.Analysis> found = FoundNothing.of(sql);
        if (found.isEmpty()) {
            return null;
        }
        List<RowsRead> reads = new ArrayList<>();
        List<String> predicates = new ArrayList<>();
        for (FoundNothing.Subquery subquery : found.get().subqueries()) {
            Optional<TableColumns> table = connection.knownColumnsOf(subquery.table());
            if (table.isEmpty() || table.get().key().isEmpty() || table.get().rowSecurity()
                    || !table.get().columns().keySet().containsAll(subquery.unqualified())) {
                continue;
            }
            ExactWhere exact = ExactWhere.of(subquery.where(), parameters,
                    table.get()::comparedExactly);
            if (exact.where() == null) {
                continue;
            }
            RowsRead read = new RowsRead(subquery.table(), Map.of(), false);
            connection.observe(log, read);
            reads.add(read);
            predicates.add(exact.where());
        }
        if (reads.isEmpty()) {
            return null;
        }
        boolean every = found.get().every() && reads.size() == found.get().subqueries().size();
        return new SubqueryReads(connection, log, sql, reads, predicates, every ? unseen : null, every);
    }

    /** Whether these are every read the statement makes besides its own rows: then nothing else needs listing when it writes. */
    boolean coversEverything() {
        return coversEverything;
    }

    /** The statement wrote {@code count} rows ({@code -1}: not known). */
    void wrote(long count) {
        synchronized (connection) {
            for (int i = 0; i < reads.size(); i++) {
                if (count > 0) {
                    // It wrote a row: its WHERE held, and with it each of these subqueries found nothing.
                    reads.get(i).exhausted(predicates.get(i));
                }
                reads.get(i).closed();
            }
        }
        if (count <= 0 && unseen != null && log != null) {
            log.notModelled(new NotModelled("the statement " + sql, unseen
                    + " (when it writes no row, what its NOT EXISTS found is not known)"));
        }
    }
}
