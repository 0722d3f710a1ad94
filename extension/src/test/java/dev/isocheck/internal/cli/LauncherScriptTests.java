package dev.isocheck.internal.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.DisplayName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The launcher beside {@code isocheck.jar} ({@code src/main/sh/isocheck}), run against a stand-in
 * {@code java} that logs how it was called and makes the files a JVM would: which options each
 * JDK gets, when C1 alone compiles, how an archive is made and then used, and that nothing of it
 * changes the command's exit status.
 */
@DisplayName("the isocheck launcher: class-data archives and compilers chosen, the command's status kept")
class LauncherScriptTests {

    /**
     * Logs its arguments; makes the files a training and a dump would; for the command itself,
     * writes its process id where told, takes as long as told, and exits as told.
     */
    private static final String FAKE_JAVA = """
            #!/bin/sh
            echo "$*" >> "$FAKE_LOG"
            for a in "$@"; do
                case $a in
                    -XX:DumpLoadedClassList=*) echo classes > "${a#*=}" ;;
                    -XX:SharedArchiveFile=*) case " $* " in *" -Xshare:dump "*) echo archive > "${a#*=}" ;; esac ;;
                    -XX:AOTCache=*) case " $* " in *" -XX:AOTMode=create "*) echo cache > "${a#*=}" ;; esac ;;
                esac
            done
            case " $* " in
                *" -jar "*)
                    [ -z "${FAKE_PID:-}" ] || echo $$ > "$FAKE_PID"
                    if [ -n "${FAKE_SECONDS:-}" ]; then
                        sleep "$FAKE_SECONDS"
                        echo "the command ends" >> "$FAKE_LOG"
                    fi
                    exit "${FAKE_STATUS:-0}" ;;
            esac
            exit 0
            """;

    @TempDir
    Path dir;

    private Path launcher;
    private Path jar;
    private Path cache;
    private Path log;
    private Path small;

    @BeforeEach
    void installTheLauncherBesideAJar() throws IOException {
        assumeTrue(Files.isExecutable(Path.of("/bin/sh")), "a POSIX shell");
        Path bin = Files.createDirectories(dir.resolve("dist"));
        launcher = Files.copy(Path.of("src/main/sh/isocheck"), bin.resolve("isocheck"));
        executable(launcher);
        jar = Files.writeString(bin.resolve("isocheck.jar"), "not really a jar");
        cache = dir.resolve("cache");
        log = dir.resolve("java.log");
        small = Files.writeString(dir.resolve("small.jsonl"), "{}\n");
        jdk("jdk17", "17.0.15");
        jdk("jdk25", "25.0.3");
    }

    @Test
    void theFirstCheckRunsPlainThenAnArchiveIsMadeInTheBackgroundAndTheNextCheckStartsFromIt() throws Exception {
        assertThat(run("jdk17", Map.of(), "check", small.toString())).isZero();
        Path archive = awaitOne("*.jsa");

        assertThat(calls().get(0)).isEqualTo("-XX:TieredStopAtLevel=1 -jar " + realJar() + " check " + small);
        assertThat(calls()).anySatisfy(call -> assertThat(call).startsWith("-XX:DumpLoadedClassList=" + archive + ".")
                .endsWith(".classes -cp " + realJar() + " dev.isocheck.internal.cli.Training"));
        assertThat(calls()).anySatisfy(call -> assertThat(call).startsWith("-Xshare:dump -XX:SharedClassListFile=" + archive + ".")
                .contains(".list -XX:SharedArchiveFile=" + archive + ".").endsWith(" -Xlog:cds*=off -cp " + realJar()));
        assertThat(calls()).anySatisfy(call -> assertThat(call).startsWith("-Xshare:on -XX:SharedArchiveFile=" + archive + ".")
                .endsWith(" -Xlog:cds*=off -cp " + realJar() + " -version"));
        try (Stream<Path> left = Files.list(cache)) {
            assertThat(left).as("the training's own files, removed").containsExactly(archive);
        }

        Files.delete(log);
        assertThat(run("jdk17", Map.of(), "check", small.toString())).isZero();
        assertThat(calls()).containsExactly("-XX:SharedArchiveFile=" + archive + " -Xlog:cds*=off -XX:TieredStopAtLevel=1 -jar "
                + realJar() + " check " + small);
    }

    @Test
    void jdk25AndLaterGetAnAotCacheAndItsLogsTurnedOffToo() throws Exception {
        run("jdk25", Map.of(), "check", small.toString());
        Path aot = awaitOne("*.aot");
        Files.delete(log);

        run("jdk25", Map.of(), "check", small.toString());

        assertThat(calls()).containsExactly("-XX:AOTCache=" + aot + " -Xlog:aot*=off -Xlog:cds*=off -XX:TieredStopAtLevel=1 -jar "
                + realJar() + " check " + small);
    }

