package dev.boxwood.serial;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedFile;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;

/** Makes the end of a Chronicle Bytes mapping deterministic. */
final class Unmapping {

    /** Unmappings handed to {@link #later}: the drop of the reservations, then what runs once it is unmapped. */
    private static final LinkedBlockingQueue<Runnable[]> QUEUE = new LinkedBlockingQueue<>();
    /** The library's unmapping thread, started on first use; guarded by the class. */
    private static Thread thread;

    private Unmapping() {
    }

    /**
     * Unmaps {@code store} after its {@code file} has been released by its last user.
     *
     * <p>Chronicle Bytes 2026.4: releasing a single mapped file does not drop the file's own reservation of its
     * store, so the store (and the mapping) would live until the JVM exits: one leaked mapping per open or write,
     * and a server that maps tiles in and out would run into the kernel's limit on mappings. Drop that reservation,
     * then run the pending release now rather than on Chronicle's background thread, so the mapping is gone when
     * this returns. That wait costs a millisecond or more (Chronicle's releaser polls its queue with a timeout and
     * waits for the pending releases of the whole JVM, up to a second).
     *
     * @param store the mapped store
     * @param file  the mapped file it came from, already released by every other owner
     */
    static void release(BytesStore<?, ?> store, MappedFile file) {
        drop(store, file);
        awaitReleases();
    }

    /** The second half of {@link #release}: runs Chronicle's pending releases now, and waits for them. */
    static void awaitReleases() {
        BackgroundResourceReleaser.releasePendingResources();
    }

    /** The first half of {@link #release}: drops the file's reservation of {@code store}, without waiting. */
    static void drop(BytesStore<?, ?> store, MappedFile file) {
        if (store.refCount() > 0) {
            store.release(file);
        }
    }

    /**
     * Hands an unmapping to the library's unmapping thread and returns at once: one daemon thread,
     * {@code boxwood-unmapper}, not Chronicle's background releaser (which a JVM may run without,
     * {@code background.releaser.thread=false}, and which other users of Chronicle share). The thread takes every
     * unmapping waiting, runs their drops in order, then Chronicle's release of the pending resources once for all
     * of them (the wait {@link #release} pays per mapping), then each one's {@code done}: so it keeps up with a
     * query thread that maps and drops tiles thousands of times a second.
     *
     * @param dropping drops the mapping's reservations ({@link #drop} last); its failure is logged
     * @param done     run once the mapping is unmapped (or its drop failed)
     */
    static void later(Runnable dropping, Runnable done) {
        QUEUE.add(new Runnable[] {dropping, done});
        synchronized (Unmapping.class) {
            if (thread == null) {
                thread = new Thread(Unmapping::unmapForever, "boxwood-unmapper");
                thread.setDaemon(true);
                thread.start();
            }
        }
    }

    private static void unmapForever() {
        List<Runnable[]> batch = new ArrayList<>();
        while (true) {
            try {
                batch.add(QUEUE.take());
            } catch (InterruptedException e) {
                // a daemon thread of the library's own: nothing asks it to stop
                continue;
            }
            QUEUE.drainTo(batch);
            for (Runnable[] unmapping : batch) {
                try {
                    unmapping[0].run();
                } catch (RuntimeException | Error e) {
                    System.getLogger(Unmapping.class.getName()).log(System.Logger.Level.WARNING,
                            "an unmapping failed; its mapping may stay until the JVM exits", e);
                }
            }
            try {
                awaitReleases();
            } finally {
                for (Runnable[] unmapping : batch) {
                    unmapping[1].run();
                }
                batch.clear();
            }
        }
    }
}
