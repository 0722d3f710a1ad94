package dev.isocheck.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.AnomalyType;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Isocheck;
import dev.isocheck.format.CobraHistoryReader.Values;
import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Status;
import dev.isocheck.history.Transaction;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.EnumSource;

class CobraHistoryReaderTests {

    private static final long INIT = 0xbebeebeeL;
    private static final long NULL = 0xdeadbeefL;
    private static final long UNIVERSAL = 0xabddefeeL;

    @TempDir
    Path dir;

    /** Writes Cobra log records, big-endian. */
    private static final class Log {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Log record(char op, long... fields) {
            out.write(op);
            for (long f : fields) {
                out.writeBytes(ByteBuffer.allocate(8).putLong(f).array());
            }
            return this;
        }

        Log s(long txn) {
            return record('S', txn);
        }

        Log c(long txn) {
            return record('C', txn);
        }

        Log w(long writeId, long key, long value) {
            return record('W', writeId, key, value);
        }

        Log r(long writer, long writeId, long key, long value) {
            return record('R', writer, writeId, key, value);
        }

        Log raw(int... bytes) {
            for (int b : bytes) {
                out.write(b);
            }
            return this;
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    private Path history(Log... logs) throws IOException {
        Path h = Files.createDirectories(dir.resolve("h"));
        for (int i = 0; i < logs.length; i++) {
            Files.write(h.resolve("T" + (i + 1) + ".log"), logs[i].bytes());
        }
        return h;
    }

    private HistoryFormatException error(Values values, Path history) throws IOException {
        try {
            History h = new CobraHistoryReader(values).read(history);
            throw new AssertionError("expected a HistoryFormatException, got " + h);
        } catch (HistoryFormatException e) {
            assertThat(e.getMessage()).doesNotContain("\n");
            return e;
        }
    }

    private HistoryFormatException error(Log... logs) throws IOException {
        HistoryFormatException e = error(Values.UNIQUE, history(logs));
        assertThat(e.file().getFileName().toString()).endsWith(".log");
        assertThat(e.place()).startsWith("byte ");
        return e;
    }

    @Test
    void aHandBuiltHistoryInBothReadings() throws Exception {
        Path h = history(
                new Log().s(0x10).w(0x77, 0xa, 5).w(0x78, -1, 6).c(0x10)
                        .s(0x11).r(0x10, 0x77, 0xa, 5)
                        .s(0x12).r(INIT, INIT, 0xb, 0x99).r(NULL, NULL, 0xc, 0).c(0x12)
                        .raw(0xFF, 0xFF),
                new Log().s(0x20).r(0x10, 0x78, -1, 6).w(0x79, 0xa, 5));
        Files.writeString(h.resolve("T1.debug"), "ignored");
        Files.writeString(h.resolve("T1.error"), "ignored");

        History unique = new CobraHistoryReader(Values.UNIQUE).read(h);
        assertThat(unique.transactions()).extracting(Transaction::id).containsExactly("10", "11", "12", "20");
        assertThat(unique.transactions()).extracting(Transaction::status)
                .containsExactly(Status.COMMITTED, Status.ABORTED, Status.COMMITTED, Status.ABORTED);
        assertThat(unique.transactions()).noneMatch(Transaction::hasNumericId);
        assertThat(unique.sessions()).extracting(s -> s.name()).containsExactly("T1", "T2");
        assertThat(unique.sessions().get(0).transactions()).containsExactly(0, 1, 2);
        assertThat(unique.transaction(0).toString()).isEqualTo("10: w(a, \"77:10:5\") w(ffffffffffffffff, \"78:10:6\")");
        assertThat(unique.transaction(1).toString()).isEqualTo("11 (aborted): r(a, \"77:10:5\")");
        assertThat(unique.transaction(2).toString()).isEqualTo("12: r(b, \"init:99\") r(c, \"init:0\")");
        assertThat(unique.transaction(3).toString())
                .isEqualTo("20 (aborted): r(ffffffffffffffff, \"78:10:6\") w(a, \"79:20:5\")");
        // The initial state is what the reads of it saw; every other key starts absent.
        assertThat(unique.initialState().isComplete()).isTrue();
        assertThat(unique.initialState().listedCount()).isEqualTo(2);
        for (int k = 0; k < unique.keys().size(); k++) {
            assertThat(unique.initialState().isKnown(k)).isTrue();
        }

        History duplicate = new CobraHistoryReader(Values.DUPLICATE).read(h);
        assertThat(duplicate.transaction(0).toString()).isEqualTo("10: w(a, \"77:5\") w(ffffffffffffffff, \"78:6\")");
        assertThat(duplicate.transaction(1).toString()).isEqualTo("11 (aborted): r(a, \"77:5\")");
        assertThat(duplicate.transaction(3).toString()).isEqualTo("20 (aborted): r(ffffffffffffffff, \"78:6\") w(a, \"79:5\")");
    }

    @Test
    void initialValuesNeverEqualWrittenOnes() throws Exception {
        // A write and an initial read with the same fields: the representations must differ.
        Path h = history(new Log().s(1).w(INIT, 0xa, 0).c(1).s(2).r(INIT, INIT, 0xa, 0).c(2));
        for (Values v : Values.values()) {
            History history = new CobraHistoryReader(v).read(h);
            assertThat(history.transaction(0).value(0)).isNotEqualTo(history.transaction(1).value(0));
        }
    }

    @Test
    void logsAreReadInSortedNameOrder() throws Exception {
        Path h = Files.createDirectories(dir.resolve("sorted"));
        Files.write(h.resolve("b.log"), new Log().s(2).c(2).bytes());
        Files.write(h.resolve("a.log"), new Log().s(1).c(1).bytes());
        Files.write(h.resolve("c.log"), new byte[0]);
        History history = new CobraHistoryReader(Values.UNIQUE).read(h);
        assertThat(history.transactions()).extracting(Transaction::id).containsExactly("1", "2");
        assertThat(history.sessions()).extracting(s -> s.name()).containsExactly("a", "b");
    }

    @Test
    void exactMessages() throws Exception {
        Path t1 = dir.resolve("h/T1.log");
        assertThat(error(new Log().s(1).raw('X', 0)).getMessage())
                .isEqualTo(t1 + ":byte 9: unknown record type 0x58 (expected S, C, W or R)");
        assertThat(error(new Log().s(1).w(1, 2, 3).raw('R', 0, 0, 0)).getMessage())
                .isEqualTo(t1 + ":byte 34: truncated: expected an R record's writer transaction, write id, key and value"
                        + " (32 bytes) but the file ends after 3 bytes");
        assertThat(error(new Log().r(5, 6, 7, 8)).getMessage())
                .isEqualTo(t1 + ":byte 0: read outside a transaction (no S record before it)");
        assertThat(error(new Log().s(1).c(1).w(5, 6, 7)).getMessage())
                .isEqualTo(t1 + ":byte 18: write outside a transaction (no S record before it)");
        assertThat(error(new Log().c(1)).getMessage())
                .isEqualTo(t1 + ":byte 0: commit of transaction 1, but no transaction is open");
        assertThat(error(new Log().s(1).c(2)).getMessage())
                .isEqualTo(t1 + ":byte 9: commit of transaction 2, but the open transaction is 1");
        assertThat(error(new Log().s(0x1a).c(0x1a), new Log().s(0x1a).c(0x1a)).getMessage())
                .isEqualTo(dir.resolve("h/T2.log") + ":byte 0: transaction 1a starts again (it started at T1.log byte 0)");
        Files.delete(dir.resolve("h/T2.log"));
        assertThat(error(new Log().s(1).s(1)).getMessage())
                .isEqualTo(t1 + ":byte 9: transaction 1 starts again (it started at T1.log byte 0)");
        assertThat(error(new Log().s(INIT)).getMessage())
                .isEqualTo(t1 + ":byte 0: transaction id bebeebee is one of Cobra's reserved ids");
        assertThat(error(new Log().s(1).r(INIT, 7, 1, 1)).getMessage())
                .isEqualTo(t1 + ":byte 9: read of the initial state (writer bebeebee) with write id 7 (expected bebeebee or deadbeef)");
        assertThat(error(new Log().s(1).c(1).raw(0xFF, 0xFF, 'S')).getMessage())
                .isEqualTo(t1 + ":byte 20: data after the end marker 0xff (found 0x53)");
        assertThat(error(new Log().s(1).r(UNIVERSAL, UNIVERSAL, 1, 1)).getMessage())
                .isEqualTo(t1 + ":byte 9: read names the universal transaction abddefee instead of its writer, as"
                        + " duplicate-value logs do; read this history with the duplicate reading (format cobra-duplicates)");
        assertThat(new CobraHistoryReader(Values.DUPLICATE).read(dir.resolve("h")).transaction(0).toString())
                .isEqualTo("1 (aborted): r(1, \"abddefee:1\")");
    }

    @Test
    void directoriesWithoutLogs() throws Exception {
        Path empty = Files.createDirectories(dir.resolve("empty"));
        assertThat(error(Values.UNIQUE, empty).getMessage()).isEqualTo(empty + ": no *.log files");
        Files.writeString(empty.resolve("T1.debug"), "x");
        Files.createDirectories(empty.resolve("T2.log"));
        assertThat(error(Values.DUPLICATE, empty).getMessage()).isEqualTo(empty + ": no *.log files");
        Path file = Files.writeString(dir.resolve("T1.log"), "");
        assertThat(error(Values.UNIQUE, file).getMessage())
                .isEqualTo(file + ": not a directory; a Cobra history is a directory of per-client *.log files");
    }

    @Test
    void everyCutOfARealLogIsAnErrorUnlessAtARecordBoundary() throws Exception {
        Path sample = SampleHistories.veristrong("fig11/ser/cobra/chengRW-1000");
        byte[] full = Files.readAllBytes(sample.resolve("T10.log"));
        // Record boundaries by the record lengths (1 + 8 per field), walked here independently.
        Set<Integer> boundaries = new HashSet<>();
        int at = 0;
        while (at < full.length) {
            boundaries.add(at);
            at += switch (full[at]) {
                case 'S', 'C' -> 9;
                case 'W' -> 25;
                case 'R' -> 33;
                default -> throw new AssertionError("unexpected byte " + full[at] + " at " + at);
            };
        }
        assertThat(at).isEqualTo(full.length);
        Set<Integer> cuts = new TreeSet<>();
        for (int i = 0; i < 120; i++) {
            cuts.add(i);
            cuts.add(full.length - 1 - i);
        }
        for (int i = 0; i < 30; i++) {
            cuts.add(full.length * i / 30);
        }
        int loaded = 0;
        for (int cut : cuts) {
            Path h = Files.createDirectories(dir.resolve("cut"));
            Files.write(h.resolve("T10.log"), Arrays.copyOf(full, cut));
            if (boundaries.contains(cut)) {
                new CobraHistoryReader(Values.UNIQUE).read(h);
                loaded++;
            } else {
                HistoryFormatException e = error(Values.UNIQUE, h);
                assertThat(e.place()).as("cut at %d", cut).startsWith("byte ");
                assertThat(e.problem()).as("cut at %d", cut).startsWith("truncated: expected ");
            }
        }
        assertThat(loaded).isPositive().isLessThan(cuts.size() / 2);
    }

    @Test
    void corruptedOpcodesInARealLogAreErrors() throws Exception {
        byte[] log = Files.readAllBytes(SampleHistories.veristrong("fig5/twitter-1k/T28.log"));
        // Byte 9 starts the second record (after S and its id), byte 34 the third (after a 25-byte W).
        for (int offset : new int[] {0, 9, 34}) {
            byte[] bad = log.clone();
            bad[offset] = 'Q';
            Path h = Files.createDirectories(dir.resolve("bad" + offset));
            Files.write(h.resolve("T28.log"), bad);
            assertThat(error(Values.DUPLICATE, h).getMessage())
                    .isEqualTo(h.resolve("T28.log") + ":byte " + offset + ": unknown record type 0x51 (expected S, C, W or R)");
        }
    }

    /** Counts of a loaded Cobra history, and how many non-initial reads a write of the same key and value explains. */
    private record Counts(int transactions, int sessions, int reads, int writes, int initialReads, int matched) {
        static Counts of(History h) {
            Set<Long> written = new HashSet<>();
            int reads = 0;
            int writes = 0;
            for (Transaction t : h.transactions()) {
                for (int i = 0; i < t.size(); i++) {
                    if (t.kind(i) == OpKind.WRITE) {
                        written.add(((long) t.key(i) << 32) | t.value(i));
                        writes++;
                    }
                }
            }
            int initial = 0;
            int matched = 0;
            for (Transaction t : h.transactions()) {
                for (int i = 0; i < t.size(); i++) {
                    if (t.kind(i) == OpKind.READ) {
                        reads++;
                        if (h.values().get(t.value(i)).asString().orElseThrow().startsWith("init:")) {
                            initial++;
                        } else if (written.contains(((long) t.key(i) << 32) | t.value(i))) {
                            matched++;
                        }
                    }
                }
            }
            return new Counts(h.size(), h.sessions().size(), reads, writes, initial, matched);
        }
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void chengRwLoadsInBothReadingsAndEveryReadFindsItsWrite(Values values) throws Exception {
        History h = new CobraHistoryReader(values).read(SampleHistories.veristrong("fig11/ser/cobra/chengRW-1000"));
        // Counted by an independent Python walk of the logs: 24 logs, 961 transactions (all
        // committed), 3840 writes, 3848 reads of which 3126 read the initial state; every other read
        // finds a write of its key with its (writeId, txn, value) and its (writeId, value).
        assertThat(Counts.of(h)).isEqualTo(new Counts(961, 24, 3848, 3840, 3126, 722));
        assertThat(h.committedCount()).isEqualTo(961);
        assertThat(h.initialState().isComplete()).isTrue();
    }

    @Test
    void twitterLoadsInTheDuplicateReadingAndEveryReadFindsAWrite() throws Exception {
        History h = new CobraHistoryReader(Values.DUPLICATE).read(SampleHistories.veristrong("fig5/twitter-1k"));
        // Python: 8 logs, 1043 transactions, 1698 writes, 2976 reads of which 2356 read the initial
        // state (2 of them via the null id), and all 620 others match a write's (writeId, value).
        assertThat(Counts.of(h)).isEqualTo(new Counts(1043, 8, 2976, 1698, 2356, 620));
        assertThat(h.committedCount()).isEqualTo(1043);
        // Python: 817 distinct (writeId, value) pairs written, over all keys: as many distinct written values.
        Set<String> distinct = new HashSet<>();
        h.transactions().forEach(t -> {
            for (int i = 0; i < t.size(); i++) {
                if (t.kind(i) == OpKind.WRITE) {
                    distinct.add(h.values().get(t.value(i)).toString());
                }
            }
        });
        assertThat(distinct).hasSize(817);
    }

    @Test
    void twitterInTheUniqueReadingIsRefusedNotMisread() throws Exception {
        Path twitter = SampleHistories.veristrong("fig5/twitter-1k");
        // In the first log, reads before byte 3375 read the initial state; the one there names the
        // universal writer (offset found by an independent Python walk of T28.log).
        assertThat(error(Values.UNIQUE, twitter).getMessage()).isEqualTo(twitter.resolve("T28.log")
                + ":byte 3375: read names the universal transaction abddefee instead of its writer, as duplicate-value"
                + " logs do; read this history with the duplicate reading (format cobra-duplicates)");
    }

    @Test
    void everyLogOfTheSamplesIsOneSession() throws Exception {
        for (String sample : List.of("fig11/ser/cobra/chengRW-1000", "fig5/twitter-1k")) {
            Path d = SampleHistories.veristrong(sample);
            List<String> names = new ArrayList<>();
            try (Stream<Path> files = Files.list(d)) {
                files.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".log")).sorted()
                        .forEach(n -> names.add(n.substring(0, n.length() - 4)));
            }
            History h = new CobraHistoryReader(Values.DUPLICATE).read(d);
            assertThat(h.sessions()).extracting(s -> s.name()).containsExactlyElementsOf(names);
        }
    }

