package dev.boxwood.testkit;

import dev.boxwood.query.AllHits;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.SingleHitCollector;

import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Predicate;
import java.util.function.ToIntFunction;

/**
 * Compares what an index reported with an {@link ExactOracle}, throwing {@link AssertionError} with the details of
 * the first disagreement. Counters of decided and tolerated objects are kept for reports.
 */
public final class ExactChecks {

    /** Objects the oracle decided (MUST or MUST_NOT) and the index agreed with. */
    public long decided;
    /** Objects in a tolerance band (MAY). */
    public long tolerated;
    /** Objects reported. */
    public long reported;
    /** Casts checked. */
    public long casts;
    /** Hits within the robust slab band that the exact test misses. */
    public long slabExtras;

    /**
     * The keys an overlap collector holds.
     *
     * @param found the collector
     * @return part << 32 | handle of each result
     */
    public static Set<Long> keys(AllOverlaps found) {
        Set<Long> s = new HashSet<>();
        for (int i = 0; i < found.count(); i++) {
            long key = (long) Math.max(found.part(i), 0) << 32 | (found.handle(i) & 0xFFFFFFFFL);
            if (!s.add(key)) {
                throw new AssertionError("reported twice: " + describe(key));
            }
        }
        return s;
    }

    static String describe(long key) {
        return "part " + (key >>> 32) + " handle " + (int) key;
    }

    /**
     * Checks a region query's results object by object.
     *
     * @param what a description of the query
     * @param oracle the oracle
     * @param found the index's results
     * @param eligible which objects take part (categories, filter)
     * @param expected the oracle's verdict per object
     */
    public void overlaps(String what, ExactOracle oracle, AllOverlaps found, Predicate<ExactOracle.Entry> eligible,
                         ToIntFunction<ExactOracle.Entry> expected) {
        Set<Long> got = keys(found);
        reported += got.size();
        int matched = 0;
        for (ExactOracle.Entry e : oracle.entries()) {
            boolean in = got.contains(e.key());
            if (in) {
                matched++;
            }
            int verdict = eligible.test(e) ? expected.applyAsInt(e) : ExactOracle.MUST_NOT;
            if (verdict == ExactOracle.MUST && !in) {
                throw new AssertionError(what + ": missed " + describe(e.key()) + " box "
                        + java.util.Arrays.toString(e.box));
            }
            if (verdict == ExactOracle.MUST_NOT && in) {
                throw new AssertionError(what + ": wrongly reported " + describe(e.key()) + " box "
                        + java.util.Arrays.toString(e.box));
            }
            if (verdict == ExactOracle.MAY) {
                tolerated++;
            } else {
                decided++;
            }
        }
        if (matched != got.size()) {
            throw new AssertionError(what + ": reported objects the index does not hold");
        }
    }

    /** The exact results of one cast against every eligible object. */
    private Map<Long, ExactGeometry.SegmentResult> exact(ExactOracle oracle, double[] o, double[] d, double maxF,
                                                         Predicate<ExactOracle.Entry> eligible) {
        Map<Long, ExactGeometry.SegmentResult> m = new HashMap<>();
        for (ExactOracle.Entry e : oracle.entries()) {
            if (eligible.test(e)) {
                m.put(e.key(), oracle.segment(e, o[0], o[1], o[2], d, maxF));
            }
        }
        return m;
    }

    private void fraction(String what, long key, double reported, ExactGeometry.SegmentResult r) {
        if (!r.hit) {
            if (!(r.relativeMiss() <= ExactOracle.SLAB_BAND)) {
                throw new AssertionError(what + ": reported " + describe(key) + " at " + reported
                        + " but the segment misses it (entry " + r.entry + ", exit " + r.exit + ")");
            }
            slabExtras++;
            return;
        }
        if (!ExactGeometry.fractionAgrees(reported, r.entry, 8, 0.0)) {
            throw new AssertionError(what + ": " + describe(key) + " reported at fraction " + reported
                    + ", exact entry " + r.entry);
        }
    }

