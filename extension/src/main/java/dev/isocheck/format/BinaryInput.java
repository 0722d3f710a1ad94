package dev.isocheck.format;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Supplier;

/**
 * Reads a binary file front to back through a buffer, knowing the byte offset of every field so
 * that errors can name it. Streams rather than loading the whole file, so that files of any size
 * are read in constant memory.
 */
final class BinaryInput implements Closeable {

    private final Path file;
    private final InputStream in;
    private final long size;
    private final byte[] buffer = new byte[1 << 16];
    /** Offset in the file of {@code buffer[0]}. */
    private long bufferStart;
    private int pos;
    private int limit;
    private boolean eof;

    private BinaryInput(Path file, InputStream in, long size) {
        this.file = file;
        this.in = in;
        this.size = size;
    }

    /** Opens a file; the caller closes it. */
    static BinaryInput open(Path file) throws IOException {
        long size = Files.size(file);
        return new BinaryInput(file, Files.newInputStream(file), size);
    }

    /** The file being read, for error messages. */
    Path file() {
        return file;
    }

    /** The offset of the next byte to be read. */
    long offset() {
        return bufferStart + pos;
    }

    /** How many bytes the file holds after the current offset, by its size when opened. */
    long remaining() {
        return Math.max(0, size - offset());
    }

    /** Whether every byte has been read. */
    boolean atEnd() throws IOException {
        return !fill(1);
    }

    /**
     * Fails unless {@code n} more bytes can be read.
     *
     * @param place the offset to name in the error (where the truncated item begins)
     * @param what  what the bytes are, e.g. {@code "a W record"}
     */
    void require(int n, long place, String what) throws IOException, HistoryFormatException {
        if (limit - pos < n && !fill(n)) {
            throw truncated(n, place, what);
        }
    }

    private HistoryFormatException truncated(int n, long place, String what) {
        return new HistoryFormatException(file, "byte " + place, "truncated: expected " + what + " (" + bytes(n)
                + ") but the file ends after " + bytes(limit - pos));
    }

    /** Reads one unsigned byte. */
    int u8(String what) throws IOException, HistoryFormatException {
        require(1, offset(), what);
        return buffer[pos++] & 0xFF;
    }

    /**
     * Reads a bool stored as one byte, 0 or 1 (as Rust's bincode writes it).
     *
     * @param what what the bool is, described only when there is an error, for files of millions of fields
     */
    boolean bool(Supplier<String> what) throws IOException, HistoryFormatException {
        long at = offset();
        if (limit - pos < 1 && !fill(1)) {
            throw truncated(1, at, what.get());
        }
        int b = buffer[pos++] & 0xFF;
        if (b > 1) {
            throw new HistoryFormatException(file, "byte " + at,
                    "expected " + what.get() + " (a bool, 0 or 1) but found 0x" + hex2(b));
        }
        return b == 1;
    }

    /** Reads a little-endian 64-bit integer, {@code what} described only when there is an error. */
    long i64le(Supplier<String> what) throws IOException, HistoryFormatException {
        if (limit - pos < 8 && !fill(8)) {
            throw truncated(8, offset(), what.get());
        }
        long v = 0;
        for (int i = 7; i >= 0; i--) {
            v = (v << 8) | (buffer[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    /** Reads a little-endian 64-bit integer. */
    long i64le(String what) throws IOException, HistoryFormatException {
        return i64le(() -> what);
    }

    /** Reads a big-endian 64-bit integer. */
    long i64be(String what) throws IOException, HistoryFormatException {
        require(8, offset(), what);
        long v = 0;
        for (int i = 0; i < 8; i++) {
            v = (v << 8) | (buffer[pos + i] & 0xFFL);
        }
        pos += 8;
        return v;
    }

    /** Reads {@code n} bytes, {@code n} having been checked against {@link #remaining()}. */
    byte[] bytes(int n, String what) throws IOException, HistoryFormatException {
        byte[] out = new byte[n];
        int done = 0;
        while (done < n) {
            int chunk = Math.min(n - done, buffer.length);
            require(chunk, offset(), what);
            System.arraycopy(buffer, pos, out, done, chunk);
            pos += chunk;
            done += chunk;
        }
        return out;
    }

    private static String bytes(int n) {
        return n + (n == 1 ? " byte" : " bytes");
    }

    /** Two hex digits. */
    static String hex2(int b) {
        return (b < 0x10 ? "0" : "") + Integer.toHexString(b);
    }

    /** Whether {@code n} (at most the buffer's size) bytes are buffered, reading more as needed. */
    private boolean fill(int n) throws IOException {
        if (limit - pos >= n) {
            return true;
        }
        if (eof) {
            return false;
        }
        if (pos > 0) {
            System.arraycopy(buffer, pos, buffer, 0, limit - pos);
            bufferStart += pos;
            limit -= pos;
            pos = 0;
        }
        while (limit < n) {
            int read = in.read(buffer, limit, buffer.length - limit);
            if (read < 0) {
                eof = true;
                return false;
            }
            limit += read;
        }
        return true;
    }

    @Override
    public void close() throws IOException {
        in.close();
    }
}
