// hdjson: see hdjson.hpp.
#include "hdjson.hpp"

#include <cerrno>
#include <cstdlib>
#include <cstring>

namespace hdjson
{

namespace
{

constexpr int kMaxDepth = 256;

class Parser
{
public:
    Parser(const char* text, size_t size) : p_(text), begin_(text), end_(text + size) {}

    bool document(Value* out, std::string* error)
    {
        skipSpace();
        if(!value(out, 0))
        {
            return fail(error);
        }
        skipSpace();
        if(p_ != end_)
        {
            err_ = "trailing characters after the document";
            return fail(error);
        }
        return true;
    }

private:
    const char* p_;
    const char* begin_;
    const char* end_;
    std::string err_;

    bool fail(std::string* error)
    {
        if(error)
        {
            *error = "offset " + std::to_string(p_ - begin_) + ": " + err_;
        }
        return false;
    }

    bool error(const char* msg)
    {
        err_ = msg;
        return false;
    }

    void skipSpace()
    {
        while(p_ < end_ && (*p_ == ' ' || *p_ == '\t' || *p_ == '\n' || *p_ == '\r'))
        {
            ++p_;
        }
    }

    bool literal(const char* word)
    {
        size_t n = std::strlen(word);
        if(static_cast<size_t>(end_ - p_) < n || std::memcmp(p_, word, n) != 0)
        {
            return error("invalid literal");
        }
        p_ += n;
        return true;
    }

    bool value(Value* out, int depth)
    {
        if(depth > kMaxDepth)
        {
            return error("nesting too deep");
        }
        if(p_ >= end_)
        {
            return error("unexpected end of input");
        }
        switch(*p_)
        {
        case 'n': out->kind = Kind::Null; return literal("null");
        case 't':
            out->kind = Kind::Bool;
            out->boolean = true;
            return literal("true");
        case 'f':
            out->kind = Kind::Bool;
            out->boolean = false;
            return literal("false");
        case '"': out->kind = Kind::String; return string(&out->text);
        case '[': return array(out, depth);
        case '{': return object(out, depth);
        default:
            if(*p_ == '-' || (*p_ >= '0' && *p_ <= '9'))
            {
                return number(out);
            }
            return error("unexpected character");
        }
    }

    bool digits()
    {
        const char* start = p_;
        while(p_ < end_ && *p_ >= '0' && *p_ <= '9')
        {
            ++p_;
        }
        return p_ > start;
    }

    bool number(Value* out)
    {
        const char* start = p_;
        if(*p_ == '-')
        {
            ++p_;
        }
        if(p_ < end_ && *p_ == '0')
        {
            ++p_;
        }
        else if(!digits())
        {
            return error("invalid number");
        }
        if(p_ < end_ && *p_ == '.')
        {
            ++p_;
            if(!digits())
            {
                return error("invalid number fraction");
            }
        }
        if(p_ < end_ && (*p_ == 'e' || *p_ == 'E'))
        {
            ++p_;
            if(p_ < end_ && (*p_ == '+' || *p_ == '-'))
            {
                ++p_;
            }
            if(!digits())
            {
                return error("invalid number exponent");
            }
        }
        out->kind = Kind::Number;
        out->text.assign(start, p_);
        return true;
    }

    bool hex4(unsigned* cp)
    {
        if(end_ - p_ < 4)
        {
            return error("truncated \\u escape");
        }
        unsigned v = 0;
        for(int i = 0; i < 4; ++i)
        {
            char c = *p_++;
            v <<= 4;
            if(c >= '0' && c <= '9')
                v |= static_cast<unsigned>(c - '0');
            else if(c >= 'a' && c <= 'f')
                v |= static_cast<unsigned>(c - 'a' + 10);
            else if(c >= 'A' && c <= 'F')
                v |= static_cast<unsigned>(c - 'A' + 10);
            else
                return error("invalid \\u escape");
        }
        *cp = v;
        return true;
    }

