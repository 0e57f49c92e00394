package dev.boxwood.samples;

import java.awt.BasicStroke;
import java.awt.Color;
import java.awt.Graphics2D;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;

import dev.boxwood.geom.SurfaceHit;
import dev.boxwood.index.DynamicAabbTree;
import dev.boxwood.index.RegionQueries;
import dev.boxwood.index.TreeConfig;
import dev.boxwood.query.AllOverlaps;
import dev.boxwood.query.ClosestHit;
import dev.boxwood.query.ConvexRegion;
import dev.boxwood.query.PerspectiveCamera;
import dev.boxwood.query.RegionMode;
import dev.boxwood.query.ShapeQueries;
import dev.boxwood.query.TraversalStack;
import dev.boxwood.samples.support.City;
import dev.boxwood.samples.support.Palette;
import dev.boxwood.samples.support.PerspectivePicture;
import dev.boxwood.samples.support.SampleArgs;
import dev.boxwood.samples.support.Scene;
import dev.boxwood.serial.MappedWorld;
import dev.boxwood.serial.StaticWorldWriter;
import dev.boxwood.testkit.scenes.LevelScenes;

/**
 * A level editor: the user clicks to pick the object under the mouse, and drags a marquee to select many.
 *
 * <ul>
 *   <li><b>Pick</b>: the camera turns the clicked pixel into a pick ray ({@link PerspectiveCamera#pickRay}); the
 *       tree casts it with a {@link ClosestHit} collector whose exact-test hook checks the object's own geometry
 *       (here its parts: a stepped building's bounding box is mostly air above the podium, and a ray through that
 *       air must hit what is behind). The tree visits near boxes first and clips the ray at each exact hit, so
 *       far objects are never tested.</li>
 *   <li><b>Marquee</b>: the camera turns the dragged rectangle into a frustum ({@link PerspectiveCamera#frustum});
 *       {@link RegionQueries#queryConvex} returns what it selects. <em>Crossing</em> mode (CAD: dragged right to
 *       left) selects whatever the frustum touches, confirmed on the parts; <em>window</em> mode (dragged left to
 *       right) selects only what lies entirely inside.</li>
 *   <li><b>Save</b>: after deleting the window selection, the level is written as a static world file
 *       ({@link StaticWorldWriter#write(Path, dev.boxwood.index.ReadableTree, int[], byte[],
 *       StaticWorldWriter.Progress)}), the file a game ships and maps ({@link MappedWorld}), and the crossing
 *       marquee is run again on the mapped file.</li>
 * </ul>
 * Levels: a generated city, and the real levels of the test kit. For each level the sample writes the editor's
 * view ({@code editor-<level>.png}: picks in pink, crossing selection in orange, window selection in cyan) and an
 * overview from further away showing the camera, its pick rays and the selections
 * ({@code editor-<level>-overview.png}), and the saved level ({@code editor-<level>.world}).
 *
 * <p>Run on its own: {@code java @serialization/chronicle.args -cp samples/target/boxwood-samples.jar
 * dev.boxwood.samples.LevelEditorSample [--quick] [folder]}
 * (on JDK 23+ also {@code @serialization/chronicle-jdk23.args}).
 */
public final class LevelEditorSample {

    /** Picture size. */
    static final int WIDTH = 1280;
    /** Picture size. */
    static final int HEIGHT = 720;
    /** Vertical field of view of the editor camera, degrees. */
    static final double FOV = 60;
    /** Seed of the generated city. */
    static final long SEED = 3;
    /** Clicks per level. */
    static final int CLICKS = 6;
    /** Window marquee (left to right): x0, y0, x1, y1 as fractions of the picture. */
    static final double[] WINDOW = {0.08, 0.55, 0.42, 0.95};
    /** Crossing marquee (right to left). */
    static final double[] CROSSING = {0.58, 0.45, 0.8, 0.7};

    private static final int WINDOW_COLOR = 0x33d6ff;
    /** Colour of the surface normals drawn at the picks. */
    private static final int NORMAL_COLOR = 0xffdd22;

    /**
     * A level with the editor camera placed on it.
     *
     * @param name short name, used in file names
     * @param scene its objects
     * @param camera the editor camera
     * @param eye camera position
     * @param target looked-at point
     * @param city the city layout for the ground, or null
     */
    record Level(String name, Scene scene, PerspectiveCamera camera, double[] eye, double[] target, City city) {
    }

