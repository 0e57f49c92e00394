package dev.boxwood.testkit;

import dev.boxwood.query.NearestNeighbours;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Exact reference for nearest queries, independent of the library's arithmetic: stored boxes computed here by
 * outward float rounding of {@code (coordinate - origin)} in double, squared distances in BigDecimal from the
 * query point moved into the frame in double, order by (reported distance, part, exact square, handle).
 * Shared by the exact nearest tests of the tree and of the static worlds.
 */
public final class ExactNearest {

    /** Category bits for random objects: all, single low and high bits (folded masks), 0, mixed. */
    public static final long[] CATEGORIES = {-1L, 1L, 2L, 4L, 1L << 32, 1L << 33, 1L << 63, 0L, 3L,
        0x0000_0001_0000_0001L, 0x8000_0000_0000_0000L | 2L, 0x0000_0004_0000_0000L};
    /** Query masks to pair with {@link #CATEGORIES}. */
    public static final long[] MASKS = {-1L, -1L, -1L, 1L, 2L, 1L << 32, 1L << 63, 0L, 0x0000_0004_0000_0000L | 4L,
        0x0000_0002_0000_0000L, 0x0000_0000_0000_0004L, 0x7FFF_FFFF_FFFF_FFFFL, 0xFFFF_FFFF_0000_0000L};

    private ExactNearest() {
    }

    /**
     * Stored floats of a world box relative to an origin: the exact offsets {@code v - o} rounded outward to float
     * (found here in exact arithmetic, independently of the library's rounding).
     */
    public static float[] stored(double[] box, double ox, double oy, double oz) {
        return new float[] {exactDown(box[0], ox), exactDown(box[1], oy), exactDown(box[2], oz),
                exactUp(box[3], ox), exactUp(box[4], oy), exactUp(box[5], oz)};
    }

    /** @return the largest float not above the exact {@code v - o} */
    public static float exactDown(double v, double o) {
        BigDecimal exact = new BigDecimal(v).subtract(new BigDecimal(o));
        float f = (float) exact.doubleValue();
        while (new BigDecimal(f).compareTo(exact) > 0) {
            f = Math.nextDown(f);
        }
        while (new BigDecimal(Math.nextUp(f)).compareTo(exact) <= 0) {
            f = Math.nextUp(f);
        }
        return f;
    }

    /** @return the smallest float not below the exact {@code v - o} (+0.0 for an offset of 0, as stored) */
    public static float exactUp(double v, double o) {
        return -exactDown(-v, -o) + 0.0f;
    }

    /** @return the exact squared gap from {@code p} to {@code [lo, hi]} on one axis (0 inside) */
    public static BigDecimal axis(double p, float lo, float hi) {
        BigDecimal bp = new BigDecimal(p);
        BigDecimal blo = new BigDecimal(lo);
        BigDecimal bhi = new BigDecimal(hi);
        BigDecimal e;
        if (bp.compareTo(blo) < 0) {
            e = blo.subtract(bp);
        } else if (bp.compareTo(bhi) > 0) {
            e = bp.subtract(bhi);
        } else {
            return BigDecimal.ZERO;
        }
        return e.multiply(e);
    }

    /** Exact squared distance from the frame point {@code (px, py, pz)} to the stored box. */
    public static BigDecimal exactSquare(double px, double py, double pz, float[] b) {
        return axis(px, b[0], b[3]).add(axis(py, b[1], b[4])).add(axis(pz, b[2], b[5]));
    }

    /** Correctly rounded square root of an exact non-negative value. */
    public static double sqrt(BigDecimal v) {
        if (v.signum() == 0) {
            return 0.0;
        }
        // the square is a double exactly wherever the check is strict (grid worlds), so this is correctly rounded
        // there; elsewhere within an ulp, far inside the tolerance
        return Math.sqrt(v.doubleValue());
    }

    /** One candidate: passes category and filter. */
    public static final class Cand {
        public final int part;
        public final int handle;
        public final BigDecimal square; // exact square (or fl(d*d) of an exact function)
        public final double dist;       // the distance the library should report
        public final long userValue;

