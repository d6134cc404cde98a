/*
 * Per-test JaCoCo coverage, for junitbot.validation.testcoverage.
 *
 * A JUnit Platform TestExecutionListener, registered through META-INF/services in the folder junitbot
 * compiles it into, so that folder on the test JVM's class path is all it takes. While a JaCoCo agent runs
 * in that JVM, the listener takes the agent's execution data, resetting it, whenever a test or container
 * starts or finishes, and writes what ran since the previous take to <dir>/<n>.exec (JaCoCo's exec format),
 * adding "<n> TAB <owner>" to <dir>/index.tsv once the file is complete. The owner is what was running:
 *
 *   pkg.TestClass#method  a test method: @BeforeEach, body, @AfterEach and extensions' before/after-each
 *                         callbacks (MockitoExtension creates its mocks and @InjectMocks objects there).
 *                         Every invocation of a parameterized or repeated method, and the dynamic tests of a
 *                         @TestFactory, count under the method's name (overloads share it), as JUnit's XML
 *                         report names them.
 *   pkg.TestClass         the class's own work: @BeforeAll, @AfterAll, static initialisers they trigger, and
 *                         each test instance's construction (constructor, field initialisers), which JUnit
 *                         does before it reports the test started. Shared by the class's tests, so no reason
 *                         to keep any one of them.
 *   (empty)               work outside any test class (discovery, the engine).
 *
 * Owners come from the test's source (MethodSource, ClassSource): class names are binary names, so a
 * @Nested class is pkg.Outer$Inner. A take with no probe hit writes nothing. Because every take resets the
 * agent, the agent's own destfile holds only what ran after the last one: the union of the files written
 * here is the run's coverage.
 *
 * The folder is JUnit's configuration parameter junitbot.coverage.dir (--config junitbot.coverage.dir=DIR);
 * without it, or without a JaCoCo agent (org.jacoco.agent.rt.RT) in the JVM, the listener does nothing, and
 * an I/O error turns it off with one line on stderr: coverage is lost, never the test run. Tests must run
 * one at a time (junit.jupiter.execution.parallel.enabled=false): concurrent tests' work would mix, and so
 * does work a test's own threads do after it finished.
 */

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Optional;

import org.jacoco.agent.rt.RT;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.TestSource;
import org.junit.platform.engine.support.descriptor.ClassSource;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.TestPlan;

public final class PerTestCoverage implements TestExecutionListener {

    static final String DIR_PARAMETER = "junitbot.coverage.dir";
    private static final String INDEX = "index.tsv";

    private Path dir;
    private OutputStream index;
    private int next;
    private final Deque<String> owners = new ArrayDeque<>();

    @Override
    public synchronized void testPlanExecutionStarted(TestPlan testPlan) {
        close();
        Optional<String> configured = testPlan.getConfigurationParameters().get(DIR_PARAMETER);
        if (!configured.isPresent()) {
            return;
        }
        if (!Agent.present()) {
            System.err.println("junitbot PerTestCoverage: no JaCoCo agent in this JVM; per-test coverage not recorded");
            return;
        }
        try {
            dir = Paths.get(configured.get());
            Files.createDirectories(dir);
            index = Files.newOutputStream(dir.resolve(INDEX));
            next = 0;
        } catch (IOException | RuntimeException e) {
            fail(e);
            return;
        }
        write("");  // what ran before the tests (discovery)
    }

    @Override
    public synchronized void executionStarted(TestIdentifier testIdentifier) {
        if (dir == null) {
            return;
        }
        write(currentOwner());
        String owner = owner(testIdentifier);
        owners.push(owner != null ? owner : currentOwner());
    }

    @Override
    public synchronized void executionFinished(TestIdentifier testIdentifier, TestExecutionResult result) {
        if (dir == null) {
            return;
        }
        write(currentOwner());
        owners.poll();
    }

    @Override
    public synchronized void testPlanExecutionFinished(TestPlan testPlan) {
        if (dir != null) {
            write(currentOwner());
        }
        close();
    }

    private String currentOwner() {
        String owner = owners.peek();
        return owner != null ? owner : "";
    }

    /** The test method (class#method) or class a node stands for; null for one with neither as its source. */
    private static String owner(TestIdentifier testIdentifier) {
        TestSource source = testIdentifier.getSource().orElse(null);
        if (source instanceof MethodSource) {
            MethodSource method = (MethodSource) source;
            return method.getClassName() + "#" + method.getMethodName();
        }
        if (source instanceof ClassSource) {
            return ((ClassSource) source).getClassName();
        }
        return null;
    }

    /** Takes the agent's data since the last take and, when a probe was hit, writes it for `owner`. */
    private void write(String owner) {
        try {
            byte[] data = Agent.take();
            if (data == null || !hasExecutionData(data)) {
                return;
            }
            int n = next++;
            Files.write(dir.resolve(n + ".exec"), data);
            // Only after the file is complete: an index line always names a whole file.
            index.write((n + "\t" + owner + "\n").getBytes(StandardCharsets.UTF_8));
            index.flush();
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    /**
     * Whether exec data holds an execution data block: past its header block (5 bytes) and the session info
     * block (tag, modified UTF-8 id with a 2-byte length, two longs), which every take writes first.
     */
    private static boolean hasExecutionData(byte[] data) {
        if (data.length < 8 || data[5] != 0x10) {
            return true;  // not the expected layout: keep it, the reader judges
        }
        int idLength = ((data[6] & 0xff) << 8) | (data[7] & 0xff);
        return data.length > 8 + idLength + 16;
    }

    private void fail(Exception e) {
        System.err.println("junitbot PerTestCoverage: per-test coverage stopped: " + e);
        close();
    }

    private void close() {
        dir = null;
        owners.clear();
        if (index != null) {
            try {
                index.close();
            } catch (IOException e) {
                System.err.println("junitbot PerTestCoverage: " + e);
            }
            index = null;
        }
    }

    /** The JaCoCo agent's runtime API, touched only here, so that without the agent only a take fails. */
    private static final class Agent {

        private Agent() {
        }

        static boolean present() {
            try {
                return RT.getAgent() != null;
            } catch (IllegalStateException | LinkageError e) {
                return false;
            }
        }

        /** The agent's execution data since the last take (then reset), or null without an agent. */
        static byte[] take() {
            try {
                return RT.getAgent().getExecutionData(true);
            } catch (IllegalStateException | LinkageError e) {
                return null;  // no agent started (IllegalStateException) or none on the class path at all
            }
        }
    }
}
