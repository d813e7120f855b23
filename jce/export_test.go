package jce

// SlabLen is slabLen, for the tests of package jce_test: the Ciphers whose
// arrays the heap takes back together.
const SlabLen = slabLen
