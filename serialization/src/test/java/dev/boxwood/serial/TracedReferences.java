package dev.boxwood.serial;

import net.openhft.chronicle.core.io.AbstractReferenceCounted;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Test extension ({@code @ExtendWith(TracedReferences.class)}): traces Chronicle's reference-counted resources during
 * each test and fails the test if a mapping it opened is still held at its end (a world or store not closed).
 */
final class TracedReferences implements BeforeEachCallback, AfterEachCallback {

    @Override
    public void beforeEach(ExtensionContext context) {
        AbstractReferenceCounted.enableReferenceTracing();
    }

    @Override
    public void afterEach(ExtensionContext context) {
        AbstractReferenceCounted.assertReferencesReleased();
    }
}
