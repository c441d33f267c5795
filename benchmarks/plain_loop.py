#!/usr/bin/env python3
"""A plain loop over the RPC sockets of two containerized Core Lightning nodes: what the nodes do without the harness.

    benchmarks/plain_loop.py CLN_IMAGE BITCOIND_IMAGE [--payments N] [--concurrency 1,10] [--amount-msat N] [--log-stdout] [--settle] [--json FILE]
    benchmarks/plain_loop.py CLN_IMAGE BITCOIND_IMAGE --turns SOCKET --turns-log FILE [--settle] [--log-stdout]

Starts bitcoind, alice and bob with `docker run` (host network, state bind-mounted from a temp folder, the command
lines of docker-fragments/ and the harness), funds alice, opens one channel, waits until alice has a route, then per
concurrency C makes invocations of C payments at once (each: `invoice` on bob, then `xpay` on alice; one pair of
sockets per worker, all on one asyncio event loop), 5 warmup invocations then enough invocations for N payments, and prints the mean invocation time (ms) and
payments per second. Each payment is `--amount-msat` (the harness's default, 1,000,000: above the dust limit, so
every commitment carries the HTLC and its signatures; a 1-sat payment is trimmed and costs the nodes less). `--log-stdout` adds the harness's `--log-file=-` (every log line through Docker's logging
driver). `--settle` waits before each invocation, as the harness does by default, until alice and bob together have
used less than 10 % of a core over 10 ms (their cgroups' CPU counters read every millisecond, at most 1 s).

`--turns SOCKET` takes turns with the harness instead (the harness run with LNBENCH_TURN_SOCKET=SOCKET): it listens
on that Unix socket, and for each line the harness writes before one of its invocations ({"case", "invocation",
"payments"}) makes one invocation of as many payments at once on its own nodes, appends the line with its time
("ms") and the harness run's number ("run": its connection, 1, 2, …) to `--turns-log`, and answers; so the harness's invocations and the loop's alternate, at the same moments of
the machine. It serves harness runs one after another until SIGTERM or Ctrl+C. "ready" goes to stdout once its nodes
are up. Everything it started is removed at the end, also on Ctrl+C or SIGTERM. Needs python3 and docker; no Python packages.
"""
import argparse, asyncio, base64, itertools, json, os, random, shutil, signal, socket, statistics, subprocess, sys, tempfile, time, urllib.request

RPC_USER, RPC_PASSWORD = "plain", "loop" + str(random.randrange(10**9))


class Rpc:
    """Core Lightning's JSON-RPC over its Unix socket (one request at a time per connection)."""

    def __init__(self, path):
        self.sock = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self.sock.connect(path)
        self.buffer = b""
        self.next_id = 0

    def call(self, method, **params):
        self.next_id += 1
        self.sock.sendall(json.dumps({"jsonrpc": "2.0", "id": f"plain:{self.next_id}", "method": method, "params": params}).encode())
        decoder = json.JSONDecoder()
        while True:
            text = self.buffer.decode(errors="replace").lstrip()
            try:
                reply, end = decoder.raw_decode(text)
                self.buffer = text[end:].encode()
                break
            except ValueError:
                chunk = self.sock.recv(1 << 16)
                if not chunk:
                    raise RuntimeError(f"{method}: connection closed")
                self.buffer += chunk
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]


class AsyncRpc:
    """Core Lightning's JSON-RPC over its Unix socket on an asyncio event loop (one request at a time per connection)."""

    def __init__(self, reader, writer):
        self.reader, self.writer = reader, writer
        self.buffer = ""
        self.next_id = 0

    @classmethod
    async def open(cls, path):
        return cls(*await asyncio.open_unix_connection(path, limit=1 << 24))

    async def call(self, method, **params):
        self.next_id += 1
        self.writer.write(json.dumps({"jsonrpc": "2.0", "id": f"plain:{self.next_id}", "method": method, "params": params}).encode())
        await self.writer.drain()
        decoder = json.JSONDecoder()
        while True:
            text = self.buffer.lstrip()
            try:
                reply, end = decoder.raw_decode(text)
                self.buffer = text[end:]
                break
            except ValueError:
                chunk = await self.reader.read(1 << 16)
                if not chunk:
                    raise RuntimeError(f"{method}: connection closed")
                self.buffer += chunk.decode(errors="replace")
        if "error" in reply:
            raise RuntimeError(f"{method}: {reply['error']}")
        return reply["result"]


