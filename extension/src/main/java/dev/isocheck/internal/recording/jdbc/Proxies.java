package dev.isocheck.internal.recording.jdbc;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

/**
 * The plumbing of the JDK dynamic proxies the recorder wraps JDBC objects in: calling through to
 * the driver's object so that its exceptions reach the application unchanged, and the methods
 * every wrapper answers alike.
 */
final class Proxies {

    private Proxies() {
    }

    /**
     * The proxy class's constructor for each interface: {@link Proxy#newProxyInstance} looks the
     * class up in its caches and checks its caller on every call, and the recorder creates a proxy
     * for every statement and every result (a profile's visible share of the recorder's time).
     */
    private static final ClassValue<MethodHandle> CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected MethodHandle computeValue(Class<?> type) {
            Object sample = Proxy.newProxyInstance(Proxies.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> null);
            try {
                Constructor<?> constructor = sample.getClass().getConstructor(InvocationHandler.class);
                return MethodHandles.publicLookup().unreflectConstructor(constructor)
                        .asType(MethodType.methodType(Object.class, InvocationHandler.class));
            } catch (NoSuchMethodException | IllegalAccessException e) {
                throw new IllegalStateException("a proxy class without its public constructor: " + sample.getClass(), e);
            }
        }
    };

    /*
     * The constructors of the proxies made per statement and per result, as constants: a constant
     * method handle is compiled into its caller, where a look-up and a reflective call are not.
     */
    private static final MethodHandle PREPARED_STATEMENT = CONSTRUCTORS.get(PreparedStatement.class);
    private static final MethodHandle STATEMENT = CONSTRUCTORS.get(Statement.class);
    private static final MethodHandle RESULT_SET = CONSTRUCTORS.get(ResultSet.class);

    /** A proxy implementing {@code type} whose calls go to {@code handler}. */
    static <T> T create(Class<T> type, InvocationHandler handler) {
        try {
            Object proxy;
            if (type == PreparedStatement.class) {
                proxy = (Object) PREPARED_STATEMENT.invokeExact(handler);
            } else if (type == ResultSet.class) {
                proxy = (Object) RESULT_SET.invokeExact(handler);
            } else if (type == Statement.class) {
                proxy = (Object) STATEMENT.invokeExact(handler);
            } else {
                proxy = (Object) CONSTRUCTORS.get(type).invokeExact(handler);
            }
            return type.cast(proxy);
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable e) {
            throw new IllegalStateException("could not create a proxy of " + type.getName(), e);
        }
    }

    /** Calls {@code method} on {@code target}, throwing what the driver threw, not a reflection wrapper. */
    static Object call(Object target, Method method, Object[] args) throws Throwable {
        Object answer = direct(target, method.getName(), args);
        if (answer != NOT_DIRECT) {
            return answer;
        }
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

    /**
     * The calls an application makes for every row and every statement, made directly: a
     * reflective call costs several times as much (a profile's largest item after the others were
     * cut). The same virtual call as {@link Method#invoke} makes, so the same method of the driver
     * runs; each name and argument count here names exactly one JDBC method.
     *
     * @return the answer, or {@link #NOT_DIRECT} for a call to make reflectively
     */
    private static Object direct(Object target, String name, Object[] args) throws SQLException {
        int count = args == null ? 0 : args.length;
        switch (name) {
            case "next":
                if (count == 0 && target instanceof ResultSet rs) {
                    return rs.next();
                }
                break;
            case "close":
                if (count == 0 && target instanceof ResultSet rs) {
                    rs.close();
                    return null;
                }
                if (count == 0 && target instanceof Statement statement) {
                    statement.close();
                    return null;
                }
                break;
            case "executeQuery":
                if (count == 0 && target instanceof PreparedStatement ps) {
                    return ps.executeQuery();
                }
                if (count == 1 && args[0] instanceof String sql && target instanceof Statement statement) {
                    return statement.executeQuery(sql);
                }
                break;
            case "executeUpdate":
                if (count == 0 && target instanceof PreparedStatement ps) {
                    return ps.executeUpdate();
                }
                if (count == 1 && args[0] instanceof String sql && target instanceof Statement statement) {
                    return statement.executeUpdate(sql);
                }
                break;
            case "execute":
                if (count == 0 && target instanceof PreparedStatement ps) {
                    return ps.execute();
                }
                if (count == 1 && args[0] instanceof String sql && target instanceof Statement statement) {
                    return statement.execute(sql);
                }
                break;
            case "setInt":
                if (count == 2 && target instanceof PreparedStatement ps) {
                    ps.setInt((Integer) args[0], (Integer) args[1]);
                    return null;
                }
                break;
            case "setLong":
                if (count == 2 && target instanceof PreparedStatement ps) {
                    ps.setLong((Integer) args[0], (Long) args[1]);
                    return null;
                }
                break;
            case "setString":
                if (count == 2 && target instanceof PreparedStatement ps) {
                    ps.setString((Integer) args[0], (String) args[1]);
                    return null;
                }
                break;
            case "setObject":
                if (count == 2 && target instanceof PreparedStatement ps) {
                    ps.setObject((Integer) args[0], args[1]);
                    return null;
                }
                break;
            case "getInt":
                if (count == 1 && args[0] instanceof Integer column && target instanceof ResultSet rs) {
                    return rs.getInt(column);
                }
                break;
            case "getLong":
                if (count == 1 && args[0] instanceof Integer column && target instanceof ResultSet rs) {
                    return rs.getLong(column);
                }
                break;
            case "getString":
                if (count == 1 && args[0] instanceof Integer column && target instanceof ResultSet rs) {
                    return rs.getString(column);
                }
                break;
            case "getObject":
                if (count == 1 && args[0] instanceof Integer column && target instanceof ResultSet rs) {
                    return rs.getObject(column);
                }
                break;
            case "commit":
                if (count == 0 && target instanceof Connection connection) {
                    connection.commit();
                    return null;
                }
                break;
            case "prepareStatement":
                if (count == 1 && target instanceof Connection connection) {
                    return connection.prepareStatement((String) args[0]);
                }
                break;
            default:
                break;
        }
        return NOT_DIRECT;
    }

    private static final Object NOT_DIRECT = new Object();

    /**
     * The answer to {@code equals}, {@code hashCode}, {@code toString}, {@code unwrap} and
     * {@code isWrapperFor}, which a wrapper gives the same way whatever it wraps; {@link #NOT_COMMON}
     * for any other method. {@code unwrap} hands out the driver's object when asked for a type the
     * proxy is not: what the application then does with it bypasses the recorder.
     */
    static Object common(Object proxy, Object target, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "equals":
                if (method.getParameterCount() == 1) {
                    return proxy == args[0];
                }
                break;
            case "hashCode":
                if (method.getParameterCount() == 0) {
                    return System.identityHashCode(proxy);
                }
                break;
            case "toString":
                if (method.getParameterCount() == 0) {
                    // The driver's text: applications log it, some parse it.
                    return String.valueOf(target);
                }
                break;
            case "unwrap":
                if (args != null && args.length == 1 && args[0] instanceof Class<?> type && type.isInstance(proxy)
                        && type.isInterface() && !type.isInstance(target)) {
                    return proxy;
                }
                break;
            default:
                break;
        }
        return NOT_COMMON;
    }

    /** Returned by {@link #common} for a method it does not answer. */
    static final Object NOT_COMMON = new Object();
}
