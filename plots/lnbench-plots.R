#!/usr/bin/env Rscript
# Lightning.Bench plots from a run folder's CSVs (ggplot2 only; nothing is downloaded).
#   Rscript lnbench-plots.R RESULTS_DIR [PAYMENT]
# PAYMENT says what one payment calls, as the harness's node kinds name it (e.g. "invoice on the payee + xpay on the payer").
# Writes payments-timeline.png, spans-timeline.png and span-breakdown.png into RESULTS_DIR (the last two only
# when the run collected spans), and comparison-topologies.png and comparison-ratios.png when it compared arms.
args <- commandArgs(trailingOnly = TRUE)
if (length(args) < 1 || length(args) > 2) stop("usage: Rscript lnbench-plots.R RESULTS_DIR [PAYMENT]")
dir <- args[1]
payment <- if (length(args) == 2 && nzchar(args[2])) paste0(args[2], "; ") else ""
suppressPackageStartupMessages(library(ggplot2))

# ggsave refuses images above 50 inches: a plot with a panel per node (a hub with 40 peers) is squeezed into 45.
save <- function(plot, name, width = 11, height = 6.5) {
  path <- file.path(dir, name)
  ggsave(path, plot, width = width, height = min(height, 45), dpi = 110)
  cat(path, "\n")
}
# Cases as factors in the order the run made them (the order of payments.csv), labelled by the parameters that
# differ between cases (a parameter with one value in the whole run is left out of the labels).
case_labels <- NULL
case_factor <- function(cases) {
  factor(cases, levels = names(case_labels), labels = unname(case_labels))
}
make_case_labels <- function(cases) {
  u <- unique(cases)
  parts <- lapply(strsplit(u, ", ", fixed = TRUE), function(p) {
    kv <- strsplit(p, "=", fixed = TRUE)
    setNames(vapply(kv, function(x) paste(x[-1], collapse = "="), ""), vapply(kv, `[`, "", 1))
  })
  keys <- unique(unlist(lapply(parts, names)))
  varying <- keys[vapply(keys, function(k) length(unique(vapply(parts, function(p) p[k], ""))) > 1, TRUE)]
  if (length(varying) == 0) varying <- keys
  labels <- vapply(parts, function(p) paste(paste0(varying, "=", p[varying]), collapse = ", "), "")
  setNames(labels, u)
}

# A case key without its Topology=N part: the topologies of one case share a panel (or a bar).
without_topology <- function(cases) gsub("^, |, $", "", gsub("(, )?Topology=[0-9]+", "", cases))

# A soak: its windows and each node's resources over time.
soak_file <- file.path(dir, "soak.csv")
if (file.exists(soak_file)) {
  soak <- read.csv(soak_file, stringsAsFactors = FALSE)
  soak <- subset(soak, payments > 0)
  if (nrow(soak) > 0) {
    soak$minutes <- soak$elapsed_s / 60
    long <- rbind(
      data.frame(minutes = soak$minutes, value = soak$p50_ms, series = "p50 latency (ms)"),
      data.frame(minutes = soak$minutes, value = soak$p95_ms, series = "p95 latency (ms)"),
      data.frame(minutes = soak$minutes, value = soak$p99_ms, series = "p99 latency (ms)"),
      data.frame(minutes = soak$minutes, value = soak$payments_per_s, series = "payments/s"))
    long$series <- factor(long$series, levels = c("p50 latency (ms)", "p95 latency (ms)", "p99 latency (ms)", "payments/s"))
    plot <- ggplot(long, aes(minutes, value)) +
      geom_line(colour = "grey40", linewidth = 0.3) +
      geom_smooth(method = "loess", formula = y ~ x, se = FALSE, colour = "firebrick", linewidth = 0.7) +
      facet_wrap(~series, ncol = 1, scales = "free_y") +
      expand_limits(y = 0) +
      labs(title = "Soak: latency and throughput per window", subtitle = "grey: each sampling window; red: loess trend",
           x = "minutes since the first payment", y = NULL) +
      theme_bw()
    suppressWarnings(save(plot, "soak-latency.png", height = 8))
  }
  nodes_file <- file.path(dir, "soak-nodes.csv")
  if (file.exists(nodes_file)) {
    nodes <- read.csv(nodes_file, stringsAsFactors = FALSE)
    if (nrow(nodes) > 1) {
      nodes$minutes <- nodes$elapsed_s / 60
      metrics <- c(cpu_percent = "CPU (%)", cpu_ms_per_payment = "CPU per payment above idle (ms)", rss_mb = "RSS (MB)",
                   data_mb = "database (MB)", written_mb = "written to storage (MB)", open_files = "open files")
      long <- do.call(rbind, lapply(names(metrics), function(m) {
        data.frame(minutes = nodes$minutes, node = nodes$node, value = nodes[[m]], metric = metrics[[m]])
      }))
      long <- subset(long, !is.na(value))
      long$metric <- factor(long$metric, levels = unname(metrics))
      plot <- ggplot(long, aes(minutes, value, colour = node)) +
        geom_line(linewidth = 0.4) +
        facet_wrap(~metric, ncol = 2, scales = "free_y") +
        expand_limits(y = 0) +
        labs(title = "Soak: each node's resources over time", subtitle = "cgroup accounting of each container, sampled every window",
             x = "minutes since the first payment", y = NULL, colour = NULL) +
        theme_bw()
      suppressWarnings(save(plot, "soak-nodes.png", height = 8))
    }
  }
}

