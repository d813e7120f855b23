// Package jsonpos reads JSON input whole, bounded, so that an error names
// the line of the offending value: "FILE:LINE: …". The importers (Krun
// results, series.json, JMH's JSON result files) share it.
package jsonpos

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
)

// MaxBytes bounds what an importer takes in: Krun's largest published
// studies (30 executions × 2000 iterations × some hundred keys, with
// per-core counters) and jitsim's longest series stay far below.
const MaxBytes = 256 << 20

// Input is one file's text being decoded.
type Input struct {
	File string
	Data []byte
	Dec  *json.Decoder
}

// Read reads all of r, at most MaxBytes (kind names the format in errors),
// and starts a decoder on it.
func Read(r io.Reader, file, kind string) (*Input, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s: %s: %v", file, kind, err)
	}
	if len(data) > MaxBytes {
		return nil, fmt.Errorf("%s: more than %d MiB of %s: not read", file, MaxBytes>>20, kind)
	}
	return &Input{File: file, Data: data, Dec: json.NewDecoder(bytes.NewReader(data))}, nil
}

// Line is the line of the text holding byte offset off.
func (in *Input) Line(off int64) int {
	off = max(0, min(off, int64(len(in.Data))))
	return 1 + bytes.Count(in.Data[:off], []byte("\n"))
}

// Errorf is an error at the line holding offset off.
func (in *Input) Errorf(off int64, format string, a ...any) error {
	return fmt.Errorf("%s:%d: %s", in.File, in.Line(off), fmt.Sprintf(format, a...))
}

// Next is where the next value begins: past blanks and the ':' or ','
// before it.
func (in *Input) Next() int64 {
	off := in.Dec.InputOffset()
	for off < int64(len(in.Data)) && strings.IndexByte(" \t\r\n:,", in.Data[off]) >= 0 {
		off++
	}
	return off
}

// Decode decodes the next value into v; an error names the line of the
// offending text (a syntax or type error's offset counts from the start of
// the value decoded). what prefixes the message.
func (in *Input) Decode(what string, v any) error {
	start := in.Next()
	err := in.Dec.Decode(v)
	if err == nil {
		return nil
	}
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &se):
		return in.Errorf(start+se.Offset-1, "%s%v", what, err)
	case errors.As(err, &te):
		return in.Errorf(start+te.Offset-1, "%s%v", what, err)
	}
	return in.Err(fmt.Errorf("%s%w", what, err))
}

// Token is the decoder's next token; an error names its line.
func (in *Input) Token() (json.Token, error) {
	tok, err := in.Dec.Token()
	if err != nil {
		return nil, in.Err(err)
	}
	return tok, nil
}

// Delim reads the next token and fails unless it is d; what prefixes the
// message.
func (in *Input) Delim(d json.Delim, what string) error {
	tok, err := in.Dec.Token()
	if err != nil {
		return in.Err(fmt.Errorf("%s%w", what, err))
	}
	if tok != d {
		return in.Errorf(in.Dec.InputOffset()-1, "%swant %q, found %v", what, string(d), tok)
	}
	return nil
}

// End reads the closing delimiter of the value being walked and then
// requires the end of the input.
func (in *Input) End(what string) error {
	if _, err := in.Token(); err != nil {
		return err
	}
	if _, err := in.Dec.Token(); err != io.EOF {
		return in.Errorf(in.Dec.InputOffset(), "text after %s", what)
	}
	return nil
}

// Err turns an error of the decoder's Token into FILE:LINE form.
func (in *Input) Err(err error) error {
	off := in.Dec.InputOffset()
	var se *json.SyntaxError
	switch {
	case errors.As(err, &se): // Token's errors count from the start of the input
		off = se.Offset
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return in.Errorf(int64(len(in.Data)), "the JSON ends early")
	}
	return in.Errorf(off, "%v", err)
}
