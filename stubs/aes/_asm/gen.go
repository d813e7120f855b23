package main

//go:generate go run . -out ../aes_amd64.s
