package main

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"unicode"
)

// Schema is what Parse reads from a set of .fbs files: every enum, union,
// table and struct by name (namespaces are ignored; the hipDNN schemas use
// one), each remembering the file that declares it.
type Schema struct {
	Enums   map[string]*Enum
	Unions  map[string]*Union
	Tables  map[string]*Table // tables and structs
	Attribs map[string]bool   // declared custom attributes
}

// Enum is an enum declaration with its values in declaration order.
type Enum struct {
	Name, File, Base string
	Values           []EnumVal
}

// EnumVal is one enumerator.
type EnumVal struct {
	Name  string
	Value int64
}

// Lookup returns the value named name.
func (e *Enum) Lookup(name string) (int64, bool) {
	for _, v := range e.Values {
		if v.Name == name {
			return v.Value, true
		}
	}
	return 0, false
}

// Union is a union declaration; member i has tag i+1.
type Union struct {
	Name, File string
	Members    []string
}

// Table is a table or struct declaration with its fields in declaration order.
type Table struct {
	Name, File string
	Struct     bool
	Fields     []*Field
}

// Field is one table or struct field. Slot is its vtable slot: the
// declaration index, where a union field takes two (its _type tag, then the
// value).
type Field struct {
	Name    string
	Type    Type
	Default string // literal after '=', "" when none
	Attrs   map[string]string
	Slot    int
}

// Type is a field type: a scalar, string or named type, a vector of one
// ([T]) or a fixed-size array of one ([T:N], structs only).
type Type struct {
	Elem   string
	Vector bool
	Array  int
}

func (t Type) String() string {
	switch {
	case t.Array > 0:
		return fmt.Sprintf("[%s:%d]", t.Elem, t.Array)
	case t.Vector:
		return "[" + t.Elem + "]"
	}
	return t.Elem
}

// scalarAliases maps the sized scalar spellings to the short ones.
var scalarAliases = map[string]string{
	"int8": "byte", "uint8": "ubyte", "int16": "short", "uint16": "ushort", "int32": "int",
	"uint32": "uint", "int64": "long", "uint64": "ulong", "float32": "float", "float64": "double",
}

func canonicalType(name string) string {
	if a, ok := scalarAliases[name]; ok {
		return a
	}
	return name
}

// Parse reads the schema files (file name -> text). It accepts the grammar
// subset the hipDNN schemas use and fails on anything else, naming the file
// and line, rather than guess.
func Parse(src map[string]string) (*Schema, error) {
	s := &Schema{Enums: map[string]*Enum{}, Unions: map[string]*Union{}, Tables: map[string]*Table{}, Attribs: map[string]bool{}}
	names := make([]string, 0, len(src))
	for n := range src {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := &parser{file: n, toks: tokenize(src[n])}
		if err := p.schema(s); err != nil {
			return nil, err
		}
	}
	return s, s.resolve()
}

// resolve assigns slots and checks that every named type exists.
func (s *Schema) resolve() error {
	for _, t := range s.Tables {
		slot := 0
		for _, f := range t.Fields {
			f.Slot = slot
			slot++
			if _, ok := s.Unions[f.Type.Elem]; ok {
				if t.Struct || f.Type.Vector {
					return fmt.Errorf("%s: %s.%s: unions are supported only as table fields", t.File, t.Name, f.Name)
				}
				f.Slot++ // the _type tag takes the first of the two slots
				slot++
			}
			if !s.known(f.Type.Elem) {
				return fmt.Errorf("%s: %s.%s: unknown type %s", t.File, t.Name, f.Name, f.Type.Elem)
			}
			for a := range f.Attrs {
				if !builtinAttrs[a] && !s.Attribs[a] {
					return fmt.Errorf("%s: %s.%s: undeclared attribute %q", t.File, t.Name, f.Name, a)
				}
			}
		}
	}
	for _, u := range s.Unions {
		for _, m := range u.Members {
			if _, ok := s.Tables[m]; !ok {
				return fmt.Errorf("%s: union %s: unknown member %s", u.File, u.Name, m)
			}
		}
	}
	return nil
}

var scalarNames = map[string]bool{
	"bool": true, "byte": true, "ubyte": true, "short": true, "ushort": true, "int": true,
	"uint": true, "long": true, "ulong": true, "float": true, "double": true,
}

// builtinAttrs are the flatc attributes that need no declaration (the ones
// these schemas could use).
var builtinAttrs = map[string]bool{"deprecated": true, "required": true, "key": true, "id": true, "force_align": true}