        public Cand(int part, int handle, BigDecimal square, double dist, long userValue) {
            this.part = part;
            this.handle = handle;
            this.square = square;
            this.dist = dist;
            this.userValue = userValue;
        }

        @Override
        public String toString() {
            return "(" + (part != 0 ? "tile " + part + " " : "") + "h" + handle + " d=" + dist + " sq="
                    + square.toPlainString() + " uv=" + userValue + ")";
        }
    }

    /** The documented order: reported distance, then part (tile), then exact square, then handle. */
    public static final Comparator<Cand> ORDER = Comparator.<Cand>comparingDouble(c -> c.dist)
            .thenComparingInt(c -> c.part).thenComparing(c -> c.square).thenComparingInt(c -> c.handle);

    /** A library answer entry. */
    public static final class Got {
        public final int part;
        public final int handle;
        public final double dist;
        public final long userValue;

        public Got(int part, int handle, double dist, long userValue) {
            this.part = part;
            this.handle = handle;
            this.dist = dist;
            this.userValue = userValue;
        }

        @Override
        public String toString() {
            return "(" + (part != 0 ? "tile " + part + " " : "") + "h" + handle + " d=" + dist + " uv=" + userValue
                    + ")";
        }
    }

    /**
     * Compares an answer with the reference; returns null if consistent, else a message. {@code strict}: every
     * computation of the library is exact here (grid coordinates), so the answer must be the expected list bit for
     * bit; otherwise relative tolerance {@code tol} on squares at the decision boundaries.
     */
    public static String check(List<Cand> cands, List<Got> got, int k, double maxDistance, boolean strict,
                               double tol) {
        List<Cand> sorted = new ArrayList<>(cands);
        sorted.sort(ORDER);
        for (int i = 1; i < got.size(); i++) {
            if (!(got.get(i - 1).dist <= got.get(i).dist)) {
                return "reported distances decrease: " + got;
            }
        }
        if (strict) {
            List<Cand> expected = new ArrayList<>();
            for (Cand c : sorted) {
                if (expected.size() >= k) {
                    break;
                }
                if (c.dist <= maxDistance) {
                    expected.add(c);
                }
            }
            boolean same = expected.size() == got.size();
            for (int i = 0; same && i < got.size(); i++) {
                Cand e = expected.get(i);
                Got g = got.get(i);
                same = e.part == g.part && e.handle == g.handle && e.dist == g.dist && e.userValue == g.userValue;
            }
            return same ? null : "expected " + expected + "\n   got " + got;
        }
        // tolerant
        java.util.Map<Long, Cand> byKey = new java.util.HashMap<>();
        for (Cand c : cands) {
            byKey.put(((long) c.part << 32) | (c.handle & 0xFFFF_FFFFL), c);
        }
        Set<Long> seen = new HashSet<>();
        Cand prev = null;
        for (Got g : got) {
            long key = ((long) g.part << 32) | (g.handle & 0xFFFF_FFFFL);
            Cand c = byKey.get(key);
            if (c == null) {
                return "reported a non-candidate " + g + "; got " + got;
            }
            if (!seen.add(key)) {
                return "reported twice " + g;
            }
            if (c.userValue != g.userValue) {
                return "user value " + g + " expected " + c;
            }
            if (Math.abs(g.dist - c.dist) > tol * c.dist + 1e-300) {
                return "distance " + g + " vs exact " + c;
            }
            if (c.dist > maxDistance * (1 + tol)) {
                return "beyond maxDistance " + maxDistance + ": " + g;
            }
            if (prev != null) {
                int cmp = prev.square.compareTo(c.square);
                if (cmp > 0 && prev.square.doubleValue() > c.square.doubleValue() * (1 + tol)) {
                    return "out of order " + prev + " before " + c + "; got " + got;
                }
                if (prev.square.signum() == 0 && c.square.signum() == 0
                        && (prev.part > c.part || prev.part == c.part && prev.handle > c.handle)) {
                    return "zero-distance tie out of handle order " + prev + " before " + c + "; got " + got;
                }
            }
            prev = c;
        }
        int certain = 0;
        int possible = 0;
        for (Cand c : sorted) {
            if (c.dist <= maxDistance * (1 - tol)) {
                certain++;
            }
            if (c.dist <= maxDistance * (1 + tol)) {
                possible++;
            }
        }
        if (got.size() < Math.min(k, certain) || got.size() > Math.min(k, possible)) {
            return "count " + got.size() + " not in [" + Math.min(k, certain) + ", " + Math.min(k, possible)
                    + "]; got " + got + "\n   sorted " + sorted.subList(0, Math.min(sorted.size(), k + 3));
        }
        if (k == 0) {
            return got.isEmpty() ? null : "k 0 answered " + got;
        }
        double lastSq = got.size() == k ? prev.square.doubleValue() : Double.POSITIVE_INFINITY;
        for (Cand c : sorted) {
            long key = ((long) c.part << 32) | (c.handle & 0xFFFF_FFFFL);
            if (seen.contains(key)) {
                continue;
            }
            if (c.dist <= maxDistance * (1 - tol) && c.square.doubleValue() < lastSq * (1 - tol)) {
                return "missed " + c + "; got " + got;
            }
            if (c.square.signum() == 0 && lastSq == 0 && got.size() == k
                    && (c.part < prev.part || c.part == prev.part && c.handle < prev.handle)) {
                return "missed zero-distance tie " + c + "; got " + got;
            }
        }
        return null;
    }

