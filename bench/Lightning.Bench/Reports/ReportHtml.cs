using System.Net;
using System.Text;
using System.Text.Json;
using Lightning.Bench.Processes;

namespace Lightning.Bench.Reports;

/// <summary>
/// report.html: the run as one self-contained page, top to bottom: what ran (from manifest.json), the verdicts and
/// everything else comparison.md says, BenchmarkDotNet's table, the plots, where the time goes (span-summary.md), the
/// instruction and profile reports with their flame graphs, a soak's report, and a link to every file of the run.
/// Images are inlined (data: URIs), so the page needs no network and no other file; the links to raw files are
/// relative, so they work inside the unpacked zip. Written after every other end output but the zip, from their files.
/// </summary>
internal sealed class ReportHtml : IRunEndOutput
{
    public const string FileName = "report.html";

    /// <summary>The markdown reports the page shows, in its order, if the run wrote them.</summary>
    private static readonly (string Path, string Title)[] Sections =
    [
        (ComparisonReport.MarkdownFile, "Verdicts, precision and costs"),
        ("soak-report.md", "Soak"),
        ("span-summary.md", "Where the time goes"),
        ("instructions/instructions.md", "Instructions per payment"),
        ("profiles/profiles.md", "Profiles"),
    ];

    public IReadOnlyList<string> Files => [FileName];

    public Task WriteAsync(RunOutputContext context, CancellationToken ct = default)
    {
        Write(context.ResultsDirectory);
        return Task.CompletedTask;
    }

    /// <summary>Writes the page of the run folder <paramref name="directory"/>; returns its path.</summary>
    public static string Write(string directory)
    {
        var path = Path.Combine(directory, FileName);
        AtomicFile.WriteAllText(path, Render(directory));
        return path;
    }

    /// <summary>Flame graphs are inlined up to this many bytes of SVG per page; later ones stay links (a page stays a page).</summary>
    public const int MaxInlinedSvgBytes = 8 << 20;

    /// <param name="files">The files to list and link, relative to the folder (the zip's, which leaves out the span views); default: the folder's.</param>
    public static string Render(string directory, IReadOnlyList<string>? files = null)
    {
        var inlinedSvg = 0;
        var body = new StringBuilder();
        var title = "Lightning.Bench run";
        var manifestPath = Path.Combine(directory, "manifest.json");
        if (File.Exists(manifestPath))
        {
            using var manifest = JsonDocument.Parse(File.ReadAllText(manifestPath));
            title =
                $"Lightning.Bench: {Text(manifest.RootElement, "scenario")} ({Text(manifest.RootElement, "run_id")})";
            body.Append(WhatRan(manifest.RootElement));
        }
        foreach (var (relative, heading) in Sections)
        {
            var file = Path.Combine(directory, relative);
            if (File.Exists(file))
            {
                body.Append($"<section><h2 class=\"part\">{E(heading)}</h2>\n");
                var markdown = File.ReadAllText(file);
                // With builds compared, the differential flame graphs answer the page's question (where did it change):
                // they are inlined, each build's own graphs stay links.
                var diffsOnly = markdown.Contains("diff-", StringComparison.Ordinal);
                body.Append(
                    MarkdownHtml.Convert(
                        markdown,
                        (image, alt) =>
                            diffsOnly
                            && image.EndsWith(".svg", StringComparison.OrdinalIgnoreCase)
                            && !image.Contains("diff-", StringComparison.Ordinal)
                                ? null
                                : Inline(Path.GetDirectoryName(file)!, image, alt, ref inlinedSvg)
                    )
                );
                body.Append("</section>\n");
            }
        }
        var benchmark = Directory.Exists(Path.Combine(directory, "results"))
            ? Directory.GetFiles(Path.Combine(directory, "results"), "*-report-github.md").FirstOrDefault()
            : null;
        if (benchmark is not null)
        {
            body.Append("<section><h2 class=\"part\">BenchmarkDotNet</h2>\n")
                .Append(MarkdownHtml.Convert(File.ReadAllText(benchmark)))
                .Append("</section>\n");
        }
        var plots = Directory.GetFiles(directory, "*.png").Order(StringComparer.Ordinal).ToList();
        if (plots.Count > 0)
        {
            body.Append("<section><h2 class=\"part\">Plots</h2>\n");
            foreach (var plot in plots)
            {
                body.Append(
                    $"<figure><img alt=\"{E(Path.GetFileName(plot))}\" src=\"{DataUri(plot)}\"><figcaption>{E(Path.GetFileName(plot))}</figcaption></figure>\n"
                );
            }
            body.Append("</section>\n");
        }
        body.Append(FileList(directory, files));
        return Page(title, body.ToString());
    }

