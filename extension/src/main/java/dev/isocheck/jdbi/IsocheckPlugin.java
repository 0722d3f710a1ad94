package dev.isocheck.jdbi;

import static org.apiguardian.api.API.Status.EXPERIMENTAL;

import dev.isocheck.internal.recording.StatementNames;
import java.sql.PreparedStatement;
import org.apiguardian.api.API;
import org.jdbi.v3.core.Jdbi;
import org.jdbi.v3.core.extension.ExtensionMethod;
import org.jdbi.v3.core.spi.JdbiPlugin;
import org.jdbi.v3.core.statement.StatementContext;
import org.jdbi.v3.core.statement.StatementCustomizer;

/**
 * Names each statement a SqlObject method runs after that method, {@code AccountDao.withdraw},
 * in the recorded history and the reports isocheck writes about it:
 *
 * <pre>{@code
 * Jdbi jdbi = Jdbi.create(Isocheck.record(dataSource));
 * jdbi.installPlugin(new SqlObjectPlugin());
 * jdbi.installPlugin(new IsocheckPlugin());
 * }</pre>
 *
 * <p>The name is the SqlObject type's simple name and the method's name. Statements run outside
 * a SqlObject ({@code handle.createUpdate(...)}) stay unnamed. The plugin changes nothing the
 * application sees: it neither wraps nor alters Jdbi's connections and statements, and outside a
 * recorded test it has nothing to name. Names only label statements in reports; checking
 * ignores them.
 */
@API(status = EXPERIMENTAL, since = "0.1")
public final class IsocheckPlugin implements JdbiPlugin {

    /** A plugin to install with {@link Jdbi#installPlugin}. */
    public IsocheckPlugin() {
    }

    @Override
    public void customizeJdbi(Jdbi jdbi) {
        jdbi.addCustomizer(new MethodNames());
    }

    /**
     * Announces a SqlObject statement's name to the recorder for the time it executes: set just
     * before execution and withdrawn just after, or when the statement is cleaned up if its
     * execution failed (Jdbi then skips {@code afterExecution}).
     */
    private static final class MethodNames implements StatementCustomizer {

        @Override
        public void beforeExecution(PreparedStatement statement, StatementContext context) {
            ExtensionMethod method = context.getExtensionMethod();
            if (method == null || context.getParsedSql() == null) {
                return;
            }
            String sql = context.getParsedSql().getSql();
            StatementNames.announce(sql, nameOf(method));
            context.addCleanable(() -> StatementNames.withdraw(sql));
        }

        @Override
        public void afterExecution(PreparedStatement statement, StatementContext context) {
            if (context.getExtensionMethod() != null && context.getParsedSql() != null) {
                StatementNames.withdraw(context.getParsedSql().getSql());
            }
        }

        private static String nameOf(ExtensionMethod method) {
            Class<?> type = method.getType();
            // An anonymous or local type has no simple name worth showing.
            String typeName = type.getSimpleName().isEmpty() ? type.getName() : type.getSimpleName();
            return typeName + "." + method.getMethod().getName();
        }
    }
}
