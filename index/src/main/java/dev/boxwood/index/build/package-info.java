/**
 * The bulk builder shared by the dynamic tree and static worlds: a top-down binned-SAH build (Wald 2007) of a
 * binary hierarchy with one object per leaf, written to flat primitive arrays in depth-first node-pair layout
 * ({@link dev.boxwood.index.build.FlatBvh}), or handed node by node to a caller's own layout
 * ({@link dev.boxwood.index.build.BinnedSahBuilder.NodeSink}, as the dynamic tree writes its node records).
 * Deterministic for any number of threads.
 */
package dev.boxwood.index.build;
