/*
 * jvm.h — the conventions every jitsim reference method follows.
 *
 * Each .c file in this directory is the body of one Java method of the
 * JDK's com.sun.crypto.provider, written in freestanding C and built to one
 * wasm32 module per method (see ../build.sh). The build is repeated with
 * -DPROFILE=0 (NONE: levels 1 and 4), 1 (LIMITED: level 2) and 2 (FULL:
 * levels 0 and 3); the macros below compile HotSpot's counters in or out.
 *
 * ABI (the Go table in ../methods.go describes the same thing):
 *   - a Java array parameter is two wasm params: pointer (0 = null) and
 *     length in elements; int[] elements are little-endian u32 holding the
 *     Java int, long[] elements little-endian u64;
 *   - int/boolean are i32, long is i64; the return is i32 or nothing;
 *   - a call to another Java method is a wasm import from module "jvm",
 *     named by the callee's table key, with the callee's own ABI;
 *   - fixed addresses, the same in every build of every method, so that a
 *     frame saved by one build can be resumed by another (OSR):
 *       0x10000 PROF  profile area (counters, notification mask, status);
 *       0x10300       inline switches, the inlined thrower and the inlined
 *                     calls not yet charged (see below);
 *       0x10400 CTL   thrown exception code and the OSR frame;
 *       0x10800       arguments, placed by the host.
 */
#ifndef JVM_H
#define JVM_H

typedef unsigned char u8;
typedef int i32;
typedef unsigned int u32;
typedef long long i64;
typedef unsigned long long u64;

#ifndef PROFILE
#error "build with -DPROFILE=0|1|2"
#endif

/*
 * Inline builds (../../internal/inlinegen): a method compiled at level 1, 2 or 4
 * is linked statically with the bodies of every method it reaches, and each
 * call goes through a generated shim that either runs the linked body
 * (inlined: same memory, no host hop) or the "jvm" import (dispatcher). In
 * such a build every object is compiled with -DINLINE_LINK, which leaves
 * the calls as plain C externs the shims define; the callees' objects also
 * get -DINLINED: no exports, PROFILE 0 (an inlined body counts nothing, as
 * in C2 code) and the loop state on the shadow stack instead of at the
 * fixed OSR frame (the root's frame lives there).
 */
#ifdef INLINED
#if PROFILE != 0
#error "an inlined body is built with -DPROFILE=0"
#endif
#define EXPORT(name)
#else
#define EXPORT(name) __attribute__((export_name(name)))
#endif
#ifdef INLINE_LINK
#define IMPORT(name)
#else
#define IMPORT(name) __attribute__((import_module("jvm"), import_name(name)))
#endif

/* prof_t is the method's MethodCounters + MethodData analogue. */
typedef struct {
	u32 invocations;  /* invocation counter (levels 0, 2, 3) */
	u32 backedges;    /* back-edge counter (levels 0, 2, 3) */
	u32 be_mask;      /* notify when (backedges & be_mask) == 0 ... */
	u32 be_notify;    /* ... and this is non-zero (set by the host) */
	u32 status;       /* 1 = returned at a back-edge notification point */
	u32 osr_loop;     /* which loop of the method the frame belongs to */
	u32 pad[2];
	u32 branch[64];   /* FULL: taken / not-taken per branch site (BranchData) */
	u32 site[32];     /* FULL: per call-site counts (CounterData / ReceiverTypeData) */
} prof_t;

typedef struct {
	u32 thrown;       /* 0, or an exception code (EX_*) */
	u32 detail;       /* an int the host prints with the exception */
	u32 frame[254];   /* the saved loop state of an interrupted method */
} ctl_t;

#define PROF ((prof_t *)0x10000)
#define CTL ((ctl_t *)0x10400)
#ifdef INLINED
#define FRAME(T) (&(T){0})
#else
#define FRAME(T) ((T *)CTL->frame)
#endif

/* The inline area, after prof_t in the profile page: INLINE_ON[slot] is
 * set by the host when calls to the method of that slot (its index in the
 * sorted list of method keys) run inlined; INLINE_THROWER is 1 + the slot
 * of the first inlined method that threw, so the host can name it. */
#define INLINE_ON ((u32 *)0x10300)
#define INLINE_THROWER (*(u32 *)0x10380)
/* INLINE_CHARGE is set by the host when inlined calls must report their
 * callee and payload (the model clock charges inlined work). */
#define INLINE_CHARGE (*(u32 *)0x10384)
/* INLINE_CHARGES lists the inlined calls not yet reported, as runs of
 * calls of one slot with one payload (INLINE_NCHARGES of them in use, at
 * most INLINE_CHARGES_MAX). The host reads and empties the list before it
 * serves a call from this code and when the code returns; the code hands
 * the list over itself (the import jitsim.charges) when it is full. */
