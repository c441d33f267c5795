using System.Reflection;
using System.Text.RegularExpressions;

namespace Lightning.Bench.Tests;

/// <summary>
/// The tests themselves, read by reflection: every test has one category, one that docs/tests.md lists, so
/// `--filter Category=…` runs every test under exactly one filter; and the page says as many categories as its table has.
/// </summary>
[Trait("Category", "Unit")]
public partial class TestCategoryTests
{
    private const string Category = "Category";

    private static readonly string TestsPage = Path.Combine(DocumentationTests.Root, "docs", "tests.md");

    [Fact]
    public void Every_test_has_exactly_one_category_and_it_is_one_docs_tests_md_lists()
    {
        var documented = DocumentedCategories();
        var wrong = new List<string>();
        foreach (var (type, tests) in TestClasses())
        {
            // xUnit runs the tests of public classes only: a test elsewhere is in no filter at all.
            if (!type.IsVisible)
            {
                wrong.Add($"{type.FullName}: not public, so xUnit never runs its tests");
                continue;
            }
            foreach (var test in tests)
            {
                // A class's traits are its tests' (xUnit adds the method's own to them).
                var categories = Categories(test).Concat(Categories(type)).Distinct(StringComparer.Ordinal).ToList();
                var name = $"{type.FullName}.{test.Name}";
                if (categories.Count != 1)
                {
                    wrong.Add(
                        categories.Count == 0
                            ? $"{name}: no [Trait(\"{Category}\", …)]"
                            : $"{name}: in {string.Join(" and ", categories)}"
                    );
                }
                else if (!documented.Contains(categories[0]))
                {
                    wrong.Add(
                        $"{name}: category {categories[0]} is not in docs/tests.md ({string.Join(", ", documented)})"
                    );
                }
            }
        }
        Assert.True(wrong.Count == 0, string.Join('\n', wrong));
    }

    [Fact]
    public void Docs_tests_md_says_as_many_categories_as_its_table_lists_and_every_one_has_tests()
    {
        var documented = DocumentedCategories();
        var said = CategoryCount().Match(File.ReadAllText(TestsPage));
        Assert.True(
            said.Success,
            "docs/tests.md does not say how many categories the tests are in (\"in N categories\")"
        );
        Assert.Equal(documented.Count, Array.IndexOf(NumberWords, said.Groups["count"].Value.ToLowerInvariant()));

        var used = TestClasses()
            .SelectMany(c => c.Tests.SelectMany(Categories).Concat(Categories(c.Type)))
            .ToHashSet(StringComparer.Ordinal);
        var unused = documented.Where(c => !used.Contains(c)).ToList();
        Assert.True(unused.Count == 0, $"docs/tests.md lists categories no test is in: {string.Join(", ", unused)}");
    }

    private static readonly string[] NumberWords =
    [
        "zero",
        "one",
        "two",
        "three",
        "four",
        "five",
        "six",
        "seven",
        "eight",
        "nine",
        "ten",
    ];

    /// <summary>Classes of this assembly with test methods ([Fact], [Theory] and the skippable ones derive from FactAttribute).</summary>
    private static IEnumerable<(Type Type, IReadOnlyList<MethodInfo> Tests)> TestClasses() =>
        typeof(TestCategoryTests)
            .Assembly.GetTypes()
            .Where(t => t.IsClass && !t.IsAbstract)
            .Select(t =>
                (
                    Type: t,
                    Tests: (IReadOnlyList<MethodInfo>)
                        t.GetMethods(
                                BindingFlags.Public
                                    | BindingFlags.NonPublic
                                    | BindingFlags.Instance
                                    | BindingFlags.Static
                            )
                            .Where(m => m.IsDefined(typeof(FactAttribute), inherit: true))
                            .ToList()
                )
            )
            .Where(c => c.Tests.Count > 0);

    /// <summary>The Category traits on a method, or on a class and the classes it derives from.</summary>
    private static IEnumerable<string> Categories(MemberInfo member)
    {
        var traits = new List<CustomAttributeData>(member.GetCustomAttributesData());
        for (var type = (member as Type)?.BaseType; type is not null; type = type.BaseType)
        {
            traits.AddRange(type.GetCustomAttributesData());
        }
        return traits
            .Where(a =>
                a.AttributeType == typeof(TraitAttribute) && (string?)a.ConstructorArguments[0].Value == Category
            )
            .Select(a => (string)a.ConstructorArguments[1].Value!);
    }

    /// <summary>The first column of docs/tests.md's "category | needs | covers" table.</summary>
    private static IReadOnlyList<string> DocumentedCategories()
    {
        var lines = File.ReadAllLines(TestsPage);
        var header = Array.FindIndex(lines, l => TableHeader().IsMatch(l));
        Assert.True(header >= 0, "docs/tests.md has no | category | needs | covers | table");
        var categories = new List<string>();
        foreach (var row in lines.Skip(header + 2).TakeWhile(l => l.StartsWith('|')))
        {
            var match = TableRow().Match(row);
            Assert.True(
                match.Success,
                $"docs/tests.md: a row of the categories table names no `category`: {row[..Math.Min(row.Length, 60)]}"
            );
            categories.Add(match.Groups["category"].Value);
        }
        return categories;
    }

    [GeneratedRegex(@"^\|\s*category\s*\|\s*needs\s*\|\s*covers\s*\|$")]
    private static partial Regex TableHeader();

    [GeneratedRegex(@"^\|\s*`(?<category>[A-Za-z0-9]+)`\s*\|")]
    private static partial Regex TableRow();

    [GeneratedRegex(@"\bin (?<count>[a-z]+) categories\b", RegexOptions.IgnoreCase)]
    private static partial Regex CategoryCount();
}
