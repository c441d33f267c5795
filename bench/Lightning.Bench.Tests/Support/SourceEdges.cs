using System.Reflection;
using Microsoft.CodeAnalysis;
using Microsoft.CodeAnalysis.CSharp;
using Microsoft.CodeAnalysis.CSharp.Syntax;

namespace Lightning.Bench.Tests.Support;

/// <summary>
/// What the harness's source names that its compiled assembly does not show: a <c>const</c> (the compiler copies its
/// value, so no reference to its type remains) and a <c>nameof</c> (the compiler writes a string). Read with Roslyn's
/// semantic model over every .cs file of the harness, compiled as the build does, with the references the tests run
/// with. Also every reference from one source file into a node kind's own folder (NodeKinds/KIND/), for the rule that
/// nothing outside a kind names it.
/// </summary>
internal sealed class SourceEdges
{
    private const string Root = "Lightning.Bench";

    private SourceEdges(IReadOnlyList<Reference> references, IReadOnlyList<Literal> literals)
    {
        References = references;
        Literals = literals;
    }

    /// <summary>A string literal in a file of the harness.</summary>
    public sealed record Literal(string Value, string File, int Line)
    {
        public override string ToString() => $"{File}:{Line} \"{Value}\"";
    }

    /// <summary>Every string literal of the source, where it is.</summary>
    public IReadOnlyList<Literal> Literals { get; }

    /// <summary>One name in one file: the folder of the file, the folder the named symbol lives in, how it was named, and where.</summary>
    public sealed record Reference(
        string FromFolder,
        string ToFolder,
        string? ToKindFolder,
        Kind How,
        string Symbol,
        string File,
        int Line
    )
    {
        public override string ToString() => $"{File}:{Line} {How} {Symbol}";
    }

    public enum Kind
    {
        /// <summary>Any other use of a symbol (the compiled assembly shows these).</summary>
        Use,

        /// <summary>A const field (or an enum member) whose value the compiler copies.</summary>
        Const,

        /// <summary>A symbol named inside nameof(…).</summary>
        NameOf,
    }

    public IReadOnlyList<Reference> References { get; }

    /// <summary>The const and nameof references from one top-level folder to another.</summary>
    public IEnumerable<Reference> SourceOnlyEdges =>
        References.Where(r => r.How != Kind.Use && r.FromFolder != r.ToFolder);

    /// <summary>The harness's source as it is in <paramref name="projectDirectory"/> (bench/Lightning.Bench).</summary>
    public static SourceEdges Read(string projectDirectory)
    {
        var files = Directory
            .EnumerateFiles(projectDirectory, "*.cs", SearchOption.AllDirectories)
            .Where(f => !IsBuildOutput(Path.GetRelativePath(projectDirectory, f)))
            .Order(StringComparer.Ordinal)
            .ToList();
        var options = new CSharpParseOptions(LanguageVersion.Preview);
        var trees = files
            .Select(f =>
                CSharpSyntaxTree.ParseText(
                    File.ReadAllText(f),
                    options,
                    path: Path.GetRelativePath(projectDirectory, f)
                )
            )
            .ToList();
        var compilation = CSharpCompilation.Create(
            "SourceEdges",
            trees.Prepend(GlobalUsings(options)),
            ReferencedAssemblies(),
            new CSharpCompilationOptions(
                OutputKind.DynamicallyLinkedLibrary,
                nullableContextOptions: NullableContextOptions.Enable,
                allowUnsafe: true
            )
        );
        // The parts source generators write (GeneratedRegex) are not run here: their missing halves are no reading error.
        var unresolved = compilation
            .GetDiagnostics()
            .Where(d => d.Severity == DiagnosticSeverity.Error && d.Id is not ("CS8795" or "CS9248"))
            .Take(5)
            .ToList();
        if (unresolved.Count > 0)
        {
            // A source the semantic model cannot read would hide edges: say so rather than read too little.
            throw new InvalidOperationException(
                "the harness's source did not compile for reading: " + string.Join("; ", unresolved)
            );
        }
        var references = new List<Reference>();
        var literals = new List<Literal>();
        foreach (var tree in trees)
        {
            literals.AddRange(
                tree.GetRoot()
                    .DescendantNodes()
                    .OfType<LiteralExpressionSyntax>()
                    .Where(l => l.IsKind(SyntaxKind.StringLiteralExpression))
                    .Select(l => new Literal(
                        l.Token.ValueText,
                        tree.FilePath,
                        l.GetLocation().GetLineSpan().StartLinePosition.Line + 1
                    ))
            );
            var model = compilation.GetSemanticModel(tree);
            var from = FolderOf(tree.FilePath);
            foreach (var name in tree.GetRoot().DescendantNodes().OfType<SimpleNameSyntax>())
            {
                if (Describe(model, name, from, tree.FilePath) is { } reference)
                {
                    references.Add(reference);
                }
            }
        }
        return new SourceEdges(references, literals);
    }

