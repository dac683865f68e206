#!/usr/bin/env bash
# A release dry run: deploys every artifact to a folder (target/release-dry-run) instead of a
# repository, then checks that the set is complete and consistent as Maven Central would: each
# library module has its jar, sources jar, javadoc jar and pom, at one version, and each pom names
# a licence, a URL, an SCM and developers. Tests are not run (./stoker test does that).
#
#   bash scripts/release-dry-run.sh      (JDK 25 found as ./stoker finds it)
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
. "$root/scripts/find-jdk.sh"
JAVA_HOME=$(find_jdk) || { echo "release-dry-run: needs a JDK 25 or newer (see ./stoker)" >&2; exit 1; }
export JAVA_HOME
cd "$root"
out="$root/target/release-dry-run"
rm -rf "$out"
./mvnw -B -ntp -q -DskipTests deploy -DaltDeploymentRepository="dry-run::file://$out"

version=$(sed -n 's:^  <version>\(.*\)</version>$:\1:p' pom.xml | head -n 1)
problems=0
problem() { echo "  PROBLEM: $*" >&2; problems=$((problems + 1)); }
# The BOM's list is the list of library modules (BomTest keeps it whole).
libraries=$(sed -n 's:.*<artifactId>\(stoker-[^<]*\)</artifactId>.*:\1:p' bom/pom.xml | grep -v '^stoker-bom$')
echo "release-dry-run: dev.stoker:*:$version into $out" >&2
for artifact in stoker-parent stoker-bom $libraries stoker-cli; do
  dir="$out/dev/stoker/$artifact/$version"
  if [ ! -d "$dir" ]; then problem "$artifact: nothing deployed"; continue; fi
  # A snapshot deploy stamps each file with a time and build number: match on the artifact's name.
  files=$(ls "$dir")
  wants="pom"
  case $artifact in stoker-parent|stoker-bom) ;; *) wants="pom jar sources.jar javadoc.jar" ;; esac
  for kind in $wants; do
    case $kind in
      pom) pattern="^$artifact-.*\.pom$" ;;
      jar) pattern="^$artifact-[0-9][^-]*(-SNAPSHOT|-[0-9.]+-[0-9]+)?\.jar$" ;;
      *) pattern="^$artifact-.*-$kind$" ;;
    esac
    echo "$files" | grep -Eq "$pattern" || problem "$artifact: no $kind"
  done
  pom="$dir/$(echo "$files" | grep -E "\.pom$" | head -n 1)"
  for tag in licenses url scm developers description; do
    # The bom names its own; a module inherits the parent's, which is deployed beside it.
    if [ "$artifact" = stoker-bom ] || [ "$artifact" = stoker-parent ]; then
      grep -q "<$tag>" "$pom" || problem "$artifact: its pom has no <$tag>"
    fi
  done
  grep -q "<version>$version</version>" "$pom" || problem "$artifact: its pom is not at $version"
  printf '  %-22s %s\n' "$artifact" "$(echo "$files" | grep -Ev '\.(md5|sha1|sha256|sha512)$|maven-metadata' | sed "s/^$artifact-//" | tr '\n' ' ')" >&2
done
if [ $problems -ne 0 ]; then
  echo "release-dry-run: $problems problem(s)" >&2
  exit 1
fi
echo "release-dry-run: complete and consistent" >&2