    /**
     * One click.
     *
     * @param x pixel x
     * @param y pixel y
     * @param object the picked object, or -1
     * @param fraction the hit fraction along the pick ray, or NaN
     * @param ray the pick ray: origin and translation
     * @param surface where the ray meets the picked object and the surface's normal there (x, y, z, nx, ny, nz),
     *     where an editor would place what the user drops on the object; null without a pick
     */
    public record Pick(int x, int y, int object, double fraction, double[] ray, double[] surface) {
    }

    /**
     * What the sample did on one level, as data.
     *
     * @param name the level's name
     * @param objects its object count
     * @param picks the clicks
     * @param crossing the objects the crossing marquee selected, ascending
     * @param window the objects the window marquee selected, ascending
     * @param picture the editor view
     * @param overview the overview picture
     * @param savedWorld the level saved as a static world file after the window selection was deleted
     * @param savedCrossing the objects the crossing marquee selects in that file, mapped, ascending
     */
    public record LevelResult(String name, int objects, List<Pick> picks, int[] crossing, int[] window,
                              Path picture, Path overview, Path savedWorld, int[] savedCrossing) {
    }

    private LevelEditorSample() {
    }

    /**
     * Runs the sample from the command line.
     *
     * @param args {@code [--quick] [folder]}
     * @throws Exception if the run fails
     */
    public static void main(String[] args) throws Exception {
        SampleArgs a = SampleArgs.parseOrExit("LevelEditorSample", args);
        for (LevelResult level : run(a.out(), a.quick())) {
            System.out.println("Pictures: " + level.picture() + ", " + level.overview());
        }
    }

    /**
     * Runs the sample on the city and the real levels (only one of them in quick mode).
     *
     * @param out the output folder
     * @param quick whether to run the small version
     * @return one result per level
     * @throws IOException if writing a picture fails
     */
    public static List<LevelResult> run(Path out, boolean quick) throws IOException {
        List<Level> levels = new ArrayList<>();
        levels.add(cityLevel(quick ? 4 : 6));
        for (LevelScenes.Level level : quick ? new LevelScenes.Level[]{LevelScenes.Level.BOUNDS02}
                : LevelScenes.Level.values()) {
            levels.add(realLevel(level));
        }
        List<LevelResult> results = new ArrayList<>();
        for (Level level : levels) {
            results.add(edit(out, level));
        }
        return results;
    }

    /** The generated city, seen from above one corner. */
    static Level cityLevel(int blocks) {
        City city = new City(0, 0, blocks, blocks);
        Scene scene = city.generate(SEED);
        double[] eye = {-0.12 * city.width(), 0.22 * city.width(), -0.12 * city.depth()};
        double[] target = {0.45 * city.width(), 0, 0.45 * city.depth()};
        return new Level("city", scene, camera(eye, target), eye, target, city);
    }

    /**
     * A real level from the test kit, seen from above one corner. Real levels have stray far-away boxes, so the
     * camera frames the middle 80 % of the object centres rather than the whole extent.
     */
    static Level realLevel(LevelScenes.Level level) {
        Scene scene = Scene.ofBoxes(LevelScenes.load(level), Scene.LEVEL);
        double[] xs = new double[scene.size()];
        double[] zs = new double[scene.size()];
        for (int i = 0; i < scene.size(); i++) {
            xs[i] = (scene.bound(i, 0) + scene.bound(i, 3)) / 2;
            zs[i] = (scene.bound(i, 2) + scene.bound(i, 5)) / 2;
        }
        Arrays.sort(xs);
        Arrays.sort(zs);
        int lo = xs.length / 10;
        int hi = xs.length - 1 - lo;
        double size = Math.max(xs[hi] - xs[lo], zs[hi] - zs[lo]);
        double[] e = scene.extent();
        double[] target = {(xs[lo] + xs[hi]) / 2, e[1], (zs[lo] + zs[hi]) / 2};
        double[] eye = {target[0] - 0.55 * size, e[1] + 0.6 * size, target[2] - 0.55 * size};
        return new Level(level.name().toLowerCase(Locale.ROOT), scene, camera(eye, target), eye, target, null);
    }

    private static PerspectiveCamera camera(double[] eye, double[] target) {
        double distance = Math.sqrt(square(target[0] - eye[0]) + square(target[1] - eye[1])
                + square(target[2] - eye[2]));
        return PerspectiveCamera.lookAt(eye[0], eye[1], eye[2], target[0], target[1], target[2], 0, 1, 0,
                Math.toRadians(FOV), (double) WIDTH / HEIGHT, 0.1, 4 * distance);
    }

