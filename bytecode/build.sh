#!/bin/sh
# build.sh rebuilds every reference module listed in src/modules.txt into
# $OUT/<module>.<none|limited|full>.wasm (OUT defaults to wasm/) with Debian's clang + lld (wasm32,
# freestanding, -O2, explicit exports), the None build once more with C2's loop unrolling
# ($C2FLAGS) into $OUT/<module>.unrolled.wasm, then the inline modules
# $OUT/<module>.inline.<profiles>.<none|limited|unrolled>.wasm. Run by `go generate`; CI runs it and
# then `git diff --exit-code -- wasm` to prove the committed modules are
# reproducible.
set -eu
cd "$(dirname "$0")"
CC=${CC:-clang}
command -v "$CC" >/dev/null || { echo "build.sh: $CC not found (apt-get install clang lld)" >&2; exit 1; }
OUT=${OUT:-wasm}
mkdir -p "$OUT"
rm -f "$OUT"/*.wasm
# Memory layout (see src/jvm.h): shadow stack first (32 KiB), then data;
# the profile area, frame and arguments start at 64 KiB, the same in every build.
# C2 unrolls a loop while the unrolled body stays within LoopUnrollLimit (60 ideal nodes);
# the unrolled build lets clang unroll a loop partially up to 60 instructions of body
# (the wasm defaults leave a 20-instruction body rolled). Level 4 runs it.
C2FLAGS="-mllvm -unroll-partial-threshold=60"
LDFLAGS="-Wl,--no-entry -Wl,--strip-all -Wl,--stack-first -z stack-size=32768 \
 -Wl,--initial-memory=196608 -Wl,--export=__heap_base"
grep -v '^#' src/modules.txt | while read -r name src defs; do
	[ -n "$name" ] || continue
	for p in 0:none 1:limited 2:full; do
		level=${p%%:*} build=${p#*:}
		# shellcheck disable=SC2086
		$CC --target=wasm32 -nostdlib -O2 -ffreestanding -fno-builtin -Wall -Werror \
			-DPROFILE="$level" $defs $LDFLAGS \
			-o "$OUT/$name.$build.wasm" "src/$src"
	done
	# shellcheck disable=SC2086
	$CC --target=wasm32 -nostdlib -O2 -ffreestanding -fno-builtin -Wall -Werror \
		-DPROFILE=0 $C2FLAGS $defs $LDFLAGS -o "$OUT/$name.unrolled.wasm" "src/$src"
done
# Inline modules (levels 1, 2 and 4): each method that calls others, linked with
# the bodies it reaches and a shim per call (../tiers/internal/inlinegen, src/jvm.h).
C2FLAGS="$C2FLAGS" LDFLAGS="$LDFLAGS" CC="$CC" go run ../tiers/internal/inlinegen -src src -out "$OUT"
chmod 644 "$OUT"/*.wasm
