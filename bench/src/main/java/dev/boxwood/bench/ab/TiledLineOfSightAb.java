package dev.boxwood.bench.ab;

import dev.boxwood.bench.world.PeerWorkload;
import dev.boxwood.query.AnyHit;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;
import dev.boxwood.serial.TileSetWriter;
import dev.boxwood.serial.TiledBatchQueries;
import dev.boxwood.serial.TiledWorld;
import dev.boxwood.testkit.scenes.SegmentSet;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;

/**
 * Line of sight on the peer world of 1M objects in one JVM, rounds alternating (the order rotating each round):
 * any-hit casts on one mapped file, the same casts through the world cut into 16 tiles of 2,500 m, and the tiled
 * casts as a {@link TiledBatchQueries} batch on one and on two threads. Prints the median time per segment of each
 * and the medians of the per-round speed ratios. Usage: {@code TiledLineOfSightAb ROUNDS} (with the Chronicle
 * flags of {@code serialization/chronicle.args}).
 */
public final class TiledLineOfSightAb {

    private static final String[] NAMES = {"single file casts", "tiled casts", "tiled batch 1 thread",
        "tiled batch 2 threads"};

    private TiledLineOfSightAb() {
    }

    /**
     * @param args the number of rounds
     * @throws IOException if writing or mapping the worlds fails
     */
    public static void main(String[] args) throws IOException {
        int rounds = Integer.parseInt(args[0]);
        PeerWorkload workload = PeerWorkload.of(1_000_000);
        Path dir = Files.createTempDirectory("boxwood-tiled-ab");
        double[] boxes = workload.boxes().toInterleaved();
        List<Path> tiles = TileSetWriter.writeGrid(dir, "tile", boxes, null, null, 2500);
        Path single = dir.resolve("single.bxw");
        StaticWorldWriter.write(single, boxes, null, null, null);
        SegmentSet g = workload.segments();
        int q = PeerWorkload.QUERIES;
        double[] from = g.starts();
        double[] to = g.ends();
        boolean[] visible = new boolean[q];
        double[][] micros = new double[4][rounds];
        long sink = 0;
        try (TiledWorld world = TiledWorld.open(tiles, Long.MAX_VALUE); MappedWorld one = MappedWorld.open(single);
             TiledBatchQueries batch1 = new TiledBatchQueries(1); TiledBatchQueries batch2 = new TiledBatchQueries(2)) {
            TiledWorld.Scratch scratch = new TiledWorld.Scratch();
            TraversalStack stack = new TraversalStack();
            AnyHit any = new AnyHit();
            for (int round = -10; round < rounds; round++) {
                for (int k = 0; k < 4; k++) {
                    int kind = (k + Math.max(round, 0)) & 3;
                    long start = System.nanoTime();
                    for (int rep = 0; rep < 5; rep++) {
                        for (int i = 0; i < q && kind < 2; i++) {
                            if (kind == 0) {
                                one.rayCast(g.originX[i], g.originY[i], g.originZ[i], g.translationX[i],
                                        g.translationY[i], g.translationZ[i], 1.0, -1L, any, stack);
                            } else {
                                world.rayCast(g.originX[i], g.originY[i], g.originZ[i], g.translationX[i],
                                        g.translationY[i], g.translationZ[i], 1.0, -1L, any, scratch);
                            }
                            sink += any.hasHit() ? 1 : 0;
                        }
                        if (kind >= 2) {
                            (kind == 2 ? batch1 : batch2).lineOfSight(world, from, to, q, -1L, visible);
                            sink += visible[0] ? 1 : 0;
                        }
                    }
                    if (round >= 0) {
                        micros[kind][round] = (System.nanoTime() - start) / 5.0 / q / 1e3;
                    }
                }
            }
        }
        for (int k = 0; k < 4; k++) {
            double[] s = micros[k].clone();
            Arrays.sort(s);
            System.out.printf("%-24s median %.2f us per segment (%.0f/s), quartiles %.2f to %.2f%n", NAMES[k],
                    s[rounds / 2], 1e6 / s[rounds / 2], s[rounds / 4], s[3 * rounds / 4]);
        }
        System.out.printf("tiled casts / single file: %.3fx%n", medianRatio(micros[0], micros[1]));
        System.out.printf("batch 1 thread / tiled casts: %.3fx%n", medianRatio(micros[1], micros[2]));
        System.out.printf("batch 2 threads / batch 1 thread: %.3fx%n", medianRatio(micros[2], micros[3]));
        System.out.println("(" + sink + " hits)");
        try (java.util.stream.Stream<Path> files = Files.walk(dir)) {
            for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                Files.delete(p);
            }
        }
    }

    /** The median over rounds of {@code first[r] / second[r]}: the speed of the second over the first. */
    private static double medianRatio(double[] first, double[] second) {
        double[] r = new double[first.length];
        for (int i = 0; i < r.length; i++) {
            r[i] = first[i] / second[i];
        }
        Arrays.sort(r);
        return r[r.length / 2];
    }
}