    /** Loads the level into a tree, then picks, selects and draws. */
    static LevelResult edit(Path out, Level level) throws IOException {
        Scene scene = level.scene();
        // The editor's index: every object's bounding box, its object index as the user value. The level is loaded
        // object by object, as an editor's scene graph registers its nodes: with deferred adds, the first pick takes
        // them all in by one bulk build instead of inserting each.
        DynamicAabbTree tree = new DynamicAabbTree(TreeConfig.defaults().withDeferredAdds(true));
        int[] handles = new int[scene.size()];
        for (int i = 0; i < scene.size(); i++) {
            handles[i] = tree.add(scene.bound(i, 0), scene.bound(i, 1), scene.bound(i, 2), scene.bound(i, 3), scene.bound(i, 4),
                    scene.bound(i, 5), i, 1L << scene.kind(i));
        }
        TraversalStack stack = new TraversalStack();

        // Picking: the closest exact hit along each pick ray.
        ClosestHit closest = new ClosestHit();
        closest.setExactTest((handle, object, ox, oy, oz, dx, dy, dz, maxFraction) ->
                scene.intersectSegment((int) object, ox, oy, oz, dx, dy, dz, maxFraction));
        // The point and normal of the one hit kept, not of every candidate the cast tried.
        SurfaceHit surface = new SurfaceHit();
        List<Pick> picks = new ArrayList<>();
        for (int[] click : clicks(level)) {
            int px = click[0];
            int py = click[1];
            double[] ray = new double[6];
            level.camera().pickRay(u(px + 0.5), v(py + 0.5), ray);
            tree.rayCast(ray[0], ray[1], ray[2], ray[3], ray[4], ray[5], 1.0, -1L, closest, stack);
            double[] at = null;
            if (closest.hasHit() && scene.surface((int) closest.userValue(), ray[0], ray[1], ray[2], ray[3], ray[4],
                    ray[5], 1.0, closest.fraction(), surface)) {
                at = new double[] {surface.x, surface.y, surface.z, surface.normalX, surface.normalY,
                    surface.normalZ};
            }
            picks.add(new Pick(px, py, closest.hasHit() ? (int) closest.userValue() : -1,
                    closest.hasHit() ? closest.fraction() : Double.NaN, ray, at));
        }

        // Marquees: the frustum behind each screen rectangle.
        int[] crossing = select(tree, level, CROSSING, RegionMode.CROSSING, stack);
        int[] window = select(tree, level, WINDOW, RegionMode.WINDOW, stack);

        int hits = 0;
        for (Pick p : picks) {
            hits += p.object() >= 0 ? 1 : 0;
        }
        System.out.printf(Locale.ROOT, "Level editor, %s: %d objects, %d of %d clicks picked an object,"
                        + " crossing marquee selected %d, window marquee %d%n", level.name(), scene.size(), hits,
                picks.size(), crossing.length, window.length);
        Path picture = out.resolve("editor-" + level.name() + ".png");
        Path overview = out.resolve("editor-" + level.name() + "-overview.png");
        drawEditorView(picture, level, picks, crossing, window);
        drawOverview(overview, level, picks, crossing, window);

        // Edit and save: the window selection deleted, then the level written as the static world file a game
        // ships and maps, every object with the box, categories and user value the tree holds; the same crossing
        // marquee on the mapped file selects what it selected in the editor, less what was deleted.
        for (int object : window) {
            tree.remove(handles[object]);
        }
        Path savedWorld = out.resolve("editor-" + level.name() + ".world");
        StaticWorldWriter.write(savedWorld, tree, tree.liveHandles(), null, null);
        int[] savedCrossing;
        try (MappedWorld saved = MappedWorld.open(savedWorld)) {
            savedCrossing = select(saved, level, CROSSING, RegionMode.CROSSING, stack);
            System.out.printf(Locale.ROOT, "  deleted the window selection and saved %d objects to %s; the crossing"
                    + " marquee on the mapped file selects %d%n", saved.size(), savedWorld.getFileName(),
                    savedCrossing.length);
        }
        return new LevelResult(level.name(), scene.size(), picks, crossing, window, picture, overview, savedWorld,
                savedCrossing);
    }