payments_file <- file.path(dir, "payments.csv")
if (!file.exists(payments_file)) quit(save = "no")
payments <- read.csv(payments_file, stringsAsFactors = FALSE)
# Operations that ended as their workload expects (a payment that succeeded, an attempt that failed at the payee);
# runs before workloads had no such column, and every success was expected.
payments$as_expected <- if ("expected" %in% names(payments)) payments$expected %in% c("true", "TRUE", TRUE) else payments$outcome == "succeeded"
if (nrow(payments) > 0) {
  case_labels <- make_case_labels(payments$case)
  payments$case <- case_factor(payments$case)
  starts <- tapply(payments$start_unix_us, payments$case, min)
  payments$since_s <- (payments$start_unix_us - starts[as.character(payments$case)]) / 1e6
  # A case's topologies share one panel, each in its own colour (Topology=N is left out of the panel's label).
  payments$topology <- factor(ifelse(grepl("Topology=", payments$case), sub(".*Topology=([0-9]+).*", "\\1", payments$case), "1"))
  payments$panel <- without_topology(as.character(payments$case))
  payments$panel[payments$panel == ""] <- "all cases"
  payments$panel <- factor(payments$panel, levels = unique(payments$panel))
  measured_ok <- subset(payments, phase == "measured" & as_expected)
  plot <- ggplot(payments, aes(since_s, latency_ms)) +
    geom_point(aes(colour = topology, shape = outcome, alpha = phase), size = 1.4) +
    geom_smooth(data = measured_ok, method = "loess", formula = y ~ x, se = FALSE, colour = "black", linewidth = 0.6) +
    facet_wrap(~panel, scales = "free_x") +
    scale_alpha_manual(values = c(measured = 0.7, warmup = 0.2)) +
    expand_limits(y = 0) +
    labs(title = "Payment latency over the run", subtitle = paste0(payment, "pale: warmups; line: loess of measured operations that ended as expected"),
         x = "seconds since the topology's first operation", y = "latency (ms)", colour = "topology", shape = NULL, alpha = NULL) +
    theme_bw()
  if (length(levels(payments$topology)) == 1) plot <- plot + guides(colour = "none")
  suppressWarnings(save(plot, "payments-timeline.png"))
}

