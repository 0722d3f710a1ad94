package dev.isocheck.format;

import java.net.URISyntaxException;
import java.net.URL;
import java.nio.file.FileSystemNotFoundException;
import java.nio.file.Path;

/**
 * The sample histories the tests read, which live in the repository under
 * {@code extension/src/test/resources/samples/} (see the README there). They are found on the test
 * classpath, where Maven and IDEs copy them as plain files ({@code target/test-classes/samples/}).
 */
public final class SampleHistories {

    private static final String VERISTRONG = "/samples/veristrong-artifact/";

    private SampleHistories() {
    }

    /**
     * A file or directory of the VeriStrong artifact's samples, by its path below
     * {@code samples/veristrong-artifact}, for example
     * {@code "fig11/ser/dbcop/chengRW-1000/history.bincode"} or {@code "fig5/twitter-1k"}.
     *
     * @throws IllegalStateException naming the sample, if it is not on the classpath or not a plain file
     */
    public static Path veristrong(String relative) {
        String resource = VERISTRONG + relative;
        URL url = SampleHistories.class.getResource(resource);
        if (url == null) {
            throw new IllegalStateException("sample history missing: " + relative + " (classpath resource " + resource
                    + ", from extension/src/test/resources" + resource + ")");
        }
        try {
            return Path.of(url.toURI());
        } catch (URISyntaxException | FileSystemNotFoundException | IllegalArgumentException e) {
            throw new IllegalStateException("sample history " + relative + " is at " + url
                    + ", not a plain file; run the tests from a build directory such as target/test-classes", e);
        }
    }
}
