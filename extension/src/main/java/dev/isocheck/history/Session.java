package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import org.apiguardian.api.API;

/**
 * A client session: its transactions ran one after another, in this order (session order).
 *
 * <p>A transaction recorded without a session is a session of its own, {@link #isImplicit()
 * implicit}, named after the transaction.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class Session {

    private final int index;
    private final String name;
    private final boolean implicit;
    private final int[] transactions;

    Session(int index, String name, boolean implicit, int[] transactions) {
        this.index = index;
        this.name = name;
        this.implicit = implicit;
        this.transactions = transactions;
    }

    /** The dense index of this session in its history. */
    public int index() {
        return index;
    }

    /** The session's name as recorded, or the transaction's id for an implicit session. */
    public String name() {
        return name;
    }

    /** Whether the history named no session for this (single) transaction. */
    public boolean isImplicit() {
        return implicit;
    }

    /** The indexes of the session's transactions, committed and aborted, in session order. */
    public int[] transactions() {
        return transactions.clone();
    }

    /** How many transactions the session ran. */
    public int size() {
        return transactions.length;
    }

    /** The index of the {@code i}-th transaction of the session. */
    public int transaction(int i) {
        return transactions[i];
    }

    @Override
    public String toString() {
        return "session " + name;
    }
}
