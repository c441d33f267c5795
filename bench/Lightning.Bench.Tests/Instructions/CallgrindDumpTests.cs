using Lightning.Bench.Instructions;

namespace Lightning.Bench.Tests.Instructions;

/// <summary>
/// The callgrind parser on real output of this machine's Valgrind 3.19: a Core Lightning subdaemon run to its exit, a
/// mid-run dump of lightningd (calls still running at the dump), and a small C program whose call structure is known
/// (known-calls.c, compiled with gcc -O1 -g and run once under valgrind --tool=callgrind).
/// </summary>
[Trait("Category", "Unit")]
public class CallgrindDumpTests
{
    internal static CallgrindDump Load(string name) =>
        CallgrindDump.Read(Path.Combine(AppContext.BaseDirectory, "Instructions", name));

    internal static CallgrindDump Parse(string text) => CallgrindDump.Parse(new StringReader(text));

    [Fact]
    public void A_subdaemon_run_to_its_exit_has_the_header_and_the_self_and_inclusive_counts_callgrind_annotate_prints()
    {
        var dump = Load("callgrind-channeld-version.txt");

        Assert.Equal(19704, dump.Pid);
        Assert.Equal(1, dump.Part);
        Assert.Equal("Program termination", dump.Trigger);
        Assert.Equal("lightning_channeld", dump.ProcessName);
        Assert.EndsWith("lightning_channeld --version", dump.Command, StringComparison.Ordinal);
        // callgrind_annotate callgrind-channeld-version.txt: "355,199 (100.0%)  PROGRAM TOTALS".
        Assert.Equal(355_199, dump.TotalIr);
        Assert.Equal(355_199, dump.FileTotalIr);
        // callgrind_annotate --threshold=100 callgrind-channeld-version.txt, the ten functions with the most self Ir.
        // callgrind_annotate lists a function once per source file its code came from (fi=/fe=, inlining): the figures
        // are its rows summed, e.g. do_lookup_x 99,932 + 1,460 + 1,168. strcmp and check_match also exist elsewhere
        // (libc's strcmp, dl-lookup-direct.c's static check_match): their rows are the ld.so / dl-lookup.c ones only.
        var expectedSelf = new (string Key, long Self)[]
        {
            ("do_lookup_x", 102_560),
            ("_dl_lookup_symbol_x", 68_874),
            ("_dl_relocate_object", 54_437),
            ("__GI___tunables_init", 32_283),
            ("strcmp [ld-linux-x86-64.so.2]", 16_461),
            ("check_match [ld-linux-x86-64.so.2 dl-lookup.c]", 15_694),
            ("_dl_check_map_versions", 9_145),
            ("_dl_map_object_from_fd", 6_408),
            ("intel_check_word.constprop.0", 5_248),
            ("_dl_cache_libcmp", 3_218),
        };
        Assert.Equal(
            expectedSelf,
            dump.Functions.Values.OrderByDescending(f => f.SelfIr).Take(10).Select(f => (f.Key, f.SelfIr))
        );
        // callgrind_annotate --inclusive=yes --threshold=100 callgrind-channeld-version.txt, its first ten rows.
        var expectedInclusive = new (string Key, long Inclusive)[]
        {
            ("0x000000000001ab70", 355_199),
            ("_dl_start", 341_782),
            ("_dl_sysdep_start", 341_107),
            ("dl_main", 301_289),
            ("_dl_relocate_object", 242_659),
            ("_dl_lookup_symbol_x", 194_210),
            ("do_lookup_x", 125_336),
            ("__GI___tunables_init", 32_283),
            ("_dl_map_object_deps", 27_652),
            ("_dl_catch_exception", 26_489),
        };
        Assert.Equal(
            expectedInclusive,
            dump.Functions.Values.OrderByDescending(f => f.InclusiveIr).Take(10).Select(f => (f.Key, f.InclusiveIr))
        );
    }