    /// <summary>A self-contained page around <paramref name="body"/> (HTML): the run page's styles and flame graph script.</summary>
    public static string Page(string title, string body)
    {
        return $"""
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>{E(title)}</title>
            <style>
            body {"{"} font: 14px/1.45 system-ui, sans-serif; margin: 2em auto; max-width: 1200px; padding: 0 1em; color: #222; {"}"}
            h1 {"{"} font-size: 1.6em; {"}"} h2.part {"{"} border-bottom: 2px solid #444; padding-bottom: .2em; margin-top: 2em; {"}"}
            table {"{"} border-collapse: collapse; margin: .6em 0; font-size: 13px; {"}"}
            th, td {"{"} border: 1px solid #ccc; padding: 3px 7px; vertical-align: top; {"}"} th {"{"} background: #f2f2f2; {"}"}
            td.num {"{"} text-align: right; font-variant-numeric: tabular-nums; {"}"}
            td.verdict-slower {"{"} background: #f8c9c4; {"}"} td.verdict-faster {"{"} background: #c8ecc9; {"}"}
            td.verdict-same {"{"} background: #dde8f6; {"}"} td.verdict-unknown {"{"} background: #f4ecc8; {"}"}
            img {"{"} max-width: 100%; {"}"} figure {"{"} margin: 1em 0; {"}"} figcaption {"{"} color: #666; font-size: 12px; {"}"}
            code, pre {"{"} font-family: ui-monospace, monospace; font-size: 12px; {"}"} pre {"{"} background: #f6f6f6; padding: .6em; overflow-x: auto; {"}"}
            dl {"{"} display: grid; grid-template-columns: max-content auto; gap: 2px 1em; {"}"} dt {"{"} font-weight: 600; {"}"} dd {"{"} margin: 0; {"}"}
            .flame {"{"} margin: 1em 0; {"}"} .flame svg {"{"} max-width: 100%; height: auto; {"}"} .flame g {"{"} cursor: pointer; {"}"}
            .flame g.match rect {"{"} fill: #e040e0 !important; {"}"} .flame g.hidden {"{"} display: none; {"}"}
            .flame-tools input {"{"} width: 22em; {"}"}
            .series {"{"} margin: 1.2em 0 2em; {"}"} .series h4 {"{"} margin: .2em 0; {"}"} .series svg text {"{"} font-size: 11px; {"}"}
            </style>
            </head>
            <body>
            <h1>{E(title)}</h1>
            {body}
            <script>
            {FlameScript}
            </script>
            </body>
            </html>
            """;
    }