    /**
     * A read of a value nobody wrote is {@code thin-air}, as in dbcop's histories and in any
     * history with a complete initial state ({@code docs/semantics.md}): it names a writer no log
     * holds, or a value its writer never wrote. Left to an unknown initial state, such a read was
     * taken for the initial value, and the history passed.
     */
    @ParameterizedTest
    @EnumSource(Values.class)
    void aReadOfAWriterNoLogHoldsIsThinAir(Values values) throws Exception {
        Path h = history(new Log().s(0x10).w(0x77, 0xa, 5).c(0x10).s(0x11).r(0x999, 0x77, 0xa, 5).c(0x11));
        CheckResult result = Isocheck.check(new CobraHistoryReader(values).read(h), IsolationLevel.SERIALIZABLE);
        if (values == Values.DUPLICATE) {
            // Only (write id, value) counts: 0x77 wrote 5, whoever the read says wrote it.
            assertThat(result.isSatisfied()).isTrue();
        } else {
            assertThat(result.anomaly()).map(a -> a.type()).contains(AnomalyType.THIN_AIR);
        }
    }

    @ParameterizedTest
    @EnumSource(Values.class)
    void aReadOfAValueItsWriterNeverWroteIsThinAir(Values values) throws Exception {
        Path h = history(new Log().s(0x10).w(0x77, 0xa, 5).c(0x10).s(0x11).r(0x10, 0x77, 0xa, 6).c(0x11));
        CheckResult result = Isocheck.check(new CobraHistoryReader(values).read(h), IsolationLevel.SERIALIZABLE);
        assertThat(result.anomaly()).map(a -> a.type()).contains(AnomalyType.THIN_AIR);
    }

