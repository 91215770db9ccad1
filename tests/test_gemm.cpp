// hipamp::gemm / hipamp::matmul on every accelerator, and each CPU micro-kernel directly.
//
// Reference: the same sums in long double. Error bound, per element of C (Higham's bound for
// a dot product of length k, any summation order, with FMA or without, plus the alpha/beta
// scaling):
//   |C - ref| <= (k + 4) * eps(T) * (|alpha| * sum_p |op(A)_ip| |op(B)_pj| + |beta| * |C0|)
// which also bounds ||C - ref||_F / ||ref||_F by (k + 4) * eps(T) for same-sign terms; the
// tests check the per-element form, the stronger one.
#include <cmath>
#include <cstring>
#include <limits>
#include <string>
#include <vector>

#include <hipamp/fallback/gemm.hpp>

#include "support.hpp"

namespace hx = hipamp;
using hx::matrix_op;

namespace {

// The message of the runtime_exception `f` throws ("" if none): Catch2 v2 and v3 spell
// message matchers differently.
template <class F>
std::string error_of(F&& f) {
  try {
    f();
  } catch (const hx::runtime_exception& e) {
    return e.what();
  }
  return "";
}

template <class T>
struct case_spec {
  matrix_op op_a;
  matrix_op op_b;
  int m, n, k;
  T alpha, beta;
};

template <class T>
struct host_problem {
  case_spec<T> spec;
  int a_rows, a_cols, b_rows, b_cols;  // as stored
  std::vector<T> a, b, c0;
  std::vector<long double> ref;
  std::vector<long double> bound;

  explicit host_problem(const case_spec<T>& s) : spec(s) {
    a_rows = s.op_a == matrix_op::none ? s.m : s.k;
    a_cols = s.op_a == matrix_op::none ? s.k : s.m;
    b_rows = s.op_b == matrix_op::none ? s.k : s.n;
    b_cols = s.op_b == matrix_op::none ? s.n : s.k;
    a = hipamp_test::random_vector<T>(std::size_t(a_rows) * a_cols, T(-1), T(1));
    b = hipamp_test::random_vector<T>(std::size_t(b_rows) * b_cols, T(-1), T(1));
    c0 = hipamp_test::random_vector<T>(std::size_t(s.m) * s.n, T(-1), T(1));
    // beta == 0: C must not be read, so poison it; any read shows up as NaN.
    if (s.beta == T(0)) std::fill(c0.begin(), c0.end(), std::numeric_limits<T>::quiet_NaN());
    compute_reference();
  }

  T a_at(int i, int p) const {
    return spec.op_a == matrix_op::none ? a[std::size_t(i) * a_cols + p]
                                        : a[std::size_t(p) * a_cols + i];
  }
  T b_at(int p, int j) const {
    return spec.op_b == matrix_op::none ? b[std::size_t(p) * b_cols + j]
                                        : b[std::size_t(j) * b_cols + p];
  }

  void compute_reference() {
    const long double eps = std::numeric_limits<T>::epsilon();
    ref.assign(std::size_t(spec.m) * spec.n, 0.0L);
    bound.assign(ref.size(), 0.0L);
    std::vector<long double> row_a(spec.k);
    for (int i = 0; i < spec.m; ++i) {
      for (int p = 0; p < spec.k; ++p) row_a[p] = a_at(i, p);
      for (int j = 0; j < spec.n; ++j) {
        long double sum = 0.0L, magnitude = 0.0L;
        for (int p = 0; p < spec.k; ++p) {
          const long double term = row_a[p] * static_cast<long double>(b_at(p, j));
          sum += term;
          magnitude += std::fabs(term);
        }
        const std::size_t at = std::size_t(i) * spec.n + j;
        long double value = static_cast<long double>(spec.alpha) * sum;
        long double scale = std::fabs(static_cast<long double>(spec.alpha)) * magnitude;
        if (spec.beta != T(0)) {
          value += static_cast<long double>(spec.beta) * c0[at];
          scale += std::fabs(static_cast<long double>(spec.beta) * c0[at]);
        }
        ref[at] = value;
        bound[at] = (spec.k + 4) * eps * scale + std::numeric_limits<T>::denorm_min();
      }
    }
  }