typedef struct {
	i32 slot, payload;
	u32 count;
} charge_t;
#define INLINE_NCHARGES (*(u32 *)0x1038c)
#define INLINE_CHARGES ((charge_t *)0x10390)
#define INLINE_CHARGES_MAX 8

/* BLOCKS_ON is set by the host when this code's calls through its
 * "jvm.blocks" imports go to a native stub bound at link time (C2). Such an
 * import is a callee's own import with one more i32 parameter, n: its byte
 * arrays hold n calls' arrays one after another, every other argument is
 * the same for all n, and the host runs, counts and charges each of the n
 * calls as a call of its own. A loop that only hands successive blocks to
 * the call may then leave the code once per batch instead of once a block. */
#define BLOCKS_ON (*(u32 *)0x10388)
#define BLOCKS_IMPORT(name) __attribute__((import_module("jvm.blocks"), import_name(name)))

/* Exception codes; the host turns them into errors naming the Java exception. */
#define EX_AIOOBE 1       /* ArrayIndexOutOfBoundsException */
#define EX_PROVIDER 2     /* ProviderException (bad length) */
#define EX_INVALIDKEY 3   /* InvalidKeyException */
#define EX_NPE 4          /* NullPointerException */
#define EX_CALLEE 5       /* reserved for the host */

#define THROW(code, d) do { CTL->thrown = (code); CTL->detail = (u32)(d); return 0; } while (0)
#define THROWV(code, d) do { CTL->thrown = (code); CTL->detail = (u32)(d); return; } while (0)
/* CHECKED returns when a callee reached through an import threw. */
#define CHECKED(call) do { call; if (CTL->thrown) return 0; } while (0)
#define CHECKEDV(call) do { call; if (CTL->thrown) return; } while (0)

/* RANGE checks [ofs, ofs+len) against an array of n elements, as the JDK's
 * Preconditions / ArrayUtil.nullAndBoundsCheck do before an intrinsic. */
#define RANGE_OK(p, n, ofs, len) ((p) != 0 && (ofs) >= 0 && (len) >= 0 && (ofs) <= (n) - (len))

#if PROFILE >= 1
/* ENTRY counts an invocation (MethodCounters::invocation_counter). */
#define ENTRY() (PROF->invocations++)
/* BACKEDGE counts one taken back-branch; at a notification point the host
 * asked for (HotSpot's TierXBackedgeNotifyFreqLog), SAVE stores the loop
 * state in the frame and the method returns to the host with status 1. */
#define BACKEDGE(loop, SAVE)                                              \
	do {                                                              \
		u32 b_ = ++PROF->backedges;                               \
		if (PROF->be_notify && (b_ & PROF->be_mask) == 0) {       \
			SAVE;                                             \
			PROF->status = 1;                                 \
			PROF->osr_loop = (loop);                          \
			return 0;                                         \
		}                                                         \
	} while (0)
#define BACKEDGEV(loop, SAVE)                                             \
	do {                                                              \
		u32 b_ = ++PROF->backedges;                               \
		if (PROF->be_notify && (b_ & PROF->be_mask) == 0) {       \
			SAVE;                                             \
			PROF->status = 1;                                 \
			PROF->osr_loop = (loop);                          \
			return;                                           \
		}                                                         \
	} while (0)
/* LOOPCOUNT counts a back-branch of a loop that has no OSR entry (short
 * inner loops: AES rounds, key expansion); it never notifies. */
#define LOOPCOUNT() (PROF->backedges++)
#else
#define ENTRY() ((void)0)
#define LOOPCOUNT() ((void)0)
#define BACKEDGE(loop, SAVE) ((void)0)
#define BACKEDGEV(loop, SAVE) ((void)0)
#endif

#if PROFILE >= 2
/* BR records the outcome of a conditional branch (BranchData). */
#define BR(siteno, cond) ((cond) ? (PROF->branch[2 * (siteno)]++, 1) : (PROF->branch[2 * (siteno) + 1]++, 0))
/* SITE counts a call site's executions (CounterData at an invoke). */
#define SITE(siteno) (PROF->site[(siteno)]++)
#else
#define BR(siteno, cond) (cond)
#define SITE(siteno) ((void)0)
#endif

static inline u32 be32(const u8 *p)
{
	return (u32)p[0] << 24 | (u32)p[1] << 16 | (u32)p[2] << 8 | (u32)p[3];
}

static inline u64 be64(const u8 *p)
{
	return (u64)be32(p) << 32 | (u64)be32(p + 4);
}

static inline void put32(u8 *p, u32 v)
{
	p[0] = (u8)(v >> 24);
	p[1] = (u8)(v >> 16);
	p[2] = (u8)(v >> 8);
	p[3] = (u8)v;
}

static inline void put64(u8 *p, u64 v)
{
	put32(p, (u32)(v >> 32));
	put32(p + 4, (u32)v);
}

#endif
