package dev.boxwood.index;

import static dev.boxwood.index.DynamicAabbTree.f;

/**
 * Incremental optimisation of a {@link DynamicAabbTree} with a work budget per call, after Bittner, Hapala and
 * Havran 2013, "Fast Insertion-Based Optimization of Bounding Volume Hierarchies": pick inefficient internal
 * nodes, take each out of the tree together with its parent, and re-insert its two subtrees with the tree's own
 * branch-and-bound insertion (which then rotates on the way up, Kopta et al. 2012).
 *
 * <p>Selection: the paper ranks all nodes by an inefficiency measure and updates the worst fraction per pass. A
 * per-frame call cannot afford a pass over all nodes, so each call scores the next
 * {@value #SCAN_PER_REINSERTION}{@code  * budget} node indices of a sweep over the node array and re-inserts the
 * {@code budget} worst of them, chosen by quickselect. The sweep steps through the indices by a stride coprime to
 * their number, near that number over the golden ratio (a Weyl sequence): it starts from every node once per
 * {@code nodes / (}{@value #SCAN_PER_REINSERTION}{@code  * budget)} calls, and each call's sample is spread over
 * the whole tree; each node it reaches is then replaced by an ancestor up to {@value #CLIMB_LEVELS}{@code  - 1}
 * levels above it, so that the larger nodes are scored more often. A contiguous window would not be spread: the
 * nodes are in depth-first order (bulk builds, renumbering), where a window of indices is one subtree, one corner
 * of the world. Over a million adds (one step per 64) the
 * window sweep reaches only the first eighth of the indices, and the tree ended 1.0955x a fresh build with it,
 * 1.0878x with the stride. The measure is the paper's combined one: a node's area, times its area over the mean
 * of its children's, times its area over the smaller child's; it is large for big nodes whose children are small
 * or far apart, which is where a rebuild would gain the most.
 *
 * <p>Allocation-free after warm-up: the candidate arrays grow to the largest scan seen, the tree's insertion
 * scratch to its largest search.
 */
final class TreeOptimizer {

    /** Node indices scanned per allowed re-insertion. */
    static final int SCAN_PER_REINSERTION = 8;
    /**
     * A scanned node is replaced by its ancestor 0 to {@code CLIMB_LEVELS - 1} levels up (hashed, uniform), so the
     * sample leans towards the larger nodes above the leaf level, where half of all nodes are. After 1M one-by-one
     * insertions into two clustered worlds the tree ended 1.0843x and 1.0829x a fresh build with this, 1.0968x and
     * 1.0884x without; climbing up to 7 levels did about as well, up to 15 or 31 levels worse.
     */
    static final int CLIMB_LEVELS = 4;

    private final DynamicAabbTree tree;
    /** Next node index to scan, minus one. */
    private int position;
    /** The node range the stride was chosen for, and the stride. */
    private int strideRange = -1;
    private int stride = 1;
    /** Calls so far: mixed into the climbs, so a node index does not climb the same way on every sweep. */
    private long calls;
    /** Inefficiency and node of each candidate scanned by the current call. */
    private double[] keys = new double[16 * SCAN_PER_REINSERTION];
    private int[] nodes = new int[16 * SCAN_PER_REINSERTION];

    TreeOptimizer(DynamicAabbTree tree) {
        this.tree = tree;
    }

    /** See {@link DynamicAabbTree#optimize(int)}. */
    int optimize(int budget) {
        if (budget <= 0 || tree.child(0) < 0) {
            return 0;
        }
        int scan = (int) Math.min((long) budget * SCAN_PER_REINSERTION, tree.nodeHighWater - 1);
        if (keys.length < scan) {
            keys = new double[scan];
            nodes = new int[scan];
        }
        int count = collectCandidates(scan);
        int chosen = Math.min(budget, count);
        selectWorst(count, chosen);
        int done = 0;
        for (int i = 0; i < chosen; i++) {
            // An earlier re-insertion may have freed or moved this node: re-check it.
            if (reinsertable(nodes[i])) {
                reinsert(nodes[i]);
                done++;
            }
        }
        return done;
    }

    /** Scores the next {@code scan} node indices of the sweep; returns the number of candidates among them. */
    private int collectCandidates(int scan) {
        int range = tree.nodeHighWater - 1;
        if (scan <= 0 || range <= 0) {
            return 0;
        }
        if (range != strideRange) {
            strideRange = range;
            stride = coprimeStride(range);
            position %= range;
        }
        int count = 0;
        int p = position;
        for (int i = 0; i < scan; i++) {
            int node = 1 + p;
            if (reinsertable(node)) {
                int climb = (int) ((mix(p + (long) calls * range) >>> 40) % CLIMB_LEVELS);
                for (int c = 0; c < climb; c++) {
                    int up = tree.parentEntries[node] >> 1;
                    if (up == DynamicAabbTree.HEADER || (tree.parentEntries[up] >> 1) == DynamicAabbTree.HEADER) {
                        break;
                    }
                    node = up;
                }
            }
            if (reinsertable(node)) {
                keys[count] = inefficiency(node);
                nodes[count++] = node;
            }
            p += stride;
            if (p >= range) {
                p -= range;
            }
        }
        position = p;
        calls++;
        return count;
    }

