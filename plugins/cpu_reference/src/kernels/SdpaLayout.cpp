#include "kernels/SdpaLayout.hpp"

#include "core/Parallel.hpp"

#include <algorithm>
#include <utility>

namespace hipdnngo::cpu_reference
{

int64_t linearOffset(const TensorView& t, int64_t i)
{
    int64_t off = 0;
    for(int d = t.rank - 1; d >= 0; --d)
    {
        off += (i % t.dims[d]) * t.strides[d];
        i /= t.dims[d];
    }
    return off;
}

namespace
{

bool isIndexType(DataType t) { return t == DataType::Int32 || t == DataType::Int64; }

// batchSpan is how many elements batch b's first `rows` rows reach from its start.
int64_t batchSpan(const TensorView& v, int64_t rows)
{
    if(rows <= 0)
        return 0;
    return 1 + (v.dims[1] - 1) * v.strides[1] + (rows - 1) * v.strides[2] + (v.dims[3] - 1) * v.strides[3];
}

} // namespace

std::string checkRaggedOffsets(const TensorView& offsets, const char* role, int64_t batch, bool haveLengths, const char* lengths)
{
    const std::string what = std::string("sdpa: ragged offsets of ") + role + " " + offsets.describe();
    if(!isIndexType(offsets.dtype))
        return what + " must be int32 or int64";
    if(offsets.elementCount() != batch + 1)
        return what + " must hold B+1 = " + std::to_string(batch + 1) + " offsets";
    if(!haveLengths)
        return std::string("sdpa: ragged ") + role + " needs the " + lengths + " tensor (its rows per batch)";
    return "";
}

std::string checkPageTable(const TensorView& table, const char* role, int64_t batch, int64_t* pages)
{
    const std::string what = std::string("sdpa: ") + role + " " + table.describe();
    if(!isIndexType(table.dtype))
        return what + " must be int32 or int64";
    int wide = 0;
    for(int d = 1; d < table.rank; ++d)
        wide += table.dims[d] > 1 ? 1 : 0;
    if(table.rank < 2 || table.dims[0] != batch || wide > 1)
        return what + " must have dims [B, 1, P, 1] or [B, P] with B = " + std::to_string(batch);
    *pages = table.elementCount() / batch;
    return "";
}

void validateRows(const SdpaRows& rows, const std::vector<int64_t>& valid, const char* role, bool output)
{
    const TensorView& v = rows.view;
    const int64_t batch = static_cast<int64_t>(valid.size());
    if(rows.ragged != nullptr)
    {
        const int64_t span = v.spanElements();
        std::vector<std::pair<int64_t, int64_t>> ranges; // [start, end) of batches with rows
        for(int64_t b = 0; b < batch; ++b)
        {
            const double start = rows.ragged->load<double>(linearOffset(*rows.ragged, b));
            const int64_t reach = batchSpan(v, valid[static_cast<size_t>(b)]);
            if(start < 0 || start + static_cast<double>(reach) > static_cast<double>(span))
                throw KernelError(std::string("sdpa: ragged offset of ") + role + " batch " + std::to_string(b) + " = "
                                  + std::to_string(static_cast<int64_t>(start)) + " with "
                                  + std::to_string(valid[static_cast<size_t>(b)]) + " rows reaches past the tensor's "
                                  + std::to_string(span) + " elements");
            if(reach > 0)
                ranges.push_back({static_cast<int64_t>(start), static_cast<int64_t>(start) + reach});
        }
        std::sort(ranges.begin(), ranges.end());
        for(size_t r = 1; output && r < ranges.size(); ++r)
            if(ranges[r].first < ranges[r - 1].second)
                throw KernelError(std::string("sdpa: ragged output ") + role + " has overlapping batches (elements "
                                  + std::to_string(ranges[r].first) + " to " + std::to_string(ranges[r - 1].second - 1) + ")");
    }
    if(rows.pageTable != nullptr)
    {
        const int64_t blockSize = v.dims[2], blocks = v.dims[0];
        for(int64_t b = 0; b < batch; ++b)
        {
            const int64_t used = (valid[static_cast<size_t>(b)] + blockSize - 1) / blockSize;
            for(int64_t p = 0; p < used; ++p)
            {
                const double block = rows.pageTable->load<double>(linearOffset(*rows.pageTable, b * rows.pages + p));
                if(!(block >= 0 && block < static_cast<double>(blocks)))
                    throw KernelError(std::string("sdpa: page table of ") + role + " [" + std::to_string(b) + "]["
                                      + std::to_string(p) + "] = " + std::to_string(static_cast<int64_t>(block))
                                      + " is not a block of the container (0 to " + std::to_string(blocks - 1) + ")");
            }
        }
    }
}

template <typename Acc>
void gatherRows(const SdpaRows& rows, int64_t batch, int64_t heads, int64_t seq, int64_t width, const std::vector<int64_t>& valid, Acc* out)
{
    const TensorView& v = rows.view;
    parallelFor(batch * heads * seq, std::max<int64_t>(1, 4096 / std::max<int64_t>(width, 1)), [&](int64_t begin, int64_t end) {
        for(int64_t r = begin; r < end; ++r)
        {
            const int64_t i = r % seq, h = (r / seq) % heads, b = r / (seq * heads);
            Acc* dst = out + r * width;
            if(rows.holdsOnlyValidRows() && i >= valid[static_cast<size_t>(b)])
            {
                std::fill(dst, dst + width, Acc(0));
                continue;
            }
            const int64_t base = rows.rowOffset(b, h, i);
            for(int64_t x = 0; x < width; ++x)
                dst[x] = v.load<Acc>(base + x * v.strides[3]);
        }
    });
}

template void gatherRows<float>(const SdpaRows&, int64_t, int64_t, int64_t, int64_t, const std::vector<int64_t>&, float*);
template void gatherRows<double>(const SdpaRows&, int64_t, int64_t, int64_t, int64_t, const std::vector<int64_t>&, double*);

} // namespace hipdnngo::cpu_reference
