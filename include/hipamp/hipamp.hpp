// The whole hipamp API: the C++ AMP programming model on HIP/CUDA GPUs and the CPU device.
#pragma once

#include <hipamp/config.hpp>
#include <hipamp/exceptions.hpp>
#include <hipamp/index.hpp>
#include <hipamp/extent.hpp>
#include <hipamp/tiled_extent.hpp>
#include <hipamp/tile_barrier.hpp>
#include <hipamp/completion_future.hpp>
#include <hipamp/accelerator.hpp>
#include <hipamp/array_view.hpp>
#include <hipamp/array.hpp>
#include <hipamp/copy.hpp>
#include <hipamp/parallel_for_each.hpp>
#include <hipamp/tiled_parallel_for_each.hpp>
#include <hipamp/hierarchical.hpp>
#include <hipamp/atomics.hpp>
#include <hipamp/math.hpp>
#include <hipamp/matmul.hpp>
#include <hipamp/functional.hpp>
#include <hipamp/reduce.hpp>
#include <hipamp/scan.hpp>
#include <hipamp/transfer_statistics.hpp>
#include <hipamp/sort_order.hpp>
#include <hipamp/key_index.hpp>
#include <hipamp/sort.hpp>
#include <hipamp/parallel_sort.hpp>