    /**
     * Where a user would click: on the centres of a few objects spread through the list, among those whose centre
     * is well inside the picture (an object in front may still be the one picked).
     */
    private static List<int[]> clicks(Level level) {
        Scene scene = level.scene();
        List<int[]> visible = new ArrayList<>();
        double[] at = new double[3];
        for (int i = 0; i < scene.size(); i++) {
            // Pixel = viewport point scaled, with y counted downwards.
            if (level.camera().project((scene.bound(i, 0) + scene.bound(i, 3)) / 2,
                    (scene.bound(i, 1) + scene.bound(i, 4)) / 2, (scene.bound(i, 2) + scene.bound(i, 5)) / 2, at)) {
                double px = at[0] * WIDTH;
                double py = (1 - at[1]) * HEIGHT;
                if (px > 0.1 * WIDTH && px < 0.9 * WIDTH && py > 0.15 * HEIGHT && py < 0.9 * HEIGHT) {
                    visible.add(new int[]{(int) px, (int) py});
                }
            }
        }
        List<int[]> clicks = new ArrayList<>();
        for (int c = 0; c < CLICKS && !visible.isEmpty(); c++) {
            clicks.add(visible.get((int) ((c + 0.5) * visible.size() / CLICKS)));
        }
        return clicks;
    }

    /**
     * The objects a marquee selects. Crossing: the frustum query in crossing mode finds every object whose box the
     * frustum touches; the parts decide (the frustum may pass through the empty corner of an L-shaped box). Window:
     * an object whose bounding box is inside has all its parts inside, so the query's answer is final.
     */
    private static int[] select(ShapeQueries index, Level level, double[] rectangle, RegionMode mode,
                                TraversalStack stack) {
        ConvexRegion frustum = level.camera().frustum(u(rectangle[0] * WIDTH), v(rectangle[1] * HEIGHT),
                u(rectangle[2] * WIDTH), v(rectangle[3] * HEIGHT));
        AllOverlaps found = new AllOverlaps();
        index.queryConvex(frustum, mode, -1L, null, found, stack);
        Scene scene = level.scene();
        int[] objects = new int[found.count()];
        int n = 0;
        for (int i = 0; i < found.count(); i++) {
            int object = (int) found.userValue(i);
            if (mode == RegionMode.WINDOW || touchesAnyPart(frustum, scene, object)) {
                objects[n++] = object;
            }
        }
        int[] result = Arrays.copyOf(objects, n);
        Arrays.sort(result);
        return result;
    }

    /**
     * Whether the region touches one of the object's parts (the exact test of crossing selection).
     *
     * @param region the frustum
     * @param scene the scene
     * @param object the object
     * @return true if a part overlaps the region
     */
    static boolean touchesAnyPart(ConvexRegion region, Scene scene, int object) {
        for (int p = scene.firstPart(object); p < scene.endPart(object); p++) {
            if (region.testBox(scene.partBound(p, 0), scene.partBound(p, 1), scene.partBound(p, 2),
                    scene.partBound(p, 3), scene.partBound(p, 4), scene.partBound(p, 5))) {
                return true;
            }
        }
        return false;
    }

    /** Viewport u of a pixel x (the camera's convention: 0 left, 1 right). */
    static double u(double pixelX) {
        return pixelX / WIDTH;
    }

    /** Viewport v of a pixel y counted downwards (the camera's convention: 0 bottom, 1 top). */
    static double v(double pixelY) {
        return 1 - pixelY / HEIGHT;
    }

    /** Object colours with the picks and selections highlighted. */
    private static int[] colors(Scene scene, List<Pick> picks, int[] crossing, int[] window) {
        int[] colors = Palette.of(scene);
        for (int object : crossing) {
            colors[object] = Palette.SELECTED;
        }
        for (int object : window) {
            colors[object] = WINDOW_COLOR;
        }
        for (Pick p : picks) {
            if (p.object() >= 0) {
                colors[p.object()] = Palette.PICKED;
            }
        }
        return colors;
    }

    private static PerspectivePicture render(Level level, double[] eye, double[] target, int[] colors) {
        Scene scene = level.scene();
        double[] e = scene.extent();
        double size = Math.max(e[3] - e[0], e[5] - e[2]);
        PerspectivePicture picture = new PerspectivePicture(WIDTH, HEIGHT, camera(eye, target), eye, 1.5 * size);
        if (level.city() != null) {
            picture.cityGround(level.city(), size);
        } else {
            picture.ground(e[1], e[0] - size, e[2] - size, e[3] + size, e[5] + size, 0x8d9a7a);
        }
        for (int i = 0; i < scene.size(); i++) {
            for (int p = scene.firstPart(i); p < scene.endPart(i); p++) {
                picture.box(scene.partBound(p, 0), scene.partBound(p, 1), scene.partBound(p, 2),
                        scene.partBound(p, 3), scene.partBound(p, 4), scene.partBound(p, 5), colors[i]);
            }
        }
        picture.outline();
        return picture;
    }

