package dev.isocheck.gpu;

import dev.isocheck.spi.BitRowReachability;
import dev.isocheck.spi.Dag;
import java.util.Objects;

/**
 * A closure kept in device memory so that edges can be added to it without recomputing it: the
 * pruning loop adds the edges of every resolved constraint to the known graph (Cobra's Prune),
 * and an insertion costs one launch over the rows that can change instead of a full closure.
 *
 * <p>Rows stay laid out over the topological order of the {@link Dag} the closure was computed
 * for. An added edge that goes forward in that order keeps it a topological order of the grown
 * graph, and is applied exactly; one that goes backward cannot be represented in this layout
 * (it needs a new order, or it closes a cycle) and {@link #addEdge} refuses it, leaving the rows
 * unchanged: the caller recomputes the closure of the grown graph.
 *
 * <p>Not thread-safe. Close it to free the device memory (1.25 GB at 100k nodes).
 */
public final class DeviceClosure implements AutoCloseable {

    private final Dag dag;
    private final int words;
    private final Accelerator.Session session;
    private final long closureNanos;
    private boolean closed;

    private DeviceClosure(Dag dag, Accelerator.Session session, long closureNanos) {
        this.dag = dag;
        this.words = BitRowReachability.wordsPerRow(dag.nodeCount());
        this.session = session;
        this.closureNanos = closureNanos;
    }

    /**
     * Computes the closure of {@code dag} on {@code accelerator}: one {@code closure_level} launch per
     * level, lowest level first, then one wait.
     */
    static DeviceClosure compute(Accelerator accelerator, Dag dag) {
        PackedDag packed = PackedDag.of(dag);
        Accelerator.Session session = accelerator.upload(packed);
        try {
            long start = System.nanoTime();
            Levels levels = packed.levels();
            for (int level = 0; level < levels.count(); level++) {
                session.closureLevel(LaunchGeometry.forLevel(packed, level), levels.begin(level));
            }
            session.synchronize();
            return new DeviceClosure(dag, session, System.nanoTime() - start);
        } catch (RuntimeException | Error e) {
            session.close();
            throw e;
        }
    }

    /**
     * Adds the edge {@code from -> to} (node ids of the original {@link Dag}) to the closure: every
     * node reaching {@code from} now reaches everything {@code to} reaches.
     *
     * @return {@code true} when applied; {@code false}, rows unchanged, when {@code to} comes before
     *     {@code from} in the topological order the rows are laid out over (see the class comment)
     * @throws IllegalArgumentException for a node out of range or a self-loop
     * @throws IllegalStateException when the device fails (possibly reported by a later call)
     */
    public boolean addEdge(int from, int to) {
        ensureOpen();
        Objects.checkIndex(from, dag.nodeCount());
        Objects.checkIndex(to, dag.nodeCount());
        if (from == to) {
            throw new IllegalArgumentException("self-loop on node " + from);
        }
        int u = dag.positionOf(from);
        int v = dag.positionOf(to);
        if (u > v) {
            return false;
        }
        session.insertEdge(LaunchGeometry.forInsertion(words, u, v), u, v);
        return true;
    }

    /**
     * The rows now, copied to the host, as a {@link BitRowReachability} over the original
     * {@link Dag}'s positions (still a topological order of the grown graph).
     */
    public BitRowReachability snapshot() {
        ensureOpen();
        session.synchronize();
        return new BitRowReachability(dag, session.downloadRows());
    }

    /**
     * Nanoseconds from the first level's launch to the end of the last one, as the host saw them:
     * the device work plus launch overhead, without uploads and without copying the rows back.
     */
    public long closureNanos() {
        return closureNanos;
    }

    /** Frees the device memory; idempotent. */
    @Override
    public void close() {
        if (!closed) {
            closed = true;
            session.close();
        }
    }

    private void ensureOpen() {
        if (closed) {
            throw new IllegalStateException("closure already closed");
        }
    }
}
