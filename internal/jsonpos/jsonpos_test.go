package jsonpos

import (
	"strings"
	"testing"
)

// TestLines: each error names the line of the offending text, whether
// the decoder met it in a token, a value it decoded, or past the end.
func TestLines(t *testing.T) {
	const doc = "{\n \"a\": 1,\n \"b\": {\n  \"c\": [1,\n   true]},\n \"d\": \"x\"\n}"
	in, err := Read(strings.NewReader(doc), "d.json", "test JSON")
	if err != nil {
		t.Fatal(err)
	}
	if err := in.Delim('{', ""); err != nil {
		t.Fatal(err)
	}
	var a int
	if _, err := in.Token(); err != nil { // "a"
		t.Fatal(err)
	}
	if err := in.Decode("a: ", &a); err != nil || a != 1 {
		t.Fatalf("a = %d, %v", a, err)
	}
	if _, err := in.Token(); err != nil { // "b"
		t.Fatal(err)
	}
	var b struct{ C []int }
	err = in.Decode("b: ", &b)
	if err == nil || !strings.HasPrefix(err.Error(), "d.json:5: b: json: cannot unmarshal bool") {
		t.Errorf("type error: %v", err)
	}
	if got := in.Line(int64(strings.Index(doc, "\"d\""))); got != 6 {
		t.Errorf("line of \"d\": %d, want 6", got)
	}
	for _, c := range []struct{ in, want string }{
		{"[1,\n 2,\n ]", "x.json:3: invalid character ']'"},
		{"[1,\n 2", "x.json:2: the JSON ends early"},
		{"[1]\n{}", "x.json:2: text after"},
	} {
		in, err := Read(strings.NewReader(c.in), "x.json", "test JSON")
		if err != nil {
			t.Fatal(err)
		}
		err = in.Delim('[', "")
		for err == nil && in.Dec.More() {
			var v int
			err = in.Decode("", &v)
		}
		if err == nil {
			err = in.End("the array")
		}
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: %v, want %q", c.in, err, c.want)
		}
	}
}