    /// <summary>
    /// Zoom and search for every inlined flame graph: a click on a frame widens it to the whole graph (its ancestors stay,
    /// frames beside it go), "reset zoom" undoes it; the search box marks the frames whose tooltip matches (a regular
    /// expression) and says how many. The page's address can ask for both: #search=REGEX, #zoom=FUNCTION (the first
    /// frame of that name), for links to a finding.
    /// </summary>
    private const string FlameScript = """
        (function () {
          function frames(svg) { return Array.from(svg.querySelectorAll('g')).filter(g => g.querySelector('rect')); }
          function box(g) { const r = g.querySelector('rect'); return { g: g, r: r, t: g.querySelector('text'), x: +r.getAttribute('x'), w: +r.getAttribute('width'), y: +r.getAttribute('y'), name: g.querySelector('title') ? g.querySelector('title').textContent : '' }; }
          function setup(flame) {
            const svg = flame.querySelector('svg');
            const all = frames(svg).map(box);
            if (all.length === 0) return null;
            const left = Math.min.apply(null, all.map(f => f.x));
            const width = Math.max.apply(null, all.map(f => f.x + f.w)) - left;
            all.forEach(f => { f.tx = f.t ? +f.t.getAttribute('x') : 0; f.label = f.t ? f.t.textContent : ''; });
            function zoom(target) {
              const scale = width / target.w;
              all.forEach(f => {
                const inside = f.x + f.w > target.x + 1e-6 && f.x < target.x + target.w - 1e-6;
                const below = f.y > target.y;
                const show = inside || below && f.x <= target.x + 1e-6 && f.x + f.w >= target.x + target.w - 1e-6;
                f.g.classList.toggle('hidden', !show);
                const x = below ? left : left + (f.x - target.x) * scale;
                const w = below ? width : f.w * scale;
                f.r.setAttribute('x', x.toFixed(1)); f.r.setAttribute('width', w.toFixed(1));
                if (f.t) { f.t.setAttribute('x', (x + 3).toFixed(1)); f.t.textContent = w > 30 ? f.label || f.name.split(' ')[0] : ''; }
              });
              flame.dataset.zoomed = target.name;
            }
            function reset() {
              all.forEach(f => { f.g.classList.remove('hidden'); f.r.setAttribute('x', f.x); f.r.setAttribute('width', f.w); if (f.t) { f.t.setAttribute('x', f.tx); f.t.textContent = f.label; } });
              delete flame.dataset.zoomed;
            }
            function search(pattern) {
              let re = null, count = 0;
              try { re = pattern ? new RegExp(pattern) : null; } catch (e) { re = null; }
              all.forEach(f => { const hit = re !== null && re.test(f.name); f.g.classList.toggle('match', hit); if (hit) count++; });
              flame.querySelector('.matched').textContent = re ? count + ' frames match' : '';
              flame.querySelector('input').value = pattern;
            }
            all.forEach(f => f.g.addEventListener('click', () => zoom(f)));
            flame.querySelector('.reset').addEventListener('click', reset);
            flame.querySelector('input').addEventListener('input', e => search(e.target.value));
            return { all: all, zoom: zoom, search: search };
          }
          const graphs = Array.from(document.querySelectorAll('.flame')).map(setup).filter(g => g);
          const hash = new URLSearchParams(location.hash.slice(1));
          if (hash.get('search')) graphs.forEach(g => g.search(hash.get('search')));
          if (hash.get('zoom')) graphs.forEach(g => { const f = g.all.find(f => f.name.split(' ')[0] === hash.get('zoom')); if (f) g.zoom(f); });
        })();
        """;