    [Fact]
    public void A_mid_run_dump_charges_calls_still_running_as_calls_so_self_counts_add_up_to_the_total()
    {
        var dump = Load("callgrind-lightningd-dump.txt");

        Assert.Equal("lightningd", dump.ProcessName);
        Assert.Equal(25, dump.Part);
        Assert.Equal("--dump-before=fork", dump.Trigger);
        // callgrind_annotate: "12,091 (100.0%)  PROGRAM TOTALS".
        Assert.Equal(12_091, dump.TotalIr);
        Assert.Equal(12_091, dump.FileTotalIr);
        // callgrind_annotate --threshold=100 callgrind-lightningd-dump.txt, summed over source files as above. Its first
        // five rows (main, __libc_start_main, …, 12,091 each) are the calls=0 lines of calls running at the dump, which
        // it counts as self cost; they are calls, so those functions have next to no self cost here.
        var expectedSelf = new (string Key, long Self)[]
        {
            ("__strftime_internal'2", 1_763),
            ("__vfprintf_internal", 1_338),
            ("logv", 954),
            ("_IO_default_xsputn", 926),
            ("_int_malloc", 705),
            ("__strftime_internal", 401),
            ("to_tal_hdr", 381),
            ("__strlen_avx2", 302),
            ("_int_free", 252),
            ("realloc", 219),
        };
        Assert.Equal(
            expectedSelf,
            dump.Functions.Values.OrderByDescending(f => f.SelfIr).Take(10).Select(f => (f.Key, f.SelfIr))
        );
        Assert.True(dump.Functions["main"].SelfIr < 100);
        // callgrind_annotate --inclusive=yes --threshold=100 callgrind-lightningd-dump.txt, the rows after the six at 12,091.
        var expectedInclusive = new (string Key, long Inclusive)[]
        {
            ("log_", 8_561),
            ("logv", 8_540),
            ("log_to_files", 5_898),
            ("__vfprintf_internal", 2_681),
            ("snprintf", 2_588),
            ("__vsnprintf_internal", 2_542),
            ("strftime", 2_296),
            ("strftime_l", 2_293),
            ("__strftime_internal", 2_277),
        };
        Assert.Equal(
            expectedInclusive,
            dump.Functions.Values.Where(f => f.InclusiveIr < dump.TotalIr)
                .OrderByDescending(f => f.InclusiveIr)
                .Take(9)
                .Select(f => (f.Key, f.InclusiveIr))
        );
        Assert.Equal(6, dump.Functions.Values.Count(f => f.InclusiveIr == dump.TotalIr));
        Assert.Contains("(below main) [lightningd]", dump.Functions.Keys);
        Assert.Contains("(below main) [libc.so.6]", dump.Functions.Keys);
    }

    [Fact]
    public void A_program_with_a_known_call_structure_has_its_exact_calls_and_costs()
    {
        // known-calls.c: main calls a() 3 times and b() once, a() calls c() once per call, b() calls c() twice.
        var dump = Load("callgrind-known-calls.txt");
        CallgrindCall Call(string caller, string callee) =>
            Assert.Single(dump.Calls, c => c.Caller == caller && c.Callee == callee);

        Assert.Equal("known-calls", dump.ProcessName);
        Assert.Equal(180_749, dump.TotalIr);
        Assert.Equal(3, Call("main", "a").Calls);
        Assert.Equal(1, Call("main", "b").Calls);
        Assert.Equal(3, Call("a", "c").Calls);
        Assert.Equal(2, Call("b", "c").Calls);
        Assert.Equal(2, dump.Calls.Count(c => c.Callee == "c"));
        Assert.Equal(
            new[] { "a", "b" },
            dump.Calls.Where(c => c.Caller == "main" && c.Callee is "a" or "b").Select(c => c.Callee).Order()
        );
        // c's 5 calls of 602 instructions each, counted once in c and once in its callers' calls.
        Assert.Equal(3_010, dump.Functions["c"].SelfIr);
        Assert.Equal(3_010, dump.Functions["c"].InclusiveIr);
        Assert.Equal(1_806, Call("a", "c").InclusiveIr);
        Assert.Equal(1_204, Call("b", "c").InclusiveIr);
        Assert.Equal(18_009, dump.Functions["a"].SelfIr);
        Assert.Equal(18_009 + 1_806, dump.Functions["a"].InclusiveIr);
        Assert.Equal(30_004, dump.Functions["b"].SelfIr);
        Assert.Equal(30_004 + 1_204, dump.Functions["b"].InclusiveIr);
        Assert.Equal(19_815, Call("main", "a").InclusiveIr);
        Assert.Equal(31_208, Call("main", "b").InclusiveIr);
        Assert.Equal(6 + 19_815 + 31_208, dump.Functions["main"].InclusiveIr);
    }

