package dev.boxwood.bench.peers;

import com.github.stephengold.joltjni.AaBox;
import com.github.stephengold.joltjni.AllHitCollideShapeBodyCollector;
import com.github.stephengold.joltjni.AnyHitCastRayCollector;
import com.github.stephengold.joltjni.BodyCreationSettings;
import com.github.stephengold.joltjni.BodyFilter;
import com.github.stephengold.joltjni.BodyInterface;
import com.github.stephengold.joltjni.BoxShape;
import com.github.stephengold.joltjni.BroadPhaseLayerFilter;
import com.github.stephengold.joltjni.BroadPhaseQuery;
import com.github.stephengold.joltjni.Jolt;
import com.github.stephengold.joltjni.MapObj2Bp;
import com.github.stephengold.joltjni.NarrowPhaseQuery;
import com.github.stephengold.joltjni.ObjVsBpFilter;
import com.github.stephengold.joltjni.ObjVsObjFilter;
import com.github.stephengold.joltjni.ObjectLayerFilter;
import com.github.stephengold.joltjni.PhysicsSystem;
import com.github.stephengold.joltjni.RRayCast;
import com.github.stephengold.joltjni.RVec3;
import com.github.stephengold.joltjni.RayCastResult;
import com.github.stephengold.joltjni.RayCastSettings;
import com.github.stephengold.joltjni.ShapeFilter;
import com.github.stephengold.joltjni.Vec3;
import com.github.stephengold.joltjni.enumerate.EActivation;
import com.github.stephengold.joltjni.enumerate.EMotionType;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * Jolt Physics (C++) through jolt-jni 0.9.9, single precision, Linux x86-64 release natives: one physics
 * system whose bodies are static boxes ({@code BoxShape}, convex radius 0) in one layer, added one by one, then
 * {@code optimizeBroadPhase()}. Box queries use the broad phase ({@code collideAaBox}, 3D quadtree);
 * closest-hit casts use the narrow phase ({@code castRay} with a closest-hit result, early-out inside Jolt);
 * any-hit casts the narrow phase with an any-hit collector. Jolt's answers are in float: each reported body is
 * re-checked in double against the exact box, and the shapes are grown by a few float ulps so that rounding
 * never loses a candidate. A move teleports the body ({@code setPosition}), which Jolt's broad phase absorbs
 * by widening its node bounds until the next physics update. Each query allocates its JNI wrappers (the
 * binding has no reusable collectors) and frees them at once; the default filters are made once and passed to
 * the full overloads (the short ones make new native filters at every call, which the binding never frees), and
 * the narrow phase is the one without body locks (the benchmark queries one thread at a time, and nothing
 * changes the bodies meanwhile: the case Jolt's no-lock interface is for).
 */
final class JoltContender extends AbstractContender {

    private static final String NATIVE_RESOURCE = "/linux/x86-64/com/github/stephengold/libjoltjni.so";
    private static boolean loaded;

    static {
        // before any instance field: the wrappers below allocate native objects
        loadNatives();
    }

    private PhysicsSystem system;
    private BodyInterface bodies;
    private BroadPhaseQuery broadPhase;
    private NarrowPhaseQuery narrowPhase;
    private int[] bodyOfBox = new int[0];
    private int[] boxOfBody = new int[0];
    private final AaBox region = new AaBox();
    private final Vec3 lo = new Vec3();
    private final Vec3 hi = new Vec3();
    private final RayCastSettings raySettings = new RayCastSettings();
    private final BroadPhaseLayerFilter broadPhaseFilter = new BroadPhaseLayerFilter();
    private final ObjectLayerFilter objectFilter = new ObjectLayerFilter();
    private final BodyFilter bodyFilter = new BodyFilter();
    private final ShapeFilter shapeFilter = new ShapeFilter();
    private final RVec3 position = new RVec3();
    private double pad;

    JoltContender() {
        super("jolt", true);
    }

    /** Extracts the shipped native library to a temporary file and loads it, once per JVM. */
    static synchronized void loadNatives() {
        if (loaded) {
            return;
        }
        try (InputStream in = JoltContender.class.getResourceAsStream(NATIVE_RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("jolt-jni natives not on the class path: " + NATIVE_RESOURCE);
            }
            Path file = Files.createTempFile("joltjni", ".so");
            file.toFile().deleteOnExit();
            Files.copy(in, file, StandardCopyOption.REPLACE_EXISTING);
            System.load(file.toAbsolutePath().toString());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot extract the jolt-jni natives", e);
        }
        Jolt.registerDefaultAllocator();
        Jolt.installDefaultAssertCallback();
        Jolt.installDefaultTraceCallback();
        Jolt.newFactory();
        Jolt.registerTypes();
        loaded = true;
    }

    @Override
    protected void buildIndex() {
        int n = scene.size();
        double[] b = sceneBounds();
        double magnitude = 0;
        for (double v : b) {
            magnitude = Math.max(magnitude, Math.abs(v));
        }
        // float rounding of the centre (half an ulp) and of Jolt's centre +- half extent (an ulp), with slack
        pad = 4 * Math.ulp((float) (2 * magnitude + 1));
        MapObj2Bp layers = new MapObj2Bp(1, 1).add(0, 0);
        ObjVsBpFilter objectVsBroadPhase = new ObjVsBpFilter(1, 1);
        ObjVsObjFilter objectVsObject = new ObjVsObjFilter(1);
        system = new PhysicsSystem();
        system.init(Math.max(16, n), 0, 1024, 1024, layers, objectVsBroadPhase, objectVsObject);
        bodies = system.getBodyInterface();
        bodyOfBox = new int[n];
        boxOfBody = new int[Math.max(16, n)];
        BodyCreationSettings settings = new BodyCreationSettings();
        settings.setMotionType(EMotionType.Static);
        settings.setObjectLayer(0);
        for (int i = 0; i < n; i++) {
            settings.setShape(new BoxShape(new Vec3(halfExtent(scene.minX[i], scene.maxX[i]),
                    halfExtent(scene.minY[i], scene.maxY[i]), halfExtent(scene.minZ[i], scene.maxZ[i])), 0f));
            settings.setPosition(centre(scene.minX[i], scene.maxX[i]), centre(scene.minY[i], scene.maxY[i]),
                    centre(scene.minZ[i], scene.maxZ[i]));
            int body = bodies.createAndAddBody(settings, EActivation.DontActivate);
            bodyOfBox[i] = body;
            int slot = body & 0x7FFFFF;
            if (slot >= boxOfBody.length) {
                boxOfBody = java.util.Arrays.copyOf(boxOfBody, Math.max(slot + 1, 2 * boxOfBody.length));
            }
            boxOfBody[slot] = i;
        }
        system.optimizeBroadPhase();
        broadPhase = system.getBroadPhaseQuery();
        narrowPhase = system.getNarrowPhaseQueryNoLock();
    }

    private float halfExtent(double min, double max) {
        return floatUp(0.5 * (max - min) + pad);
    }

    private static double centre(double min, double max) {
        return 0.5 * (min + max);
    }

    private int boxOf(int body) {
        return boxOfBody[body & 0x7FFFFF];
    }

    @Override
    protected void visitCandidates(double minX, double minY, double minZ, double maxX, double maxY, double maxZ) {
        lo.set(floatDown(minX), floatDown(minY), floatDown(minZ));
        hi.set(floatUp(maxX), floatUp(maxY), floatUp(maxZ));
        region.setMin(lo);
        region.setMax(hi);
        try (AllHitCollideShapeBodyCollector collector = new AllHitCollideShapeBodyCollector()) {
            broadPhase.collideAaBox(region, collector, broadPhaseFilter, objectFilter);
            for (int body : collector.getHits()) {
                if (!accept(boxOf(body))) {
                    return;
                }
            }
        }
    }

    @Override
    protected void cast(boolean any) {
        try (RRayCast ray = new RRayCast(new RVec3(ox, oy, oz), new Vec3((float) tx, (float) ty, (float) tz))) {
            if (any) {
                try (AnyHitCastRayCollector collector = new AnyHitCastRayCollector()) {
                    narrowPhase.castRay(ray, raySettings, collector, broadPhaseFilter, objectFilter, bodyFilter,
                            shapeFilter);
                    if (collector.hadHit()) {
                        try (RayCastResult hit = collector.getHit()) {
                            accept(boxOf(hit.getBodyId()));
                        }
                    }
                }
            } else {
                try (RayCastResult hit = new RayCastResult()) {
                    if (narrowPhase.castRay(ray, hit, broadPhaseFilter, objectFilter, bodyFilter)) {
                        accept(boxOf(hit.getBodyId()));
                    }
                }
            }
        }
    }

    @Override
    public void move(int index, double minX, double minY, double minZ, double maxX, double maxY, double maxZ,
            double dx, double dy, double dz) {
        moveInScene(index, minX, minY, minZ, maxX, maxY, maxZ);
        position.set(centre(minX, maxX), centre(minY, maxY), centre(minZ, maxZ));
        bodies.setPosition(bodyOfBox[index], position, EActivation.DontActivate);
    }
}
