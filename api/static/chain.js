/* munchlog's hash chain, in the browser: an exported game read back to its stored records and
 * every record's hash recomputed with WebCrypto, as domain/envelope.py does it:
 *
 *   hash = SHA-256(canonical_json({version, event, received_at, client_at, visible_to}) || prev_hash)
 *
 * with canonical JSON = sorted keys (by code point), no spaces, non-ASCII text as it is, and
 * numbers spelled as Python's json writes them. So that a number is hashed as the server hashed
 * it, the export is read by a parser of its own that keeps what JSON.parse loses: a float stays
 * a float (1.0 is not 1) and an integer past 2^53 stays exact. Then `verifyExport` checks the
 * chain and the dealing (dealing.js) of an export's text, trusting nothing the server says.
 * Exposed as `MunchlogChain` on the global object.
 */
"use strict";
(function (root) {
  const GENESIS = "0".repeat(64);
  const UTF8 = new TextEncoder();

  // ------------------------------------------------------------------ reading JSON exactly
  // A JSON float ({float}) and an integer past 2^53 ({big}), as the text spelled them.
  function PyFloat(value) { this.float = value; }
  function PyInt(value) { this.big = value; }

  function parse(text) {
    let at = 0;
    const fail = (what) => { throw new SyntaxError("not JSON: " + what + " at character " + at); };
    const space = () => { while (at < text.length && " \t\n\r".includes(text[at])) at++; };
    function value() {
      space();
      const c = text[at];
      if (c === "{") {
        at++;
        const out = {};
        space();
        if (text[at] === "}") { at++; return out; }
        for (;;) {
          space();
          if (text[at] !== '"') fail("a key");
          const k = string();
          space();
          if (text[at++] !== ":") fail("':'");
          const v = value();
          if (k === "__proto__") Object.defineProperty(out, k, { value: v, enumerable: true, writable: true, configurable: true });
          else out[k] = v;
          space();
          if (text[at] === ",") { at++; continue; }
          if (text[at] === "}") { at++; return out; }
          fail("',' or '}'");
        }
      }
      if (c === "[") {
        at++;
        const out = [];
        space();
        if (text[at] === "]") { at++; return out; }
        for (;;) {
          out.push(value());
          space();
          if (text[at] === ",") { at++; continue; }
          if (text[at] === "]") { at++; return out; }
          fail("',' or ']'");
        }
      }
      if (c === '"') return string();
      for (const [word, v] of [["true", true], ["false", false], ["null", null]]) {
        if (text.startsWith(word, at)) { at += word.length; return v; }
      }
      const m = /-?(?:0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/y;
      m.lastIndex = at;
      const found = m.exec(text);
      if (!found) fail("a value");
      at = m.lastIndex;
      if (found[1] || found[2]) return new PyFloat(Number(found[0]));
      const n = Number(found[0]);
      return Number.isSafeInteger(n) ? (n === 0 ? 0 : n) : new PyInt(BigInt(found[0]));
    }
    function string() {
      const start = at++;
      for (;;) {
        const c = text.charCodeAt(at);
        if (Number.isNaN(c)) fail("an unterminated string");
        if (c === 0x22) break;
        at += c === 0x5c ? 2 : 1;
      }
      at++;
      return JSON.parse(text.slice(start, at)); // the escapes, by the book
    }
    const out = value();
    space();
    if (at < text.length) fail("text after the value");
    return out;
  }

  // ------------------------------------------------------------------ canonical JSON
  // A float as Python's repr writes it: the shortest digits that read back (as JavaScript's),
  // in exponent form below 1e-4 and from 1e16 ("1e-05", "1e+16"), else with a ".0" if whole.
  function pyFloat(x) {
    if (Number.isNaN(x)) return "NaN";
    if (!Number.isFinite(x)) return x > 0 ? "Infinity" : "-Infinity";
    if (x === 0) return Object.is(x, -0) ? "-0.0" : "0.0";
    const [mantissa, power] = x.toExponential().split("e");
    const e = Number(power), sign = x < 0 ? "-" : "";
    const digits = mantissa.replace("-", "").replace(".", "");
    if (e < -4 || e >= 16) {
      return sign + digits[0] + (digits.length > 1 ? "." + digits.slice(1) : "") + "e" + (e < 0 ? "-" : "+") + String(Math.abs(e)).padStart(2, "0");
    }
    if (e < 0) return sign + "0." + "0".repeat(-e - 1) + digits;
    if (digits.length <= e + 1) return sign + digits + "0".repeat(e + 1 - digits.length) + ".0";
    return sign + digits.slice(0, e + 1) + "." + digits.slice(e + 1);
  }
  function canonical(v) {
    if (v === null || v === undefined) return "null";
    if (v === true) return "true";
    if (v === false) return "false";
    if (typeof v === "number") return Number.isInteger(v) ? String(v) : pyFloat(v);
    if (typeof v === "string") return JSON.stringify(v); // escapes as Python's json, ensure_ascii=False
    if (v instanceof PyFloat) return pyFloat(v.float);
    if (v instanceof PyInt) return v.big.toString();
    if (Array.isArray(v)) return "[" + v.map(canonical).join(",") + "]";
    const keys = Object.keys(v).sort(root.MunchlogDealing.byCodePoint);
    return "{" + keys.map((k) => JSON.stringify(k) + ":" + canonical(v[k])).join(",") + "}";
  }
  const canonicalBytes = (v) => UTF8.encode(canonical(v));
  async function chainHash(record, prevHash) {
    const body = { version: record.version, event: record.event, received_at: record.received_at, client_at: record.client_at, visible_to: record.visible_to };
    const bytes = UTF8.encode(canonical(body) + prevHash);
    return root.MunchlogDealing.hex(await root.MunchlogDealing.sha256(bytes));
  }

  // ------------------------------------------------------------------ exports
  const STORED = ["event", "received_at", "client_at", "visible_to", "hash", "prev_hash"];
  const isObject = (x) => x !== null && typeof x === "object" && !Array.isArray(x) && !(x instanceof PyInt) && !(x instanceof PyFloat);
  const get = (o, k) => (Object.prototype.hasOwnProperty.call(o, k) ? o[k] : null);
  // Python's truth of a JSON value: no empty list or object, no 0, no "" (`x or {}`)
  const truthy = (x) => (Array.isArray(x) ? x.length > 0 : isObject(x) ? Object.keys(x).length > 0 : x instanceof PyFloat ? x.float !== 0 : !!x);
  // The stored record an entry of a complete export came from (projections/exports/walk.py
  // record_from_entry): the entry's data back at the top of its event, the first event's
  // "_count" fields dropped.
  function recordFromEntry(entry) {
    const data = Object.assign({}, isObject(entry.data) ? entry.data : {});
    const counted = (o, k) => k.endsWith("_count") && Array.isArray(get(o, k.slice(0, -"_count".length)));
    if (entry.version === 1 && Array.isArray(data.seats)) {
      data.seats = data.seats.map((seat) => Object.fromEntries(Object.entries(seat).filter(([k]) => !counted(seat, k))));
      for (const k of Object.keys(data)) if (counted(data, k)) delete data[k];
    }
    const event = Object.assign({ type: get(entry, "type"), v: "v" in entry ? entry.v : 1, seat: get(entry, "seat"),
      cause: get(entry, "cause"), violation: get(entry, "violation") }, data);
    if (truthy(get(entry, "unchecked"))) event.unchecked = true;
    const record = { version: get(entry, "version") };
    for (const k of STORED) record[k] = get(entry, k);
    record.event = event;
    record.visible_to = truthy(record.visible_to) ? record.visible_to : {};
    return record;
  }
  // {header, records} of an export's text: the canonical JSON (one object) or NDJSON (the
  // header, then one entry a line). One game only.
  function readExport(text) {
    let obj;
    try { obj = parse(text); } catch (e) { obj = null; }
    if (!(isObject(obj) && "events" in obj)) {
      const lines = text.split("\n").filter((l) => l.trim());
      if (!lines.length) throw new Error("an empty file");
      const objects = lines.map((line, i) => {
        try { return parse(line); } catch (e) { throw new Error("line " + (i + 1) + " is not JSON"); }
      });
      const headers = objects.filter((o) => isObject(o) && "format" in o).length;
      if (headers !== 1 || !("format" in objects[0])) throw new Error(headers > 1 ? "this file holds " + headers + " games: check them one at a time" : "not a munchlog export");
      obj = Object.assign({}, objects[0], { events: objects.slice(1) });
    }
    const header = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== "events"));
    if (header.format !== "munchlog-game") throw new Error("not a munchlog-game export");
    if (header.format_version !== 1) throw new Error("an export format_version this viewer does not read: " + canonical(header.format_version));
    if (!Array.isArray(obj.events) || !obj.events.every(isObject)) throw new Error("its events are not a list of objects");
    return { header: header, records: obj.events.map(recordFromEntry) };
  }

  /* Recompute the hash chain of records, from version 1 after the genesis hash, and list every
   * problem ({version, reason, detail}), as domain/envelope.py verify_records names them:
   * bad_event, version_gap, duplicate_version / out_of_order, prev_hash_mismatch,
   * hash_mismatch. */
  async function verifyChain(records) {
    const problems = [];
    let checked = 0, head = GENESIS, expected = 1, link = GENESIS;
    for (const record of records) {
      const version = record.version;
      if (!Number.isInteger(version)) {
        problems.push({ version: expected, reason: "bad_event", detail: "not a record with a version" });
        expected += 1; link = null;
        continue;
      }
      if (version < expected) {
        problems.push({ version: version, reason: version === expected - 1 ? "duplicate_version" : "out_of_order", detail: "found after version " + (expected - 1) });
        continue;
      }
      if (version > expected) {
        problems.push({ version: expected, reason: "version_gap", detail: "missing: " + (version === expected + 1 ? expected : expected + " to " + (version - 1)) });
        link = null;
      }
      let found = null;
      if (typeof record.hash !== "string" || typeof record.prev_hash !== "string") found = ["bad_event", "no hash (only the judge's and the table's exports carry them)"];
      else if (!isObject(record.event) || !isObject(record.visible_to)) found = ["bad_event", "event and visible_to must be objects"];
      else if (link !== null && record.prev_hash !== link) found = ["prev_hash_mismatch", "it does not follow the previous record's hash"];
      else if ((await chainHash(record, record.prev_hash)) !== record.hash) found = ["hash_mismatch", "its fields do not give its hash"];
      if (found === null) {
        if (!problems.length) { checked += 1; head = record.hash; }
      } else {
        problems.push({ version: version, reason: found[0], detail: found[1] });
      }
      expected = version + 1;
      link = typeof record.hash === "string" ? record.hash : null;
    }
    const first = problems.length ? { version: problems[0].version, reason: problems[0].reason } : null;
    return { ok: !problems.length, checked: checked, first_broken: first, head: head, problems: problems };
  }

  /* The whole check of an export's text: {game_id, viewer, complete, events, chain, dealing}.
   * The chain of a complete export (the judge's or the table's: the others carry no hashes),
   * then the dealing of the records up to the first broken one. Throws for a text that is no
   * munchlog export. */
  async function verifyExport(text) {
    const { header, records } = readExport(text);
    const chain = header.complete ? await verifyChain(records) : null;
    const sound = chain && chain.problems.length ? records.filter((r) => Number.isInteger(r.version) && r.version < chain.problems[0].version) : records;
    const dealing = await root.MunchlogDealing.verify(sound, { complete: !!header.complete });
    const typeOf = (v) => { const r = records.find((x) => x.version === v); return r && r.event ? r.event.type : null; };
    if (chain && chain.first_broken) chain.first_broken.type = typeOf(chain.first_broken.version);
    return { game_id: header.game_id, viewer: header.viewer, complete: !!header.complete, events: records.length, chain: chain, dealing: dealing };
  }

  root.MunchlogChain = Object.freeze({ GENESIS, parse, canonical, canonicalBytes, pyFloat, chainHash, recordFromEntry, readExport, verifyChain, verifyExport, PyFloat, PyInt });
})(typeof window !== "undefined" ? window : globalThis);
