/*
 * Prints JaCoCo's coverage of compiled classes as JSON on stdout, for junitbot.validation.jacoco.
 *
 * Usage: java -cp <this dir>:org.jacoco.core.jar:asm*.jar CoverageDump EXEC_FILE... -- PATH... [--- EXEC_FILE... -- PATH...]...
 *    or: java -cp <this dir>:org.jacoco.cli-<version>-nodeps.jar CoverageDump EXEC_FILE... -- PATH... [--- ...]...
 * (the nodeps jar relocates org.jacoco.core: junitbot points the imports below at the package the
 * jars hold before compiling).
 * PATH: class directories, jars or single class files, analysed against the probes of the EXEC_FILEs,
 * which are merged as JaCoCo merges them (a probe counts if any file has it).
 * With `-` alone, the arguments are read from stdin, one a line (a run's questions can pass the command
 * line's limit). Each group between `---` is one analysis, printed as one JSON line, in order: one JVM answers a whole
 * run's questions (each class's coverage, alone and merged with the existing tests').
 * Uses only JaCoCo's public analysis API, so the figures are JaCoCo's own. A class file this JaCoCo
 * cannot read (a sealed type's PermittedSubclasses before JaCoCo 0.8.7) is listed under "failed"
 * and the others are still analysed.
 */

import java.io.File;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;

import org.jacoco.core.analysis.Analyzer;
import org.jacoco.core.analysis.CoverageBuilder;
import org.jacoco.core.analysis.IClassCoverage;
import org.jacoco.core.analysis.ICounter;
import org.jacoco.core.analysis.ILine;
import org.jacoco.core.analysis.IMethodCoverage;
import org.jacoco.core.tools.ExecFileLoader;

public final class CoverageDump {

    private CoverageDump() {
    }

    public static void main(String[] arguments) throws IOException {
        String[] args = arguments;
        if (args.length == 1 && args[0].equals("-")) {
            // The arguments one a line on stdin: a run's questions can pass the command line's limit.
            java.io.BufferedReader in = new java.io.BufferedReader(
                new java.io.InputStreamReader(System.in, StandardCharsets.UTF_8));
            args = in.lines().filter(line -> !line.isEmpty()).toArray(String[]::new);
        }
        List<List<String>> groups = new ArrayList<>();
        groups.add(new ArrayList<>());
        for (String arg : args) {
            if (arg.equals("---")) {
                groups.add(new ArrayList<>());
            } else {
                groups.get(groups.size() - 1).add(arg);
            }
        }
        for (List<String> group : groups) {
            int separator = group.indexOf("--");
            if (separator < 1 || separator == group.size() - 1) {
                System.err.println("usage: CoverageDump EXEC_FILE... -- PATH... [--- EXEC_FILE... -- PATH...]...");
                System.exit(2);
            }
        }
        PrintStream stdout = new PrintStream(System.out, false, StandardCharsets.UTF_8);
        for (List<String> group : groups) {
            stdout.print(dump(group, group.indexOf("--")));
        }
        stdout.flush();
    }

    private static String dump(List<String> args, int separator) throws IOException {
        ExecFileLoader loader = new ExecFileLoader();
        for (int i = 0; i < separator; i++) {
            loader.load(new File(args.get(i)));
        }
        CoverageBuilder builder = new CoverageBuilder();
        Analyzer analyzer = new Analyzer(loader.getExecutionDataStore(), builder);
        List<String> failed = new ArrayList<>();
        for (int i = separator + 1; i < args.size(); i++) {
            analyze(analyzer, new File(args.get(i)), failed);
        }
        StringBuilder out = new StringBuilder();
        out.append("{\"classes\":[");
        List<IClassCoverage> classes = sorted(builder.getClasses());
        for (int i = 0; i < classes.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            appendClass(out, classes.get(i));
        }
        out.append("],\"mismatched\":[");
        List<IClassCoverage> mismatched = sorted(builder.getNoMatchClasses());
        for (int i = 0; i < mismatched.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            appendString(out, mismatched.get(i).getName());
        }
        out.append("],\"failed\":[");
        for (int i = 0; i < failed.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            appendString(out, failed.get(i));
        }
        out.append("]}\n");
        return out.toString();
    }

    private static void analyze(Analyzer analyzer, File file, List<String> failed) {
        if (file.isDirectory()) {
            File[] children = file.listFiles();
            if (children != null) {
                Arrays.sort(children);
                for (File child : children) {
                    analyze(analyzer, child, failed);
                }
            }
            return;
        }
        try {
            analyzer.analyzeAll(file);
        } catch (IOException | RuntimeException e) {
            failed.add(file.getPath());
        }
    }

    private static List<IClassCoverage> sorted(Collection<IClassCoverage> classes) {
        List<IClassCoverage> list = new ArrayList<>(classes);
        list.sort(Comparator.comparing(IClassCoverage::getName));
        return list;
    }

    private static void appendClass(StringBuilder out, IClassCoverage cc) {
        out.append("{\"name\":");
        appendString(out, cc.getName());
        out.append(",\"source\":");
        appendString(out, cc.getSourceFileName());
        out.append(",\"lines\":");
        appendCounter(out, cc.getLineCounter());
        out.append(",\"branches\":");
        appendCounter(out, cc.getBranchCounter());
        out.append(",\"methods\":[");
        boolean first = true;
        for (IMethodCoverage mc : cc.getMethods()) {
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append("{\"name\":");
            appendString(out, mc.getName());
            out.append(",\"desc\":");
            appendString(out, mc.getDesc());
            out.append(",\"first_line\":").append(mc.getFirstLine());
            out.append(",\"lines\":");
            appendCounter(out, mc.getLineCounter());
            out.append(",\"branches\":");
            appendCounter(out, mc.getBranchCounter());
            out.append('}');
        }
        // One [line, status, missed branches, covered branches] per line that has code;
        // status is ICounter's: 1 not covered, 2 fully covered, 3 partly covered.
        out.append("],\"line_status\":[");
        first = true;
        for (int nr = cc.getFirstLine(); nr > 0 && nr <= cc.getLastLine(); nr++) {
            ILine line = cc.getLine(nr);
            if (line.getStatus() == ICounter.EMPTY) {
                continue;
            }
            if (!first) {
                out.append(',');
            }
            first = false;
            out.append('[').append(nr).append(',').append(line.getStatus()).append(',')
                .append(line.getBranchCounter().getMissedCount()).append(',')
                .append(line.getBranchCounter().getCoveredCount()).append(']');
        }
        out.append("]}");
    }

    private static void appendCounter(StringBuilder out, ICounter counter) {
        out.append("{\"covered\":").append(counter.getCoveredCount())
            .append(",\"missed\":").append(counter.getMissedCount()).append('}');
    }

    private static void appendString(StringBuilder out, String value) {
        if (value == null) {
            out.append("null");
            return;
        }
        out.append('"');
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20) {
                out.append(String.format("\\u%04x", (int) c));
            } else {
                out.append(c);
            }
        }
        out.append('"');
    }
}
