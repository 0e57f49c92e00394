package dev.boxwood.bench.peers;

/**
 * Scans every box: the reference answers, and in the moving workload the harness's own cost per update
 * (an upper bound no index can beat).
 */
final class BruteForceContender extends AbstractContender {

    BruteForceContender() {
        super("brute", true);
    }

    @Override
    protected void buildIndex() {
        // nothing beyond the copy of the boxes
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        scanAll();
    }

    @Override
    protected void cast(boolean any) {
        scanAll();
    }

    private void scanAll() {
        for (int i = 0, n = scene.size(); i < n; i++) {
            if (!accept(i)) {
                return;
            }
        }
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
    }
}
