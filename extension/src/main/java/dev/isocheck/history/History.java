package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A recorded history: transactions in file order, grouped into sessions, over an initial state.
 *
 * <p>Immutable once built (see {@link HistoryBuilder}). Transactions are indexed densely from 0
 * in the order they were recorded; {@link Transaction#index()} is that position.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class History {

    private final List<Transaction> transactions;
    private final List<Session> sessions;
    private final KeyTable keys;
    private final ValueTable values;
    private final InitialState initialState;
    private final Map<String, Integer> byId;
    private final int committed;
    private volatile KeyIndex index;

    History(List<Transaction> transactions, List<Session> sessions, KeyTable keys, ValueTable values,
            InitialState initialState) {
        this.transactions = Collections.unmodifiableList(transactions);
        this.sessions = Collections.unmodifiableList(sessions);
        this.keys = keys;
        this.values = values;
        this.initialState = initialState;
        this.byId = new HashMap<>(transactions.size() * 2);
        int c = 0;
        for (Transaction t : transactions) {
            byId.put(t.id(), t.index());
            c += t.isCommitted() ? 1 : 0;
        }
        this.committed = c;
    }

    /** A builder for a new history. */
    public static HistoryBuilder builder() {
        return new HistoryBuilder();
    }

    /**
     * All transactions, committed and aborted, in file order.
     *
     * @return never {@code null} but potentially empty; unmodifiable
     */
    public List<Transaction> transactions() {
        return transactions;
    }

    /** The transaction at a dense index. */
    public Transaction transaction(int index) {
        return transactions.get(index);
    }

    /** The transaction with this id, or empty. */
    public Optional<Transaction> transaction(String id) {
        Integer i = byId.get(id);
        return i == null ? Optional.empty() : Optional.of(transactions.get(i));
    }

    /** How many transactions, committed and aborted. */
    public int size() {
        return transactions.size();
    }

    /** How many transactions committed. */
    public int committedCount() {
        return committed;
    }

    /**
     * The sessions, each with its transactions in session order.
     *
     * @return never {@code null}; unmodifiable
     */
    public List<Session> sessions() {
        return sessions;
    }

    /** The session a transaction ran in. */
    public Session sessionOf(Transaction t) {
        return sessions.get(t.session());
    }

    /** The keys of this history. */
    @API(status = INTERNAL, since = "0.1")
    public KeyTable keys() {
        return keys;
    }

    /** The values of this history. */
    @API(status = INTERNAL, since = "0.1")
    public ValueTable values() {
        return values;
    }

    /** The state before the first transaction. */
    public InitialState initialState() {
        return initialState;
    }

    /** Where each key is read and written; built on first use. */
    @API(status = INTERNAL, since = "0.1")
    public KeyIndex index() {
        KeyIndex built = index;
        if (built == null) {
            synchronized (this) {
                built = index;
                if (built == null) {
                    built = new KeyIndex(this);
                    index = built;
                }
            }
        }
        return built;
    }

    /** The number of operations of all transactions. */
    public long operationCount() {
        long n = 0;
        for (Transaction t : transactions) {
            n += t.size();
        }
        return n;
    }

    /** Whether some committed transaction reads by predicate. */
    public boolean hasCommittedPredicateReads() {
        for (Transaction t : transactions) {
            if (t.isCommitted() && t.hasPredicateReads()) {
                return true;
            }
        }
        return false;
    }

    /** Says which operations of a transaction a {@link #restrictedTo restricted} history keeps. */
    @FunctionalInterface
    public interface OperationFilter {

        /** Whether operation {@code operation} of {@code transaction} (of the original history) is kept. */
        boolean keeps(Transaction transaction, int operation);
    }

    /**
     * The history of some of these transactions only, each with the operations {@code filter} keeps,
     * in file order, over the same initial state, keys and values. Ids, statuses, times and sessions
     * are kept (a session keeps its transactions that are kept; one with none left disappears), so
     * that session and real-time order among the kept transactions are what they were.
     *
     * <p>Why: the explanation stage shrinks a violated history to the fewest transactions that still
     * violate the level, asking the engine about such restrictions.
     *
     * @param transactions the indexes of the transactions to keep, in any order; duplicates ignored
     * @param filter       which of their operations to keep
     * @throws IndexOutOfBoundsException if an index is not a transaction of this history
     */
    public History restrictedTo(int[] transactions, OperationFilter filter) {
        boolean[] kept = new boolean[this.transactions.size()];
        for (int t : transactions) {
            kept[Objects.checkIndex(t, kept.length)] = true;
        }
        int[] newIndex = new int[kept.length];
        Arrays.fill(newIndex, -1);
        // Transactions keep file order, so their new indexes are their ranks among the kept.
        int count = 0;
        for (int t = 0; t < kept.length; t++) {
            if (kept[t]) {
                newIndex[t] = count++;
            }
        }
        List<Session> newSessions = new ArrayList<>();
        int[] newSessionOf = new int[kept.length];
        for (Session session : sessions) {
            int[] members = Arrays.stream(session.transactions()).filter(m -> kept[m]).map(m -> newIndex[m]).toArray();
            if (members.length > 0) {
                for (int m : session.transactions()) {
                    newSessionOf[m] = newSessions.size();
                }
                newSessions.add(new Session(newSessions.size(), session.name(), session.isImplicit(), members));
            }
        }
        List<Transaction> restricted = new ArrayList<>(count);
        for (int t = 0; t < kept.length; t++) {
            if (kept[t]) {
                restricted.add(this.transactions.get(t).restricted(newIndex[t], newSessionOf[t], filter));
            }
        }
        return new History(restricted, newSessions, keys, values, initialState);
    }

    /**
     * This history with the start and end times of the transactions {@code untimed} selects
     * removed: the same transactions, sessions, initial state, keys and values otherwise.
     *
     * <p>Why: the search tries real-time order among some transactions only (the writers), which
     * a reader of an older version than real time allows does not break.
     *
     * @param untimed which transactions lose their times
     */
    public History withoutTimes(java.util.function.Predicate<Transaction> untimed) {
        List<Transaction> kept = new ArrayList<>(transactions.size());
        for (Transaction t : transactions) {
            kept.add(untimed.test(t) ? t.withoutTimes() : t);
        }
        return new History(kept, sessions, keys, values, initialState);
    }

    /**
     * One transaction of a {@link #partitioned partitioned} history: the operations of transaction
     * {@code transaction} of this history that {@code filter} keeps, under the id {@code id}.
     *
     * @param transaction the index of the transaction it is taken from
     * @param id          its id, unique in the partitioned history
     * @param filter      which operations of that transaction it keeps
     */
    public record Part(int transaction, String id, OperationFilter filter) {

        /** Validates. */
        public Part {
            Objects.requireNonNull(id, "id is null");
            Objects.requireNonNull(filter, "filter is null");
        }
    }

    /**
     * The history whose transactions are {@code parts}, in the order given, over the same initial
     * state, keys and values. Each part has the status, times, thread and statements of the
     * transaction it is taken from and belongs to that transaction's session; within a session,
     * parts follow one another in the order given, so listing them in file order keeps session order.
     *
     * <p>Why: prefix consistency is decided as the serializability of the history in which every
     * transaction is split into a part that reads and a part that writes (Biswas and Enea).
     *
     * @throws IllegalArgumentException if two parts share an id
     * @throws IndexOutOfBoundsException if a part names no transaction of this history
     */
    public History partitioned(List<Part> parts) {
        Map<Integer, List<Integer>> members = new java.util.LinkedHashMap<>();
        Map<String, Integer> ids = new HashMap<>();
        for (int p = 0; p < parts.size(); p++) {
            Part part = parts.get(p);
            Transaction from = this.transactions.get(Objects.checkIndex(part.transaction(), this.transactions.size()));
            if (ids.put(part.id(), p) != null) {
                throw new IllegalArgumentException("two parts have the id " + part.id());
            }
            members.computeIfAbsent(from.session(), s -> new ArrayList<>()).add(p);
        }
        List<Session> newSessions = new ArrayList<>();
        int[] newSessionOf = new int[parts.size()];
        java.util.Set<String> names = new java.util.HashSet<>();
        for (Session session : sessions) {
            names.add(session.name());
        }
        for (Map.Entry<Integer, List<Integer>> session : members.entrySet()) {
            Session old = sessions.get(session.getKey());
            int index = newSessions.size();
            int[] ofIt = session.getValue().stream().mapToInt(Integer::intValue).toArray();
            for (int p : ofIt) {
                newSessionOf[p] = index;
            }
            boolean implicit = old.isImplicit() && ofIt.length == 1;
            String name = old.name();
            if (old.isImplicit() && !implicit) {
                // A transaction without a session, now several parts in order: a session of its
                // own, under a name no session has (an implicit session is named after its
                // transaction, which may be another session's name; sessions are told apart by
                // name when a history is rebuilt).
                name += " (parts)";
                while (!names.add(name)) {
                    name += "'";
                }
            }
            newSessions.add(new Session(index, name, implicit, ofIt));
        }
        List<Transaction> built = new ArrayList<>(parts.size());
        for (int p = 0; p < parts.size(); p++) {
            Part part = parts.get(p);
            built.add(this.transactions.get(part.transaction()).restricted(p, newSessionOf[p], part.filter(), part.id()));
        }
        return new History(built, newSessions, keys, values, initialState);
    }

    @Override
    public String toString() {
        return "History of " + transactions.size() + " transactions (" + committed + " committed) in "
                + sessions.size() + " sessions over " + keys.size() + " keys";
    }
}
