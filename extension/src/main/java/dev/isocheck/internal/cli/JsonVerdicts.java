package dev.isocheck.internal.cli;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamWriteConstraints;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isocheck.Anomaly;
import dev.isocheck.CheckResult;
import dev.isocheck.IsolationLevel;
import dev.isocheck.Verdict;
import dev.isocheck.explain.Explanation;
import dev.isocheck.explain.JsonRenderer;
import dev.isocheck.history.History;
import java.nio.file.Path;
import java.util.Optional;

/**
 * {@code --json}: one object per history, and one per argument that names none, each on a line
 * ({@code docs/history-format.md} lists the fields).
 */
final class JsonVerdicts {

    /**
     * Writes the objects. Without a nesting limit of its own: a value is as deep as the reader
     * accepted it, and the object holding it a few levels deeper, which must not cost the verdict.
     */
    private static final ObjectMapper JSON = new ObjectMapper(JsonFactory.builder()
            .streamWriteConstraints(StreamWriteConstraints.builder().maxNestingDepth(Integer.MAX_VALUE).build())
            .build());

    private JsonVerdicts() {
    }

    /** The object on one line. */
    static String line(ObjectNode node) {
        try {
            return JSON.writeValueAsString(node);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a JSON tree could not be written", e);
        }
    }

    /**
     * A history checked.
     *
     * @param report      the page written with {@code --report}, if one was
     * @param reportError why the page could not be written, if it could not
     */
    static ObjectNode checked(HistorySource history, Outcome.Checked checked, Optional<Path> report,
            Optional<String> reportError) {
        CheckResult result = checked.result();
        Verdict verdict = result.verdict();
        Explanation explanation = result.explanation().orElse(null);
        ObjectNode node = JSON.createObjectNode();
        node.put("file", history.name());
        node.put("level", verdict.level().cliName());
        node.put("verdict", verdict.isViolated() ? "violation" : verdict.isSatisfied() ? "ok" : "unknown");
        if (verdict instanceof Verdict.Violated v) {
            Anomaly a = v.anomaly();
            ObjectNode evidence = new JsonRenderer().toJson(explanation);
            boolean explained = !(explanation instanceof Explanation.Unexplained);
            node.put("ok", false);
            node.put("anomaly", explained ? evidence.get("anomaly").asText() : a.type().shortName());
            node.put("description", explained ? evidence.get("description").asText() : a.type().description());
            node.set("familiar", explained ? evidence.get("familiar") : node.nullNode());
            // The cycle when one is certain; a case analysis has one per case, under evidence.cases.
            node.set("cycle", evidence.has("cycle") ? evidence.get("cycle") : node.nullNode());
            node.set("edges", evidence.has("edges") ? evidence.get("edges") : node.nullNode());
            a.transactions().forEach(node.putArray("involved")::add);
            node.put("explanation", a.explanation());
            node.set("evidence", evidence);
        } else if (verdict instanceof Verdict.Unknown u) {
            node.putNull("ok");
            node.putNull("anomaly");
            node.put("unknown", u.reason());
        } else {
            node.put("ok", true);
            node.putNull("anomaly");
            // Always there on a pass, empty when everything was checked.
            ((Verdict.Satisfied) verdict).caveats().forEach(node.putArray("caveats")::add);
        }
        node.put("millis", result.checkDuration().toMillis());
        node.put("loadMillis", checked.loadMillis());
        counts(node, checked.history());
        if (explanation != null) {
            node.put("explainMillis", result.explainDuration().toMillis());
        }
        report.ifPresent(page -> node.put("report", page.toString()));
        reportError.ifPresent(error -> node.put("reportError", error));
        Classifier.Classification classification = checked.classification();
        if (classification != null && classification.decided()) {
            if (classification.weakest() == null) {
                node.putNull("weakest_violated");
            } else {
                node.put("weakest_violated", classification.weakest().cliName());
            }
        }
        return node;
    }

    /** A history given up at the time limit: {@code "unknown"}, its counts {@code null} when it was not read. */
    static ObjectNode abandoned(HistorySource history, Outcome.Abandoned abandoned) {
        ObjectNode node = JSON.createObjectNode();
        node.put("file", history.name());
        node.put("level", abandoned.level().cliName());
        node.put("verdict", "unknown");
        node.putNull("ok");
        node.putNull("anomaly");
        node.put("unknown", abandoned.reason());
        node.put("millis", abandoned.millis());
        if (abandoned.loadMillis() < 0) {
            node.putNull("loadMillis");
        } else {
            node.put("loadMillis", abandoned.loadMillis());
        }
        counts(node, abandoned.history());
        return node;
    }

    /** What has no verdict: an argument that names no history, or a history not read or not checked. */
    static ObjectNode error(String name, IsolationLevel level, String message) {
        ObjectNode node = JSON.createObjectNode();
        node.put("file", name);
        node.put("level", level.cliName());
        node.put("verdict", "error");
        node.putNull("ok");
        node.put("error", message);
        return node;
    }

    private static void counts(ObjectNode node, History history) {
        if (history == null) {
            node.putNull("transactions");
            node.putNull("committed");
        } else {
            node.put("transactions", history.size());
            node.put("committed", history.committedCount());
        }
    }
}
