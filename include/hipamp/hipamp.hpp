// The whole hipamp API: the C++ AMP programming model on HIP/CUDA GPUs and the CPU device
// (<hipamp/model.hpp>), and the algorithms: GEMM, reductions, scans and the sort family.
#pragma once

#include <hipamp/model.hpp>

#include <hipamp/functional.hpp>
#include <hipamp/key_index.hpp>
#include <hipamp/matmul.hpp>
#include <hipamp/parallel_sort.hpp>
#include <hipamp/reduce.hpp>
#include <hipamp/scan.hpp>
#include <hipamp/sort.hpp>
#include <hipamp/sort_order.hpp>
