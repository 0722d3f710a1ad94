package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.AnomalyType;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A cycle of dependencies between committed transactions: each must come before the next (in the
 * sense of its edge), and the last before the first, which no order allowed at the level checked can
 * satisfy.
 *
 * <p>{@code edges().get(i)} leads from {@code transactions().get(i)} to the next transaction, and
 * the last edge back to the first. The type (one of the cycle kinds of {@link AnomalyType}, see
 * {@link #typeOf}) and the familiar name (lost update, write skew, read skew, stale read, long fork)
 * follow from the edges alone.
 *
 * @param transactions the transaction ids around the cycle, starting from the one recorded first
 * @param edges        one dependency per transaction, to the next one
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record AnomalyCycle(List<String> transactions, List<Dependency> edges) {

    /**
     * Validates and copies.
     *
     * @throws IllegalArgumentException if there are fewer than two transactions, or an edge does not
     *                                  lead from its transaction to the next
     */
    public AnomalyCycle {
        transactions = List.copyOf(transactions);
        edges = List.copyOf(edges);
        if (transactions.size() < 2 || edges.size() != transactions.size()) {
            throw new IllegalArgumentException("a cycle needs two transactions or more and one edge each: "
                    + transactions + " " + edges);
        }
        for (int i = 0; i < edges.size(); i++) {
            Dependency edge = edges.get(i);
            String next = transactions.get((i + 1) % transactions.size());
            if (!edge.from().equals(transactions.get(i)) || !edge.to().equals(next)) {
                throw new IllegalArgumentException("edge " + i + " (" + edge.arrow() + ") does not lead from "
                        + transactions.get(i) + " to " + next);
            }
        }
    }

    /** How many transactions (and edges) the cycle has. */
    public int length() {
        return transactions.size();
    }

    /** The types of the edges, in order. */
    public List<DependencyType> edgeTypes() {
        return edges.stream().map(Dependency::type).toList();
    }

    /** The cycle's type, from its data dependencies ({@link #typeOf}). */
    public AnomalyType type() {
        return typeOf(edgeTypes());
    }

    /**
     * The type of a cycle whose edges, in order around the cycle, have these types: one of the cycle
     * kinds of {@link AnomalyType}, from {@link AnomalyType#G0} to {@link AnomalyType#SESSION_REALTIME}.
     *
     * <p>A cycle is classified by its data dependencies alone, as Elle's cycle explainer does
     * ({@code elle.txn}): exactly one anti-dependency (rw) is {@link AnomalyType#G_SINGLE}; several,
     * none of them next to another, {@link AnomalyType#G_NONADJACENT}; several with two next to each
     * other, {@link AnomalyType#G2_ITEM}, or {@link AnomalyType#G2} when one comes from a row a
     * predicate read did not return; none, but a write-read, {@link AnomalyType#G1C}; only
     * write-writes, {@link AnomalyType#G0}; only session and real-time edges,
     * {@link AnomalyType#SESSION_REALTIME}. Otherwise session and real-time edges do not change the
     * type; they add Elle's {@code -process} or {@code -realtime} suffix ({@link #anomaly()}).
     *
     * @throws IllegalArgumentException if there are fewer than two edges
     */
    public static AnomalyType typeOf(List<DependencyType> edges) {
        if (edges.size() < 2) {
            throw new IllegalArgumentException("a cycle has at least two edges: " + edges);
        }
        int rw = 0;
        int wr = 0;
        int ww = 0;
        boolean predicate = false;
        for (DependencyType type : edges) {
            rw += type.isAntiDependency() ? 1 : 0;
            wr += type == DependencyType.WRITE_READ ? 1 : 0;
            ww += type == DependencyType.WRITE_WRITE ? 1 : 0;
            predicate |= type == DependencyType.PREDICATE_READ_WRITE;
        }
        if (rw == 1) {
            return AnomalyType.G_SINGLE;
        }
        if (rw > 1) {
            return !hasAdjacentAntiDependencies(edges) ? AnomalyType.G_NONADJACENT
                    : predicate ? AnomalyType.G2 : AnomalyType.G2_ITEM;
        }
        return wr > 0 ? AnomalyType.G1C : ww > 0 ? AnomalyType.G0 : AnomalyType.SESSION_REALTIME;
    }

    /**
     * Whether two anti-dependencies follow each other somewhere around the cycle (last to first
     * included): the cycles snapshot isolation allows are exactly those where they do.
     */
    public static boolean hasAdjacentAntiDependencies(List<DependencyType> edges) {
        for (int i = 0; i < edges.size(); i++) {
            if (edges.get(i).isAntiDependency() && edges.get((i + 1) % edges.size()).isAntiDependency()) {
                return true;
            }
        }
        return false;
    }

    /**
     * The anomaly's name as Elle spells it: the {@link #type()}, with {@code -realtime} when a real-time
     * edge is needed, else {@code -process} when a session-order edge is, e.g. {@code G-single-process}.
     */
    public String anomaly() {
        AnomalyType type = type();
        if (type == AnomalyType.SESSION_REALTIME) {
            return type.shortName();
        }
        List<DependencyType> types = edgeTypes();
        String suffix = types.contains(DependencyType.REAL_TIME) ? "-realtime"
                : types.contains(DependencyType.SESSION) ? "-process" : "";
        return type.shortName() + suffix;
    }

    /**
     * The familiar name of this shape of cycle, when it has one:
     *
     * <ul>
     *   <li><em>lost update</em>: two transactions, both edges on one key, anti-dependencies or
     *       write-write, at least one anti-dependency: one overwrote the key without having seen
     *       the other's write;</li>
     *   <li><em>write skew</em>: two transactions, two anti-dependencies on different keys (each
     *       read what the other then changed); <em>phantom write skew</em> when one is a row a
     *       predicate read did not return;</li>
     *   <li><em>read skew</em>: two transactions, a write-read and an anti-dependency on different
     *       keys (one saw part of the other's writes);</li>
     *   <li><em>stale read</em>: two transactions, real time and an anti-dependency (a transaction
     *       started after another ended and did not see its write);</li>
     *   <li><em>long fork</em>: four transactions, write-read and anti-dependency alternating (two
     *       readers saw two independent writes in opposite orders).</li>
     * </ul>
     */
    public Optional<String> familiarName() {
        List<DependencyType> types = edgeTypes();
        if (length() == 2) {
            Dependency a = edges.get(0);
            Dependency b = edges.get(1);
            boolean sameKey = a.key().isPresent() && a.key().equals(b.key());
            int anti = (a.type().isAntiDependency() ? 1 : 0) + (b.type().isAntiDependency() ? 1 : 0);
            boolean itemWrites = itemOrWriteWrite(a.type()) && itemOrWriteWrite(b.type());
            if (sameKey && itemWrites && anti >= 1) {
                return Optional.of("lost update");
            }
            if (!sameKey && anti == 2) {
                return Optional.of(types.contains(DependencyType.PREDICATE_READ_WRITE) ? "phantom write skew" : "write skew");
            }
            if (!sameKey && anti == 1 && types.contains(DependencyType.WRITE_READ)) {
                return Optional.of("read skew");
            }
            if (anti == 1 && types.contains(DependencyType.REAL_TIME)) {
                return Optional.of("stale read");
            }
        }
        if (length() == 4) {
            List<Boolean> anti = new ArrayList<>();
            for (DependencyType type : types) {
                if (!type.isAntiDependency() && type != DependencyType.WRITE_READ) {
                    return Optional.empty();
                }
                anti.add(type.isAntiDependency());
            }
            boolean alternating = !anti.get(0).equals(anti.get(1)) && anti.get(0).equals(anti.get(2))
                    && anti.get(1).equals(anti.get(3));
            if (alternating) {
                return Optional.of("long fork");
            }
        }
        return Optional.empty();
    }

    private static boolean itemOrWriteWrite(DependencyType type) {
        return type == DependencyType.READ_WRITE || type == DependencyType.WRITE_WRITE;
    }

    /** The cycle as in diagrams: {@code T1 -rw x-> T2 -rw y-> T1}. */
    public String arrows() {
        StringBuilder out = new StringBuilder();
        for (Dependency edge : edges) {
            out.append(edge.from()).append(" -").append(edge.type().shortName()).append(edge.key().map(k -> " " + k).orElse(""))
                    .append("-> ");
        }
        return out.append(transactions.get(0)).toString();
    }

    @Override
    public String toString() {
        return anomaly() + familiarName().map(n -> " (" + n + ")").orElse("") + ": " + arrows();
    }
}
