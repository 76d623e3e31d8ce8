// stream_bench's recording client (node, no packages): each game of the spec (JSON: {port,
// seconds, pace, out, games: [{game_id, table, activate, resolve}]}) recorded over one
// keep-alive connection, flat out (or at `pace` actions a second), for `seconds`: alternately
// activating and resolving the hero's ability (record_bench's workload). Writes to `out`
// {rate, stamps: {game_id: {version: t}}}, t the arrival of the 201 that recorded the version
// (process.hrtime: CLOCK_MONOTONIC, in seconds, the clock of bench/stream_client.js). Node, not
// Python threads: a client starved of CPU would measure itself, not the server.
"use strict";
const fs = require("fs");
const http = require("http");

const spec = JSON.parse(fs.readFileSync(process.argv[2], "utf8"));
const now = () => Number(process.hrtime.bigint()) / 1e9;
const sleep = (s) => new Promise((ok) => setTimeout(ok, Math.max(0, s * 1000)));

function post(agent, path, token, body) {
  return new Promise((resolve, reject) => {
    const req = http.request({ host: "127.0.0.1", port: spec.port, method: "POST", path, agent,
      headers: { Authorization: "Bearer " + token, "Content-Type": "application/json",
        "Content-Length": Buffer.byteLength(body) } }, (res) => {
      const parts = [];
      res.on("data", (c) => parts.push(c));
      res.on("end", () => resolve({ status: res.statusCode, data: Buffer.concat(parts).toString() }));
    });
    req.on("error", reject);
    req.end(body);
  });
}

const stamps = {};
const start = now();
const stop = start + spec.seconds;

async function table(g) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const mine = (stamps[g.game_id] = {});
  const path = `/api/games/${g.game_id}/actions`;
  let n = 0;
  while (now() < stop) {
    let answer;
    try { answer = await post(agent, path, g.table, n % 2 === 0 ? g.activate : g.resolve); }
    catch (e) { continue; }
    const t = now();
    if (answer.status === 201) {
      for (const e of JSON.parse(answer.data).events) mine[e.version] = t;
      n += 1;
    } else if (answer.status === 422) n += 1; // out of step after a stop: flip, as record.lua
    if (spec.pace) await sleep(start + n / spec.pace - now());
  }
  agent.destroy();
  return Object.keys(mine).length ? n : 0;
}

Promise.all(spec.games.map(table)).then((counts) => {
  const rate = counts.reduce((a, b) => a + b, 0) / (now() - start);
  fs.writeFileSync(spec.out, JSON.stringify({ rate, stamps }));
  process.exit(0);
});
