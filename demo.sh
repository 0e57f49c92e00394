#!/usr/bin/env bash
# Builds the samples (without tests) and runs the demo: the level-editor, line-of-sight and streaming-server
# samples, a short run of each. Pictures and world files go to ./boxwood-out unless a folder is given.
#   bash demo.sh [--quick] [folder]
# Any single sample runs the same way with its class name, for example:
#   java "${flags[@]}" -cp samples/target/boxwood-samples.jar dev.boxwood.samples.LevelEditorSample [--quick] out/
set -euo pipefail
# a relative folder (and the default) is the caller's, not the repository's, which the build below needs
caller=$(pwd)
args=()
folder=""
usage="usage: bash demo.sh [--quick] [folder]   (folder default: boxwood-out)"
for arg in "$@"; do
  case "$arg" in
    -h|--help) echo "$usage"; exit 0 ;;
    --quick) args+=("$arg") ;;
    -*) echo "error: unknown option $arg" >&2; echo "$usage" >&2; exit 2 ;;
    *)
      if [ -n "$folder" ]; then echo "error: one folder at most (got $folder and $arg)" >&2; echo "$usage" >&2; exit 2; fi
      folder="$arg"
      case "$arg" in /*) args+=("$arg") ;; *) args+=("$caller/$arg") ;; esac ;;
  esac
done
if [ -z "$folder" ]; then args+=("$caller/boxwood-out"); fi
cd "$(dirname "$0")"
mvn -B -q -ntp -pl samples -am -Dmaven.test.skip=true package
# The JVM options static worlds need (Chronicle Bytes maps their files), kept in argument files for every user.
flags=(@serialization/chronicle.args)
major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
if [ "${major:-17}" -ge 23 ]; then flags+=(@serialization/chronicle-jdk23.args); fi
exec java "${flags[@]}" -jar samples/target/boxwood-samples.jar "${args[@]}"
