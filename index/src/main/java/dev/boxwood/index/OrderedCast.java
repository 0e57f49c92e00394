package dev.boxwood.index;

import dev.boxwood.query.TraversalStack;

/**
 * The stack discipline of the ordered casts (the ray cast of {@link DynamicAabbTree} and the sweeps of
 * {@link SweepQueries}), kept as the tree's entry point to the one shared implementation
 * {@link TraversalStack#pushNearLast} (which the mapped worlds use too).
 */
final class OrderedCast {

    private OrderedCast() {
    }

    /**
     * Pushes the children a cast enters, the farther first ({@link TraversalStack#pushNearLast}).
     *
     * @return the new stack size
     */
    static int pushNearLast(int[] st, double[] sf, int sp, int ref0, double t0, int ref1, double t1) {
        return TraversalStack.pushNearLast(st, sf, sp, ref0, t0, ref1, t1);
    }

    /**
     * Loads the first word a pushed entry will read when popped (its node record, or its object's tight box), at
     * push time, so the misses of a node's two children overlap (see {@link TraversalStack#retain}).
     *
     * @return the word, or 0 for an entry that was not pushed ({@code t} negative)
     */
    static int loadEarly(int[] records, float[] tight, int ref, double t) {
        if (!(t >= 0)) {
            return 0;
        }
        return ref >= 0 ? records[DynamicAabbTree.recordIndex(ref)]
                : (int) tight[DynamicAabbTree.slotOf(ref) * DynamicAabbTree.BOX];
    }
}
