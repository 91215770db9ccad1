#!/usr/bin/env python3
"""Unit tests of tools/amp2hipamp.py: every rule, what it must leave alone, its warnings, and
idempotence (porting a ported file changes nothing) on snippets and on every input program.

Run: python3 -m unittest discover -s tools/tests   (CTest runs it as amp2hipamp_unittest)
"""
import glob
import io
import os
import shutil
import subprocess
import sys
import tempfile
import unittest
from contextlib import redirect_stdout

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.dirname(HERE))
import amp2hipamp  # noqa: E402

INPUTS = sorted(glob.glob(os.path.join(HERE, "inputs", "*.cpp")))


def port(text, only_amp=False):
    """Ports a snippet; the rules apply whether or not it shows a sign of C++ AMP."""
    return amp2hipamp.port_text("t.cpp", text, only_amp)


class PortTest(unittest.TestCase):
    def assertPorts(self, before, after, rules=None):
        got, report = port(before)
        self.assertEqual(got, after)
        if rules is not None:
            seen = {line.split("[", 1)[1].split("]", 1)[0] for line in report}
            self.assertEqual(seen, set(rules), report)
        again, _ = port(got)
        self.assertEqual(again, got, "not idempotent")
        return report

    def warnings(self, text):
        return [line for line in port(text)[1] if ": warning [" in line]


class IncludeRule(PortTest):
    def test_amp_headers_become_one_hipamp_include(self):
        self.assertPorts("#include <amp.h>\n#include <amp_math.h>\n#include <amp_graphics.h>\nint x;\n",
                         "#include <hipamp/amp.h>\nint x;\n", {"include"})

    def test_quoted_and_short_vector_headers(self):
        self.assertPorts('#include "amp_short_vectors.h"\n', "#include <hipamp/amp.h>\n")

    def test_existing_hipamp_include_absorbs_the_others(self):
        self.assertPorts("#include <hipamp/amp.h>\n#include <amp.h>\n", "#include <hipamp/amp.h>\n")

    def test_other_includes_and_comments_untouched(self):
        text = "#include <vector>\n// #include <amp.h>\n/* #include <amp.h> */\n#include <camp.h>\n"
        self.assertPorts(text, text, set())

    def test_line_numbers_in_report(self):
        report = self.assertPorts("int a;\n\n#include <amp.h>\n", "int a;\n\n#include <hipamp/amp.h>\n")
        self.assertTrue(report[0].startswith("t.cpp:3: [include]"), report)


class RestrictOnLambdas(PortTest):
    def test_amp_lambda_gets_the_macro_before_its_parameters(self):
        self.assertPorts("f([=](int i) restrict(amp) { g(i); });",
                         "f([=] HIPAMP_RESTRICT (int i) { g(i); });", {"restrict"})

    def test_every_device_spelling(self):
        for spec in ("amp", "cpu, amp", "amp, cpu", "amp,cpu", "direct3d", " amp ", "auto"):
            with self.subTest(spec=spec):
                self.assertPorts("auto k = [&](int i) restrict(%s) { };" % spec,
                                 "auto k = [&] HIPAMP_RESTRICT (int i) { };")

    def test_cpu_only_lambda_loses_the_clause(self):
        self.assertPorts("auto k = [](int i) restrict(cpu) { };", "auto k = [](int i) { };")

    def test_mutable_and_trailing_return_type_stay(self):
        self.assertPorts("auto k = [=](int i) mutable restrict(amp) -> int { return i; };",
                         "auto k = [=] HIPAMP_RESTRICT (int i) mutable -> int { return i; };")

    def test_capture_list_with_initialisers_and_nested_brackets(self):
        self.assertPorts("auto k = [a = v[0], &b](int i) restrict(amp) {};",
                         "auto k = [a = v[0], &b] HIPAMP_RESTRICT (int i) {};")

    def test_lambda_without_parameter_list(self):
        self.assertPorts("auto k = [=] restrict(amp) { };", "auto k = [=] HIPAMP_RESTRICT () { };")

    def test_multiline_parameter_list(self):
        self.assertPorts("pfe(e, [=](index<2> idx)\n    restrict(amp)\n{\n});",
                         "pfe(e, [=] HIPAMP_RESTRICT (index<2> idx)\n{\n});")


