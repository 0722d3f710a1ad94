package dev.isocheck.internal.recording.jdbc;

import dev.isocheck.internal.recording.sql.HiddenColumns;
import java.lang.reflect.Method;
import java.sql.ResultSet;
import java.sql.ResultSetMetaData;
import java.sql.SQLException;

/**
 * Keeps the columns the recorder added to a query ({@link HiddenColumns}) out of the
 * application's sight: column counts leave them out, and asking for one by index or by label gets
 * the driver's own answer for a column that does not exist.
 */
final class HiddenView {

    /** A label no table column has, for the driver to refuse in place of a hidden one. */
    private static final String NO_SUCH_LABEL = "isocheck_no_such_column";

    private final HiddenColumns hidden;
    private final int visible;

    HiddenView(HiddenColumns hidden, int realCount) {
        this.hidden = hidden;
        this.visible = realCount - hidden.columns().size();
    }

    /** The view of a result whose metadata says how many columns it really has. */
    static HiddenView of(HiddenColumns hidden, ResultSet rs) throws SQLException {
        return new HiddenView(hidden, rs.getMetaData().getColumnCount());
    }

    /** How many columns the application's own statement returns. */
    int visible() {
        return visible;
    }

    /** The index of the n-th (from 0) hidden column in the real result. */
    int hiddenIndex(int n) {
        return visible + 1 + n;
    }

    /**
     * The arguments to call a {@link ResultSet} column method with: an index past the visible
     * columns is moved past the real ones too, a label that finds a hidden column is replaced by one that is not there,
     * so that the driver answers as it would without them.
     */
    Object[] arguments(Method method, Object[] args, ResultSet real) {
        if (args == null || args.length == 0 || !columnMethod(method)) {
            return args;
        }
        if (args[0] instanceof Integer index && index > visible) {
            Object[] moved = args.clone();
            moved[0] = index + hidden.columns().size();
            return moved;
        }
        if (args[0] instanceof String label && (hidden.hides(label) || findsHidden(real, label))) {
            Object[] moved = args.clone();
            moved[0] = NO_SUCH_LABEL;
            return moved;
        }
        return args;
    }

    /**
     * Whether the driver resolves {@code label} to a hidden column: some (H2) match a label against
     * the column's own name as well as its alias, so a hidden {@code qty} would answer to "qty".
     */
    private boolean findsHidden(ResultSet real, String label) {
        try {
            return real.findColumn(label) > visible;
        } catch (SQLException | RuntimeException e) {
            return false;
        }
    }

    private static boolean columnMethod(Method method) {
        String name = method.getName();
        Class<?> first = method.getParameterTypes()[0];
        return (name.startsWith("get") || name.startsWith("update") || name.equals("findColumn"))
                && (first == int.class || first == String.class);
    }

    /** The metadata the application sees: the visible columns only. */
    ResultSetMetaData metaData(ResultSetMetaData real) {
        return Proxies.create(ResultSetMetaData.class, (p, method, args) -> {
            Object common = Proxies.common(p, real, method, args);
            if (common != Proxies.NOT_COMMON) {
                return common;
            }
            if (method.getName().equals("getColumnCount")) {
                return visible;
            }
            Object[] moved = args;
            if (args != null && args.length == 1 && args[0] instanceof Integer index && index > visible) {
                moved = new Object[] {index + hidden.columns().size()};
            }
            return Proxies.call(real, method, moved);
        });
    }
}
