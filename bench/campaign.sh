#!/usr/bin/env bash
# Runs the benchmark campaign behind docs/benchmarks.md and writes JMH JSON into bench/results/<jdk>/.
# Usage: bash bench/campaign.sh [kernel|peers|queries|tree|all] [java-home]
# Build first: mvn -B -q -DskipTests package
set -euo pipefail
cd "$(dirname "$0")/.."
what=${1:-all}
java_home=${2:-}
java=java
[ -n "$java_home" ] && java="$java_home/bin/java"
major=$("$java" -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
host=()
[ "${major:-17}" -ge 23 ] && host+=(--sun-misc-unsafe-memory-access=allow)
out="bench/results/jdk${major}"
mkdir -p "$out"
jmh() { local name=$1; shift; "$java" "${host[@]}" -jar bench/target/benchmarks.jar "$@" -rf json -rff "$out/$name.json" | tee "$out/$name.txt"; }

if [ "$what" = kernel ] || [ "$what" = all ]; then
  jmh kernel 'dev.boxwood.bench.kernel' -f 1 -wi 3 -i 5 -w 1s -r 1s -prof gc
fi
if [ "$what" = peers ] || [ "$what" = all ]; then
  jmh peers-query-100k 'dev.boxwood.bench.peers.PeerQueryBenchmark' -p n=100000 -prof gc
  jmh peers-query-1m 'dev.boxwood.bench.peers.PeerQueryBenchmark' -p n=1000000 \
      -p contender=boxwood,jolt,jts-hprtree,jts-strtree,tinspin-rtree,jbullet-dbvt,jbox2d,conversant-rtree -prof gc
  jmh peers-move 'dev.boxwood.bench.peers.PeerMoveBenchmark' -prof gc
  jmh peers-build-100k 'dev.boxwood.bench.peers.PeerBuildBenchmark' -p n=100000 -i 5
  jmh peers-build-1m 'dev.boxwood.bench.peers.PeerBuildBenchmark' -p n=1000000 -i 2 \
      -p contender=boxwood,boxwood-insert,jbox2d,jts-hprtree,jts-strtree,tinspin-rtree,jolt
fi
if [ "$what" = queries ] || [ "$what" = all ]; then
  jmh queries 'dev.boxwood.bench.queries' -prof gc
fi
if [ "$what" = tree ] || [ "$what" = all ]; then
  jmh tree 'dev.boxwood.bench.tree'
fi
