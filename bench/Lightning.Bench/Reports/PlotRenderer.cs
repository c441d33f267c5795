using Lightning.Bench.Processes;
using Lightning.Bench.Progress;

namespace Lightning.Bench.Reports;

/// <summary>Runs the project's own R script (plots/lnbench-plots.R) over a run folder; missing R or ggplot2 skips the plots with one line.</summary>
internal sealed class PlotRenderer(RunProgress progress, string rscript = PlotRenderer.DefaultRscript)
{
    public const string DefaultRscript = "Rscript";

    public static string ScriptPath => Path.Combine(AppContext.BaseDirectory, "plots", "lnbench-plots.R");

    /// <summary>Returns the PNG files written, or an empty list when the plots were skipped (the reason is printed).</summary>
    /// <param name="payment">What one payment calls, in the plots' words (the node kinds' <see cref="NodeKinds.PaymentCalls.Phrase"/>), or null.</param>
    public async Task<IReadOnlyList<string>> RenderAsync(
        string resultsDirectory,
        string? payment = null,
        CancellationToken ct = default
    )
    {
        var problem = await FindProblemAsync(rscript, ct);
        if (problem is not null)
        {
            progress.Info($"plots skipped: {problem}");
            return [];
        }
        using var step = progress.Begin("plotting with R");
        var result = await ProcessRunner.RunAsync(
            rscript,
            ["--vanilla", ScriptPath, resultsDirectory, .. (payment is null ? Array.Empty<string>() : [payment])],
            TimeSpan.FromMinutes(5),
            ct: ct
        );
        if (!result.Succeeded)
        {
            progress.Info($"plots failed (Rscript exit {result.ExitCode}): {result.Tail(5)}");
            return [];
        }
        return result
            .StandardOutput.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries)
            .Where(p => p.EndsWith(".png", StringComparison.Ordinal))
            .ToList();
    }

    /// <summary>Null when R and ggplot2 are there, else what is missing and how to install it.</summary>
    public static async Task<string?> FindProblemAsync(string rscript = DefaultRscript, CancellationToken ct = default)
    {
        try
        {
            var check = await ProcessRunner.RunAsync(
                rscript,
                ["--vanilla", "-e", "quit(status = if (requireNamespace('ggplot2', quietly = TRUE)) 0 else 3)"],
                TimeSpan.FromMinutes(1),
                ct: ct
            );
            return check.ExitCode switch
            {
                0 => null,
                3 =>
                    "the R package ggplot2 is missing: install it (Debian/Ubuntu: apt-get install r-cran-ggplot2; elsewhere: Rscript -e 'install.packages(\"ggplot2\")')",
                _ => $"Rscript failed ({check.Tail()})",
            };
        }
        catch (ToolNotFoundException)
        {
            return "R is not installed (Rscript not on PATH): install r-base-core and r-cran-ggplot2 (Debian/Ubuntu) or R from r-project.org";
        }
    }
}
