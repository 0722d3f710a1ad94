package dev.isocheck.internal.recording;

import java.util.Optional;

/**
 * What the application calls the statement it is about to execute on this thread, such as the
 * Jdbi SqlObject method {@code AccountDao.withdraw}: a framework announces the name just before it
 * executes the statement and withdraws it just after, and the JDBC recorder, which sees only SQL,
 * reads it when it records the statement.
 *
 * <p>The name travels beside the JDBC calls, not through them, so that the application's
 * connections and statements see nothing different. A name is kept with the SQL it was announced
 * for and given only to a statement of that SQL: a statement the framework did not announce, or
 * a name left behind by a failure the framework did not clean up after, names nothing else.
 */
public final class StatementNames {

    private static final ThreadLocal<Announced> ANNOUNCED = new ThreadLocal<>();
    /**
     * Whether any thread ever announced a name: without a framework that names statements, every
     * statement would otherwise pay a thread-local look-up for nothing (it showed in profiles).
     */
    private static volatile boolean everAnnounced;

    private StatementNames() {
    }

    /** A name announced for a statement's SQL. */
    private record Announced(String sql, String name) {
    }

    /** Announces that the calling thread is about to execute {@code sql}, which the application calls {@code name}. */
    public static void announce(String sql, String name) {
        everAnnounced = true;
        ANNOUNCED.set(new Announced(sql, name));
    }

    /** Withdraws the name announced for {@code sql}, if it is still the one announced on this thread. */
    public static void withdraw(String sql) {
        Announced announced = ANNOUNCED.get();
        if (announced != null && announced.sql().equals(sql)) {
            ANNOUNCED.remove();
        }
    }

    /** The name announced on this thread for a statement of {@code sql}; empty when there is none for that SQL. */
    public static Optional<String> of(String sql) {
        if (!everAnnounced) {
            return Optional.empty();
        }
        Announced announced = ANNOUNCED.get();
        return announced != null && announced.sql().equals(sql) ? Optional.of(announced.name()) : Optional.empty();
    }
}
