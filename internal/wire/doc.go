// Package wire holds the operation-graph model that travels between the
// hipDNN frontend, this backend and engine plugins, and its two encodings:
// the Graph flatbuffer of graph.fbs (what plugins receive) and AMD's JSON
// graph dialect (what the frontend's serialize() and the graph corpus use).
//
// # Model
//
// Graph, Tensor, Node, TensorValue, EngineAPIVersion mirror the tables and
// structs of graph.fbs and tensor_attributes.fbs field for field. The 23 op
// tables of the NodeAttributes union are not Go structs: each is an OpSchema
// (Ops, OpByTag, OpByName) listing its Fields with vtable slot, FieldKind,
// Role, default, enum domain and JSON section, and a Node carries one Value
// per Field. Both encoders and both decoders are generic code driven by
// those tables. The tables, the enum domains and the slots of the other
// tables are generated from schemas/*.fbs into zz_generated.go (go
// generate; the (input) and (output) attributes of tensor_roles.fbs give the
// roles), so an op or a field is added by editing its schema; ops.go adds
// only what the schemas do not say: JSON sections and JSON spellings.
//
// Values are in canonical form after decoding (either encoding):
// non-optional scalars are Set with the schema default filled in when the
// input left them out; optional scalars (`= null` in the schema), lists,
// strings and byte vectors are Set only when present; empty lists, dims and
// strides are nil; float32 fields hold float32-representable values. When
// encoding, Set=false on a non-optional scalar means the default.
//
// # Flatbuffer encoding
//
// EncodeGraph writes what flatc's C++ builder writes with force_defaults
// off: finished buffer, no file identifier, no size prefix, defaults and
// absent optionals elided, a union as its type byte plus an offset, union
// struct members (TensorValue) out of line, fields widest first. Names,
// dims and strides are always written, as AMD's frontend does, because C++
// readers dereference them without a null check. DecodeGraph reads any
// conforming buffer, including ones with fields from a newer schema (ignored,
// as flatbuffers prescribe).
//
// # JSON encoding
//
// GraphToJSON writes the nested layout (FORMAT.md §3.2–3.6) in the form the
// data_sdk's nlohmann-based writer prints it (sorted keys, 2-space indent),
// byte-identical to AMD's own output for the corpus files that use only
// keys we write. Where FORMAT.md is silent this package decides: custom-op
// parameters, block-scale and MoE parameters go in "attributes";
// CustomOpAttributes.data is an array of byte values; umd_flops/umd_bytes
// and custom_op_id appear only when set; absent lists are null; floats of
// float32 fields use the shortest digits that read back to the same
// float32. GraphFromJSON accepts every variant FORMAT.md lists (flat and
// nested layouts, absent = null, float16 = half, UNSET, integer enums,
// extra keys) and, deliberately, the legacy io_type / compute_type /
// intermediate_type keys of reference_data/Test2.json, so that file loads
// with its intended data types instead of failing or reading as UNSET.
//
// # Untrusted input
//
// DecodeGraph and GraphFromJSON take bytes from users and files. They never
// panic (a recover converts any fault to an error as a last line of
// defence, but no input is known to reach it), never loop on input, and
// never allocate for a declared length the input cannot back:
//
//   - DecodeGraph checks every uoffset, soffset, vtable size and vector
//     length against the buffer before use, with the C++ Verifier's rules
//     and limits (alignment, NUL-terminated strings, at most 1,000,000
//     tables, depth 64, buffers below 2 GiB). Since offsets may legally
//     share data, it also keeps an allocation budget of 64 bytes per buffer
//     byte plus 1 MiB, so a small buffer cannot decode into a huge graph.
//   - GraphFromJSON refuses documents over MaxJSONSize or nested deeper
//     than MaxJSONDepth before parsing, reads numbers exactly (an integer
//     field takes only integer syntax within range; 1.5 or 1e3 for a uid is
//     an error) and refuses trailing data.
//
// The package checks the formats, not graph semantics: unique uids, tensor
// references, topological order and shapes are the descriptor layer's
// business.
//
// # Malformed versus unsupported
//
// Every error returned wraps exactly one of two sentinels, and its text says
// what is wrong and where (`tensor uid 5: "dims" must be an array of
// integers`, `graph buffer truncated: tensors[0].dims: ...`):
//
//   - ErrUnsupported (→ HIPDNN_STATUS_NOT_SUPPORTED): the input is well
//     formed but names something a newer frontend may write and this build
//     does not know — a node type, an enum value or spelling, a data type, a
//     tensor value kind — or holds a value JSON cannot carry (NaN,
//     infinity, non-UTF-8 text). A misspelt name ("reluu") cannot be told
//     from a newer one and is reported the same way.
//   - ErrMalformed (→ HIPDNN_STATUS_BAD_PARAM): everything else — a buffer
//     that breaks the flatbuffer rules, JSON syntax errors, wrong JSON
//     types, missing required keys, integers out of range of their wire
//     type, a node without an operation (union type NONE).
//
// DecodeGraph itself reports only malformed buffers: an unknown union tag
// decodes to a Node with Op == nil and the tag kept, unknown enum and data
// type values are kept as numbers, so a caller can inspect them and a
// re-encode is lossless. Graph.CheckSupported reports the first such item
// as an ErrUnsupported error; callers that act on a graph call it after
// decoding. GraphFromJSON cannot keep what it cannot name and returns the
// ErrUnsupported error directly.
//
// All functions are safe for concurrent use; Graph values are not
// synchronised.
package wire

//go:generate go run ../../tools/fbgen -schemas ../../schemas -tables zz_generated.go -package wire -ops -slots Graph,Node,TensorAttributes,SerializedGraphAndPlan,SerializedExecutionPlan