class RestrictOnFunctions(PortTest):
    def test_function_gets_the_macro_before_its_declaration(self):
        self.assertPorts("float f(float x) restrict(amp) { return x; }",
                         "HIPAMP_RESTRICT float f(float x) { return x; }", {"restrict"})

    def test_declaration_and_definition(self):
        self.assertPorts("int g(int);\nstatic inline int f(int x) restrict(cpu, amp);\n",
                         "int g(int);\nHIPAMP_RESTRICT static inline int f(int x);\n")

    def test_return_type_on_its_own_line_after_a_comment(self):
        self.assertPorts("int a;\n// doubles x\ninline float\ntwice(float x) restrict(amp) { return 2 * x; }",
                         "int a;\n// doubles x\nHIPAMP_RESTRICT inline float\ntwice(float x) { return 2 * x; }")

    def test_after_template_head(self):
        self.assertPorts("template <typename T, int N = (1 > 0)>\nT sq(T x) restrict(amp, cpu) { return x * x; }",
                         "template <typename T, int N = (1 > 0)>\nHIPAMP_RESTRICT T sq(T x) { return x * x; }")

    def test_members_operators_constructors(self):
        before = ("struct p {\n public:\n  p(float v) restrict(amp, cpu) : x(v) {}\n"
                  "  float get() const restrict(amp) { return x; }\n"
                  "  void operator()(index<1> i) const restrict(amp) {}\n"
                  "  bool operator<(const p& o) const restrict(amp) { return x < o.x; }\n"
                  "  friend bool operator==(const p& a, const p& b) restrict(amp);\n"
                  "  ~p() restrict(cpu, amp) {}\n  float x;\n};\n"
                  "float p::twice() const restrict(amp) { return 2 * x; }\n")
        after = ("struct p {\n public:\n  HIPAMP_RESTRICT p(float v) : x(v) {}\n"
                 "  HIPAMP_RESTRICT float get() const { return x; }\n"
                 "  HIPAMP_RESTRICT void operator()(index<1> i) const {}\n"
                 "  HIPAMP_RESTRICT bool operator<(const p& o) const { return x < o.x; }\n"
                 "  HIPAMP_RESTRICT friend bool operator==(const p& a, const p& b);\n"
                 "  HIPAMP_RESTRICT ~p() {}\n  float x;\n};\n"
                 "HIPAMP_RESTRICT float p::twice() const { return 2 * x; }\n")
        self.assertPorts(before, after)

    def test_after_preprocessor_line(self):
        self.assertPorts("#include <x>\nint f() restrict(amp) { return 1; }\n",
                         "#include <x>\nHIPAMP_RESTRICT int f() { return 1; }\n")

    def test_cpu_only_function_loses_the_clause(self):
        self.assertPorts("int f() restrict(cpu) { return 1; }", "int f() { return 1; }")

    def test_overloads_on_restriction_are_reported(self):
        text = "float f(float x) restrict(cpu) { return x; }\nfloat f(float x) restrict(amp) { return x; }\n"
        warned = self.warnings(text)
        self.assertEqual(len(warned), 2, warned)
        self.assertIn("overloaded on restriction", warned[0])


class RestrictLeftAlone(PortTest):
    def test_macro_bodies_are_reported_not_changed(self):
        text = "#define KERNEL(body) [=](index<1> i) restrict(amp) { body }\\\n  restrict(amp)\nint x;\n"
        got, report = port(text)
        self.assertEqual(got, text)
        self.assertEqual(sum("warning [restrict]" in l and "macro" in l for l in report), 2, report)

    def test_comments_strings_and_other_words(self):
        text = ('// f() restrict(amp)\nconst char* s = "restrict(amp)";\n'
                "/* [=](int) restrict(amp) */ int* __restrict p; int restricted(int);\n")
        self.assertPorts(text, text, set())

    def test_unknown_restriction_is_reported(self):
        text = "int f() restrict(d3d11) { return 1; }"
        got, report = port(text)
        self.assertEqual(got, text)
        self.assertIn("unknown restriction", report[0])


class IndexRule(PortTest):
    def test_bare_index_is_qualified_under_a_using_directive(self):
        self.assertPorts("using namespace concurrency;\nvoid f(index<1> i, index< 2 > j, tiled_index<4> t);\n",
                         "using namespace concurrency;\nvoid f(concurrency::index<1> i, concurrency::index< 2 > j, tiled_index<4> t);\n",
                         {"index"})

    def test_spelling_follows_the_directive(self):
        self.assertPorts("using namespace Concurrency;\nindex<N - 1> i;",
                         "using namespace Concurrency;\nConcurrency::index<N - 1> i;")

    def test_qualified_members_comparisons_comments_untouched(self):
        text = ("using namespace concurrency;\nconcurrency::index<1> a; hipamp::index<2> b;\n"
                "int c = s.index<3>(); int d = p->index<1>(); if (index < n) {}\n"
                "// index<1>\nstd::vector<concurrency::index<2>> e;\n")
        self.assertPorts(text, text, set())

    def test_nothing_without_a_using_directive(self):
        self.assertPorts("using concurrency::extent;\nindex<1> i;\n", "using concurrency::extent;\nindex<1> i;\n", set())

    def test_namespace_scope_using_declaration_is_reported(self):
        self.assertTrue(any("using-declaration" in w for w in self.warnings(
            "using namespace concurrency;\nusing concurrency::index;\n")))


