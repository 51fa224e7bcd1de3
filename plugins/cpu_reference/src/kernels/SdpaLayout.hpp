// Where the rows of an attention tensor live: dense batches, ragged (THD / nested) batches and
// paged K/V caches.
//
// Every attention tensor is logically [B, H, S, W] (W = head dim, or 1 for stats). A row is
// (b, h, i); its W elements follow stride[3]. Three layouts:
//   dense   row (b, h, i) at b·stride[0] + h·stride[1] + i·stride[2].
//   ragged  a [B+1] integer tensor of element offsets (cuDNN's ragged_offset, multiplier 1):
//           batch b starts at offsets[b] instead of b·stride[0]; stride[0] is unused. Batch b
//           holds only its valid rows (seq_len_q / seq_len_kv); rows past them do not exist.
//   paged   the tensor is a container [num_blocks, H, block_size, W]; a page table with B·P
//           integers (dims [B, 1, P, 1] as cuDNN, or [B, P]) lists each batch's blocks, so key
//           j of batch b is row j % block_size of block table[b][j / block_size].
#pragma once

#include "core/TensorView.hpp"

#include <string>
#include <vector>

namespace hipdnngo::cpu_reference
{

// linearOffset returns the element offset of logical (row-major) index `i` of t.
int64_t linearOffset(const TensorView& t, int64_t i);

// SdpaRows addresses the rows of one attention tensor.
struct SdpaRows
{
    TensorView view;
    const TensorView* ragged = nullptr; // [B+1] offsets, or null
    const TensorView* pageTable = nullptr; // B·P block indices (view is a container), or null
    int64_t pages = 0; // P

    int64_t rowOffset(int64_t b, int64_t h, int64_t i) const
    {
        if(pageTable != nullptr)
        {
            const int64_t blockSize = view.dims[2];
            const int64_t block = pageTable->load<double>(linearOffset(*pageTable, b * pages + i / blockSize));
            return block * view.strides[0] + h * view.strides[1] + (i % blockSize) * view.strides[2];
        }
        const int64_t base = ragged != nullptr ? static_cast<int64_t>(ragged->load<double>(linearOffset(*ragged, b)))
                                               : b * view.strides[0];
        return base + h * view.strides[1] + i * view.strides[2];
    }

    // holdsOnlyValidRows: rows past a batch's length do not exist (ragged or paged), so they are
    // neither read nor written.
    bool holdsOnlyValidRows() const { return ragged != nullptr || pageTable != nullptr; }
};

// checkRaggedOffsets: offsets must be an integer tensor of batch+1 elements, and the tensor they
// place needs its sequence lengths (`haveLengths`). "" when fine.
std::string checkRaggedOffsets(const TensorView& offsets, const char* role, int64_t batch, bool haveLengths, const char* lengths);

// checkPageTable: an integer tensor of batch·P elements whose first dimension is the batch and
// whose other dimensions are 1 but one (P). Sets *pages. "" when fine.
std::string checkPageTable(const TensorView& table, const char* role, int64_t batch, int64_t* pages);

// validateRows runs at execute, before any output is written: every ragged batch must start at
// a non-negative offset and end inside the tensor's declared span; an output's batches must
// not overlap; every page-table entry a valid row uses must name a block of the container.
// Throws KernelError naming `role`.
void validateRows(const SdpaRows& rows, const std::vector<int64_t>& valid, const char* role, bool output);

// gatherRows widens rows (b, h, i < valid[b] when the layout holds only valid rows, else every
// row) into packed [B, H, S, W] at out; rows not read are zero.
template <typename Acc>
void gatherRows(const SdpaRows& rows, int64_t batch, int64_t heads, int64_t seq, int64_t width, const std::vector<int64_t>& valid, Acc* out);

} // namespace hipdnngo::cpu_reference
