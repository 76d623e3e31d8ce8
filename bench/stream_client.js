// stream_bench's load generator for the streams (node, no packages): opens every stream of the
// spec (JSON: {stream_port, streams: [[game_id, token|null, after], ...]}), prints READY once
// each has sent its opening comment, records the arrival of every `id:` on every stream
// (process.hrtime: CLOCK_MONOTONIC, the clock Python's time.monotonic() reads), and on a line
// "DONE <stamps.json>" on stdin prints the latencies from each event's 201 (the stamps) to its
// arrival, and the streams' faults, as JSON. Node rather than Python: 1,000 streams' parsing
// would otherwise take a core of the 2 the server is measured on.
"use strict";
const fs = require("fs");
const net = require("net");
const readline = require("readline");

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const streams = [];
const NL = 10; // "\n"
const ID = Buffer.from("id: ");
const OPEN = Buffer.from("stream open");
let ready = 0;

function now() { return Number(process.hrtime.bigint()) / 1e6; } // ms, CLOCK_MONOTONIC

// Each stream is a raw socket: a GET written by hand, its status line checked, then the bytes
// scanned for "id: " at the start of a line. HTTP/1.1's chunk framing ("\r\n<size>\r\n")
// lies between the stream process's writes, each of whole events, so an id line still starts
// a line. Node's http module, its stream machinery per piece of 100 MB a second, would make
// this client, not the server, the load on the 2 cores.
function scan(s, chunk, t) {
  // whole lines only: the last line, if cut between two reads, waits for the next
  const all = s.tail ? Buffer.concat([s.tail, chunk]) : chunk;
  const end = all.lastIndexOf(NL) + 1;
  s.tail = end < all.length ? Buffer.from(all.subarray(end)) : null;
  let i = 0;
  if (!s.opened) {
    const head = all.indexOf("\r\n\r\n");
    if (head < 0 || head >= end) { s.tail = Buffer.from(all); return; }
    const status = all.subarray(0, all.indexOf("\r\n")).toString("latin1");
    if (!/^HTTP\/1\.1 200 /.test(status)) { console.error("status", status); process.exit(2); }
    const open = all.indexOf(OPEN, head);
    if (open < 0 || open >= end) { s.tail = Buffer.from(all); return; }
    s.opened = true;
    if (++ready === spec.streams.length) console.log("READY");
    i = open;
  }
  // the ids of one read, kept as runs of consecutive versions with the read's time: a
  // million numbers a second pushed one by one would be this client's main work
  let run = null;
  for (;;) {
    const j = all.indexOf(ID, i);
    if (j < 0 || j >= end) break;
    let k = j + 4;
    let v = 0;
    for (; all[k] !== NL; k++) v = v * 10 + (all[k] - 48);
    if (all[j - 1] === NL) {
      if (run !== null && v === run[0] + run[1]) run[1]++;
      else { run = [v, 1, t]; s.runs.push(run); }
    }
    i = k + 1;
  }
}

for (const [gid, token, after] of spec.streams) {
  const s = { gid, after, runs: [], opened: false, tail: null };
  streams.push(s);
  const auth = token ? `Authorization: Bearer ${token}\r\n` : "";
  const sock = net.connect(spec.stream_port, "127.0.0.1", () => {
    sock.write(`GET /api/games/${gid}/stream?after=${after} HTTP/1.1\r\n` +
      `Host: 127.0.0.1\r\n${auth}Accept: text/event-stream\r\n\r\n`);
  });
  sock.on("data", (chunk) => scan(s, chunk, now()));
  sock.on("error", (e) => { console.error(e.message); process.exit(2); });
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
    s.versions = [];
    s.times = [];
    for (const [first, count, t] of s.runs) {
      for (let v = first; v < first + count; v++) { s.versions.push(v); s.times.push(t); }
    }
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
