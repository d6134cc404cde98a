import java.util.Collections;
import java.util.Comparator;
import org.junit.jupiter.api.ClassDescriptor;
import org.junit.jupiter.api.ClassOrderer;
import org.junit.jupiter.api.ClassOrdererContext;

/** Test classes in reverse name order (Jupiter 5.8 and later). */
public class ReversedClassOrder implements ClassOrderer {
    @Override
    public void orderClasses(ClassOrdererContext context) {
        Collections.sort(context.getClassDescriptors(), Collections.reverseOrder(
                Comparator.comparing((ClassDescriptor d) -> d.getTestClass().getName())));
    }
}
