using Lightning.Bench.Progress;
using Lightning.Bench.Sources;

namespace Lightning.Bench.Tests;

/// <summary>The --source checkout, asked through the machine's git on a repository the test makes.</summary>
[Trait("Category", "Unit")]
public class GitCheckoutTests
{
    [Fact]
    public async Task A_tag_a_branch_a_short_hash_and_a_rev_resolve_to_full_commits_and_a_name_that_is_none_to_null()
    {
        using var repository = new ThrowawayRepository();
        var first = repository.Commit("first", new Dictionary<string, string?> { ["a.txt"] = "one\n" });
        repository.Git("tag", "v1.0");
        var second = repository.Commit("second", new Dictionary<string, string?> { ["a.txt"] = "two\n" });
        repository.Git("branch", "feature", first);
        var checkout = await GitCheckout.OpenAsync(repository.Path);

        Assert.Equal(first, await checkout.ResolveAsync("v1.0"));
        Assert.Equal(first, await checkout.ResolveAsync("feature"));
        Assert.Equal(first, await checkout.ResolveAsync(first[..7]));
        Assert.Equal(first, await checkout.ResolveAsync("HEAD~1"));
        Assert.Equal(second, await checkout.ResolveAsync("main"));
        Assert.Null(await checkout.ResolveAsync("v9.9"));
        // An option-like ref is a name git finds nothing for, never an option.
        Assert.Null(await checkout.ResolveAsync("--all"));

        var commit = await checkout.CommitAsync(second);
        Assert.Equal(("second", "A Developer"), (commit.Subject, commit.Author));
        Assert.Equal([first], commit.Parents);
        Assert.Equal(new DateTimeOffset(2026, 1, 1, 12, 2, 0, TimeSpan.Zero), commit.AuthorDate);
        Assert.Equal(second[..12], commit.Short);
    }

    [Fact]
    public async Task A_folder_that_is_no_checkout_is_said_in_one_line_naming_it()
    {
        var folder = Directory.CreateTempSubdirectory("lnbench-not-git-").FullName;
        try
        {
            var error = await Assert.ThrowsAsync<UsageException>(() => GitCheckout.OpenAsync(folder));
            Assert.Contains($"--source {folder} is not a git checkout", error.Message);
            Assert.DoesNotContain('\n', error.Message);
            var missing = await Assert.ThrowsAsync<UsageException>(() =>
                GitCheckout.OpenAsync(Path.Combine(folder, "nowhere"))
            );
            Assert.Contains("no such folder", missing.Message);
        }
        finally
        {
            Directory.Delete(folder, recursive: true);
        }
    }

    [Fact]
    public async Task The_range_is_the_first_parent_line_with_a_merge_as_one_commit_whose_files_and_merged_commits_are_known()
    {
        using var repository = new ThrowawayRepository();
        var good = repository.Commit("good", new Dictionary<string, string?> { ["a.txt"] = "1\n" });
        var mainline = repository.Commit("mainline", new Dictionary<string, string?> { ["b.txt"] = "1\n" });
        repository.Git("checkout", "-q", "-b", "topic", good);
        var topicOne = repository.Commit("topic one", new Dictionary<string, string?> { ["c.txt"] = "1\n2\n" });
        var topicTwo = repository.Commit(
            "topic two",
            new Dictionary<string, string?> { ["c.txt"] = "1\n", ["d.bin"] = "\0\x01" }
        );
        repository.Git("checkout", "-q", "main");
        repository.Git("merge", "-q", "--no-ff", "-m", "merge topic", "topic");
        var merge = repository.Head;
        var bad = repository.Commit("after", new Dictionary<string, string?> { ["a.txt"] = "2\n" });
        var checkout = await GitCheckout.OpenAsync(repository.Path);

        var range = await checkout.FirstParentRangeAsync(good, bad);
        Assert.Equal([mainline, merge, bad], range.Select(c => c.Hash));
        Assert.Equal(["mainline", "merge topic", "after"], range.Select(c => c.Subject));
        Assert.True(await checkout.IsAncestorAsync(good, bad));
        Assert.False(await checkout.IsAncestorAsync(bad, good));

        var mergeInfo = range[1];
        Assert.True(mergeInfo.IsMerge);
        // Against its first parent, a merge touched what the topic brought: c.txt (net one line added) and a binary file.
        var files = await checkout.FilesAsync(mergeInfo);
        Assert.Equal(
            [("c.txt", (int?)1, (int?)0), ("d.bin", null, null)],
            files.Select(f => (f.Path, f.Added, f.Deleted)).OrderBy(f => f.Path)
        );
        Assert.Equal([topicTwo, topicOne], (await checkout.MergedAsync(mergeInfo)).Select(c => c.Hash));
        Assert.Empty(await checkout.MergedAsync(range[2]));
        Assert.Equal(
            [("a.txt", (int?)1, (int?)1)],
            (await checkout.FilesAsync(range[2])).Select(f => (f.Path, f.Added, f.Deleted))
        );
    }

