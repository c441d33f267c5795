using System.Diagnostics;
using System.Reflection;
using System.Text.RegularExpressions;
using Lightning.Bench.Reports;

namespace Lightning.Bench.Tests.Reports;

/// <summary>The run's page (report.html): the markdown reports as HTML, and the page as a real browser renders it.</summary>
public class ReportPageTests : IDisposable
{
    private readonly string run = Directory.CreateTempSubdirectory("lnbench-page-").FullName;

    private const string Comparison = """
        ## Comparisons: fresh topologies as the unit, 95 % intervals, threshold ±2 %

        | case | metric | baseline | candidate | ratio | verdict | detects ≥ |
        |---|---|---|---|---:|---|---:|
        | Concurrency=1 | mean time | base | mine | 1.061 | slower | 4.9 % |
        | Concurrency=1 | payments/s | base | mine | 0.990 | unknown: needs more topologies | 5.2 % |
        | Concurrency=1 | CPU/payment | base | mine | 1.001 | same | 1.9 % |
        | Concurrency=1 | CPU/payment | base | same | 1.001 | faster | 1.9 % |

        `same`: the whole interval lies within ±2 %; a <b>tag</b> & an ampersand stay text. See [the CSV](comparisons.csv).
        - one item with `code`
          continued on the next line
        - **two**

        ![flame](profiles/flame.svg)
        """;

    [Fact]
    [Trait("Category", "Unit")]
    public void Markdown_becomes_html_with_verdict_classes_escaped_text_and_inlined_images()
    {
        var html = MarkdownHtml.Convert(
            Comparison,
            (path, alt) =>
                path == "profiles/flame.svg" ? $"<img alt=\"{alt}\" src=\"data:image/svg+xml;base64,AAAA\">" : null
        );

        Assert.Contains("<h2 id=\"comparisons-fresh-topologies-as-the-unit-95--intervals-threshold-2-\">", html);
        Assert.Contains("<td class=\"verdict-slower\">slower</td>", html);
        Assert.Contains("<td class=\"verdict-unknown\">unknown: needs more topologies</td>", html);
        Assert.Contains("<td class=\"verdict-same\">same</td>", html);
        Assert.Contains("<td class=\"num\">1.061</td>", html);
        Assert.Equal(4, Regex.Matches(html, "<tr><td>Concurrency=1</td>").Count);
        // A build named "same" is not a verdict: only the verdict column is coloured.
        Assert.Contains("<td>same</td><td class=\"num\">1.001</td><td class=\"verdict-faster\">faster</td>", html);
        Assert.Contains("a &lt;b&gt;tag&lt;/b&gt; &amp; an ampersand", html);
        Assert.Contains("<code>same</code>", html);
        Assert.Contains("<a href=\"comparisons.csv\">the CSV</a>", html);
        Assert.Contains("<li>one item with <code>code</code> continued on the next line</li>", html);
        Assert.Contains("<li><strong>two</strong></li>", html);
        Assert.Contains("<img alt=\"flame\" src=\"data:image/svg+xml;base64,AAAA\">", html);
        // An image the resolver does not inline stays a link to the file.
        Assert.Contains(
            "<a href=\"profiles/flame.svg\">flame</a>",
            MarkdownHtml.Convert("![flame](profiles/flame.svg)")
        );
    }

    /// <summary>
    /// Headless Chromium renders a run's page from a file: no console message, no request for anything but the page
    /// (the net log's page-initiated requests), the verdict table and the inlined plot and flame graph in the DOM. The
    /// same checks catch a page that logs an error and fetches from the network, so they can fail.
    /// </summary>
    [SkippableFact]
    [Trait("Category", "Browser")]
    public async Task Chromium_renders_the_page_offline_with_its_verdicts_plot_and_flame_graph()
    {
        var chromium = Requirements.Chromium();
        WriteRun();
        var page = ReportHtml.Write(run);

        var (dom, console, requests) = await RenderAsync(chromium, page);

        Assert.Empty(console);
        Assert.Empty(requests);
        Assert.Contains("<td class=\"verdict-slower\">slower</td>", dom);
        Assert.Matches("<img alt=\"[^\"]*\\.png\" src=\"data:image/png;base64,", dom);
        // The flame graph is in the page itself (so its script can work on it), untouched until asked.
        Assert.Contains("<div class=\"flame\">", dom);
        Assert.Contains("<title>json_invoice (60 samples)</title>", dom);
        Assert.DoesNotContain("class=\"match\"", dom);
        Assert.DoesNotContain("class=\"hidden\"", dom);

        // Search marks the matching frame; a click's zoom (asked through the address) widens json_invoice to the whole
        // graph, keeps its caller at full width and hides the frame beside it.
        var (zoomed, zoomConsole, _) = await RenderAsync(chromium, page, "#search=json_inv&zoom=json_invoice");
        Assert.Empty(zoomConsole);
        Assert.Contains(
            "<g class=\"match\"><title>json_invoice (60 samples)</title><rect x=\"10.0\" y=\"20\" width=\"100.0\"",
            zoomed
        );
        Assert.Contains("<g class=\"hidden\"><title>json_pay (40 samples)</title>", zoomed);
        Assert.Matches(
            "<g( class=\"\")?><title>main \\(100 samples\\)</title><rect x=\"10.0\" y=\"40\" width=\"100.0\"",
            zoomed
        );
        Assert.Contains("1 frames match", zoomed);
        Assert.Contains("<dt>command line</dt><dd>./run.sh AlicePaysBob --build base=a:1 --build mine=b:2</dd>", dom);
        // What a build runs without, as the run said before it started.
        Assert.Contains(
            "<li><code>b:2</code>: LND (lnd version 0.21.1-beta) has no trace socket: its payments have no steps and no spans</li>",
            dom
        );
        Assert.Contains("<a href=\"comparisons.csv\">comparisons.csv</a>", dom);

        var bad = Path.Combine(run, "bad.html");
        File.WriteAllText(
            bad,
            "<html><body><script>console.error('boom'); fetch('http://example.invalid/x').catch(() => {});</script></body></html>"
        );
        var (_, badConsole, badRequests) = await RenderAsync(chromium, bad);
        Assert.Contains(badConsole, line => line.Contains("boom", StringComparison.Ordinal));
        Assert.Contains(badRequests, url => url.StartsWith("http://example.invalid/", StringComparison.Ordinal));
    }

