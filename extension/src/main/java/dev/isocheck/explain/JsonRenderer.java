package dev.isocheck.explain;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.isocheck.history.SqlStatement;
import java.util.Locale;
import org.apiguardian.api.API;

/**
 * Renders an {@link Explanation} as one JSON object, with Jackson as the rest of isocheck does.
 *
 * <ul>
 *   <li>{@code kind}: {@code cycles}, {@code likely-case}, {@code read} (a non-cycle anomaly) or
 *       {@code unexplained};
 *       {@code level}; {@code anomaly} (e.g. {@code G2-item}, {@code G1a}; {@code null} when
 *       unexplained), {@code description}, {@code familiar} (e.g. {@code write skew}, or
 *       {@code null});</li>
 *   <li>for cycles: {@code certain}; {@code cycle}, the transaction ids in order, and {@code edges},
 *       each {@code from}, {@code to}, {@code type} ({@code ww}, {@code wr}, {@code rw},
 *       {@code predicate-rw}, {@code session}, {@code realtime}), {@code key}, {@code assumed},
 *       {@code because} and the operations behind it ({@code fromOperations},
 *       {@code toOperations}), and {@code predicate} when it rests on a row a predicate read did not
 *       return (below): for a certain cycle, and {@code null} for a case analysis; {@code cases}, each with {@code assuming} and its own {@code anomaly},
 *       {@code cycle} and {@code edges} (one case, assuming nothing, when certain);</li>
 *   <li>for the likeliest case: as for cycles (never certain), and {@code assuming}, the reads'
 *       writes it assumes (each case's {@code assuming} begins with them), and {@code unshown}, why
 *       the other choices are not shown;</li>
 *   <li>for a read: {@code read}, {@code related} (operations with a {@code role}) and
 *       {@code explanation};</li>
 *   <li>for unexplained: {@code reason};</li>
 *   <li>only when the explanation has {@link Explanation#premises() premises}: {@code premises}, each
 *       {@code kind} ({@code unwritten-initial-value}), {@code key}, {@code writers}, {@code read}
 *       and {@code text}, and {@code premisesAdvice}, how to state the initial state instead;</li>
 *   <li>{@code transactions}: each {@code id}, {@code session} (or {@code null}), {@code committed}, {@code start} and
 *       {@code end} (or {@code null}) and {@code operations}; for a recorded transaction also
 *       {@code thread} and {@code statements} (each {@code sql}, {@code parameters} and
 *       {@code name} when it has one), each left out when not recorded.</li>
 * </ul>
 *
 * <p>An operation is {@code transaction}, {@code index} (from 0), {@code row} (of a predicate read,
 * or {@code null}), {@code kind}, {@code key} and {@code value} (or {@code null}), {@code text},
 * and {@code statement}, the index of its statement in its transaction's {@code statements}, when known.
 *
 * <p>An edge's {@code predicate} ({@link UnreturnedRow}) is {@code reader}, {@code read} (the
 * operation), {@code statement} (its SQL, as in a transaction's {@code statements}, when recorded),
 * {@code table}, {@code where}, {@code key}, {@code saw} (the version it saw, or {@code null} when
 * several remain), {@code missed} (the later version of a {@code predicate-rw} edge's {@code to},
 * else {@code null}) and {@code text}, the sentence. A version is {@code writer} ({@code null}: the
 * initial version), {@code value} (left out when not known), {@code write} (the operation, or
 * {@code null}) and {@code statement} when recorded.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class JsonRenderer {

    private static final ObjectMapper JSON = new ObjectMapper();

    /** Renders {@code explanation} as a compact JSON object. */
    public String render(Explanation explanation) {
        return toJson(explanation).toString();
    }

    /** The explanation as a Jackson tree, for callers that embed it in their own JSON. */
    public ObjectNode toJson(Explanation explanation) {
        ObjectNode node = JSON.createObjectNode();
        node.put("level", explanation.level().cliName());
        if (explanation instanceof Explanation.Cycles cycles) {
            node.put("kind", "cycles");
            node.put("anomaly", cycles.anomaly());
            node.put("description", cycles.cases().stream().map(c -> c.cycle().type())
                    .max(Enum::compareTo).orElseThrow().description());
            putNullable(node, "familiar", cycles.familiarName().orElse(null));
            node.put("certain", cycles.isCertain());
            if (cycles.isCertain()) {
                AnomalyCycle cycle = cycles.cases().get(0).cycle();
                node.set("cycle", ids(cycle));
                node.set("edges", edges(cycle));
            } else {
                node.putNull("cycle");
                node.putNull("edges");
            }
            cases(cycles.cases(), node);
        } else if (explanation instanceof Explanation.LikelyCase likely) {
            node.put("kind", "likely-case");
            node.put("anomaly", likely.anomaly());
            node.put("description", likely.anomalyType().description());
            putNullable(node, "familiar", likely.familiarName().orElse(null));
            node.put("certain", false);
            node.putNull("cycle");
            node.putNull("edges");
            ArrayNode assuming = node.putArray("assuming");
            likely.assuming().forEach(a -> assuming.add(assumption(a)));
            cases(likely.cases(), node);
            node.put("unshown", likely.unshown());
        } else if (explanation instanceof Explanation.Screened screened) {
            ReadAnomaly anomaly = screened.anomaly();
            node.put("kind", "read");
            node.put("anomaly", anomaly.type().shortName());
            node.put("description", anomaly.type().description());
            putNullable(node, "familiar", anomaly.familiarName().orElse(null));
            node.set("read", operation(anomaly.read()));
            ArrayNode related = node.putArray("related");
            for (ReadAnomaly.Related r : anomaly.related()) {
                ObjectNode one = operation(r.operation());
                one.put("role", r.role());
                related.add(one);
            }
            node.put("explanation", anomaly.explanation());
        } else if (explanation instanceof Explanation.Unexplained unexplained) {
            node.put("kind", "unexplained");
            node.putNull("anomaly");
            node.put("reason", unexplained.reason());
        }
        if (!explanation.premises().isEmpty()) {
            ArrayNode premises = node.putArray("premises");
            explanation.premises().forEach(p -> premises.add(assumption(p)));
            node.put("premisesAdvice", Wording.premisesAdvice(explanation));
        }
        ArrayNode transactions = node.putArray("transactions");
        for (TransactionSummary t : explanation.transactions()) {
            ObjectNode one = transactions.addObject();
            one.put("id", t.id());
            putNullable(one, "session", t.session().orElse(null));
            one.put("committed", t.committed());
            if (t.start().isPresent()) {
                one.put("start", t.start().getAsLong());
            } else {
                one.putNull("start");
            }
            if (t.end().isPresent()) {
                one.put("end", t.end().getAsLong());
            } else {
                one.putNull("end");
            }
            // Provenance only when recorded, so that other explanations' JSON stays as it was.
            t.thread().ifPresent(thread -> one.put("thread", thread));
            if (!t.statements().isEmpty()) {
                ArrayNode statements = one.putArray("statements");
                t.statements().forEach(statement -> statements.add(statement(statement)));
            }
            ArrayNode operations = one.putArray("operations");
            t.operations().forEach(op -> operations.add(operation(op)));
        }
        return node;
    }

    private static void cases(java.util.List<Explanation.Case> cases, ObjectNode node) {
        ArrayNode array = node.putArray("cases");
        for (Explanation.Case c : cases) {
            ObjectNode one = array.addObject();
            ArrayNode assuming = one.putArray("assuming");
            c.assuming().forEach(a -> assuming.add(assumption(a)));
            one.put("anomaly", c.cycle().anomaly());
            putNullable(one, "familiar", c.cycle().familiarName().orElse(null));
            one.set("cycle", ids(c.cycle()));
            one.set("edges", edges(c.cycle()));
        }
    }

    private static void putNullable(ObjectNode node, String field, String value) {
        if (value == null) {
            node.putNull(field);
        } else {
            node.put(field, value);
        }
    }

    private static ArrayNode ids(AnomalyCycle cycle) {
        ArrayNode ids = JSON.createArrayNode();
        cycle.transactions().forEach(ids::add);
        return ids;
    }

    private static ArrayNode edges(AnomalyCycle cycle) {
        ArrayNode edges = JSON.createArrayNode();
        for (Dependency edge : cycle.edges()) {
            ObjectNode one = edges.addObject();
            one.put("from", edge.from());
            one.put("to", edge.to());
            one.put("type", edge.type().shortName());
            putNullable(one, "key", edge.key().orElse(null));
            one.put("assumed", edge.assumed());
            one.put("because", edge.reason());
            ArrayNode from = one.putArray("fromOperations");
            edge.fromOperations().forEach(op -> from.add(operation(op)));
            ArrayNode to = one.putArray("toOperations");
            edge.toOperations().forEach(op -> to.add(operation(op)));
            // Only on such edges, so that the others' JSON stays as it was.
            edge.unreturnedRow().ifPresent(row -> one.set("predicate", unreturnedRow(row)));
        }
        return edges;
    }

    private static ObjectNode unreturnedRow(UnreturnedRow row) {
        ObjectNode node = JSON.createObjectNode();
        node.put("reader", row.reader());
        node.set("read", operation(row.read()));
        row.statement().ifPresent(statement -> node.set("statement", statement(statement)));
        node.put("table", row.table());
        node.put("where", row.where());
        node.put("key", row.key());
        node.set("saw", row.saw().map(JsonRenderer::version).orElse(null));
        node.set("missed", row.missed().map(JsonRenderer::version).orElse(null));
        node.put("text", row.text());
        return node;
    }

    private static ObjectNode version(UnreturnedRow.Version version) {
        ObjectNode node = JSON.createObjectNode();
        putNullable(node, "writer", version.writer().orElse(null));
        // Left out when not known, so that null keeps meaning an absent row, as in operations.
        version.value().ifPresent(value -> node.set("value", JSON.valueToTree(value.toJava())));
        node.set("write", version.write().map(JsonRenderer::operation).orElse(null));
        version.statement().ifPresent(statement -> node.set("statement", statement(statement)));
        return node;
    }

    private static ObjectNode statement(SqlStatement statement) {
        ObjectNode node = JSON.createObjectNode();
        node.put("sql", statement.sql());
        ArrayNode parameters = node.putArray("parameters");
        statement.parameters().forEach(parameters::add);
        statement.name().ifPresent(name -> node.put("name", name));
        return node;
    }

    private static ObjectNode assumption(Assumption assumption) {
        ObjectNode node = JSON.createObjectNode();
        if (assumption instanceof Assumption.VersionOrder order) {
            node.put("kind", "version-order");
            node.put("key", order.key());
            node.put("earlier", order.earlier());
            node.put("later", order.later());
        } else if (assumption instanceof Assumption.ReadFrom read) {
            node.put("kind", read.saw() ? "read-from" : "not-read-from");
            node.put("key", read.key());
            putNullable(node, "writer", read.writer().orElse(null));
            node.set("read", operation(read.read()));
        } else if (assumption instanceof Assumption.UnwrittenInitialValue unwritten) {
            node.put("kind", "unwritten-initial-value");
            node.put("key", unwritten.key());
            ArrayNode writers = node.putArray("writers");
            unwritten.writers().forEach(writers::add);
            node.set("read", operation(unwritten.read()));
        }
        node.put("text", assumption.text());
        return node;
    }

    private static ObjectNode operation(OperationRef op) {
        ObjectNode node = JSON.createObjectNode();
        node.put("transaction", op.transaction());
        node.put("index", op.index());
        if (op.row() >= 0) {
            node.put("row", op.row());
        } else {
            node.putNull("row");
        }
        node.put("kind", op.kind().name().toLowerCase(Locale.ROOT));
        putNullable(node, "key", op.key().orElse(null));
        if (op.value().isPresent()) {
            node.set("value", JSON.valueToTree(op.value().get().toJava()));
        } else {
            node.putNull("value");
        }
        node.put("text", op.text());
        op.statement().ifPresent(statement -> node.put("statement", statement));
        return node;
    }
}
