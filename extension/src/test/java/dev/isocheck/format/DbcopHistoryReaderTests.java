package dev.isocheck.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.isocheck.history.History;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.Status;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.Value;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class DbcopHistoryReaderTests {

    @TempDir
    Path dir;

    /** Writes bincode as dbcop does, to build files whose content the test knows. */
    private static final class Bincode {
        final ByteArrayOutputStream out = new ByteArrayOutputStream();

        Bincode u64(long v) {
            out.writeBytes(ByteBuffer.allocate(8).order(ByteOrder.LITTLE_ENDIAN).putLong(v).array());
            return this;
        }

        Bincode bool(boolean b) {
            out.write(b ? 1 : 0);
            return this;
        }

        Bincode string(String s) {
            byte[] b = s.getBytes(StandardCharsets.UTF_8);
            u64(b.length);
            out.writeBytes(b);
            return this;
        }

        Bincode header() {
            return u64(0).u64(2).u64(3).u64(3).u64(4).string("test").string("start").string("end");
        }

        Bincode event(boolean write, long variable, long value, boolean success) {
            return bool(write).u64(variable).u64(value).bool(success);
        }

        byte[] bytes() {
            return out.toByteArray();
        }
    }

    /** Two sessions: {@code [t(r x1=0, w x1=5 failed, w x2=7), aborted t(w x1=9)]}, {@code [t(r x2=7, w x3=2^64-1)]}. */
    private static byte[] small() {
        return new Bincode().header().u64(2)
                .u64(2)
                .u64(3).event(false, 1, 0, true).event(true, 1, 5, false).event(true, 2, 7, true).bool(true)
                .u64(1).event(true, 1, 9, true).bool(false)
                .u64(1)
                .u64(2).event(false, 2, 7, true).event(true, 3, -1, true).bool(true)
                .bytes();
    }

    private Path write(byte[] bytes) throws IOException {
        Path f = dir.resolve("history.bincode");
        Files.write(f, bytes);
        return f;
    }

    private HistoryFormatException error(byte[] bytes) throws IOException {
        Path f = write(bytes);
        try {
            History h = new DbcopHistoryReader().read(f);
            throw new AssertionError("expected a HistoryFormatException, got " + h);
        } catch (HistoryFormatException e) {
            assertThat(e.file()).isEqualTo(f);
            assertThat(e.place()).startsWith("byte ");
            assertThat(e.getMessage()).startsWith(f + ":byte ").doesNotContain("\n");
            return e;
        }
    }

    @Test
    void aHandBuiltFileReadsAsDbcopMeansIt() throws Exception {
        History h = new DbcopHistoryReader().read(write(small()));
        assertThat(h.transactions()).extracting(Transaction::id).containsExactly("1", "2");
        assertThat(h.transactions()).allMatch(Transaction::hasNumericId).allMatch(t -> t.status() == Status.COMMITTED);
        assertThat(h.sessions()).extracting(s -> s.name()).containsExactly("1", "2");
        assertThat(h.transaction(0).toString()).isEqualTo("1: r(x1, 0) w(x2, 7)");
        assertThat(h.transaction(1).toString()).isEqualTo("2: r(x2, 7) w(x3, 18446744073709551615)");
        assertThat(h.values().get(h.transaction(1).value(1)))
                .isEqualTo(Value.of(new BigInteger("18446744073709551615")));
        assertThat(h.initialState().isComplete()).isTrue();
        for (String key : new String[] {"x1", "x2", "x3"}) {
            assertThat(h.values().get(h.initialState().valueOf(h.keys().idOf(key)))).isEqualTo(Value.of(0));
        }
        // The writes of x1 (a failed event, an unsuccessful transaction) are dropped; its read stays.
        assertThat(h.keys().size()).isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
        // sample, transactions, sessions, reads, writes, keys (counted by an independent Python walk of the bincode)
        "fig10/20_100_15_5000_0.5_r_0.5_0.5_100/hist-00000/history.bincode, 2000, 20, 15007, 14993, 4927",
        "fig11/ser/dbcop/chengRW-1000/history.bincode, 962, 25, 3848, 6485, 5361",
        "fig11/ser/dbcop/chengRW-10000/history.bincode, 9565, 25, 38072, 43357, 9992",
        "fig11/si/dbcop/1000/history.bincode, 963, 24, 3976, 9109, 5389",
    })
    void everySampleLoads(String sample, int transactions, int sessions, long reads, long writes, int keys) throws Exception {
        Path file = SampleHistories.veristrong(sample);
        History h = new DbcopHistoryReader().read(file);
        assertThat(h.size()).isEqualTo(transactions);
        assertThat(h.committedCount()).isEqualTo(transactions);
        assertThat(h.sessions()).hasSize(sessions);
        long r = 0;
        long w = 0;
        for (Transaction t : h.transactions()) {
            for (int i = 0; i < t.size(); i++) {
                r += t.kind(i) == OpKind.READ ? 1 : 0;
                w += t.kind(i) == OpKind.WRITE ? 1 : 0;
            }
        }
        assertThat(r).isEqualTo(reads);
        assertThat(w).isEqualTo(writes);
        assertThat(h.keys().size()).isEqualTo(keys);
        assertThat(h.initialState().isComplete()).isTrue();
        assertThat(h.initialState().listedCount()).isEqualTo(keys);

        // The header: session_num at 8, txn_num at 24, event_num at 32. Where dbcop wrote totals or
        // per-session and per-transaction counts, they must agree with what was read.
        ByteBuffer header = ByteBuffer.wrap(Files.readAllBytes(file), 0, 40).order(ByteOrder.LITTLE_ENDIAN);
        long sessionNum = header.getLong(8);
        long txnNum = header.getLong(24);
        long eventNum = header.getLong(32);
        assertThat(sessionNum).isEqualTo(sessions);
        if (sample.startsWith("fig10")) {
            assertThat(sessionNum * txnNum).isEqualTo(transactions);
            assertThat(sessionNum * txnNum * eventNum).isEqualTo(reads + writes);
        } else if (sample.contains("chengRW")) {
            assertThat(txnNum).isEqualTo(transactions);
            assertThat(eventNum).isEqualTo(reads + writes);
        }
    }

    @Test
    void everyCutOfASampleIsAnError() throws Exception {
        byte[] full = Files.readAllBytes(SampleHistories.veristrong("fig11/ser/dbcop/chengRW-1000/history.bincode"));
        Set<Integer> cuts = new TreeSet<>();
        for (int i = 0; i < 200; i++) {
            cuts.add(i);
        }
        for (int i = 1; i <= 64; i++) {
            cuts.add(full.length - i);
        }
        for (int i = 0; i < 40; i++) {
            cuts.add((int) ((long) full.length * i / 40));
        }
        for (int cut : cuts) {
            HistoryFormatException e = error(Arrays.copyOf(full, cut));
            assertThat(e.problem()).as("cut at %d", cut).containsAnyOf("truncated", "more than the");
        }
    }

    @Test
    void everyCutOfAHandBuiltFileIsAnError() throws Exception {
        byte[] full = small();
        for (int cut = 0; cut < full.length; cut++) {
            error(Arrays.copyOf(full, cut));
        }
        assertThat(new DbcopHistoryReader().read(write(full)).size()).isEqualTo(2);
    }

    @Test
    void exactMessages() throws Exception {
        Path f = dir.resolve("history.bincode");
        byte[] s = small();
        int headerEnd = 40 + 8 + 4 + 8 + 5 + 8 + 3;
        assertThat(error(Arrays.copyOf(s, 3)).getMessage())
                .isEqualTo(f + ":byte 0: truncated: expected the header's id (u64) (8 bytes) but the file ends after 3 bytes");
        // Counts are checked against the bytes left before their items are read, so a cut inside an
        // event shows first as a count that cannot fit.
        int firstEvent = headerEnd + 24;
        assertThat(error(Arrays.copyOf(s, firstEvent + 5)).getMessage()).isEqualTo(f + ":byte " + (headerEnd + 8)
                + ": the number of transactions of session 1 is 2, more than the 13 bytes left in the file could hold"
                + " (truncated or corrupt)");
        int firstSuccess = firstEvent + 3 * 18;
        assertThat(error(Arrays.copyOf(s, firstSuccess)).getMessage()).isEqualTo(f + ":byte " + firstSuccess
                + ": truncated: expected the success flag of transaction 1 of session 1 (1 byte) but the file ends after 0 bytes");
        byte[] badBool = s.clone();
        badBool[firstEvent] = 2;
        assertThat(error(badBool).getMessage()).isEqualTo(f + ":byte " + firstEvent
                + ": expected the write flag of event 1 of transaction 1 of session 1 (a bool, 0 or 1) but found 0x02");
        byte[] trailing = Arrays.copyOf(s, s.length + 3);
        assertThat(error(trailing).getMessage())
                .isEqualTo(f + ":byte " + s.length + ": unexpected data after the last session (3 more bytes)");
        byte[] absurd = s.clone();
        ByteBuffer.wrap(absurd).order(ByteOrder.LITTLE_ENDIAN).putLong(headerEnd, 1L << 40);
        assertThat(error(absurd).getMessage()).isEqualTo(f + ":byte " + headerEnd + ": the number of sessions is "
                + (1L << 40) + ", more than the " + (s.length - headerEnd - 8) + " bytes left in the file could hold (truncated or corrupt)");
        ByteBuffer.wrap(absurd).order(ByteOrder.LITTLE_ENDIAN).putLong(headerEnd, -1L);
        assertThat(error(absurd).problem()).startsWith("the number of sessions is 18446744073709551615, more than");
        byte[] longString = s.clone();
        ByteBuffer.wrap(longString).order(ByteOrder.LITTLE_ENDIAN).putLong(40, Long.MAX_VALUE);
        assertThat(error(longString).getMessage()).isEqualTo(f + ":byte 40: the length of the header's info is "
                + Long.MAX_VALUE + ", more than the " + (s.length - 48) + " bytes left in the file");
        byte[] notUtf8 = s.clone();
        notUtf8[48] = (byte) 0xC3;
        notUtf8[49] = (byte) 0x28;
        assertThat(error(notUtf8).getMessage()).isEqualTo(f + ":byte 48: the header's info is not valid UTF-8");
    }

    @Test
    void aMissingFileIsAnIoException() {
        assertThatThrownBy(() -> new DbcopHistoryReader().read(dir.resolve("none.bincode")))
                .isInstanceOf(IOException.class);
    }
}
