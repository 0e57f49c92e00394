package dev.boxwood.serial;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.Test;

class ReaderCountTest {

    @Test
    void shouldReleaseOnceWhenTheLastReaderLeavesAfterClose() {
        AtomicInteger releases = new AtomicInteger();
        ReaderCount readers = new ReaderCount(releases::incrementAndGet);
        int a = readers.enter();
        int b = readers.enter();
        assertTrue(a >= 0 && b >= 0);
        readers.close();
        assertTrue(readers.isClosed());
        assertEquals(-1, readers.enter(), "no new readers once closed");
        readers.exit(a);
        assertEquals(0, releases.get(), "a reader is still inside");
        assertFalse(readers.isReleased());
        readers.exit(b);
        assertEquals(1, releases.get());
        assertTrue(readers.isReleased());
        readers.close();
        assertEquals(-1, readers.enter());
        assertEquals(1, releases.get(), "released once");
    }

    @Test
    void shouldReleaseAtOnceWhenClosedWithoutReaders() {
        AtomicInteger releases = new AtomicInteger();
        ReaderCount readers = new ReaderCount(releases::incrementAndGet);
        readers.exit(readers.enter());
        assertEquals(0, releases.get());
        readers.close();
        assertEquals(1, releases.get());
    }

    @Test
    void shouldNeverReleaseUnderAReaderWhenClosedFromAnotherThread() throws InterruptedException {
        for (int round = 0; round < 200; round++) {
            AtomicBoolean released = new AtomicBoolean();
            AtomicInteger violations = new AtomicInteger();
            AtomicInteger releases = new AtomicInteger();
            ReaderCount readers = new ReaderCount(() -> {
                releases.incrementAndGet();
                released.set(true);
            });
            int threads = 3;
            CountDownLatch started = new CountDownLatch(threads);
            Thread[] workers = new Thread[threads];
            for (int t = 0; t < threads; t++) {
                workers[t] = new Thread(() -> {
                    started.countDown();
                    while (true) {
                        int cell = readers.enter();
                        if (cell < 0) {
                            return;
                        }
                        // a reader inside must never see the release
                        for (int i = 0; i < 50; i++) {
                            if (released.get()) {
                                violations.incrementAndGet();
                            }
                        }
                        readers.exit(cell);
                    }
                });
                workers[t].start();
            }
            started.await();
            readers.close();
            for (Thread w : workers) {
                w.join();
            }
            assertEquals(0, violations.get(), "round " + round);
            assertEquals(1, releases.get(), "round " + round);
        }
    }
}
