package main

import (
	"fmt"
	"regexp"
	"sort"
	"strconv"
	"strings"
)

// Header is what genapi needs from the C headers: the enums with their values, the
// #define aliases of enumerators, the integer #defines and the declared functions.
type Header struct {
	Enums     []*Enum
	Aliases   []Alias
	Ints      []IntDefine
	Functions []string // declared functions of hipdnn_backend.h, in declaration order
}

// Enum is one `typedef enum { ... } CName;` block.
type Enum struct {
	CName       string
	File        string
	Enumerators []Enumerator
}

// Enumerator is one name of an enum with its resolved value.
type Enumerator struct {
	Name  string
	Value int64
}

// Alias is `#define Name Target` where Target names an enumerator (directly or through
// another alias).
type Alias struct {
	Name   string
	Target string // the enumerator the chain ends at
	Enum   *Enum
	Value  int64
}

// IntDefine is `#define Name <integer literal>`.
type IntDefine struct {
	Name  string
	Value int64
	File  string
}

// pendingDefine is a #define seen while parsing, resolved once all enums are known.
type pendingDefine struct{ name, value, file string }

// SourceFile is one input file: its name (for messages) and its text.
type SourceFile struct {
	Name string
	Text string
}

var (
	enumRe     = regexp.MustCompile(`typedef\s+enum\s*\w*\s*\{([^}]*)\}\s*(\w+)\s*;`)
	defineRe   = regexp.MustCompile(`(?m)^[ \t]*#[ \t]*define[ \t]+(\w+)[ \t]+(.+?)[ \t]*$`)
	identRe    = regexp.MustCompile(`^[A-Za-z_]\w*$`)
	functionRe = regexp.MustCompile(`HIPDNN_BACKEND_(?:DEPRECATED_)?EXPORT\s+[^;{}()]*?\b(\w+)\s*\(`)
)

// Parse reads the enums and defines of every file and the function declarations of the file
// named functionsFile. Every enumerator must carry an explicit value (an integer literal or an
// enumerator declared before it); names must be unique across all files.
func Parse(files []SourceFile, functionsFile string) (*Header, error) {
	h := &Header{}
	known := map[string]*Enumerator{} // enumerator name -> enumerator
	owner := map[string]*Enum{}
	seen := map[string]string{} // enumerator name -> file, for duplicate detection

	var defines []pendingDefine

	for _, f := range files {
		text := stripComments(joinContinuations(f.Text))
		for _, m := range enumRe.FindAllStringSubmatch(text, -1) {
			e := &Enum{CName: m[2], File: f.Name}
			for _, item := range strings.Split(m[1], ",") {
				item = strings.TrimSpace(item)
				if item == "" {
					continue
				}
				name, expr, ok := strings.Cut(item, "=")
				name, expr = strings.TrimSpace(name), strings.TrimSpace(expr)
				if !identRe.MatchString(name) {
					return nil, fmt.Errorf("%s: %s: cannot parse enumerator %q", f.Name, e.CName, item)
				}
				if !ok {
					return nil, fmt.Errorf("%s: %s: enumerator %s has no explicit value", f.Name, e.CName, name)
				}
				v, err := evalValue(expr, known)
				if err != nil {
					return nil, fmt.Errorf("%s: %s: enumerator %s: %v", f.Name, e.CName, name, err)
				}
				if prev, dup := seen[name]; dup {
					return nil, fmt.Errorf("%s: %s declared again (first in %s)", f.Name, name, prev)
				}
				seen[name] = f.Name
				e.Enumerators = append(e.Enumerators, Enumerator{Name: name, Value: v})
				known[name] = &e.Enumerators[len(e.Enumerators)-1]
				owner[name] = e
			}
			if len(e.Enumerators) == 0 {
				return nil, fmt.Errorf("%s: %s has no enumerators", f.Name, e.CName)
			}
			h.Enums = append(h.Enums, e)
		}
		for _, m := range defineRe.FindAllStringSubmatch(text, -1) {
			defines = append(defines, pendingDefine{m[1], m[2], f.Name})
		}
		if f.Name == functionsFile {
			for _, m := range functionRe.FindAllStringSubmatch(text, -1) {
				h.Functions = append(h.Functions, m[1])
			}
		}
	}

	// Defines may name enumerators of any file and other aliases, so resolve them last.
	// Values that are neither an integer nor a known name (attributes, strings, placeholders)
	// are not constants and are skipped. A name may be defined in several preprocessor
	// branches; as a constant it must have one value.
	first := map[string]pendingDefine{}
	for _, d := range defines {
		if _, ok := first[d.name]; !ok {
			first[d.name] = d
		}
	}
	constants := map[string]int64{}
	for _, d := range defines {
		if prev, clash := seen[d.name]; clash {
			return nil, fmt.Errorf("%s: %s is both an enumerator (%s) and a macro", d.file, d.name, prev)
		}
		var (
			v     int64
			alias *Alias
		)
		if n, err := parseInt(d.value); err == nil {
			v = n
		} else if target := resolveAlias(d.value, first, known); target != "" {
			v = known[target].Value
			alias = &Alias{Name: d.name, Target: target, Enum: owner[target], Value: v}
		} else {
			continue
		}
		if prev, dup := constants[d.name]; dup {
			if prev != v {
				return nil, fmt.Errorf("%s: %s defined as %d and as %d", d.file, d.name, prev, v)
			}
			continue
		}
		constants[d.name] = v
		if alias != nil {
			h.Aliases = append(h.Aliases, *alias)
		} else {
			h.Ints = append(h.Ints, IntDefine{Name: d.name, Value: v, File: d.file})
		}
	}
	sort.Slice(h.Aliases, func(i, j int) bool { return h.Aliases[i].Name < h.Aliases[j].Name })
	sort.Slice(h.Ints, func(i, j int) bool { return h.Ints[i].Name < h.Ints[j].Name })
	return h, nil
}

