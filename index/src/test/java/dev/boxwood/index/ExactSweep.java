package dev.boxwood.index;

import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.List;

/**
 * Exact reference for swept box / sphere against a closed static box, in BigDecimal (every double / float input is
 * converted exactly), written independently of the library's kernels. Fractions are exact rationals for the box
 * sweep and exact roots (evaluated to 60 digits) for the sphere sweep.
 */
final class ExactSweep {

    static final MathContext MC = new MathContext(80);

    private ExactSweep() {
    }

    static BigDecimal b(double v) {
        return new BigDecimal(v);
    }

    /** Exact rational num / den with den > 0. */
    record Q(BigDecimal num, BigDecimal den) implements Comparable<Q> {
        static final Q ZERO = new Q(BigDecimal.ZERO, BigDecimal.ONE);
        static final Q ONE = new Q(BigDecimal.ONE, BigDecimal.ONE);

        static Q of(BigDecimal num, BigDecimal den) {
            return den.signum() < 0 ? new Q(num.negate(), den.negate()) : new Q(num, den);
        }

        @Override
        public int compareTo(Q o) {
            return num.multiply(o.den).compareTo(o.num.multiply(den));
        }

        double toDouble() {
            return num.divide(den, MC).doubleValue();
        }

        BigDecimal toBig() {
            return num.divide(den, MC);
        }
    }

    /** Result: hit, first time (as BigDecimal, 80 digits), and a signed margin (positive = inside by that much). */
    static final class Result {
        boolean hit;
        BigDecimal first; // null on miss
        /** box: hi - lo in t (>= 0 hit); sphere: r^2 - min f over [0,1] (>= 0 hit) scaled to distance units. */
        double margin;

        double firstDouble() {
            return hit ? first.doubleValue() : -1.0;
        }
    }

    /**
     * Box [qmin, qmax] moving by d against the static box [bmin, bmax] (all in the same frame).
     * margin: hi - lo (exact, as a double), negative on a miss where both exist (or -inf if an axis with d = 0 is
     * separated, then margin is minus the separation gap).
     */
    static Result box(double[] qmin, double[] qmax, double[] d, double[] bmin, double[] bmax) {
        Q lo = Q.ZERO;
        Q hi = Q.ONE;
        double staticGap = Double.POSITIVE_INFINITY;
        for (int a = 0; a < 3; a++) {
            BigDecimal q0 = b(qmin[a]);
            BigDecimal q1 = b(qmax[a]);
            BigDecimal b0 = b(bmin[a]);
            BigDecimal b1 = b(bmax[a]);
            if (d[a] == 0) {
                // overlap iff q0 <= b1 and b0 <= q1; gap = min(b1 - q0, q1 - b0)
                BigDecimal g = (b1.subtract(q0)).min(q1.subtract(b0));
                staticGap = Math.min(staticGap, g.doubleValue());
                if (g.signum() < 0) {
                    Result r = new Result();
                    r.hit = false;
                    r.margin = g.doubleValue();
                    return r;
                }
                continue;
            }
            BigDecimal dd = b(d[a]);
            Q l;
            Q h;
            if (d[a] > 0) {
                l = Q.of(b0.subtract(q1), dd);
                h = Q.of(b1.subtract(q0), dd);
            } else {
                l = Q.of(q0.subtract(b1), dd.negate());
                h = Q.of(q1.subtract(b0), dd.negate());
            }
            if (l.compareTo(lo) > 0) {
                lo = l;
            }
            if (h.compareTo(hi) < 0) {
                hi = h;
            }
        }
        Result r = new Result();
        int c = lo.compareTo(hi);
        r.hit = c <= 0;
        r.margin = hi.toBig().subtract(lo.toBig()).doubleValue();
        if (r.hit) {
            r.first = lo.toBig();
        }
        return r;
    }

