// The C++ AMP programming model without hipamp's algorithm library: indices and extents,
// accelerators, array_view, array, textures, copies, parallel_for_each (simple, tiled and
// hierarchical), tile barriers, atomics, the math functions, the HLSL intrinsics and the transfer
// counters. <hipamp/hipamp.hpp> adds the algorithms (matmul, reduce, scan, the sort family).
//
// Why a header of its own: <hipamp/amp.h> includes this one, as C++ AMP's <amp.h> held no
// algorithms. The algorithms bring the vendor primitives (CUB or rocPRIM) and their kernel
// templates into every unit that includes them; a ported program that uses none of them paid
// for parsing them in every GPU unit: nvcc took 18.8 s on the porting tool's vector_add with
// everything, 7.7 s with this header (benchmarks/results/build_times_2026-11-26b.md).
#pragma once

#include <hipamp/accelerator.hpp>
#include <hipamp/array.hpp>
#include <hipamp/array_ref.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/atomics.hpp>
#include <hipamp/completion_future.hpp>
#include <hipamp/config.hpp>
#include <hipamp/copy.hpp>
#include <hipamp/direct3d.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/hierarchical.hpp>
#include <hipamp/index.hpp>
#include <hipamp/kernel_capture.hpp>
#include <hipamp/math.hpp>
#include <hipamp/parallel_for_each.hpp>
#include <hipamp/texture.hpp>
#include <hipamp/tile_barrier.hpp>
#include <hipamp/tiled_extent.hpp>
#include <hipamp/tiled_parallel_for_each.hpp>
#include <hipamp/transfer_statistics.hpp>
