package dev.boxwood.serial;

import net.openhft.chronicle.bytes.BytesStore;
import net.openhft.chronicle.bytes.MappedFile;
import net.openhft.chronicle.core.io.BackgroundResourceReleaser;

/** Makes the end of a Chronicle Bytes mapping deterministic. */
final class Unmapping {

    private Unmapping() {
    }

    /**
     * Unmaps {@code store} after its {@code file} has been released by its last user.
     *
     * <p>Chronicle Bytes 2026.4: releasing a single mapped file does not drop the file's own reservation of its
     * store, so the store (and the mapping) would live until the JVM exits: one leaked mapping per open or write,
     * and a server that maps tiles in and out would run into the kernel's limit on mappings. Drop that reservation,
     * then run the pending release now rather than on Chronicle's background thread, so the mapping is gone when
     * this returns.
     *
     * @param store the mapped store
     * @param file  the mapped file it came from, already released by every other owner
     */
    static void release(BytesStore<?, ?> store, MappedFile file) {
        releaseInBackground(store, file);
        awaitBackgroundReleases();
    }

    /**
     * Drops the file's reservation of {@code store}, as {@link #release} does, and leaves the unmapping to Chronicle's
     * background releaser thread, which does it shortly after. Waiting for it costs the caller a few milliseconds
     * (the releaser's queue is polled with a timeout, and drained of every other pending release in the JVM): the
     * price of a deterministic close, which a tile evicted in the middle of a query need not pay.
     *
     * @param store the mapped store
     * @param file  the mapped file it came from, already released by every other owner
     */
    static void releaseInBackground(BytesStore<?, ?> store, MappedFile file) {
        if (store.refCount() > 0) {
            store.release(file);
        }
    }

    /** Waits until every release handed to the background releaser so far, of any mapping, is done. */
    static void awaitBackgroundReleases() {
        BackgroundResourceReleaser.releasePendingResources();
    }
}
