package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;
import static org.apiguardian.api.API.Status.INTERNAL;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.isocheck.history.History;
import dev.isocheck.history.HistoryBuilder;
import dev.isocheck.history.HistoryBuilder.TransactionBuilder;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import dev.isocheck.internal.text.Excerpt;
import dev.isocheck.internal.text.NearestName;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;
import java.util.logging.Logger;
import org.apiguardian.api.API;

/**
 * Reads isocheck's JSON Lines history format ({@code docs/history-format.md}).
 *
 * <p>Strict where a mistake could change a verdict, lenient where it cannot:
 * <ul>
 *   <li>errors: invalid UTF-8 or JSON (duplicate fields in an object and text after the object
 *       included), a line that is not an object or is neither an initial state nor a transaction,
 *       an initial state after a transaction or a second one, a duplicate transaction id (an
 *       integer id and a string id with the same digits are the same id), a missing {@code ops},
 *       an unknown {@code op}, a read or write without {@code key} or {@code value}, a predicate
 *       row outside its table, returned twice or with a {@code null} value (an absent row),
 *       an {@code unknown} other than {@code "unwritten"} or {@code "any"}, a statement without
 *       {@code sql} or with a parameter that is not a string, an operation's {@code statement}
 *       that is not the index of one of its transaction's statements,
 *       fields of the wrong type, {@code end} before
 *       {@code start};</li>
 *   <li>accepted: unknown fields (the format may grow; each is warned of, with the known field
 *       it may be a misspelling of: {@link #read(Path, Consumer)}), {@code null} for an optional field
 *       ({@code session}, {@code status}, {@code start}, {@code end}, {@code complete},
 *       {@code unknown}, {@code thread}, {@code statements}, {@code parameters}, {@code name},
 *       {@code statement}), as
 *       serialisers of optional values write it, an integer {@code session} (taken as its
 *       decimal text), a UTF-8 byte order mark, LF, CRLF and CR-only line ends, and comment lines
 *       ({@code //}) and blank lines, with leading white space.</li>
 * </ul>
 *
 * <p>Errors name the line: {@code file:12: ops[2]: unknown op "raed" (expected read, write or predicate)},
 * in the format's terms (not Jackson's, whose advice names settings a user cannot change:
 * {@link JsonProblem}), quoting at most {@value Excerpt#LIMIT} characters of any string of the
 * input. Jackson's limits are the format's: arrays and objects nested at most 1,000 deep, numbers
 * of at most 1,000 characters, strings of at most 20,000,000 and field names of at most 50,000.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JsonlHistoryReader implements HistoryReader {

    /**
     * The format's limits ({@code docs/history-format.md}), set here rather than left to Jackson's
     * defaults so that an upgrade of Jackson does not change what a history may hold. Beyond them a
     * line is refused before it costs time or memory.
     */
    private static final StreamReadConstraints LIMITS = StreamReadConstraints.builder()
            .maxNestingDepth(1_000)
            .maxNumberLength(1_000)
            .maxStringLength(20_000_000)
            .maxNameLength(50_000)
            .build();

    private static final JsonMapper JSON = JsonMapper.builder(JsonFactory.builder().streamReadConstraints(LIMITS).build())
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .build();

    /** Where {@link #read(Path)} tells of fields it does not read, having no one else to tell. */
    private static final Logger LOGGER = Logger.getLogger("dev.isocheck");

    /** Creates a reader; readers keep no state between files. */
    public JsonlHistoryReader() {
    }

    /**
     * Reads the history at {@code path}, logging a warning (java.util.logging, logger
     * {@code dev.isocheck}) for each field it does not read, as {@link #read(Path, Consumer)} tells.
     */
    @Override
    public History read(Path path) throws HistoryFormatException, IOException {
        return read(path, LOGGER::warning);
    }

    /**
     * Reads the history at {@code path}, telling {@code warnings} of the fields isocheck does not
     * read ({@code file:3: unknown field "stauts" in a transaction, ignored; did you mean "status"?}):
     * one warning per field and kind of object, at the first line it is on, told when the file has
     * been read, or before its error when it is malformed.
     */
    @Override
    public History read(Path path, Consumer<String> warnings) throws HistoryFormatException, IOException {
        Objects.requireNonNull(warnings, "warnings is null");
        Parse parse = new Parse(path);
        try (InputStream in = Files.newInputStream(path)) {
            return parse.run(in);
        } finally {
            // Before the error too: a misspelt "ops" explains the missing "ops" the error names.
            parse.unknownFields.report(warnings);
        }
    }

    /**
     * Receives a file's transactions a batch at a time, as {@link #readInBatches} reads them.
     */
    @API(status = INTERNAL, since = "0.1")
    @FunctionalInterface
    public interface BatchSink {

        /**
         * Takes the next batch: a history of the transactions read since the batch before, over the
         * file's initial state; {@code line} is the last line read.
         */
        void accept(History batch, long line) throws HistoryFormatException;
    }

    /**
     * Reads the history at {@code path} in batches of at most {@code batchSize} transactions, handing
     * each to {@code sink} as soon as it is read (the last batch may be empty), so that a file too
     * large to hold, or still growing, can be checked in rounds. Each batch is over the file's initial
     * state, with the transactions in file order; a session runs on from batch to batch by name.
     * Transaction ids are checked unique within a batch only (across batches, the rounds holding
     * them tell a repeated id). Warnings are told as {@link #read(Path, Consumer)} tells them.
     *
     * @throws HistoryFormatException naming the line, for a malformed file; or what {@code sink} throws
     */
    @API(status = INTERNAL, since = "0.1")
    public void readInBatches(InputStream in, Path path, int batchSize, BatchSink sink, Consumer<String> warnings)
            throws HistoryFormatException, IOException {
        Objects.requireNonNull(sink, "sink is null");
        Objects.requireNonNull(warnings, "warnings is null");
        if (batchSize < 1) {
            throw new IllegalArgumentException("batchSize must be positive, not " + batchSize);
        }
        Parse parse = new Parse(path);
        parse.batchSize = batchSize;
        parse.sink = sink;
        try {
            parse.run(in);
        } finally {
            parse.unknownFields.report(warnings);
        }
    }

    /** The state of reading one file. */
    private static final class Parse {

        private final Path file;
        private final UnknownFields unknownFields;
        private HistoryBuilder builder = History.builder();
        private int batchSize = Integer.MAX_VALUE;
        private BatchSink sink;
        private JsonNode initNode;
        private boolean flushed;
        private final Map<String, Long> idLines = new HashMap<>();
        private final CharsetDecoder utf8 = StandardCharsets.UTF_8.newDecoder()
                .onMalformedInput(CodingErrorAction.REPORT)
                .onUnmappableCharacter(CodingErrorAction.REPORT);
        private long line;
        private long initLine = -1;
        private long firstTransactionLine = -1;

        Parse(Path file) {
            this.file = file;
            this.unknownFields = new UnknownFields(file);
        }

        /**
         * Reads the lines: each ends at a line feed, a carriage return followed by one, or a
         * carriage return alone (as Java's {@code BufferedReader} and Python's universal newlines
         * read them). A file written with CR-only line ends would otherwise be one line, and one
         * comment line at that when it starts with a comment: a history that passes unread.
         */
        History run(InputStream in) throws IOException, HistoryFormatException {
            ByteArrayOutputStream pending = new ByteArrayOutputStream(256);
            byte[] chunk = new byte[1 << 16];
            boolean afterCr = false;
            int n;
            while ((n = in.read(chunk)) >= 0) {
                int from = 0;
                for (int i = 0; i < n; i++) {
                    byte b = chunk[i];
                    if (b == '\n' && afterCr) {
                        // The line feed of a CRLF: the carriage return ended the line already.
                        from = i + 1;
                    } else if (b == '\n' || b == '\r') {
                        pending.write(chunk, from, i - from);
                        line(pending);
                        pending.reset();
                        from = i + 1;
                    }
                    afterCr = b == '\r';
                }
                pending.write(chunk, from, n - from);
            }
            if (pending.size() > 0) {
                line(pending);
            }
            if (sink != null) {
                if (builder.size() > 0 || !flushed) {
                    flush();
                }
                return null;
            }
            return builder.build();
        }

        private void line(ByteArrayOutputStream bytes) throws HistoryFormatException {
            line++;
            String text = decode(bytes.toByteArray());
            if (line == 1 && text.startsWith("\uFEFF")) {
                text = text.substring(1);
            }
            String trimmed = text.strip();
            if (trimmed.isEmpty() || trimmed.startsWith("//")) {
                return;
            }
            JsonNode node;
            try {
                // The untrimmed text, so that Jackson's columns are the line's.
                node = JSON.readTree(text);
            } catch (JsonProcessingException e) {
                throw error(JsonProblem.of(e));
            } catch (RuntimeException e) {
                // Jackson throws some number errors unchecked (1e2147483648: NumberFormatException).
                throw error(JsonProblem.of(e));
            }
            if (!node.isObject()) {
                throw error("expected a JSON object (an initial state or a transaction), found " + kind(node));
            }
            boolean init = node.has("init");
            boolean transaction = node.has("id");
            if (init && transaction) {
                throw error("a line is either an initial state (\"init\") or a transaction (\"id\"), not both");
            }
            try {
                if (init) {
                    init(node);
                } else if (transaction) {
                    transaction(node);
                } else {
                    throw error("neither an initial state (no \"init\") nor a transaction (no \"id\")" + slipOf(node));
                }
            } catch (RuntimeException e) {
                // A last resort: whatever the model refuses is this line's problem, not a crash.
                throw error(describe(e));
            }
            if (sink != null && builder.size() >= batchSize) {
                flush();
            }
        }

        /** Hands the batch read so far to the sink and starts the next, over the same initial state. */
        private void flush() throws HistoryFormatException {
            History batch = builder.build();
            builder = History.builder();
            idLines.clear();
            if (initNode != null) {
                applyInit(initNode);
            }
            flushed = true;
            sink.accept(batch, line);
        }

        private void init(JsonNode node) throws HistoryFormatException {
            if (initLine >= 0) {
                throw error("a second initial state (the first is on line " + initLine + ")");
            }
            if (firstTransactionLine >= 0) {
                throw error("the initial state must come before the first transaction (line " + firstTransactionLine + ")");
            }
            initLine = line;
            unknownFields.check(node, JsonlObject.INIT, line);
            initNode = node;
            applyInit(node);
        }

        private void applyInit(JsonNode node) throws HistoryFormatException {
            JsonNode init = node.get("init");
            if (!init.isObject()) {
                throw error("\"init\" must be an object mapping keys to values, not " + kind(init));
            }
            Boolean complete = optionalBoolean(node, "complete");
            JsonNode unknown = node.get("unknown");
            if (unknown != null && !unknown.isNull()) {
                builder.unknownInitialValues(UnknownInitialValues.fromFormatName(unknown.isTextual() ? unknown.textValue() : null)
                        .orElseThrow(() -> error("\"unknown\" must be \"unwritten\" or \"any\", not " + kind(unknown))));
            }
            for (Iterator<Map.Entry<String, JsonNode>> it = init.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                builder.initialValue(e.getKey(), convert(e.getValue(), "init: " + quote(e.getKey())));
            }
            builder.initialStateComplete(complete != null && complete);
        }

        private void transaction(JsonNode node) throws HistoryFormatException {
            if (firstTransactionLine < 0) {
                firstTransactionLine = line;
            }
            unknownFields.check(node, JsonlObject.TRANSACTION, line);
            Object id = id(node.get("id"));
            String idText = id.toString();
            Long first = idLines.putIfAbsent(idText, line);
            if (first != null) {
                throw error("duplicate transaction id " + quote(idText) + " (first on line " + first + ")");
            }
            TransactionBuilder t = builder.transaction(id);
            String session = session(node.get("session"));
            if (session != null) {
                t.session(session);
            }
            String status = optionalString(node, "status");
            if ("aborted".equals(status)) {
                t.aborted();
            } else if (status != null && !"committed".equals(status)) {
                throw error("\"status\" is " + quote(status) + " (expected committed or aborted)");
            }
            Long start = optionalTime(node, "start");
            Long end = optionalTime(node, "end");
            if (start != null && end != null && end < start) {
                throw error("\"end\" (" + end + ") is before \"start\" (" + start + ")");
            }
            if (start != null) {
                t.start(start);
            }
            if (end != null) {
                t.end(end);
            }
            String thread = optionalString(node, "thread");
            if (thread != null) {
                t.thread(thread);
            }
            int statements = statements(t, node.get("statements"));
            JsonNode ops = node.get("ops");
            if (ops == null) {
                throw error("transaction " + quote(idText) + " has no \"ops\" (write [] for none)");
            }
            if (!ops.isArray()) {
                throw error("\"ops\" must be an array, not " + kind(ops));
            }
            for (int i = 0; i < ops.size(); i++) {
                String at = "ops[" + i + "]: ";
                if (ops.get(i).isObject()) {
                    t.fromStatement(statementOf(ops.get(i), statements, at));
                }
                op(t, ops.get(i), at);
            }
        }

        /** Adds the transaction's {@code statements}, if any; returns how many. */
        private int statements(TransactionBuilder t, JsonNode statements) throws HistoryFormatException {
            if (statements == null || statements.isNull()) {
                return 0;
            }
            if (!statements.isArray()) {
                throw error("\"statements\" must be an array of {\"sql\", \"parameters\", \"name\"} objects, not "
                        + kind(statements));
            }
            for (int i = 0; i < statements.size(); i++) {
                JsonNode statement = statements.get(i);
                String at = "statements[" + i + "]: ";
                if (!statement.isObject()) {
                    throw error(at + "expected a {\"sql\", \"parameters\", \"name\"} object, found " + kind(statement));
                }
                unknownFields.check(statement, JsonlObject.STATEMENT, line);
                String sql = string(statement, "sql", at + "statement");
                List<String> parameters = new ArrayList<>();
                JsonNode given = statement.get("parameters");
                if (given != null && !given.isNull()) {
                    if (!given.isArray()) {
                        throw error(at + "\"parameters\" must be an array of strings, not " + kind(given));
                    }
                    for (int p = 0; p < given.size(); p++) {
                        if (!given.get(p).isTextual()) {
                            throw error(at + "parameters[" + p + "] must be a string (the parameter as text), not "
                                    + kind(given.get(p)));
                        }
                        parameters.add(given.get(p).textValue());
                    }
                }
                String name;
                try {
                    name = optionalString(statement, "name");
                } catch (HistoryFormatException e) {
                    throw error(at + e.problem());
                }
                t.statement(new SqlStatement(sql, parameters, Optional.ofNullable(name)));
            }
            // The operations say which statement did them, not the order statements were added in.
            t.fromStatement(-1);
            return statements.size();
        }

        /** The index of the statement an operation names, or {@code -1} when it names none. */
        private int statementOf(JsonNode op, int statements, String at) throws HistoryFormatException {
            JsonNode v = op.get("statement");
            if (v == null || v.isNull()) {
                return -1;
            }
            if (!v.isIntegralNumber() || !v.canConvertToInt() || v.intValue() < 0 || v.intValue() >= statements) {
                throw error(at + "\"statement\" must be the index of one of the transaction's " + statements
                        + " statements" + (statements == 0 ? "" : " (0 to " + (statements - 1) + ")") + ", not " + kind(v));
            }
            return v.intValue();
        }

        private void op(TransactionBuilder t, JsonNode op, String at) throws HistoryFormatException {
            if (!op.isObject()) {
                throw error(at + "expected an object, found " + kind(op));
            }
            JsonNode kind = op.get("op");
            if (kind == null) {
                throw error(at + "no \"op\" (expected read, write or predicate)");
            }
            if (!kind.isTextual()) {
                throw error(at + "\"op\" must be a string (read, write or predicate), not " + kind(kind));
            }
            switch (kind.textValue()) {
                case "read" -> {
                    unknownFields.check(op, JsonlObject.READ, line);
                    t.read(string(op, "key", at + "read"), value(op, at + "read"));
                }
                case "write" -> {
                    unknownFields.check(op, JsonlObject.WRITE, line);
                    t.write(string(op, "key", at + "write"), value(op, at + "write"));
                }
                case "predicate" -> {
                    unknownFields.check(op, JsonlObject.PREDICATE, line);
                    predicate(t, op, at);
                }
                default -> throw error(at + "unknown op " + quote(kind.textValue()) + " (expected read, write or predicate)");
            }
        }

        private void predicate(TransactionBuilder t, JsonNode op, String at) throws HistoryFormatException {
            String table = string(op, "table", at + "predicate");
            String where = string(op, "where", at + "predicate");
            JsonNode rows = op.get("rows");
            if (rows == null) {
                throw error(at + "predicate has no \"rows\" (write [] when it returned none)");
            }
            if (!rows.isArray()) {
                throw error(at + "\"rows\" must be an array of {\"key\", \"value\"} objects, not " + kind(rows));
            }
            Map<String, Value> returned = new LinkedHashMap<>();
            for (int r = 0; r < rows.size(); r++) {
                JsonNode row = rows.get(r);
                String rowAt = at + "rows[" + r + "]: ";
                if (!row.isObject()) {
                    throw error(rowAt + "expected a {\"key\", \"value\"} object, found " + kind(row));
                }
                unknownFields.check(row, JsonlObject.ROW, line);
                String key = string(row, "key", rowAt + "row");
                if (!key.startsWith(table + "/")) {
                    throw error(rowAt + "key " + quote(key) + " is not in table " + quote(table)
                            + " (its keys start with " + quote(table + "/") + ")");
                }
                Value value = value(row, rowAt + "row");
                if (value.isAbsent()) {
                    throw error(rowAt + "row of " + quote(key) + " has \"value\": null, but a predicate read returns only"
                            + " rows that exist (leave out a row it did not return)");
                }
                if (returned.containsKey(key)) {
                    throw error(rowAt + "key " + quote(key) + " is returned twice");
                }
                returned.put(key, value);
            }
            t.predicate(table, where, returned);
        }

        private Object id(JsonNode id) throws HistoryFormatException {
            if (id.isTextual()) {
                return id.textValue();
            }
            if (id.isIntegralNumber() && id.canConvertToLong()) {
                return id.longValue();
            }
            throw error("\"id\" must be a string or a 64-bit integer, not " + kind(id));
        }

        private String session(JsonNode session) throws HistoryFormatException {
            if (session == null || session.isNull()) {
                return null;
            }
            if (session.isTextual()) {
                return session.textValue();
            }
            if (session.isIntegralNumber()) {
                return session.bigIntegerValue().toString();
            }
            throw error("\"session\" must be a string or an integer, not " + kind(session));
        }

        /** A required string field of an operation or row. */
        private String string(JsonNode node, String field, String what) throws HistoryFormatException {
            JsonNode v = node.get(field);
            if (v == null) {
                throw error(what + " has no \"" + field + "\"");
            }
            if (!v.isTextual()) {
                throw error(what + ": \"" + field + "\" must be a string, not " + kind(v));
            }
            return v.textValue();
        }

        /** The required {@code value} field: JSON null is the absent value, a missing field an error. */
        private Value value(JsonNode node, String what) throws HistoryFormatException {
            JsonNode v = node.get("value");
            if (v == null) {
                JsonNode key = node.get("key");
                String of = key != null && key.isTextual() ? " of " + quote(key.textValue()) : "";
                throw error(what + of + " has no \"value\" (write null for an absent value)");
            }
            return convert(v, what);
        }

        /** A JSON value as a {@link Value}, or this line's error naming {@code what} when the model refuses it. */
        private Value convert(JsonNode v, String what) throws HistoryFormatException {
            try {
                return Value.of(java(v));
            } catch (RuntimeException e) {
                throw error(what + ": " + describe(e));
            }
        }

        private String optionalString(JsonNode node, String field) throws HistoryFormatException {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isTextual()) {
                throw error("\"" + field + "\" must be a string, not " + kind(v));
            }
            return v.textValue();
        }

        private Boolean optionalBoolean(JsonNode node, String field) throws HistoryFormatException {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return null;
            }
            if (!v.isBoolean()) {
                throw error("\"" + field + "\" must be true or false, not " + kind(v));
            }
            return v.booleanValue();
        }

        private Long optionalTime(JsonNode node, String field) throws HistoryFormatException {
            JsonNode v = node.get(field);
            if (v == null || v.isNull()) {
                return null;
            }
            // Long.MIN_VALUE is the model's "no time", so it cannot be a time.
            if (!v.isIntegralNumber() || !v.canConvertToLong() || v.longValue() == Long.MIN_VALUE) {
                throw error("\"" + field + "\" must be an integer (a 64-bit clock reading), not " + kind(v));
            }
            return v.longValue();
        }

        /**
         * A line's bytes as text, or this line's error naming the first byte that is not UTF-8
         * (counted from 1, as Jackson counts columns).
         */
        private String decode(byte[] bytes) throws HistoryFormatException {
            ByteBuffer in = ByteBuffer.wrap(bytes);
            CharBuffer out = CharBuffer.allocate(bytes.length);
            utf8.reset();
            CoderResult result = utf8.decode(in, out, true);
            if (!result.isError()) {
                result = utf8.flush(out);
            }
            if (result.isError()) {
                int at = in.position();
                StringBuilder shown = new StringBuilder();
                for (int i = at; i < Math.min(bytes.length, at + Math.max(1, result.length())); i++) {
                    shown.append(shown.length() == 0 ? "" : " ").append("0x").append(BinaryInput.hex2(bytes[i] & 0xFF));
                }
                throw error("not valid UTF-8 at byte " + (at + 1) + " of the line (" + shown + ")");
            }
            return out.flip().toString();
        }

        private HistoryFormatException error(String problem) {
            return new HistoryFormatException(file, String.valueOf(line), problem);
        }
    }

    /**
     * For a line with neither {@code "init"} nor {@code "id"}: {@code "; did you mean "id" for "Id"?"}
     * when one of its fields looks like a slip of one of them, else nothing.
     */
    private static String slipOf(JsonNode node) {
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String field = names.next();
            Optional<String> near = NearestName.of(field, List.of("id", "init"));
            if (near.isPresent()) {
                return "; did you mean " + quote(near.get()) + " for " + quote(field) + "?";
            }
        }
        return "";
    }

    /** A JSON tree as the plain Java that {@link dev.isocheck.history.Value#of(Object)} takes. */
    private static Object java(JsonNode node) {
        if (node.isNull()) {
            return null;
        }
        if (node.isBoolean()) {
            return node.booleanValue();
        }
        if (node.isTextual()) {
            return node.textValue();
        }
        if (node.isIntegralNumber()) {
            return node.canConvertToLong() ? (Object) node.longValue() : node.bigIntegerValue();
        }
        if (node.isNumber()) {
            return node.decimalValue();
        }
        if (node.isArray()) {
            List<Object> items = new ArrayList<>(node.size());
            node.forEach(item -> items.add(java(item)));
            return items;
        }
        Map<String, Object> fields = new LinkedHashMap<>();
        node.fields().forEachRemaining(e -> fields.put(e.getKey(), java(e.getValue())));
        return fields;
    }

    /** What kind of JSON a node is, with the value when short, for error messages. */
    private static String kind(JsonNode node) {
        String type = switch (node.getNodeType()) {
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            case BOOLEAN -> "a boolean";
            case NUMBER -> "a number";
            case STRING -> "a string";
            case NULL -> "null";
            default -> node.getNodeType().toString().toLowerCase(java.util.Locale.ROOT);
        };
        if (node.isContainerNode() || node.isNull()) {
            return type;
        }
        String text = node.toString();
        return text.length() <= 40 ? type + " (" + text + ")" : type;
    }

    /**
     * An unchecked exception as one line: its message, else its class; bounded, since the model's
     * messages may quote the value it refused.
     */
    private static String describe(RuntimeException e) {
        String message = e.getMessage();
        return message == null || message.isBlank() ? e.getClass().getSimpleName()
                : Excerpt.of(message.replaceAll("\\s*[\\r\\n]+\\s*", " ").strip());
    }

    /**
     * A string of the input as a JSON literal, so that quotes and line breaks in it keep the message
     * on one line; a long one cut to its first {@value Excerpt#LIMIT} characters ({@link Excerpt}).
     */
    static String quote(String s) {
        return Excerpt.of(s, Excerpt.LIMIT, text -> new TextNode(text).toString());
    }
}
