package dev.isocheck.internal.rounds;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

/**
 * A violation of strict serializability that a round found, kept as a candidate violation of a
 * weaker level: some of the round's transactions, with only the reads whose every possible source
 * is among them.
 *
 * <p>Below strict serializability a read may see any version of its key, however old or new in
 * real time, so a round's stubs (the folds put first) say nothing there. What does: a history of
 * some transactions, each with its writes (a stub with those it holds: the others are forgotten),
 * and reads only where every write that could have given the value is in it, is valid at a level
 * whenever the whole history is (restrict a valid execution of the whole: each kept read keeps its
 * writer, and what held among the transactions kept held in the whole; fewer writes only relax).
 * So a violation of such a history is one of the whole history. A read's possible
 * sources are the round's writes it is consistent with, the writes the folds forgot
 * ({@link ForgottenWrites}) and the writes of later batches, which this candidate hears of
 * ({@link #laterWrite}) until the last round; only then is it decided ({@link #history}).
 *
 * <p>The transactions taken: those of the violation found, and the writers the round offers for
 * what they read (a lost update needs the write both lost-update readers saw).
 */
final class WeakerViolation {

    /**
     * A read: its transaction's index, its key, and how many reads of that key the transaction made
     * before it (which stays so when keys are left out: a key's operations go together).
     */
    private record ReadRef(int transaction, String key, int nth) {
    }

    /** A read that a later write of a consistent value would make unsure. */
    private record Watch(ReadRef read, Value value) {
    }

    private final int round;
    private final History history;
    private final Map<String, List<Watch>> watched = new HashMap<>();
    /** (transaction, key) whose first read is unsure: its reads, up to the transaction's first write of the key, are left out. */
    private final Set<Map.Entry<Integer, String>> unsureFirst = new HashSet<>();
    /** Later reads that are unsure, left out one by one (the first read stays the first). */
    private final Set<ReadRef> unsureLater = new HashSet<>();

    private WeakerViolation(int round, History history) {
        this.round = round;
        this.history = history;
    }

    /**
     * The candidate of round {@code round}, whose history {@code full} has {@code stubs} stubs
     * first; {@code violation} names the transactions of the violation found (all of the round's
     * when empty). {@code copy} adds a transaction of
     * {@code full} to a builder; {@code builder} declares the
     * round's initial values. Empty ({@code null}) when none of the violation's transactions is in
     * the round.
     */
    static WeakerViolation of(int round, History full, int stubs, List<String> violation, ForgottenWrites forgotten,
            HistoryBuilder builder, Copier copy) {
        Sources sources = new Sources(full);
        Set<Integer> taken = new TreeSet<>();
        if (violation.isEmpty()) {
            for (int i = 0; i < full.size(); i++) {
                taken.add(i);
            }
        } else {
            Map<String, Integer> byId = new HashMap<>();
            for (Transaction t : full.transactions()) {
                byId.put(t.id(), t.index());
            }
            for (String id : violation) {
                Integer i = byId.get(id);
                if (i != null) {
                    taken.add(i);
                }
            }
            if (taken.isEmpty()) {
                return null;
            }
            for (int i : new ArrayList<>(taken)) {
                Transaction t = full.transaction(i);
                for (int op = 0; op < t.size(); op++) {
                    if (t.kind(op) == OpKind.READ && !afterOwnWrite(t, op)) {
                        taken.addAll(sources.of(t, op));
                    }
                }
            }
        }
        Map<Integer, Integer> newIndex = new HashMap<>();
        for (int i : taken) {
            newIndex.put(i, newIndex.size());
        }
        for (int i : taken) {
            copy.copy(builder, full, full.transaction(i));
        }
        WeakerViolation candidate = new WeakerViolation(round, builder.build());
        // A read is sure when every source the round offers is taken and no forgotten write may be one.
        for (int i : taken) {
            Transaction t = full.transaction(i);
            Map<Integer, Integer> readsOfKey = new HashMap<>();
            for (int op = 0; op < t.size(); op++) {
                if (t.kind(op) != OpKind.READ) {
                    continue;
                }
                int nth = readsOfKey.merge(t.key(op), 1, Integer::sum) - 1;
                if (afterOwnWrite(t, op)) {
                    continue;
                }
                String key = full.keys().name(t.key(op));
                Value value = full.values().get(t.value(op));
                ReadRef read = new ReadRef(newIndex.get(i), key, nth);
                boolean sure = i >= stubs && t.isCommitted() && taken.containsAll(sources.of(t, op))
                        && !forgotten.mayHaveGiven(key, value);
                if (sure) {
                    candidate.watched.computeIfAbsent(key, k -> new ArrayList<>()).add(new Watch(read, value));
                } else {
                    candidate.unsure(read);
                }
            }
        }
        return candidate;
    }

    /**
     * The committed last writes of each key in a round's history, by value, and for rows by column
     * and value: the writes a read may have seen, found without comparing it with every version of
     * a hot key.
     */
    private static final class Sources {

        private final History history;
        private final Map<Integer, Map<Value, List<Integer>>> byValue = new HashMap<>();
        private final Map<Integer, Map<String, Map<Value, List<Integer>>>> byColumn = new HashMap<>();
        private final Map<Integer, List<Integer>> rows = new HashMap<>();

