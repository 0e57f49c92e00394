package dev.boxwood.index;

/**
 * The stack discipline of the ordered casts (the ray cast of {@link DynamicAabbTree} and the sweeps of
 * {@link SweepQueries}): the stack holds (reference, entry fraction) pairs in the caller's
 * {@link dev.boxwood.query.TraversalStack}; of a node's two children the nearer is pushed last, so it is popped
 * next (front-to-back order, as Jolt and Box2D cast), and entries beyond a clip are dropped when popped. A small
 * static method, inlined by the JIT, so the hot loops pay no call.
 */
final class OrderedCast {

    private OrderedCast() {
    }

    /**
     * Pushes the children a cast enters ({@code t >= 0}; a miss is {@link dev.boxwood.geom.Geom#NO_HIT}), the
     * farther first; on equal fractions child 0 is popped first.
     *
     * @return the new stack size
     */
    static int pushNearLast(int[] st, double[] sf, int sp, int ref0, double t0, int ref1, double t1) {
        if (t0 >= 0) {
            if (t1 >= 0) {
                if (t1 < t0) {
                    st[sp] = ref0;
                    sf[sp++] = t0;
                    st[sp] = ref1;
                    sf[sp++] = t1;
                } else {
                    st[sp] = ref1;
                    sf[sp++] = t1;
                    st[sp] = ref0;
                    sf[sp++] = t0;
                }
            } else {
                st[sp] = ref0;
                sf[sp++] = t0;
            }
        } else if (t1 >= 0) {
            st[sp] = ref1;
            sf[sp++] = t1;
        }
        return sp;
    }
}
