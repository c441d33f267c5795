using System.Text;
using Lightning.Bench.Scenarios;

namespace Lightning.Bench.Options;

/// <summary>What --help and --list print.</summary>
public static class Usage
{
    public static string Help()
    {
        var defaults = new HarnessOptions();
        return $"""
            Lightning.Bench: benchmark Lightning payments (Core Lightning) on a regtest network in Docker.

            Usage: ./run.sh [SCENARIO] [options] [-- BenchmarkDotNet options]

              SCENARIO                 one of: {string.Join(", ", ScenarioCatalog.All.Select(s => s.Name))} (default {ScenarioCatalog.Default.Name}); see --list
              --list                   list scenarios and their parameters
              --concurrency LIST       payments each payer starts at once per invocation, one case each (1 to {ScenarioCatalog.MaxConcurrency}; default: see --list)
              --carols LIST            AlicePaysBobViaCarols: Carols between Alice and Bob (default 1,4)
              --alices LIST            AlicesPayBob: number of Alices (default 4,7,10)
              --pregenerate-invoices   create every invoice during setup and measure payments only (default: invoice + pay)
              --iterations N           measured invocations per case (default {defaults.Iterations})
              --warmups N              warmup invocations per case (default {defaults.Warmups})
              --topologies K           fresh topologies per build and case, the unit every comparison replicates
                                       (default {HarnessOptions.DefaultTopologies}); cases run interleaved in a balanced, shuffled order
              --seed N                 seed of that order and of the bootstrap (default: random; kept in manifest.json)
              --threshold PCT          the smallest difference that matters (default {defaults.ThresholdPercent:0.#} %): within it a
                                       comparison says same
              --amount-msat N          amount of each payment (default {defaults.AmountMsat})
              --cln-image IMAGE        Core Lightning image for every node (default {HarnessOptions.DefaultClnImage})
              --build NAME=[KIND=]IMAGE[,NODE=[KIND=]IMAGE...]
                                       a build to compare (repeat the option); the first is the baseline of every verdict;
                                       NODE=IMAGE runs that node on another image (e.g. carol-1=mycln:dev); KIND is the
                                       node implementation (default cln, Core Lightning)
              --bitcoind-image IMAGE   bitcoind image (default {HarnessOptions.DefaultBitcoindImage})
              --no-pull                fail instead of pulling images that are not present locally
              --with-compose           start topologies with docker compose (v2, else docker-compose v1) instead of the
                                       Engine API (the generated docker-compose.yml is the same either way)
              --traces LIST            on, off, unread or a list: collect the nodes' spans (default on); on,off runs every
                                       case both ways, interleaved, and compares each mode with off; unread: nodes trace
                                       to a socket nobody reads (their cost alone)
              --no-traces              same as --traces off
              --trace-check            nodes also write Core Lightning's trace file, to count spans lost on the way
              --results DIR            where each run's folder goes (default {defaults.ResultsRoot})
              --work-dir DIR           short folder for node data and sockets (default {defaults.WorkRoot})
              --setup-timeout SECONDS  limit for each setup wait (default {defaults.StepTimeout.TotalSeconds:0})
              --no-zip                 do not write results/RUN.zip
              --allow-privileged-fragments
                                       let docker-fragments/ give containers privileged, cap_add or security_opt
              --soak DURATION|N        drive one case's payments continuously on one topology for a duration (90s, 30m,
                                       2h, 1h30m) or N payments; writes soak.csv, soak-nodes.csv, soak-report.md (trends
                                       with verdicts) and plots; traces off; Ctrl+C ends it and keeps everything
              --sample-interval S      seconds between a soak's samples (default 5)
              --budget LIST            limits a soak must keep, e.g. 'p95<250ms,rss<400MB,cpu-per-payment<20ms'
                                       (figures: p50, p95, p99, rss, cpu-per-payment, pps, failures); a broken one exits 1
              --profile                sample every node's CPU stacks (perf, its container's cgroup) in every other measured
                                       iteration, or in a soak in windows along it; writes profiles/ (folded stacks,
                                       flame graphs, top functions; with --build, differential flame graphs; in a soak,
                                       each function's trend) and what sampling cost; stops before any container if
                                       this machine cannot profile
              --profile-if-available   --profile, but run on without profiles when the machine cannot
              --profile-frequency HZ   samples per second per CPU (default 99)
              --profile-stacks MODE    dwarf (any build, the default) or fp (builds with frame pointers; cheaper)
              --profile-every DURATION in a soak: start a 10 s profile window this often (default a twentieth of the
                                       soak, at least 1m); the report gives each function's trend per payment
              --replay RUN.zip         run again the scenario, parameters and images of an earlier run (zip or folder)
              --compare A.zip B.zip    judge the cases two runs share over their topologies (nothing is benchmarked)
              --help                   this text

            Everything after `--` goes to BenchmarkDotNet (e.g. -- --memory, -- --exporters json).
            The engine is DOCKER_HOST, else the active docker context, else /var/run/docker.sock; compose is pointed at the same.
            Exit codes: 0 success, 1 a benchmark or the harness failed, 2 bad input, 130 interrupted.
            """;
    }

    public static string ScenarioList()
    {
        var text = new StringBuilder("Scenarios (run one with ./run.sh NAME [options]):\n");
        foreach (var scenario in ScenarioCatalog.All)
        {
            text.AppendLine($"  {scenario.Name}");
            text.AppendLine($"      {scenario.Description}");
            foreach (var parameter in scenario.Parameters)
            {
                text.AppendLine($"      [Params] {parameter.Name}: {parameter.Option} LIST ({parameter.Description}; default {string.Join(',', parameter.Default)})");
            }
        }
        text.AppendLine("Every scenario also has the parameters Build (--cln-image, or --build NAME=IMAGE to compare builds), Topology (1..--topologies) and Traces (--traces on,off,unread).");
        return text.ToString().TrimEnd();
    }
}