        Sources(History history) {
            this.history = history;
            for (Transaction t : history.transactions()) {
                if (!t.isCommitted()) {
                    continue;
                }
                Set<Integer> later = new HashSet<>();
                for (int op = t.size() - 1; op >= 0; op--) {
                    if (t.kind(op) != OpKind.WRITE || !later.add(t.key(op))) {
                        continue;
                    }
                    int key = t.key(op);
                    Value value = history.values().get(t.value(op));
                    byValue.computeIfAbsent(key, k -> new HashMap<>()).computeIfAbsent(value, v -> new ArrayList<>())
                            .add(t.index());
                    if (value.isObject()) {
                        rows.computeIfAbsent(key, k -> new ArrayList<>()).add(t.index());
                        Map<String, Map<Value, List<Integer>>> columns = byColumn.computeIfAbsent(key, k -> new HashMap<>());
                        value.fields().forEach((column, v) -> columns.computeIfAbsent(column, c -> new HashMap<>())
                                .computeIfAbsent(v, x -> new ArrayList<>()).add(t.index()));
                    }
                }
            }
        }

        /** The other transactions whose last write of the key the read {@code op} of {@code t} is consistent with. */
        List<Integer> of(Transaction t, int op) {
            int key = t.key(op);
            Value read = history.values().get(t.value(op));
            List<Integer> found = new ArrayList<>();
            if (!read.isObject()) {
                // Only an equal value is consistent with a value that is not a row.
                for (int w : byValue.getOrDefault(key, Map.of()).getOrDefault(read, List.of())) {
                    if (w != t.index()) {
                        found.add(w);
                    }
                }
                return found;
            }
            // A row written is consistent only if it has each column observed that is not null, equal.
            List<Integer> candidates = rows.getOrDefault(key, List.of());
            for (Map.Entry<String, Value> column : read.fields().entrySet()) {
                if (!column.getValue().isAbsent()) {
                    candidates = byColumn.getOrDefault(key, Map.of()).getOrDefault(column.getKey(), Map.of())
                            .getOrDefault(column.getValue(), List.of());
                    break;
                }
            }
            for (int w : candidates) {
                if (w != t.index() && read.isConsistentWith(history.values().get(history.transaction(w).finalValue(key)))) {
                    found.add(w);
                }
            }
            return found;
        }
    }

    /** Whether operation {@code op} of {@code t} comes after its own write of the same key (and reads that write). */
    private static boolean afterOwnWrite(Transaction t, int op) {
        for (int j = 0; j < op; j++) {
            if (t.kind(j) == OpKind.WRITE && t.key(j) == t.key(op)) {
                return true;
            }
        }
        return false;
    }

    /** Adds a transaction of a history to a builder. */
    interface Copier {
        void copy(HistoryBuilder builder, History from, Transaction t);
    }

    /** A transaction of a later batch wrote {@code value} to {@code key}: a read it is consistent with is no longer sure. */
    void laterWrite(String key, Value value) {
        List<Watch> reads = watched.get(key);
        if (reads == null) {
            return;
        }
        for (java.util.Iterator<Watch> it = reads.iterator(); it.hasNext(); ) {
            Watch w = it.next();
            if (w.value().isConsistentWith(value)) {
                unsure(w.read());
                it.remove();
            }
        }
    }

    /**
     * Leaves {@code read} out; a first read with every other read of its key up to the
     * transaction's own write, so that no later one becomes the first the check sees (and is
     * taken for what the database served, which it need not have been).
     */
    private void unsure(ReadRef read) {
        if (read.nth() == 0) {
            unsureFirst.add(Map.entry(read.transaction(), read.key()));
        } else {
            unsureLater.add(read);
        }
    }

    /** The round that found it. */
    int round() {
        return round;
    }

    /**
     * The history to check at the weaker level: the reads that are not sure left out, and every
     * operation on a key {@code leftOut} accepts (a source that came to distrust a key's writes).
     * A violation of it is one of the whole history, once every later write was heard of.
     */
    History history(Predicate<String> leftOut) {
        Map<Integer, Map<String, Integer>> firstWrite = new HashMap<>();
        for (Transaction t : history.transactions()) {
            for (int op = t.size() - 1; op >= 0; op--) {
                if (t.kind(op) == OpKind.WRITE) {
                    firstWrite.computeIfAbsent(t.index(), x -> new HashMap<>()).put(history.keys().name(t.key(op)), op);
                }
            }
        }
        int[] all = new int[history.size()];
        for (int i = 0; i < all.length; i++) {
            all[i] = i;
        }
        return history.restrictedTo(all, (t, op) -> {
            String key = history.keys().name(t.key(op));
            if (leftOut.test(key)) {
                return false;
            }
            if (t.kind(op) != OpKind.READ) {
                return true;
            }
            // Reads after the transaction's own write of the key read that write: they stay.
            Integer written = firstWrite.getOrDefault(t.index(), Map.of()).get(key);
            if (written != null && op > written) {
                return true;
            }
            if (unsureFirst.contains(Map.entry(t.index(), key))) {
                return false;
            }
            int nth = 0;
            for (int j = 0; j < op; j++) {
                if (t.kind(j) == OpKind.READ && t.key(j) == t.key(op)) {
                    nth++;
                }
            }
            return !unsureLater.contains(new ReadRef(t.index(), key, nth));
        });
    }
}