# A scenario's size swept (--peers, --history, --alices, --carols: every number of a case but Concurrency and
# Topology, with two values or more): each case's p50 and p95 latency against it, one line per rest of the case.
if (nrow(payments) > 0) {
  ok <- subset(payments, phase == "measured" & as_expected)
  ok$key <- names(case_labels)[as.integer(ok$case)]
  pairs <- strsplit(ok$key, ", ", fixed = TRUE)
  names_in <- unique(unlist(lapply(pairs, function(p) sub("=.*", "", p))))
  sizes <- setdiff(names_in[vapply(names_in, function(n) {
    values <- unique(vapply(pairs, function(p) { hit <- grep(paste0("^", n, "="), p, value = TRUE); if (length(hit)) sub(".*=", "", hit) else NA_character_ }, ""))
    length(values) >= 2 && all(grepl("^[0-9]+$", values[!is.na(values)]))
  }, TRUE)], c("Concurrency", "Topology"))
  for (size in sizes) {
    ok$size <- as.numeric(vapply(pairs, function(p) { hit <- grep(paste0("^", size, "="), p, value = TRUE); if (length(hit)) sub(".*=", "", hit) else NA_character_ }, ""))
    ok$rest <- vapply(pairs, function(p) paste(p[!grepl(paste0("^(", size, "|Topology)="), p)], collapse = ", "), "")
    cells <- aggregate(latency_ms ~ rest + size, data = ok, FUN = function(x) c(p50 = unname(quantile(x, 0.5)), p95 = unname(quantile(x, 0.95))))
    long <- rbind(data.frame(rest = cells$rest, size = cells$size, figure = "p50 latency (ms)", value = cells$latency_ms[, "p50"]),
                  data.frame(rest = cells$rest, size = cells$size, figure = "p95 latency (ms)", value = cells$latency_ms[, "p95"]))
    plot <- ggplot(long, aes(size, value, colour = rest)) +
      geom_line() + geom_point() +
      facet_wrap(~figure, scales = "free_y") +
      expand_limits(y = 0) +
      labs(title = paste("How latency grows with", size), subtitle = "measured operations that ended as expected, all topologies of a case together",
           x = size, y = NULL, colour = NULL) +
      theme_bw() + theme(legend.position = "bottom", legend.direction = "vertical")
    suppressWarnings(save(plot, paste0("scaling-", size, ".png"), height = 5 + 0.25 * length(unique(long$rest))))
  }
}

# The routes workload: each query's latency against its amount, per build (colour) and case without its build (panel);
# points are the pathfinder's answers (found or not), lines join each build's median and, dashed, its p95 per amount.
if (nrow(payments) > 0 && all(c("amount_msat", "destinations") %in% names(payments))) {
  routes <- subset(payments, phase == "measured" & as_expected & !is.na(amount_msat) & destinations %in% c("top", "sample"))
  if (nrow(routes) > 0) {
    routes$key <- names(case_labels)[as.integer(routes$case)]
    routes$build <- ifelse(grepl("Build=", routes$key), sub(".*Build=([^,]+).*", "\\1", routes$key), "run")
    routes$panel <- gsub("^, |, $", "", gsub("(, )?(Topology|Build)=[^,]+", "", routes$key))
    routes$panel[routes$panel == ""] <- "all queries"
    routes$amount_sat <- routes$amount_msat / 1000
    routes$found <- ifelse(routes$outcome == "succeeded", "route found", "no route")
    cells <- aggregate(latency_ms ~ build + panel + amount_sat, data = routes,
                       FUN = function(x) c(p50 = unname(quantile(x, 0.5)), p95 = unname(quantile(x, 0.95))))
    cells <- data.frame(build = cells$build, panel = cells$panel, amount_sat = cells$amount_sat,
                        p50 = cells$latency_ms[, "p50"], p95 = cells$latency_ms[, "p95"])
    plot <- ggplot(routes, aes(amount_sat, latency_ms, colour = build)) +
      geom_point(aes(shape = found), alpha = 0.35, size = 1.2,
                 position = position_jitterdodge(jitter.width = 0.15, dodge.width = 0.35, seed = 1)) +
      geom_line(data = cells, aes(y = p50), linewidth = 0.8) +
      geom_line(data = cells, aes(y = p95), linewidth = 0.5, linetype = "dashed") +
      facet_wrap(~panel) +
      scale_x_log10(breaks = sort(unique(routes$amount_sat)), labels = function(x) format(x, big.mark = ",", scientific = FALSE)) +
      scale_y_log10() +
      scale_shape_manual(values = c("route found" = 16, "no route" = 4)) +
      labs(title = "Route queries: latency against amount",
           subtitle = "measured answers, all topologies of a build (x: no route fits); solid: median per amount, dashed: p95",
           x = "amount (sat, log scale)", y = "latency (ms, log scale)", colour = "build", shape = NULL) +
      theme_bw()
    suppressWarnings(save(plot, "route-amounts.png"))
  }
}

