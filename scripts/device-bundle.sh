#!/usr/bin/env bash
# Packs what the GPU machine needs into .device/ (ignored by git): a small Java runtime made with
# jlink (that machine has no JDK), the cuda module's jars and what they use at run time (vision
# and formats for the image loop), its tests and JUnit's console launcher, libjpeg-turbo, and the
# peers' data generator. scripts/device-run.sh runs them there.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh
JAVA_HOME=$(find_jdk) || { echo "no JDK 25 found" >&2; exit 1; }
export JAVA_HOME
./mvnw -q -B -DskipTests -Dmaven.javadoc.skip=true -Dmaven.source.skip=true package -pl cuda -am
./mvnw -q -B test-compile -pl cuda -am
rm -rf .device && mkdir -p .device/lib
./mvnw -q -B dependency:build-classpath -pl cuda -Dmdep.includeScope=runtime -Dmdep.outputFile="$PWD/.device/cp.txt"
tr ':' '\n' < .device/cp.txt | grep -v -E '/(junit|opentest4j|apiguardian|byte-buddy)' | while read -r jar; do [ -f "$jar" ] && cp "$jar" .device/lib/; done
rm .device/cp.txt
# Stoker's own jars from this build (the classpath above names the local repository's, which may be older)
for m in core vision formats cuda; do cp "$m"/target/stoker-"$m"-*[0-9T].jar .device/lib/; done
# The modules Stoker's jars use, plus the Vector API for the vectorised transforms and
# jdk.management for the loop's CPU time.
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.desktop,java.logging,java.management,java.net.http,jdk.management,jdk.unsupported,jdk.incubator.vector \
  --strip-debug --no-header-files --no-man-pages --compress zip-9 --output .device/jre
tar czf .device/jre.tgz -C .device jre && rm -rf .device/jre
cp -r cuda/target/test-classes .device/cuda-tests
m2=${MAVEN_REPO:-$HOME/.m2/repository}
./mvnw -q -B dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:6.1.3 >/dev/null
cp "$m2/org/junit/platform/junit-platform-console-standalone/6.1.3/junit-platform-console-standalone-6.1.3.jar" .device/lib/junit-console.jar
cp "$m2/org/assertj/assertj-core/3.27.7/assertj-core-3.27.7.jar" .device/lib/
# (no byte-buddy: AssertJ needs it only for soft assertions and its own assumptions, which the
# cuda tests do not use, and the carry to the device is limited to 64 MiB)
# libjpeg-turbo for the CPU decode: the GPU machine may have none. STOKER_TURBOJPEG names the one
# to carry (a 3.x build decodes only the crop); otherwise the one this machine's linker finds.
tj=${STOKER_TURBOJPEG:-$(ldconfig -p | awk '/libturbojpeg.so.0 .*x86-64/ {print $NF; exit}')}
if [ -n "$tj" ] && [ -f "$tj" ]; then mkdir -p .device/native && cp -L "$tj" .device/native/libturbojpeg.so.0; fi
# W3's images are made there by the peers' generator (PEERS: the folder holding gen_data.py)
peers=${PEERS:-../shared/peers}
[ -f "$peers/gen_data.py" ] && cp "$peers/gen_data.py" .device/
du -sh .device
