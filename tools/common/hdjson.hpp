// hdjson: a small JSON reader for the hipDNN tools (RFC 8259 values: null, true/false, numbers,
// strings with escapes, arrays, objects). Numbers keep their text so integers up to 64 bits are
// exact; objects keep their members in document order. Parsing is recursive descent with a depth
// limit; errors are reported with the byte offset.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

namespace hdjson
{

enum class Kind
{
    Null,
    Bool,
    Number,
    String,
    Array,
    Object
};

struct Value
{
    Kind kind = Kind::Null;
    bool boolean = false;
    std::string text; // String: the decoded string; Number: the literal as written
    std::vector<Value> items; // Array
    std::vector<std::pair<std::string, Value>> members; // Object

    bool isNull() const { return kind == Kind::Null; }
    bool isNumber() const { return kind == Kind::Number; }
    bool isString() const { return kind == Kind::String; }
    bool isArray() const { return kind == Kind::Array; }
    bool isObject() const { return kind == Kind::Object; }
    bool isBool() const { return kind == Kind::Bool; }
    // isInteger: a number written without fraction or exponent.
    bool isInteger() const;

    // find returns the member named key of an object, or nullptr (also for non-objects).
    const Value* find(const std::string& key) const;
    // get is find that also treats JSON null as absent.
    const Value* get(const std::string& key) const;

    int64_t asInt(int64_t fallback = 0) const; // integer or integral number, else fallback
    double asDouble(double fallback = 0) const; // any number, else fallback
    const std::string& asString() const; // String text, else ""
};

// parse reads one JSON document (surrounding whitespace allowed). On failure it returns false and
// sets *error to "offset N: reason".
bool parse(const char* text, size_t size, Value* out, std::string* error);

} // namespace hdjson