    /**
     * The stride of the sweep over {@code range} indices: the first step from {@code range / phi} upwards (odd, then
     * by twos) that is coprime to {@code range}, so that {@code range} steps visit every index once.
     */
    static int coprimeStride(int range) {
        if (range <= 2) {
            return 1;
        }
        int step = (int) (range * 0.6180339887498949) | 1;
        while (gcd(step, range) != 1) {
            step += 2;
        }
        return step % range;
    }

    private static int gcd(int a, int b) {
        while (b != 0) {
            int t = a % b;
            a = b;
            b = t;
        }
        return a;
    }

    /**
     * Moves the {@code k} largest keys of {@code [0, count)} to {@code [0, k)} (Hoare's quickselect, middle pivot):
     * O(count) expected, in place.
     */
    private void selectWorst(int count, int k) {
        int lo = 0;
        int hi = count - 1;
        while (lo < hi && k > lo && k <= hi) {
            double pivot = keys[(lo + hi) >>> 1];
            int i = lo;
            int j = hi;
            while (i <= j) {
                while (keys[i] > pivot) {
                    i++;
                }
                while (keys[j] < pivot) {
                    j--;
                }
                if (i <= j) {
                    swap(i++, j--);
                }
            }
            // Now [lo, j] >= pivot >= [i, hi]; keep narrowing on the side holding the boundary k.
            if (k <= j) {
                hi = j;
            } else if (k >= i) {
                lo = i;
            } else {
                return;
            }
        }
    }

    private void swap(int a, int b) {
        double key = keys[a];
        keys[a] = keys[b];
        keys[b] = key;
        int node = nodes[a];
        nodes[a] = nodes[b];
        nodes[b] = node;
    }

    /** An allocated internal node below the root (its parent is a real node, which the removal takes out too). */
    private boolean reinsertable(int node) {
        return node < tree.nodeHighWater && tree.heights[node] > 0
                && (tree.parentEntries[node] >> 1) != DynamicAabbTree.HEADER;
    }

    /** Bittner et al. 2013, section 4.1: M_area * M_sum * M_min (areas as the tree's cost). */
    private double inefficiency(int node) {
        double area = tree.entryCost(tree.parentEntries[node]);
        double a = tree.entryCost(2 * node);
        double b = tree.entryCost(2 * node + 1);
        double sum = area / Math.max(0.5 * (a + b), Double.MIN_NORMAL);
        double min = area / Math.max(Math.min(a, b), Double.MIN_NORMAL);
        return area * sum * min;
    }

    /**
     * Removes {@code node} and its parent (the parent's other child takes the parent's place), then inserts the
     * node's two subtrees anew, larger first; the two freed nodes are reused by the insertions.
     */
    private void reinsert(int node) {
        DynamicAabbTree t = tree;
        int first = 2 * node;
        int larger = t.entryCost(first) >= t.entryCost(first + 1) ? first : first + 1;
        int refA = t.child(larger);
        int refB = t.child(larger ^ 1);
        int[] r = t.records;
        int maskA = r[DynamicAabbTree.maskIndex(larger)];
        int maskB = r[DynamicAabbTree.maskIndex(larger ^ 1)];
        int oa = DynamicAabbTree.boxIndex(larger);
        float a0 = f(r[oa]), a1 = f(r[oa + 1]), a2 = f(r[oa + 2]), a3 = f(r[oa + 3]), a4 = f(r[oa + 4]), a5 = f(r[oa + 5]);
        int ob = DynamicAabbTree.boxIndex(larger ^ 1);
        float b0 = f(r[ob]), b1 = f(r[ob + 1]), b2 = f(r[ob + 2]), b3 = f(r[ob + 3]), b4 = f(r[ob + 4]), b5 = f(r[ob + 5]);
        // Unlink the node from its parent entry (the parent goes too), then free the node itself.
        t.detachEntry(t.parentEntries[node]);
        t.freeNode(node);
        t.insertReference(refA, maskA, a0, a1, a2, a3, a4, a5);
        t.insertReference(refB, maskB, b0, b1, b2, b3, b4, b5);
    }

    /** SplitMix64's finalizer (Steele, Lea and Flood 2014): a well-spread hash of a counter. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xbf58476d1ce4e5b9L;
        z = (z ^ (z >>> 27)) * 0x94d049bb133111ebL;
        return z ^ (z >>> 31);
    }

    /** Bytes of the scratch arrays. */
    long memoryBytes() {
        return DynamicAabbTree.arrayBytes(keys.length, 8) + DynamicAabbTree.arrayBytes(nodes.length, 4);
    }
}