    private static void drawEditorView(Path file, Level level, List<Pick> picks, int[] crossing, int[] window)
            throws IOException {
        PerspectivePicture picture = render(level, level.eye(), level.target(), colors(level.scene(), picks,
                crossing, window));
        Graphics2D g = picture.overlay();
        marquee(g, WINDOW, new Color(WINDOW_COLOR), false);
        marquee(g, CROSSING, new Color(Palette.SELECTED), true);
        for (Pick p : picks) {
            g.setColor(Color.BLACK);
            g.setStroke(new BasicStroke(4f));
            g.drawOval(p.x() - 9, p.y() - 9, 18, 18);
            g.setColor(p.object() >= 0 ? new Color(Palette.PICKED) : Color.WHITE);
            g.setStroke(new BasicStroke(2f));
            g.drawOval(p.x() - 9, p.y() - 9, 18, 18);
            g.drawLine(p.x() - 14, p.y(), p.x() - 4, p.y());
            g.drawLine(p.x() + 4, p.y(), p.x() + 14, p.y());
        }
        PerspectivePicture.caption(g, "Level editor: " + level.name() + " (" + level.scene().size() + " objects)",
                "circles: clicks, picked objects in pink",
                "orange dashed: crossing marquee (" + crossing.length + " selected), cyan: window marquee ("
                        + window.length + " selected)");
        g.dispose();
        picture.save(file);
    }

    private static void marquee(Graphics2D g, double[] r, Color color, boolean dashed) {
        int x0 = (int) (r[0] * WIDTH);
        int y0 = (int) (r[1] * HEIGHT);
        int x1 = (int) (r[2] * WIDTH);
        int y1 = (int) (r[3] * HEIGHT);
        g.setColor(new Color(color.getRed(), color.getGreen(), color.getBlue(), 40));
        g.fillRect(x0, y0, x1 - x0, y1 - y0);
        g.setColor(color);
        g.setStroke(dashed ? new BasicStroke(2f, BasicStroke.CAP_BUTT, BasicStroke.JOIN_MITER, 10f,
                new float[]{8f, 6f}, 0f) : new BasicStroke(2f));
        g.drawRect(x0, y0, x1 - x0, y1 - y0);
    }

    /** The level from further up and behind the editor camera, with the pick rays drawn up to their hits. */
    private static void drawOverview(Path file, Level level, List<Pick> picks, int[] crossing, int[] window)
            throws IOException {
        double[] eye = level.eye();
        double[] target = level.target();
        // Behind, above and to the side of the editor camera, looking at the same point.
        double[] back = {eye[0] - target[0], eye[1] - target[1], eye[2] - target[2]};
        double[] far = {target[0] + 1.25 * back[0] - 0.5 * back[2], target[1] + 1.6 * back[1],
                target[2] + 1.25 * back[2] + 0.5 * back[0]};
        PerspectivePicture picture = render(level, far, target, colors(level.scene(), picks, crossing, window));
        for (Pick p : picks) {
            double[] r = p.ray();
            double t = p.object() >= 0 ? p.fraction() : 0.25;
            picture.line(eye[0], eye[1], eye[2], r[0] + t * r[3], r[1] + t * r[4], r[2] + t * r[5],
                    p.object() >= 0 ? Palette.PICKED : 0xffffff, 3);
        }
        // normals a twentieth of the camera's distance long, whatever the level's units
        double length = 0.05 * Math.sqrt(square(back[0]) + square(back[1]) + square(back[2]));
        for (Pick p : picks) {
            double[] s = p.surface();
            if (s != null) {
                picture.line(s[0], s[1], s[2], s[0] + length * s[3], s[1] + length * s[4], s[2] + length * s[5],
                        NORMAL_COLOR, 3);
            }
        }
        double[] at = new double[3];
        picture.project(eye[0], eye[1], eye[2], at);
        Graphics2D g = picture.overlay();
        if (at[2] > 0) {
            g.setColor(Color.BLACK);
            g.fillOval((int) at[0] - 8, (int) at[1] - 8, 16, 16);
            g.setColor(Color.WHITE);
            g.fillOval((int) at[0] - 5, (int) at[1] - 5, 10, 10);
            g.drawString("editor camera", (int) at[0] + 12, (int) at[1] + 5);
        }
        PerspectivePicture.caption(g, "Level editor overview: " + level.name(),
                "pink lines: pick rays from the editor camera to the nearest exact hit (white: no hit);"
                        + " yellow: the surface normal there",
                "orange: crossing selection, cyan: window selection");
        g.dispose();
        picture.save(file);
    }

    private static double square(double v) {
        return v * v;
    }
}