  std::string name() const {
    return "op_a=" + std::string(hx::detail::to_string(spec.op_a)) +
           " op_b=" + hx::detail::to_string(spec.op_b) + " m=" + std::to_string(spec.m) +
           " n=" + std::to_string(spec.n) + " k=" + std::to_string(spec.k) +
           " alpha=" + std::to_string(spec.alpha) + " beta=" + std::to_string(spec.beta);
  }

  // C given as rows of `ldc` elements starting at `c`.
  void check(const T* c, std::ptrdiff_t ldc) const {
    INFO(name());
    std::size_t bad = 0;
    long double worst_ratio = 0;
    long double err2 = 0, ref2 = 0;
    for (int i = 0; i < spec.m; ++i) {
      for (int j = 0; j < spec.n; ++j) {
        const std::size_t at = std::size_t(i) * spec.n + j;
        const long double got = c[i * ldc + j];
        const long double err = std::fabs(got - ref[at]);
        err2 += err * err;
        ref2 += ref[at] * ref[at];
        if (!(err <= bound[at])) {  // also catches NaN
          if (bad++ < 3) {
            UNSCOPED_INFO("C(" << i << ", " << j << ") = " << static_cast<double>(got)
                               << ", reference " << static_cast<double>(ref[at]) << ", bound "
                               << static_cast<double>(bound[at]));
          }
        }
        if (bound[at] > 0) worst_ratio = std::max(worst_ratio, err / bound[at]);
      }
    }
    INFO("largest |err| / bound " << static_cast<double>(worst_ratio) << ", ||C-ref||/||ref|| "
                                  << static_cast<double>(std::sqrt(err2 / (ref2 > 0 ? ref2 : 1))));
    CHECK(bad == 0);
  }
};

template <class T>
void run_on_views(const hx::accelerator_view& av, const host_problem<T>& hp) {
  const auto& s = hp.spec;
  std::vector<T> c = hp.c0;
  hx::array_view<const T, 2> a(hp.a_rows, hp.a_cols, hp.a);
  hx::array_view<const T, 2> b(hp.b_rows, hp.b_cols, hp.b);
  hx::array_view<T, 2> cv(s.m, s.n, c);
  hx::gemm(av, s.op_a, s.op_b, s.alpha, a, b, s.beta, cv);
  cv.synchronize();
  hp.check(c.data(), s.n);
}

template <class T>
std::vector<case_spec<T>> shape_cases() {
  const matrix_op N = matrix_op::none;
  const matrix_op Tr = matrix_op::transpose;
  std::vector<case_spec<T>> cases;
  // Odd sizes around and across every block boundary of both kernels (1, 17, 255, 1000),
  // kept to a few million multiply-adds each so the suite stays fast on two cores.
  const int shapes[][3] = {{1, 1, 1},       {17, 17, 17},    {1, 1000, 17},   {1000, 1, 255},
                           {17, 255, 1},    {255, 17, 1000}, {1000, 255, 17}, {17, 1000, 255},
                           {130, 129, 131}, {64, 64, 64}};
  const matrix_op ops[][2] = {{N, N}, {N, Tr}, {Tr, N}, {Tr, Tr}};
  for (const auto& shape : shapes) {
    for (const auto& op : ops) {
      cases.push_back({op[0], op[1], shape[0], shape[1], shape[2], T(1), T(0)});
    }
  }
  return cases;
}

template <class T>
void check_shapes_on(const hx::accelerator_view& av) {
  for (const case_spec<T>& s : shape_cases<T>()) run_on_views(av, host_problem<T>(s));
}

template <class T>
void check_alpha_beta_on(const hx::accelerator_view& av) {
  const matrix_op N = matrix_op::none;
  const matrix_op Tr = matrix_op::transpose;
  const case_spec<T> cases[] = {
      {N, N, 37, 45, 53, T(1), T(1)},       {N, Tr, 37, 45, 53, T(-2.5), T(0.5)},
      {Tr, N, 45, 37, 300, T(0.25), T(-1)}, {Tr, Tr, 33, 65, 129, T(3), T(0)},
      {N, N, 200, 40, 600, T(-1), T(2)},
  };
  for (const case_spec<T>& s : cases) run_on_views(av, host_problem<T>(s));
}

}  // namespace

