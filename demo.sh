#!/usr/bin/env bash
# Builds the project (without tests) and runs the demo. Output goes to ./boxwood-out unless a folder is given.
set -euo pipefail
cd "$(dirname "$0")"
mvn -B -q -ntp -DskipTests package
flags=(--add-opens=java.base/java.lang.reflect=ALL-UNNAMED --add-exports=java.base/sun.nio.ch=ALL-UNNAMED
       --add-exports=java.base/jdk.internal.ref=ALL-UNNAMED --add-exports=java.base/jdk.internal.misc=ALL-UNNAMED
       --add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED --add-opens=java.base/java.lang=ALL-UNNAMED
       --add-opens=java.base/java.io=ALL-UNNAMED --add-opens=java.base/java.util=ALL-UNNAMED
       --enable-native-access=ALL-UNNAMED -Dchronicle.analytics.disable=true -Ddisable.perf.info=true)
major=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.specification.version = \([0-9]*\).*/\1/p')
if [ "${major:-17}" -ge 23 ]; then flags+=(--sun-misc-unsafe-memory-access=allow); fi
exec java "${flags[@]}" -jar samples/target/boxwood-samples.jar "${@:-boxwood-out}"