    @Test
    void twoReadsOfAKeysInitialStateThatDisagreeAreAViolation() throws Exception {
        Path h = history(new Log().s(1).r(INIT, INIT, 0xa, 1).c(1), new Log().s(2).r(INIT, INIT, 0xa, 2).c(2));
        CheckResult result = Isocheck.check(new CobraHistoryReader(Values.UNIQUE).read(h), IsolationLevel.SERIALIZABLE);
        assertThat(result.anomaly()).map(a -> a.type()).contains(AnomalyType.THIN_AIR);
        assertThat(result.explanationText()).hasValueSatisfying(text -> assertThat(text).contains("init:2"));
    }

    /** The real sample passes; with one read's writer, or its value, changed, it must not. */
    @ParameterizedTest
    @CsvSource({"writer, 1", "value, 4"})
    void theRealSampleWithOneReadForgedIsThinAir(String forged, int field) throws Exception {
        Path sample = SampleHistories.veristrong("fig11/ser/cobra/chengRW-1000");
        assertThat(Isocheck.check(new CobraHistoryReader(Values.AS_LOGGED).read(sample), IsolationLevel.SERIALIZABLE)
                .isSatisfied()).isTrue();
        Path copy = Files.createDirectories(dir.resolve("forged"));
        try (Stream<Path> logs = Files.list(sample)) {
            for (Path log : logs.filter(p -> p.toString().endsWith(".log")).toList()) {
                Files.copy(log, copy.resolve(log.getFileName()));
            }
        }
        byte[] log = Files.readAllBytes(copy.resolve("T10.log"));
        int at = firstReadOfAWrite(log) + 1 + 8 * (field - 1);
        long was = ByteBuffer.wrap(log).getLong(at);
        ByteBuffer.wrap(log).putLong(at, forged.equals("writer") ? 0x999 : was + 1);
        Files.write(copy.resolve("T10.log"), log);
        for (Values values : List.of(Values.AS_LOGGED, Values.UNIQUE)) {
            CheckResult result = Isocheck.check(new CobraHistoryReader(values).read(copy), IsolationLevel.SERIALIZABLE);
            assertThat(result.anomaly()).as("%s forged, %s", forged, values).map(a -> a.type()).contains(AnomalyType.THIN_AIR);
        }
    }

    /** The offset of the first R record that names a writer other than the initial state. */
    private static int firstReadOfAWrite(byte[] log) {
        int at = 0;
        while (at < log.length) {
            if (log[at] == 'R') {
                long writer = ByteBuffer.wrap(log).getLong(at + 1);
                if (writer != INIT && writer != NULL) {
                    return at;
                }
            }
            at += switch (log[at]) {
                case 'S', 'C' -> 9;
                case 'W' -> 25;
                case 'R' -> 33;
                default -> throw new AssertionError("unexpected byte " + log[at] + " at " + at);
            };
        }
        throw new AssertionError("no read of a write in the log");
    }

    @Test
    void aMissingDirectoryIsAnError() {
        assertThatThrownBy(() -> new CobraHistoryReader(Values.UNIQUE).read(dir.resolve("none")))
                .isInstanceOf(HistoryFormatException.class).hasMessageEndingWith("not a directory; a Cobra history is a"
                        + " directory of per-client *.log files");
    }
}