TEST_CASE("gemm matches a long double reference for odd shapes and all transposes", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    SECTION("float") { check_shapes_on<float>(av); }
    if (acc.get_supports_double_precision()) {
      SECTION("double") { check_shapes_on<double>(av); }
    }
  }
}

TEST_CASE("gemm applies alpha and beta; beta == 0 ignores NaN in C", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    SECTION("float") { check_alpha_beta_on<float>(av); }
    if (acc.get_supports_double_precision()) {
      SECTION("double") { check_alpha_beta_on<double>(av); }
    }
  }
}

TEST_CASE("gemm with alpha == 0 scales C and does not read A or B", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const int m = 19, n = 23, k = 29;
    std::vector<float> a(std::size_t{m} * k, std::numeric_limits<float>::quiet_NaN());
    std::vector<float> b(std::size_t{k} * n, std::numeric_limits<float>::quiet_NaN());
    const std::vector<float> c0 =
        hipamp_test::random_vector<float>(std::size_t{m} * n, -1.0f, 1.0f);
    for (float beta : {0.0f, 1.0f, -0.75f}) {
      std::vector<float> c = c0;
      hx::array_view<float, 2> cv(m, n, c);
      hx::gemm(av, matrix_op::none, matrix_op::none, 0.0f, hx::array_view<const float, 2>(m, k, a),
               hx::array_view<const float, 2>(k, n, b), beta, cv);
      cv.synchronize();
      for (int i = 0; i < m * n; ++i) {
        INFO("beta " << beta << " element " << i);
        REQUIRE(c[i] == beta * c0[i]);
      }
    }
  }
}

TEST_CASE("gemm on sections: leading dimensions, untouched neighbours", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    // op(A) = rows 3..3+m of columns 5..5+k of a 90 x 70 matrix; the same for B and C.
    const int m = 41, n = 37, k = 59;
    std::vector<double> big_a = hipamp_test::random_vector<double>(std::size_t{90} * 70, -1.0, 1.0);
    std::vector<double> big_b = hipamp_test::random_vector<double>(std::size_t{80} * 70, -1.0, 1.0);
    std::vector<double> big_c = hipamp_test::random_vector<double>(std::size_t{60} * 45, -1.0, 1.0);
    const std::vector<double> c_before = big_c;
    hx::array_view<const double, 2> a_all(90, 70, big_a);
    hx::array_view<const double, 2> b_all(80, 70, big_b);
    hx::array_view<double, 2> c_all(60, 45, big_c);
    const auto a = a_all.section(hx::index<2>(3, 5), hx::extent<2>(m, k));
    const auto b = b_all.section(hx::index<2>(7, 2), hx::extent<2>(n, k));  // used transposed
    const auto c = c_all.section(hx::index<2>(4, 6), hx::extent<2>(m, n));
    hx::gemm(av, matrix_op::none, matrix_op::transpose, 1.5, a, b, -0.5, c);
    c_all.synchronize();
    long double worst = 0;
    for (int r = 0; r < 60; ++r) {
      for (int col = 0; col < 45; ++col) {
        const bool inside = r >= 4 && r < 4 + m && col >= 6 && col < 6 + n;
        const double got = big_c[r * 45 + col];
        if (!inside) {
          REQUIRE(got == c_before[r * 45 + col]);
          continue;
        }
        const int i = r - 4, j = col - 6;
        long double sum = 0, mag = 0;
        for (int p = 0; p < k; ++p) {
          const long double t =
              static_cast<long double>(big_a[(3 + i) * 70 + 5 + p]) * big_b[(7 + j) * 70 + 2 + p];
          sum += t;
          mag += std::fabs(t);
        }
        const long double ref = 1.5L * sum - 0.5L * c_before[r * 45 + col];
        const long double bound =
            (k + 4) * std::numeric_limits<double>::epsilon() *
            (1.5L * mag + 0.5L * std::fabs(static_cast<long double>(c_before[r * 45 + col])));
        worst = std::max(worst, std::fabs(got - ref) / bound);
      }
    }
    INFO("largest |err| / bound " << static_cast<double>(worst));
    CHECK(worst <= 1.0L);
  }
}

