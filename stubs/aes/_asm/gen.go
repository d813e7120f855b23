package main

// go generate ./stubs/aes runs this generator (see ../stubs.go); this line
// lets it run from here as well.
//go:generate go run . -out ../aes_amd64.s
