package dev.isocheck;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.reflect.Executable;
import java.lang.reflect.Field;
import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.lang.reflect.Type;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apiguardian.api.API;
import org.junit.jupiter.api.Test;

/**
 * The boundary between API and internals holds: every public type of a public package says its
 * status with {@code @API}, and no supported signature lets an internal type escape.
 */
class PublicApiTests {

    private static final Set<String> PUBLIC_PACKAGES = Set.of("dev.isocheck", "dev.isocheck.history",
            "dev.isocheck.format", "dev.isocheck.explain", "dev.isocheck.spi", "dev.isocheck.jdbi", "dev.isocheck.assertj",
            "dev.isocheck.hamcrest");

    @Test
    void everyPublicTypeOfAPublicPackageSaysItsStatus() throws Exception {
        List<String> unmarked = new ArrayList<>();
        for (Class<?> type : publicTopLevelTypes()) {
            if (type.getAnnotation(API.class) == null) {
                unmarked.add(type.getName());
            }
        }
        assertThat(publicTopLevelTypes()).hasSizeGreaterThan(30);
        assertThat(unmarked).as("public types without @API").isEmpty();
    }

    @Test
    void noSupportedSignatureMentionsAnInternalType() throws Exception {
        List<String> leaks = new ArrayList<>();
        for (Class<?> type : publicTopLevelTypes()) {
            if (isInternal(type.getAnnotation(API.class))) {
                continue;
            }
            for (Class<?> member : withNestedPublicTypes(type)) {
                collectLeaks(member, leaks);
            }
        }
        assertThat(leaks).as("internal types in supported signatures").isEmpty();
    }

    private static void collectLeaks(Class<?> type, List<String> leaks) {
        for (Method method : type.getDeclaredMethods()) {
            if (Modifier.isPublic(method.getModifiers()) && !method.isSynthetic()
                    && !isInternal(method.getAnnotation(API.class))) {
                List<Type> types = new ArrayList<>(List.of(method.getGenericParameterTypes()));
                types.add(method.getGenericReturnType());
                report(type, method.getName(), types, leaks);
            }
        }
        for (Executable constructor : type.getDeclaredConstructors()) {
            if (Modifier.isPublic(constructor.getModifiers())) {
                report(type, "<init>", List.of(constructor.getGenericParameterTypes()), leaks);
            }
        }
        for (Field field : type.getDeclaredFields()) {
            if (Modifier.isPublic(field.getModifiers())) {
                report(type, field.getName(), List.of(field.getGenericType()), leaks);
            }
        }
    }

    private static void report(Class<?> owner, String member, List<Type> types, List<String> leaks) {
        for (Type type : types) {
            if (type.getTypeName().contains("dev.isocheck.internal.")) {
                leaks.add(owner.getName() + "." + member + ": " + type.getTypeName());
            }
        }
    }

    private static boolean isInternal(API api) {
        return api != null && api.status() == API.Status.INTERNAL;
    }

    private static List<Class<?>> withNestedPublicTypes(Class<?> type) {
        List<Class<?>> all = new ArrayList<>(List.of(type));
        for (Class<?> nested : type.getDeclaredClasses()) {
            if (Modifier.isPublic(nested.getModifiers())) {
                all.addAll(withNestedPublicTypes(nested));
            }
        }
        return all;
    }

    private static List<Class<?>> publicTopLevelTypes() throws IOException, URISyntaxException, ClassNotFoundException {
        Path classes = Path.of(Isocheck.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        List<Class<?>> types = new ArrayList<>();
        try (Stream<Path> files = Files.walk(classes)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                String name = classes.relativize(file).toString().replace(file.getFileSystem().getSeparator(), ".");
                name = name.substring(0, name.length() - ".class".length());
                if (name.contains("$") || name.endsWith("package-info")) {
                    continue;
                }
                Class<?> type = Class.forName(name, false, PublicApiTests.class.getClassLoader());
                if (PUBLIC_PACKAGES.contains(type.getPackageName()) && Modifier.isPublic(type.getModifiers())) {
                    types.add(type);
                }
            }
        }
        return types;
    }
}