TEST_CASE("gemm over arrays resident on the accelerator, and matmul", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const case_spec<float> s{matrix_op::none, matrix_op::none, 96, 80, 72, 1.0f, 0.0f};
    const host_problem<float> hp(s);
    hx::array<float, 2> a(hx::extent<2>(s.m, s.k), hp.a.begin(), hp.a.end(), av);
    hx::array<float, 2> b(hx::extent<2>(s.k, s.n), hp.b.begin(), hp.b.end(), av);
    hx::array<float, 2> c(s.m, s.n, av);
    SECTION("matmul with an explicit view; writable views of A and B convert") {
      hx::matmul(av, hx::array_view<float, 2>(a), hx::array_view<float, 2>(b),
                 hx::array_view<float, 2>(c));
    }
    SECTION("matmul without a view runs where C's array lives") {
      hx::matmul(hx::array_view<const float, 2>(a), hx::array_view<const float, 2>(b),
                 hx::array_view<float, 2>(c));
    }
    std::vector<float> out(std::size_t(s.m) * s.n);
    hx::copy(c, out.begin());
    hp.check(out.data(), s.n);
  }
}

TEST_CASE("matmul discards C: only A and B are copied in", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    const int m = 33, n = 31, k = 35;
    const auto a = hipamp_test::random_vector<float>(std::size_t{m} * k, -1.0f, 1.0f);
    const auto b = hipamp_test::random_vector<float>(std::size_t{k} * n, -1.0f, 1.0f);
    std::vector<float> c(std::size_t{m} * n, std::numeric_limits<float>::quiet_NaN());
    hx::array_view<const float, 2> av_a(m, k, a), av_b(k, n, b);
    hx::array_view<float, 2> av_c(m, n, c);
    hx::reset_transfer_statistics();
    hx::matmul(av, av_a, av_b, av_c);
    const hx::transfer_statistics in = hx::get_transfer_statistics(acc);
    av_c.synchronize();
    const hx::transfer_statistics out = hx::get_transfer_statistics(acc);
    if (!acc.get_supports_cpu_shared_memory()) {  // the host-shared CPU and REF devices copy
                                                  // nothing
      CHECK(in.host_to_device_bytes == sizeof(float) * (m * k + k * n));
      CHECK(out.device_to_host_bytes == sizeof(float) * m * n);
    }
    for (int i = 0; i < m; ++i) {
      for (int j = 0; j < n; ++j) {
        double ref = 0;
        for (int p = 0; p < k; ++p) ref += double(a[i * k + p]) * b[p * n + j];
        REQUIRE(std::fabs(c[i * n + j] - ref) <= (k + 4) * 1.2e-7 * k);
      }
    }
  }
}