    private static string WhatRan(JsonElement manifest)
    {
        var html = new StringBuilder("<section><h2 class=\"part\">What ran</h2>\n<dl>\n");
        void Row(string name, string? value)
        {
            if (!string.IsNullOrEmpty(value))
            {
                html.Append($"<dt>{E(name)}</dt><dd>{E(value)}</dd>\n");
            }
        }
        Row("scenario", Text(manifest, "scenario"));
        Row("command line", Text(manifest, "command_line"));
        Row("seed", manifest.TryGetProperty("seed", out var seed) ? seed.ToString() : null);
        Row("started", Text(manifest, "started"));
        Row("ended", Text(manifest, "ended"));
        if (manifest.TryGetProperty("partial", out var partial) && partial.ValueKind == JsonValueKind.True)
        {
            Row(
                "partial",
                manifest.TryGetProperty("interrupted", out var signal) && signal.ValueKind == JsonValueKind.String
                    ? $"yes: {signal.GetString()} stopped the run; these are the results it had"
                    : "yes: the run stopped early; these are the results it had"
            );
        }
        Row("harness", $"{Text(manifest, "harness_version")} {Text(manifest, "harness_commit")}".Trim());
        if (manifest.TryGetProperty("machine", out var machine) && machine.ValueKind == JsonValueKind.Object)
        {
            Row(
                "machine",
                string.Join(
                    ", ",
                    machine
                        .EnumerateObject()
                        .Where(p => p.Value.ValueKind is JsonValueKind.String or JsonValueKind.Number)
                        .Select(p => $"{p.Name.Replace('_', ' ')}: {p.Value}")
                )
            );
        }
        if (manifest.TryGetProperty("graph", out var graph) && graph.ValueKind == JsonValueKind.Object)
        {
            Row(
                "graph",
                $"{Path.GetFileName(Text(graph, "path"))}: {Text(graph, "nodes")} nodes, {Text(graph, "channels")} channels, node {Text(graph, "mapped_index")} mapped"
            );
            Row("graph store", Text(graph, "store") ?? "harness (written before the form was recorded)");
        }
        if (manifest.TryGetProperty("machine_load", out var load) && load.ValueKind == JsonValueKind.Object)
        {
            Row("while it measured", Text(load, "description"));
            Row("busy machine", Text(load, "busy_note"));
        }
        html.Append("</dl>\n");
        if (manifest.TryGetProperty("builds", out var builds) && builds.ValueKind == JsonValueKind.Array)
        {
            var images =
                manifest.TryGetProperty("images", out var list) && list.ValueKind == JsonValueKind.Array
                    ? list.EnumerateArray()
                        .GroupBy(i => Text(i, "name") ?? "", StringComparer.Ordinal)
                        .ToDictionary(g => g.Key, g => g.First(), StringComparer.Ordinal)
                    : [];
            // Builds made from source refs name their commit: a column of its own when there is one.
            var fromSource = images.Values.Any(i =>
                i.TryGetProperty("source", out var s) && s.ValueKind == JsonValueKind.Object
            );
            html.Append(
                $"<table>\n<thead><tr><th>build</th><th>image</th><th>image id</th>{(fromSource ? "<th>commit</th>" : "")}<th>versions</th></tr></thead>\n<tbody>\n"
            );
            foreach (var build in builds.EnumerateArray())
            {
                var image = Text(build, "image") ?? "";
                images.TryGetValue(image, out var record);
                var versions =
                    record.ValueKind == JsonValueKind.Object
                    && record.TryGetProperty("versions", out var v)
                    && v.ValueKind == JsonValueKind.Object
                        ? string.Join("; ", v.EnumerateObject().Select(p => $"{p.Name} {p.Value}"))
                        : "";
                var id = record.ValueKind == JsonValueKind.Object ? Text(record, "id") ?? "" : "";
                var commit =
                    !fromSource ? ""
                    : record.ValueKind == JsonValueKind.Object
                    && record.TryGetProperty("source", out var source)
                    && source.ValueKind == JsonValueKind.Object
                        ? $"<td class=\"commit\"><code>{E(Text(source, "commit") is { Length: >= 12 } hash ? hash[..12] : Text(source, "commit"))}</code> {E(Text(source, "subject"))} (git:{E(Text(source, "ref"))}, {E(Text(source, "author_date")?[..Math.Min(10, Text(source, "author_date")!.Length)])})</td>"
                    : "<td></td>";
                html.Append(
                    $"<tr><td>{E(Text(build, "name"))}</td><td><code>{E(image)}</code></td><td><code>{E(id.Length > 19 ? id[..19] : id)}</code></td>{commit}<td>{E(versions)}</td></tr>\n"
                );
            }
            html.Append("</tbody>\n</table>\n");
            // What a build's nodes run without (a kind or release with no spans, another payment call), as the run said.
            var notes = images
                .Values.Where(i => i.TryGetProperty("notes", out var n) && n.ValueKind == JsonValueKind.Array)
                .SelectMany(i =>
                    i.GetProperty("notes")
                        .EnumerateArray()
                        .Select(n => (Image: Text(i, "name") ?? "", Note: n.GetString() ?? ""))
                )
                .ToList();
            if (notes.Count > 0)
            {
                html.Append("<ul class=\"image-notes\">\n");
                foreach (var (image, note) in notes)
                {
                    html.Append($"<li><code>{E(image)}</code>: {E(note)}</li>\n");
                }
                html.Append("</ul>\n");
            }
        }
        return html.Append("</section>\n").ToString();
    }

