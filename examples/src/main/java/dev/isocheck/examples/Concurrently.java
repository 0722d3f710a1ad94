package dev.isocheck.examples;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * Runs a few tasks at once, each on a thread of its own started here, so that a recording bound
 * to the calling thread is inherited by them, and collects how each ended.
 */
public final class Concurrently {

    private Concurrently() {
    }

    /**
     * Runs every task on a thread named after it and waits for all of them.
     *
     * @param tasks the tasks by thread name
     * @return for each task, in order, {@code null} when it returned normally, or what it threw
     */
    public static List<Throwable> run(List<Task> tasks) throws InterruptedException {
        List<Throwable> failures = new ArrayList<>(tasks.size());
        List<Thread> threads = new ArrayList<>(tasks.size());
        for (int i = 0; i < tasks.size(); i++) {
            failures.add(null);
            int index = i;
            Task task = tasks.get(i);
            Thread thread = new Thread(() -> {
                try {
                    task.work().call();
                } catch (Throwable e) {
                    synchronized (failures) {
                        failures.set(index, e);
                    }
                }
            }, task.name());
            threads.add(thread);
        }
        threads.forEach(Thread::start);
        for (Thread thread : threads) {
            thread.join();
        }
        synchronized (failures) {
            return new ArrayList<>(failures);
        }
    }

    /**
     * A task and the name of its thread.
     *
     * @param name the thread's name, which the report shows for its transactions
     * @param work the work
     */
    public record Task(String name, Callable<?> work) {
    }
}
