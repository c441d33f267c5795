namespace Lightning.Bench.Tests.Support.StandIn;

/// <summary>
/// The stand-in node and chain: busybox sh scripts served by busybox httpd as CGI, state in files under the node
/// folder (/lnb). Tiny, but they answer the node interface over a socket and talk to each other over the network
/// like real nodes: a payment is an HTTP call from the payer's container to the payee's address.
/// </summary>
internal static class StandInScripts
{
    /// <summary>Files of the image: path → (content, executable).</summary>
    public static IReadOnlyDictionary<string, string> Files { get; } =
        new Dictionary<string, string>
        {
            ["usr/local/bin/standin-node"] = """
                #!/bin/sh
                # Stand-in Lightning node: --alias=NAME --addr=HOST:PORT (serves its interface there) --chain=HOST:PORT.
                case "$1" in --version) echo "standin-node v1"; exit 0;; esac
                for a in "$@"; do case "$a" in
                  --alias=*) echo "${a#--alias=}" > /lnb/alias;;
                  --addr=*) echo "${a#--addr=}" > /lnb/addr;;
                  --chain=*) echo "${a#--chain=}" > /lnb/chain;;
                esac; done
                mkdir -p /lnb/channels /lnb/peers /lnb/invoices /lnb/paid
                echo "standin node $(cat /lnb/alias) started on $(cat /lnb/addr)" >> /lnb/node.log
                exec httpd -f -p "$(cut -d: -f2 /lnb/addr)" -h /www/node
                """,
            ["usr/local/bin/bitcoind"] = """
                #!/bin/sh
                # Stand-in bitcoind: answers the miner's JSON-RPC calls on port 18443 and the nodes' chain queries.
                # Its chain (the height) lives in regtest/, so a seeded copy starts where the seed stopped; "stop" exits 0.
                # The miner's address is a real regtest one: the harness reads it with NBitcoin (the nodes' stay stand-ins).
                case "$1" in -version|--version) echo "Bitcoin Core stand-in v0.0"; exit 0;; esac
                mkdir -p /lnb/funds /lnb/regtest
                [ -f /lnb/regtest/height ] || echo 0 > /lnb/regtest/height
                : > /lnb/pending
                echo "stand-in bitcoind started at height $(cat /lnb/regtest/height)" >> /lnb/regtest/debug.log
                httpd -p 18443 -h /www/chain
                while [ ! -f /lnb/stopped ]; do sleep 0.1; done
                exit 0
                """,
            ["www/lib.sh"] = """
                q() { echo "$QUERY_STRING" | tr '&' '\n' | sed -n "s/^$1=//p"; }
                reply() { printf 'Content-Type: text/plain\r\n\r\n'; printf '%s\n' "$@"; }
                log() { echo "$(date +%H:%M:%S) $1 $QUERY_STRING" >> /lnb/node.log; }
                height() { wget -qO- "http://$(cat /lnb/chain)/cgi-bin/height"; }
                """,
            // The chain: JSON-RPC at / (index.cgi: busybox httpd's fallback for a directory without index.html).
            ["www/chain/cgi-bin/index.cgi"] = """
                #!/bin/sh
                body=$(head -c "${CONTENT_LENGTH:-0}")
                method=$(echo "$body" | sed -n 's/.*"method":"\([a-z]*\)".*/\1/p')
                id=$(echo "$body" | sed -n 's/.*"id":"\([^"]*\)".*/\1/p')
                result='null'
                case "$method" in
                  getblockchaininfo) result='{"chain":"regtest"}';;
                  createwallet) result='{"name":"miner"}';;
                  getnewaddress) result='"bcrt1qw508d6qejxtdg4y5r3zarvary0c5xw7kygt080"';;
                  getblockcount) result=$(cat /lnb/regtest/height);;
                  stop) touch /lnb/stopped; result='"Bitcoin Core stopping"';;
                  generatetoaddress)
                    n=$(echo "$body" | sed -n 's/.*"params":\[\([0-9]*\),.*/\1/p')
                    echo $(( $(cat /lnb/regtest/height) + n )) > /lnb/regtest/height.new && mv /lnb/regtest/height.new /lnb/regtest/height
                    while read -r addr amount; do [ -n "$addr" ] && echo "$amount" > "/lnb/funds/$addr"; done < /lnb/pending
                    : > /lnb/pending
                    result='[]';;
                  sendmany)
                    echo "$body" | sed 's/.*"params":\["",{//; s/}\].*//' | tr ',' '\n' | sed 's/"\([^"]*\)":\(.*\)/\1 \2/' >> /lnb/pending
                    result='"standin-tx"';;
                  *) printf 'Content-Type: application/json\r\n\r\n{"result":null,"error":{"code":-32601,"message":"Method not found"},"id":"%s"}\n' "$id"; exit 0;;
                esac
                printf 'Content-Type: application/json\r\n\r\n{"result":%s,"error":null,"id":"%s"}\n' "$result" "$id"
                """,
            ["www/chain/cgi-bin/height"] = """
                #!/bin/sh
                printf 'Content-Type: text/plain\r\n\r\n'; cat /lnb/regtest/height
                """,
            ["www/chain/cgi-bin/funds"] = """
                #!/bin/sh
                . /www/lib.sh
                f="/lnb/funds/$(q addr)"
                if [ -f "$f" ]; then reply "$(awk "BEGIN { print int($(cat "$f") * 100000000) }")"; else reply 0; fi
                """,
            ["www/node/cgi-bin/getinfo"] = """
                #!/bin/sh
                . /www/lib.sh
                reply "id=$(cat /lnb/alias)" "version=standin-node v1" "height=$(height)"
                """,
            ["www/node/cgi-bin/newaddr"] = """
                #!/bin/sh
                . /www/lib.sh; log newaddr
                reply "address=standin-$(cat /lnb/alias)"
                """,
            ["www/node/cgi-bin/balance"] = """
                #!/bin/sh
                . /www/lib.sh
                reply "sat=$(wget -qO- "http://$(cat /lnb/chain)/cgi-bin/funds?addr=standin-$(cat /lnb/alias)")"
                """,
            ["www/node/cgi-bin/connect"] = """
                #!/bin/sh
                . /www/lib.sh; log connect
                if wget -qO- "http://$(q host):$(q port)/cgi-bin/getinfo" > /dev/null; then reply ok; else reply "error cannot reach $(q host)"; fi
                """,
            ["www/node/cgi-bin/open"] = """
                #!/bin/sh
                . /www/lib.sh; log open
                peer=$(q peer); h=$(height)
                if wget -qO- "http://$(q addr)/cgi-bin/accept?peer=$(cat /lnb/alias)&height=$h" | grep -q ok; then
                  echo "$h" > "/lnb/channels/$peer"; reply ok
                else reply "error $peer refused the channel"; fi
                """,
            ["www/node/cgi-bin/accept"] = """
                #!/bin/sh
                . /www/lib.sh; log accept
                q height > "/lnb/channels/$(q peer)"; reply ok
                """,
            ["www/node/cgi-bin/channels"] = """
                #!/bin/sh
                . /www/lib.sh
                f="/lnb/channels/$(q peer)"
                if [ ! -f "$f" ]; then reply ""; elif [ "$(height)" -gt "$(cat "$f")" ]; then reply normal; else reply opening; fi
                """,
            ["www/node/cgi-bin/routes"] = """
                #!/bin/sh
                . /www/lib.sh
                f="/lnb/channels/$(q payee)"
                if [ -f "$f" ] && [ "$(height)" -gt "$(cat "$f")" ]; then reply "routes=1"; else reply "routes=0"; fi
                """,
            ["www/node/cgi-bin/invoice"] = """
                #!/bin/sh
                . /www/lib.sh; log invoice
                hash=$(q label | sha256sum | cut -c1-64)
                touch "/lnb/invoices/$hash"
                reply "invoice=standin:$(cat /lnb/alias):$hash:$(cat /lnb/addr)" "hash=$hash"
                """,
            ["www/node/cgi-bin/delinvoice"] = """
                #!/bin/sh
                . /www/lib.sh; log delinvoice
                hash=$(q label | sha256sum | cut -c1-64)
                if rm "/lnb/invoices/$hash" 2>/dev/null; then reply ok; else reply "error no unpaid invoice $(q label)"; fi
                """,
            ["www/node/cgi-bin/pay"] = """
                #!/bin/sh
                . /www/lib.sh; log pay
                payee=$(q invoice | cut -d: -f2); hash=$(q invoice | cut -d: -f3); addr=$(q invoice | cut -d: -f4-)
                if [ ! -f "/lnb/channels/$payee" ]; then reply "error no channel to $payee"; exit 0; fi
                answer=$(wget -qO- "http://$addr/cgi-bin/settle?hash=$hash")
                if [ "$answer" = ok ]; then reply ok; else reply "error $payee: $answer"; fi
                """,
            ["www/node/cgi-bin/keysend"] = """
                #!/bin/sh
                . /www/lib.sh; log keysend
                payee=$(q payee)
                if [ ! -f "/lnb/channels/$payee" ]; then reply "error no channel to $payee"; exit 0; fi
                answer=$(wget -qO- "http://$(q addr)/cgi-bin/receive")
                if [ "$answer" = ok ]; then reply ok; else reply "error $payee: $answer"; fi
                """,
            ["www/node/cgi-bin/receive"] = """
                #!/bin/sh
                . /www/lib.sh; log receive
                reply ok
                """,
            ["www/node/cgi-bin/settle"] = """
                #!/bin/sh
                . /www/lib.sh; log settle
                hash=$(q hash)
                if mv "/lnb/invoices/$hash" "/lnb/paid/$hash" 2>/dev/null; then reply ok; else reply "unknown or paid invoice $hash"; fi
                """,
        };

    /// <summary>The busybox applets the scripts use.</summary>
    public static IReadOnlyList<string> Applets { get; } =
    [
        "sh",
        "httpd",
        "wget",
        "sed",
        "head",
        "cat",
        "echo",
        "printf",
        "mkdir",
        "sha256sum",
        "cut",
        "tr",
        "sleep",
        "test",
        "[",
        "date",
        "mv",
        "grep",
        "touch",
        "awk",
        "id",
        "basename",
        "ls",
        "rm",
    ];
}
