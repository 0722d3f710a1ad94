package dev.isocheck.internal.rounds;

import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.Value;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.BiConsumer;

/**
 * What the folded prefix left, key by key: its last version of each key it wrote (its writer and
 * value; several writers where no known order decided which was last, and the round said so),
 * reads that pinned a key's unknown initial value, and values aborted transactions wrote to a key
 * whose unknown initial value is one no transaction writes.
 *
 * <p>A round's history holds these as stub transactions, under the ids of the transactions they
 * come from, timed before every transaction the round holds (the folded prefix precedes them all):
 * at their own times where those are so, else ending just before the first one kept starts; and only
 * for the keys the round's transactions touch: a stub's operations on other keys can neither be
 * seen nor see anything there.
 */
final class FoldedState {

    /** One operation a stub holds: a transaction's write or pinned read of a key, from one fold. */
    private record Entry(String transaction, boolean numericId, boolean aborted, long fold, long start, long end, Value value) {
    }

    private final Map<String, List<Entry>> versions = new HashMap<>();
    private final Map<String, List<Entry>> pins = new HashMap<>();
    private final Map<String, List<Entry>> abortedWrites = new HashMap<>();
    private long entries;
    /** Hears each write the state lets go of (a version overwritten, an aborted value no longer needed). */
    private BiConsumer<String, Value> forgotten = (key, value) -> { };

    /** Tells {@code listener} of each write the state no longer holds from now on. */
    void onForget(BiConsumer<String, Value> listener) {
        this.forgotten = listener;
    }

    /** Whether the folded prefix wrote {@code key} (committed). */
    boolean written(String key) {
        return versions.containsKey(key);
    }

    /**
     * The key's version is now the one {@code writers} wrote last (one of them, unless decided).
     * Its pins stay: they say what its initial value was, which explanations of later reads use.
     */
    void overwrite(String key, List<Version> writers, long fold) {
        List<Entry> now = new ArrayList<>(writers.size());
        for (Version v : writers) {
            now.add(new Entry(v.transaction(), v.numericId(), false, fold, v.start(), v.end(), v.value()));
        }
        List<Entry> before = versions.put(key, now);
        entries += now.size() - (before == null ? 0 : before.size());
        // A key written is read from its version from now on: the aborted values that kept its
        // unknown initial value from being one of them no longer matter.
        List<Entry> aborted = abortedWrites.remove(key);
        entries -= aborted == null ? 0 : aborted.size();
        for (List<Entry> gone : java.util.Arrays.asList(before, aborted)) {
            if (gone != null) {
                gone.forEach(e -> forgotten.accept(key, e.value()));
            }
        }
    }

    /** A transaction of the prefix read {@code value} of the key's unknown initial value; whether it is new. */
    boolean pin(String key, Version read, long fold) {
        List<Entry> list = pins.computeIfAbsent(key, k -> new ArrayList<>(1));
        for (Entry e : list) {
            if (e.value().equals(read.value())) {
                return false;
            }
        }
        list.add(new Entry(read.transaction(), read.numericId(), false, fold, read.start(), read.end(), read.value()));
        entries++;
        return true;
    }

    /** An aborted transaction of the prefix wrote {@code value} to a key whose initial value is unknown and unwritten. */
    void abortedWrite(String key, Version write, long fold) {
        abortedWrites.computeIfAbsent(key, k -> new ArrayList<>(1))
                .add(new Entry(write.transaction(), write.numericId(), true, fold, write.start(), write.end(), write.value()));
        entries++;
    }

    /** How many operations the state holds. */
    long size() {
        return entries;
    }

    /** How many keys the state holds something of. */
    int keys() {
        return versions.size() + pins.size() + abortedWrites.size();
    }

    /**
     * Adds to {@code builder} the stubs of the keys in {@code touched}; returns how many
     * transactions were added (they come first, before any other transaction of the round).
     */
    int addStubs(HistoryBuilder builder, Set<String> touched) {
        Map<String, Stub> stubs = new LinkedHashMap<>();
        for (String key : touched) {
            for (Entry e : pins.getOrDefault(key, List.of())) {
                stub(stubs, e).reads.put(key, e.value());
            }
            for (Entry e : versions.getOrDefault(key, List.of())) {
                stub(stubs, e).writes.put(key, e.value());
            }
            for (Entry e : abortedWrites.getOrDefault(key, List.of())) {
                // An aborted transaction may have written the key more than once: one stub op per value.
                stub(stubs, e).abortedWrites.add(Map.entry(key, e.value()));
            }
        }
        List<Stub> ordered = new ArrayList<>(stubs.values());
        ordered.sort(Comparator.comparingLong(s -> s.fold));
        for (Stub s : ordered) {
            s.addTo(builder);
        }
        return ordered.size();
    }

    private static Stub stub(Map<String, Stub> stubs, Entry e) {
        return stubs.computeIfAbsent(e.transaction(), id -> new Stub(id, e.numericId(), e.aborted(), e.fold(), e.start(), e.end()));
    }

    /**
     * A transaction's write or read of a value, as the state keeps it, with the times its stub
     * takes (see {@link RoundChecker}: before every transaction the round kept).
     */
    record Version(String transaction, boolean numericId, long start, long end, Value value) {
    }

    private static final class Stub {
        final String id;
        final boolean numericId;
        final boolean aborted;
        final long fold;
        final long start;
        final long end;
        final Map<String, Value> reads = new LinkedHashMap<>();
        final Map<String, Value> writes = new LinkedHashMap<>();
        final List<Map.Entry<String, Value>> abortedWrites = new ArrayList<>();

        Stub(String id, boolean numericId, boolean aborted, long fold, long start, long end) {
            this.id = id;
            this.numericId = numericId;
            this.aborted = aborted;
            this.fold = fold;
            this.start = start;
            this.end = end;
        }

        void addTo(HistoryBuilder builder) {
            HistoryBuilder.TransactionBuilder t = builder.transaction(numericId ? (Object) Long.parseLong(id) : id);
            t.times(start, end);
            if (aborted) {
                t.aborted();
            }
            // Pinned reads read the initial state, before any write of the stub.
            reads.forEach(t::read);
            writes.forEach(t::write);
            for (Map.Entry<String, Value> w : abortedWrites) {
                t.write(w.getKey(), w.getValue());
            }
        }
    }
}
