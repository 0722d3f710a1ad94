package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder.TransactionBuilder;
import dev.isocheck.history.HistoryBuilder;
import java.io.IOException;
import java.math.BigInteger;
import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Supplier;
import org.apiguardian.api.API;

/**
 * Reads dbcop's {@code history.bincode}: a Rust {@code History} serialised by bincode 1 with its
 * default configuration (little-endian, {@code u64} lengths, bools as one byte 0 or 1).
 *
 * <pre>
 * header:   id, session_num, key_num, txn_num, event_num: u64; info, start, end: String (u64 length, UTF-8)
 * sessions: Vec&lt;Vec&lt;Transaction&gt;&gt;
 * Transaction = events: Vec&lt;Event&gt;, success: bool
 * Event       = write: bool, variable: u64, value: u64, success: bool
 * </pre>
 *
 * <p>The model, as dbcop's and VeriStrong's own parsers read it: unsuccessful events and
 * unsuccessful transactions are dropped; every key that appears starts at {@code 0} (a complete
 * initial state). Sessions are named {@code "1"}, {@code "2"}, … by their position in the file
 * (a session whose transactions were all dropped leaves a gap); transaction ids are the integers
 * 1, 2, … over the kept transactions in file order. Key names are {@code "x"} followed by the
 * variable in decimal ({@code x17}), so that reports tell keys from values; values are the
 * {@code u64} as a number (beyond {@code Long.MAX_VALUE} as a big integer, never wrapped).
 *
 * <p>The header's counts are not checked: dbcop's generators fill them inconsistently (per
 * session and per transaction in some files, totals in others, and off by one in a sample).
 * Everything else is: truncation, counts larger than the remaining bytes could hold, bool bytes
 * other than 0 and 1, invalid UTF-8, and bytes after the last session are errors naming the byte
 * offset. The file is streamed, so its size is bounded by the history it holds, not by memory for
 * the file.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class DbcopHistoryReader implements HistoryReader {

    /** Bytes a session occupies at least: its transaction count. */
    private static final int MIN_SESSION = 8;
    /** Bytes a transaction occupies at least: its event count and success flag. */
    private static final int MIN_TRANSACTION = 9;
    /** Bytes an event occupies: two bools and two u64. */
    private static final int EVENT = 18;
    /** The longest header string accepted; dbcop writes a name and two timestamps. */
    private static final int MAX_HEADER_STRING = 1 << 20;

    /** Creates a reader; readers keep no state between files. */
    public DbcopHistoryReader() {
    }

    @Override
    public History read(Path path) throws HistoryFormatException, IOException {
        try (BinaryInput in = BinaryInput.open(path)) {
            return read(in);
        }
    }

    private static History read(BinaryInput in) throws IOException, HistoryFormatException {
        for (String field : new String[] {"id", "session_num", "key_num", "txn_num", "event_num"}) {
            in.i64le("the header's " + field + " (u64)");
        }
        for (String field : new String[] {"info", "start", "end"}) {
            string(in, "the header's " + field);
        }
        HistoryBuilder builder = History.builder().initialStateComplete(true);
        KeyNames keyNames = new KeyNames(builder);
        long sessions = count(in, "the number of sessions", MIN_SESSION);
        long nextId = 1;
        boolean[] eventWrite = new boolean[16];
        long[] eventKey = new long[16];
        long[] eventValue = new long[16];
        boolean[] eventOk = new boolean[16];
        for (long s = 1; s <= sessions; s++) {
            String session = Long.toString(s);
            long transactions = count(in, "the number of transactions of session " + s, MIN_TRANSACTION);
            for (long t = 1; t <= transactions; t++) {
                long tn = t;
                long sn = s;
                long eventCount = count(in, () -> "the number of events" + where(tn, sn), EVENT);
                if (eventCount > Integer.MAX_VALUE - 8) {
                    throw new HistoryFormatException(in.file(), "byte " + (in.offset() - 8), "the number of events"
                            + where(tn, sn) + " is " + eventCount + ", more than one transaction can hold");
                }
                int events = (int) eventCount;
                if (events > eventKey.length) {
                    int capacity = Math.max(events, eventKey.length * 2);
                    eventWrite = Arrays.copyOf(eventWrite, capacity);
                    eventKey = Arrays.copyOf(eventKey, capacity);
                    eventValue = Arrays.copyOf(eventValue, capacity);
                    eventOk = Arrays.copyOf(eventOk, capacity);
                }
                // The transaction's success flag follows its events, so they wait here. Field
                // descriptions are built only for an error: there may be millions of events.
                for (int e = 0; e < events; e++) {
                    int en = e + 1;
                    eventWrite[e] = in.bool(() -> "the write flag" + event(en, tn, sn));
                    eventKey[e] = in.i64le(() -> "the variable" + event(en, tn, sn) + " (u64)");
                    eventValue[e] = in.i64le(() -> "the value" + event(en, tn, sn) + " (u64)");
                    eventOk[e] = in.bool(() -> "the success flag" + event(en, tn, sn));
                }
                if (!in.bool(() -> "the success flag" + where(tn, sn))) {
                    continue;
                }
                TransactionBuilder txn = builder.transaction(nextId++).session(session);
                for (int e = 0; e < events; e++) {
                    if (!eventOk[e]) {
                        continue;
                    }
                    String key = keyNames.name(eventKey[e]);
                    Object value = unsigned(eventValue[e]);
                    if (eventWrite[e]) {
                        txn.write(key, value);
                    } else {
                        txn.read(key, value);
                    }
                }
            }
        }
        if (!in.atEnd()) {
            throw new HistoryFormatException(in.file(), "byte " + in.offset(),
                    "unexpected data after the last session (" + in.remaining() + " more bytes)");
        }
        return builder.build();
    }

    private static String where(long transaction, long session) {
        return " of transaction " + transaction + " of session " + session;
    }

    private static String event(int event, long transaction, long session) {
        return " of event " + event + where(transaction, session);
    }

    /** A bincode length, checked against what the rest of the file could hold. */
    private static long count(BinaryInput in, String what, int minBytesEach) throws IOException, HistoryFormatException {
        return count(in, () -> what, minBytesEach);
    }

    private static long count(BinaryInput in, Supplier<String> what, int minBytesEach)
            throws IOException, HistoryFormatException {
        long at = in.offset();
        long n = in.i64le(() -> what.get() + " (u64)");
        long room = in.remaining() / minBytesEach;
        if (n < 0 || n > room) {
            throw new HistoryFormatException(in.file(), "byte " + at, what.get() + " is " + Long.toUnsignedString(n)
                    + ", more than the " + in.remaining() + " bytes left in the file could hold (truncated or corrupt)");
        }
        return n;
    }

    private static String string(BinaryInput in, String what) throws IOException, HistoryFormatException {
        long at = in.offset();
        long n = in.i64le("the length of " + what + " (u64)");
        if (n < 0 || n > in.remaining()) {
            throw new HistoryFormatException(in.file(), "byte " + at, "the length of " + what + " is "
                    + Long.toUnsignedString(n) + ", more than the " + in.remaining() + " bytes left in the file");
        }
        if (n > MAX_HEADER_STRING) {
            throw new HistoryFormatException(in.file(), "byte " + at, "the length of " + what + " is " + n
                    + " bytes, more than a dbcop header string (at most " + MAX_HEADER_STRING + ")");
        }
        long start = in.offset();
        byte[] bytes = in.bytes((int) n, what);
        try {
            return StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new HistoryFormatException(in.file(), "byte " + start, what + " is not valid UTF-8");
        }
    }

    /**
     * Key names by variable, each declared with initial value 0 when first seen. Variables are
     * dense small numbers in dbcop's generators, so those are looked up in an array: a map of boxed
     * longs cost a fifth of the reading time on a 100 MB file.
     */
    private static final class KeyNames {
        private static final int DENSE = 1 << 22;
        private final HistoryBuilder builder;
        private String[] dense = new String[1024];
        private final Map<Long, String> sparse = new HashMap<>();

        KeyNames(HistoryBuilder builder) {
            this.builder = builder;
        }

        String name(long variable) {
            if (variable >= 0 && variable < DENSE) {
                int i = (int) variable;
                if (i >= dense.length) {
                    dense = Arrays.copyOf(dense, Math.min(DENSE, Math.max(i + 1, dense.length * 2)));
                }
                String name = dense[i];
                if (name == null) {
                    name = declare(variable);
                    dense[i] = name;
                }
                return name;
            }
            return sparse.computeIfAbsent(variable, this::declare);
        }

        private String declare(long variable) {
            String name = "x" + Long.toUnsignedString(variable);
            builder.initialValue(name, 0L);
            return name;
        }
    }

    /** A u64 as a number that keeps its meaning beyond {@code Long.MAX_VALUE}. */
    private static Object unsigned(long v) {
        return v >= 0 ? (Object) v : new BigInteger(Long.toUnsignedString(v));
    }
}
