package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder.TransactionBuilder;
import dev.isocheck.history.HistoryBuilder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;

/**
 * Reads a Cobra history: a directory of per-client logs ({@code *.log}; other files such as
 * {@code *.debug} and {@code *.error} are ignored). Each log is one session, named after the file
 * without {@code .log} ({@code T10}); logs are read in sorted file-name order, so the result does
 * not depend on the directory listing.
 *
 * <p>A log is a sequence of records, each an opcode byte and big-endian signed 64-bit fields:
 * {@code 'S' txn} (start), {@code 'C' txn} (commit), {@code 'W' writeId key value},
 * {@code 'R' writerTxn writeId key value}. It ends at the end of the file, or at a {@code 0xFF}
 * byte where a record would start, after which only more {@code 0xFF} bytes may follow.
 *
 * <p>The model:
 * <ul>
 *   <li>Keys are the 64-bit key in lower-case hex, unsigned ({@code 8f3a…}); transaction ids the
 *       transaction id likewise ({@code 1000004f6}, as Cobra's {@code .debug} logs print them).</li>
 *   <li>Values are short strings of hex fields, which identify a write as {@code docs/semantics.md}
 *       says: {@code "writeId:txn:value"} in the {@link Values#UNIQUE unique} reading (a read
 *       gives its writer's transaction id), {@code "writeId:value"} in the
 *       {@link Values#DUPLICATE duplicate} reading. Measured on a million distinct values, such a
 *       string costs about 110 bytes per value (unique reading; 90 duplicate) against about 245
 *       for a list of three numbers, and reads in reports as the ids Cobra's tools print; it cannot be one {@code long} without hashing, and a hash could
 *       make two different writes look alike.</li>
 *   <li>A read whose writer transaction is Cobra's init ({@code 0xbebeebee}) or null
 *       ({@code 0xdeadbeef}) id read the initial state. Its value is {@code "init:value"}, which
 *       no write's value can equal (a write's fields are hex digits only). Its write id must be
 *       init or null too.</li>
 *   <li>The initial state is complete: each key's initial value is the one its first read of the
 *       initial state saw, and a key no read saw initially starts absent (no Cobra read observes
 *       absence). Why not leave it unknown: an unknown initial value may be any value no
 *       transaction writes, so a read of a value nobody wrote (a writer no log holds, {@code 0x999},
 *       or a value its writer never wrote) would be explained by it and pass. Cobra's logs tell
 *       the initial state's values apart, so such a read is what {@code docs/semantics.md} calls
 *       {@code thin-air}, as it is in dbcop's histories, which start complete too. A second read
 *       of a key's initial state that saw another value is then thin air as well (an unknown
 *       initial state would call it an initial-value conflict): a violation either way.</li>
 *   <li>A transaction started and not committed before the next {@code S} or the end of its log
 *       is kept as aborted. VeriStrong rejects such logs; a client that crashed or gave up leaves
 *       them, and an aborted transaction installs nothing but still tells when a read saw its
 *       writes ({@code G1a}), so keeping it loses nothing and refuses no history.</li>
 * </ul>
 *
 * <p>Errors name the log file and byte offset: an unknown opcode, a truncated record, a record
 * other than {@code S} outside a transaction, a commit of another transaction than the open
 * one, a transaction id used twice (in any log) or equal to one of Cobra's reserved ids, and, in
 * the unique reading, a read that names the universal transaction {@code 0xabddefee} instead of
 * its writer: duplicate-value logs do that, and reading them as unique would make every read
 * unexplained, so the error says to use the duplicate reading.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class CobraHistoryReader implements HistoryReader {

    /** How values are identified. */
    public enum Values {
        /** A value is its {@code (writeId, transaction, value)}: Cobra's default, every write distinct. */
        UNIQUE,
        /** A value is its {@code (writeId, value)}: only what was written counts, so values may repeat. */
        DUPLICATE,
        /**
         * The reading the logs declare: {@link #DUPLICATE} when a write carries, or a read names,
         * Cobra's universal id (duplicate-value logs do, since they cannot tell writes apart),
         * {@link #UNIQUE} otherwise.
         */
        AS_LOGGED
    }

    /** Cobra's transaction and write id for the initial state. */
    static final long INIT = 0xbebeebeeL;
    /** Cobra's transaction and write id for a read that found no value. */
    static final long NULL = 0xdeadbeefL;
    /** Cobra's write id and transaction id in logs that do not tell writes apart. */
    static final long UNIVERSAL = 0xabddefeeL;

    private final Values values;

    /** Creates a reader for one of the two readings of the values. */
    public CobraHistoryReader(Values values) {
        this.values = Objects.requireNonNull(values, "values is null");
    }

    @Override
    public History read(Path path) throws HistoryFormatException, IOException {
        if (!Files.isDirectory(path)) {
            throw new HistoryFormatException(path, "", "not a directory; a Cobra history is a directory of per-client *.log files");
        }
        List<Path> logs;
        try (Stream<Path> files = Files.list(path)) {
            logs = files.filter(p -> p.getFileName().toString().endsWith(".log") && Files.isRegularFile(p))
                    .sorted((a, b) -> a.getFileName().toString().compareTo(b.getFileName().toString()))
                    .toList();
        }
        if (logs.isEmpty()) {
            throw new HistoryFormatException(path, "", "no *.log files");
        }
        Values reading = values == Values.AS_LOGGED ? declaredReading(logs) : values;
        HistoryBuilder builder = History.builder().initialStateComplete(true);
        InitialValues initial = new InitialValues(builder);
        Map<Long, String> started = new HashMap<>();
        for (Path log : logs) {
            try (BinaryInput in = BinaryInput.open(log)) {
                readLog(in, builder, started, initial, reading);
            }
        }
        return builder.build();
    }

    /**
     * Duplicate when any write or read record carries the universal id, unique otherwise. A
     * malformed log ends the scan quietly: the reading proper reports it, with its offset.
     */
    private static Values declaredReading(List<Path> logs) throws IOException {
        for (Path log : logs) {
            try (BinaryInput in = BinaryInput.open(log)) {
                while (!in.atEnd()) {
                    int op = in.u8("a record type");
                    int fields = switch (op) {
                        case 'S', 'C' -> 1;
                        case 'W' -> 3;
                        case 'R' -> 4;
                        default -> 0;
                    };
                    if (fields == 0 || in.remaining() < 8L * fields) {
                        break;
                    }
                    long first = in.i64be("a field");
                    long second = fields > 1 ? in.i64be("a field") : 0;
                    for (int f = 2; f < fields; f++) {
                        in.i64be("a field");
                    }
                    if ((op == 'W' && first == UNIVERSAL) || (op == 'R' && (first == UNIVERSAL || second == UNIVERSAL))) {
                        return Values.DUPLICATE;
                    }
                }
            } catch (HistoryFormatException malformed) {
                // Reported, with its place, when the log is read for real.
            }
        }
        return Values.UNIQUE;
    }

    private void readLog(BinaryInput in, HistoryBuilder builder, Map<Long, String> started, InitialValues initial,
            Values reading) throws IOException, HistoryFormatException {
        String name = in.file().getFileName().toString();
        String session = name.substring(0, name.length() - ".log".length());
        TransactionBuilder open = null;
        long openId = 0;
        while (!in.atEnd()) {
            long at = in.offset();
            int op = in.u8("a record type");
            switch (op) {
                case 0xFF -> {
                    end(in);
                    return;
                }
                case 'S' -> {
                    in.require(8, at, "an S record's transaction id");
                    long id = in.i64be("a transaction id");
                    checkNotReserved(in, at, id);
                    String first = started.putIfAbsent(id, name + " byte " + at);
                    if (first != null) {
                        throw error(in, at, "transaction " + Long.toHexString(id) + " starts again (it started at "
                                + first + ")");
                    }
                    if (open != null) {
                        open.aborted();
                    }
                    open = builder.transaction(Long.toHexString(id)).session(session);
                    openId = id;
                }
                case 'C' -> {
                    in.require(8, at, "a C record's transaction id");
                    long id = in.i64be("a transaction id");
                    if (open == null) {
                        throw error(in, at, "commit of transaction " + Long.toHexString(id) + ", but no transaction is open");
                    }
                    if (id != openId) {
                        throw error(in, at, "commit of transaction " + Long.toHexString(id) + ", but the open transaction is "
                                + Long.toHexString(openId));
                    }
                    open = null;
                }
                case 'W' -> {
                    in.require(24, at, "a W record's write id, key and value");
                    long writeId = in.i64be("a write id");
                    long key = in.i64be("a key");
                    long value = in.i64be("a value");
                    if (open == null) {
                        throw error(in, at, "write outside a transaction (no S record before it)");
                    }
                    open.write(Long.toHexString(key), written(reading, writeId, openId, value));
                }
                case 'R' -> {
                    in.require(32, at, "an R record's writer transaction, write id, key and value");
                    long writer = in.i64be("a transaction id");
                    long writeId = in.i64be("a write id");
                    long key = in.i64be("a key");
                    long value = in.i64be("a value");
                    if (open == null) {
                        throw error(in, at, "read outside a transaction (no S record before it)");
                    }
                    String keyName = Long.toHexString(key);
                    String observed = read(reading, in, at, writer, writeId, value);
                    if (writer == INIT || writer == NULL) {
                        initial.saw(keyName, observed);
                    }
                    open.read(keyName, observed);
                }
                default -> throw error(in, at, "unknown record type 0x" + BinaryInput.hex2(op) + " (expected S, C, W or R)");
            }
        }
        if (open != null) {
            open.aborted();
        }
    }

    /** The value a write installs, in this reading. */
    private static String written(Values reading, long writeId, long txn, long value) {
        return reading == Values.UNIQUE
                ? Long.toHexString(writeId) + ':' + Long.toHexString(txn) + ':' + Long.toHexString(value)
                : Long.toHexString(writeId) + ':' + Long.toHexString(value);
    }

    /** The value a read observed, in this reading. */
    private static String read(Values reading, BinaryInput in, long at, long writer, long writeId, long value)
            throws HistoryFormatException {
        if (writer == INIT || writer == NULL) {
            if (writeId != INIT && writeId != NULL) {
                throw error(in, at, "read of the initial state (writer " + Long.toHexString(writer) + ") with write id "
                        + Long.toHexString(writeId) + " (expected " + Long.toHexString(INIT) + " or " + Long.toHexString(NULL) + ")");
            }
            return "init:" + Long.toHexString(value);
        }
        if (reading == Values.UNIQUE && writer == UNIVERSAL) {
            throw error(in, at, "read names the universal transaction " + Long.toHexString(UNIVERSAL)
                    + " instead of its writer, as duplicate-value logs do; read this history with the duplicate reading"
                    + " (format " + HistoryFormat.COBRA_DUPLICATES.cliName() + ")");
        }
        return written(reading, writeId, writer, value);
    }

    /** The initial state, as the reads of it show it: each key's first observed initial value. */
    private static final class InitialValues {
        private final HistoryBuilder builder;
        private final Set<String> listed = new HashSet<>();

        InitialValues(HistoryBuilder builder) {
            this.builder = builder;
        }

        /** A read of {@code key}'s initial state observed {@code value}: listed, unless the key is already. */
        void saw(String key, String value) {
            if (listed.add(key)) {
                builder.initialValue(key, value);
            }
        }
    }

    private static void checkNotReserved(BinaryInput in, long at, long id) throws HistoryFormatException {
        if (id == INIT || id == NULL || id == UNIVERSAL) {
            throw error(in, at, "transaction id " + Long.toHexString(id) + " is one of Cobra's reserved ids");
        }
    }

    /** After the end marker only more end markers may follow: anything else would be lost silently. */
    private static void end(BinaryInput in) throws IOException, HistoryFormatException {
        while (!in.atEnd()) {
            long at = in.offset();
            int b = in.u8("padding");
            if (b != 0xFF) {
                throw error(in, at, "data after the end marker 0xff (found 0x" + BinaryInput.hex2(b) + ")");
            }
        }
    }

    private static HistoryFormatException error(BinaryInput in, long at, String problem) {
        return new HistoryFormatException(in.file(), "byte " + at, problem);
    }
}