// resolveAlias follows a chain of macros from value to an enumerator and returns its name, or
// "" when the chain ends elsewhere.
func resolveAlias(value string, defines map[string]pendingDefine, known map[string]*Enumerator) string {
	for hops := 0; hops <= len(defines); hops++ {
		if !identRe.MatchString(value) {
			return ""
		}
		if known[value] != nil {
			return value
		}
		d, ok := defines[value]
		if !ok {
			return ""
		}
		value = d.value
	}
	return ""
}

// evalValue evaluates an enumerator initializer: an integer literal or the name of an
// enumerator declared before.
func evalValue(expr string, known map[string]*Enumerator) (int64, error) {
	if v, err := parseInt(expr); err == nil {
		return v, nil
	}
	if e := known[expr]; e != nil {
		return e.Value, nil
	}
	return 0, fmt.Errorf("value %q is neither an integer nor an enumerator declared before", expr)
}

// parseInt accepts C integer literals: decimal, hex or octal, optionally negative or in
// parentheses, with u/l suffixes.
func parseInt(s string) (int64, error) {
	s = strings.TrimSpace(s)
	for strings.HasPrefix(s, "(") && strings.HasSuffix(s, ")") {
		s = strings.TrimSpace(s[1 : len(s)-1])
	}
	s = strings.TrimRight(s, "uUlL")
	return strconv.ParseInt(s, 0, 64)
}

// joinContinuations removes backslash-newline pairs, as the C preprocessor does first.
func joinContinuations(s string) string {
	s = strings.ReplaceAll(s, "\r\n", "\n")
	return strings.ReplaceAll(s, "\\\n", "")
}

// stripComments replaces /* */ and // comments by a space (keeping newlines, so that
// #define lines stay lines) and leaves string and character literals alone.
func stripComments(s string) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\'':
			j := i + 1
			for j < len(s) && s[j] != c && s[j] != '\n' {
				if s[j] == '\\' {
					j++
				}
				j++
			}
			if j >= len(s) {
				j = len(s) - 1
			}
			b.WriteString(s[i : j+1])
			i = j
		case c == '/' && i+1 < len(s) && s[i+1] == '*':
			end := strings.Index(s[i+2:], "*/")
			if end < 0 {
				end = len(s) - i - 2
			}
			b.WriteByte(' ')
			b.WriteString(strings.Repeat("\n", strings.Count(s[i:i+2+end], "\n")))
			i += end + 3
		case c == '/' && i+1 < len(s) && s[i+1] == '/':
			for i < len(s) && s[i] != '\n' {
				i++
			}
			if i < len(s) {
				b.WriteByte('\n')
			}
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