    private static string FileList(string directory, IReadOnlyList<string>? listed)
    {
        var files = (
            listed
            ?? Directory
                .GetFiles(directory, "*", SearchOption.AllDirectories)
                .Select(f => Path.GetRelativePath(directory, f).Replace('\\', '/'))
                .ToList()
        )
            .Where(f => f != FileName)
            .Order(StringComparer.Ordinal)
            .ToList();
        var html = new StringBuilder("<section><h2 class=\"part\">Every file of the run</h2>\n");
        if (files.Contains(Tracing.Store.SpanStore.FileName))
        {
            html.Append(
                $"<p>{E(Tracing.Store.SpanStore.FileName)} keeps every span once: <code>./run.sh --spans RUN.zip</code> writes back each case's spans.jsonl "
                    + "(every datagram as received) and the views made from them, Zipkin's zipkin.json and spans.csv.</p>\n"
            );
        }
        html.Append("<ul class=\"files\">\n");
        foreach (var file in files)
        {
            html.Append(
                $"<li><a href=\"{E(Uri.EscapeDataString(file).Replace("%2F", "/", StringComparison.Ordinal))}\">{E(file)}</a></li>\n"
            );
        }
        return html.Append("</ul>\n</section>\n").ToString();
    }

    /// <summary>
    /// A markdown image's file, inlined: a PNG as a data: URI, an SVG (a flame graph) as markup in the page with its
    /// search box, so the page's script can zoom and search it; null (a link) for anything else.
    /// </summary>
    private static string? Inline(string folder, string image, string alt, ref int inlinedSvg)
    {
        if (image.Contains("://", StringComparison.Ordinal))
        {
            return null;
        }
        var file = Path.GetFullPath(Path.Combine(folder, image));
        if (!File.Exists(file))
        {
            return null;
        }
        if (file.EndsWith(".png", StringComparison.OrdinalIgnoreCase))
        {
            return $"<img alt=\"{E(alt)}\" src=\"{DataUri(file)}\">";
        }
        if (!file.EndsWith(".svg", StringComparison.OrdinalIgnoreCase))
        {
            return null;
        }
        var svg = File.ReadAllText(file);
        var start = svg.IndexOf("<svg", StringComparison.Ordinal);
        if (start < 0 || inlinedSvg + svg.Length > MaxInlinedSvgBytes)
        {
            return null;
        }
        inlinedSvg += svg.Length;
        return $"<div class=\"flame\"><div class=\"flame-tools\"><input type=\"search\" placeholder=\"search functions (regex)\" aria-label=\"search {E(alt)}\"> "
            + $"<button type=\"button\" class=\"reset\">reset zoom</button> <span class=\"matched\"></span></div>{svg[start..]}</div>";
    }

    private static string DataUri(string file) =>
        $"data:{(file.EndsWith(".svg", StringComparison.OrdinalIgnoreCase) ? "image/svg+xml" : "image/png")};base64,{System.Convert.ToBase64String(File.ReadAllBytes(file))}";

    private static string? Text(JsonElement element, string name) =>
        element.TryGetProperty(name, out var value)
            ? value.ValueKind == JsonValueKind.String
                ? value.GetString()
                : value.ToString()
            : null;

    private static string E(string? text) => WebUtility.HtmlEncode(text ?? "");
}
