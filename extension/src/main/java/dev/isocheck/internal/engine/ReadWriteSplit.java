package dev.isocheck.internal.engine;

import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Transaction;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;

/**
 * Prefix consistency reduced to serializability (Biswas and Enea, "On the complexity of checking
 * transactional consistency", OOPSLA 2019, Theorem 4.8): a history is prefix-consistent exactly
 * when the history in which each committed transaction {@code T} is split into
 * {@code T (snapshot)}, its reads, followed in its session by {@code T (commit)}, its writes, is
 * serializable. The split's serial order places each snapshot where the transaction read, and each
 * commit where its writes were installed; the order of the commits is a commit order of the
 * original history.
 *
 * <p>Reads that see the transaction's own earlier write are left out of the snapshot part (the
 * screening of the original history checks them: a read of a key after writing it must return that
 * write). So is a predicate read that follows the transaction's own write of a row of its table,
 * since its result mixes the snapshot with that write: the split history then claims less than the
 * original, so a violation it shows is one of the original, and a pass is only given once the
 * original history replays in the order found ({@link dev.isocheck.internal.solve.WitnessReplay#prefixFailure}).
 * Aborted transactions are kept whole: their writes are never installed in either history.
 */
public final class ReadWriteSplit {

    /** The suffix of a snapshot part's id. */
    private static final String SNAPSHOT = " (snapshot)";
    /** The suffix of a commit part's id. */
    private static final String COMMIT = " (commit)";

    private final History original;
    private final History split;
    /** For each transaction of the split history, the index of the original transaction it is part of. */
    private final int[] originOf;
    /** For each transaction of the split history, whether it is a commit part (a committed transaction's writes). */
    private final boolean[] commitPart;
    private final int predicateReadsLeftOut;

    private ReadWriteSplit(History original, History split, int[] originOf, boolean[] commitPart,
            int predicateReadsLeftOut) {
        this.original = original;
        this.split = split;
        this.originOf = originOf;
        this.commitPart = commitPart;
        this.predicateReadsLeftOut = predicateReadsLeftOut;
    }

    /** The split of {@code history}; linear in its operations, plus its predicate reads times their transaction's writes. */
    public static ReadWriteSplit of(History history) {
        return split(history, false);
    }

    /**
     * The finer split in which every read of a committed transaction is a part of its own,
     * {@code T (read i)} for its operation {@code i}, before {@code T (commit)}: its serializability
     * says that each read saw the committed state at some moment after the transaction's earlier
     * reads, which is stronger than read committed (Biswas and Enea's axiom: once a read saw a
     * transaction's write, later reads of that key see it or newer), so a serial order of it gives
     * a read-committed commit order, but not every read-committed history has one.
     */
    public static ReadWriteSplit perRead(History history) {
        return split(history, true);
    }

    private static ReadWriteSplit split(History history, boolean perRead) {
        Set<String> ids = new HashSet<>();
        for (Transaction t : history.transactions()) {
            ids.add(t.id());
        }
        List<History.Part> parts = new ArrayList<>(2 * history.size());
        List<Integer> origins = new ArrayList<>(2 * history.size());
        List<Boolean> commits = new ArrayList<>(2 * history.size());
        int leftOut = 0;
        for (Transaction t : history.transactions()) {
            if (!t.isCommitted()) {
                parts.add(new History.Part(t.index(), t.id(), (tx, i) -> true));
                origins.add(t.index());
                commits.add(false);
                continue;
            }
            boolean[] reads = new boolean[t.size()];
            boolean anyRead = false;
            boolean anyWrite = false;
            for (int i = 0; i < t.size(); i++) {
                OpKind kind = t.kind(i);
                if (kind == OpKind.WRITE) {
                    anyWrite = true;
                } else if (kind == OpKind.READ ? !writtenBefore(t, i, t.key(i)) : !ownRowsBefore(t, i, t.predicate(i))) {
                    reads[i] = true;
                    anyRead = true;
                } else if (kind == OpKind.PREDICATE) {
                    leftOut++;
                }
            }
            if (perRead) {
                for (int i = 0; i < t.size(); i++) {
                    int read = i;
                    if (reads[i]) {
                        parts.add(new History.Part(t.index(), unique(t.id() + " (read " + i + ")", ids), (tx, j) -> j == read));
                        origins.add(t.index());
                        commits.add(false);
                    }
                }
            }
            if (perRead ? !anyRead && !anyWrite : anyRead || !anyWrite) {
                parts.add(new History.Part(t.index(), unique(t.id() + SNAPSHOT, ids), (tx, i) -> reads[i]));
                origins.add(t.index());
                commits.add(false);
            }
            if (anyWrite) {
                parts.add(new History.Part(t.index(), unique(t.id() + COMMIT, ids),
                        (tx, i) -> tx.kind(i) == OpKind.WRITE));
                origins.add(t.index());
                commits.add(true);
            }
        }
        boolean[] commitPart = new boolean[commits.size()];
        for (int p = 0; p < commitPart.length; p++) {
            commitPart[p] = commits.get(p);
        }
        return new ReadWriteSplit(history, history.partitioned(parts), origins.stream().mapToInt(Integer::intValue).toArray(),
                commitPart, leftOut);
    }

