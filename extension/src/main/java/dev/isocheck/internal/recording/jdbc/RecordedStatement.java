package dev.isocheck.internal.recording.jdbc;

import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.sql.CallableStatement;
import java.sql.PreparedStatement;
import java.sql.Statement;

/**
 * The handler of a recorded {@link Statement}, {@link PreparedStatement} or
 * {@link CallableStatement}: it only sends each call the recorder answers to the statement's
 * logic, and any other to the driver's statement. The recorder analyses each statement before it
 * is sent, sends a write in its dialect's rewritten form (which returns the rows written) and
 * answers the application as the original statement would have: the update count, no result set,
 * the same exceptions. What it cannot rewrite it sends unchanged and records as leaving its table
 * out of the check.
 *
 * <p>Split as datasource-proxy splits its proxies: {@link StatementLogic} for SQL text, which
 * every kind takes; {@link PreparedStatementLogic} for prepared SQL and bound parameters, which a
 * callable statement shares; {@link StatementSupport}, their base, for what they do alike. A
 * prepared statement's mode, chosen by {@link StatementPreparation}, is its {@link PreparedMode}.
 */
final class RecordedStatement implements InvocationHandler {

    private final Statement real;
    private final StatementLogic statement;
    /**
     * The same logic when the statement is prepared or callable; {@code null} for a plain
     * Statement, whose interface has none of the calls that go to it.
     */
    private final PreparedStatementLogic prepared;

    private RecordedStatement(StatementLogic statement) {
        this.real = statement.real;
        this.statement = statement;
        this.prepared = statement instanceof PreparedStatementLogic logic ? logic : null;
    }

    /** The proxy of {@code type} the application gets, whose calls {@code logic} answers. */
    static <T extends Statement> T wrap(StatementLogic logic, Class<T> type) {
        T proxy = Proxies.create(type, new RecordedStatement(logic));
        logic.proxy = proxy;
        return proxy;
    }

    @Override
    public Object invoke(Object p, Method method, Object[] args) throws Throwable {
        Object common = Proxies.common(p, real, method, args);
        if (common != Proxies.NOT_COMMON) {
            return common;
        }
        boolean sqlGiven = method.getParameterCount() > 0;
        switch (method.getName()) {
            case "getConnection":
                return statement.connection.proxy();
            case "close":
                return statement.close(method, args);
            case "executeQuery":
            case "execute":
            case "executeUpdate":
            case "executeLargeUpdate":
                return GatePoint.pass(sqlGiven ? String.valueOf(args[0]) : statement.preparedSql, statement.connection::lockProbe,
                        () -> sqlGiven ? statement.executeText(method, args) : prepared.executePrepared(method, args));
            case "addBatch":
                return sqlGiven ? statement.addBatch(method, args) : prepared.addEntry(method, args);
            case "clearBatch":
                return statement.clearBatch(method, args);
            case "executeBatch":
            case "executeLargeBatch":
                return GatePoint.pass(statement.preparedSql == null ? "a batch of statements" : "a batch of " + statement.preparedSql,
                        statement.connection::lockProbe, () -> statement.executeBatch(method, args));
            case "clearParameters":
                return prepared.clearParameters(method, args);
            case "getGeneratedKeys":
                return statement.generatedKeys(method, args);
            case "getUpdateCount":
                return statement.updateCount(method, args, false);
            case "getLargeUpdateCount":
                return statement.updateCount(method, args, true);
            case "getResultSet":
                return statement.resultSet(method, args);
            case "getMoreResults":
                return statement.moreResults(method, args);
            case "getMetaData":
                return prepared.metaData(method, args);
            default:
                if (prepared != null && bindsParameter(method)) {
                    return prepared.bind(method, args);
                }
                return Proxies.call(real, method, args);
        }
    }

    /** {@code setX(index, value, …)}; a plain Statement's setters take one argument. */
    private static boolean bindsParameter(Method method) {
        return method.getName().startsWith("set") && method.getParameterCount() >= 2
                && method.getParameterTypes()[0] == int.class;
    }
}
