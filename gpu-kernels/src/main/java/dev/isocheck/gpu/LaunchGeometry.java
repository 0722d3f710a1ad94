package dev.isocheck.gpu;

/**
 * The grids the kernels of {@code reachability.cu} are launched with, computed on the host so that
 * they can be checked (and emulated) without a device.
 *
 * <p>One thread per word of a row, {@link #BLOCK_THREADS} words per block: {@code grid.x} indexes
 * rows, {@code grid.y} chunks of words from {@link Launch#firstWord()} on. Words below a row's own
 * (position {@code p}, word {@code p >> 6}) are zero, so the chunks start at the lowest such word
 * among the launch's rows rather than at 0, and no block is launched only to find zeros.
 */
public final class LaunchGeometry {

    /**
     * Threads per block. 256 keeps several blocks resident per SM on every architecture since
     * compute 7.5 and makes the word loads of one warp a 256-byte coalesced transaction.
     */
    public static final int BLOCK_THREADS = 256;

    /** CUDA's limit on {@code gridDim.y}; {@code gridDim.x} may go to {@code 2^31 - 1}. */
    public static final int MAX_GRID_Y = 65_535;

    private LaunchGeometry() {
    }

    /**
     * One launch: {@code gridX * gridY} blocks of {@code blockX} threads; thread {@code t} of block
     * {@code (x, y)} owns word {@code firstWord + y * blockX + t} of the {@code x}-th row.
     */
    public record Launch(int gridX, int gridY, int blockX, int firstWord) {
    }

    /** The launch of {@code closure_level} for level {@code level} of {@code packed}. */
    public static Launch forLevel(PackedDag packed, int level) {
        Levels levels = packed.levels();
        int firstWord = levels.positionAt(levels.begin(level)) >>> 6;
        return new Launch(levels.size(level), chunks(packed.words() - firstWord), BLOCK_THREADS, firstWord);
    }

    /**
     * The launch of {@code insert_edge} for the edge from position {@code u} to position {@code v}
     * ({@code u < v}) in rows of {@code words} words: rows {@code 0..u} (only they can reach
     * {@code u}), words from {@code v}'s own on (its row is zero below).
     */
    public static Launch forInsertion(int words, int u, int v) {
        if (u < 0 || u >= v || v >= words * 64) {
            throw new IllegalArgumentException("need 0 <= u < v < " + (words * 64) + ", got " + u + " -> " + v);
        }
        int firstWord = v >>> 6;
        return new Launch(u + 1, chunks(words - firstWord), BLOCK_THREADS, firstWord);
    }

    /** Whether rows of {@code words} words fit the grid limits (always, below a billion nodes). */
    public static boolean fits(int words) {
        return chunksUnchecked(words) <= MAX_GRID_Y;
    }

    private static int chunks(int words) {
        int chunks = chunksUnchecked(words);
        if (chunks > MAX_GRID_Y) {
            throw new IllegalArgumentException(words + " words per row need " + chunks + " blocks in y, more than " + MAX_GRID_Y);
        }
        return chunks;
    }

    private static int chunksUnchecked(int words) {
        return (int) (((long) words + BLOCK_THREADS - 1) / BLOCK_THREADS);
    }
}
