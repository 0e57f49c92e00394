package dev.boxwood.bench.peers;

import dev.boxwood.geom.SegmentAabb;
import dev.boxwood.testkit.scenes.BoxSet;
import dev.boxwood.testkit.scenes.SegmentSet;

/**
 * Compares a contender's answers with a reference's (the brute-force scan) on the same boxes: the box queries'
 * counts, the closest hit's fraction and the entry fraction of the box it names (ties may name another box), and
 * whether an any-hit cast hits, and a box it really enters. The agreement test runs it on small worlds and the
 * levels; the query benchmarks run it on a sample of their own queries before anything is timed, so no figure is
 * ever published for an index that answers differently.
 */
final class AnswerCheck {

    private AnswerCheck() {
    }

    /**
     * Checks the first {@code limit} box queries and segments (or all of them, if fewer).
     *
     * @return the number of checked segments that hit something
     * @throws IllegalStateException naming {@code what}, the query and both answers, at the first disagreement
     */
    static int compare(Contender c, Contender reference, BoxSet boxes, BoxSet q, SegmentSet s, int limit,
                       String what) {
        for (int k = 0; k < Math.min(limit, q.size()); k++) {
            // the boxes, not only their count: a box reported twice in place of a missed one counts right
            int[] expected = reference.listOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k],
                    q.maxZ[k]);
            int[] actual = c.listOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]);
            require(java.util.Arrays.equals(expected, actual), what, "box query " + k + " reports "
                    + actual.length + " boxes " + java.util.Arrays.toString(actual) + ", expected "
                    + java.util.Arrays.toString(expected));
            // and the count the benchmarks time
            int count = c.countOverlaps(q.minX[k], q.minY[k], q.minZ[k], q.maxX[k], q.maxY[k], q.maxZ[k]);
            require(count == expected.length, what, "box query " + k + " counts " + count + " boxes, expected "
                    + expected.length);
        }
        int hits = 0;
        for (int k = 0; k < Math.min(limit, s.size()); k++) {
            double ox = s.originX[k];
            double oy = s.originY[k];
            double oz = s.originZ[k];
            double tx = s.translationX[k];
            double ty = s.translationY[k];
            double tz = s.translationZ[k];
            double expected = reference.castClosest(ox, oy, oz, tx, ty, tz);
            double actual = c.castClosest(ox, oy, oz, tx, ty, tz);
            String segment = "segment " + k;
            require(Double.compare(expected, actual) == 0, what,
                    segment + ": closest fraction " + actual + ", expected " + expected);
            if (expected >= 0) {
                hits++;
                double entry = entry(boxes, c.closestIndex(), ox, oy, oz, tx, ty, tz, what, segment);
                require(Double.compare(expected, entry) == 0, what,
                        segment + ": the closest box " + c.closestIndex() + " is entered at " + entry);
            } else {
                require(c.closestIndex() == -1, what, segment + ": closest index " + c.closestIndex() + " after a miss");
            }
            int any = c.castAny(ox, oy, oz, tx, ty, tz);
            require(expected >= 0 == any >= 0, what, segment + ": any-hit " + any + ", closest fraction " + expected);
            if (any >= 0) {
                require(entry(boxes, any, ox, oy, oz, tx, ty, tz, what, segment) >= 0, what,
                        segment + ": the any-hit box " + any + " is not entered");
            }
        }
        return hits;
    }

    private static double entry(BoxSet b, int i, double ox, double oy, double oz, double tx, double ty, double tz,
                                String what, String segment) {
        require(i >= 0 && i < b.size(), what, segment + ": box index " + i + " out of range");
        return SegmentAabb.intersect(ox, oy, oz, tx, ty, tz, 1,
                b.minX[i], b.minY[i], b.minZ[i], b.maxX[i], b.maxY[i], b.maxZ[i]);
    }

    private static void require(boolean agrees, String what, String detail) {
        if (!agrees) {
            throw new IllegalStateException(what + " disagrees with the brute-force answers: " + detail);
        }
    }
}
