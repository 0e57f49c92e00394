package dev.boxwood.geom;

import java.math.BigDecimal;
import java.math.MathContext;

/**
 * Exact references for the kernel tests, in BigDecimal arithmetic (sums and products of doubles are exact there).
 * Written independently of the kernels: no kernel code is called. Each reference also reports a signed margin, the
 * distance of the case from the decision boundary (positive inside), so the tests can skip only the cases that
 * rounding may legitimately decide either way.
 */
final class ExactReference {

    static final MathContext CONTEXT = new MathContext(25);
    /** Margin given to constraints that the kernels decide exactly (signs of differences). */
    static final double DECIDED = 1.0;

    private ExactReference() {
    }

    static BigDecimal exact(double v) {
        return new BigDecimal(v);
    }

    /** Relative margin of {@code l <= r}: {@code (r - l) / (|l| + |r|)}, DECIDED when both are zero. */
    static double relativeMargin(BigDecimal l, BigDecimal r) {
        BigDecimal scale = l.abs().add(r.abs());
        if (scale.signum() == 0) {
            return DECIDED;
        }
        // the difference is exact, so the sign is; the quotient only needs to be roughly right
        double m = r.subtract(l).doubleValue() / scale.doubleValue();
        return m != 0.0 ? m : Math.copySign(Double.MIN_VALUE, r.compareTo(l));
    }

    /** Exact answer of segment against closed box. */
    static final class SegmentBox {
        /** Smallest relative margin over all constraints; hit iff {@code >= 0}. */
        double margin;
        /** Exact entry fraction (rounded to 25 digits) when hit. */
        double fraction;

        boolean hit() {
            return margin >= 0.0;
        }
    }

    /**
     * Segment {@code o + t d}, t in [0, maxFraction], against the closed box: the segment meets the box iff
     * {@code max(0, e_i / a_i) <= min(maxFraction, x_j / a_j)} over moving axes, and {@code e_i <= 0 <= x_i} on
     * still axes, where {@code a = |d|}, {@code e} the entry numerator and {@code x} the exit numerator.
     */
    static SegmentBox segmentBox(double[] o, double[] d, double maxFraction, double[] min, double[] max) {
        return segmentBox(exact(o), exact(d), exact(maxFraction), exact(min), exact(max));
    }

    static BigDecimal[] exact(double[] v) {
        return new BigDecimal[] {exact(v[0]), exact(v[1]), exact(v[2])};
    }

    /** As {@link #segmentBox(double[], double[], double, double[], double[])}, on exact inputs. */
    static SegmentBox segmentBox(BigDecimal[] o, BigDecimal[] d, BigDecimal mf, BigDecimal[] min, BigDecimal[] max) {
        SegmentBox out = new SegmentBox();
        BigDecimal[] a = new BigDecimal[3];
        BigDecimal[] e = new BigDecimal[3];
        BigDecimal[] x = new BigDecimal[3];
        double margin = Double.POSITIVE_INFINITY;
        for (int i = 0; i < 3; i++) {
            // for a zero component either orientation gives the same constraints
            boolean positive = d[i].signum() >= 0;
            a[i] = d[i].abs();
            e[i] = positive ? min[i].subtract(o[i]) : o[i].subtract(max[i]);
            x[i] = positive ? max[i].subtract(o[i]) : o[i].subtract(min[i]);
            // exit not before t = 0, and (still axis) entry not after t = 0: decided by exact signs
            margin = Math.min(margin, x[i].signum() >= 0 ? DECIDED : -DECIDED);
            if (a[i].signum() == 0) {
                margin = Math.min(margin, e[i].signum() <= 0 ? DECIDED : -DECIDED);
            } else {
                margin = Math.min(margin, relativeMargin(e[i], mf.multiply(a[i])));
            }
        }
        BigDecimal enter = BigDecimal.ZERO;
        for (int i = 0; i < 3; i++) {
            if (a[i].signum() == 0) {
                continue;
            }
            BigDecimal t = e[i].divide(a[i], CONTEXT);
            if (t.compareTo(enter) > 0) {
                enter = t;
            }
            for (int j = 0; j < 3; j++) {
                if (j != i && a[j].signum() != 0) {
                    margin = Math.min(margin, relativeMargin(e[i].multiply(a[j]), x[j].multiply(a[i])));
                }
            }
        }
        out.margin = margin;
        out.fraction = enter.doubleValue();
        return out;
    }

    /**
     * Signed margin, in length units, of the closed sphere against the closed box given by its per-axis outside
     * distances: {@code r - |dist|}, computed from the exact {@code r^2 - sum dist^2}. Overlap iff {@code >= 0}.
     */
    static double sphereMargin(BigDecimal[] outside, double r) {
        BigDecimal sum = BigDecimal.ZERO;
        for (BigDecimal v : outside) {
            sum = sum.add(v.multiply(v));
        }
        BigDecimal rr = exact(r).multiply(exact(r));
        BigDecimal diff = rr.subtract(sum);
        if (diff.signum() == 0) {
            return 0.0;
        }
        double denominator = Math.sqrt(sum.doubleValue()) + r;
        double m = diff.doubleValue() / denominator;
        // keep the exact sign even if the division underflows
        return m != 0.0 ? m : Math.copySign(Double.MIN_VALUE, diff.signum());
    }

    /** Exact per-axis distance from {@code c} outside {@code [lo, hi]}. */
    static BigDecimal outside(double c, double lo, double hi) {
        BigDecimal bc = exact(c);
        if (c < lo) {
            return exact(lo).subtract(bc);
        }
        if (c > hi) {
            return bc.subtract(exact(hi));
        }
        return BigDecimal.ZERO;
    }

    /** Exact per-axis distance from {@code c} outside the slab {@code centre ± half}. */
    static BigDecimal outsideCentred(double c, double centre, double half) {
        BigDecimal v = exact(c).subtract(exact(centre)).abs().subtract(exact(half));
        return v.signum() > 0 ? v : BigDecimal.ZERO;
    }
}
