package dev.boxwood.samples;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.boxwood.samples.support.SampleArgs;

/**
 * The demo behind {@code bash demo.sh}: a short run of each user's sample, one after the other, then a summary of
 * what was done and where the pictures are. Each sample also runs on its own (see its class comment).
 */
public final class Demo {

    private Demo() {
    }

    /**
     * Runs the demo.
     *
     * @param args {@code [--quick] [folder]}: the output folder (default {@code boxwood-out}); {@code --quick} for
     *     the small versions
     * @throws Exception if a sample fails
     */
    public static void main(String[] args) throws Exception {
        SampleArgs a = SampleArgs.parseOrExit("bash demo.sh", args);
        Path out = a.out();
        long start = System.nanoTime();
        List<String> summary = new ArrayList<>();
        List<Path> pictures = new ArrayList<>();

        System.out.println("== 1. Level editor: picking and marquee selection ==");
        for (LevelEditorSample.LevelResult level : LevelEditorSample.run(out, true)) {
            long picked = level.picks().stream().filter(p -> p.object() >= 0).count();
            summary.add(String.format(Locale.ROOT, "level editor, %s: %d objects, %d of %d clicks picked,"
                            + " crossing marquee %d, window marquee %d; saved without it as %s", level.name(),
                    level.objects(), picked, level.picks().size(), level.crossing().length, level.window().length,
                    level.savedWorld().getFileName()));
            pictures.add(level.picture());
            pictures.add(level.overview());
        }

        System.out.println();
        System.out.println("== 2. Game AI: line of sight ==");
        LineOfSightSample.Settings los = LineOfSightSample.Settings.of(a.quick());
        if (!a.quick()) {
            los = new LineOfSightSample.Settings(los.blocks(), los.agents(), 10, los.nearest(), los.range(),
                    los.threads());
        }
        LineOfSightSample.Result sight = LineOfSightSample.run(out, los);
        summary.add(String.format(Locale.ROOT, "line of sight: %d agents, %d ticks, %,d lines of sight (%d %% visible),"
                        + " %,.0f lines/s on %d threads after the first tick", los.agents(), los.ticks(),
                sight.segments(),
                Math.round(100.0 * sight.visible() / Math.max(1, sight.segments())), sight.segmentsPerSecond(),
                los.threads()));
        pictures.add(sight.picture());

        System.out.println();
        System.out.println("== 3. Large-world server: streaming tiles ==");
        StreamingServerSample.Settings streaming = StreamingServerSample.Settings.of(a.quick());
        if (!a.quick()) {
            StreamingServerSample.Settings s = streaming;
            streaming = new StreamingServerSample.Settings(s.tiles(), s.blocksPerTile(), s.players(), s.peoplePerTile(),
                    30, s.viewRadius(), s.budgetBytes(), s.interestRadius(), s.lookDistance());
        }
        StreamingServerSample.Result server = StreamingServerSample.run(out, streaming);
        summary.add(String.format(Locale.ROOT, "streaming server: %d tiles (%,d static objects, %s), %d ticks,"
                        + " at most %d tiles (%.2f MiB) mapped under a %.2f MiB budget, %d handovers, %,d queries",
                streaming.tiles() * streaming.tiles(), server.worldObjects(),
                server.baked() ? "baked now" : "baked by an earlier run", streaming.ticks(), server.mostMappedTiles(),
                server.mostMappedBytes() / (1024.0 * 1024.0), streaming.budgetBytes() / (1024.0 * 1024.0),
                server.handovers(), server.queries()));
        pictures.add(server.picture());

        System.out.println();
        System.out.printf(Locale.ROOT, "== Done in %.1f s ==%n", (System.nanoTime() - start) / 1e9);
        for (String line : summary) {
            System.out.println("  " + line);
        }
        System.out.println("Pictures:");
        for (Path picture : pictures) {
            System.out.println("  " + picture.toAbsolutePath());
        }
    }
}
