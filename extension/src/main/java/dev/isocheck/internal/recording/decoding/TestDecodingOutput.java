package dev.isocheck.internal.recording.decoding;

import dev.isocheck.internal.recording.DecodedChange;
import dev.isocheck.internal.recording.DecodedChange.Kind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the text PostgreSQL's {@code test_decoding} plugin writes for each change, with
 * {@code include-xids}: {@code BEGIN 754}, {@code table public.t: UPDATE: old-key: id[integer]:1
 * v[text]:'a' new-tuple: id[integer]:1 v[text]:'b'}, {@code COMMIT 754}. Values stay the text the
 * server printed (quotes removed); they are turned into the recorder's values by asking the server
 * to read them back as their columns' types ({@link ServerRendering}), never by guessing here.
 *
 * <p>The grammar is test_decoding's own ({@code contrib/test_decoding/test_decoding.c}): names as
 * {@code quote_identifier} prints them, types as {@code format_type_be}, values as their output
 * function prints them, quoted with {@code ''} doubling except integers, floats, numerics and
 * {@code oid} (bare), booleans ({@code true}/{@code false}) and bit strings ({@code B'0101'});
 * {@code null}, and {@code unchanged-toast-datum} for a TOASTed value an UPDATE left alone. A line
 * that does not follow it is an error, never skipped: a change read wrongly would be a write the
 * check gets wrong.
 */
final class TestDecodingOutput {

    /** What one line of output says. */
    sealed interface Line {
    }

    /** {@code BEGIN xid}. */
    record Begin(long xid) implements Line {
    }

    /** {@code COMMIT xid}. */
    record Commit(long xid) implements Line {
    }

    /** A row inserted, updated or deleted, or tables truncated. */
    record Change(DecodedChange change) implements Line {
    }

    /** Anything else the plugin writes (a logical message): not a row change. */
    record Other(String text) implements Line {
    }

    /** Stands for {@code unchanged-toast-datum} among a tuple's values. */
    static final String UNCHANGED_TOAST = new String("unchanged-toast-datum");

    private TestDecodingOutput() {
    }

    /**
     * Reads one line.
     *
     * @throws IllegalArgumentException naming the line and the position where it departs from
     *                                  test_decoding's grammar
     */
    static Line parse(String line) {
        if (line.startsWith("BEGIN ")) {
            return new Begin(Long.parseLong(line.substring(6).trim()));
        }
        if (line.startsWith("COMMIT ")) {
            String rest = line.substring(7).trim();
            int space = rest.indexOf(' ');
            return new Commit(Long.parseLong(space < 0 ? rest : rest.substring(0, space)));
        }
        if (!line.startsWith("table ")) {
            return new Other(line);
        }
        return new Change(new Parser(line).change());
    }

    /** A cursor over one change line. */
    private static final class Parser {

        private final String text;
        private int at;

        Parser(String text) {
            this.text = text;
            this.at = "table ".length();
        }

        DecodedChange change() {
            List<String> tables = new ArrayList<>();
            do {
                skipSpaces();
                tables.add(qualifiedName());
            } while (take(","));
            expect(":");
            skipSpaces();
            String kind = word();
            expect(":");
            return switch (kind) {
                case "INSERT" -> new DecodedChange(one(tables), Kind.INSERT, null, tuple("INSERT"));
                case "UPDATE" -> update(one(tables));
                case "DELETE" -> new DecodedChange(one(tables), Kind.DELETE, tuple("DELETE"), null);
                case "TRUNCATE" -> DecodedChange.truncate(tables);
                default -> throw error("an INSERT, UPDATE, DELETE or TRUNCATE");
            };
        }

        private DecodedChange update(String table) {
            Map<String, String> old = null;
            if (text.startsWith(" old-key:", at)) {
                at += " old-key:".length();
                old = tupleUntil(" new-tuple:");
                expect(" new-tuple:");
            }
            return new DecodedChange(table, Kind.UPDATE, old, tuple("UPDATE"));
        }

