package dev.isocheck.internal.graph;

import dev.isocheck.history.Value;
import java.util.Map;

/** The relations between observed values that {@code docs/semantics.md} defines beyond consistency. */
public final class ValueRelations {

    private ValueRelations() {
    }

    /**
     * Whether one written value can be consistent with both observations: both absent, equal
     * non-objects, or objects that give no field two different values.
     */
    public static boolean compatible(Value a, Value b) {
        if (a.equals(b)) {
            return true;
        }
        if (!a.isObject() || !b.isObject()) {
            return false;
        }
        Map<String, Value> other = b.fields();
        for (Map.Entry<String, Value> field : a.fields().entrySet()) {
            Value there = other.get(field.getKey());
            if (there != null && !there.equals(field.getValue())) {
                return false;
            }
        }
        return true;
    }
}
