// Sub-views made inside kernels: C++ AMP declares section, view_as, reinterpret_as and data()
// restrict(cpu, amp), and real programs use them there (the Microsoft bitonic sort sample's
// transpose views a rank-1 array as a matrix inside the kernel). Before these were
// __host__ __device__, nvcc compiled such kernels with a warning and the GPU computed garbage.
// Each case runs on every accelerator and is checked against a host reference on random data.
#include <vector>

#include <hipamp/amp.h>

#include "catch.hpp"
#include "support.hpp"

namespace hx = hipamp;

namespace {
constexpr int block_side = 16;  // (unique name: the suite builds in unity batches)

// The sample's shape: a helper taking the arrays' handles, viewing them as matrices inside
// the kernel and transposing through tile_static memory.
template <class Source, class Target>
HIPAMP_RESTRICT void transpose_tile(const Source& in, const Target& out, int rows, int cols,
                                    hx::tiled_index<block_side, block_side> t) {
  HIPAMP_TILE_STATIC float block[block_side][block_side];
  const hx::array_view<const float, 2> a = in.view_as(hx::extent<2>(rows, cols));
  block[t.local[0]][t.local[1]] = a[t.global];
  t.barrier.wait();
  const hx::array_view<float, 2> b = out.view_as(hx::extent<2>(cols, rows));
  b(t.global[1], t.global[0]) = block[t.local[0]][t.local[1]];
}
}  // namespace

TEST_CASE("kernels view arrays and views as matrices (view_as in restrict(amp) code)",
          "[array_view][array_ref][subviews]") {
  const int rows = 64, cols = 48;
  const std::vector<float> host = hipamp_test::random_vector<float>(rows * cols, -1.0f, 1.0f);
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    // Arrays through their handles, as the porting tool rewrites by-reference captures.
    hx::array<float, 1> in_array(rows * cols, host.begin(), host.end(), av);
    hx::array<float, 1> out_array(rows * cols, av);
    {
      const auto in = hx::kernel_handle(static_cast<const hx::array<float, 1>&>(in_array));
      const auto out = hx::kernel_handle(out_array);
      hx::parallel_for_each(av, hx::extent<2>(rows, cols).tile<block_side, block_side>(),
                            [=] HIPAMP_RESTRICT(hx::tiled_index<block_side, block_side> t) {
                              transpose_tile(in, out, rows, cols, t);
                            });
    }
    const std::vector<float> from_array = out_array;
    // Views over host data, the same kernel.
    std::vector<float> target(host.size(), -7.0f);
    {
      const hx::array_view<const float, 1> in(rows * cols, host);
      const hx::array_view<float, 1> out(rows * cols, target);
      out.discard_data();
      hx::parallel_for_each(av, hx::extent<2>(rows, cols).tile<block_side, block_side>(),
                            [=] HIPAMP_RESTRICT(hx::tiled_index<block_side, block_side> t) {
                              transpose_tile(in, out, rows, cols, t);
                            });
      out.synchronize();
    }
    std::size_t wrong_array = 0, wrong_view = 0;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const float want = host[std::size_t(r * cols + c)];
        wrong_array += from_array[std::size_t(c * rows + r)] != want;
        wrong_view += target[std::size_t(c * rows + r)] != want;
      }
    }
    CHECK(wrong_array == 0);
    CHECK(wrong_view == 0);
  }
}

TEST_CASE("kernels take sections, reinterpret and data() of their views",
          "[array_view][subviews]") {
  const int rows = 40, cols = 36;
  const std::vector<int> host = hipamp_test::random_vector<int>(rows * cols, -1000, 1000);
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    std::vector<int> out(host.size(), 0);
    {
      const hx::array_view<const int, 2> in(rows, cols, host);
      const hx::array_view<int, 2> result(rows, cols, out);
      result.discard_data();
      hx::parallel_for_each(av, result.extent, [=] HIPAMP_RESTRICT(hx::index<2> i) {
        // The row's section from this column on, read at its origin; then the whole row's
        // bytes as unsigned (reinterpret_as) and its first element through data().
        const hx::array_view<const int, 2> rest = in.section(hx::index<2>(i[0], i[1]));
        const hx::array_view<const int, 1> row = in[i[0]];
        const hx::array_view<const unsigned int, 1> bits = row.reinterpret_as<const unsigned int>();
        result[i] = rest(0, 0) + static_cast<int>(bits[0] & 0xffu) + row.data()[cols - 1];
      });
      result.synchronize();
    }
    std::size_t wrong = 0;
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const int* row = &host[std::size_t(r * cols)];
        const int want =
            row[c] + static_cast<int>(static_cast<unsigned int>(row[0]) & 0xffu) + row[cols - 1];
        wrong += out[std::size_t(r * cols + c)] != want;
      }
    }
    CHECK(wrong == 0);
  }
}

namespace {
// A restrict(amp) helper in the suite's shape: views of the arrays it is handed, made inside
// the kernel (C++ AMP's array_view(array&) is restrict(amp, cpu)).
template <class T>
HIPAMP_RESTRICT T doubled_through_views(hx::index<1> i, hx::array_ref<T, 1> data,
                                        hx::array_ref<const T, 1> source) {
  const hx::array_view<T, 1> writable(data);
  const hx::array_view<const T, 1> readable(source);
  writable[i] = readable[i] + readable[i];
  return data[i];
}
}  // namespace

TEST_CASE("kernels make views of the arrays they hold and of their own memory",
          "[array_view][array_ref][subviews]") {
  const int n = 777;
  const std::vector<int> host = hipamp_test::random_vector<int>(n, -100000, 100000);
  const int offset = hipamp_test::random_vector<int>(1, -50, 50)[0];
  for (const auto& acc : hipamp_test::accelerators()) {
    INFO(hipamp_test::name(acc));
    const auto av = acc.get_default_view();
    hx::array<int, 1> source(n, host.begin(), host.end(), av);
    hx::array<int, 1> target(n, av);
    std::vector<int> locals(n, 0);
    {
      const auto in = hx::kernel_handle(static_cast<const hx::array<int, 1>&>(source));
      const auto out = hx::kernel_handle(target);
      const hx::array_view<int, 1> local_result(n, locals);
      local_result.discard_data();
      hx::parallel_for_each(av, hx::extent<1>(n), [=] HIPAMP_RESTRICT(hx::index<1> i) {
        const int twice = doubled_through_views(i, out, in);
        // A view over the work-item's own array (the pointer constructors are
        // restrict(amp, cpu)), assigned over by another view as the suite's Assignment tests do.
        int scratch[6] = {0, 0, 0, 0, 0, 0};
        hx::array_view<int, 2> small(2, 3, scratch);
        small(1, 2) = twice + offset;
        hx::array_view<int, 2> alias(2, 3, scratch);
        alias = small;
        local_result[i] = alias(1, 2) - scratch[5] + alias(1, 2);
      });
      local_result.synchronize();
    }
    const std::vector<int> back = target;
    std::size_t wrong = 0;
    for (int k = 0; k < n; ++k) {
      wrong += back[k] != 2 * host[k];
      wrong += locals[k] != 2 * host[k] + offset;
    }
    CHECK(wrong == 0);
  }
}
