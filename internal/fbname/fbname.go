// Package fbname holds flatc's Go spelling of schema names, for the code generator
// (tools/fbgen) and the tests that call flatc's accessors by name (internal/fb/fbtest).
package fbname

// Go is flatc's Go spelling of a schema field name: "in_0_tensor_uid" becomes "In0TensorUid".
func Go(field string) string {
	b := make([]byte, 0, len(field))
	up := true
	for i := 0; i < len(field); i++ {
		c := field[i]
		if c == '_' {
			up = true
			continue
		}
		if up && c >= 'a' && c <= 'z' {
			c -= 'a' - 'A'
		}
		up = false
		b = append(b, c)
	}
	return string(b)
}
