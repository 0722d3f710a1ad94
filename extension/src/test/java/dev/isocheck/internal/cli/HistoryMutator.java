package dev.isocheck.internal.cli;

import static java.nio.charset.StandardCharsets.ISO_8859_1;

import dev.isocheck.internal.cli.FuzzInput.Kind;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Breaks valid histories the ways files get broken, or forged: byte flips, truncations,
 * duplicated, swapped and deleted lines (records, in the binary formats), huge numbers, deep
 * nesting, long strings, bad UTF-8, forged headers, other line ends, misspelt fields and empty
 * Cobra logs. Each mutation says what it did, so that a failure can be read, not only replayed.
 *
 * <p>JSON Lines is edited as ISO-8859-1 text: one character per byte, so that any byte sequence,
 * invalid UTF-8 included, survives the round trip.
 */
final class HistoryMutator {

    /** A mutated history and what was done to it. */
    record Mutated(FuzzInput input, String description) {
    }

    /** The ways to break a history; each format takes those that mean something for it. */
    private enum Mutation {
        FLIP_BYTES, TRUNCATE, DUPLICATE_LINE, SWAP_LINES, DELETE_LINE, HUGE_NUMBER, DEEP_NESTING, LONG_STRING,
        BAD_UTF8, FORGED_HEADER, LINE_ENDS, MISSPELT_FIELD, EMPTY_LOG
    }

    private static final Pattern NUMBER = Pattern.compile("(?<=[:\\[,] ?)-?\\d+(\\.\\d+)?([eE][+-]?\\d+)?");
    /** A JSON string literal, unrolled so that a string of megabytes is not a regex recursion per character. */
    private static final Pattern STRING = Pattern.compile("\"[^\"\\\\]*+(?:\\\\.[^\"\\\\]*+)*+\"");
    private static final Pattern VALUE = Pattern.compile("\"(?:value|init|rows|ops|statements|parameters)\": ?");
    private static final String[] HUGE_NUMBERS = {"1e999999999", "1e2147483648", "-1E-999999999",
        "9".repeat(1_000), "9".repeat(1_001), "9".repeat(100_000), "18446744073709551616", "-9223372036854775809",
        "0." + "0".repeat(2_000) + "1", "123456789012345678901234567890.5e40", "1e-400", "-0", "1E+1000000"};
    private static final byte[][] BAD_UTF8 = {{(byte) 0xFF}, {(byte) 0xC0, (byte) 0x80}, {(byte) 0x80},
        {(byte) 0xE2, (byte) 0x82}, {(byte) 0xED, (byte) 0xA0, (byte) 0x80}, {(byte) 0xF4, (byte) 0x90, (byte) 0x80, (byte) 0x80},
        {(byte) 0xFE, (byte) 0xFF}, {(byte) 0xF0, (byte) 0x9F}};
    private static final String[] FORGED_JSONL_HEADERS = {"{\"init\": {\"x\": 0}, \"complete\": true}",
        "{\"init\": {}, \"unknown\": \"any\"}", "{\"init\": {\"x\": 0}, \"complete\": true, \"id\": 1, \"ops\": []}",
        "{\"init\": 7}", "{\"init\": {}, \"complete\": \"true\"}", "\u00ef\u00bb\u00bf{\"init\": {}}",
        "\u001f\u008b\u0008\u0000\u0000\u0000\u0000\u0000", "// a comment, then nothing else", "{}", "[]", "null",
        "{\"id\": null, \"ops\": []}", "{\"id\": 1, \"ops\": null}"};
    private static final String[][] SLIPS = {{"status", "stauts"}, {"complete", "compelte"}, {"session", "sesion"},
        {"ops", "opps"}, {"value", "vlaue"}, {"key", "kye"}, {"rows", "row"}, {"where", "were"}, {"op", "Op"}};
    private static final long[] COBRA_FIELDS = {Long.MAX_VALUE, Long.MIN_VALUE, -1, 0, 0xbebeebeeL, 0xdeadbeefL,
        0xabddefeeL, 0x999};
    private static final long[] DBCOP_FIELDS = {-1, Long.MAX_VALUE, Long.MIN_VALUE, 1L << 32, 1L << 40, 0, 2};

