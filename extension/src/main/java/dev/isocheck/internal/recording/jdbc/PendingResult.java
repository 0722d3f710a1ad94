package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.Observation.RowsRead;
import dev.isocheck.internal.recording.TransactionLog;
import dev.isocheck.internal.recording.sql.AnalysedStatement;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import java.util.List;

/**
 * What the result of an {@code execute()} that answered {@code true} reads, for the application
 * fetches that result later, with {@code getResultSet()}. Live from such an execution until the
 * first {@code getResultSet()} that hands out a result, which takes it; its parts are set and
 * cleared together.
 *
 * @param read       the reads the result will show, {@code null} when it cannot be keyed
 * @param log        the transaction the statement ran in
 * @param analysed   the statement as analysed
 * @param hidden     the columns added to it for the recorder, {@code null} when none
 * @param parameters the parameters it ran with: the application may bind others before it asks for
 *                   the result
 */
record PendingResult(RowsRead read, TransactionLog log, AnalysedStatement analysed, HiddenColumns hidden,
                     List<Object> parameters) {
}
