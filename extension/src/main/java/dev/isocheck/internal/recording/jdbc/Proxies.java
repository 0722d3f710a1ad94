package dev.isocheck.internal.recording.jdbc;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;

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
    private static final ClassValue<Constructor<?>> CONSTRUCTORS = new ClassValue<>() {
        @Override
        protected Constructor<?> computeValue(Class<?> type) {
            Object sample = Proxy.newProxyInstance(Proxies.class.getClassLoader(), new Class<?>[] {type}, (p, m, a) -> null);
            try {
                Constructor<?> constructor = sample.getClass().getConstructor(InvocationHandler.class);
                try {
                    // Public, in a package its dynamic module exports: allowed, and it spares every
                    // newInstance the caller's access check (visible in profiles otherwise).
                    constructor.setAccessible(true);
                } catch (RuntimeException refused) {
                    // A JVM that refuses it still lets a public constructor be called, checked.
                }
                return constructor;
            } catch (NoSuchMethodException e) {
                throw new IllegalStateException("a proxy class without its public constructor: " + sample.getClass(), e);
            }
        }
    };

    /** A proxy implementing {@code type} whose calls go to {@code handler}. */
    static <T> T create(Class<T> type, InvocationHandler handler) {
        try {
            return type.cast(CONSTRUCTORS.get(type).newInstance(handler));
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("could not create a proxy of " + type.getName(), e);
        }
    }

    /** Calls {@code method} on {@code target}, throwing what the driver threw, not a reflection wrapper. */
    static Object call(Object target, Method method, Object[] args) throws Throwable {
        try {
            return method.invoke(target, args);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }

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
