package dev.isocheck.internal.prune;

import dev.isocheck.spi.Reachability;

/**
 * Reachability in the snapshot-isolation graph {@code (SO ∪ WR ∪ WW) ; RW?} over {@code n}
 * transactions, read from the closure of a graph with a second copy {@code t + n} of each
 * transaction, entered only by read-write edges and left only by base edges (with a link
 * {@code t -> t + n}): {@code a} reaches {@code b} in the induced graph exactly when {@code a + n}
 * reaches {@code b + n} there, since every induced edge starts with a base edge and may end with
 * either kind.
 */
final class InducedReachability implements Reachability {

    private final Reachability doubled;
    private final int transactions;

    InducedReachability(Reachability doubled, int transactions) {
        this.doubled = doubled;
        this.transactions = transactions;
    }

    @Override
    public boolean reaches(int from, int to) {
        return doubled.reaches(from + transactions, to + transactions);
    }

    @Override
    public int nodeCount() {
        return transactions;
    }

    @Override
    public long memoryBytes() {
        return doubled.memoryBytes();
    }
}
