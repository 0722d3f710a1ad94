package dev.isocheck.internal.cli;

import dev.isocheck.CheckOptions;
import dev.isocheck.CheckResult;
import dev.isocheck.Isocheck;
import dev.isocheck.IsolationLevel;
import dev.isocheck.format.HistoryFormat;
import dev.isocheck.format.HistoryFormatException;
import dev.isocheck.format.JsonlHistoryReader;
import dev.isocheck.history.History;
import dev.isocheck.history.Transaction;
import dev.isocheck.internal.rounds.RoundChecker;
import dev.isocheck.internal.rounds.RoundInputException;
import java.io.BufferedInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.function.Consumer;
import java.util.zip.GZIPInputStream;

/**
 * {@code check --rounds}: one JSON Lines history read a batch at a time and checked in rounds
 * ({@link RoundChecker}), in memory bounded by what later rounds can need, as it is read; with
 * {@code --follow}, a file still being written, read as it grows until it stops growing.
 *
 * <p>The watermark of a round is the earliest start among the last transactions read (a round's
 * worth, at most {@value #MAX_LOOKBACK}): a file in the order transactions ended keeps that promise
 * unless one transaction ran through more than that many others, which the rounds then refuse as
 * bad input, naming it.
 */
final class RoundsCheck {

    /** Transactions per round unless {@code --round-size} says. */
    static final int DEFAULT_ROUND_SIZE = 100_000;
    /** How long {@code --follow} waits for a file to grow unless {@code --follow-idle} says. */
    static final Duration DEFAULT_FOLLOW_IDLE = Duration.ofSeconds(10);
    /** The most transactions read last whose earliest start is a round's watermark. */
    static final int MAX_LOOKBACK = 10_000;

    private final IsolationLevel level;
    private final int batch;
    private final Duration follow;
    private final CheckOptions options;

    /**
     * @param follow how long a file may stop growing before its end is its end; {@code null} to read
     *               it as it is
     */
    RoundsCheck(IsolationLevel level, int batch, Duration follow, CheckOptions options) {
        this.level = level;
        this.batch = batch;
        this.follow = follow;
        this.options = options;
    }

    /** Reads and checks {@code source}; {@code stats} hears what the rounds did. */
    Outcome run(HistorySource source, Consumer<String> warnings, Consumer<RoundChecker.Stats> stats) {
        long started = System.nanoTime();
        // Held past two rounds' worth, keys whose last writer no known order decides are let go.
        RoundChecker rounds = new RoundChecker(level, (h, l) -> Isocheck.check(h, l, options),
                (int) Math.min(Integer.MAX_VALUE, 2L * batch));
        long[] starts = new long[Math.min(batch, MAX_LOOKBACK)];
        Arrays.fill(starts, Long.MAX_VALUE);
        int[] next = {0};
        JsonlHistoryReader.BatchSink sink = (History read, long line) -> {
            for (Transaction t : read.transactions()) {
                starts[next[0]++ % starts.length] = t.start().orElse(Long.MIN_VALUE);
            }
            long watermark = Long.MAX_VALUE;
            for (long s : starts) {
                watermark = Math.min(watermark, s);
            }
            try {
                rounds.round(read, watermark);
            } catch (RoundInputException e) {
                throw new HistoryFormatException(Path.of(source.name()), String.valueOf(line), e.getMessage());
            }
        };
        try (InputStream in = open(source)) {
            new JsonlHistoryReader().readInBatches(in, Path.of(source.name()), batch, sink, warnings);
        } catch (HistoryFormatException e) {
            return new Outcome.Unreadable(e.getMessage());
        } catch (IOException | UncheckedIOException e) {
            return new Outcome.Unreadable(source.name() + ": cannot be read: " + HistorySource.describe(
                    e instanceof UncheckedIOException u ? u.getCause() : e));
        } catch (RoundInputException e) {
            return new Outcome.Unreadable(source.name() + ": " + e.getMessage());
        }
        long loadMillis = (System.nanoTime() - started) / 1_000_000;
        CheckResult result = rounds.finish();
        stats.accept(rounds.stats());
        RoundChecker.Stats done = rounds.stats();
        if (done.committed() == 0) {
            // As the whole check says it: no committed transaction is nothing to check, no pass.
            return new Outcome.NothingToCheck(source.name() + ": nothing to check: " + (done.transactions() == 0
                    ? "the history has no transactions" : "the history's " + done.transactions()
                    + (done.transactions() == 1 ? " transaction" : " transactions") + " all aborted"));
        }
        return new Outcome.Checked(null, result, null, loadMillis);
    }

    private InputStream open(HistorySource source) throws IOException {
        InputStream raw;
        boolean gzip;
        if (source instanceof HistorySource.Plain p && p.format() == HistoryFormat.JSONL) {
            raw = Files.newInputStream(p.path());
            gzip = false;
        } else if (source instanceof HistorySource.Compressed c && c.format() == HistoryFormat.JSONL) {
            raw = Files.newInputStream(c.path());
            gzip = true;
        } else if (source instanceof HistorySource.StandardInput s && s.format().orElse(HistoryFormat.JSONL) == HistoryFormat.JSONL) {
            BufferedInputStream buffered = new BufferedInputStream(s.in(), 1 << 16);
            raw = buffered;
            gzip = ContentSniffer.isGzip(buffered);
        } else {
            throw new IOException("--rounds reads JSON Lines histories only");
        }
        if (follow != null) {
            raw = new GrowingInput(raw, follow);
        }
        return new BufferedInputStream(gzip ? new GZIPInputStream(raw, 1 << 16) : raw, 1 << 16);
    }

    /**
     * A file still being written: at its end, waits for more, and ends when nothing more came for
     * {@code idle}. Reports nothing available while it waits, so that the reader checks what it has.
     */
    static final class GrowingInput extends InputStream {

        private static final long POLL_MILLIS = 100;
        private final InputStream in;
        private final long idleNanos;

        GrowingInput(InputStream in, Duration idle) {
            this.in = in;
            this.idleNanos = idle.toNanos();
        }

        @Override
        public int read() throws IOException {
            byte[] one = new byte[1];
            int n = read(one, 0, 1);
            return n < 0 ? -1 : one[0] & 0xff;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            long waited = System.nanoTime();
            while (true) {
                int n = in.read(b, off, len);
                if (n > 0 || len == 0) {
                    return n;
                }
                if (System.nanoTime() - waited >= idleNanos) {
                    return -1;
                }
                try {
                    Thread.sleep(POLL_MILLIS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return -1;
                }
            }
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }
}
