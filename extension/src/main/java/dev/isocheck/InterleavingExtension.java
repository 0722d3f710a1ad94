package dev.isocheck;

import dev.isocheck.internal.junit.ScheduleSettings;
import dev.isocheck.internal.junit.ScheduledRun;
import dev.isocheck.internal.junit.TestRecording;
import dev.isocheck.internal.recording.SideSessions;
import dev.isocheck.internal.schedule.Exploration;
import dev.isocheck.internal.schedule.Gate;
import dev.isocheck.internal.schedule.Trace;
import java.lang.reflect.Method;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionConfigurationException;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;
import org.junit.platform.commons.support.AnnotationSupport;
import org.opentest4j.AssertionFailedError;
import org.opentest4j.TestAbortedException;

/**
 * The extension behind {@link InterleavingTest}: plans the runs of a test one at a time
 * ({@link Exploration}) and holds the test's threads at a {@link Gate} while each run's body
 * runs; {@link SerializableCheckExtension} checks each run and prints its order.
 */
class InterleavingExtension implements TestTemplateInvocationContextProvider {

    private static final String SETTINGS_KEY = "scheduleSettings";

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().flatMap(m -> AnnotationSupport.findAnnotation(m, InterleavingTest.class)).isPresent();
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        InterleavingTest annotation = AnnotationSupport.findAnnotation(context.getRequiredTestMethod(), InterleavingTest.class)
                .orElseThrow();
        ScheduleSettings settings = settings(context);
        if (annotation.schedules() < 0) {
            throw new ExtensionConfigurationException("@InterleavingTest(schedules = " + annotation.schedules() + ") on "
                    + context.getDisplayName() + ": give a number of schedules from 1, or 0 for " + ScheduleSettings.SCHEDULES);
        }
        if (!annotation.replay().isBlank() && !validOrder(annotation.replay())) {
            throw new ExtensionConfigurationException("@InterleavingTest(replay = \"" + annotation.replay() + "\") on "
                    + context.getDisplayName() + " is not an order: write one letter per step, A for the first thread"
                    + " created, B for the second, as a failure prints it (\"ABAB\")");
        }
        int budget = annotation.schedules() == 0 ? settings.schedules() : annotation.schedules();
        boolean expecting = !SerializableCheckExtension.expectedOf(context).isEmpty();
        // Closed by JUnit with the test's store, after its last run.
        SideSessions sessions = context.getStore(SerializableCheckExtension.NAMESPACE)
                .getOrComputeIfAbsent(SideSessions.class, key -> new SideSessions(), SideSessions.class);
        Exploration exploration = new Exploration(budget, annotation.seed(), annotation.replay(), expecting);
        return Stream.generate(exploration::next).takeWhile(Optional::isPresent).map(Optional::get)
                .map(plan -> new Invocation(new ScheduledRun(exploration, plan), settings, sessions));
    }

    private static boolean validOrder(String order) {
        return order.strip().chars().allMatch(c -> (c >= 'A' && c <= 'Z') || c == ' ' || Character.isDigit(c))
                && !order.strip().isEmpty();
    }

    private static ScheduleSettings settings(ExtensionContext context) {
        ExtensionContext root = context.getRoot();
        return root.getStore(SerializableCheckExtension.NAMESPACE).getOrComputeIfAbsent(SETTINGS_KEY,
                key -> ScheduleSettings.read(root), ScheduleSettings.class);
    }

    /** One run: named after its plan, its body held at the gate. */
    private record Invocation(ScheduledRun run, ScheduleSettings settings, SideSessions sessions)
            implements TestTemplateInvocationContext {

        @Override
        public String getDisplayName(int invocationIndex) {
            return run.plan().name();
        }

        @Override
        public List<Extension> getAdditionalExtensions() {
            return List.of(new GatedBody(run, settings, sessions));
        }
    }

    /** The order a failing body ran in, attached to its failure. */
    static final class ScheduleOfTheFailure extends Exception {

        private static final long serialVersionUID = 1L;

        ScheduleOfTheFailure(String message) {
            super(message, null, false, false);
        }
    }

    /** Runs the body with the test's threads held at the gate, and keeps the run where the check finds it. */
    private record GatedBody(ScheduledRun run, ScheduleSettings settings, SideSessions sessions) implements InvocationInterceptor {

        @Override
        public void interceptTestTemplateMethod(Invocation<Void> invocation, ReflectiveInvocationContext<Method> invocationContext,
                ExtensionContext context) throws Throwable {
            TestRecording recording = SerializableCheckExtension.recordingOf(context);
            context.getStore(SerializableCheckExtension.NAMESPACE).put(SerializableCheckExtension.RUN_KEY, run);
            Gate gate = recording.openGate(run.plan().strategy(), settings.timing(), sessions);
            Throwable thrown = null;
            try {
                invocation.proceed();
            } catch (Throwable e) {
                thrown = e;
            }
            Trace trace = gate.close();
            run.ran(trace);
            if (trace.stalled().isPresent()) {
                AssertionFailedError stalled = new AssertionFailedError("isocheck: " + run.plan().name() + " stalled: "
                        + trace.stalled().get() + "; the run was stopped (its threads interrupted). The order so far:\n"
                        + trace.table(), thrown);
                throw stalled;
            }
            if (thrown != null && trace.invalid().isPresent()) {
                throw new TestAbortedException("isocheck: " + run.plan().name() + " is not judged: " + trace.invalid().get(), thrown);
            }
            if (thrown != null) {
                // The body's own failure may hold in this order only: say which order it was.
                thrown.addSuppressed(new ScheduleOfTheFailure("isocheck: the body failed in " + run.plan().name() + ".\n"
                        + run.section("@InterleavingTest")));
                throw thrown;
            }
        }
    }
}
