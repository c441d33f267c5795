using System.Globalization;
using Spectre.Console;
using Spectre.Console.Rendering;

namespace Lightning.Bench.Progress;

/// <summary>
/// A live display of the run for a person at a terminal (Spectre.Console's live display): cases done of all, the case
/// running and the last one's time, the topology, a comparison's pairs, the budget and an ETA, with the latest progress
/// lines under it and where the whole log is. It redraws on its own thread, every <see cref="RefreshEvery"/> and at every
/// line; nothing else may write to the terminal meanwhile, so BenchmarkDotNet's log goes only to the run folder while it
/// shows. Lines before <see cref="Start"/> and after <see cref="Stop"/> are printed plain on <paramref name="plain"/>.
/// </summary>
internal sealed class SpectreProgressRenderer(IAnsiConsole console, TextWriter plain, int messages = 5)
    : IProgressRenderer
{
    /// <summary>Often enough for the running case's clock; a frame costs far less than a millisecond of the harness's CPU.</summary>
    public static readonly TimeSpan RefreshEvery = TimeSpan.FromSeconds(1);

    private const int NotStarted = 0;
    private const int Showing = 1;
    private const int Stopped = 2;

    private readonly Lock gate = new();
    private readonly Queue<string> latest = new();
    private readonly AutoResetEvent wake = new(false);
    private Thread? thread;
    private volatile bool stopping;
    private int state = NotStarted;

    public bool IsLive => true;

    public void Line(string line)
    {
        lock (gate)
        {
            if (state == Showing)
            {
                latest.Enqueue(line);
                while (latest.Count > messages)
                {
                    latest.Dequeue();
                }
                wake.Set();
                return;
            }
        }
        // Stopped: the display's last frame may still be drawing; the line goes under it, not into it.
        if (thread is { } drawing && drawing != Thread.CurrentThread)
        {
            drawing.Join();
        }
        lock (gate)
        {
            plain.WriteLine(line);
            plain.Flush();
        }
    }

    public void Start(ProgressModel model, string? logPath)
    {
        lock (gate)
        {
            if (state != NotStarted)
            {
                return;
            }
            state = Showing;
            var shown = logPath is null ? null : Shorter(logPath);
            thread = new Thread(() => Show(model, shown)) { IsBackground = true, Name = "lnbench progress" };
            thread.Start();
        }
    }

    public void Stop()
    {
        stopping = true;
        wake.Set();
        if (thread is { } drawing && drawing != Thread.CurrentThread)
        {
            drawing.Join();
        }
        lock (gate)
        {
            state = Stopped;
        }
    }

    private void Show(ProgressModel model, string? logPath)
    {
        try
        {
            console
                .Live(Render(model, logPath))
                .AutoClear(false)
                .Overflow(VerticalOverflow.Ellipsis)
                .Start(context =>
                {
                    while (!stopping)
                    {
                        wake.WaitOne(RefreshEvery);
                        context.UpdateTarget(Render(model, logPath));
                        context.Refresh();
                    }
                    // The last frame, with the last lines: it stays on the screen above what follows.
                    lock (gate)
                    {
                        state = Stopped;
                    }
                    context.UpdateTarget(Render(model, logPath));
                    context.Refresh();
                });
        }
        catch (Exception e) when (e is InvalidOperationException or IOException or ArgumentException)
        {
            // A terminal that cannot take the display (another live display, a closed terminal) gets plain lines.
            lock (gate)
            {
                state = Stopped;
                plain.WriteLine($"lnbench: the live display stopped ({e.Message}); progress lines follow");
                foreach (var line in latest)
                {
                    plain.WriteLine(line);
                }
                plain.Flush();
            }
        }
    }

    private IRenderable Render(ProgressModel model, string? logPath)
    {
        List<string> lines;
        lock (gate)
        {
            lines = [.. latest];
        }
        // As many lines from the start as there will be: the display keeps its height.
        while (lines.Count < messages)
        {
            lines.Add("");
        }
        return Frame(model.Snapshot(), lines, logPath, DateTime.Now);
    }

    /// <summary>One frame: the run's panel, the latest lines under it and where the whole log is.</summary>
    /// <param name="localNow">The clock the ETA's time of day is read from.</param>
    public static IRenderable Frame(ProgressSnapshot s, IReadOnlyList<string> lines, string? logPath, DateTime localNow)
    {
        var grid = new Grid().AddColumn(new GridColumn().NoWrap().PadRight(2)).AddColumn();
        // The same rows from the first frame to the last where they can be: a display that grows scrolls its top away.
        grid.AddRow(Label("Cases"), new Markup(s.CasesTotal > 0 ? Cases(s) : "[grey]—[/]"));
        grid.AddRow(Label("Now"), new Markup(Now(s)));
        if (s.LastCase is { } last)
        {
            var outcome = s.LastCaseSucceeded ? "[green]ok[/]" : "[red]failed[/]";
            var mean = s.LastCaseMean is { } m ? $", {ProgressFormat.Mean(m)} per invocation" : "";
            grid.AddRow(Label("Last"), new Markup($"{Markup.Escape(last)}: {outcome}{Markup.Escape(mean)}"));
        }
        else
        {
            grid.AddRow(Label("Last"), new Markup("[grey]—[/]"));
        }
        // A budgeted run's cases get more topologies round by round: the highest so far is not every case's.
        var topology =
            s.Topology is { } t ? Invariant($"{t} of {s.Topologies}")
            : s.Topologies == 0 ? "—"
            : s.Round > 1 ? Invariant($"up to {s.Topologies}")
            : Invariant($"{s.Topologies} per case");
        grid.AddRow(
            Label("Topology"),
            new Markup(Markup.Escape(s.Round > 1 ? $"{topology} (round {s.Round})" : topology))
        );
        if (s.PairsTotal is { } pairs)
        {
            grid.AddRow(Label("Pairs"), new Markup(Invariant($"{s.PairsDone} of {pairs} done")));
        }
        if (s.Budget is { } budget)
        {
            var used = s.Elapsed < budget ? s.Elapsed : budget;
            grid.AddRow(
                Label("Budget"),
                new Markup(
                    $"{ProgressFormat.Duration(used)} of {ProgressFormat.Duration(budget)} used, [bold]{ProgressFormat.Duration(s.BudgetLeft!.Value)} left[/]"
                )
            );
        }
        grid.AddRow(Label("Time"), new Markup(Time(s, localNow)));
        var title = string.IsNullOrEmpty(s.RunId) ? $"lnbench {s.Scenario}" : $"lnbench {s.Scenario} · run {s.RunId}";
        var panel = new Panel(grid).Header($"[bold] {Markup.Escape(title)} [/]").RoundedBorder().Expand();
        // One screen line per line, cut short: wrapped lines would make the display jump as they come and go.
        var rows = new List<IRenderable> { panel };
        rows.AddRange(lines.Select(line => new CroppedLine(line, new Style(Color.Grey))));
        if (logPath is not null)
        {
            rows.Add(
                new CroppedLine(
                    $"whole log: {logPath} (BenchmarkDotNet's and these lines)",
                    new Style(Color.Grey, decoration: Decoration.Italic)
                )
            );
        }
        return new Rows(rows);
    }

    /// <summary>The log's path from the working folder when it is under it (results/RUN/console.log): short enough to stay whole on the line.</summary>
    private static string Shorter(string path)
    {
        var relative = Path.GetRelativePath(Environment.CurrentDirectory, path);
        return relative.StartsWith("..", StringComparison.Ordinal) || Path.IsPathRooted(relative) ? path : relative;
    }

    private static Markup Label(string text) => new($"[bold]{text}[/]");

    private static string Cases(ProgressSnapshot s)
    {
        const int width = 30;
        var filled = (int)Math.Round(width * (double)s.CasesDone / s.CasesTotal);
        var failed = s.CasesFailed > 0 ? Invariant($", [red]{s.CasesFailed} failed[/]") : "";
        // Two characters, not only two colours: the bar reads on a terminal without colours too.
        return $"[green]{new string('━', filled)}[/][grey]{new string('─', width - filled)}[/] {ProgressFormat.Count(s.CasesDone, s.CasesTotal)} done{failed}";
    }

    private static string Now(ProgressSnapshot s)
    {
        if (s.CurrentCase is { } current)
        {
            var since = s.CurrentCaseElapsed is { } e ? $" [grey]for {ProgressFormat.Duration(e)}[/]" : "";
            return $"[yellow]{Markup.Escape(current)}[/]{since}";
        }
        return s.Activity is { } activity ? Markup.Escape(activity) : "[grey]between cases[/]";
    }

    private static string Time(ProgressSnapshot s, DateTime localNow)
    {
        var elapsed = $"{ProgressFormat.Duration(s.Elapsed)} elapsed";
        if (s.CasesTotal > 0 && s.CasesDone == s.CasesTotal && s.CurrentCase is null)
        {
            return s.CasesTotal == 1 ? $"{elapsed}, the case ended" : $"{elapsed}, all {s.CasesTotal} cases ended";
        }
        if (s.Eta is not { } eta)
        {
            return s.CasesTotal == 0 ? elapsed : $"{elapsed}, [grey]ETA after the first case[/]";
        }
        var at = (localNow + eta).ToString("HH:mm", CultureInfo.InvariantCulture);
        var what =
            s.Budget is null ? "ETA"
            : s.Round > 1 ? "ETA of this round"
            : "ETA of the first round";
        var mean = s.MeanCaseTime is { } m ? $" [grey]({ProgressFormat.Duration(m)} per case)[/]" : "";
        return $"{elapsed}, {what} [bold]{ProgressFormat.Duration(eta)}[/] (about {at}){mean}";
    }

    private static string Invariant(FormattableString text) => text.ToString(CultureInfo.InvariantCulture);
}
