package dev.boxwood.query;

/**
 * Layout of object handles, shared by every index of the library, and the allocator of handles.
 *
 * <p>A handle is a non-negative {@code int}:
 * <pre>
 *  bit 31   30 ........ 24   23 ..................... 0
 *  +-----+------------------+---------------------------+
 *  |  0  | generation (7)   | slot (24)                 |
 *  +-----+------------------+---------------------------+
 * </pre>
 * The slot indexes the index's per-object arrays (so at most {@code MAX_SLOTS - 1} live objects); the generation is
 * bumped each time the slot is freed, so a handle kept after {@code remove} no longer matches and every method
 * taking it throws {@link IllegalArgumentException}. Freed slots are reused first-in first-out, so a slot comes
 * back only after every slot freed before it: a stale handle could alias a new object only at the 128th reuse of
 * its slot (127 more add/remove cycles after its own removal) while the stale handle was still used.
 * {@link #NONE} (-1) is never a handle.
 *
 * <p>Allocation is deterministic: two indexes fed the same sequence of adds and removes hand out the same
 * handles (the differential tests rely on it). Not thread-safe; it belongs to its index's mutation side.
 */
public final class Handles {

    /** A value that is never a handle, used for "no object". */
    public static final int NONE = -1;
    /** Bits of the slot number. */
    public static final int SLOT_BITS = 24;
    /** Number of slots a handle can address (2^24); one fewer objects can be alive at once. */
    public static final int MAX_SLOTS = 1 << SLOT_BITS;
    /** Mask of the slot bits of a handle. */
    public static final int SLOT_MASK = MAX_SLOTS - 1;
    /** Mask of the generation bits of a handle. */
    public static final int GENERATION_MASK = 0x7F << SLOT_BITS;

    private static final int LIVE = 1 << 31;
    private static final int END = SLOT_MASK;

    /** Per slot: LIVE | generation bits for a live slot; generation bits | next free slot for a free one. */
    private int[] state;
    private int used;
    private int live;
    private int freeHead = END;
    private int freeTail = END;

    /**
     * An allocator with room for {@code initialCapacity} slots before it grows.
     *
     * @param initialCapacity initial slot capacity, {@code >= 1}
     */
    public Handles(int initialCapacity) {
        state = new int[Math.max(1, initialCapacity)];
    }

    /**
     * Allocates a handle: the oldest freed slot if any, else a fresh one. The caller must make its own per-slot
     * arrays at least {@link #capacity()} long afterwards.
     *
     * @return the new handle
     * @throws IllegalStateException if {@code MAX_SLOTS - 1} objects are already alive
     */
    public int allocate() {
        int slot;
        if (freeHead != END) {
            slot = freeHead;
            freeHead = state[slot] & SLOT_MASK;
            if (freeHead == END) {
                freeTail = END;
            }
        } else {
            if (used == MAX_SLOTS - 1) {
                throw new IllegalStateException("too many objects: at most " + (MAX_SLOTS - 1) + " are supported");
            }
            slot = used++;
            if (slot == state.length) {
                state = java.util.Arrays.copyOf(state, Math.min(MAX_SLOTS, state.length + (state.length >> 1) + 1));
            }
            state[slot] = 0;
        }
        state[slot] = LIVE | (state[slot] & GENERATION_MASK);
        live++;
        return (state[slot] & GENERATION_MASK) | slot;
    }

    /**
     * Frees the handle's slot and bumps its generation.
     *
     * @param handle a live handle
     * @throws IllegalArgumentException if the handle is not live
     */
    public void free(int handle) {
        int slot = slotOf(handle, "handle");
        int generation = (state[slot] + (1 << SLOT_BITS)) & GENERATION_MASK;
        state[slot] = generation | END;
        if (freeTail == END) {
            freeHead = slot;
        } else {
            state[freeTail] = (state[freeTail] & GENERATION_MASK) | slot;
        }
        freeTail = slot;
        live--;
    }

    /**
     * Whether {@code handle} names a live object.
     *
     * @param handle any int
     * @return {@code true} if it was returned by {@link #allocate()} and not freed since
     */
    public boolean isLive(int handle) {
        int slot = handle & SLOT_MASK;
        return handle >= 0 && slot < used && state[slot] == (LIVE | (handle & GENERATION_MASK));
    }

    /**
     * The slot of a live handle.
     *
     * @param handle the handle to check
     * @param argumentName the name used in the exception message
     * @return its slot
     * @throws IllegalArgumentException naming the argument if the handle is not live (stale, removed, never issued)
     */
    public int slotOf(int handle, String argumentName) {
        if (!isLive(handle)) {
            throw new IllegalArgumentException(argumentName + " " + handle + " (slot " + (handle & SLOT_MASK)
                    + ", generation " + ((handle & GENERATION_MASK) >>> SLOT_BITS) + ") is not a live handle:"
                    + " it was removed, or never issued by this index");
        }
        return handle & SLOT_MASK;
    }

    /**
     * The handle of a live slot; for indexes reporting the objects they store.
     *
     * @param slot a live slot
     * @return its handle
     */
    public int handleOf(int slot) {
        return (state[slot] & GENERATION_MASK) | slot;
    }

    /**
     * Whether a slot currently holds a live object.
     *
     * @param slot a slot in {@code [0, highWater())}
     * @return {@code true} if live
     */
    public boolean isLiveSlot(int slot) {
        return state[slot] < 0;
    }

    /** @return the number of live handles */
    public int size() {
        return live;
    }

    /** @return the number of slots ever used: every live slot is below it */
    public int highWater() {
        return used;
    }

    /** @return the length the callers' per-slot arrays need */
    public int capacity() {
        return state.length;
    }

    /** @return bytes held by this allocator's arrays (estimate: 16-byte array header) */
    public long memoryBytes() {
        return 16L + 4L * state.length;
    }

    /**
     * Makes this allocator an exact copy of {@code source} (same live slots, generations and free list), reusing
     * this one's array when it is large enough; copies the used prefix only. For read-only snapshots of an index.
     *
     * @param source the allocator to copy
     */
    public void copyFrom(Handles source) {
        if (state.length < source.used) {
            state = new int[source.state.length];
        }
        System.arraycopy(source.state, 0, state, 0, source.used);
        used = source.used;
        live = source.live;
        freeHead = source.freeHead;
        freeTail = source.freeTail;
    }

    /**
     * Checks the allocator's invariants: the free list visits every free slot once, in order, and the counts
     * agree.
     *
     * @throws IllegalStateException describing the first broken invariant
     */
    public void validate() {
        int liveCount = 0;
        for (int s = 0; s < used; s++) {
            if (state[s] < 0) {
                liveCount++;
            }
        }
        if (liveCount != live) {
            throw new IllegalStateException("handles: " + liveCount + " live slots but size is " + live);
        }
        int freeCount = 0;
        int last = END;
        for (int s = freeHead; s != END; s = state[s] & SLOT_MASK) {
            if (s >= used || state[s] < 0) {
                throw new IllegalStateException("handles: free list reaches slot " + s + " which is not free");
            }
            if (++freeCount > used) {
                throw new IllegalStateException("handles: free list has a cycle");
            }
            last = s;
        }
        if (last != freeTail) {
            throw new IllegalStateException("handles: free list tail is " + freeTail + " but the list ends at " + last);
        }
        if (freeCount + live != used) {
            throw new IllegalStateException("handles: " + freeCount + " free + " + live + " live != " + used + " used");
        }
    }
}