func (s *Schema) known(name string) bool {
	if scalarNames[name] || name == "string" {
		return true
	}
	_, e := s.Enums[name]
	_, u := s.Unions[name]
	_, t := s.Tables[name]
	return e || u || t
}

// token is one lexical item and the line it starts on.
type token struct {
	text string
	line int
	str  bool // a string literal (text without the quotes)
}

// tokenize splits schema text into identifiers, numbers, string literals and
// punctuation, dropping comments.
func tokenize(text string) []token {
	var toks []token
	line := 1
	for i := 0; i < len(text); {
		c := text[i]
		switch {
		case c == '\n':
			line++
			i++
		case c == ' ' || c == '\t' || c == '\r':
			i++
		case strings.HasPrefix(text[i:], "//"):
			for i < len(text) && text[i] != '\n' {
				i++
			}
		case strings.HasPrefix(text[i:], "/*"):
			end := strings.Index(text[i+2:], "*/")
			if end < 0 {
				end = len(text) - i - 4
			}
			line += strings.Count(text[i:i+2+end], "\n")
			i += end + 4
		case c == '"':
			j := i + 1
			for j < len(text) && text[j] != '"' && text[j] != '\n' {
				j++
			}
			toks = append(toks, token{text: text[i+1 : min(j, len(text))], line: line, str: true})
			i = j + 1
		case isWordByte(c) || c == '-' || c == '+':
			j := i + 1
			for j < len(text) && (isWordByte(text[j]) || text[j] == '.') {
				j++
			}
			toks = append(toks, token{text: text[i:j], line: line})
			i = j
		default:
			toks = append(toks, token{text: string(c), line: line})
			i++
		}
	}
	return toks
}

func isWordByte(c byte) bool {
	return c == '_' || c < 0x80 && (unicode.IsLetter(rune(c)) || unicode.IsDigit(rune(c)))
}

type parser struct {
	file string
	toks []token
	pos  int
}

func (p *parser) errorf(format string, args ...any) error {
	line := 0
	if p.pos < len(p.toks) {
		line = p.toks[p.pos].line
	} else if len(p.toks) > 0 {
		line = p.toks[len(p.toks)-1].line
	}
	return fmt.Errorf("%s:%d: %s", p.file, line, fmt.Sprintf(format, args...))
}

func (p *parser) peek() string {
	if p.pos >= len(p.toks) {
		return ""
	}
	return p.toks[p.pos].text
}

func (p *parser) next() token {
	if p.pos >= len(p.toks) {
		return token{}
	}
	t := p.toks[p.pos]
	p.pos++
	return t
}

func (p *parser) accept(text string) bool {
	if p.pos < len(p.toks) && !p.toks[p.pos].str && p.toks[p.pos].text == text {
		p.pos++
		return true
	}
	return false
}

func (p *parser) expect(text string) error {
	if !p.accept(text) {
		return p.errorf("expected %q, found %q", text, p.peek())
	}
	return nil
}

func (p *parser) ident() (string, error) {
	t := p.next()
	if t.str || t.text == "" || !(t.text[0] == '_' || unicode.IsLetter(rune(t.text[0]))) {
		p.pos--
		return "", p.errorf("expected a name, found %q", t.text)
	}
	return t.text, nil
}

func (p *parser) stringLit() (string, error) {
	t := p.next()
	if !t.str {
		p.pos--
		return "", p.errorf("expected a string literal, found %q", t.text)
	}
	return t.text, nil
}

func (p *parser) schema(s *Schema) error {
	for p.pos < len(p.toks) {
		kw, err := p.ident()
		if err != nil {
			return err
		}
		switch kw {
		case "include", "file_identifier", "file_extension":
			if _, err := p.stringLit(); err != nil {
				return err
			}
		case "attribute":
			a, err := p.stringLit()
			if err != nil {
				return err
			}
			s.Attribs[a] = true
		case "namespace", "root_type":
			if _, err := p.ident(); err != nil {
				return err
			}
		case "enum":
			if err := p.enum(s); err != nil {
				return err
			}
			continue
		case "union":
			if err := p.union(s); err != nil {
				return err
			}
			continue
		case "table", "struct":
			if err := p.table(s, kw == "struct"); err != nil {
				return err
			}
			continue
		default:
			p.pos--
			return p.errorf("unsupported declaration %q", kw)
		}
		if err := p.expect(";"); err != nil {
			return err
		}
	}
	return nil
}

func (p *parser) declare(s *Schema, name string) error {
	if s.known(name) && !scalarNames[name] {
		return p.errorf("%s is declared twice", name)
	}
	return nil
}

