using System.Reflection;
using System.Text;
using System.Text.RegularExpressions;

namespace Lightning.Bench.Tests;

/// <summary>
/// README.md and docs/ against the checkout the tests were built from: links and anchors resolve, the source paths they
/// name exist, the README stays short, How it works has a row for every folder of the harness, and the README's test command is the one CI runs.
/// </summary>
[Trait("Category", "Unit")]
public partial class DocumentationTests
{
    internal static readonly string Root = typeof(DocumentationTests)
        .Assembly.GetCustomAttributes<AssemblyMetadataAttribute>()
        .Single(a => a.Key == "RepositoryRoot")
        .Value!;

    private static readonly string HarnessFolder = Path.Combine(Root, "bench", "Lightning.Bench");

    public static TheoryData<string> Documents()
    {
        var documents = new TheoryData<string> { "README.md" };
        foreach (var file in Directory.GetFiles(Path.Combine(Root, "docs"), "*.md").Order(StringComparer.Ordinal))
        {
            documents.Add(Path.GetRelativePath(Root, file));
        }
        return documents;
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void Every_relative_link_leads_to_a_file_of_the_repository_and_every_anchor_to_a_heading(string document)
    {
        var path = Path.Combine(Root, document);
        var broken = new List<string>();
        foreach (Match link in MarkdownLink().Matches(WithoutCodeBlocks(File.ReadAllText(path))))
        {
            var target = link.Groups["target"].Value;
            if (ExternalLink().IsMatch(target))
            {
                continue;
            }
            var hash = target.IndexOf('#', StringComparison.Ordinal);
            var file = hash < 0 ? target : target[..hash];
            var anchor = hash < 0 ? null : target[(hash + 1)..];
            var resolved = file.Length == 0 ? path : Path.GetFullPath(Path.Combine(Path.GetDirectoryName(path)!, file));
            if (
                !(resolved + Path.DirectorySeparatorChar).StartsWith(
                    Root + Path.DirectorySeparatorChar,
                    StringComparison.Ordinal
                ) || !(File.Exists(resolved) || Directory.Exists(resolved))
            )
            {
                broken.Add($"{target}: no such file in the repository");
            }
            else if (
                anchor is not null
                && resolved.EndsWith(".md", StringComparison.Ordinal)
                && !Anchors(resolved).Contains(anchor)
            )
            {
                broken.Add($"{target}: {Path.GetRelativePath(Root, resolved)} has no heading with that anchor");
            }
        }
        Assert.True(broken.Count == 0, $"{document}:\n" + string.Join('\n', broken));
    }

    [Theory]
    [MemberData(nameof(Documents))]
    public void Every_source_path_named_in_code_exists(string document)
    {
        var missing = CodeSpan()
            .Matches(WithoutCodeBlocks(File.ReadAllText(Path.Combine(Root, document))))
            .Select(m => m.Groups["code"].Value)
            .Where(code => SourcePath().IsMatch(code) && !code.Contains('<', StringComparison.Ordinal))
            .Where(code =>
                !new[] { Root, HarnessFolder }.Any(under =>
                    File.Exists(Path.Combine(under, code)) || Directory.Exists(Path.Combine(under, code))
                )
            )
            .Distinct()
            .ToList();
        Assert.True(
            missing.Count == 0,
            $"{document} names paths that are not in the repository (nor under bench/Lightning.Bench/): "
                + string.Join(", ", missing)
        );
    }

    [Fact]
    public void How_it_works_has_a_row_for_every_folder_of_the_harness()
    {
        var rows = File.ReadAllLines(Path.Combine(Root, "docs", "how-it-works.md"))
            .Where(l => l.StartsWith('|'))
            .ToList();
        var folders = Directory
            .GetDirectories(HarnessFolder)
            .Select(Path.GetFileName)
            .Where(name => name is not ("bin" or "obj"))
            .Where(name =>
                Directory.EnumerateFiles(Path.Combine(HarnessFolder, name!), "*.cs", SearchOption.AllDirectories).Any()
            )
            .ToList();
        Assert.NotEmpty(folders);
        var absent = folders
            .Where(name => !rows.Any(row => row.Contains($"`{name}/`", StringComparison.Ordinal)))
            .ToList();
        Assert.True(
            absent.Count == 0,
            "docs/how-it-works.md has no row naming these folders of bench/Lightning.Bench/: "
                + string.Join(", ", absent)
        );
    }

    /// <summary>The README is the front page: what the tool does, one run, the comparison table, the release chart, the commands; the rest is in docs/.</summary>
    [Fact]
    public void The_README_is_at_most_150_lines()
    {
        var lines = File.ReadAllText(Path.Combine(Root, "README.md"))
            .ReplaceLineEndings("\n")
            .TrimEnd('\n')
            .Split('\n')
            .Length;
        Assert.True(
            lines <= 150,
            $"README.md has {lines} lines: move what a first reader does not need to docs/ and link it"
        );
    }

    [Fact]
    public void The_README_test_command_is_the_one_CI_runs()
    {
        const string command = "dotnet test Lightning.Bench.sln -c Release";
        Assert.Contains(
            $"```sh\n{command}\n```",
            File.ReadAllText(Path.Combine(Root, "README.md")).ReplaceLineEndings("\n")
        );
        Assert.Contains(
            File.ReadAllLines(Path.Combine(Root, ".ci", "run")),
            line => line.StartsWith(command, StringComparison.Ordinal)
        );
    }

    [Theory]
    [InlineData("A run on this project's machine", "a-run-on-this-projects-machine")]
    [InlineData("Setup time, and what topologies share", "setup-time-and-what-topologies-share")]
    [InlineData("More iterations or more topologies?", "more-iterations-or-more-topologies")]
    [InlineData("Compose file, Engine API", "compose-file-engine-api")]
    [InlineData("Requirements, golden files and CI", "requirements-golden-files-and-ci")]
    public void Anchors_are_made_as_GitHub_makes_them(string heading, string anchor) =>
        Assert.Equal(anchor, Slug(heading));

    /// <summary>GitHub's heading anchors: lower case, punctuation dropped, spaces as hyphens, repeats numbered.</summary>
    private static HashSet<string> Anchors(string markdownFile)
    {
        var anchors = new HashSet<string>(StringComparer.Ordinal);
        foreach (Match heading in Heading().Matches(WithoutCodeBlocks(File.ReadAllText(markdownFile))))
        {
            var slug = Slug(heading.Groups["text"].Value);
            var unique = slug;
            for (var n = 1; !anchors.Add(unique); n++)
            {
                unique = $"{slug}-{n}";
            }
        }
        return anchors;
    }

    private static string Slug(string heading)
    {
        var slug = new StringBuilder();
        foreach (var c in heading.Trim().ToLowerInvariant())
        {
            if (char.IsLetterOrDigit(c) || c is '-' or '_')
            {
                slug.Append(c);
            }
            else if (c == ' ')
            {
                slug.Append('-');
            }
        }
        return slug.ToString();
    }

    private static string WithoutCodeBlocks(string markdown) =>
        FencedBlock().Replace(markdown.ReplaceLineEndings("\n"), "");

    [GeneratedRegex(@"^```.*?^```", RegexOptions.Multiline | RegexOptions.Singleline)]
    private static partial Regex FencedBlock();

    [GeneratedRegex(@"\]\((?<target>[^)\s]+)\)")]
    private static partial Regex MarkdownLink();

    [GeneratedRegex(@"^[a-z][a-z0-9+.-]*:", RegexOptions.IgnoreCase)]
    private static partial Regex ExternalLink();

    [GeneratedRegex(@"^#{1,6}\s+(?<text>.+?)\s*#*$", RegexOptions.Multiline)]
    private static partial Regex Heading();

    [GeneratedRegex(@"`(?<code>[^`\s]+)`")]
    private static partial Regex CodeSpan();

    /// <summary>What reads as a file or folder of this repository: a C# file, or a path under one of its top folders.</summary>
    [GeneratedRegex(
        @"^(?:[\w./-]+\.cs|(?:bench|benchmarks|docker-fragments|plots|images|docs|\.ci)/[\w./-]*|[A-Z]\w+/(?:[A-Z]\w+/)?)$"
    )]
    private static partial Regex SourcePath();
}