    private HistoryMutator() {
    }

    /** One to three mutations of {@code seed}, drawn from {@code random}. */
    static Mutated mutate(FuzzInput seed, Random random) {
        FuzzInput input = seed;
        List<String> done = new ArrayList<>();
        int count = 1 + random.nextInt(3);
        for (int i = 0; i < count; i++) {
            Mutation mutation = Mutation.values()[random.nextInt(Mutation.values().length)];
            String file = input.files().keySet().stream().toList().get(random.nextInt(input.files().size()));
            byte[] before = input.files().get(file);
            Edit edit = switch (input.kind()) {
                case JSONL -> jsonl(mutation, before, random);
                case DBCOP -> dbcop(mutation, before, random);
                case COBRA -> cobra(mutation, before, random);
            };
            input = input.withFile(file, edit.bytes());
            done.add((input.kind() == Kind.COBRA ? file + ": " : "") + edit.description());
        }
        return new Mutated(input, String.join("; ", done));
    }

    /** New bytes of a file and what was done. */
    private record Edit(byte[] bytes, String description) {
    }

    private static Edit jsonl(Mutation mutation, byte[] bytes, Random random) {
        String text = new String(bytes, ISO_8859_1);
        List<String> lines = new ArrayList<>(Arrays.asList(text.split("(?<=\n)")));
        return switch (mutation) {
            case DUPLICATE_LINE -> {
                int at = random.nextInt(lines.size());
                lines.add(at, lines.get(at));
                yield text(String.join("", lines), "line " + (at + 1) + " duplicated");
            }
            case SWAP_LINES -> {
                int a = random.nextInt(lines.size());
                int b = random.nextInt(lines.size());
                String line = lines.get(a);
                lines.set(a, lines.get(b));
                lines.set(b, line);
                yield text(String.join("", lines), "lines " + (a + 1) + " and " + (b + 1) + " swapped");
            }
            case DELETE_LINE -> {
                int at = random.nextInt(lines.size());
                lines.remove(at);
                yield text(String.join("", lines), "line " + (at + 1) + " deleted");
            }
            case HUGE_NUMBER -> replaceOne(text, NUMBER, random, HUGE_NUMBERS[random.nextInt(HUGE_NUMBERS.length)], "number");
            case DEEP_NESTING -> {
                int depth = new int[] {50, 999, 1_000, 1_001, 100_000}[random.nextInt(5)];
                boolean object = random.nextBoolean();
                boolean balanced = random.nextInt(4) > 0;
                String nested = (object ? "{\"a\": " : "[").repeat(depth) + "1"
                        + (object ? "}" : "]").repeat(balanced ? depth : depth - 1);
                yield insertAfter(text, VALUE, random, nested, (object ? "objects" : "arrays") + " nested " + depth
                        + " deep" + (balanced ? "" : ", one left open"));
            }
            case LONG_STRING -> {
                int length = random.nextInt(30) == 0 ? 25_000_000 : new int[] {300, 100_000, 2_000_000}[random.nextInt(3)];
                String filler = random.nextBoolean() ? "a" : "\u00c3\u00a9";
                yield replaceOne(text, STRING, random, "\"" + filler.repeat(length) + "\"",
                        "string of " + length + (filler.length() == 1 ? " a's" : " é's"));
            }
            case BAD_UTF8 -> {
                byte[] bad = BAD_UTF8[random.nextInt(BAD_UTF8.length)];
                int at = random.nextInt(bytes.length + 1);
                yield new Edit(insert(bytes, at, bad), "bytes " + hex(bad) + " inserted at byte " + at);
            }
            case FORGED_HEADER -> {
                String header = FORGED_JSONL_HEADERS[random.nextInt(FORGED_JSONL_HEADERS.length)];
                int at = random.nextInt(lines.size() + 1);
                lines.add(at, header + "\n");
                yield text(String.join("", lines), "forged line " + printable(header) + " inserted as line " + (at + 1));
            }
            case LINE_ENDS -> {
                String end = new String[] {"\r", "\r\n", "\n\r", "\r\r\n"}[random.nextInt(4)];
                yield text(text.replace("\n", end), "line ends replaced by " + printable(end));
            }
            case MISSPELT_FIELD -> {
                String[] slip = SLIPS[random.nextInt(SLIPS.length)];
                yield text(text.replaceFirst("\"" + slip[0] + "\"", "\"" + slip[1] + "\""),
                        "first \"" + slip[0] + "\" spelt \"" + slip[1] + "\"");
            }
            default -> bytes(mutation, bytes, random);
        };
    }

