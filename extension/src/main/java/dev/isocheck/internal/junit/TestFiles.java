package dev.isocheck.internal.junit;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.Optional;
import org.junit.jupiter.api.extension.ExtensionContext;

/** Names for a test: its display path for messages, and a file name unique among the run's tests. */
public final class TestFiles {

    private static final int MAX_NAME = 80;

    private TestFiles() {
    }

    /**
     * The test's display names from its outermost class down, as IDEs show the tree:
     * {@code TransferTests > concurrentTransfersKeepTheTotal()}.
     */
    public static String displayPath(ExtensionContext context) {
        Deque<String> names = new ArrayDeque<>();
        for (Optional<ExtensionContext> c = Optional.of(context); c.isPresent(); c = c.get().getParent()) {
            // The root is the engine ("JUnit Jupiter"): the same for every test, so left out.
            if (c.get().getParent().isPresent()) {
                names.addFirst(c.get().getDisplayName());
            }
        }
        return String.join(" > ", names);
    }

    /**
     * A file name, without extension, that tells which test wrote the file and differs between
     * any two tests of a run (repetitions and parameterised invocations included):
     * {@code TransferTests.concurrentTransfersKeepTheTotal-3f2a9c1e}, the suffix a digest of the
     * test's unique id.
     */
    public static String baseName(ExtensionContext context) {
        String test = context.getTestClass().map(c -> c.getName().substring(c.getName().lastIndexOf('.') + 1).replace('$', '.'))
                .orElse("test") + context.getTestMethod().map(m -> "." + m.getName()).orElse("");
        String safe = test.replaceAll("[^A-Za-z0-9._-]", "_");
        if (safe.length() > MAX_NAME) {
            safe = safe.substring(safe.length() - MAX_NAME);
        }
        return safe + "-" + digest(context.getUniqueId());
    }

    private static String digest(String uniqueId) {
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(uniqueId.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 4);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