    /**
     * Checks an {@link AllHits} cast: every exact hit reported once with its fraction, extras only within the
     * robust band.
     *
     * @param what description
     * @param oracle oracle
     * @param hits the results
     * @param o origin (world)
     * @param d translation
     * @param maxF max fraction
     * @param eligible which objects take part (categories, ignored, filter)
     */
    public void allHits(String what, ExactOracle oracle, AllHits hits, double[] o, double[] d, double maxF,
                        Predicate<ExactOracle.Entry> eligible) {
        casts++;
        Map<Long, ExactGeometry.SegmentResult> m = exact(oracle, o, d, maxF, eligible);
        Set<Long> got = new HashSet<>();
        for (int i = 0; i < hits.count(); i++) {
            long key = (long) Math.max(hits.part(i), 0) << 32 | (hits.handle(i) & 0xFFFFFFFFL);
            if (!got.add(key)) {
                throw new AssertionError(what + ": hit twice " + describe(key));
            }
            ExactGeometry.SegmentResult r = m.get(key);
            if (r == null) {
                throw new AssertionError(what + ": reported an ineligible object " + describe(key));
            }
            fraction(what, key, hits.fraction(i), r);
        }
        reported += got.size();
        for (Map.Entry<Long, ExactGeometry.SegmentResult> en : m.entrySet()) {
            if (en.getValue().hit && !got.contains(en.getKey())) {
                throw new AssertionError(what + ": missed " + describe(en.getKey()) + " entered at "
                        + en.getValue().entry);
            }
            decided++;
        }
    }

    /**
     * Checks a {@link dev.boxwood.query.ClosestHit} (closest = true) or {@link dev.boxwood.query.AnyHit} cast.
     * Closest: the reported object's fraction agrees with its exact entry and no exact hit lies before it by more
     * than rounding; among objects whose exact entries tie with it through the same entry plane (which every index
     * rounds alike) it has the lowest (part, handle). Any: a hit iff there is one (up to the robust band).
     *
     * @param what description
     * @param oracle oracle
     * @param hit the collector after the cast
     * @param closest whether it is a closest-hit cast
     * @param o origin (world)
     * @param d translation
     * @param maxF max fraction
     * @param eligible which objects take part
     */
    public void singleHit(String what, ExactOracle oracle, SingleHitCollector hit, boolean closest, double[] o,
                          double[] d, double maxF, Predicate<ExactOracle.Entry> eligible) {
        casts++;
        Map<Long, ExactGeometry.SegmentResult> m = exact(oracle, o, d, maxF, eligible);
        ExactGeometry.SegmentResult best = null;
        long bestKey = -1;
        for (Map.Entry<Long, ExactGeometry.SegmentResult> en : m.entrySet()) {
            ExactGeometry.SegmentResult r = en.getValue();
            if (r.hit && (best == null || r.entry.compareTo(best.entry) < 0
                    || r.entry.compareTo(best.entry) == 0 && en.getKey() < bestKey)) {
                best = r;
                bestKey = en.getKey();
            }
        }
        if (!hit.hasHit()) {
            if (best != null) {
                throw new AssertionError(what + ": no hit, but " + describe(bestKey) + " is entered at "
                        + best.entry);
            }
            decided++;
            return;
        }
        long key = (long) Math.max(hit.part(), 0) << 32 | (hit.handle() & 0xFFFFFFFFL);
        ExactGeometry.SegmentResult r = m.get(key);
        if (r == null) {
            throw new AssertionError(what + ": hit an ineligible object " + describe(key));
        }
        fraction(what, key, hit.fraction(), r);
        reported++;
        if (!closest) {
            decided++;
            return;
        }
        if (best == null) {
            return; // a robust-band extra, counted by fraction()
        }
        if (!r.hit) {
            // a near miss taken before the true hits: only if it rounds to no later than the closest
            if (!ExactGeometry.fractionAgrees(hit.fraction(), best.entry, 8, 0.0)
                    && ExactGeometry.x(hit.fraction()).compareTo(best.entry.value()) > 0) {
                throw new AssertionError(what + ": near miss " + describe(key) + " at " + hit.fraction()
                        + " reported instead of " + describe(bestKey) + " at " + best.entry);
            }
            return;
        }
        if (r.entry.compareTo(best.entry) != 0 && !ExactGeometry.fractionAgrees(hit.fraction(), best.entry, 8, 0.0)) {
            throw new AssertionError(what + ": closest reported " + describe(key) + " at " + hit.fraction()
                    + " but " + describe(bestKey) + " is entered at " + best.entry);
        }
        for (Map.Entry<Long, ExactGeometry.SegmentResult> en : m.entrySet()) {
            ExactGeometry.SegmentResult s = en.getValue();
            if (s.hit && en.getKey() < key && s.entry.compareTo(r.entry) == 0 && s.entryAxis == r.entryAxis
                    && (s.entryAxis < 0 || s.entryPlane == r.entryPlane) && sameFrame(oracle, en.getKey(), key)) {
                throw new AssertionError(what + ": tie at " + r.entry + " through the same plane: reported "
                        + describe(key) + ", lower " + describe(en.getKey()));
            }
        }
        decided++;
    }

    private static boolean sameFrame(ExactOracle oracle, long a, long b) {
        return java.util.Arrays.equals(oracle.origin((int) (a >>> 32)), oracle.origin((int) (b >>> 32)));
    }
}