    /** @return the results of a nearest query, in order */
    public static List<Got> answer(NearestNeighbours n) {
        List<Got> got = new ArrayList<>();
        for (int i = 0; i < n.count(); i++) {
            got.add(new Got(n.part(i), n.handle(i), n.distance(i), n.userValue(i)));
        }
        return got;
    }

    /** @return whether two answers list the same objects in the same order with bit-equal distances */
    public static boolean sameAnswers(List<Got> a, List<Got> b) {
        if (a.size() != b.size()) {
            return false;
        }
        for (int i = 0; i < a.size(); i++) {
            Got x = a.get(i);
            Got y = b.get(i);
            if (x.handle != y.handle || x.part != y.part || Double.compare(x.dist, y.dist) != 0
                    || x.userValue != y.userValue) {
                return false;
            }
        }
        return true;
    }

    /** Query filters by kind: 0 all, 1 by user value, 2 by handle, 3 about 5/16 of the user values by a hash. */
    public static boolean filterAccepts(int kind, int handle, long uv) {
        switch (kind) {
            case 1:
                return Math.floorMod(uv, 3) != 0;
            case 2:
                return (handle & 1) == 0;
            case 3:
                return (uv * 0x9E3779B97F4A7C15L >>> 60) < 5;
            default:
                return true;
        }
    }

    /**
     * Exact distance functions by kind: 1 the box distance itself, 2 and 3 offsets by user value (3 also drops
     * objects by negative, NaN and overflowing distances), else whole values (many exact ties). Off the grid the
     * box distance (computed by the reference, within an ulp) is stretched by 1e-12 so that the function keeps
     * its contract, at least the library's own distance to the box.
     */
    public static double exactDistance(int kind, double boxDist, long uv, boolean grid) {
        double base = grid ? boxDist : boxDist * (1 + 1e-12);
        switch (kind) {
            case 1:
                return base;
            case 2:
                return base + Math.floorMod(uv, 4) * 0.5;
            case 3:
                if (Math.floorMod(uv, 7) == 3) {
                    return -1.0;
                }
                if (Math.floorMod(uv, 7) == 5) {
                    return Double.NaN;
                }
                if (Math.floorMod(uv, 11) == 4) {
                    return 1e200;
                }
                return base + Math.floorMod(uv, 3) * 0.25;
            default:
                // many equal exact distances: ties by handle
                return Math.ceil(base) + Math.floorMod(uv, 2);
        }
    }
}