class PropertyRule(PortTest):
    def test_reads_become_getters(self):
        self.assertPorts("std::wcout << acc.description << acc.dedicated_memory << av.accelerator.device_path "
                         "<< p->is_emulated << a.accelerator_view.queuing_mode;",
                         "std::wcout << acc.get_description() << acc.get_dedicated_memory() << "
                         "av.get_accelerator().get_device_path() << p->get_is_emulated() << "
                         "a.get_accelerator_view().get_queuing_mode();", {"property"})

    def test_calls_and_other_members_untouched(self):
        text = "acc.get_description(); x.descriptions; acc.description(); hipamp::accelerator_view v;"
        self.assertPorts(text, text, set())

    def test_writes_are_reported(self):
        text = "acc.default_cpu_access_type = access_type_read;"
        got, report = port(text)
        self.assertEqual(got, text)
        self.assertIn("set_default_cpu_access_type", report[0])

    def test_property_swizzles_are_reported_where_short_vectors_are_used(self):
        warned = self.warnings("float_4 v; float_2 a = v.xy; v.zw = a; v.get_xy(); s.xx;")
        self.assertEqual(sum("[swizzle]" in w for w in warned), 2, warned)
        self.assertEqual(self.warnings("struct s { int xy; }; int f(s a) { return a.xy; }"), [])


class OnlyAmpSources(PortTest):
    def test_files_without_cpp_amp_are_left_alone(self):
        text = "struct props { std::wstring description; };\nvoid f(props& p) { p.description = L\"x\"; "\
               "use(p.version); }\nconst wchar_t* r = direct3d_ref;\n"
        got, report = port(text, only_amp=True)
        self.assertEqual((got, report), (text, []))

    def test_any_sign_of_cpp_amp_is_enough(self):
        for marker in ('#include "amp.h"\n', "#include <hipamp/amp.h>\n", "concurrency::extent<1> e;\n",
                       "using namespace Concurrency;\n", "int g() restrict(cpu);\n"):
            with self.subTest(marker=marker):
                got, _ = port(marker + "void f(A& a) { use(a.description); }\n", only_amp=True)
                self.assertIn("a.get_description()", got)


class Warnings(PortTest):
    def test_kernel_capturing_by_reference(self):
        text = "pfe(e, [=, &arr](index<1> i) restrict(amp) { arr[i] = 0; });\npfe(e, [&](index<1> i) restrict(amp) {});\n" \
               "auto host = [&](int i) restrict(cpu) {};\n"
        warned = [w for w in self.warnings(text) if "[capture]" in w]
        self.assertEqual(len(warned), 2, warned)
        self.assertIn("array_view", warned[0])
        ported, _ = port(text)  # still reported on the ported file
        self.assertEqual(len([w for w in self.warnings(ported) if "[capture]" in w]), 2)

    def test_unsupported_features(self):
        text = ('#include <d3d11.h>\nauto d = concurrency::direct3d::get_device(av);\n'
                "accelerator r(accelerator::direct3d_ref);\ntexture<float, 2> t(e);\n"
                "float m = direct3d::mad(a, b, c);\nf.to_task();\n")
        warned = self.warnings(text)
        for rule in ("direct3d", "direct3d_ref", "texture", "ppl"):
            self.assertTrue(any("[%s]" % rule for w in warned if "[%s]" % rule in w), (rule, warned))
        self.assertEqual(len(warned), 6, warned)  # one per line

    def test_tile_static_and_concurrency_names_stay(self):
        text = "tile_static float s[16]; concurrency::array_view<int, 1> v; Concurrency::extent<1> e;"
        self.assertPorts(text, text, set())


NVCC = shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc"
                                 if os.path.exists("/usr/local/cuda/bin/nvcc") else None)