    private void WriteRun()
    {
        File.WriteAllText(
            Path.Combine(run, "manifest.json"),
            """
            { "run_id": "20261124-000000-abcd", "scenario": "AlicePaysBob", "command_line": "./run.sh AlicePaysBob --build base=a:1 --build mine=b:2",
              "seed": 7, "builds": [ { "name": "base", "image": "a:1" }, { "name": "mine", "image": "b:2" } ],
              "images": [ { "name": "a:1", "id": "sha256:0123456789abcdef0123", "versions": { "lightningd": "v26.06.6" } },
                          { "name": "b:2", "id": "sha256:abcdef", "versions": { "lnd": "lnd version 0.21.1-beta" }, "kind": "lnd",
                            "notes": [ "LND (lnd version 0.21.1-beta) has no trace socket: its payments have no steps and no spans" ] } ],
              "machine": { "os": "Debian", "cpu_count": 2 } }
            """
        );
        File.WriteAllText(Path.Combine(run, ComparisonReport.MarkdownFile), Comparison);
        File.WriteAllText(Path.Combine(run, "comparisons.csv"), "kind,case\n");
        Directory.CreateDirectory(Path.Combine(run, "profiles"));
        File.WriteAllText(
            Path.Combine(run, "profiles", "flame.svg"),
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"120\" height=\"60\">"
                + "<g><title>main (100 samples)</title><rect x=\"10\" y=\"40\" width=\"100\" height=\"15\" fill=\"#e55\"/><text x=\"13\" y=\"50\">main</text></g>"
                + "<g><title>json_invoice (60 samples)</title><rect x=\"10\" y=\"20\" width=\"60\" height=\"15\" fill=\"#e95\"/><text x=\"13\" y=\"30\">json_invoice</text></g>"
                + "<g><title>json_pay (40 samples)</title><rect x=\"70\" y=\"20\" width=\"40\" height=\"15\" fill=\"#ea5\"/><text x=\"73\" y=\"30\">json_pay</text></g></svg>"
        );
        File.WriteAllText(Path.Combine(run, "profiles", "profiles.md"), "## Flame graphs\n\n![flame](flame.svg)\n");
        File.Copy(
            Path.Combine(RepositoryRoot(), "images", "instructions-diff-work3.png"),
            Path.Combine(run, "payments-timeline.png")
        );
    }

    /// <summary>The rendered DOM, the console's messages and the page's own requests (net log, Blink's loader only: the browser's background requests are not the page's).</summary>
    internal static async Task<(string Dom, List<string> Console, List<string> Requests)> RenderAsync(
        string chromium,
        string page,
        string fragment = ""
    )
    {
        var netLog = Path.Combine(Path.GetDirectoryName(page)!, $"netlog-{Guid.NewGuid():N}.json");
        var profile = Directory.CreateTempSubdirectory("lnbench-chromium-").FullName;
        try
        {
            var start = new ProcessStartInfo(chromium) { RedirectStandardOutput = true, RedirectStandardError = true };
            foreach (
                var argument in new[]
                {
                    "--headless",
                    "--no-sandbox",
                    "--disable-gpu",
                    "--no-first-run",
                    "--disable-background-networking",
                    "--disable-component-update",
                    "--disable-sync",
                    "--disable-default-apps",
                    $"--user-data-dir={profile}",
                    $"--log-net-log={netLog}",
                    "--enable-logging=stderr",
                    "--v=0",
                    "--virtual-time-budget=3000",
                    "--dump-dom",
                    new Uri(page).AbsoluteUri + fragment,
                }
            )
            {
                start.ArgumentList.Add(argument);
            }
            using var process = Process.Start(start)!;
            var stdout = process.StandardOutput.ReadToEndAsync();
            var stderr = process.StandardError.ReadToEndAsync();
            await process.WaitForExitAsync().WaitAsync(TimeSpan.FromMinutes(2));
            var console = (await stderr)
                .Split('\n')
                .Where(l => l.Contains(":CONSOLE", StringComparison.Ordinal))
                .ToList();
            // Blink's resource loader (traffic annotation 101845102) is what a page's own requests go through.
            var requests = Regex
                .Matches(
                    File.Exists(netLog) ? await File.ReadAllTextAsync(netLog) : "",
                    "\"traffic_annotation\":101845102,\"url\":\"([^\"]+)\""
                )
                .Select(m => m.Groups[1].Value)
                .Where(u =>
                    !u.StartsWith("file:", StringComparison.Ordinal) && !u.StartsWith("data:", StringComparison.Ordinal)
                )
                .Distinct()
                .ToList();
            return (await stdout, console, requests);
        }
        finally
        {
            File.Delete(netLog);
            Directory.Delete(profile, recursive: true);
        }
    }

    private static string RepositoryRoot() =>
        typeof(ReportPageTests)
            .Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
            .Single(a => a.Key == "RepositoryRoot")
            .Value!;

    public void Dispose() => Directory.Delete(run, recursive: true);
}