    /**
     * Sphere centre c, radius rad, moving by d, against the static box. margin = sqrt-free: (r^2 - min f) / (2 max(r,
     * tiny)) as a double approximating the distance margin; the sign is exact.
     */
    static Result sphere(double[] c, double rad, double[] d, double[] bmin, double[] bmax) {
        BigDecimal r2 = b(rad).multiply(b(rad));
        // breakpoints in (0, 1)
        List<Q> ts = new ArrayList<>();
        ts.add(Q.ZERO);
        for (int a = 0; a < 3; a++) {
            if (d[a] == 0) {
                continue;
            }
            for (double e : new double[] {bmin[a], bmax[a]}) {
                Q t = Q.of(b(e).subtract(b(c[a])), b(d[a]));
                if (t.compareTo(Q.ZERO) > 0 && t.compareTo(Q.ONE) < 0) {
                    ts.add(t);
                }
            }
        }
        ts.add(Q.ONE);
        ts.sort(null);
        Result res = new Result();
        BigDecimal minF = null;
        // f at 0
        BigDecimal[] coef0 = coefficients(c, d, bmin, bmax, Q.ZERO, Q.ZERO);
        BigDecimal f0 = coef0[2];
        if (f0.compareTo(r2) <= 0) {
            res.hit = true;
            res.first = BigDecimal.ZERO;
        }
        minF = f0;
        for (int k = 0; k + 1 < ts.size(); k++) {
            Q t0 = ts.get(k);
            Q t1 = ts.get(k + 1);
            if (t0.compareTo(t1) == 0) {
                continue;
            }
            BigDecimal[] co = coefficients(c, d, bmin, bmax, t0, t1);
            BigDecimal A = co[0];
            BigDecimal B = co[1];
            BigDecimal C = co[2];
            // f(t1)
            BigDecimal f1 = evalQ(A, B, C, t1);
            BigDecimal fmin = f1.min(evalQ(A, B, C, t0));
            boolean touches = le(A, B, C, t1, r2);
            // vertex
            if (A.signum() > 0) {
                Q tv = Q.of(B.negate(), A.multiply(BigDecimal.valueOf(2)));
                if (tv.compareTo(t0) > 0 && tv.compareTo(t1) < 0) {
                    BigDecimal fv = evalQ(A, B, C, tv);
                    fmin = fmin.min(fv);
                    touches |= le(A, B, C, tv, r2);
                }
            }
            minF = minF.min(fmin);
            if (!res.hit && touches) {
                // first root of A t^2 + B t + (C - r2) in [t0, t1]; f(t0) > r2 here
                res.hit = true;
                BigDecimal cc = C.subtract(r2);
                BigDecimal disc = B.multiply(B).subtract(A.multiply(cc).multiply(BigDecimal.valueOf(4)));
                if (disc.signum() < 0) {
                    disc = BigDecimal.ZERO; // cannot happen when fmin <= r2
                }
                BigDecimal sq = disc.sqrt(MC);
                // smaller root: (-B - sq) / (2A), computed without cancellation: if B < 0 use 2cc / (-B + sq)
                BigDecimal root;
                if (B.signum() < 0) {
                    root = cc.multiply(BigDecimal.valueOf(2)).divide(B.negate().add(sq), MC);
                } else {
                    root = B.negate().subtract(sq).divide(A.multiply(BigDecimal.valueOf(2)), MC);
                }
                res.first = root;
            }
        }
        // distance margin r - sqrt(min f), as a double
        res.margin = b(rad).subtract(minF.sqrt(MC)).doubleValue();
        return res;
    }

    /** Exactly: f(t) <= r2. */
    static boolean le(BigDecimal A, BigDecimal B, BigDecimal C, Q t, BigDecimal r2) {
        BigDecimal p = t.num();
        BigDecimal q = t.den();
        BigDecimal n = A.multiply(p).multiply(p).add(B.multiply(p).multiply(q)).add(C.multiply(q).multiply(q));
        return n.compareTo(r2.multiply(q).multiply(q)) <= 0;
    }

    static BigDecimal evalQ(BigDecimal A, BigDecimal B, BigDecimal C, Q t) {
        // (A p^2 + B p q + C q^2) / q^2
        BigDecimal p = t.num();
        BigDecimal q = t.den();
        BigDecimal n = A.multiply(p).multiply(p).add(B.multiply(p).multiply(q)).add(C.multiply(q).multiply(q));
        return n.divide(q.multiply(q), MC);
    }

    /** Coefficients A, B, C of f(t) on the interval (t0, t1) decided at its midpoint (or at 0 if equal). */
    static BigDecimal[] coefficients(double[] c, double[] d, double[] bmin, double[] bmax, Q t0, Q t1) {
        // midpoint (t0 + t1) / 2 as rational
        Q mid = Q.of(t0.num().multiply(t1.den()).add(t1.num().multiply(t0.den())),
                t0.den().multiply(t1.den()).multiply(BigDecimal.valueOf(2)));
        BigDecimal A = BigDecimal.ZERO;
        BigDecimal B = BigDecimal.ZERO;
        BigDecimal C = BigDecimal.ZERO;
        for (int a = 0; a < 3; a++) {
            // x(mid) = c + mid * d ; compare x * den with bounds * den
            BigDecimal xden = b(c[a]).multiply(mid.den()).add(b(d[a]).multiply(mid.num()));
            BigDecimal e;
            if (xden.compareTo(b(bmin[a]).multiply(mid.den())) < 0) {
                e = b(bmin[a]);
            } else if (xden.compareTo(b(bmax[a]).multiply(mid.den())) > 0) {
                e = b(bmax[a]);
            } else {
                continue;
            }
            BigDecimal m = b(c[a]).subtract(e);
            BigDecimal dd = b(d[a]);
            A = A.add(dd.multiply(dd));
            B = B.add(m.multiply(dd).multiply(BigDecimal.valueOf(2)));
            C = C.add(m.multiply(m));
        }
        return new BigDecimal[] {A, B, C};
    }
}
