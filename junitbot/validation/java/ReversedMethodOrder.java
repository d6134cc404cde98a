import java.util.Collections;
import java.util.Comparator;
import org.junit.jupiter.api.MethodDescriptor;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.MethodOrdererContext;

/** Test methods in reverse name order: a repetition that runs them the other way round from the first run. */
public class ReversedMethodOrder implements MethodOrderer {
    @Override
    public void orderMethods(MethodOrdererContext context) {
        Collections.sort(context.getMethodDescriptors(), Collections.reverseOrder(
                Comparator.comparing((MethodDescriptor d) -> d.getMethod().getName())
                        .thenComparing(d -> d.getMethod().toString())));
    }
}