# With --probe: every node's answers to the cheap RPC over each case's time line (log scale, so a freeze stands out).
probes_path <- file.path(dir, "probes.csv")
if (file.exists(probes_path)) {
  probes <- read.csv(probes_path, stringsAsFactors = FALSE)
  probes <- probes[is.na(probes$error) | probes$error == "", ]
  if (nrow(probes) > 0) {
    probe_starts <- tapply(probes$start_unix_us, probes$case, min)
    probes$since_s <- (probes$start_unix_us - probe_starts[probes$case]) / 1e6
    probes$panel <- factor(probes$case, levels = unique(probes$case))
    probes$in_invocation <- ifelse(probes$phase == "between", "between invocations", "in an invocation")
    plot <- ggplot(probes, aes(since_s, pmax(latency_ms, 0.1), colour = node)) +
      geom_point(aes(shape = in_invocation), size = 0.9, alpha = 0.7) +
      facet_wrap(~panel, ncol = 1, scales = "free_x") +
      scale_y_log10() +
      labs(title = "How fast each node answered the probe", subtitle = "one call at a time per node, at the probe's interval; a freeze is a spike",
           x = "seconds since the case's first probe", y = "answer (ms, log scale)", colour = "node", shape = NULL) +
      theme_bw()
    if (length(unique(probes$node)) > 12) plot <- plot + guides(colour = "none")
    suppressWarnings(save(plot, "probes-timeline.png", height = 2 + 2 * length(unique(probes$case))))
  }
}

spans_path <- file.path(dir, "spans.csv")
if (file.exists(spans_path)) {
  spans <- read.csv(spans_path, stringsAsFactors = FALSE)
  if (nrow(spans) > 0) {
    # Only the benchmark itself: each case's spans between its first payment's start and its last payment's end
    # (node start-up and channel setup come before and would squeeze the payments into a sliver).
    window_start <- tapply(payments$start_unix_us, names(case_labels)[as.integer(payments$case)], min)
    window_end <- tapply(payments$end_unix_us, names(case_labels)[as.integer(payments$case)], max)
    spans <- spans[spans$case %in% names(window_start), ]
    spans <- spans[spans$start_unix_us >= window_start[spans$case] & spans$start_unix_us <= window_end[spans$case], ]
  }
  # With several topologies per case, the first one stands for its case (one column per case, not per topology).
  if (any(grepl("Topology=", spans$case))) spans <- spans[grepl("Topology=1(,|$)", spans$case), ]
  if (nrow(spans) > 0) {
    spans$since_s <- (spans$start_unix_us - window_start[spans$case]) / 1e6
    spans$case <- case_factor(spans$case)
    levels(spans$case) <- without_topology(levels(spans$case))
    spans$duration_ms <- spans$duration_us / 1000
    # The main names: the operations with the most total time, per node; the rest are left out of this picture.
    totals <- aggregate(duration_ms ~ node + operation, data = spans, FUN = sum)
    totals <- totals[order(totals$node, -totals$duration_ms), ]
    top <- do.call(rbind, lapply(split(totals, totals$node), head, 8))
    main <- merge(spans, top[, c("node", "operation")])
    plot <- ggplot(main, aes(x = since_s, xend = since_s + duration_ms / 1000, y = operation, yend = operation, colour = operation)) +
      geom_segment(linewidth = 2.5, alpha = 0.5) +
      geom_point(aes(size = duration_ms), alpha = 0.3, show.legend = FALSE) +
      facet_grid(node ~ case, scales = "free", space = "free_y", labeller = labeller(case = function(x) gsub(", ", "\n", x, fixed = TRUE))) +
      labs(title = "Spans on each node while payments run", subtitle = "the 8 operations with the most total time per node; a segment covers a span's duration; the first topology of each case",
           x = "seconds since the case's first payment", y = NULL) +
      theme_bw() + theme(legend.position = "none")
    save(plot, "spans-timeline.png", height = 2 + 2.2 * length(unique(main$node)))
  }
}