    static void appendUtf8(std::string* s, unsigned cp)
    {
        if(cp < 0x80)
        {
            s->push_back(static_cast<char>(cp));
        }
        else if(cp < 0x800)
        {
            s->push_back(static_cast<char>(0xC0 | (cp >> 6)));
            s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        else if(cp < 0x10000)
        {
            s->push_back(static_cast<char>(0xE0 | (cp >> 12)));
            s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
        else
        {
            s->push_back(static_cast<char>(0xF0 | (cp >> 18)));
            s->push_back(static_cast<char>(0x80 | ((cp >> 12) & 0x3F)));
            s->push_back(static_cast<char>(0x80 | ((cp >> 6) & 0x3F)));
            s->push_back(static_cast<char>(0x80 | (cp & 0x3F)));
        }
    }

    bool string(std::string* s)
    {
        ++p_; // opening quote
        s->clear();
        while(true)
        {
            if(p_ >= end_)
            {
                return error("unterminated string");
            }
            char c = *p_++;
            if(c == '"')
            {
                return true;
            }
            if(static_cast<unsigned char>(c) < 0x20)
            {
                return error("control character in string");
            }
            if(c != '\\')
            {
                s->push_back(c);
                continue;
            }
            if(p_ >= end_)
            {
                return error("unterminated escape");
            }
            char e = *p_++;
            switch(e)
            {
            case '"': s->push_back('"'); break;
            case '\\': s->push_back('\\'); break;
            case '/': s->push_back('/'); break;
            case 'b': s->push_back('\b'); break;
            case 'f': s->push_back('\f'); break;
            case 'n': s->push_back('\n'); break;
            case 'r': s->push_back('\r'); break;
            case 't': s->push_back('\t'); break;
            case 'u':
            {
                unsigned cp = 0;
                if(!hex4(&cp))
                {
                    return false;
                }
                if(cp >= 0xD800 && cp < 0xDC00)
                {
                    unsigned lo = 0;
                    if(end_ - p_ < 2 || p_[0] != '\\' || p_[1] != 'u')
                    {
                        return error("unpaired surrogate");
                    }
                    p_ += 2;
                    if(!hex4(&lo))
                    {
                        return false;
                    }
                    if(lo < 0xDC00 || lo > 0xDFFF)
                    {
                        return error("invalid surrogate pair");
                    }
                    cp = 0x10000 + ((cp - 0xD800) << 10) + (lo - 0xDC00);
                }
                else if(cp >= 0xDC00 && cp <= 0xDFFF)
                {
                    return error("unpaired surrogate");
                }
                appendUtf8(s, cp);
                break;
            }
            default: return error("invalid escape");
            }
        }
    }

    bool array(Value* out, int depth)
    {
        out->kind = Kind::Array;
        ++p_;
        skipSpace();
        if(p_ < end_ && *p_ == ']')
        {
            ++p_;
            return true;
        }
        while(true)
        {
            out->items.emplace_back();
            skipSpace();
            if(!value(&out->items.back(), depth + 1))
            {
                return false;
            }
            skipSpace();
            if(p_ >= end_)
            {
                return error("unterminated array");
            }
            if(*p_ == ',')
            {
                ++p_;
                continue;
            }
            if(*p_ == ']')
            {
                ++p_;
                return true;
            }
            return error("expected ',' or ']'");
        }
    }

    bool object(Value* out, int depth)
    {
        out->kind = Kind::Object;
        ++p_;
        skipSpace();
        if(p_ < end_ && *p_ == '}')
        {
            ++p_;
            return true;
        }
        while(true)
        {
            skipSpace();
            if(p_ >= end_ || *p_ != '"')
            {
                return error("expected a member name");
            }
            out->members.emplace_back();
            if(!string(&out->members.back().first))
            {
                return false;
            }
            skipSpace();
            if(p_ >= end_ || *p_ != ':')
            {
                return error("expected ':'");
            }
            ++p_;
            skipSpace();
            if(!value(&out->members.back().second, depth + 1))
            {
                return false;
            }
            skipSpace();
            if(p_ >= end_)
            {
                return error("unterminated object");
            }
            if(*p_ == ',')
            {
                ++p_;
                continue;
            }
            if(*p_ == '}')
            {
                ++p_;
                return true;
            }
            return error("expected ',' or '}'");
        }
    }
};

const std::string kEmpty;

} // namespace

bool Value::isInteger() const { return kind == Kind::Number && text.find_first_of(".eE") == std::string::npos; }

const Value* Value::find(const std::string& key) const
{
    if(kind != Kind::Object)
    {
        return nullptr;
    }
    for(const auto& m : members)
    {
        if(m.first == key)
        {
            return &m.second;
        }
    }
    return nullptr;
}

const Value* Value::get(const std::string& key) const
{
    const Value* v = find(key);
    return (v && !v->isNull()) ? v : nullptr;
}

int64_t Value::asInt(int64_t fallback) const
{
    if(kind != Kind::Number)
    {
        return fallback;
    }
    if(isInteger())
    {
        errno = 0;
        long long v = std::strtoll(text.c_str(), nullptr, 10);
        return errno == 0 ? static_cast<int64_t>(v) : fallback;
    }
    double d = std::strtod(text.c_str(), nullptr);
    if(d >= -9.2e18 && d <= 9.2e18 && d == static_cast<double>(static_cast<int64_t>(d)))
    {
        return static_cast<int64_t>(d);
    }
    return fallback;
}

double Value::asDouble(double fallback) const
{
    if(kind != Kind::Number)
    {
        return fallback;
    }
    return std::strtod(text.c_str(), nullptr);
}

const std::string& Value::asString() const { return kind == Kind::String ? text : kEmpty; }

bool parse(const char* text, size_t size, Value* out, std::string* error)
{
    *out = Value();
    Parser p(text, size);
    return p.document(out, error);
}

} // namespace hdjson
