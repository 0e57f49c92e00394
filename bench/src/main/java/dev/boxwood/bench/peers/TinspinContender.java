package dev.boxwood.bench.peers;

import org.tinspin.index.BoxMap;
import org.tinspin.index.Index;
import org.tinspin.index.phtree.PHTreeR;
import org.tinspin.index.rtree.RTree;
import org.tinspin.index.rtree.RTreeEntry;

/**
 * tinspin-indexes 2.1.3, 3D, double, dynamic: the R*-tree ({@code RTree.createRStar}, STR bulk load) or the
 * PH-tree for boxes ({@code PHTreeR}, one insert per box). Queries reuse one iterator through
 * {@code reset}; updates pass the old box and a new box: the R*-tree keeps the arrays it is given, so each of its
 * updates allocates two; the PH-tree copies them into keys of its own ({@code PhTreeSolidF.update}), so its updates
 * reuse two scratch arrays. Casts use the {@code RayByBoxes} emulation.
 */
final class TinspinContender extends AbstractContender {

    private final boolean phTree;
    private BoxMap<Integer> tree;
    private Index.BoxIterator<Integer> iterator;
    private final double[] lo = new double[3];
    private final double[] hi = new double[3];
    private final double[] oldLo = new double[3];
    private final double[] oldHi = new double[3];
    private final double[] newLo = new double[3];
    private final double[] newHi = new double[3];

    private TinspinContender(String name, boolean phTree) {
        super(name, true);
        this.phTree = phTree;
    }

    static TinspinContender rStarTree() {
        return new TinspinContender("tinspin-rtree", false);
    }

    static TinspinContender phTree() {
        return new TinspinContender("tinspin-phtree", true);
    }

    @Override
    protected void buildIndex() {
        int n = scene.size();
        if (phTree) {
            PHTreeR<Integer> ph = PHTreeR.createPHTree(3);
            for (int i = 0; i < n; i++) {
                ph.insert(min(i), max(i), i);
            }
            tree = ph;
        } else {
            RTree<Integer> r = RTree.createRStar(3);
            @SuppressWarnings("unchecked")
            RTreeEntry<Integer>[] entries = new RTreeEntry[n];
            for (int i = 0; i < n; i++) {
                entries[i] = RTreeEntry.createBox(min(i), max(i), i);
            }
            r.load(entries);
            tree = r;
        }
        iterator = null;
    }

    private double[] min(int i) {
        return new double[] {scene.minX[i], scene.minY[i], scene.minZ[i]};
    }

    private double[] max(int i) {
        return new double[] {scene.maxX[i], scene.maxY[i], scene.maxZ[i]};
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        set(lo, minX, minY, minZ);
        set(hi, maxX, maxY, maxZ);
        if (iterator == null) {
            iterator = tree.queryIntersect(lo, hi);
        } else {
            iterator.reset(lo, hi);
        }
        while (iterator.hasNext()) {
            if (!accept(iterator.next().value())) {
                return;
            }
        }
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        set(oldLo, scene.minX[index], scene.minY[index], scene.minZ[index]);
        set(oldHi, scene.maxX[index], scene.maxY[index], scene.maxZ[index]);
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        if (phTree) {
            set(newLo, minX, minY, minZ);
            set(newHi, maxX, maxY, maxZ);
            tree.update(oldLo, oldHi, newLo, newHi);
        } else {
            tree.update(oldLo, oldHi, min(index), max(index));
        }
        // a query iterator may hold stale nodes after a structural change
        iterator = null;
    }

    private static void set(double[] point, double x, double y, double z) {
        point[0] = x;
        point[1] = y;
        point[2] = z;
    }
}
