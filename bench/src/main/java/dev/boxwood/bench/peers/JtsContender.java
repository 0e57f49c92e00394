package dev.boxwood.bench.peers;

import org.locationtech.jts.geom.Envelope;
import org.locationtech.jts.index.ItemVisitor;
import org.locationtech.jts.index.SpatialIndex;
import org.locationtech.jts.index.hprtree.HPRtree;
import org.locationtech.jts.index.strtree.STRtree;

/**
 * JTS 1.20.0 static 2D trees, bulk loaded: {@code STRtree} (Sort-Tile-Recursive, node capacity 10) or
 * {@code HPRtree} (Hilbert-packed, node capacity 16). The trees index x and y; each item carries its box's index
 * and z range, so the visitor drops the candidates whose z range misses the query's from the item it already holds,
 * before the harness's exact re-check (as a user of a 2D index asking a 3D question would, rather than fetch each
 * 2D candidate's box). A visitor cannot stop a query. Casts use the {@code RayByBoxes} emulation.
 */
final class JtsContender extends AbstractContender implements ItemVisitor {

    private final boolean hilbert;
    private SpatialIndex index;
    private final Envelope query = new Envelope();
    private double queryMinZ;
    private double queryMaxZ;

    /** An item: the box's index and its exact z range. */
    private static final class ZItem {
        final int index;
        final double minZ;
        final double maxZ;

        ZItem(int index, double minZ, double maxZ) {
            this.index = index;
            this.minZ = minZ;
            this.maxZ = maxZ;
        }
    }

    private JtsContender(String name, boolean hilbert) {
        super(name, false);
        this.hilbert = hilbert;
    }

    static JtsContender strTree() {
        return new JtsContender("jts-strtree", false);
    }

    static JtsContender hprTree() {
        return new JtsContender("jts-hprtree", true);
    }

    @Override
    protected void buildIndex() {
        int n = scene.size();
        SpatialIndex built = hilbert ? new HPRtree() : new STRtree();
        for (int i = 0; i < n; i++) {
            built.insert(new Envelope(scene.minX[i], scene.maxX[i], scene.minY[i], scene.maxY[i]),
                    new ZItem(i, scene.minZ[i], scene.maxZ[i]));
        }
        if (built instanceof HPRtree) {
            ((HPRtree) built).build();
        } else {
            ((STRtree) built).build();
        }
        index = built;
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        query.init(minX, maxX, minY, maxY);
        queryMinZ = minZ;
        queryMaxZ = maxZ;
        index.query(query, this);
    }

    @Override
    public void visitItem(Object item) {
        ZItem z = (ZItem) item;
        // closed boxes: a box touching the query in z takes part
        if (z.minZ <= queryMaxZ && queryMinZ <= z.maxZ) {
            accept(z.index);
        }
    }
}