    private static boolean writtenBefore(Transaction t, int operation, int key) {
        for (int j = 0; j < operation; j++) {
            if (t.kind(j) == OpKind.WRITE && t.key(j) == key) {
                return true;
            }
        }
        return false;
    }

    private static boolean ownRowsBefore(Transaction t, int operation, PredicateRead read) {
        for (int j = 0; j < operation; j++) {
            if (t.kind(j) == OpKind.WRITE && read.covers(t.key(j))) {
                return true;
            }
        }
        return false;
    }

    /** {@code id}, or with primes added until no transaction has it; reserved once returned. */
    private static String unique(String id, Set<String> taken) {
        String candidate = id;
        while (!taken.add(candidate)) {
            candidate += "'";
        }
        return candidate;
    }

    /** The split history. */
    public History split() {
        return split;
    }

    /** How many predicate reads of committed transactions were left out, following their own writes of rows of their table. */
    public int predicateReadsLeftOut() {
        return predicateReadsLeftOut;
    }

    /** The id of the original transaction that transaction {@code id} of the split history is part of. */
    private Optional<String> originalId(String id) {
        return split.transaction(id).map(t -> original.transaction(originOf[t.index()]).id());
    }

    /** The original transactions of {@code splitIds}, each once, in the order first named. */
    public List<String> originalIds(List<String> splitIds) {
        Set<String> out = new LinkedHashSet<>();
        for (String id : splitIds) {
            out.add(originalId(id).orElse(id));
        }
        return List.copyOf(out);
    }

    /** Both parts of each original transaction in {@code originalIds}, as ids of the split history. */
    public List<String> splitIds(java.util.Collection<String> originalIds) {
        Set<String> wanted = new HashSet<>(originalIds);
        List<String> out = new ArrayList<>();
        for (Transaction t : split.transactions()) {
            if (wanted.contains(original.transaction(originOf[t.index()]).id())) {
                out.add(t.id());
            }
        }
        return out;
    }

    /**
     * A commit order of the original history, and each transaction's snapshot, from a serial
     * order of the split one.
     *
     * @param order     the committed transactions by where their writes were installed (a
     *                  transaction that writes nothing: where it read)
     * @param snapshots for each transaction of {@code order}, how many transactions of the order
     *                  its snapshot holds: those placed before its first read
     */
    public record Snapshots(List<String> order, List<Integer> snapshots) {
    }

    /** The commit order and snapshots that {@code serialOrder}, a serial order of the split history, gives. */
    public Snapshots snapshots(List<String> serialOrder) {
        int[] snapshotOf = new int[original.size()];
        java.util.Arrays.fill(snapshotOf, -1);
        boolean[] placed = new boolean[original.size()];
        List<String> order = new ArrayList<>();
        List<Integer> snapshots = new ArrayList<>();
        for (String id : serialOrder) {
            Transaction part = split.transaction(id).orElseThrow(
                    () -> new IllegalArgumentException("not a transaction of the split history"));
            int origin = originOf[part.index()];
            Transaction t = original.transaction(origin);
            if (!t.isCommitted()) {
                continue;
            }
            if (snapshotOf[origin] < 0) {
                snapshotOf[origin] = order.size();
            }
            if (!placed[origin] && (commitPart[part.index()] || t.isReadOnly())) {
                placed[origin] = true;
                order.add(t.id());
                snapshots.add(snapshotOf[origin]);
            }
        }
        return new Snapshots(order, snapshots);
    }
}