    private static Edit dbcop(Mutation mutation, byte[] bytes, Random random) {
        return switch (mutation) {
            case HUGE_NUMBER -> {
                long value = DBCOP_FIELDS[random.nextInt(DBCOP_FIELDS.length)];
                int at = random.nextInt(Math.max(1, bytes.length - 8));
                yield new Edit(put(bytes, at, value, ByteOrder.LITTLE_ENDIAN), "u64 at byte " + at + " set to " + value);
            }
            case FORGED_HEADER -> {
                int field = random.nextInt(7);
                long value = DBCOP_FIELDS[random.nextInt(DBCOP_FIELDS.length)];
                if (field == 6) {
                    yield new Edit(insert(bytes, 0, "PK\u0003\u0004".getBytes(ISO_8859_1)), "a zip header prepended");
                }
                // Fields 0 to 4 are the counts; 5 is the info string's length.
                yield new Edit(put(bytes, 8 * field, value, ByteOrder.LITTLE_ENDIAN), "header u64 " + field + " set to " + value);
            }
            case LONG_STRING, BAD_UTF8 -> {
                long infoLength = bytes.length < 48 ? -1 : ByteBuffer.wrap(bytes, 40, 8).order(ByteOrder.LITTLE_ENDIAN).getLong();
                if (infoLength < 0 || 48 + infoLength > bytes.length) {
                    // An earlier mutation broke the header: no string to rewrite.
                    yield bytes(Mutation.FLIP_BYTES, bytes, random);
                }
                int length = mutation == Mutation.BAD_UTF8 ? 4 : new int[] {300, 1 << 20, (1 << 20) + 1, 5_000_000}[random.nextInt(4)];
                byte[] info = new byte[length];
                Arrays.fill(info, (byte) 'a');
                if (mutation == Mutation.BAD_UTF8) {
                    byte[] bad = BAD_UTF8[random.nextInt(BAD_UTF8.length)];
                    System.arraycopy(bad, 0, info, 0, Math.min(bad.length, length));
                }
                ByteBuffer out = ByteBuffer.allocate(bytes.length - (int) infoLength + length).order(ByteOrder.LITTLE_ENDIAN);
                out.put(bytes, 0, 40).putLong(length).put(info).put(bytes, 48 + (int) infoLength, bytes.length - 48 - (int) infoLength);
                yield new Edit(out.array(), "header info string of " + length + " bytes" + (mutation == Mutation.BAD_UTF8
                        ? ", beginning with bad UTF-8" : ""));
            }
            default -> bytes(mutation, bytes, random);
        };
    }

