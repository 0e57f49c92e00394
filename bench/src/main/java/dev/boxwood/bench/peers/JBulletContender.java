package dev.boxwood.bench.peers;

import com.bulletphysics.collision.broadphase.Dbvt;
import com.bulletphysics.collision.broadphase.DbvtAabbMm;
import dev.boxwood.index.TreeConfig;
import javax.vecmath.Vector3f;

/**
 * JBullet 20101010-1 {@code Dbvt} (Bullet's btDbvt): 3D, float, one insert per box, leaves fattened by 0.1
 * and moved with {@code update(leaf, volume, velocity, margin)}, the velocity being the displacement times
 * Boxwood's default prediction ({@link TreeConfig#prediction()}, 4), so that both stretch a re-inserted leaf
 * ahead of its motion alike. Its ray walk is an infinite ray without
 * early exit or clipping; candidates are filtered to the segment here. User data is a boxed index.
 */
final class JBulletContender extends AbstractContender {

    private Dbvt tree = new Dbvt();
    private Dbvt.Node[] leaves = new Dbvt.Node[0];
    private final DbvtAabbMm volume = new DbvtAabbMm();
    private final Vector3f lo = new Vector3f();
    private final Vector3f hi = new Vector3f();
    private final Vector3f velocity = new Vector3f();
    /** The displacements a re-inserted leaf is stretched by, as Boxwood's default settings stretch its own. */
    private static final double PREDICTION = TreeConfig.defaults().prediction();
    private final Vector3f origin = new Vector3f();
    private final Vector3f direction = new Vector3f();

    private final Dbvt.ICollide policy = new Dbvt.ICollide() {
        @Override
        public void Process(Dbvt.Node leaf) {
            accept((Integer) leaf.data);
        }
    };

    JBulletContender() {
        super("jbullet-dbvt", true);
    }

    @Override
    protected void buildIndex() {
        tree = new Dbvt();
        int n = scene.size();
        leaves = new Dbvt.Node[n];
        for (int i = 0; i < n; i++) {
            setVolume(i, FAT_MARGIN);
            leaves[i] = tree.insert(volume, Integer.valueOf(i));
        }
    }

    private void setVolume(int i, double margin) {
        lo.set(floatDown(scene.minX[i] - margin), floatDown(scene.minY[i] - margin), floatDown(scene.minZ[i] - margin));
        hi.set(floatUp(scene.maxX[i] + margin), floatUp(scene.maxY[i] + margin), floatUp(scene.maxZ[i] + margin));
        DbvtAabbMm.FromMM(lo, hi, volume);
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        if (tree.root == null) {
            return;
        }
        lo.set(floatDown(minX), floatDown(minY), floatDown(minZ));
        hi.set(floatUp(maxX), floatUp(maxY), floatUp(maxZ));
        DbvtAabbMm.FromMM(lo, hi, volume);
        Dbvt.collideTV(tree.root, volume, policy);
    }

    @Override
    protected void cast(boolean any) {
        if (tree.root == null) {
            return;
        }
        double length = Math.sqrt(tx * tx + ty * ty + tz * tz);
        origin.set((float) ox, (float) oy, (float) oz);
        direction.set((float) (tx / length), (float) (ty / length), (float) (tz / length));
        Dbvt.collideRAY(tree.root, origin, direction, policy);
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        setVolume(index, 0);
        velocity.set((float) (PREDICTION * dx), (float) (PREDICTION * dy), (float) (PREDICTION * dz));
        tree.update(leaves[index], volume, velocity, (float) FAT_MARGIN);
    }
}
