package dev.boxwood.serial;

import java.nio.file.Path;
import java.util.List;

import dev.boxwood.query.AllOverlaps;

/**
 * The child process of {@link JvmFlagsTest}, started without some of the JVM options Chronicle Bytes needs: writes a
 * world, opens one and queries a tiled world, and prints one line per step, {@code <step> ok} or
 * {@code <step> <exception class> <message>}.
 */
public final class MissingFlagsProcess {

    private MissingFlagsProcess() {
    }

    /**
     * @param args the file to write, an existing world file around the origin, and the steps to run
     *             ({@code write}, {@code open}, {@code tiled})
     */
    public static void main(String[] args) {
        Path target = Path.of(args[0]);
        Path existing = Path.of(args[1]);
        for (int i = 2; i < args.length; i++) {
            String step = args[i];
            try {
                if (step.equals("write")) {
                    StaticWorldWriter.write(target, new double[] {0, 0, 0, 1, 1, 1, 2, 0, 0, 3, 1, 1}, null, null,
                            null);
                } else if (step.equals("open")) {
                    MappedWorld.open(existing).close();
                } else {
                    // opening reads the header only: the query maps the tile
                    try (TiledWorld tiled = TiledWorld.open(List.of(existing), Long.MAX_VALUE)) {
                        tiled.queryAabb(-10, -10, -10, 10, 10, 10, -1L, new AllOverlaps(), new TiledWorld.Scratch());
                    }
                }
                System.out.println(step + " ok");
            } catch (Throwable t) {
                System.out.println(step + " " + t.getClass().getName() + " " + String.valueOf(t.getMessage())
                        .replace('\n', ' '));
            }
        }
    }
}
