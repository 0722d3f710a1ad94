package dev.isocheck.internal.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine;

/**
 * The version {@code --version} prints: the project's, which Maven writes into
 * {@code version.properties} as it copies the resources (so that the tests, which run from the
 * class directory, see it as the jar does).
 */
final class Version implements CommandLine.IVersionProvider {

    /** The resource, beside this class. */
    static final String RESOURCE = "version.properties";

    /** The project's version, or a sentence saying that it is not known. */
    static String current() {
        try (InputStream in = Version.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                Properties properties = new Properties();
                properties.load(in);
                String version = properties.getProperty("version", "");
                // Unfiltered (compiled by something other than Maven): the placeholder is no version.
                if (!version.isBlank() && !version.contains("${")) {
                    return version.strip();
                }
            }
        } catch (IOException e) {
            // As if absent: the version is a courtesy, never a reason to fail.
        }
        return "(version unknown: built without Maven's resource filtering)";
    }

    @Override
    public String[] getVersion() {
        return new String[] {"isocheck " + current()};
    }
}