    private static Edit cobra(Mutation mutation, byte[] bytes, Random random) {
        List<int[]> records = records(bytes);
        return switch (mutation) {
            case HUGE_NUMBER -> {
                if (records.isEmpty()) {
                    yield bytes(Mutation.FLIP_BYTES, bytes, random);
                }
                int[] record = records.get(random.nextInt(records.size()));
                int fields = (record[1] - 1) / 8;
                int field = random.nextInt(fields);
                long value = COBRA_FIELDS[random.nextInt(COBRA_FIELDS.length)];
                yield new Edit(put(bytes, record[0] + 1 + 8 * field, value, ByteOrder.BIG_ENDIAN), "field " + field
                        + " of the record at byte " + record[0] + " set to 0x" + Long.toHexString(value));
            }
            case FORGED_HEADER -> {
                byte[] forged = bytes.clone();
                int choice = random.nextInt(3);
                if (choice == 0 && forged.length > 0) {
                    forged[0] = new byte[] {(byte) 0xFF, 'X', 'R', 'C', 0}[random.nextInt(5)];
                    yield new Edit(forged, "first byte set to 0x" + Integer.toHexString(forged[0] & 0xFF));
                }
                if (choice == 1) {
                    int at = random.nextInt(bytes.length + 1);
                    yield new Edit(insert(bytes, at, new byte[] {(byte) 0xFF}), "end marker 0xff inserted at byte " + at);
                }
                yield new Edit(insert(bytes, 0, "SQLite format 3\0".getBytes(ISO_8859_1)), "an SQLite header prepended");
            }
            case EMPTY_LOG -> new Edit(new byte[0], "emptied");
            case DUPLICATE_LINE, SWAP_LINES, DELETE_LINE -> records.size() < 2 ? bytes(mutation, bytes, random)
                    : recordEdit(mutation, bytes, records, random);
            default -> bytes(mutation, bytes, random);
        };
    }

    /** Cobra records as {start, length}, as far as the log parses. */
    private static List<int[]> records(byte[] log) {
        List<int[]> records = new ArrayList<>();
        int at = 0;
        while (at < log.length) {
            int length = switch (log[at]) {
                case 'S', 'C' -> 9;
                case 'W' -> 25;
                case 'R' -> 33;
                default -> -1;
            };
            if (length < 0 || at + length > log.length) {
                break;
            }
            records.add(new int[] {at, length});
            at += length;
        }
        return records;
    }

    private static Edit recordEdit(Mutation mutation, byte[] bytes, List<int[]> records, Random random) {
        List<byte[]> parts = new ArrayList<>();
        int end = 0;
        for (int[] r : records) {
            parts.add(Arrays.copyOfRange(bytes, r[0], r[0] + r[1]));
            end = r[0] + r[1];
        }
        byte[] rest = Arrays.copyOfRange(bytes, end, bytes.length);
        int a = random.nextInt(parts.size());
        int b = random.nextInt(parts.size());
        String description;
        switch (mutation) {
            case DUPLICATE_LINE -> {
                parts.add(a, parts.get(a));
                description = "record " + a + " duplicated";
            }
            case SWAP_LINES -> {
                byte[] record = parts.get(a);
                parts.set(a, parts.get(b));
                parts.set(b, record);
                description = "records " + a + " and " + b + " swapped";
            }
            default -> {
                parts.remove(a);
                description = "record " + a + " deleted";
            }
        }
        parts.add(rest);
        int size = parts.stream().mapToInt(p -> p.length).sum();
        ByteBuffer out = ByteBuffer.allocate(size);
        parts.forEach(out::put);
        return new Edit(out.array(), description);
    }

