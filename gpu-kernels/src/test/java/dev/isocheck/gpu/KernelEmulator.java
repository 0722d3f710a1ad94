package dev.isocheck.gpu;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The kernels of {@code reachability.cu} executed in Java, index for index: every block of the
 * grid, every thread of the block, with {@code blockIdx}, {@code threadIdx} and {@code blockDim}
 * computed as the device does. It runs the engine's real host path (packing, levels, launch
 * geometry, launch order) on machines without a GPU, so that a wrong grid, a wrong first word or a
 * missed level fails a test here rather than only on a GPU.
 *
 * <p>Threads run one after another, which would hide a race; so each launch also checks the
 * kernels' race-freedom argument: no word is written twice in one launch, and no thread reads data
 * another thread wrote in the same launch (the insertion's flag read is allowed to share a word with
 * a write, provided the tested bit never changes, which is also checked).
 */
final class KernelEmulator implements Accelerator {

    long freeBytes = Long.MAX_VALUE;
    RuntimeException failAtSynchronize;
    RuntimeException failMemoryQuery;
    int levelLaunches;
    int insertLaunches;
    int openSessions;

    @Override
    public String description() {
        return "Java emulation of reachability.cu";
    }

    @Override
    public long freeMemoryBytes() {
        if (failMemoryQuery != null) {
            throw failMemoryQuery;
        }
        return freeBytes;
    }

    @Override
    public Session upload(PackedDag packed) {
        openSessions++;
        return new EmulatedSession(packed);
    }

    private final class EmulatedSession implements Session {

        private final int words;
        private final long[] rows;
        private final int[] successorStart;
        private final int[] successors;
        private final int[] levelPositions;
        private final List<Integer> writtenThisLaunch = new ArrayList<>();
        private final boolean[] written;
        private boolean closed;

        EmulatedSession(PackedDag packed) {
            words = packed.words();
            rows = new long[packed.nodeCount() * words];
            written = new boolean[rows.length];
            // Copies, as uploads are: later changes to the host arrays must not reach the "device".
            successorStart = packed.successorStarts();
            successors = packed.successorPositions();
            levelPositions = packed.levels().positions();
        }

        @Override
        public void closureLevel(LaunchGeometry.Launch launch, int levelBegin) {
            levelLaunches++;
            for (int bx = 0; bx < launch.gridX(); bx++) {
                for (int by = 0; by < launch.gridY(); by++) {
                    for (int tx = 0; tx < launch.blockX(); tx++) {
                        closureLevelThread(bx, by, tx, launch.blockX(), levelBegin, launch.firstWord());
                    }
                }
            }
            endLaunch();
        }

        // Mirrors closure_level line for line.
        private void closureLevelThread(int blockIdxX, int blockIdxY, int threadIdxX, int blockDimX, int levelBegin, int firstWord) {
            int p = levelPositions[levelBegin + blockIdxX];
            int w = firstWord + blockIdxY * blockDimX + threadIdxX;
            int own = p >> 6;
            if (w < own || w >= words) {
                return;
            }
            long acc = (w == own) ? (1L << (p & 63)) : 0L;
            int end = successorStart[p + 1];
            for (int i = successorStart[p]; i < end; i++) {
                int q = successors[i];
                if ((q >> 6) > w) {
                    break;
                }
                acc |= read(q * words + w);
            }
            write(p * words + w, acc);
        }

        @Override
        public void insertEdge(LaunchGeometry.Launch launch, int u, int v) {
            insertLaunches++;
            long flagBefore = rowsBit(u);
            for (int bx = 0; bx < launch.gridX(); bx++) {
                for (int by = 0; by < launch.gridY(); by++) {
                    for (int tx = 0; tx < launch.blockX(); tx++) {
                        insertEdgeThread(bx, by, tx, launch.blockX(), u, v);
                    }
                }
            }
            if (rowsBit(u) != flagBefore) {
                throw new AssertionError("insert_edge changed a tested bit u=" + u + " during its launch");
            }
            endLaunch();
        }

        // Mirrors insert_edge line for line.
        private void insertEdgeThread(int blockIdxX, int blockIdxY, int threadIdxX, int blockDimX, int u, int v) {
            int x = blockIdxX;
            int w = (v >> 6) + blockIdxY * blockDimX + threadIdxX;
            if (w >= words) {
                return;
            }
            int row = x * words;
            // The flag read: may share a word with this launch's writes (see the class comment).
            if (((rows[row + (u >> 6)] >>> (u & 63)) & 1L) == 0L) {
                return;
            }
            write(row + w, rows[row + w] | read(v * words + w));
        }

        /** Bit u of every row 0..u, packed into a checksum that changes if any of them changes. */
        private long rowsBit(int u) {
            long sum = 0;
            for (int x = 0; x <= u; x++) {
                sum = sum * 31 + ((rows[x * words + (u >> 6)] >>> (u & 63)) & 1L);
            }
            return sum;
        }

        private long read(int index) {
            if (written[index]) {
                throw new AssertionError("race: word " + index + " (row " + index / words + ") read after another thread wrote it in the same launch");
            }
            return rows[index];
        }

        private void write(int index, long value) {
            if (written[index]) {
                throw new AssertionError("race: word " + index + " (row " + index / words + ") written twice in one launch");
            }
            written[index] = true;
            writtenThisLaunch.add(index);
            rows[index] = value;
        }

        private void endLaunch() {
            for (int index : writtenThisLaunch) {
                written[index] = false;
            }
            writtenThisLaunch.clear();
        }

        @Override
        public void synchronize() {
            if (failAtSynchronize != null) {
                throw failAtSynchronize;
            }
        }

        @Override
        public long[] downloadRows() {
            return Arrays.copyOf(rows, rows.length);
        }

        @Override
        public void close() {
            if (!closed) {
                closed = true;
                openSessions--;
            }
        }
    }
}