        private String one(List<String> tables) {
            if (tables.size() != 1) {
                throw error("one table");
            }
            return tables.get(0);
        }

        /** The rest of the line as a tuple; {@code null} for {@code (no-tuple-data)}. */
        private Map<String, String> tuple(String kind) {
            if (text.startsWith(" (no-tuple-data)", at)) {
                at = text.length();
                return null;
            }
            return tupleUntil(null);
        }

        /** Columns {@code name[type]:value} up to {@code end} (or the end of the line). */
        private Map<String, String> tupleUntil(String end) {
            Map<String, String> values = new LinkedHashMap<>();
            while (true) {
                if (end != null && text.startsWith(end, at) || at >= text.length()) {
                    return values;
                }
                expect(" ");
                String name = name();
                expect("[");
                int close = text.indexOf("]:", at);
                if (close < 0) {
                    throw error("a type ending in ]:");
                }
                at = close + 2;
                String value = value();
                if (values.containsKey(name)) {
                    throw error("each column once");
                }
                values.put(name, value);
            }
        }

        private String value() {
            if (take("null") && atValueEnd()) {
                return null;
            }
            if (text.startsWith("unchanged-toast-datum", at)) {
                at += "unchanged-toast-datum".length();
                return UNCHANGED_TOAST;
            }
            if (text.startsWith("B'", at)) {
                at++;
                return quoted();
            }
            if (text.startsWith("'", at)) {
                return quoted();
            }
            int start = at;
            while (at < text.length() && text.charAt(at) != ' ') {
                at++;
            }
            if (start == at) {
                throw error("a value");
            }
            return text.substring(start, at);
        }

        private boolean atValueEnd() {
            if (at >= text.length() || text.charAt(at) == ' ') {
                return true;
            }
            at -= "null".length();
            return false;
        }

        private String quoted() {
            expect("'");
            StringBuilder out = new StringBuilder();
            while (true) {
                if (at >= text.length()) {
                    throw error("a closing quote");
                }
                char c = text.charAt(at++);
                if (c == '\'') {
                    if (at < text.length() && text.charAt(at) == '\'') {
                        out.append('\'');
                        at++;
                        continue;
                    }
                    return out.toString();
                }
                out.append(c);
            }
        }

        /** {@code schema.name} as quote_qualified_identifier prints it, kept as printed (valid SQL). */
        private String qualifiedName() {
            int start = at;
            name();
            expect(".");
            name();
            return text.substring(start, at);
        }

        /** An identifier, plain or double-quoted; returned unquoted. */
        private String name() {
            if (take("\"")) {
                StringBuilder out = new StringBuilder();
                while (true) {
                    if (at >= text.length()) {
                        throw error("a closing double quote");
                    }
                    char c = text.charAt(at++);
                    if (c == '"') {
                        if (at < text.length() && text.charAt(at) == '"') {
                            out.append('"');
                            at++;
                            continue;
                        }
                        return out.toString();
                    }
                    out.append(c);
                }
            }
            int start = at;
            while (at < text.length() && (Character.isLetterOrDigit(text.charAt(at)) || text.charAt(at) == '_'
                    || text.charAt(at) == '$')) {
                at++;
            }
            if (start == at) {
                throw error("a name");
            }
            return text.substring(start, at);
        }

        private String word() {
            int start = at;
            while (at < text.length() && Character.isUpperCase(text.charAt(at))) {
                at++;
            }
            return text.substring(start, at);
        }

        private void skipSpaces() {
            while (at < text.length() && text.charAt(at) == ' ') {
                at++;
            }
        }

        private boolean take(String s) {
            if (text.startsWith(s, at)) {
                at += s.length();
                return true;
            }
            return false;
        }

        private void expect(String s) {
            if (!take(s)) {
                throw error("'" + s + "'");
            }
        }

        private IllegalArgumentException error(String expected) {
            String shown = text.length() > 200 ? text.substring(0, 200) + "…" : text;
            return new IllegalArgumentException("test_decoding output not understood at character " + (at + 1)
                    + " (expected " + expected + "): " + shown);
        }
    }
}
