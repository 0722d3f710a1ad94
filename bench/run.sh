#!/usr/bin/env bash
# Builds the benchmark jar, then runs dev.isocheck.bench.EngineBenchmark.
#
#   bench/run.sh [-Xmx8g] [-XX:...] [-Dname=value] [BENCHMARK ARGUMENTS...]
#
# Arguments starting with -X or -D go to the JVM, the others to the benchmark (see bench/README.md,
# or run with --help). Environment: JAVA_OPTS (more JVM options), MVN_ARGS (e.g. -o to build
# offline), SKIP_BUILD=1 to run the jar already built.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

if [[ "${SKIP_BUILD:-}" != 1 ]]; then
  # shellcheck disable=SC2086
  mvn -q -B -ntp ${MVN_ARGS:-} -f "$root/pom.xml" -DskipTests package -pl bench -am
fi

jvm=()
args=()
for arg in "$@"; do
  case "$arg" in
    -X*|-D*) jvm+=("$arg") ;;
    *) args+=("$arg") ;;
  esac
done

# shellcheck disable=SC2086
exec java ${JAVA_OPTS:-} ${jvm[@]+"${jvm[@]}"} -jar "$root/bench/target/isocheck-bench.jar" ${args[@]+"${args[@]}"}
