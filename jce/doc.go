// Package jce answers "what does javax.crypto.Cipher do for AES on this JDK
// release?": the SunJCE provider's Java logic above the reference methods
// of package bytecode — transformation parsing, key and parameter checks,
// CipherCore's buffering and padding, GaloisCounterMode's size routing
// (PARALLEL_LEN), splits and tag — with every call into a modelled method
// made through an [Invoker], which the VM (runtime.VM, runtime.ThreadInvoker)
// satisfies. What differs between releases is one row per release
// (providerProfiles), keyed by jdk.Release.
//
// The package needs nothing of the VM but that interface: it imports the
// reference code's ABI (bytecode.Arg, bytecode.Method) and the Java heap,
// never package runtime, so the runtime's tests may drive the VM through a
// Cipher.
package jce