TEST_CASE("every CPU micro-kernel this machine runs matches the reference", "[gemm][cpu]") {
  using hx::fallback::gemm_isa;
  for (gemm_isa isa : {gemm_isa::portable, gemm_isa::avx2, gemm_isa::avx512}) {
    if (!hx::fallback::gemm_isa_available(isa)) {
      WARN("CPU GEMM kernel " << hx::fallback::to_string(isa) << " not available here");
      continue;
    }
    DYNAMIC_SECTION("isa " << hx::fallback::to_string(isa)) {
      const matrix_op N = matrix_op::none;
      const matrix_op Tr = matrix_op::transpose;
      // Beyond the packing blocks: M > 4096 rows and N > 4096 columns, K > KC.
      const case_spec<float> fcases[] = {{N, Tr, 4101, 33, 7, 1.0f, 0.5f},
                                         {Tr, N, 7, 4200, 5, 2.0f, 0.0f},
                                         {Tr, Tr, 300, 70, 700, 1.0f, 1.0f},
                                         {N, N, 255, 257, 259, -1.0f, 0.0f}};
      for (const auto& s : fcases) {
        const host_problem<float> hp(s);
        std::vector<float> c = hp.c0;
        hx::detail::gemm_problem<float> p;
        p.op_a = s.op_a;
        p.op_b = s.op_b;
        p.m = s.m;
        p.n = s.n;
        p.k = s.k;
        p.alpha = s.alpha;
        p.beta = s.beta;
        p.a = hp.a.data();
        p.lda = hp.a_cols;
        p.b = hp.b.data();
        p.ldb = hp.b_cols;
        p.c = c.data();
        p.ldc = s.n;
        hx::fallback::gemm_cpu(p, isa);
        hp.check(c.data(), s.n);
      }
      const case_spec<double> dcase{Tr, N, 129, 131, 300, 1.0, -1.0};
      const host_problem<double> hp(dcase);
      std::vector<double> c = hp.c0;
      hx::detail::gemm_problem<double> p;
      p.op_a = dcase.op_a;
      p.op_b = dcase.op_b;
      p.m = dcase.m;
      p.n = dcase.n;
      p.k = dcase.k;
      p.alpha = dcase.alpha;
      p.beta = dcase.beta;
      p.a = hp.a.data();
      p.lda = hp.a_cols;
      p.b = hp.b.data();
      p.ldb = hp.b_cols;
      p.c = c.data();
      p.ldc = dcase.n;
      hx::fallback::gemm_cpu(p, isa);
      hp.check(c.data(), dcase.n);
    }
  }
}