    [Fact]
    public async Task The_merge_base_of_two_lines_is_where_they_parted_and_none_for_commits_without_shared_history()
    {
        using var repository = new ThrowawayRepository();
        var parted = repository.Commit("parted", new Dictionary<string, string?> { ["a.txt"] = "1\n" });
        var mainline = repository.Commit("mainline", new Dictionary<string, string?> { ["b.txt"] = "1\n" });
        repository.Git("checkout", "-q", "-b", "release", parted);
        var point = repository.Commit("point release", new Dictionary<string, string?> { ["c.txt"] = "1\n" });
        repository.Git("checkout", "-q", "--orphan", "alone");
        var alone = repository.Commit("alone", new Dictionary<string, string?> { ["d.txt"] = "1\n" });
        var checkout = await GitCheckout.OpenAsync(repository.Path);

        Assert.Equal(parted, await checkout.MergeBaseAsync(point, mainline));
        Assert.Equal(parted, await checkout.MergeBaseAsync(parted, mainline));
        Assert.Null(await checkout.MergeBaseAsync(alone, mainline));
    }

    [Fact]
    public async Task A_worktree_is_a_clean_tree_of_the_commit_and_leaves_nothing_once_removed()
    {
        using var repository = new ThrowawayRepository();
        var first = repository.Commit("first", new Dictionary<string, string?> { ["a.txt"] = "one\n" });
        repository.Commit("second", new Dictionary<string, string?> { ["a.txt"] = "two\n" });
        // The checkout's own working tree has uncommitted work: the worktree has none of it, and it stays.
        File.WriteAllText(Path.Combine(repository.Path, "a.txt"), "work in progress\n");
        var checkout = await GitCheckout.OpenAsync(repository.Path);
        var tree = Path.Combine(Path.GetTempPath(), $"lnbench-src-test-{Guid.NewGuid():N}");

        await checkout.AddWorktreeAsync(first, tree);
        Assert.Equal("one\n", File.ReadAllText(Path.Combine(tree, "a.txt")));
        Assert.Equal(2, (await checkout.WorktreesAsync()).Count);
        // What a command leaves in the tree, unwritable included, goes with it.
        Directory.CreateDirectory(Path.Combine(tree, "build"));
        File.WriteAllText(Path.Combine(tree, "build", "out.o"), "x");

        await checkout.RemoveWorktreeAsync(tree);
        Assert.False(Directory.Exists(tree));
        Assert.Equal([repository.Path], await checkout.WorktreesAsync());
        Assert.Equal("work in progress\n", File.ReadAllText(Path.Combine(repository.Path, "a.txt")));
    }

    [Theory]
    [InlineData("/home/me/lightning", "lightning")]
    [InlineData("/src/My.Repo_2/", "my-repo-2")]
    [InlineData("/src/---", "source")]
    public void A_checkout_is_named_as_an_image_repository_may_hold_it(string path, string name) =>
        Assert.Equal(name, GitCheckout.NameOf(path));
}
