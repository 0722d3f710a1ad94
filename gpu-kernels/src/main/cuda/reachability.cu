// Reachability kernels for isocheck's pruning stage (gpu-kernels, issue 6).
//
// Rows are in dev.isocheck.prune.BitRowReachability's layout: one row of `words` 64-bit words per
// node, indexed by topological position; bit q of row p is set when the node at position p reaches
// the node at position q. Only bits q >= p can be set, so a row's words below p >> 6 stay zero and
// are never read or written here.
//
// Exact by construction: integer loads, ORs and stores only. No floating point, no thresholds,
// no atomics whose order could matter (OR is idempotent and commutative, and no word is written by
// two threads in one launch).
//
// The host (dev.isocheck.gpu.CudaReachabilityEngine) compiles nothing: it loads the PTX built from
// this file with cuModuleLoadData, and its launch geometry comes from dev.isocheck.gpu.LaunchGeometry.
// The test KernelEmulator mirrors these kernels index for index; change both together.

typedef unsigned long long word_t;

// One launch per level. Level L holds the positions whose longest path to a sink has L edges, so
// every successor of a level-L row sits in a level below L and its row is final before this launch
// starts: the launch boundary is the only synchronisation needed.
//
// Grid: x = the level's rows (blockIdx.x indexes levelPositions[levelBegin + blockIdx.x]); y = chunks
// of blockDim.x words, starting at firstWord, the first word any row of this level can have set
// (positions within a level are ascending, so it is the first row's own word). Each thread owns one
// word of one row and accumulates it in a register: one store per word instead of a
// read-modify-write per successor.
//
// Successors of a row are sorted by ascending position (the host packs them so), which makes their
// first words ascending too: once a successor's row starts after this thread's word, all later ones
// do, and the loop stops.
extern "C" __global__ void closure_level(word_t *rows,
                                         int words,
                                         const int *__restrict__ successorStart,
                                         const int *__restrict__ successors,
                                         const int *__restrict__ levelPositions,
                                         int levelBegin,
                                         int firstWord)
{
    const int p = levelPositions[levelBegin + blockIdx.x];
    const int w = firstWord + blockIdx.y * blockDim.x + threadIdx.x;
    const int own = p >> 6;
    if (w < own || w >= words) {
        return;
    }
    word_t acc = (w == own) ? (1ULL << (p & 63)) : 0ULL;
    const int end = successorStart[p + 1];
    for (int i = successorStart[p]; i < end; i++) {
        const int q = successors[i];
        if ((q >> 6) > w) {
            break;
        }
        // Successor rows belong to earlier levels and are not written during this launch, so the
        // read-only data cache may serve them.
        acc |= __ldg(&rows[(size_t) q * words + w]);
    }
    rows[(size_t) p * words + w] = acc;
}

// Incremental insertion of the edge u -> v (topological positions, u < v) into final rows: every row
// with bit u set (exactly the nodes reaching u, all at positions <= u) gets v's row OR-ed in. Rows
// above u cannot reach u and are left alone, so grid.x covers rows 0..u only.
//
// Grid: x = the rows 0..u; y = chunks of blockDim.x words starting at v >> 6 (v's row is zero below).
//
// No launch-internal ordering matters: v's row is read but never written (v > u, so v is not among
// the rows 0..u), and the tested bit u is never changed by this launch (v's row has no bit below v),
// so a thread that reads row x's word u >> 6 while another thread ORs into that same word sees bit u
// either way.
extern "C" __global__ void insert_edge(word_t *rows, int words, int u, int v)
{
    const int x = blockIdx.x;
    const int w = (v >> 6) + blockIdx.y * blockDim.x + threadIdx.x;
    if (w >= words) {
        return;
    }
    const size_t row = (size_t) x * words;
    if (((rows[row + (u >> 6)] >> (u & 63)) & 1ULL) == 0ULL) {
        return;
    }
    rows[row + w] |= rows[(size_t) v * words + w];
}