TEST_CASE("gemm rejects mismatched shapes, aliasing and empty matrices", "[gemm]") {
  FOR_EACH_ACCELERATOR(acc) {
    const hx::accelerator_view av = acc.get_default_view();
    std::vector<float> va = hipamp_test::random_vector<float>(std::size_t{12} * 12, -1.0f, 1.0f);
    std::vector<float> vb = hipamp_test::random_vector<float>(std::size_t{12} * 12, -1.0f, 1.0f);
    std::vector<float> vc = hipamp_test::random_vector<float>(std::size_t{12} * 12, -1.0f, 1.0f);
    const std::vector<float> vc_before = vc;
    hx::array_view<const float, 2> a34(3, 4, va), b56(5, 6, vb), b45(4, 5, vb);
    hx::array_view<float, 2> c35(3, 5, vc), c36(3, 6, vc);

    SECTION("inner dimensions differ") {
      try {
        hx::gemm(av, matrix_op::none, matrix_op::none, 1.0f, a34, b56, 0.0f, c36);
        FAIL("no exception");
      } catch (const hx::runtime_exception& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("inner dimensions 4 and 5 differ") != std::string::npos);
        CHECK(what.find("[3, 4]") != std::string::npos);
        CHECK(what.find("[5, 6]") != std::string::npos);
      }
    }
    SECTION("transpose makes the shapes fit, or not") {
      CHECK_THROWS_AS(
          hx::gemm(av, matrix_op::transpose, matrix_op::none, 1.0f, a34, b45, 0.0f, c35),
          hx::runtime_exception);
      hx::array_view<float, 2> c44(4, 4, vc);
      hx::array_view<const float, 2> b34(3, 4, vb);
      hx::gemm(av, matrix_op::transpose, matrix_op::none, 1.0f, a34, b34, 0.0f, c44);  // fits
    }
    SECTION("C has the wrong shape") {
      try {
        hx::gemm(av, matrix_op::none, matrix_op::none, 1.0f, a34, b45, 0.0f, c36);
        FAIL("no exception");
      } catch (const hx::runtime_exception& e) {
        const std::string what = e.what();
        INFO(what);
        CHECK(what.find("C has extent [3, 6]") != std::string::npos);
        CHECK(what.find("3 x 5") != std::string::npos);
      }
      c36.synchronize();
      CHECK(vc == vc_before);  // nothing was written
    }
    SECTION("C is A, or overlaps B") {
      std::vector<float> m = hipamp_test::random_vector<float>(std::size_t{8} * 8, -1.0f, 1.0f);
      hx::array_view<float, 2> whole(8, 8, m);
      hx::array_view<const float, 2> in(8, 8, m);
      const std::string same = error_of([&] { hx::matmul(av, in, in, whole); });
      INFO(same);
      CHECK(same.find("C (extent [8, 8]) shares elements with A (extent [8, 8])") !=
            std::string::npos);
      // Overlapping sections of one matrix.
      const auto top = whole.section(hx::index<2>(0, 0), hx::extent<2>(5, 5));
      const auto rows3to7 = whole.section(hx::index<2>(3, 0), hx::extent<2>(5, 8));
      hx::array_view<const float, 2> b8(8, 8, vb);
      const std::string overlap = error_of([&] {
        hx::gemm(av, matrix_op::none, matrix_op::transpose, 1.0f,
                 b8.section(hx::index<2>(0, 0), hx::extent<2>(5, 8)),
                 hx::array_view<const float, 2>(rows3to7), 0.0f, top);
      });
      INFO(overlap);
      CHECK(overlap.find("shares elements with B") != std::string::npos);
      // A view over part of a vector, then C over all of it: two sources, one memory.
      std::vector<float> shared =
          hipamp_test::random_vector<float>(std::size_t{16} * 4, -1.0f, 1.0f);
      hx::array_view<const float, 2> first_half(8, 4, shared);
      hx::array_view<float, 2> all(16, 4, shared);
      hx::array_view<const float, 2> b4(4, 4, vb);
      CHECK_THROWS_AS(
          hx::matmul(av, first_half, b4, all.section(hx::index<2>(0, 0), hx::extent<2>(8, 4))),
          hx::runtime_exception);
    }
    SECTION("column blocks of one matrix interleave without overlapping: allowed") {
      // [A | C] side by side in one 16 x 8 matrix: C = A * B with A the left 4 columns.
      std::vector<float> m = hipamp_test::random_vector<float>(std::size_t{16} * 8, -1.0f, 1.0f);
      const std::vector<float> m0 = m;
      hx::array_view<float, 2> whole(16, 8, m);
      const hx::array_view<const float, 2> left =
          whole.section(hx::index<2>(0, 0), hx::extent<2>(16, 4));
      const auto right = whole.section(hx::index<2>(0, 4), hx::extent<2>(16, 4));
      hx::array_view<const float, 2> b4(4, 4, vb);
      hx::matmul(av, left, b4, right);
      whole.synchronize();
      for (int i = 0; i < 16; ++i) {
        for (int j = 0; j < 4; ++j) {
          REQUIRE(m[i * 8 + j] == m0[i * 8 + j]);
          double ref = 0;
          for (int p = 0; p < 4; ++p) ref += double(m0[i * 8 + p]) * vb[p * 4 + j];
          REQUIRE(std::fabs(m[i * 8 + 4 + j] - ref) <= 8 * 1.2e-7 * 4);
        }
      }
    }
    SECTION("empty matrices cannot be made: extents are positive in C++ AMP") {
      const std::string zero_rows = error_of([&] { hx::array_view<float, 2> empty(0, 5, vc); });
      INFO(zero_rows);
      CHECK(zero_rows.find("[0, 5]") != std::string::npos);
      const std::string zero_cols =
          error_of([&] { hx::array_view<const float, 2> empty(5, 0, va); });
      CHECK(zero_cols.find("[5, 0]") != std::string::npos);
    }
  }
}
