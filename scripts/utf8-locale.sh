# Sourced by ./stoker: use_utf8_locale exports LC_ALL as a UTF-8 locale when the one in force is not.
# Why: the JVM spells file names in its start-up locale's charset (sun.jnu.encoding, which no flag
# sets). Under LANG=C or POSIX, as in a bare container, that is ASCII, and a folder with a name like
# café fails with InvalidPathException. glibc's C.UTF-8 is on nearly every Linux system (locale -a
# lists it as C.utf8). A UTF-8 locale in force is kept when the system has it (one it lacks falls
# back to C, ASCII, so it is replaced too).
normal_locale() { # glibc's spelling-blind form: en_GB.UTF-8 and en_GB.utf8 are one locale
  printf '%s' "$1" | tr 'A-Z' 'a-z' | tr -d '-'
}
use_utf8_locale() {
  local now have l
  now="${LC_ALL:-${LC_CTYPE:-${LANG:-}}}"
  have=$(locale -a 2>/dev/null || true)
  case "$now" in
    *[Uu][Tt][Ff]-8* | *[Uu][Tt][Ff]8*)
      # no locale -a (not glibc, e.g. macOS, where the JVM uses UTF-8 anyway): trust the name
      if [ -z "$have" ]; then return 0; fi
      for l in $have; do
        if [ "$(normal_locale "$l")" = "$(normal_locale "$now")" ]; then return 0; fi
      done
      ;;
  esac
  for l in C.UTF-8 C.utf8 en_US.UTF-8 en_US.utf8; do
    if printf '%s\n' "$have" | grep -qx "$l"; then
      export LC_ALL="$l"
      return 0
    fi
  done
  return 0 # none here: the JVM keeps the locale it has, and Stoker's readers say what to do
}