    @Test
    void theCommandsExitStatusIsTheLaunchersWithOrWithoutAnArchive() throws Exception {
        assertThat(run("jdk17", Map.of("FAKE_STATUS", "1"), "check", small.toString())).isEqualTo(1);
        awaitOne("*.jsa");
        assertThat(run("jdk17", Map.of("FAKE_STATUS", "2"), "check", small.toString())).isEqualTo(2);
    }

    @Test
    void theCommandIsTheProcessTheCallerStartedWithOrWithoutAnArchiveAndTheTrainingWaitsForItsEnd() throws Exception {
        Path pid = dir.resolve("pid");
        Map<String, String> slow = Map.of("FAKE_PID", pid.toString(), "FAKE_SECONDS", "1.5");

        Process first = start("jdk17", slow, "check", small.toString());
        assertThat(first.waitFor()).isZero();
        assertThat(Files.readString(pid).strip()).as("the JVM's process id, as java -jar's").isEqualTo(Long.toString(first.pid()));
        awaitOne("*.jsa");
        assertThat(calls().subList(0, 2)).containsExactly("-XX:TieredStopAtLevel=1 -jar " + realJar() + " check " + small,
                "the command ends");

        Process next = start("jdk17", slow, "check", small.toString());
        assertThat(next.waitFor()).isZero();
        assertThat(Files.readString(pid).strip()).isEqualTo(Long.toString(next.pid()));
    }

    @Test
    void offMeansNoArchiveUsedOrMadeAndOnlyACheckTrainsOne() throws Exception {
        run("jdk17", Map.of("ISOCHECK_CDS", "off"), "check", small.toString());
        run("jdk17", Map.of(), "--version");
        Thread.sleep(500);

        assertThat(calls()).containsExactly("-XX:TieredStopAtLevel=1 -jar " + realJar() + " check " + small,
                "-jar " + realJar() + " --version");
        assertThat(cache).doesNotExist();
    }

    @Test
    void c2StaysForStandardInputLargeInputsAndWhereTheOptionsSayHowToCompile() throws Exception {
        Path gzipped = Files.write(dir.resolve("large.jsonl.gz"), new byte[2_200_000]);
        Map<String, String> off = Map.of("ISOCHECK_CDS", "off");

        run("jdk17", off, "check", "-");
        run("jdk17", off, "check", "--level", "causal", gzipped.toString());
        run("jdk17", Map.of("ISOCHECK_CDS", "off", "ISOCHECK_OPTS", "-Xmx2g -XX:-TieredCompilation"), "check", small.toString());

        assertThat(calls()).containsExactly("-jar " + realJar() + " check -",
                "-jar " + realJar() + " check --level causal " + gzipped,
                "-Xmx2g -XX:-TieredCompilation -jar " + realJar() + " check " + small);
    }

    private int run(String jdk, Map<String, String> environment, String... args) throws Exception {
        return start(jdk, environment, args).waitFor();
    }

    private Process start(String jdk, Map<String, String> environment, String... args) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Stream.concat(Stream.of(launcher.toString()), Stream.of(args)).toList())
                .directory(dir.toFile()).redirectErrorStream(true).redirectOutput(dir.resolve("out.txt").toFile());
        Map<String, String> env = builder.environment();
        env.keySet().removeIf(key -> key.startsWith("ISOCHECK_"));
        env.put("JAVA_HOME", dir.resolve(jdk).toString());
        env.put("ISOCHECK_CACHE", cache.toString());
        env.put("FAKE_LOG", log.toString());
        env.putAll(environment);
        return builder.start();
    }

    private List<String> calls() throws IOException {
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    /** The one archive the background training leaves, once it has renamed it and dropped its lock. */
    private Path awaitOne(String glob) throws Exception {
        for (int i = 0; i < 200; i++) {
            try (var found = Files.newDirectoryStream(Files.createDirectories(cache), glob)) {
                List<Path> archives = java.util.stream.StreamSupport.stream(found.spliterator(), false).toList();
                try (var locks = Files.newDirectoryStream(cache, "*.lock")) {
                    if (archives.size() == 1 && !locks.iterator().hasNext()) {
                        return archives.get(0);
                    }
                }
            }
            Thread.sleep(50);
        }
        throw new AssertionError("no archive " + glob + " in " + cache + "; java was called: " + calls());
    }

    private String realJar() throws IOException {
        return jar.toRealPath().toString();
    }

    private void jdk(String name, String version) throws IOException {
        Path home = dir.resolve(name);
        Path java = Files.createDirectories(home.resolve("bin")).resolve("java");
        Files.writeString(java, FAKE_JAVA);
        executable(java);
        Files.writeString(home.resolve("release"), "IMPLEMENTOR=\"Test\"\nJAVA_VERSION=\"" + version + "\"\n");
    }

    private static void executable(Path file) throws IOException {
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }
}