    [Fact]
    public void Compressed_names_relative_positions_several_events_and_short_cost_lines_are_read()
    {
        var dump = Parse(
            """
            # callgrind format
            version: 1
            cmd: /usr/bin/prog --flag
            positions: instr line
            events: Dr Ir Dw
            ob=(1) /usr/bin/prog
            fl=(1) prog.c
            fn=(1) outer
            0x10 5 7 100
            +2 +1 1 3
            * * 9
            -1 -1
            cfn=(2) inner
            calls=2 0x20 9
            * * 4 40 1
            fn=(2)
            0x20 9 0 40
            fl=(2) header.h
            fn=(3) inner
            fi=(1)
            0x30 1 0 6
            cob=(2) /lib/libc.so.6
            cfi=(3) other.c
            cfn=(3)
            calls=1 0x40 2
            0x31 2 0 50
            totals: 99 90 99
            """
        );

        Assert.Equal("prog", dump.ProcessName);
        Assert.Null(dump.Pid);
        // Ir is the second column: 100 + 3, then a line with Dr only and one with no costs at all.
        Assert.Equal(100 + 3, dump.Functions["outer"].SelfIr);
        Assert.Equal(103 + 40, dump.Functions["outer"].InclusiveIr);
        // "inner" names three functions: two in prog (told apart by file), one in libc.
        Assert.Equal(40, dump.Functions["inner [prog prog.c]"].SelfIr);
        Assert.Equal(6, dump.Functions["inner [prog header.h]"].SelfIr);
        Assert.Equal(56, dump.Functions["inner [prog header.h]"].InclusiveIr);
        Assert.Equal(0, dump.Functions["inner [libc.so.6]"].SelfIr);
        Assert.Equal(149, dump.TotalIr);
        Assert.Equal(90, dump.FileTotalIr);
        var call = Assert.Single(dump.Calls, c => c.Caller == "outer");
        Assert.Equal(("inner [prog prog.c]", 2L, 40L), (call.Callee, call.Calls, call.InclusiveIr));
    }

    [Fact]
    public void Recursion_never_makes_a_function_cost_more_than_the_dump()
    {
        var dump = Parse(
            """
            events: Ir
            fn=(1) f
            1 10
            cfn=(2) g
            calls=1 1
            1 15
            fn=(2)
            1 5
            cfn=(1)
            calls=1 1
            1 12
            """
        );

        Assert.Equal(15, dump.TotalIr);
        Assert.Equal(15, dump.Functions["f"].InclusiveIr);
        Assert.Equal(15, dump.Functions["g"].InclusiveIr);
    }

    [Theory]
    [InlineData("events: Ir\nfn=(1) f\n1 x\n", 3, "count")]
    [InlineData("events: Ir\nfn=(1)\n1 1\n", 2, "never defined")]
    [InlineData("events: Ir\n1 5\n", 2, "fn=")]
    [InlineData("events: Ir\nfn=f\ncfn=g\ncalls=1 1\nfn=h\n", 5, "cost line")]
    [InlineData("events: Ir\nfn=f\ncfn=g\ncalls=1 1\n", 4, "cost line")]
    [InlineData("events: Dr Dw\n", 1, "Ir")]
    [InlineData("fn=f\n1 5\n", 2, "events")]
    [InlineData("events: Ir\nfn=f\n1 5 6\n", 3, "2 costs")]
    [InlineData("events: Ir\nfn=f\nzz=3\n", 3, "zz=")]
    [InlineData("events: Ir\nfn=f\nthis is not callgrind\n", 3, "expected")]
    [InlineData("events: Ir\nfn=f\ncalls=1 1\n", 3, "cfn=")]
    [InlineData("version: 2\n", 1, "version")]
    [InlineData("", 0, "events")]
    public void Malformed_input_is_refused_naming_the_line(string text, int line, string problem)
    {
        var error = Assert.Throws<InvalidDataException>(() => Parse(text));

        Assert.StartsWith($"Line {line}:", error.Message, StringComparison.Ordinal);
        Assert.Contains(problem, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Reading_a_file_names_it_in_the_error()
    {
        var path = Path.Combine(Path.GetTempPath(), $"callgrind-{Guid.NewGuid():N}.out");
        File.WriteAllText(path, "events: Ir\nfn=f\n1 -\n");
        try
        {
            var error = Assert.Throws<InvalidDataException>(() => CallgrindDump.Read(path));
            Assert.Contains(path + ": Line 3:", error.Message, StringComparison.Ordinal);
        }
        finally
        {
            File.Delete(path);
        }
    }
}
