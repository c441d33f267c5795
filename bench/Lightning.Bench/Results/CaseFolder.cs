using System.Text.RegularExpressions;

namespace Lightning.Bench.Results;

/// <summary>The folder name of a case (or a cell, or a build) in a run's folder: cases/NAME, profiles/NAME.</summary>
internal static partial class CaseFolder
{
    /// <summary>"Build=cln:v26.06.6, Concurrency=1" → "Build-cln-v26-06-6-Concurrency-1".</summary>
    public static string Of(string caseKey) => NotAlphanumeric().Replace(caseKey, "-").Trim('-');

    [GeneratedRegex("[^A-Za-z0-9]+")]
    private static partial Regex NotAlphanumeric();
}
