package dev.boxwood.query;

import dev.boxwood.geom.Geom;
import dev.boxwood.geom.SphereAabb;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.SplittableRandom;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * {@link RegionTests#classifySphere} must be monotone in the box, so that a subtree taken whole (a node classified
 * inside) holds only objects the sphere test reports: a box classified inside contains only boxes that pass
 * {@link SphereAabb#test}, and a box inside one classified inside is classified inside too.
 */
class SphereClassificationTest {

    @Test
    void shouldNotTakeABoxInsideWhenTheFartherFaceIsHiddenByRounding() {
        // a unit-scale box touching x = 0, a sphere of radius 2.8e8 whose surface passes x = 0 at the centre's y:
        // both x faces are 2.78878912e8 from the centre once rounded, and the nearer one was taken as the farther
        double cx = 2.78878912E8;
        double cy = 0.029278971254825592;
        double r = 2.78878912E8;
        float[] tight = {-1.4055857E-20f, 1.4262908E-24f, -2.2879855E-31f, 8.010421E-18f, 9.867413E-8f, 8.241588E-8f};
        assertEquals(Geom.OUTSIDE, RegionTests.classifySphere(cx, cy, 0, r, tight[0], tight[1], tight[2], tight[3],
                tight[4], tight[5]));
        double m = 1.2e-8;
        assertEquals(Geom.CROSSING, RegionTests.classifySphere(cx, cy, 0, r, tight[0] - m, tight[1] - m,
                tight[2] - m, tight[3] + m, tight[4] + m, tight[5] + m));
    }

    @Test
    void shouldClassifyInsideOnlyBoxesWhoseEveryPointIsWithinTheRadius() {
        SplittableRandom random = new SplittableRandom(0x5C1A_55L);
        int inside = 0;
        for (int i = 0; i < 20_000; i++) {
            double r = Math.scalb(1.0 + random.nextDouble(), random.nextInt(-20, 40));
            double cx = r * (random.nextDouble() - 0.5) * 2.5;
            double cy = r * (random.nextDouble() - 0.5) * 0.01;
            double cz = random.nextBoolean() ? 0 : r * 1e-9 * random.nextDouble();
            double size = Math.scalb(1.0, random.nextInt(-80, 0)) * r;
            double[] box = new double[6];
            for (int k = 0; k < 3; k++) {
                double lo = (random.nextDouble() - 0.5) * size;
                box[k] = lo;
                box[k + 3] = lo + random.nextDouble() * size;
            }
            int c = RegionTests.classifySphere(cx, cy, cz, r, box[0], box[1], box[2], box[3], box[4], box[5]);
            if (c != Geom.INSIDE) {
                continue;
            }
            inside++;
            // every corner exactly within r (the farthest point of a box is a corner)
            for (int corner = 0; corner < 8; corner++) {
                BigDecimal dx = exact(((corner & 1) != 0 ? box[3] : box[0])).subtract(exact(cx));
                BigDecimal dy = exact(((corner & 2) != 0 ? box[4] : box[1])).subtract(exact(cy));
                BigDecimal dz = exact(((corner & 4) != 0 ? box[5] : box[2])).subtract(exact(cz));
                BigDecimal d2 = dx.multiply(dx).add(dy.multiply(dy)).add(dz.multiply(dz));
                BigDecimal rr = exact(r).multiply(exact(r));
                // within the compensated test's own margin, about 1e-29 of r^2
                assertTrue(d2.subtract(rr).compareTo(rr.multiply(new BigDecimal("1e-28"))) <= 0,
                        "corner " + corner + " of an inside box is outside, case " + i);
            }
            // and a box inside it passes the sphere test
            assertTrue(SphereAabb.test(cx, cy, cz, r, box[3], box[4], box[5], box[3], box[4], box[5]));
        }
        assertTrue(inside > 1_000, "inside " + inside);
    }

    private static BigDecimal exact(double v) {
        return new BigDecimal(v);
    }
}
