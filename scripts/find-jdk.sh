# Sourced by ./stoker and the scripts: find_jdk prints the home of a JDK 25 or newer.
# Order: JAVA_HOME, java on the PATH, then the usual install folders.
jdk_major() { # prints the major version of the JDK at $1
  local rel="$1/release" v
  if [ -f "$rel" ]; then
    v=$(sed -n 's/^JAVA_VERSION="\([0-9]*\).*/\1/p' "$rel")
  elif [ -x "$1/bin/java" ]; then
    v=$("$1/bin/java" -version 2>&1 | sed -n 's/.*version "\([0-9]*\).*/\1/p' | head -1)
  fi
  echo "${v:-0}"
}
find_jdk() {
  local c
  if [ -n "${JAVA_HOME:-}" ] && [ -x "$JAVA_HOME/bin/javac" ] && [ "$(jdk_major "$JAVA_HOME")" -ge 25 ]; then
    echo "$JAVA_HOME"; return 0
  fi
  if command -v javac >/dev/null 2>&1; then
    c=$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")
    if [ "$(jdk_major "$c")" -ge 25 ]; then echo "$c"; return 0; fi
  fi
  for c in /usr/lib/jvm/* /opt/java/* /opt/jdk* "$HOME"/.sdkman/candidates/java/* \
           /Library/Java/JavaVirtualMachines/*/Contents/Home; do
    if [ -x "$c/bin/javac" ] && [ "$(jdk_major "$c")" -ge 25 ]; then echo "$c"; return 0; fi
  done
  return 1
}
