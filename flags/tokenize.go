package flags

import "strings"

// fileToken is a token read from a file with the line it started on (1-based).
type fileToken struct {
	text string
	line int
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v'
}

// splitArgFile splits a launcher @argfile (and JDK_JAVA_OPTIONS) as the JDK 9+ launcher does
// (src/java.base/share/native/libjli/args.c): tokens are separated by white space; '#' at the
// start of a token comments out the rest of the line, and inside an unquoted token drops
// that token too; single or double quotes group text
// with white space and are removed; inside quotes a backslash escapes n, r, t, f, the quote
// and itself, and a backslash at the end of a line continues the token on the next line
// (leading white space there is skipped).
func splitArgFile(data string) []fileToken {
	var out []fileToken
	line := 1
	i := 0
	for i < len(data) {
		c := data[i]
		if isSpace(c) {
			if c == '\n' {
				line++
			}
			i++
			continue
		}
		if c == '#' {
			for i < len(data) && data[i] != '\n' {
				i++
			}
			continue
		}
		start := line
		var b strings.Builder
		var quote byte
		dropped := false
		for i < len(data) {
			c = data[i]
			if quote == 0 {
				if isSpace(c) {
					break
				}
				if c == '#' {
					// An unquoted '#' inside a token drops the token and the rest of the
					// line (observed with OpenJDK 17.0.15's launcher).
					for i < len(data) && data[i] != '\n' {
						i++
					}
					dropped = true
					break
				}
				if c == '\'' || c == '"' {
					quote = c
				} else {
					b.WriteByte(c)
				}
				i++
				continue
			}
			switch {
			case c == quote:
				quote = 0
				i++
			case c == '\\' && i+1 < len(data):
				n := data[i+1]
				i += 2
				switch n {
				case 'n':
					b.WriteByte('\n')
				case 'r':
					b.WriteByte('\r')
				case 't':
					b.WriteByte('\t')
				case 'f':
					b.WriteByte('\f')
				case '\n', '\r':
					if n == '\r' && i < len(data) && data[i] == '\n' {
						i++
					}
					line++
					for i < len(data) && (data[i] == ' ' || data[i] == '\t') {
						i++
					}
				default:
					b.WriteByte(n)
				}
			case c == '\n':
				// A newline ends the token even inside quotes.
				quote = 0
			default:
				b.WriteByte(c)
				i++
			}
		}
		if !dropped {
			out = append(out, fileToken{text: b.String(), line: start})
		}
	}
	return out
}

// splitSettingsFile splits a -XX:Flags= settings file as Arguments::process_settings_file
// does: white space separates tokens; '#' at the start of a token comments out the rest of
// the line; a quote character after the first character of a token starts a quoted part (the
// quotes are dropped) in which white space other than a newline is kept; a newline always ends
// a token. A quote as the first character of a token is kept literally, as in HotSpot.
// settingsTokenMax is the longest token of a settings file: HotSpot reads into a 1024-byte
// buffer and keeps room for the terminating NUL.
const settingsTokenMax = 1023

func splitSettingsFile(data string) []fileToken {
	var out []fileToken
	var b strings.Builder
	line, start := 1, 0
	inWhite, inComment, inQuote := true, false, false
	var quote byte
	for i := 0; i < len(data); i++ {
		if b.Len() >= settingsTokenMax {
			// HotSpot's token buffer is full: it stops reading the file and processes the
			// token as it is (Arguments::process_settings_file, char token[1024]).
			break
		}
		c := data[i]
		if inWhite {
			switch {
			case inComment:
				if c == '\n' {
					inComment = false
				}
			case c == '#':
				inComment = true
			case !isSpace(c):
				inWhite = false
				start = line
				b.WriteByte(c)
			}
		} else {
			switch {
			case c == '\n' || (!inQuote && isSpace(c)):
				out = append(out, fileToken{text: b.String(), line: start})
				b.Reset()
				inWhite, inQuote = true, false
			case !inQuote && (c == '\'' || c == '"'):
				inQuote, quote = true, c
			case inQuote && c == quote:
				inQuote = false
			default:
				b.WriteByte(c)
			}
		}
		if c == '\n' {
			line++
		}
	}
	if !inWhite && b.Len() > 0 {
		out = append(out, fileToken{text: b.String(), line: start})
	}
	// HotSpot hands each token on as a C string: a NUL byte ends it.
	for i := range out {
		if k := strings.IndexByte(out[i].text, 0); k >= 0 {
			out[i].text = out[i].text[:k]
		}
	}
	return out
}

// splitOptions splits JDK_JAVA_OPTIONS (launcher syntax, as an @argfile without comments
// mattering) into command-line tokens.
func splitOptions(s string) []token {
	var out []token
	for _, t := range splitArgFile(s) {
		out = append(out, token{text: t.text, origin: CommandLine})
	}
	return out
}

// unmatchedQuote reports whether JDK_JAVA_OPTIONS leaves a quote open, which the launcher
// refuses ("Error: Unmatched quote in environment variable JDK_JAVA_OPTIONS").
func unmatchedQuote(s string) bool {
	var quote byte
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case quote == 0 && (c == '\'' || c == '"'):
			quote = c
		case c == quote:
			quote = 0
		}
	}
	return quote != 0
}

// envTokens splits JAVA_TOOL_OPTIONS or _JAVA_OPTIONS as Arguments::parse_options_buffer
// does: white space separates; a quoted part (single or double quotes, removed) may hold
// white space. An unmatched quote takes the rest of the text.
func envTokens(s string) []token {
	var out []token
	for _, t := range splitBuffer(s) {
		out = append(out, token{text: t.text, origin: Environment})
	}
	return out
}

func splitBuffer(s string) []fileToken {
	var out []fileToken
	line := 1
	i := 0
	for i < len(s) {
		for i < len(s) && isSpace(s[i]) {
			if s[i] == '\n' {
				line++
			}
			i++
		}
		if i >= len(s) {
			break
		}
		start := line
		var b strings.Builder
		for i < len(s) && !isSpace(s[i]) {
			if q := s[i]; q == '\'' || q == '"' {
				i++
				for i < len(s) && s[i] != q {
					if s[i] == '\n' {
						line++
					}
					b.WriteByte(s[i])
					i++
				}
				if i < len(s) {
					i++
				}
				continue
			}
			b.WriteByte(s[i])
			i++
		}
		out = append(out, fileToken{text: b.String(), line: start})
	}
	return out
}
