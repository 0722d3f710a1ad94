package dev.isocheck.internal.recording.jdbc;

import java.lang.reflect.Method;
import java.sql.Statement;

/**
 * What the application's {@code getGeneratedKeys} gets after an execution for which the recorder
 * asked the driver for generated keys of its own. Each state holds from the execution that set it:
 *
 * <ul>
 *   <li><em>read along</em> ({@link #tee}): the application asked for keys, and the write was sent
 *       asking for every column as well; the application gets its own columns while the recorder
 *       reads the rows with it. Until the next {@code execute…} or the statement's close, where the
 *       recorder reads what the application left; an {@code executeBatch} leaves it as it is.</li>
 *   <li><em>taken</em>: the write was sent asking for every column as keys where the application
 *       asked for none (HSQLDB answers with the rows written; so does a prepared write's batch), so
 *       the driver's keys are the recorder's; the application gets those of a stand-in statement
 *       never executed, as the statement it asked for would have answered. Until the next
 *       {@code execute…} or {@code executeBatch}.</li>
 * </ul>
 *
 * <p>In neither state the driver's statement that ran the last execution answers.
 */
final class GeneratedKeysAnswer {

    /** Makes the stand-in, as the statement the application asked for would have been made. */
    @FunctionalInterface
    interface StandInSource {
        Statement make() throws Throwable;
    }

    /** The keys of the last execution with keys asked for by the application, read along; {@code null} when none. */
    private GeneratedKeysTee tee;
    /** Whether the last execution's generated keys were the recorder's, not what the application asked for. */
    private boolean taken;
    /** Made at the first {@code getGeneratedKeys} after keys were taken, kept until the statement closes. */
    private Statement standIn;

    /** An {@code execute…} call begins: the driver drops the previous execution's keys now. */
    void newExecution() {
        taken = false;
        if (tee != null) {
            tee.drain();
            tee = null;
        }
    }

    /** An {@code executeBatch} begins. */
    void newBatch() {
        taken = false;
    }

    /** The execution just sent reads the application's keys along through {@code tee}. */
    void readAlong(GeneratedKeysTee tee) {
        this.tee = tee;
    }

    /** The execution just sent took the generated keys for the recorder. */
    void takenByRecorder() {
        taken = true;
    }

    /** Answers {@code getGeneratedKeys}; {@code answering} is the driver's statement that ran the last execution. */
    Object answer(Method method, Object[] args, Statement answering, StandInSource standIns) throws Throwable {
        if (tee != null) {
            return tee.keysForApplication();
        }
        if (!taken) {
            return Proxies.call(answering, method, args);
        }
        if (standIn == null) {
            standIn = standIns.make();
        }
        return standIn.getGeneratedKeys();
    }

    /** The statement closes: the keys read along are read to their end, as the driver drops them. */
    void drainReadAlong() {
        if (tee != null) {
            tee.drain();
        }
    }

    /** The statement closes: so does its stand-in. */
    void closeStandIn() throws java.sql.SQLException {
        if (standIn != null) {
            standIn.close();
        }
    }
}
