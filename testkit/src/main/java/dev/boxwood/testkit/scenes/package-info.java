/**
 * Seeded, reproducible worlds and query workloads for tests and benchmarks.
 *
 * <p>Everything here is stored in primitive arrays (structure of arrays, one {@code double[]} per
 * coordinate), never as one object per box, so scenes of millions of boxes are cheap to build, copy and
 * scan. Every generator is deterministic for a given seed: the same arguments give the same numbers on the
 * same JVM and platform ({@link java.util.SplittableRandom} and this package's own arithmetic, with
 * {@link java.lang.Math}'s exp, log, sin and cos, which may differ in the last bit between platforms).
 *
 * <ul>
 *   <li>{@link dev.boxwood.testkit.scenes.SyntheticWorld}: the world of the peer benchmark
 *       (10 km x 10 km x 200 m, 64 Gaussian clusters plus a uniform background, boxes of about 2 m), its
 *       box queries sized for 10 to 100 hits, its 500 m segments, and a uniform variant.</li>
 *   <li>{@link dev.boxwood.testkit.scenes.MovingWorkload}: every box walks a little every tick.</li>
 *   <li>{@link dev.boxwood.testkit.scenes.LevelScenes}: the real level data shipped in the test kit, with
 *       random queries inside a level's bounds.</li>
 *   <li>{@link dev.boxwood.testkit.scenes.WorldFrame}: where a world sits and at what scale (worlds far
 *       from the origin, unit-scale worlds).</li>
 * </ul>
 *
 * <p>Boxes and segments follow the library conventions: boxes are closed (touching counts), a segment is
 * {@code origin + t * translation} for {@code t} in {@code [0, 1]}.
 */
package dev.boxwood.testkit.scenes;
