package dev.isocheck;

import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.internal.recording.Recording;
import java.util.List;
import java.util.function.Consumer;

/**
 * Adds transactions to the recording of the running test as a JDBC recorder would, with threads,
 * connections and SQL: the extension's tests need recorded histories before real recording lands.
 */
final class RecordedTransactions {

    private RecordedTransactions() {
    }

    /** Adds a transaction to the recording the calling thread records into. */
    static void add(Consumer<HistoryBuilder> transaction) {
        Recording.current().orElseThrow(() -> new IllegalStateException("no recording on " + Thread.currentThread().getName()))
                .add(transaction);
    }

    /**
     * One doctor of two goes off call after checking that the other is on call: run by Alice and by
     * Bob at once, each misses the other's update (write skew).
     *
     * @param id      the transaction's id
     * @param doctor  who goes off call
     * @param other   who must stay on call
     * @param session the connection it ran on
     */
    static void goOffCall(String id, String doctor, String other, String session) {
        String thread = Thread.currentThread().getName();
        add(b -> b.transaction(id).session(session).thread(thread)
                .statement(SqlStatement.of("SELECT on_call FROM doctors WHERE name = ?", List.of(other)))
                .read("doctors/" + other, true)
                .statement(SqlStatement.of("UPDATE doctors SET on_call = ? WHERE name = ?", List.of("false", doctor)))
                .write("doctors/" + doctor, false));
    }

    /**
     * {@link #goOffCall} by Alice and by Bob, each on a thread and a connection of its own, as if at
     * once (both read before either wrote); the threads run one after the other so that the
     * history's order, and so the golden messages, do not depend on scheduling.
     */
    static void writeSkewOnTwoThreads() throws InterruptedException {
        Thread alice = new Thread(() -> goOffCall("T1", "alice", "bob", "connection-1"), "alice");
        alice.start();
        alice.join();
        Thread bob = new Thread(() -> goOffCall("T2", "bob", "alice", "connection-2"), "bob");
        bob.start();
        bob.join();
    }
}
