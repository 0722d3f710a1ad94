package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.AnalysedStatement.Write;
import dev.isocheck.internal.recording.sql.HiddenColumns;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * What the recorder prepared for one of the application's prepared statements, and so how it
 * sends it: chosen once, when the application prepares it ({@link StatementPreparation}), and held
 * until the statement closes. What each mode holds is live for as long as it is the statement's.
 */
sealed interface PreparedMode {

    /** Prepared as the application wrote it: the logic needs nothing more. */
    PreparedMode AS_WRITTEN = new AsWritten();

    /**
     * The application's own prepare call where the recorder prepared another statement in its
     * place, to prepare the statement it asked for; {@code null} where the recorder prepared that.
     */
    ApplicationPrepare application();

    /**
     * Prepared as the application wrote it: where the database's log records the writes, for a
     * stored procedure call, and wherever no other mode could be prepared (a write's table is then
     * left out).
     */
    record AsWritten() implements PreparedMode {
        @Override
        public ApplicationPrepare application() {
            return null;
        }
    }

    /**
     * A query prepared with columns added for the recorder ({@code columns}: the rows its WHERE
     * ranged over), hidden from the application's results and metadata.
     */
    record HiddenPlan(HiddenColumns columns) implements PreparedMode {
        @Override
        public ApplicationPrepare application() {
            return null;
        }
    }

    /**
     * A write prepared asking for every column of its table as generated keys, which the database
     * answers with the rows written (HSQLDB). The application asked for no keys: after an execution
     * its {@code getGeneratedKeys} gets a stand-in's ({@link GeneratedKeysAnswer}).
     */
    record KeysAsRows(Write write, ApplicationPrepare application) implements PreparedMode {
    }

    /**
     * A write whose application asked for generated keys, prepared asking for every column as well:
     * the recorder reads the rows along with the application ({@link GeneratedKeysTee}).
     *
     * @param visible how many key columns the application asked for, -1 when it sees every column
     *                the driver returns
     */
    record KeysReadAlong(Write write, int visible, ApplicationPrepare application) implements PreparedMode {
    }

    /**
     * A write prepared in its dialect's rewritten form, which returns the rows written. What that
     * form cannot do as the application's would (a batch, whose statements may not return rows;
     * {@code executeQuery}; result metadata) runs on the original, prepared when first needed.
     */
    final class Rewritten implements PreparedMode {

        private final ApplicationPrepare application;
        /** The original, made at the first batch, {@code executeQuery} or {@code getMetaData} that needs it. */
        private PreparedStatement original;
        /** The original asking for every column as generated keys, made at the first batch that may use it. */
        private PreparedStatement batchOriginal;
        /**
         * The driver's statement that ran the last batch (one of the two above): it answers what
         * the application asks about that run. {@code null} from the next execution on.
         */
        Statement ranOn;

        /**
         * For a write with a RETURNING of its own, how it was rewritten: its queries
         * ({@code executeQuery}, {@code execute}) run the rewritten form, whose rows the recorder
         * reads along ({@link ReturnedRowsTee}); {@code null} for a write rewritten to return its
         * rows as its update count.
         */
        private final ReturnedRowsTee.Plan returning;

        Rewritten(ApplicationPrepare application) {
            this(application, null);
        }

        Rewritten(ApplicationPrepare application, ReturnedRowsTee.Plan returning) {
            this.application = application;
            this.returning = returning;
        }

        /** How a write with a RETURNING of its own was rewritten; {@code null} for any other write. */
        ReturnedRowsTee.Plan returning() {
            return returning;
        }

        @Override
        public ApplicationPrepare application() {
            return application;
        }

        /** The original statement, prepared as the application asked. */
        PreparedStatement original() throws Throwable {
            if (original == null) {
                original = application.again();
            }
            return original;
        }

        /**
         * The original asking for {@code columns} (every column) as generated keys, for a batch;
         * {@code null} when the driver refuses to prepare it.
         */
        PreparedStatement batchOriginal(String sql, String[] columns) {
            if (batchOriginal == null) {
                try {
                    batchOriginal = application.connection().prepareStatement(sql, columns);
                } catch (SQLException e) {
                    return null;
                }
            }
            return batchOriginal;
        }

        void closeOriginal() throws SQLException {
            if (original != null) {
                original.close();
            }
        }

        void closeBatchOriginal() throws SQLException {
            if (batchOriginal != null) {
                batchOriginal.close();
            }
        }
    }
}
