package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Jdbi, AssertJ and Hamcrest are optional dependencies: only {@code dev.isocheck.jdbi},
 * {@code dev.isocheck.assertj} and {@code dev.isocheck.hamcrest} may refer to them, and without
 * them on the class path isocheck still loads, records and checks.
 */
class JdbiOptionalTests {

    private static final String JDBI_PACKAGE = "dev/isocheck/jdbi/";

    @Test
    void nothingOutsideTheJdbiPackageRefersToJdbi() throws Exception {
        Path classes = Path.of(Isocheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> referring = new ArrayList<>();
        List<String> jdbiSide = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                if (refersToJdbi(file)) {
                    (name.startsWith(JDBI_PACKAGE) ? jdbiSide : referring).add(name);
                }
            }
        }
        // The scan sees a reference where there is one: the plugin's.
        assertThat(jdbiSide).contains(JDBI_PACKAGE + "IsocheckPlugin.class");
        assertThat(referring).as("classes outside %s referring to org.jdbi", JDBI_PACKAGE).isEmpty();
    }

    @Test
    void nothingOutsideTheirPackagesRefersToAssertjOrHamcrest() throws Exception {
        Path classes = Path.of(Isocheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<String> referring = new ArrayList<>();
        List<String> theirs = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), "/");
                String bytes = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                boolean assertj = bytes.contains("org/assertj/") || bytes.contains("org.assertj.");
                boolean hamcrest = bytes.contains("org/hamcrest/") || bytes.contains("org.hamcrest.");
                if (assertj && !name.startsWith("dev/isocheck/assertj/") || hamcrest && !name.startsWith("dev/isocheck/hamcrest/")) {
                    referring.add(name);
                } else if (assertj || hamcrest) {
                    theirs.add(name);
                }
            }
        }
        assertThat(theirs).contains("dev/isocheck/assertj/AbstractHistoryAssert.class", "dev/isocheck/hamcrest/IsocheckMatchers.class");
        assertThat(referring).as("classes referring to AssertJ or Hamcrest outside their packages").isEmpty();
    }

    @Test
    void withoutJdbiIsocheckStillRecordsAndChecks() throws Exception {
        ClassLoader withoutJdbi = new WithoutJdbi(JdbiOptionalTests.class.getClassLoader());

        assertThatThrownBy(() -> withoutJdbi.loadClass("org.jdbi.v3.core.Jdbi")).isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> withoutJdbi.loadClass("org.assertj.core.api.Assertions")).isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> withoutJdbi.loadClass("org.hamcrest.Matcher")).isInstanceOf(ClassNotFoundException.class);
        assertThatThrownBy(() -> Class.forName("dev.isocheck.jdbi.IsocheckPlugin", true, withoutJdbi))
                .isInstanceOf(NoClassDefFoundError.class);
        Class<?> workload = withoutJdbi.loadClass(RecordingWithoutJdbi.class.getName());
        assertThat(workload).isNotSameAs(RecordingWithoutJdbi.class);
        @SuppressWarnings("unchecked")
        String explanation = ((Callable<String>) workload.getConstructor().newInstance()).call();

        assertThat(explanation).startsWith("G2-item (write skew) at serializable");
    }

    /** Whether a class file's constant pool names anything of Jdbi's (a type, a descriptor, a class name as text). */
    private static boolean refersToJdbi(Path classFile) throws IOException {
        String bytes = new String(Files.readAllBytes(classFile), StandardCharsets.ISO_8859_1);
        return bytes.contains("org/jdbi/") || bytes.contains("org.jdbi.");
    }

    /**
     * A class loader with isocheck's classes (main and test) of its own and no Jdbi: every other
     * class comes from the parent, as it would for a user without Jdbi.
     */
    private static final class WithoutJdbi extends ClassLoader {

        WithoutJdbi(ClassLoader parent) {
            super(parent);
        }

        @Override
        protected Class<?> loadClass(String name, boolean resolve) throws ClassNotFoundException {
            if (name.startsWith("org.jdbi.") || name.startsWith("org.assertj.") || name.startsWith("org.hamcrest.")) {
                throw new ClassNotFoundException(name + " (Jdbi, AssertJ and Hamcrest are not on this class path)");
            }
            if (!name.startsWith("dev.isocheck.")) {
                return super.loadClass(name, resolve);
            }
            synchronized (getClassLoadingLock(name)) {
                Class<?> type = findLoadedClass(name);
                if (type == null) {
                    try (InputStream in = getParent().getResourceAsStream(name.replace('.', '/') + ".class")) {
                        if (in == null) {
                            throw new ClassNotFoundException(name);
                        }
                        byte[] bytes = in.readAllBytes();
                        type = defineClass(name, bytes, 0, bytes.length);
                    } catch (IOException e) {
                        throw new ClassNotFoundException(name, e);
                    }
                }
                if (resolve) {
                    resolveClass(type);
                }
                return type;
            }
        }
    }
}