# Every place restrict(...) can stand, in C++ AMP; after the port nvcc must accept each one.
PLACEMENTS = """
template <class K> __global__ void run(K k) { k(static_cast<int>(threadIdx.x)); }
struct p {
 public:
  p(float v) restrict(amp, cpu) : x(v) {}
  float get() const restrict(amp) { return x; }
  void operator()(int i) const restrict(amp) {}
  bool operator<(const p& o) const restrict(amp) { return x < o.x; }
  friend bool operator==(const p& a, const p& b) restrict(amp, cpu);
  ~p() restrict(cpu, amp) {}
  float x;
};
bool operator==(const p& a, const p& b) restrict(amp, cpu) { return a.x == b.x; }
static inline int f(int x) restrict(amp) { return x + 1; }
template <typename T, int N = (1 > 0)>
T sq(T x) restrict(direct3d) { return x * x; }
inline float
twice(float x) restrict(auto) { return 2 * x; }
int host_only(int x) restrict(cpu) { return x; }
void launch(int* out) {
  run<<<1, 1>>>([=](int i) mutable restrict(amp) -> int {
    p a(1.0f);
    return f(i) + sq(i) + (a == a) + (a < a) + static_cast<int>(twice(a.get()));
  });
  auto z = [=] restrict(amp) {};
  z();
  run<<<1, 1>>>([=](int i) restrict(amp, cpu) { out[i] = i; });
  run<<<1, 1>>>(p(2.0f));
  out[0] = host_only(1);
}
"""


@unittest.skipUnless(NVCC, "nvcc not found")
class NvccAcceptsThePlacement(unittest.TestCase):
    def test_ported_placements_compile_as_cuda(self):
        ported, _ = port(PLACEMENTS)
        self.assertNotIn("restrict(", ported)
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "placements.cu")
            with open(src, "w") as f:
                f.write("#define HIPAMP_RESTRICT __host__ __device__\n" + ported)
            run = subprocess.run([NVCC, "-std=c++17", "--extended-lambda", "-c", src, "-o",
                                  os.path.join(tmp, "placements.o")], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stdout + run.stderr + ported)

    def test_unported_placements_do_not(self):
        # The test above means something only if nvcc rejects C++ AMP's own placement.
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "amp.cu")
            with open(src, "w") as f:
                f.write("template <class K> __global__ void run(K k) { k(1); }\n"
                        "void launch() { run<<<1, 1>>>([=](int i) __host__ __device__ { }); }\n")
            run = subprocess.run([NVCC, "-std=c++17", "--extended-lambda", "-c", src, "-o",
                                  os.path.join(tmp, "amp.o")], capture_output=True, text=True)
            self.assertNotEqual(run.returncode, 0)


class WholePrograms(unittest.TestCase):
    def test_inputs_exist(self):
        names = {os.path.basename(p) for p in INPUTS}
        for kind in ("vector_add", "matrix_multiply", "matrix_multiply_tiled", "bitonic_sort",
                     "nbody", "reduction_tiled"):
            self.assertIn(kind + ".cpp", names)

    def test_every_input_ports_completely_and_idempotently(self):
        for path in INPUTS:
            with self.subTest(path=os.path.basename(path)):
                with open(path) as f:
                    text = f.read()
                once, report = amp2hipamp.port_text(path, text)
                self.assertNotEqual(once, text)
                self.assertNotIn("restrict(", amp2hipamp.Source(once).mask)
                self.assertNotIn("<amp.h>", once)
                self.assertIn("#include <hipamp/amp.h>", once)
                twice, _ = amp2hipamp.port_text(path, once)
                self.assertEqual(twice, once)

    def test_command_line_modes(self):
        script = os.path.join(os.path.dirname(HERE), "amp2hipamp.py")
        with tempfile.TemporaryDirectory() as tmp:
            src = os.path.join(tmp, "k.cpp")
            with open(src, "w") as f:
                f.write("#include <amp.h>\nauto k = [=](int i) restrict(amp) {};\n")
            check = subprocess.run([sys.executable, script, "--check", src], capture_output=True, text=True)
            self.assertEqual(check.returncode, 1, check.stdout + check.stderr)
            out = os.path.join(tmp, "out.cpp")
            run = subprocess.run([sys.executable, script, src, "-o", out], capture_output=True, text=True)
            self.assertEqual(run.returncode, 0, run.stderr)
            self.assertIn("k.cpp:2: [restrict]", run.stdout)
            self.assertIn("2 line(s) changed", run.stdout)
            subprocess.run([sys.executable, script, "-i", src], check=True, capture_output=True)
            with open(src) as f, open(out) as g:
                self.assertEqual(f.read(), g.read())
            check = subprocess.run([sys.executable, script, "--check", src], capture_output=True, text=True)
            self.assertEqual(check.returncode, 0, check.stdout)
            to_stdout = subprocess.run([sys.executable, script, src], capture_output=True, text=True)
            with open(out) as g:
                self.assertEqual(to_stdout.stdout, g.read())


if __name__ == "__main__":
    unittest.main()
