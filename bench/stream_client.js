// stream_bench's load generator for the streams (node, no packages): opens every stream of the
// spec (JSON: {stream_port, streams: [[game_id, token|null, after], ...]}), prints READY once
// each has sent its opening comment, records the arrival of every `id:` on every stream
// (process.hrtime: CLOCK_MONOTONIC, the clock Python's time.monotonic() reads), and on a line
// "DONE <stamps.json>" on stdin prints the latencies from each event's 201 (the stamps) to its
// arrival, and the streams' faults, as JSON. Node rather than Python: 1,000 streams' parsing
// would otherwise take a core of the 2 the server is measured on.
"use strict";
const fs = require("fs");
const http = require("http");
const readline = require("readline");

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const agent = new http.Agent({ keepAlive: false, maxSockets: Infinity });
const streams = [];
let ready = 0;

function now() { return Number(process.hrtime.bigint()) / 1e6; } // ms, CLOCK_MONOTONIC

for (const [gid, token, after] of spec.streams) {
  const s = { gid, after, versions: [], times: [], opened: false, tail: "" };
  streams.push(s);
  const headers = token ? { Authorization: "Bearer " + token } : {};
  const req = http.get({ host: "127.0.0.1", port: spec.stream_port, agent,
    path: `/api/games/${gid}/stream?after=${after}`, headers }, (res) => {
    if (res.statusCode !== 200) { console.error("status", res.statusCode); process.exit(2); }
    res.setEncoding("latin1");
    res.on("data", (chunk) => {
      const t = now();
      // whole lines only: the last line, if cut between two chunks, waits for the next
      const all = s.tail + chunk;
      const end = all.lastIndexOf("\n") + 1;
      const text = all.slice(0, end);
      s.tail = all.slice(end);
      if (!s.opened && text.includes("stream open")) {
        s.opened = true;
        if (++ready === spec.streams.length) console.log("READY");
      }
      let i = 0;
      for (;;) {
        const j = text.indexOf("id: ", i);
        if (j < 0) break;
        const k = text.indexOf("\n", j);
        if (j === 0 || text[j - 1] === "\n") { s.versions.push(Number(text.slice(j + 4, k))); s.times.push(t); }
        i = k + 1;
      }
    });
  });
  req.on("error", (e) => { console.error(e.message); process.exit(2); });
}

function pct(values) {
  if (!values.length) return { n: 0 };
  const s = Float64Array.from(values).sort();
  const at = (q) => Math.round(s[Math.min(s.length - 1, Math.floor(s.length * q))] * 10) / 10;
  return { n: s.length, p50: at(0.5), p99: at(0.99), max: Math.round(s[s.length - 1] * 10) / 10 };
}

readline.createInterface({ input: process.stdin }).on("line", (line) => {
  if (!line.startsWith("DONE ")) return;
  const stamps = JSON.parse(fs.readFileSync(line.slice(5).trim(), "utf8"));
  const latencies = [];
  const faults = { missing: 0, repeated_or_out_of_order: 0, unstamped: 0 };
  for (const s of streams) {
    const mine = stamps.stamps[s.gid];
    const last = stamps.last[s.gid];
    const got = new Set(s.versions);
    for (let v = s.after + 1; v <= last; v++) if (!got.has(v)) faults.missing++;
    let ordered = got.size === s.versions.length;
    for (let i = 1; i < s.versions.length && ordered; i++) ordered = s.versions[i] === s.versions[i - 1] + 1;
    if (!ordered || (s.versions.length && s.versions[0] !== s.after + 1)) faults.repeated_or_out_of_order++;
    for (let i = 0; i < s.versions.length; i++) {
      const at = mine[String(s.versions[i])];
      if (at === undefined) faults.unstamped++;
      else latencies.push(s.times[i] - at * 1000);
    }
  }
  console.log(JSON.stringify({ latency_ms: pct(latencies), faults }));
  process.exit(0);
});
