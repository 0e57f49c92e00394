package dev.boxwood.index;

import java.util.Arrays;

/**
 * The slots of the objects added or moved since the last {@link PairQueries#movedPairs} call (the broad phase's
 * move buffer, as Box2D's): a dense array of slots plus, per slot, its position in that array ({@code -1} when not
 * marked), so marking, unmarking and membership are O(1) and a slot is never listed twice. Allocation-free once
 * the arrays have grown to the tree's slot capacity.
 */
final class MovedSet {

    private int[] slots = new int[16];
    private int[] positions = new int[0];
    private int count;

    /** Sizes both arrays for {@code capacity} objects, so that marking that many allocates nothing. */
    void reserve(int capacity) {
        if (capacity > positions.length) {
            int old = positions.length;
            positions = Arrays.copyOf(positions, capacity);
            Arrays.fill(positions, old, capacity, -1);
        }
        if (capacity > slots.length) {
            slots = Arrays.copyOf(slots, capacity);
        }
    }

    /** Marks {@code slot} (no-op when already marked). */
    void mark(int slot) {
        if (slot >= positions.length) {
            int old = positions.length;
            positions = Arrays.copyOf(positions, Math.max(slot + 1, old + (old >> 1) + 16));
            Arrays.fill(positions, old, positions.length, -1);
        }
        if (positions[slot] >= 0) {
            return;
        }
        if (count == slots.length) {
            slots = Arrays.copyOf(slots, 2 * count);
        }
        positions[slot] = count;
        slots[count++] = slot;
    }

    /** Unmarks {@code slot} (no-op when not marked): the last listed slot takes its place. */
    void unmark(int slot) {
        if (slot >= positions.length) {
            return;
        }
        int p = positions[slot];
        if (p < 0) {
            return;
        }
        int last = slots[--count];
        slots[p] = last;
        positions[last] = p;
        positions[slot] = -1;
    }

    boolean contains(int slot) {
        return slot < positions.length && positions[slot] >= 0;
    }

    /** @return bytes held by the two arrays, as {@link DynamicAabbTree#memoryBytes()} counts them */
    long memoryBytes() {
        return DynamicAabbTree.arrayBytes(slots.length, 4) + DynamicAabbTree.arrayBytes(positions.length, 4);
    }

    int count() {
        return count;
    }

    int slot(int i) {
        return slots[i];
    }

    /** Unmarks every slot. */
    void clear() {
        for (int i = 0; i < count; i++) {
            positions[slots[i]] = -1;
        }
        count = 0;
    }
}
