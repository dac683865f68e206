# Sourced by ./stoker: a start-up cache for the JVM (JDK 25's AOT cache, JEP 483, 514 and 515),
# made without a step of the user's own. A JVM started with one maps the classes an earlier run
# loaded and linked, and the method profiles it gathered, instead of loading, linking and
# profiling them again: W3's first batch came about a quarter sooner (BENCHMARKS.md).
#
#   1st run of a command:  recorded as it runs (-XX:AOTMode=record): the classes it loads and the
#                          profiles it gathers go into a configuration file, written at its exit
#   2nd run:               the cache is made from that file first (about a second, once), then used
#   later runs:            used (-XX:AOTCache)
#
# Where: ${XDG_CACHE_HOME:-~/.cache}/stoker/aot, one cache per jar (its path, size and time), JVM,
# JVM flags, command and workload (a W3 run loads other classes than a W1 run). A cache of an
# earlier build of the same jar is deleted when the next one is recorded. A cache the JVM cannot
# use (another JVM, other flags) it refuses and starts without; its log lines about that are
# turned off (-Xlog:aot=off,cds=off), so a stale or foreign cache prints nothing. A folder that
# cannot be written, or a cache that cannot be made, leaves the run as it was: without one.
# STOKER_AOT=0 turns it off; an -XX:AOT... flag of one's own in STOKER_JAVA_OPTS wins. A recording
# run has no Flight Recorder: to attach one with jcmd, use STOKER_AOT=0 (or a later run, which uses
# the cache); a -XX:StartFlightRecording in STOKER_JAVA_OPTS is never a recording run.

# aot_flags JAVA JAR "JVM FLAGS" ARGS...: prints the flags for this run (none, record or use);
# makes the cache first when an earlier run recorded it.
aot_flags() {
  local java=$1 jar=$2 jvm_flags=$3
  shift 3
  [ "${STOKER_AOT:-1}" != 0 ] || return 0
  case " ${STOKER_JAVA_OPTS:-} " in *"-XX:AOT"*|*"-XX:SharedArchiveFile"*|*"-Xshare:off"*) return 0 ;; esac
  case "${1:-}" in ""|-*|help) return 0 ;; esac # help and version texts: nothing worth a cache
  local dir=${XDG_CACHE_HOME:-$HOME/.cache}/stoker/aot
  mkdir -p "$dir" 2>/dev/null && [ -w "$dir" ] || return 0
  local workload="" prev="" a
  for a in "$@"; do
    case "$prev" in -w|--workload) workload=$a ;; esac
    case "$a" in --workload=*) workload=${a#--workload=} ;; -w?*) workload=${a#-w} ;; esac
    prev=$a
  done
  local jar_stamp owner build key
  jar_stamp=$(stat -c '%s-%Y' "$jar" 2>/dev/null || stat -f '%z-%m' "$jar" 2>/dev/null) || return 0
  # Named stoker-OWNER-BUILD-KEY: OWNER the jar's path, BUILD its size and time, KEY the rest. A
  # new build's first recording deletes the older builds' files of the same path; another
  # checkout's are left alone.
  owner=$(printf '%s' "$jar" | cksum | cut -d ' ' -f 1)
  build=$(printf '%s' "$jar_stamp" | cksum | cut -d ' ' -f 1)
  key=$(printf '%s|%s|%s|%s|%s' "$java" "$(cat "${java%/bin/java}/release" 2>/dev/null)" \
        "$jvm_flags ${STOKER_JAVA_OPTS:-}" "$1" "$workload" | cksum | cut -d ' ' -f 1)
  local base="$dir/stoker-$owner-$build-$key" quiet="-Xlog:aot=off -Xlog:cds=off"
  if [ ! -f "$base.aot" ]; then
    local conf
    for conf in "$base".*.conf; do
      [ -f "$conf" ] || continue
      # shellcheck disable=SC2086 # flag lists
      if "$java" $jvm_flags ${STOKER_JAVA_OPTS:-} -XX:AOTMode=create -XX:AOTConfiguration="$conf" \
           -XX:AOTCache="$base.$$.tmp" $quiet -jar "$jar" >/dev/null 2>&1; then
        mv -f "$base.$$.tmp" "$base.aot" 2>/dev/null
      fi
      rm -f "$conf" "$base.$$.tmp"
      break
    done
  fi
  if [ -f "$base.aot" ]; then
    echo "-XX:AOTCache=$base.aot $quiet"
    return 0
  fi
  # A JVM recording for the cache runs without Flight Recorder (JDK 25 drops -XX:StartFlightRecording
  # there, and jcmd's JFR commands fail): a run that asks for a recording runs without the cache.
  case " ${STOKER_JAVA_OPTS:-} " in *"FlightRecord"*) return 0 ;; esac
  # Record. Before, the files of older builds of this jar go, and recordings left by runs that died.
  local f
  for f in "$dir/stoker-$owner-"*; do
    case "$f" in "$dir/stoker-$owner-$build-"*) ;; *) rm -f "$f" ;; esac
  done
  find "$dir" -name 'stoker-*.conf' -mmin +60 -delete 2>/dev/null
  # -DisplayVMOutput: the JVM's one line at exit ("AOTConfiguration recorded: FILE") would go to
  # stdout, into --json output; errors about flags still reach stderr
  echo "-XX:AOTMode=record -XX:AOTConfiguration=$base.$$.conf $quiet -XX:+UnlockDiagnosticVMOptions -XX:-DisplayVMOutput"
}
