package dev.boxwood.bench.peers;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.TreeConfig;
import org.junit.jupiter.api.Test;
import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.hprtree.HPRtree;
import org.locationtech.jts.index.strtree.STRtree;

/**
 * The line cost against cases worked out by hand: when every box is the same, a line that meets the root meets
 * every box, so the cost is 1 + the number of child boxes in the tree, whatever its shape.
 */
class BuildQualityReportTest {

    @Test
    void identicalBoxesCostEveryBoxOnce() {
        int n = 1000;
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            System.arraycopy(new double[] {2, 3, 0, 5, 7, 1}, 0, boxes, 6 * i, 6);
        }
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults().withMargin(0, 0), boxes, null, null);
        // n - 1 internal nodes with two children each
        assertEquals(1 + 2 * (n - 1), BuildQualityReport.of(tree).cost(), 1e-9);

        HPRtree hpr = new HPRtree();
        STRtree str = new STRtree();
        for (int i = 0; i < n; i++) {
            hpr.insert(new Envelope(2, 5, 3, 7), i);
            str.insert(new Envelope(2, 5, 3, 7), i);
        }
        hpr.build();
        str.build();
        // 1000 items in 63 leaf nodes, covered by a top layer of 4: 1 + 4 + 63 + 1000
        assertEquals(1 + 4 + 63 + 1000, BuildQualityReport.of(hpr, n, 16).cost(), 1e-9);
        BuildQualityReport.LineCost strCost = BuildQualityReport.of(str);
        // every node but the root is some node's child, and so is every item
        assertEquals(1 + (strCost.internalNodes() - 1) + n, strCost.cost(), 1e-9);
    }

    @Test
    void aSplitTreeCostsLessThanItsBoxCount() {
        // two far-apart groups: a line meeting one group's box rarely meets the other's
        int n = 400;
        double[] boxes = new double[6 * n];
        for (int i = 0; i < n; i++) {
            double x = (i % 2 == 0 ? 0 : 1000) + (i / 2) * 0.01;
            System.arraycopy(new double[] {x, 0, 0, x + 1, 1, 1}, 0, boxes, 6 * i, 6);
        }
        DynamicAabbTree tree = DynamicAabbTree.build(TreeConfig.defaults().withMargin(0, 0), boxes, null, null);
        double cost = BuildQualityReport.of(tree).cost();
        assertTrue(cost < 1 + 2 * (n - 1) && cost > 3, "cost " + cost);
    }
}