def bitcoin(port, method, *params):
    request = urllib.request.Request(f"http://127.0.0.1:{port}/", json.dumps({"jsonrpc": "1.0", "id": "plain", "method": method, "params": list(params)}).encode(),
                                     {"Authorization": "Basic " + base64.b64encode(f"{RPC_USER}:{RPC_PASSWORD}".encode()).decode()})
    with urllib.request.urlopen(request, timeout=30) as reply:
        return json.loads(reply.read())["result"]


def wait(what, probe, timeout=120):
    deadline = time.time() + timeout
    while True:
        try:
            value = probe()
            if value:
                return value
        except Exception as e:  # not ready yet
            last = e
        if time.time() > deadline:
            sys.exit(f"plain-loop: timed out waiting for {what}")
        time.sleep(0.2)


def cpu_counter(container):
    """A function returning the container's CPU time so far in nanoseconds, from its cgroup (v1 cpuacct or v2 cpu.stat)."""
    pid = subprocess.run(["docker", "inspect", "-f", "{{.State.Pid}}", container], check=True, capture_output=True, text=True).stdout.strip()
    for line in open(f"/proc/{pid}/cgroup"):
        number, controllers, path = line.rstrip("\n").split(":", 2)
        if "cpuacct" in controllers.split(","):
            for mount in ("cpu,cpuacct", "cpuacct,cpu", "cpuacct"):
                file = f"/sys/fs/cgroup/{mount}{path}/cpuacct.usage"
                if os.path.exists(file):
                    return lambda file=file: int(open(file).read())
        if number == "0" and os.path.exists(f"/sys/fs/cgroup{path}/cpu.stat"):
            file = f"/sys/fs/cgroup{path}/cpu.stat"
            return lambda file=file: 1000 * int(next(l.split()[1] for l in open(file) if l.startswith("usage_usec")))
    sys.exit(f"plain-loop: no CPU counter in {container}'s cgroups")


