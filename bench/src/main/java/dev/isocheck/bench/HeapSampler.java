package dev.isocheck.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The high-water mark of used heap, sampled every 5 ms by a daemon thread.
 *
 * <p>Sampling rather than the GC pools' peak usage: the pools' peaks are per pool and reached at
 * different times, so their sum overstates what was ever live at once, and young-generation peaks
 * mostly measure garbage. A sample can miss a spike shorter than 5 ms; a check of interest runs far longer.
 */
final class HeapSampler implements AutoCloseable {

    private static final long PERIOD_MS = 5;

    private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    private final AtomicLong peak = new AtomicLong();
    private final Thread thread;
    private volatile boolean running = true;

    HeapSampler() {
        thread = new Thread(this::sample, "heap-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    private void sample() {
        while (running) {
            peak.accumulateAndGet(used(), Math::max);
            try {
                Thread.sleep(PERIOD_MS);
            } catch (InterruptedException e) {
                return;
            }
        }
    }

    /** Heap in use now, in bytes. */
    long used() {
        return memory.getHeapMemoryUsage().getUsed();
    }

    /** Starts a new high-water mark from what is in use now. */
    void reset() {
        peak.set(used());
    }

    /** The highest use seen since {@link #reset()}, a last sample included. */
    long peak() {
        return peak.accumulateAndGet(used(), Math::max);
    }

    @Override
    public void close() {
        running = false;
        thread.interrupt();
    }
}
