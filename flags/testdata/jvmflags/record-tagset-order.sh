#!/bin/sh
# Records the order in which a JVM walks its unified-logging tag sets (its LogTagSet list, the
# order "No tag set matches selection" considers them in when it looks for suggestions), one
# per line ("gc+heap+exit"). java prints no such list, so the JVM is run under gdb to the end
# of `java -version` and the list is read from its memory: the list head LogTagSet::_list and
# the tag names LogTag::_name come from libjvm.so's symbol table, and each entry is read as
# its next pointer, its tag count and its tags (32-bit indexes into the names). The result
# must hold exactly the tag sets of jdk-VERSION.tagsets.txt (record-tagsets.sh), which checks
# that reading. Run by hand, from the module root, after record-tagsets.sh:
#   sh flags/testdata/jvmflags/record-tagset-order.sh /path/to/bin/java
# It writes flags/testdata/jvmflags/jdk-VERSION.tagset-order.txt (needs gdb with Python).
set -eu
java=$1
dir=flags/testdata/jvmflags
version=$("$java" -version 2>&1 | sed -n 's/.*version "\([^"]*\)".*/\1/p')
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cat >"$tmp/walk.py" <<'PY'
import gdb
mem = gdb.selected_inferior()
def word(addr, size=8):
    return int.from_bytes(mem.read_memory(addr, size).tobytes(), "little")
def text(addr):
    return mem.read_memory(addr, 80).tobytes().split(b"\0")[0].decode()
names = int(gdb.parse_and_eval("(long)&'LogTag::_name'"))
node = word(int(gdb.parse_and_eval("(long)&'LogTagSet::_list'")))
with open(OUT, "w") as out:
    while node:
        tags = [word(node + 16 + 4 * i, 4) for i in range(word(node + 8))]
        if tags:  # the list also holds a tag set without tags, which no selection names
            out.write("+".join(text(word(names + 8 * t)) for t in tags) + "\n")
        node = word(node)
PY
gdb -batch -nx -ex 'handle SIGSEGV nostop noprint pass' -ex 'handle SIGBUS nostop noprint pass' \
	-ex 'catch syscall exit_group' -ex run -ex "python OUT = '$tmp/order'" -ex "source $tmp/walk.py" -ex kill \
	--args "$java" -Xshare:off -version >"$tmp/gdb.log" 2>&1 || { tail -5 "$tmp/gdb.log" >&2; exit 1; }
if ! sort "$tmp/order" | cmp -s - "$dir/jdk-$version.tagsets.txt"; then
	echo "record-tagset-order: the list read from the JVM is not jdk-$version.tagsets.txt" >&2
	exit 1
fi
cp "$tmp/order" "$dir/jdk-$version.tagset-order.txt"
echo "wrote $dir/jdk-$version.tagset-order.txt ($(wc -l <"$tmp/order") tag sets)"