    private static bool IsBuildOutput(string relative) =>
        relative.Split(Path.DirectorySeparatorChar) is [var first, ..] && first is "obj" or "bin";

    /// <summary>The project's implicit usings (ImplicitUsings), which the build adds as a generated file.</summary>
    private static SyntaxTree GlobalUsings(CSharpParseOptions options) =>
        CSharpSyntaxTree.ParseText(
            string.Concat(
                new[]
                {
                    "System",
                    "System.Collections.Generic",
                    "System.IO",
                    "System.Linq",
                    "System.Net.Http",
                    "System.Threading",
                    "System.Threading.Tasks",
                }.Select(n => $"global using global::{n};\n")
            ),
            options,
            path: "GlobalUsings.g.cs"
        );

    /// <summary>Every assembly the test host trusts: the framework's and the harness's packages, as the build referenced them.</summary>
    private static IEnumerable<MetadataReference> ReferencedAssemblies() =>
        ((string)AppContext.GetData("TRUSTED_PLATFORM_ASSEMBLIES")!)
            .Split(Path.PathSeparator)
            .Where(p =>
                p.Length > 0
                && Path.GetFileName(p) != Assembly.GetExecutingAssembly().GetName().Name + ".dll"
                && !Path.GetFileName(p).StartsWith(Root + ".", StringComparison.Ordinal)
            )
            .Select(p => MetadataReference.CreateFromFile(p));

    private static Reference? Describe(SemanticModel model, SimpleNameSyntax name, string from, string file)
    {
        var info = model.GetSymbolInfo(name);
        var symbol = info.Symbol ?? info.CandidateSymbols.FirstOrDefault();
        if (
            symbol
            is null
                or INamespaceSymbol
                or ILocalSymbol
                or IParameterSymbol
                or ITypeParameterSymbol
                or IRangeVariableSymbol
                or ILabelSymbol
        )
        {
            return null;
        }
        var type = symbol as INamedTypeSymbol ?? symbol.ContainingType;
        var ns = type?.ContainingNamespace?.ToDisplayString() ?? symbol.ContainingNamespace?.ToDisplayString();
        if (ns is null || !(ns == Root || ns.StartsWith(Root + ".", StringComparison.Ordinal)))
        {
            return null;
        }
        var how =
            InsideNameOf(name) ? Kind.NameOf
            : symbol is IFieldSymbol { IsConst: true } ? Kind.Const
            : Kind.Use;
        var parts = ns.Split('.');
        var to = parts.Length > 2 ? parts[2] : "(root)";
        var kindFolder = to == "NodeKinds" && parts.Length > 3 ? parts[3] : null;
        return new Reference(
            from,
            to,
            kindFolder,
            how,
            symbol.ToDisplayString(),
            file,
            name.GetLocation().GetLineSpan().StartLinePosition.Line + 1
        );
    }

    private static bool InsideNameOf(SyntaxNode node) =>
        node.Ancestors()
            .OfType<InvocationExpressionSyntax>()
            .Any(i => i.Expression is IdentifierNameSyntax { Identifier.Text: "nameof" });

    /// <summary>A file's top-level folder ("Run"), or "(root)" for a file beside the project.</summary>
    public static string FolderOf(string relativePath) =>
        relativePath.Split(Path.DirectorySeparatorChar) is [var folder, _, ..] ? folder : "(root)";

    /// <summary>A file's folder under NodeKinds ("CoreLightning"), or null for a file elsewhere or in NodeKinds itself.</summary>
    public static string? KindFolderOf(string relativePath) =>
        relativePath.Split(Path.DirectorySeparatorChar) is ["NodeKinds", var kind, _, ..] ? kind : null;
}
