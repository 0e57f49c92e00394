/**
 * Static worlds off-heap: an immutable bounding volume hierarchy written once to a file
 * ({@link dev.boxwood.serial.StaticWorldWriter}, crash-safe; from an array of boxes, or from a
 * {@link dev.boxwood.serial.BoxSource} read in chunks when the boxes should never exist as one array) and then
 * memory-mapped and queried in place ({@link dev.boxwood.serial.MappedWorld}), with the query protocol of the
 * whole library ({@link dev.boxwood.query.SpatialQueries}). The file format is described in {@code docs/format.md} and
 * {@link dev.boxwood.serial.WorldLayout}; damaged or hostile files are reported as
 * {@link dev.boxwood.serial.CorruptWorldFileException} and never read outside their mapping. Worlds bigger than
 * memory are cut into tile files ({@link dev.boxwood.serial.TileSetWriter}) and streamed under a byte budget
 * ({@link dev.boxwood.serial.TiledWorld}, with ray batches in {@link dev.boxwood.serial.TiledBatchQueries}).
 * {@link dev.boxwood.serial.WorldPairs} gives the overlapping pairs between a dynamic tree's entities and a mapped
 * world, read in place.
 *
 * <p>Memory mapping goes through Chronicle Bytes, which needs JVM flags on JDK 17 and later: they are listed in
 * {@code docs/format.md}, section "JVM flags", and kept in the argument files
 * {@code serialization/chronicle.args} ({@code java @serialization/chronicle.args ...}) and, on JDK 23 and later,
 * {@code serialization/chronicle-jdk23.args}. Without them writing or mapping a world throws an
 * {@link java.lang.IllegalStateException} naming the missing options.
 */
package dev.boxwood.serial;
