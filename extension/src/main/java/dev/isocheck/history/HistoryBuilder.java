package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import org.apiguardian.api.API;

/**
 * Builds a {@link History}: used by the file readers, the simulated databases, the decomposition
 * into independent parts, and tests.
 *
 * <pre>{@code
 * HistoryBuilder b = History.builder().initialValue("x", 0).initialStateComplete(true);
 * b.transaction("T1").session("alice").read("x", 0).write("x", 1);
 * b.transaction("T2").session("bob").read("x", 0).write("x", 2);
 * History lostUpdate = b.build();
 * }</pre>
 *
 * <p>Transactions keep the order in which they are added. A builder builds once.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class HistoryBuilder {

    private final KeyTable keys = new KeyTable();
    private final ValueTable values = new ValueTable();
    private final Map<Integer, Integer> initial = new HashMap<>();
    private final List<TransactionBuilder> transactions = new ArrayList<>();
    private final Set<String> ids = new HashSet<>();
    private boolean complete;
    private UnknownInitialValues unknownValues = UnknownInitialValues.UNWRITTEN;
    private boolean built;

    HistoryBuilder() {
    }

    /** Declares the value a key held before the first transaction. */
    public HistoryBuilder initialValue(String key, Object value) {
        checkOpen();
        initial.put(keys.intern(key), values.intern(Value.of(value)));
        return this;
    }

    /** Declares that every key without an {@link #initialValue initial value} was absent. Defaults to {@code false}. */
    public HistoryBuilder initialStateComplete(boolean complete) {
        checkOpen();
        this.complete = complete;
        return this;
    }

    /**
     * Declares what the initial value of a key without an {@link #initialValue initial value} may be
     * (the history format's {@code "unknown"}). Defaults to {@link UnknownInitialValues#UNWRITTEN}:
     * a value no transaction writes. A recorder that never saw the database's initial rows declares
     * {@link UnknownInitialValues#ANY}. Changes nothing in a {@link #initialStateComplete complete}
     * initial state, where no key is unknown.
     *
     * @throws NullPointerException if {@code unknown} is {@code null}
     */
    public HistoryBuilder unknownInitialValues(UnknownInitialValues unknown) {
        checkOpen();
        this.unknownValues = Objects.requireNonNull(unknown, "unknown is null");
        return this;
    }

    /** Whether a transaction with this id was added already. */
    public boolean hasTransaction(String id) {
        return ids.contains(id);
    }

    /**
     * Adds a committed transaction with no session of its own yet, to be filled through the
     * returned builder.
     *
     * @param id a {@link String} or an integral {@link Number}, unique in the history
     * @throws IllegalArgumentException if the id was used already or is of another type
     */
    public TransactionBuilder transaction(Object id) {
        checkOpen();
        String text;
        boolean numeric;
        if (id instanceof String s) {
            text = s;
            numeric = false;
        } else if (id instanceof Long || id instanceof Integer || id instanceof Short || id instanceof Byte) {
            text = id.toString();
            numeric = true;
        } else {
            throw new IllegalArgumentException("a transaction id must be a string or an integer, not " + id);
        }
        if (!ids.add(text)) {
            throw new IllegalArgumentException("duplicate transaction id " + text);
        }
        TransactionBuilder t = new TransactionBuilder(text, numeric);
        transactions.add(t);
        return t;
    }

    /** How many transactions were added. */
    public int size() {
        return transactions.size();
    }

    /** Builds the history; the builder cannot be used afterwards. */
    public History build() {
        checkOpen();
        built = true;
        Map<String, List<Integer>> named = new LinkedHashMap<>();
        List<Session> sessions = new ArrayList<>();
        int[] sessionOf = new int[transactions.size()];
        // Sessions are numbered by first appearance, so that their order is the file's.
        List<Object> order = new ArrayList<>();
        for (int i = 0; i < transactions.size(); i++) {
            TransactionBuilder t = transactions.get(i);
            if (t.session == null) {
                order.add(i);
            } else if (!named.containsKey(t.session)) {
                named.put(t.session, new ArrayList<>());
                order.add(t.session);
            }
            if (t.session != null) {
                named.get(t.session).add(i);
            }
        }
        for (Object o : order) {
            int index = sessions.size();
            if (o instanceof Integer i) {
                sessions.add(new Session(index, transactions.get(i).id, true, new int[] {i}));
                sessionOf[i] = index;
            } else {
                String name = (String) o;
                int[] members = named.get(name).stream().mapToInt(Integer::intValue).toArray();
                sessions.add(new Session(index, name, false, members));
                for (int m : members) {
                    sessionOf[m] = index;
                }
            }
        }
        List<Transaction> built = new ArrayList<>(transactions.size());
        for (int i = 0; i < transactions.size(); i++) {
            built.add(transactions.get(i).build(i, sessionOf[i]));
        }
        int[] byKey = new int[keys.size()];
        Arrays.fill(byKey, complete ? ValueTable.ABSENT : InitialState.UNKNOWN);
        initial.forEach((k, v) -> byKey[k] = v);
        return new History(built, sessions, keys, values, new InitialState(byKey, complete, unknownValues));
    }

    private void checkOpen() {
        if (built) {
            throw new IllegalStateException("this HistoryBuilder has built its history already");
        }
    }

    /** Fills one transaction; operations are kept in the order they are added. */
    public final class TransactionBuilder {

        private final String id;
        private final boolean numericId;
        private String session;
        private Status status = Status.COMMITTED;
        private long start = Transaction.NO_TIME;
        private long end = Transaction.NO_TIME;
        private byte[] kinds = new byte[4];
        private int[] opKeys = new int[4];
        private int[] opValues = new int[4];
        private int size;
        private final List<PredicateRead> predicates = new ArrayList<>(0);
        private String thread;
        private final List<SqlStatement> statements = new ArrayList<>(0);
        private int[] opStatements = new int[0];
        private int currentStatement = -1;

        private TransactionBuilder(String id, boolean numericId) {
            this.id = id;
            this.numericId = numericId;
        }

        /** The session this transaction ran in; transactions of a session ran in the order added. */
        public TransactionBuilder session(String name) {
            checkOpen();
            this.session = name;
            return this;
        }

        /** Sets the outcome. Defaults to {@link Status#COMMITTED}. */
        public TransactionBuilder status(Status status) {
            checkOpen();
            this.status = status;
            return this;
        }

        /** Marks the transaction aborted. */
        public TransactionBuilder aborted() {
            return status(Status.ABORTED);
        }

        /** Sets when the transaction started and when its end was acknowledged. */
        public TransactionBuilder times(long start, long end) {
            checkOpen();
            if (end < start) {
                throw new IllegalArgumentException("transaction " + id + " ends (" + end + ") before it starts (" + start + ")");
            }
            this.start = start;
            this.end = end;
            return this;
        }

        /**
         * Sets only when the transaction started, for histories that recorded no end.
         *
         * @throws IllegalArgumentException if {@code start} is {@link Transaction#NO_TIME}, or
         *                                  after an end set already
         */
        public TransactionBuilder start(long start) {
            checkOpen();
            checkTimes(start, end == Transaction.NO_TIME ? start : end, start);
            this.start = start;
            return this;
        }

        /**
         * Sets only when the transaction's end was acknowledged, for histories that recorded no start.
         *
         * @throws IllegalArgumentException if {@code end} is {@link Transaction#NO_TIME}, or
         *                                  before a start set already
         */
        public TransactionBuilder end(long end) {
            checkOpen();
            checkTimes(start == Transaction.NO_TIME ? end : start, end, end);
            this.end = end;
            return this;
        }

        private void checkTimes(long start, long end, long given) {
            if (given == Transaction.NO_TIME) {
                throw new IllegalArgumentException("transaction " + id + ": " + Transaction.NO_TIME
                        + " is reserved for \"no time\"");
            }
            if (end < start) {
                throw new IllegalArgumentException("transaction " + id + " ends (" + end + ") before it starts (" + start + ")");
            }
        }

        /** Records the thread that ran the transaction, for reports; checking ignores it. */
        public TransactionBuilder thread(String name) {
            checkOpen();
            this.thread = Objects.requireNonNull(name, "name is null");
            return this;
        }

        /**
         * Records a statement the application sent; the operations added after it, until the next
         * statement, are what it did. For reports; checking ignores it.
         */
        public TransactionBuilder statement(SqlStatement statement) {
            checkOpen();
            statements.add(Objects.requireNonNull(statement, "statement is null"));
            if (opStatements.length == 0) {
                opStatements = new int[Math.max(kinds.length, 4)];
                Arrays.fill(opStatements, -1);
            }
            currentStatement = statements.size() - 1;
            return this;
        }

        /**
         * Says that the operations added after this, until the next call or {@link #statement},
         * were done by the statement at {@code index} among those added so far, or by none for
         * {@code -1}. For readers of files that give each operation's statement by index; a
         * recorder adds each statement before its operations instead.
         *
         * @throws IndexOutOfBoundsException if {@code index} is neither {@code -1} nor the index of
         *                                   a statement added already
         */
        public TransactionBuilder fromStatement(int index) {
            checkOpen();
            if (index != -1) {
                Objects.checkIndex(index, statements.size());
            }
            currentStatement = index;
            return this;
        }

        /** Adds a read of {@code key} that observed {@code value} ({@code null}: absent). */
        public TransactionBuilder read(String key, Object value) {
            return add(OpKind.READ, keys.intern(key), values.intern(Value.of(value)));
        }

        /** Adds a write of {@code value} to {@code key} ({@code null}: delete). */
        public TransactionBuilder write(String key, Object value) {
            return add(OpKind.WRITE, keys.intern(key), values.intern(Value.of(value)));
        }

        /** Adds a read of {@code key} observing an absent row: shorthand for {@code read(key, null)}. */
        public TransactionBuilder readAbsent(String key) {
            return read(key, null);
        }

        /** Adds a delete of {@code key}: shorthand for {@code write(key, null)}. */
        public TransactionBuilder delete(String key) {
            return write(key, null);
        }

        /**
         * Adds a predicate read over {@code table} that returned {@code rows} (key to value
         * observed, in the order returned).
         */
        public TransactionBuilder predicate(String table, String where, Map<String, ?> rows) {
            checkOpen();
            int[] rowKeys = new int[rows.size()];
            int[] rowValues = new int[rows.size()];
            int i = 0;
            for (Map.Entry<String, ?> row : rows.entrySet()) {
                if (!row.getKey().startsWith(table + "/")) {
                    throw new IllegalArgumentException("row " + row.getKey() + " returned by a predicate read of table "
                            + table + " is not a key of that table (it must start with \"" + table + "/\")");
                }
                rowKeys[i] = keys.intern(row.getKey());
                rowValues[i] = values.intern(Value.of(row.getValue()));
                i++;
            }
            predicates.add(new PredicateRead(table, where, rowKeys, rowValues, keys, values));
            return add(OpKind.PREDICATE, -1, predicates.size() - 1);
        }

        private TransactionBuilder add(OpKind kind, int key, int value) {
            checkOpen();
            if (size == kinds.length) {
                int capacity = size * 2;
                kinds = Arrays.copyOf(kinds, capacity);
                opKeys = Arrays.copyOf(opKeys, capacity);
                opValues = Arrays.copyOf(opValues, capacity);
            }
            if (opStatements.length > 0) {
                if (opStatements.length <= size) {
                    int old = opStatements.length;
                    opStatements = Arrays.copyOf(opStatements, Math.max(kinds.length, old * 2));
                    Arrays.fill(opStatements, old, opStatements.length, -1);
                }
                opStatements[size] = currentStatement;
            }
            kinds[size] = (byte) kind.ordinal();
            opKeys[size] = key;
            opValues[size] = value;
            size++;
            return this;
        }

        /** The id given to this transaction. */
        public String id() {
            return id;
        }

        /** How many operations were added so far. */
        public int size() {
            return size;
        }

        private Transaction build(int index, int sessionIndex) {
            return new Transaction(index, id, numericId, sessionIndex, status, start, end,
                    Arrays.copyOf(kinds, size), Arrays.copyOf(opKeys, size), Arrays.copyOf(opValues, size),
                    predicates.toArray(new PredicateRead[0]), origin(), keys, values);
        }

        private Transaction.Origin origin() {
            if (thread == null && statements.isEmpty()) {
                return Transaction.Origin.NONE;
            }
            int[] statementOf = statements.isEmpty() ? new int[0] : Arrays.copyOf(opStatements, size);
            return new Transaction.Origin(thread, List.copyOf(statements), statementOf);
        }
    }
}
