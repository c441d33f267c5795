namespace Lightning.Bench.Profiling;

/// <summary>
/// Folded stacks merged frame by frame into a tree, the shape a flame graph draws: a node's total counts the samples
/// of every stack through it, its self those of the stacks that end in it.
/// </summary>
internal sealed class CallTree
{
    public const string RootName = "all";

    private readonly Dictionary<string, CallTree> children = new(StringComparer.Ordinal);

    private CallTree(string name, int depth)
    {
        Name = name;
        Depth = depth;
    }

    public string Name { get; }

    /// <summary>0 for the root, 1 for the processes.</summary>
    public int Depth { get; }

    public long Self { get; private set; }

    public long Total { get; private set; }

    /// <summary>Children in ordinal order of name, as flamegraph.pl sorts them, so a graph's layout is stable.</summary>
    public IEnumerable<CallTree> Children => children.Values.OrderBy(c => c.Name, StringComparer.Ordinal);

    public static CallTree Build(FoldedStacks stacks)
    {
        var root = new CallTree(RootName, 0);
        foreach (var (stack, count) in stacks.Counts)
        {
            var node = root;
            node.Total += count;
            foreach (var frame in FoldedStacks.Frames(stack))
            {
                if (!node.children.TryGetValue(frame, out var child))
                {
                    node.children[frame] = child = new CallTree(frame, node.Depth + 1);
                }
                node = child;
                node.Total += count;
            }
            node.Self += count;
        }
        return root;
    }

    public CallTree? Child(string name) => children.GetValueOrDefault(name);

    /// <summary>This node and all below it.</summary>
    public IEnumerable<CallTree> DepthFirst()
    {
        var pending = new Stack<CallTree>();
        pending.Push(this);
        while (pending.TryPop(out var node))
        {
            yield return node;
            foreach (var child in node.children.Values)
            {
                pending.Push(child);
            }
        }
    }
}
