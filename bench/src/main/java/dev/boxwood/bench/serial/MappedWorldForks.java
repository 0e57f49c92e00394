package dev.boxwood.bench.serial;

import org.openjdk.jmh.annotations.Fork;

/**
 * The fork settings of the benchmarks that write and map world files: one fork with an 8 GB heap and the JVM
 * options Chronicle Bytes needs (the parent POM's {@code chronicle.jvm.args}; JMH takes a class's {@link Fork} from
 * its superclass). On JDK 23 and later add {@code --sun-misc-unsafe-memory-access=allow} to the host {@code java}
 * command (forks inherit it).
 */
@Fork(value = 1, jvmArgsAppend = {"-Xmx8g",
        "--add-opens=java.base/java.lang.reflect=ALL-UNNAMED", "--add-exports=java.base/sun.nio.ch=ALL-UNNAMED",
        "--add-exports=java.base/jdk.internal.ref=ALL-UNNAMED", "--add-exports=java.base/jdk.internal.misc=ALL-UNNAMED",
        "--add-exports=jdk.unsupported/sun.misc=ALL-UNNAMED", "--add-opens=java.base/java.lang=ALL-UNNAMED",
        "--add-opens=java.base/java.io=ALL-UNNAMED", "--add-opens=java.base/java.util=ALL-UNNAMED",
        "--enable-native-access=ALL-UNNAMED", "-Dchronicle.analytics.disable=true",
        "-Dchronicle.announcer.disable=true", "-Ddisable.perf.info=true"})
public abstract class MappedWorldForks {
}
