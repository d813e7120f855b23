#!/bin/sh
# Records the unified-logging tag sets a JVM registers, one per line ("gc+heap+exit"), sorted:
# what an -Xlog selection must name for java not to warn "No tag set matches selection". java
# has no option that lists them, so the candidates are read from the symbol table of its
# libjvm.so (one LogTagSetMapping instantiation per tag set, its tags given as numbers that
# index the tag list -Xlog:help prints), then the JVM itself is asked: every candidate, given
# as a selection, must be taken without that warning. Run by hand, from the module root:
#   sh flags/testdata/jvmflags/record-tagsets.sh /path/to/bin/java
# It writes flags/testdata/jvmflags/jdk-VERSION.tagsets.txt (needs nm from binutils).
set -eu
java=$1
dir=flags/testdata/jvmflags
version=$("$java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p')
home=$(dirname "$(dirname "$(readlink -f "$(command -v "$java")")")")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
"$java" -Xlog:help | sed -n '/Available log tags:/{n;p}' | tr -d ' ' | tr ',' '\n' | grep . >"$tmp/tags"
nm -C "$home/lib/server/libjvm.so" | sed -n 's/.*guard variable for LogTagSetMapping<\(.*\)>::_tagset$/\1/p' |
	sed 's/(LogTag::type)//g; s/ //g' | sort -u >"$tmp/ids"
awk -F, 'NR == FNR { tag[NR] = $0; next }
	{ s = ""; for (i = 1; i <= NF; i++) if ($i != 0) s = s (s == "" ? "" : "+") tag[$i]; if (s != "") print s }' \
	"$tmp/tags" "$tmp/ids" | sort -u >"$tmp/sets"
if "$java" "-Xlog:$(paste -sd, "$tmp/sets")=off" -version 2>&1 | grep -q 'No tag set matches\|Invalid'; then
	echo "record-tagsets: the JVM refuses a tag set read from libjvm.so" >&2
	exit 1
fi
cp "$tmp/sets" "$dir/jdk-$version.tagsets.txt"
echo "wrote $dir/jdk-$version.tagsets.txt ($(wc -l <"$tmp/sets") tag sets)"