// attrs reads an optional "(name[: value], ...)" list.
func (p *parser) attrs() (map[string]string, error) {
	m := map[string]string{}
	if !p.accept("(") {
		return m, nil
	}
	for !p.accept(")") {
		name, err := p.ident()
		if err != nil {
			return nil, err
		}
		val := ""
		if p.accept(":") {
			val = p.next().text
		}
		m[name] = val
		if !p.accept(",") && p.peek() != ")" {
			return nil, p.errorf("expected ',' or ')' in attributes, found %q", p.peek())
		}
	}
	return m, nil
}

func (p *parser) enum(s *Schema) error {
	name, err := p.ident()
	if err != nil {
		return err
	}
	if err := p.declare(s, name); err != nil {
		return err
	}
	if err := p.expect(":"); err != nil {
		return err
	}
	base, err := p.ident()
	if err != nil {
		return err
	}
	base = canonicalType(base)
	if !scalarNames[base] || base == "bool" || base == "float" || base == "double" {
		return p.errorf("enum %s: %s is not an integer type", name, base)
	}
	if _, err := p.attrs(); err != nil {
		return err
	}
	e := &Enum{Name: name, File: p.file, Base: base}
	if err := p.expect("{"); err != nil {
		return err
	}
	next := int64(0)
	for !p.accept("}") {
		vname, err := p.ident()
		if err != nil {
			return err
		}
		if p.accept("=") {
			lit := p.next().text
			v, err := strconv.ParseInt(lit, 0, 64)
			if err != nil {
				p.pos--
				return p.errorf("enum %s: value %q of %s is not an integer", name, lit, vname)
			}
			next = v
		}
		if _, dup := e.Lookup(vname); dup {
			return p.errorf("enum %s: %s declared twice", name, vname)
		}
		e.Values = append(e.Values, EnumVal{Name: vname, Value: next})
		next++
		if !p.accept(",") && p.peek() != "}" {
			return p.errorf("enum %s: expected ',' or '}', found %q", name, p.peek())
		}
	}
	s.Enums[name] = e
	return nil
}

// header reads "Name (attrs) {" of a union, table or struct declaration.
func (p *parser) header(s *Schema) (string, error) {
	name, err := p.ident()
	if err != nil {
		return "", err
	}
	if err := p.declare(s, name); err != nil {
		return "", err
	}
	if _, err := p.attrs(); err != nil {
		return "", err
	}
	return name, p.expect("{")
}

func (p *parser) union(s *Schema) error {
	name, err := p.header(s)
	if err != nil {
		return err
	}
	u := &Union{Name: name, File: p.file}
	for !p.accept("}") {
		m, err := p.ident()
		if err != nil {
			return err
		}
		if p.peek() == ":" || p.peek() == "=" {
			return p.errorf("union %s: aliased or numbered members are not supported", name)
		}
		u.Members = append(u.Members, m)
		if !p.accept(",") && p.peek() != "}" {
			return p.errorf("union %s: expected ',' or '}', found %q", name, p.peek())
		}
	}
	s.Unions[name] = u
	return nil
}

func (p *parser) table(s *Schema, isStruct bool) error {
	name, err := p.header(s)
	if err != nil {
		return err
	}
	t := &Table{Name: name, File: p.file, Struct: isStruct}
	for !p.accept("}") {
		f := &Field{}
		if f.Name, err = p.ident(); err != nil {
			return err
		}
		if err := p.expect(":"); err != nil {
			return err
		}
		if p.accept("[") {
			elem, err := p.ident()
			if err != nil {
				return err
			}
			f.Type = Type{Elem: canonicalType(elem), Vector: true}
			if p.accept(":") {
				n, err := strconv.Atoi(p.next().text)
				if err != nil || n <= 0 {
					return p.errorf("%s.%s: bad array length", name, f.Name)
				}
				f.Type = Type{Elem: f.Type.Elem, Array: n}
			}
			if err := p.expect("]"); err != nil {
				return err
			}
		} else {
			elem, err := p.ident()
			if err != nil {
				return err
			}
			f.Type = Type{Elem: canonicalType(elem)}
		}
		if p.accept("=") {
			f.Default = p.next().text
			if f.Default == "" {
				return p.errorf("%s.%s: missing default", name, f.Name)
			}
		}
		if f.Attrs, err = p.attrs(); err != nil {
			return err
		}
		if _, ok := f.Attrs["id"]; ok {
			return p.errorf("%s.%s: explicit ids are not supported (slots follow declaration order)", name, f.Name)
		}
		if err := p.expect(";"); err != nil {
			return err
		}
		t.Fields = append(t.Fields, f)
	}
	s.Tables[name] = t
	return nil
}
