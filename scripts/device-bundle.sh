#!/usr/bin/env bash
# Packs what the GPU machine needs into .device/ (ignored by git): a small Java runtime made with
# jlink (that machine has no JDK), the built jars, the cuda module's tests and JUnit's console
# launcher. scripts/device-run.sh runs them there.
set -euo pipefail
cd "$(dirname "$0")/.."
. scripts/find-jdk.sh
JAVA_HOME=$(find_jdk) || { echo "no JDK 25 found" >&2; exit 1; }
export JAVA_HOME
./mvnw -q -B -DskipTests package -pl cuda,cli -am
./mvnw -q -B test-compile -pl cuda -am
rm -rf .device && mkdir -p .device/lib
# The modules Stoker's jars use (jdeps over cli/target/stoker.jar), plus the Vector API for the
# vectorised transforms and jdk.management for the end-to-end loop's CPU time.
"$JAVA_HOME/bin/jlink" --add-modules java.base,java.desktop,java.logging,java.management,java.net.http,java.sql,java.xml,java.naming,jdk.management,jdk.unsupported,jdk.incubator.vector \
  --strip-debug --no-header-files --no-man-pages --compress zip-9 --output .device/jre
tar czf .device/jre.tgz -C .device jre && rm -rf .device/jre
cp core/target/stoker-core-*.jar cuda/target/stoker-cuda-*.jar .device/lib/
[ -f cli/target/stoker.jar ] && cp cli/target/stoker.jar .device/
cp -r cuda/target/test-classes .device/cuda-tests
m2=${MAVEN_REPO:-$HOME/.m2/repository}
./mvnw -q -B dependency:get -Dartifact=org.junit.platform:junit-platform-console-standalone:6.1.3 >/dev/null
cp "$m2/org/junit/platform/junit-platform-console-standalone/6.1.3/junit-platform-console-standalone-6.1.3.jar" .device/lib/junit-console.jar
cp "$m2/org/assertj/assertj-core/3.27.7/assertj-core-3.27.7.jar" .device/lib/
# (no byte-buddy: AssertJ needs it only for soft assertions and its own assumptions, which the
# cuda tests do not use, and the carry to the device is limited to 64 MiB)
du -sh .device
