package dev.isocheck.format;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.isocheck.history.History;
import dev.isocheck.history.InitialState;
import dev.isocheck.history.KeyTable;
import dev.isocheck.history.OpKind;
import dev.isocheck.history.PredicateRead;
import dev.isocheck.history.Session;
import dev.isocheck.history.SqlStatement;
import dev.isocheck.history.Transaction;
import dev.isocheck.history.UnknownInitialValues;
import dev.isocheck.history.Value;
import dev.isocheck.history.ValueTable;
import java.io.BufferedWriter;
import java.io.IOException;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.apiguardian.api.API;

/**
 * Writes a {@link History} in isocheck's JSON Lines format, so that {@link JsonlHistoryReader}
 * reads back an equal history (same transactions, ids, sessions, statuses, times, operations,
 * values and initial state), and writing that again gives the same text.
 *
 * <p>Layout: an initial-state line when the initial state is complete, knows any key or declares
 * {@code "unknown": "any"} (listing every key with a known initial value, except keys that start
 * absent in a complete state; {@code unknown} only when it is not the default), then
 * one line per transaction in history order. Integer ids stay integers; implicit sessions are
 * left out; {@code status} is written only for aborted transactions; {@code start} and
 * {@code end} only when recorded; {@code thread}, {@code statements} and an operation's
 * {@code statement} only when recorded (a recorded history's provenance). Object fields are written sorted, lines end with {@code \n}.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JsonlHistoryWriter {

    private static final JsonMapper JSON = JsonMapper.builder()
            .disable(JsonGenerator.Feature.AUTO_CLOSE_TARGET)
            .disable(SerializationFeature.FLUSH_AFTER_WRITE_VALUE)
            .build();

    /** Creates a writer; writers keep no state between histories. */
    public JsonlHistoryWriter() {
    }

    /** Writes the history to a file, replacing it, in UTF-8. */
    public void write(History history, Path file) throws IOException {
        try (Writer out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
            write(history, out);
        }
    }

    /** Writes the history to a stream in UTF-8; flushes but does not close the stream. */
    public void write(History history, OutputStream out) throws IOException {
        Writer writer = new BufferedWriter(new OutputStreamWriter(out, StandardCharsets.UTF_8));
        write(history, writer);
        writer.flush();
    }

    /** Writes the history; flushes but does not close {@code out}. */
    public void write(History history, Writer out) throws IOException {
        KeyTable keys = history.keys();
        ValueTable values = history.values();
        InitialState initial = history.initialState();
        boolean anyKnown = false;
        for (int k = 0; k < keys.size() && !anyKnown; k++) {
            anyKnown = listed(initial, k);
        }
        // One generator for the whole file, so that lines are not flushed one by one.
        try (JsonGenerator g = JSON.createGenerator(out)) {
            g.setRootValueSeparator(null);
            boolean any = initial.unknownValues() == UnknownInitialValues.ANY;
            if (initial.isComplete() || anyKnown || any) {
                g.writeStartObject();
                g.writeObjectFieldStart("init");
                for (int k = 0; k < keys.size(); k++) {
                    if (listed(initial, k)) {
                        g.writeFieldName(keys.name(k));
                        writeValue(g, values.get(initial.valueOf(k)));
                    }
                }
                g.writeEndObject();
                if (initial.isComplete()) {
                    g.writeBooleanField("complete", true);
                }
                // Only when not the default, so that files without the field round-trip unchanged.
                if (any) {
                    g.writeStringField("unknown", UnknownInitialValues.ANY.formatName());
                }
                g.writeEndObject();
                g.writeRaw('\n');
            }
            for (Transaction t : history.transactions()) {
                writeTransaction(g, history, t);
                g.writeRaw('\n');
            }
        }
        out.flush();
    }

    /** Whether the init line lists the key: its value is known, and not implied by completeness. */
    private static boolean listed(InitialState initial, int key) {
        int v = initial.valueOf(key);
        return v != InitialState.UNKNOWN && !(initial.isComplete() && v == ValueTable.ABSENT);
    }

    private static void writeTransaction(JsonGenerator g, History history, Transaction t) throws IOException {
        KeyTable keys = history.keys();
        ValueTable values = history.values();
        g.writeStartObject();
        if (t.hasNumericId()) {
            g.writeNumberField("id", Long.parseLong(t.id()));
        } else {
            g.writeStringField("id", t.id());
        }
        Session session = history.sessionOf(t);
        if (!session.isImplicit()) {
            g.writeStringField("session", session.name());
        }
        if (!t.isCommitted()) {
            g.writeStringField("status", "aborted");
        }
        if (t.start().isPresent()) {
            g.writeNumberField("start", t.startTime());
        }
        if (t.end().isPresent()) {
            g.writeNumberField("end", t.endTime());
        }
        if (t.thread().isPresent()) {
            g.writeStringField("thread", t.thread().get());
        }
        if (!t.statements().isEmpty()) {
            g.writeArrayFieldStart("statements");
            for (SqlStatement statement : t.statements()) {
                g.writeStartObject();
                g.writeStringField("sql", statement.sql());
                g.writeArrayFieldStart("parameters");
                for (String parameter : statement.parameters()) {
                    g.writeString(parameter);
                }
                g.writeEndArray();
                if (statement.name().isPresent()) {
                    g.writeStringField("name", statement.name().get());
                }
                g.writeEndObject();
            }
            g.writeEndArray();
        }
        g.writeArrayFieldStart("ops");
        for (int i = 0; i < t.size(); i++) {
            g.writeStartObject();
            OpKind kind = t.kind(i);
            switch (kind) {
                case READ, WRITE -> {
                    g.writeStringField("op", kind == OpKind.READ ? "read" : "write");
                    g.writeStringField("key", keys.name(t.key(i)));
                    g.writeFieldName("value");
                    writeValue(g, values.get(t.value(i)));
                }
                case PREDICATE -> {
                    PredicateRead p = t.predicate(i);
                    g.writeStringField("op", "predicate");
                    g.writeStringField("table", p.table());
                    g.writeStringField("where", p.where());
                    g.writeArrayFieldStart("rows");
                    for (Map.Entry<String, Value> row : p.rows()) {
                        g.writeStartObject();
                        g.writeStringField("key", row.getKey());
                        g.writeFieldName("value");
                        writeValue(g, row.getValue());
                        g.writeEndObject();
                    }
                    g.writeEndArray();
                }
            }
            if (t.statementOf(i).isPresent()) {
                g.writeNumberField("statement", t.statementOf(i).getAsInt());
            }
            g.writeEndObject();
        }
        g.writeEndArray();
        g.writeEndObject();
    }

    private static void writeValue(JsonGenerator g, Value value) throws IOException {
        JSON.writeValue(g, value.toJava());
    }
}
