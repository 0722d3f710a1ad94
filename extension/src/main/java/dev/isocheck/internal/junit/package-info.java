/**
 * The JUnit Jupiter side of {@link dev.isocheck.SerializableCheck}: the configuration read from
 * configuration parameters, the recording of one test method, and the check after it. Input: the
 * test's {@link org.junit.jupiter.api.extension.ExtensionContext} and what its connections
 * recorded; output: the verdict, the report and history files, and the failure to throw.
 *
 * <p><strong>Internal.</strong> This package is not API: it may change at any time without notice,
 * and using it from outside isocheck is not supported.
 */
package dev.isocheck.internal.junit;