    /** The mutations any file takes, bytes being bytes; what a format has no meaning for falls back here. */
    private static Edit bytes(Mutation mutation, byte[] bytes, Random random) {
        if (bytes.length == 0) {
            return new Edit(new byte[] {randomByte(random)}, "one byte written to the empty file");
        }
        switch (mutation) {
            case TRUNCATE -> {
                int at = random.nextInt(bytes.length);
                return new Edit(Arrays.copyOf(bytes, at), "truncated to " + at + " bytes");
            }
            case DUPLICATE_LINE -> {
                int from = random.nextInt(bytes.length);
                int length = 1 + random.nextInt(Math.min(40, bytes.length - from));
                return new Edit(insert(bytes, from, Arrays.copyOfRange(bytes, from, from + length)),
                        "bytes " + from + " to " + (from + length) + " duplicated");
            }
            case SWAP_LINES -> {
                int length = 1 + random.nextInt(Math.max(1, Math.min(18, bytes.length / 2)));
                int a = random.nextInt(bytes.length - length + 1);
                int b = random.nextInt(bytes.length - length + 1);
                byte[] swapped = bytes.clone();
                System.arraycopy(bytes, a, swapped, b, length);
                System.arraycopy(bytes, b, swapped, a, length);
                return new Edit(swapped, length + " bytes at " + a + " and " + b + " swapped (overlap copied)");
            }
            case DELETE_LINE -> {
                int from = random.nextInt(bytes.length);
                int length = 1 + random.nextInt(Math.min(40, bytes.length - from));
                byte[] out = new byte[bytes.length - length];
                System.arraycopy(bytes, 0, out, 0, from);
                System.arraycopy(bytes, from + length, out, from, bytes.length - from - length);
                return new Edit(out, "bytes " + from + " to " + (from + length) + " deleted");
            }
            default -> {
                byte[] flipped = bytes.clone();
                int flips = 1 + random.nextInt(8);
                StringBuilder where = new StringBuilder();
                for (int i = 0; i < flips; i++) {
                    int at = random.nextInt(flipped.length);
                    flipped[at] = (byte) (flipped[at] ^ (1 + random.nextInt(255)));
                    where.append(i == 0 ? "" : ", ").append(at);
                }
                return new Edit(flipped, flips + " bytes flipped at " + where);
            }
        }
    }

    private static Edit replaceOne(String text, Pattern pattern, Random random, String replacement, String what) {
        List<int[]> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(new int[] {m.start(), m.end()});
        }
        if (found.isEmpty()) {
            return text(text, "no " + what + " to replace");
        }
        int[] at = found.get(random.nextInt(found.size()));
        return text(text.substring(0, at[0]) + replacement + text.substring(at[1]),
                what + " at byte " + at[0] + " replaced by " + printable(replacement));
    }

    private static Edit insertAfter(String text, Pattern pattern, Random random, String inserted, String what) {
        List<Integer> found = new ArrayList<>();
        Matcher m = pattern.matcher(text);
        while (m.find()) {
            found.add(m.end());
        }
        if (found.isEmpty()) {
            return text(text, "nowhere to insert " + what);
        }
        int at = found.get(random.nextInt(found.size()));
        return text(text.substring(0, at) + inserted + text.substring(at), what + " inserted at byte " + at);
    }

    private static Edit text(String text, String description) {
        return new Edit(text.getBytes(ISO_8859_1), description);
    }

    private static byte[] insert(byte[] bytes, int at, byte[] inserted) {
        byte[] out = new byte[bytes.length + inserted.length];
        System.arraycopy(bytes, 0, out, 0, at);
        System.arraycopy(inserted, 0, out, at, inserted.length);
        System.arraycopy(bytes, at, out, at + inserted.length, bytes.length - at);
        return out;
    }

    private static byte[] put(byte[] bytes, int at, long value, ByteOrder order) {
        byte[] out = bytes.length >= at + 8 ? bytes.clone() : Arrays.copyOf(bytes, at + 8);
        ByteBuffer.wrap(out).order(order).putLong(at, value);
        return out;
    }

    private static byte randomByte(Random random) {
        return (byte) random.nextInt(256);
    }

    private static String hex(byte[] bytes) {
        StringBuilder s = new StringBuilder();
        for (byte b : bytes) {
            s.append(s.length() == 0 ? "" : " ").append(String.format("%02x", b & 0xFF));
        }
        return s.toString();
    }

    /** Text for a description: control characters escaped, long text cut. */
    private static String printable(String text) {
        StringBuilder s = new StringBuilder();
        for (char c : text.substring(0, Math.min(60, text.length())).toCharArray()) {
            s.append(c < 0x20 || c >= 0x7F ? String.format("\\x%02x", (int) c) : String.valueOf(c));
        }
        return s + (text.length() > 60 ? "… (" + text.length() + " characters)" : "");
    }
}
