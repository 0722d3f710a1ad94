package dev.isocheck.history;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import org.apiguardian.api.API;

/**
 * A statement as the application sent it, kept with a recorded transaction so that an explanation
 * can show the code behind each operation rather than only keys and values.
 *
 * @param sql        the SQL text as sent, placeholders included
 * @param parameters the bound parameters in placeholder order, as text ({@code NULL} for SQL null);
 *                   never {@code null} but potentially empty
 * @param name       what the application calls the statement, such as the Jdbi SqlObject method
 *                   {@code AccountDao.withdraw}; empty when unnamed
 */
@API(status = EXPERIMENTAL, since = "0.1")
public record SqlStatement(String sql, List<String> parameters, Optional<String> name) {

    /** Validates and copies. */
    public SqlStatement {
        Objects.requireNonNull(sql, "sql is null");
        parameters = List.copyOf(parameters);
        Objects.requireNonNull(name, "name is null");
    }

    /** An unnamed statement. */
    public static SqlStatement of(String sql, List<String> parameters) {
        return new SqlStatement(sql, parameters, Optional.empty());
    }

    /** The statement with its parameters after it, as a report shows it: {@code sql  [p1, p2]}. */
    @Override
    public String toString() {
        return parameters.isEmpty() ? sql : sql + "  " + parameters;
    }
}