def settle(counters, quiet=0.010, busy_share=0.1, limit=1.0):
    """Waits until the nodes together used less than busy_share of a core over `quiet` seconds (at most `limit`)."""
    start = time.perf_counter()
    samples = [(start, sum(c() for c in counters))]
    while True:
        time.sleep(0.001)
        now, ns = time.perf_counter(), sum(c() for c in counters)
        samples.append((now, ns))
        while len(samples) > 2 and now - samples[1][0] >= quiet:
            samples.pop(0)
        at, was = samples[0]
        if now - at >= quiet and (ns - was) / 1e9 / (now - at) < busy_share or now - start >= limit:
            return now - start


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Topology:
    """bitcoind, alice and bob in containers (host network, state bind-mounted from a temp folder), alice funded, one
    channel alice→bob, and a route: what the harness's AlicePaysBob sets up, without the harness. `remove()` removes
    everything it started."""

    def __init__(self, cln_image, bitcoind_image, amount_msat=1_000_000, log_stdout=False):
        self.bitcoind_image = bitcoind_image
        self.folder = tempfile.mkdtemp(prefix="lnb-plain-", dir="/tmp")
        tag = os.path.basename(self.folder).replace("_", "-").lower()
        self.names = [f"{tag}-bitcoind", f"{tag}-alice", f"{tag}-bob"]
        self.amount_msat = amount_msat
        self.counter = 0
        self.workers = {}
        self.loop = asyncio.new_event_loop()
        try:
            self._start(cln_image, bitcoind_image, amount_msat, log_stdout)
        except BaseException:
            self.remove()
            raise

    def _start(self, cln_image, bitcoind_image, amount_msat, log_stdout):
        user = f"{os.getuid()}:{os.getgid()}"
        btc_rpc, btc_p2p, alice_port, bob_port = free_port(), free_port(), free_port(), free_port()
        os.makedirs(f"{self.folder}/bitcoind")
        subprocess.run(["docker", "run", "-d", "--init", "--name", self.names[0], "--network", "host", "--user", user, "-v", f"{self.folder}/bitcoind:/lnb",
                        "--entrypoint", "bitcoind", bitcoind_image, "-regtest", "-server", "-printtoconsole", "-datadir=/lnb",
                        f"-rpcuser={RPC_USER}", f"-rpcpassword={RPC_PASSWORD}", f"-rpcport={btc_rpc}", f"-port={btc_p2p}", "-rpcbind=127.0.0.1",
                        "-fallbackfee=0.0002", "-txindex=0", "-listen=0", "-dnsseed=0", "-listenonion=0", "-discover=0", "-keypool=1", "-maxsigcachesize=1"],
                       check=True, stdout=subprocess.DEVNULL)
        wait("bitcoind", lambda: bitcoin(btc_rpc, "getblockcount") is not None)
        bitcoin(btc_rpc, "createwallet", "miner")
        miner = bitcoin(btc_rpc, "getnewaddress")
        bitcoin(btc_rpc, "generatetoaddress", 101, miner)
        for name, node, port in (("alice", self.names[1], alice_port), ("bob", self.names[2], bob_port)):
            os.makedirs(f"{self.folder}/{name}")
            command = ["docker", "run", "-d", "--init", "--name", node, "--network", "host", "--user", user, "-v", f"{self.folder}/{name}:/lnb",
                       "--entrypoint", "lightningd", cln_image, "--network=regtest", "--log-level=info", "--developer", "--dev-fast-gossip",
                       "--dev-bitcoind-poll=1", "--rescan=0", "--rpc-file-mode=0666", "--max-concurrent-htlcs=483", "--lightning-dir=/lnb",
                       f"--alias={name}", "--bitcoin-rpcconnect=127.0.0.1", f"--bitcoin-rpcport={btc_rpc}", f"--bitcoin-rpcuser={RPC_USER}",
                       f"--bitcoin-rpcpassword={RPC_PASSWORD}", f"--addr=127.0.0.1:{port}", "--log-file=/lnb/lightningd.log"]
            if log_stdout:
                command.append("--log-file=-")
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL)
        self.alice_rpc, self.bob_rpc = f"{self.folder}/alice/regtest/lightning-rpc", f"{self.folder}/bob/regtest/lightning-rpc"
        alice = wait("alice's RPC", lambda: Rpc(self.alice_rpc))
        bob = wait("bob's RPC", lambda: Rpc(self.bob_rpc))
        self.bob_id = bob.call("getinfo")["id"]
        address = alice.call("newaddr", addresstype="all")
        bitcoin(btc_rpc, "sendtoaddress", address.get("bech32") or address["p2tr"], 1)
        bitcoin(btc_rpc, "generatetoaddress", 1, miner)
        wait("alice's funds", lambda: any(o["status"] == "confirmed" for o in alice.call("listfunds")["outputs"]))
        alice.call("connect", id=self.bob_id, host="127.0.0.1", port=bob_port)
        alice.call("fundchannel", id=self.bob_id, amount=10_000_000)
        bitcoin(btc_rpc, "generatetoaddress", 6, miner)
        wait("the channel", lambda: any(c.get("state") == "CHANNELD_NORMAL" for c in alice.call("listpeerchannels")["channels"]))
        self.alice_id = alice.call("getinfo")["id"]
        # askrene's getroutes, as xpay asks it (and as the harness waits for routes).
        wait("a route", lambda: alice.call("getroutes", source=self.alice_id, destination=self.bob_id, amount_msat=amount_msat,
                                           layers=["auto.localchans", "auto.sourcefree"], maxfee_msat=1000, final_cltv=18)["routes"])

    def cpu_counters(self):
        return [cpu_counter(self.names[1]), cpu_counter(self.names[2])]

    def invocation(self, concurrency, counters=()):
        """One invocation: `concurrency` payments at once (invoice on bob, xpay on alice), after waiting for quiet nodes
        when given their counters; returns its time in ms. The payments run on one asyncio event loop, each worker on its
        own pair of connections, kept from one invocation to the next: no threads to start or to share Python's lock."""
        if counters:
            settle(counters)
        return self.loop.run_until_complete(self._invocation(concurrency))

    async def _invocation(self, concurrency):
        if concurrency not in self.workers:
            self.workers[concurrency] = [(await AsyncRpc.open(self.alice_rpc), await AsyncRpc.open(self.bob_rpc)) for _ in range(concurrency)]

        async def pay(payer, payee):
            self.counter += 1
            invoice = await payee.call("invoice", amount_msat=self.amount_msat, label=f"plain-{concurrency}-{self.counter}-{random.random()}", description="plain loop")
            await payer.call("xpay", invstring=invoice["bolt11"])

        start = time.perf_counter()
        await asyncio.gather(*(pay(payer, payee) for payer, payee in self.workers[concurrency]))
        return (time.perf_counter() - start) * 1000

    def remove(self):
        self.loop.close()
        subprocess.run(["docker", "rm", "-f", *self.names], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        subprocess.run(["docker", "run", "--rm", "-v", f"{self.folder}:/lnb", "--entrypoint", "rm", self.bitcoind_image, "-rf", "/lnb/bitcoind", "/lnb/alice", "/lnb/bob"],
                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        shutil.rmtree(self.folder, ignore_errors=True)


def interrupt(signum, frame):
    raise KeyboardInterrupt()


def serve_turns(topology, path, log, counters):
    """One invocation per line the harness writes (its turn request), answered when done; until SIGTERM or Ctrl+C."""
    if os.path.exists(path):
        os.unlink(path)
    server = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    server.bind(path)
    server.listen(1)
    print("ready", flush=True)
    with open(log, "a") as out:
        for run in itertools.count(1):
            connection, _ = server.accept()
            with connection, connection.makefile("rwb") as stream:
                for line in stream:
                    turn = json.loads(line)
                    turn["run"] = run
                    turn["ms"] = topology.invocation(int(turn["payments"]), counters)
                    turn["at_unix_us"] = int(time.time() * 1e6)
                    out.write(json.dumps(turn) + "\n")
                    out.flush()
                    stream.write(b"ok\n")
                    stream.flush()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("cln_image")
    parser.add_argument("bitcoind_image")
    parser.add_argument("--payments", type=int, default=200)
    parser.add_argument("--concurrency", default="1,10")
    parser.add_argument("--amount-msat", type=int, default=1_000_000)
    parser.add_argument("--log-stdout", action="store_true")
    parser.add_argument("--settle", action="store_true")
    parser.add_argument("--json")
    parser.add_argument("--turns", help="a Unix socket to take turns with the harness on (LNBENCH_TURN_SOCKET)")
    parser.add_argument("--turns-log", help="with --turns: each turn as a JSON line")
    args = parser.parse_args()
    if args.turns and not args.turns_log:
        parser.error("--turns needs --turns-log FILE")
    # SIGTERM ends it as Ctrl+C does: through the finally below, which removes the nodes.
    signal.signal(signal.SIGTERM, interrupt)
    topology = None
    try:
        topology = Topology(args.cln_image, args.bitcoind_image, args.amount_msat, args.log_stdout)
        counters = topology.cpu_counters() if args.settle else []
        if args.turns:
            try:
                serve_turns(topology, args.turns, args.turns_log, counters)
            except KeyboardInterrupt:
                pass
            return
        results = {}
        for concurrency in [int(c) for c in args.concurrency.split(",")]:
            for _ in range(5):
                topology.invocation(concurrency, counters)
            times = [topology.invocation(concurrency, counters) for _ in range(max(1, args.payments // concurrency))]
            mean = statistics.fmean(times)
            results[str(concurrency)] = {"mean_ms": mean, "payments_per_second": concurrency * 1000 / mean, "invocations": len(times),
                                         "sd_ms": statistics.stdev(times) if len(times) > 1 else 0}
            print(f"Concurrency={concurrency}: {mean:.1f} ms per invocation, {concurrency * 1000 / mean:.1f} payments/s ({len(times)} invocations)", flush=True)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1)
    finally:
        if topology is not None:
            topology.remove()


if __name__ == "__main__":
    main()