steps_path <- file.path(dir, "payment-spans.csv")
if (file.exists(steps_path)) {
  steps <- read.csv(steps_path, stringsAsFactors = FALSE)
  steps <- steps[steps$phase == "measured", ]
  measured <- payments[payments$phase == "measured" & payments$as_expected, ]
  measured$case <- without_topology(names(case_labels)[as.integer(measured$case)])
  steps$case <- without_topology(steps$case)
  if (nrow(steps) > 0 && nrow(measured) > 0) {
    counts <- table(measured$case)
    per_case <- aggregate(total_ms ~ case + operation, data = steps, FUN = sum)
    per_case$mean_ms <- per_case$total_ms / as.numeric(counts[per_case$case])
    latency <- aggregate(latency_ms ~ case, data = measured, FUN = mean)
    known <- aggregate(mean_ms ~ case, data = per_case, FUN = sum)
    other <- merge(latency, known)
    other <- data.frame(case = other$case, operation = "other (not in a payer step)", total_ms = NA,
                        mean_ms = pmax(0, other$latency_ms - other$mean_ms))
    parts <- rbind(per_case, other)
    parts <- merge(parts, latency)
    parts$case <- factor(parts$case, levels = unique(measured$case))
    parts$share <- 100 * parts$mean_ms / parts$latency_ms
    plot <- ggplot(parts, aes(x = case, y = mean_ms, fill = reorder(operation, mean_ms))) +
      geom_col(colour = "white", linewidth = 0.2) +
      geom_text(data = subset(parts, share >= 5), aes(label = sprintf("%.0f%%", share)),
                position = position_stack(vjust = 0.5), size = 3) +
      labs(title = "Where a payment's time goes", subtitle = "mean per successful measured payment; steps are the payer's calls joined by JSON-RPC id",
           x = NULL, y = "ms per payment", fill = "step") +
      scale_x_discrete(labels = function(x) gsub(", ", "\n", x, fixed = TRUE)) +
      theme_bw()
    save(plot, "span-breakdown.png")
  }
}

# The comparison: each topology's mean per arm (the unit every verdict rests on) and each ratio's interval.
topologies_path <- file.path(dir, "topologies.csv")
comparisons_path <- file.path(dir, "comparisons.csv")
if (file.exists(topologies_path) && file.exists(comparisons_path)) {
  topologies <- read.csv(topologies_path, stringsAsFactors = FALSE)
  comparisons <- read.csv(comparisons_path, stringsAsFactors = FALSE, na.strings = "-")
  arms <- length(unique(paste(topologies$build, topologies$traces)))
  if (nrow(topologies) > 0 && arms > 1 && nrow(comparisons) > 0) {
    topologies$arm <- if (length(unique(topologies$traces)) > 1) paste0(topologies$build, ", traces ", topologies$traces) else topologies$build
    topologies$arm <- factor(topologies$arm, levels = rev(unique(topologies$arm)))
    topologies$metric <- paste0(topologies$metric, ifelse(is.na(topologies$unit) | topologies$unit == "", "", paste0(" (", topologies$unit, ")")))
    means <- aggregate(mean ~ cell + metric + arm, data = topologies, FUN = mean)
    plot <- ggplot(topologies, aes(x = mean, y = arm)) +
      geom_point(aes(colour = factor(topology)), size = 2.2, alpha = 0.8) +
      geom_point(data = means, shape = 124, size = 9, colour = "black") +
      facet_wrap(vars(cell, metric), scales = "free_x", ncol = length(unique(topologies$metric))) +
      labs(title = "Each fresh topology's mean, per arm", subtitle = "dots: topologies (colour: topology index, the pairs); bar: the arm's mean",
           x = NULL, y = NULL, colour = "topology") +
      theme_bw()
    save(plot, "comparison-topologies.png", height = 2 + 1.6 * length(unique(topologies$cell)))

    threshold <- comparisons$threshold_percent[1] / 100
    comparisons$label <- paste0(comparisons$candidate, " vs ", comparisons$baseline)
    comparisons$verdict <- sub(":.*", "", comparisons$verdict)
    # One topology per arm has no interval: the columns are all "-", read as logical NA, which ggplot takes for discrete.
    for (column in c("ratio", "low", "high")) comparisons[[column]] <- as.numeric(comparisons[[column]])
    plot <- ggplot(comparisons, aes(x = ratio, y = label)) +
      annotate("rect", xmin = 1 / (1 + threshold), xmax = 1 + threshold, ymin = -Inf, ymax = Inf, alpha = 0.15, fill = "#2ca02c") +
      geom_vline(xintercept = 1, linetype = "dashed") +
      geom_errorbarh(aes(xmin = low, xmax = high, colour = verdict), height = 0.25, na.rm = TRUE) +
      geom_point(aes(colour = verdict), size = 2.5) +
      facet_grid(case ~ metric) +
      scale_colour_manual(values = c(slower = "#d62728", faster = "#1f77b4", same = "#2ca02c", unknown = "#7f7f7f")) +
      labs(title = "Ratios with their 95 % intervals over topologies", subtitle = sprintf("green band: the ±%.3g %% threshold", 100 * threshold),
           x = "candidate / baseline", y = NULL, colour = "verdict") +
      theme_bw()
    save(plot, "comparison-ratios.png", height = 2 + 1.2 * length(unique(comparisons$case)))
  }
}
