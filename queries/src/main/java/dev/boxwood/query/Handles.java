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
 * taking it throws {@link IllegalArgumentException}, and {@code contains} answers {@code false}.
 *
 * <p><b>Quarantine.</b> Seven bits of generation only tell 128 uses of a slot apart: were a freed slot reused at
 * once, a stale handle would name a new object after 128 add/remove cycles (a pool of projectiles added and removed
 * one at a time, an AI still holding the handle of its dead target, which then silently becomes another object).
 * So freed slots wait, first-in first-out, and one is reused only while at least {@link #QUARANTINE} slots are free;
 * otherwise a fresh slot is taken. A freed slot then comes back only after {@code QUARANTINE - 1} other removals at
 * least, and its generation wraps only after 128 such rounds: <b>a stale handle cannot name another object before
 * {@code 128 * QUARANTINE} removals (131,072) have been made since its own removal, that one included</b>, however
 * few objects are alive. The bound is reached exactly by one object added and removed over and over. The price is
 * memory: a world that removes objects keeps up to {@code QUARANTINE} slots more than it has live objects (about
 * 76 KB in the dynamic tree, whose per-object arrays cost 76 bytes a slot with the moved-pairs buffer).
 * The quarantine gives way only when the slots run out: once all {@code MAX_SLOTS - 1} usable slots have been used,
 * the oldest free slot is reused even if fewer than {@code QUARANTINE} are free, so an add never fails for the
 * quarantine's sake (the promise then holds only while at most {@code MAX_SLOTS - 1 - QUARANTINE} objects are
 * alive, which leaves at least {@code QUARANTINE} free). Slots are never given back (an index's {@code clear()} frees
 * every live slot; the per-slot arrays are never shortened), so the waiting slots survive every operation.
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
    /**
     * Free slots that must be waiting before the oldest of them is reused (see the class comment): a stale handle
     * cannot name another object before {@code 128 * QUARANTINE} removals. 1024 makes that 131,072 (more than half
     * an hour of one removal per frame at 60 frames a second) for at most 1024 spare slots, about 76 KB per tree;
     * 4096 would make a tree that removes objects keep about 300 KB of spare slots, which a program holding many
     * small trees (one per streamed tile, say) pays per tree.
     */
    public static final int QUARANTINE = 1024;

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
     * Allocates a handle: the oldest freed slot if at least {@link #QUARANTINE} slots are free, or if every usable
     * slot has been used; else a fresh one. The caller must make its own per-slot arrays at least
     * {@link #capacity()} long afterwards.
     *
     * @return the new handle
     * @throws IllegalStateException if {@code MAX_SLOTS - 1} objects are already alive
     */
    public int allocate() {
        int slot;
        // used - live is the number of free slots; past the last fresh slot the quarantine gives way
        if (freeHead != END && (used - live >= QUARANTINE || used == MAX_SLOTS - 1)) {
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
            if (handle < 0) {
                // its low bits would name a slot that has nothing to do with it
                throw new IllegalArgumentException(argumentName + " " + handle + " is not a live handle: handles are"
                        + " never negative");
            }
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
     * Checks the allocator's invariants: the free list visits every free slot once, and the counts agree (free
     * slots and live ones make up the slots used, none beyond {@code MAX_SLOTS - 1}). The quarantine is a rule of
     * {@link #allocate()} about the free count, which the counts give, so it needs no state of its own to check.
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
        if (used > MAX_SLOTS - 1) {
            throw new IllegalStateException("handles: " + used + " slots used, more than " + (MAX_SLOTS - 1));
        }
        if (freeCount + live != used) {
            throw new IllegalStateException("handles: " + freeCount + " free + " + live + " live != " + used + " used");
        }
    }
}
